// The run's plan on small tables: what a budget buys, the spec files asked for, and the slots a create may take.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreationBudget } from '../../harness/cleanup.js';
import { Target } from '../../harness/target.js';
import { resolveConfig } from '../../harness/config.js';
import {
  filteredOutChecks,
  forecastRules,
  makePlan,
  specFilesToLoad,
  specFilters,
  SPEC_FILTERS_ENV,
  type CheckCost,
  type CostTable,
} from '../../harness/plan.js';

const entry = (key: string, rules: string[], extra: Partial<CheckCost> = {}): CheckCost => ({
  key,
  rules,
  exercised: [],
  own: {},
  borrows: [],
  uses: [],
  made: {},
  ...extra,
});

const TABLE: CostTable = {
  checks: [
    entry('specs/a.spec.ts > x > shared one', ['R.a1'], { borrows: ['a#instance'] }),
    entry('specs/a.spec.ts > x > shared two', ['R.a2'], { borrows: ['a#instance'] }),
    entry('specs/b.spec.ts > y > owns one', ['R.b1'], { own: { instance: 1 }, made: { instance: 1 } }),
    entry('specs/b.spec.ts > y > destructive', ['R.b2'], { uses: ['destructive'] }),
  ],
  fixtures: { 'a#instance': { own: { instance: 1 }, made: { instance: 1 } } },
};

const config = (maxInstances: string) => resolveConfig({ env: {}, flags: { baseUrl: 'http://127.0.0.1:1', token: 't', maxInstances } });

