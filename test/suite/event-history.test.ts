// A real account's events list holds 90 days of events: more pages than a walk of one list reads. The firewall checks
// that count a firewall's events before a change, or look for one that must not be there yet, read it only back to the
// firewall's own create (`olderThan` in specs/part3/firewalls-support.ts), and the count after a change only until it
// is reached: a few pages each, not the 50 of a whole walk (a round trip each on a distant server).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CAP } from '../../harness/pages.js';
import type { Results } from '../../reports/results.js';
import { quietRun, startEmulator, startRecordingProxy, tempDir, type CliResult, type RecordedRequest } from '../safety/support.js';

const TOKEN = 'event-history-token-3q8d';
/** The checks reading the events list before and after a firewall's change (five checks: delete has two). */
const RULES = ['P3.firewall.event.disable', 'P3.firewall.event.enable', 'P3.firewall.event.delete', 'P3.firewall.event.device-remove'];

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let run: CliResult;
let results: Results;
let requests: RecordedRequest[];

beforeAll(async () => {
  // `long-history`: 5,200 events more than the run makes, oldest first, 53 pages of 100.
  emulator = await startEmulator(TOKEN, ['long-history']);
  const proxy = await startRecordingProxy(emulator.url);
  const out = tempDir('event-history');
  try {
    run = await quietRun(proxy.url, TOKEN, out, ['--seed', '7', '--rules', RULES.join(',')]);
    results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    requests = proxy.requests;
  } finally {
    proxy.close();
  }
}, 120_000);

afterAll(() => emulator?.stop());

describe('the firewall event checks on an account with a long events history', () => {
  it('pass every rule they judge', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    for (const rule of RULES) expect(results.rules.find((candidate) => candidate.id === rule)?.status, rule).toBe('pass');
  });

  it(`read the events list a few pages a search, not the ${PAGE_CAP} pages of a whole walk`, () => {
    const pagesRead = requests.filter((request) => request.method === 'GET' && /^\/v4\/account\/events\?/.test(request.path)).length;
    // 356 pages at this seed before the walks were bounded (each count and search a whole walk), 30 after.
    expect(pagesRead).toBeGreaterThan(0);
    expect(pagesRead).toBeLessThan(2 * PAGE_CAP);
  });
});
