// The settings of a run's guest manners: --max-rps, --run-budget, --consistency-window (flags, environment, file).
import { describe, expect, it } from 'vitest';
import { ConfigError, REAL_TARGET_CONSISTENCY_WINDOW_MS, resolveConfig } from '../../harness/config.js';

const REAL = { baseUrl: 'https://api.staging.example.com', token: 'settings-token-1' };

describe('robustness settings', () => {
  it('default to no rate cap and no run budget', () => {
    const config = resolveConfig({ env: {} });
    expect(config.maxRps).toBeNull();
    expect(config.runBudgetMs).toBeNull();
  });

  it('take a consistency window of 0 on the embedded emulator and 5 s on a target given by URL, unless set', () => {
    expect(resolveConfig({ env: {} }).consistencyWindowMs).toBe(0);
    expect(resolveConfig({ env: {}, flags: REAL }).consistencyWindowMs).toBe(REAL_TARGET_CONSISTENCY_WINDOW_MS);
    expect(resolveConfig({ env: {}, flags: { ...REAL, consistencyWindowMs: '0' } }).consistencyWindowMs).toBe(0);
    expect(resolveConfig({ env: { CONFORMANCE_CONSISTENCY_WINDOW_MS: '2500' }, flags: REAL }).consistencyWindowMs).toBe(2500);
  });

  it('read from flags and the environment, flags winning', () => {
    const config = resolveConfig({ env: { CONFORMANCE_MAX_RPS: '2.5', CONFORMANCE_RUN_BUDGET_MS: '60000' }, flags: { runBudgetMs: '1800000' } });
    expect(config.maxRps).toBe(2.5);
    expect(config.runBudgetMs).toBe(1_800_000);
  });

  it('refuse bad values with one clear line', () => {
    for (const [flags, message] of [
      [{ maxRps: '0' }, /max requests per second must be a number above 0/],
      [{ maxRps: 'fast' }, /max requests per second must be a number above 0/],
      [{ runBudgetMs: '-5' }, /run budget \(ms\) must be an integer from 1/],
      [{ consistencyWindowMs: '1.5' }, /consistency window \(ms\) must be an integer from 0 to 600000/],
    ] as const) {
      expect(() => resolveConfig({ env: {}, flags })).toThrow(ConfigError);
      expect(() => resolveConfig({ env: {}, flags })).toThrow(message);
    }
  });
});
