// The unknown-id checks send a change (PUT, POST, DELETE) naming an id "that does not exist" (999999937,
// conformance-no-such-id, …): on a real account a colleague's object may hold it (the ids are the target's to give).
// Behind a proxy whose target shows an object at every such id, each change check reads the id first and reports
// `skip` with the reason, and no change reaches the object; the reads (GET) are judged as before.
import { readFileSync } from 'node:fs';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { endpointRules } from '../../rules/endpoint-rules.js';
import { quietRun, startEmulator, tempDir, type CliResult } from './support.js';

const TOKEN = 'unknown-ids-token-8q3v';
/** The ids the checks take for ones that do not exist, as they appear in a path (encoded). */
const UNKNOWN = ['999999937', 'conformance-no-such-id', '00000000-0000-4000-8000-00000000dead', 'nosuchengine%2F0.0', '192.0.2.254', '2001%3Adb8%3Adead%3A%3A'];
const UNKNOWN_ID_RULES = endpointRules.filter((rule) => rule.id.includes('.unknown-id.') && !rule.check.startsWith('untestable')).map((rule) => rule.id);
const isChange = (id: string) => !/\.unknown-id\.get-/.test(id);

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: ReturnType<typeof createServer>;
const changesReached: string[] = [];
let run: CliResult;
let results: Results;

/** Answers a GET of a path ending in an unknown id with an object; records any other request naming one; forwards the rest. */
async function startObjectShowingProxy(target: string): Promise<string> {
  const upstream = new URL(target);
  proxy = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '').split('?')[0]!;
    const named = UNKNOWN.find((id) => path.split('/').includes(id));
    if (named && incoming.method === 'GET' && path.endsWith(`/${named}`)) {
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: decodeURIComponent(named), label: 'colleague-object' }));
      return;
    }
    if (named && incoming.method !== 'GET') changesReached.push(`${incoming.method} ${path}`);
    const proxied = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => outgoing.destroy());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  const url = await startObjectShowingProxy(emulator.url);
  const out = tempDir('unknown-ids');
  run = await quietRun(url, TOKEN, out, ['--max-instances', 'unlimited', '--rules', UNKNOWN_ID_RULES.join(',')]);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 180_000);

afterAll(() => {
  proxy?.close();
  emulator?.stop();
});

const checksOf = (id: string) => results.rules.find((rule) => rule.id === id)?.checks ?? [];

describe('an object at every id the unknown-id checks take for one that does not exist', () => {
  it('receives no change: no PUT, POST or DELETE names it', () => {
    expect(UNKNOWN_ID_RULES.filter(isChange).length).toBeGreaterThan(20);
    expect(changesReached).toEqual([]);
  });

  it('makes each change check a skip with the reason', () => {
    for (const id of UNKNOWN_ID_RULES.filter(isChange)) {
      const checks = checksOf(id);
      expect(checks.length, id).toBeGreaterThan(0);
      // (a change the run's safety settings hold back reports disabled, and is not sent either)
      for (const check of checks.filter((one) => one.verdict !== 'disabled')) {
        expect(check.verdict, `${id}: ${check.message ?? ''}`).toBe('skip');
        expect(check.message, id).toMatch(/shows an object: the id taken for one that does not exist is held on this target, and left alone/);
      }
    }
  });

  it('still judges the reads: a view answering 2xx for the id fails its check, and the run exits 1', () => {
    // The views of the unknown ids (not a list under one, nor a month's statistics named by year and month after it).
    const reads = UNKNOWN_ID_RULES.filter((id) => !isChange(id) && id.endsWith('-id') && !id.endsWith('-id-id'));
    expect(reads.length).toBeGreaterThan(10);
    for (const id of reads)
      expect(
        checksOf(id).map((check) => check.verdict),
        id,
      ).toContain('fail');
    expect(run.code).toBe(1);
  });
});