describe('the plan', () => {
  it('buys the fixture two checks share before a check owning its instance, keeping one slot for refused creates', () => {
    const plan = makePlan(config('2'), false, TABLE);
    expect(plan.probeReserve.instance).toBe(1);
    expect(plan.checks.get('specs/a.spec.ts > x > shared one')?.verdict).toBe('run');
    expect(plan.checks.get('specs/a.spec.ts > x > shared two')?.verdict).toBe('run');
    expect(plan.checks.get('specs/b.spec.ts > y > owns one')).toMatchObject({
      verdict: 'skip',
      reason: expect.stringMatching(/^the budget of 2 new instances/),
    });
    expect(plan.checks.get('specs/b.spec.ts > y > destructive')).toMatchObject({ verdict: 'disabled', reason: expect.stringMatching(/--allow-destructive/) });
    expect(plan.creates).toEqual({ instance: 1 });
  });

  it('spends the budget on the spec files the run was asked for', () => {
    const plan = makePlan(config('2'), false, TABLE, ['b.spec']);
    expect(plan.checks.get('specs/a.spec.ts > x > shared one')).toMatchObject({ verdict: 'disabled', reason: expect.stringMatching(/not among/) });
    expect(plan.checks.get('specs/b.spec.ts > y > owns one')).toMatchObject({ verdict: 'run', allowance: { instance: 1 } });
    expect(specFilters({ [SPEC_FILTERS_ENV]: 'part2/compute\npart3' })).toEqual(['part2/compute', 'part3']);
    expect(specFilters({})).toEqual([]);
  });

  it('runs a check recorded as skipped that creates nothing; still skips one that creates something or needs a fixture no other check brings', () => {
    const skipped = 'needs more than 25 items in the list to tell the default page size';
    const table: CostTable = {
      checks: [
        entry('specs/c.spec.ts > x > free', ['R.c1'], { skipped, exercised: ['R.seen'] }),
        entry('specs/c.spec.ts > x > on a shared fixture', ['R.c2'], { skipped, borrows: ['c#instance'] }),
        entry('specs/c.spec.ts > x > brings the fixture', ['R.c3'], { borrows: ['c#instance'] }),
        entry('specs/c.spec.ts > x > owns one', ['R.c4'], { skipped, own: { instance: 1 }, made: { instance: 1 } }),
        entry('specs/c.spec.ts > x > makes a domain', ['R.c5'], { skipped, made: { domain: 1 } }),
        entry('specs/c.spec.ts > x > on a fixture of its own', ['R.c6'], { skipped, borrows: ['c#alone'] }),
      ],
      fixtures: { 'c#instance': { own: { instance: 1 }, made: { instance: 1 } }, 'c#alone': { own: {}, made: { domain: 1 } } },
    };
    const plan = makePlan(config('20'), false, table);
    expect(plan.checks.get('specs/c.spec.ts > x > free')).toMatchObject({ verdict: 'run', allowance: {}, recordedSkip: skipped });
    expect(plan.checks.get('specs/c.spec.ts > x > on a shared fixture')).toMatchObject({ verdict: 'run', recordedSkip: skipped });
    expect(plan.checks.get('specs/c.spec.ts > x > owns one')).toMatchObject({ verdict: 'skip', reason: skipped });
    expect(plan.checks.get('specs/c.spec.ts > x > makes a domain')).toMatchObject({ verdict: 'skip', reason: skipped });
    expect(plan.checks.get('specs/c.spec.ts > x > on a fixture of its own')).toMatchObject({ verdict: 'skip', reason: skipped });
    expect([...plan.fixtures.keys()]).toEqual(['c#instance']);
    expect(plan.creates).toEqual({ instance: 1 });
    // The forecast does not count on a check that skipped on the reference emulator: its rules may be left unjudged.
    const forecast = forecastRules(plan, ['R.c1', 'R.c3', 'R.c4', 'R.seen'], table);
    expect(forecast.get('R.c1')).toMatchObject({ status: 'skip', reason: expect.stringContaining(skipped) });
    expect(forecast.get('R.c3')).toEqual({ status: 'judged' });
    expect(forecast.get('R.c4')).toEqual({ status: 'skip', reason: skipped });
    expect(forecast.get('R.seen')).toEqual({ status: 'untested' });
  });

  it('lets a create take only the slots of its range: those the plan shares out, or the one kept for refused creates', async () => {
    const budget = new CreationBudget(mkdtempSync(join(tmpdir(), 'plan-slots-')), 'r1', 'instance', 2);
    const planned = await budget.take(0, { from: 1, to: 1 });
    expect(planned).not.toBeNull();
    expect(await budget.take(0, { from: 1, to: 1 })).toBeNull();
    const kept = await budget.take(0, { from: 2, to: 2 });
    expect(kept).not.toBeNull();
    kept!();
    expect(await budget.take(0, { from: 2, to: 2 })).not.toBeNull();
  });

  it('queues a create behind those waiting for its slots: one that releases and takes again at once never starves them', async () => {
    // Another worker's property sending refused creates one after another (each holds the kept slot for one request).
    const budget = new CreationBudget(mkdtempSync(join(tmpdir(), 'plan-fair-')), 'r1', 'instance', 1);
    let sending = true;
    const property = (async () => {
      while (sending) {
        const release = await budget.take(5000);
        await new Promise((resolve) => setTimeout(resolve, 30));
        release?.();
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waited = await budget.take(1500);
    sending = false;
    expect(waited).not.toBeNull();
    waited!();
    await property;
  });
});

describe('the spec files a run narrowed by --rules / --areas loads', () => {
  const table: CostTable = {
    checks: [
      entry('specs/part1/a.spec.ts > x > [P1.a.one] one', ['P1.a.one']),
      entry('specs/part1/a.spec.ts > x > y > [P1.b.two P1.a.two] two', ['P1.b.two', 'P1.a.two']),
      entry('specs/part2/b.spec.ts > z > [P2.b.one] three', ['P2.b.one']),
      entry('specs/part3/c.spec.ts > w > [P3.c.one] four', ['P3.c.one']),
    ],
    fixtures: {},
  };
  const narrowed = (rules: string[] | null, areas: string[] | null = null, shard: string | null = null) => ({ rules, areas, shard });

  it('are those holding a chosen check, within the files asked for; the others are listed as left out', () => {
    expect(specFilesToLoad(narrowed(['P1.a']), [], table)).toEqual(['specs/part1/a.spec.ts']);
    expect(specFilesToLoad(narrowed(null, ['P2', 'P1.b']), [], table)).toEqual(['specs/part1/a.spec.ts', 'specs/part2/b.spec.ts']);
    expect(specFilesToLoad(narrowed(['P1', 'P2']), ['part2'], table)).toEqual(['specs/part2/b.spec.ts']);
    expect(filteredOutChecks(narrowed(['P1.a']), ['part'], new Set(['specs/part1/a.spec.ts']), table)).toEqual([
      { file: 'specs/part2/b.spec.ts', name: '[P2.b.one] three', rules: ['P2.b.one'] },
      { file: 'specs/part3/c.spec.ts', name: '[P3.c.one] four', rules: ['P3.c.one'] },
    ]);
    // the left-out checks of a loaded file too: they are never declared
    expect(filteredOutChecks(narrowed(['P1.a.one']), ['part1'], new Set(['specs/part1/a.spec.ts']), table)).toEqual([
      { file: 'specs/part1/a.spec.ts', name: '[P1.b.two P1.a.two] two', rules: ['P1.b.two', 'P1.a.two'] },
    ]);
  });

  it('are the files asked for when nothing narrows the run, nothing is chosen, or a shard splits the files', () => {
    expect(specFilesToLoad(narrowed(null), ['part3'], table)).toEqual(['part3']);
    expect(specFilesToLoad(narrowed(['P9']), ['part3'], table)).toEqual(['part3']);
    expect(specFilesToLoad(narrowed(['P1.a'], null, '1/2'), [], table)).toEqual([]);
    expect(filteredOutChecks(narrowed(['P1.a'], null, '1/2'), [], new Set(), table)).toEqual([]);
    // a shard lists the left-out checks of the files it loaded
    expect(filteredOutChecks(narrowed(['P1.a'], null, '1/2'), [], new Set(['specs/part2/b.spec.ts']), table)).toEqual([
      { file: 'specs/part2/b.spec.ts', name: '[P2.b.one] three', rules: ['P2.b.one'] },
    ]);
    expect(filteredOutChecks(narrowed(null), [], new Set(), table)).toEqual([]);
  });
});

describe('what a run charges each request to', () => {
  const targetWith = (flags: Record<string, string>, env: NodeJS.ProcessEnv = {}) => {
    const out = mkdtempSync(join(tmpdir(), 'conformance-spending-'));
    const saved = process.env.CONFORMANCE_RECORD_COSTS;
    if (env.CONFORMANCE_RECORD_COSTS) process.env.CONFORMANCE_RECORD_COSTS = env.CONFORMANCE_RECORD_COSTS;
    try {
      const resolved = resolveConfig({ env: {}, flags: { baseUrl: 'http://127.0.0.1:1', token: 't', out, ...flags } });
      return new Target({ config: resolved, baseUrl: 'http://127.0.0.1:1', token: 't', controlUrl: null, embedded: false });
    } finally {
      if (saved === undefined) delete process.env.CONFORMANCE_RECORD_COSTS;
      else process.env.CONFORMANCE_RECORD_COSTS = saved;
    }
  };

  it('each check and shared fixture pays for its requests where a plan shares the budget out, or while the cost table is recorded', () => {
    expect(targetWith({ maxInstances: '4' }).tracksSpending).toBe(true);
    expect(targetWith({ maxInstances: 'unlimited', maxDatabases: 'unlimited' }, { CONFORMANCE_RECORD_COSTS: '1' }).tracksSpending).toBe(true);
  });

  it('nothing is charged with unlimited budgets (no plan reads it): checks then carry no cost', () => {
    expect(targetWith({ maxInstances: 'unlimited', maxDatabases: 'unlimited' }).tracksSpending).toBe(false);
  });
});
