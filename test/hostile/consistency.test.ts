// Eventual consistency: behind a proxy whose reads lag behind writes (the emulator is correct, only slow to show it),
// the read-backs of generated domain updates fail without a consistency window and pass with one; and every
// scenario of the three documents, read back through the same window, reports no fail and no error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLaggyProxy, type FakeServer } from './fake-servers.js';
import { startEmulator } from '../safety/support.js';
import { EMBEDDED_RUN_SETTINGS, WALL_LIMIT_MS, runConformance } from './conformance-run.js';

const ROUND_UP = ['expire', 'refresh', 'retry', 'ttl'].map((member) => `P3.domain.${member}-sec.round-up`);

const TOKEN = 'hostile-emulator-token-01';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: FakeServer;
/** Lags every resource a write changes, its lists and the resource of an action too. */
let laggingAll: FakeServer;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startLaggyProxy(emulator.url, { lagMs: 400, prefixes: ['/v4/domains'] });
  laggingAll = await startLaggyProxy(emulator.url, { lagMs: 150, prefixes: ['/v4/', '/v4beta/'], ancestors: true });
});

afterAll(async () => {
  await proxy?.close();
  await laggingAll?.close();
  await emulator?.stop();
});

/** Valid domain updates (generated, seed 7: some change a time value) each read back after the update. */
const runWithWindow = (windowMs: number) =>
  runConformance([
    '--base-url',
    proxy.url,
    '--token',
    TOKEN,
    '--no-allure',
    '--rules',
    ROUND_UP.join(','),
    '--runs',
    '4',
    '--seed',
    '7',
    '--consistency-window',
    String(windowMs),
    'specs/properties/part3',
  ]);

describe('reads after writes on a target with replica lag', () => {
  it(
    'without a window, a stale read-back is reported as a fail',
    async () => {
      const outcome = await runWithWindow(0);
      expect(outcome.code, outcome.stderr.slice(-2000)).toBe(1);
      const failed = outcome.results!.rules.filter((rule) => ROUND_UP.includes(rule.id) && rule.status === 'fail');
      expect(failed.length).toBeGreaterThan(0);
      expect(failed[0]!.checks.map((check) => check.message).join('\n')).toMatch(/was sent as \d+ but reads back as \d+/);
    },
    WALL_LIMIT_MS + 30_000,
  );

  it(
    'with a window shorter than the lag, the run says how many reads waited it out in vain and what to raise',
    async () => {
      const outcome = await runWithWindow(100);
      expect(outcome.code, outcome.stderr.slice(-2000)).toBe(1);
      const waited = outcome.results!.checkList.filter((check) => check.unsettledReads);
      expect(waited.length).toBeGreaterThan(0);
      const reads = waited.reduce((sum, check) => sum + check.unsettledReads!, 0);
      expect(outcome.stderr).toContain(`conformance: ${reads} read(s) after a write waited the whole consistency window (100 ms) in ${waited.length} check(s)`);
      expect(outcome.stderr).toContain('raise --consistency-window');
    },
    WALL_LIMIT_MS + 30_000,
  );

  it(
    'with a 3 s window, the same run passes',
    async () => {
      const outcome = await runWithWindow(3000);
      expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
      for (const id of ROUND_UP) expect(outcome.results!.rules.find((rule) => rule.id === id)?.status, id).toBe('pass');
      expect(outcome.stderr).not.toContain('waited the whole consistency window');
    },
    WALL_LIMIT_MS + 30_000,
  );
});

describe('every scenario behind a replica lagging 150 ms, with a 3 s window', () => {
  it('reports no fail and no error: each read-back waits for the state its check expects', async () => {
    const args = [
      '--base-url',
      laggingAll.url,
      '--control-url',
      emulator.url,
      '--token',
      TOKEN,
      '--no-allure',
      ...EMBEDDED_RUN_SETTINGS, // the clock hook reached directly
      '--consistency-window',
      '3000',
      '--seed',
      '7',
      'specs/part1',
      'specs/part2',
      'specs/part3',
    ];
    const outcome = await runConformance(args, 300_000);
    const broken = outcome
      .results!.checkList.filter((check) => check.verdict === 'fail' || check.verdict === 'error')
      .map((check) => `${check.name}: ${check.message ?? ''}`.slice(0, 300));
    expect(broken).toEqual([]);
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
  }, 330_000);
});
