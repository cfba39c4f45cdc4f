// The generic file's checks of the IPv6 range endpoints, on a budget (a real target's default) and without one (the
// embedded run's). The file keeps a range between them (one range per region per account): they hold the ranges' lock
// throughout, handed from each to the next across the endpoints' blocks, and the last deletes the file's range before
// the lock goes, so another file's range check, which needs the region free, never meets it (before, it stayed until
// the file's end, and such a check coming in between skipped). A check expecting its request refused sends it to a range
// that exists (before, on a budget, the DELETE's refusals went to the range the valid DELETE had deleted: a server
// answering 404 for it before looking at the token passed them whatever it did with the token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quietRun, startEmulator, startRecordingProxy, tempDir, type CliResult, type RecordedRequest } from '../safety/support.js';

const TOKEN = 'range-span-token-7e21';
const RANGE_ENDPOINTS = ['post-networking-ipv6-ranges', 'get-networking-ipv6-ranges-id', 'delete-networking-ipv6-ranges-id'];
// (the POST's serves rule tags the properties file's valid bodies too: only the generic file runs here)
const RULES = [
  ...RANGE_ENDPOINTS.flatMap((endpoint) => ['auth', 'scope'].map((kind) => `P3.ips.${kind}.${endpoint}`)),
  ...RANGE_ENDPOINTS.slice(1).flatMap((endpoint) => ['serves', 'unknown-id'].map((kind) => `P3.ips.${kind}.${endpoint}`)),
  // (the file's next endpoint)
  'P3.ips.serves.get-networking-vlans',
];
const BUDGETS = { 'on a budget': [], 'without a budget': ['--max-instances', 'unlimited', '--max-databases', 'unlimited'] };

let emulator: Awaited<ReturnType<typeof startEmulator>>;
const runs: Record<string, { run: CliResult; requests: RecordedRequest[] }> = {};

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  for (const [name, args] of Object.entries(BUDGETS)) {
    const proxy = await startRecordingProxy(emulator.url);
    const run = await quietRun(proxy.url, TOKEN, tempDir('range-span'), ['--rules', RULES.join(','), ...args]);
    runs[name] = { run, requests: proxy.requests };
    proxy.close();
  }
}, 120_000);

afterAll(() => emulator?.stop());

const RANGE = /^\/v4\/networking\/ipv6\/ranges\/([^?]+)/;
const rangeOf = (request: RecordedRequest) => decodeURIComponent(RANGE.exec(request.path)?.[1] ?? '') || undefined;
const succeeded = (request: RecordedRequest) => request.status >= 200 && request.status < 300;

describe.each(Object.keys(BUDGETS))("the generic file's IPv6 range checks, %s", (name) => {
  it('fail no check', () => {
    expect(runs[name]!.run.code, runs[name]!.run.stderr.slice(-2000)).toBe(0);
  });

  it('delete the last range they made before the file goes on to its next endpoint', () => {
    const { requests } = runs[name]!;
    const next = requests.findIndex((request) => request.method === 'GET' && request.path.startsWith('/v4beta/networking/vlans'));
    expect(next).toBeGreaterThan(0);
    const before = requests.slice(0, next);
    const created = before.filter((request) => request.method === 'POST' && request.path === '/v4/networking/ipv6/ranges' && succeeded(request));
    const deleted = before.filter((request) => request.method === 'DELETE' && rangeOf(request) && succeeded(request));
    expect(created.length).toBeGreaterThan(1);
    expect(deleted).toHaveLength(created.length);
  });

  it('send each request expected refused to a range not deleted', () => {
    const deleted = new Set<string>();
    const stale: string[] = [];
    for (const request of runs[name]!.requests) {
      const range = rangeOf(request);
      if (!range || range.startsWith('2001:db8:dead')) continue;
      if ([401, 403].includes(request.status) && deleted.has(range)) stale.push(`${request.method} ${range} → ${request.status}`);
      if (request.method === 'DELETE' && succeeded(request)) deleted.add(range);
    }
    expect(stale).toEqual([]);
  });
});
