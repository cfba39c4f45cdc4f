// A target whose every list claims a billion pages (and answers each one): `sweep` and the cleanup after SIGTERM stop
// at their page cap, their deadline and the rate cap, list what they could not read, and end within their limits.
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';
import { conformance, tempDir } from './support.js';

const TOKEN = 'endless-list-token-81f2';
const LISTS = 7;
const PAGE_CAP = 50;
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const page = Number(url.searchParams.get('page') ?? 1);
    if (url.pathname.startsWith('/__control'))
      return void response.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"reason":"Not found"}]}');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: [{ id: page, label: `someone-else-${page}` }], page, pages: 1e9, results: 1e11 }));
  });
});
afterAll(() => server?.close());

const listReads = (from = 0) => server.seen.slice(from).filter((seen) => seen.method === 'GET' && /[?&]page=\d+/.test(seen.path)).length;

describe('a list claiming 10^9 pages', () => {
  it('sweep reads each list up to the page cap, says so, and exits 1', async () => {
    const before = server.seen.length;
    const started = Date.now();
    const result = await conformance(['sweep', '--run-id', 'endless1', '--base-url', server.url, '--token', TOKEN, '--out', tempDir('endless-sweep')]);
    expect(result.code, result.stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(listReads(before)).toBe(LISTS * PAGE_CAP);
    expect(result.stdout).toMatch(/^not read: \/v4\/compute\/instances: not read past page 50 \(it claims more\)/m);
    expect(result.stdout).toMatch(/sweep: 0 deleted, 0 already gone, 0 could not be deleted, 7 lists not read to the end/);
  }, 60_000);

  it('sweep stops at its deadline and keeps to the rate cap', async () => {
    const before = server.seen.length;
    const started = Date.now();
    const result = await conformance([
      'sweep',
      '--run-id',
      'endless2',
      '--base-url',
      server.url,
      '--token',
      TOKEN,
      '--out',
      tempDir('endless-budget'),
      '--run-budget',
      '2000',
      '--max-rps',
      '20',
    ]);
    const took = Date.now() - started;
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/not read from page \d+ on \(out of time\)/);
    // 2 s at 20 requests a second, plus the process start.
    expect(listReads(before)).toBeLessThanOrEqual(45);
    expect(took).toBeLessThan(15_000);
  }, 60_000);

  it('a run given SIGTERM ends within its limits: its cleanup reads each list up to the page cap', async () => {
    const out = tempDir('endless-sigterm');
    let child: ChildProcess | undefined;
    const before = server.seen.length;
    const finished = conformance(
      [
        'run',
        '--base-url',
        server.url,
        '--token',
        TOKEN,
        '--out',
        out,
        '--run-id',
        'endless3',
        '--timeout',
        '1000',
        '--consistency-window',
        '0',
        '--no-allure',
        '--progress',
        'quiet',
        'specs/generic/part3',
      ],
      { started: (started) => (child = started) },
    );
    while (server.seen.length - before < 20) await sleep(50);
    child!.kill('SIGTERM');
    const signalled = Date.now();
    const result = await finished;
    const stopMs = Date.now() - signalled;
    expect(result.code, result.stderr.slice(-2000)).toBe(143);
    // The checks' grace (5 s), their wind-down (up to 10 s) and the cleanup's 30 s.
    expect(stopMs).toBeLessThan(45_000);
    expect(result.stderr).toMatch(/conformance: not read: \/v4\/compute\/instances: not read past page 50/);
    expect(result.stderr).toMatch(
      /conformance: interrupted by SIGTERM: .*cleanup deleted 0, 0 remain and 7 lists were not read to the end: conformance sweep --run-id endless3/,
    );
  }, 90_000);
});
