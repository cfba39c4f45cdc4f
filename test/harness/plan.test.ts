// The run's plan on small tables: what a budget buys, the spec files asked for, and the slots a create may take.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreationBudget } from '../../harness/cleanup.js';
import { resolveConfig } from '../../harness/config.js';
import { makePlan, specFilters, SPEC_FILTERS_ENV, type CheckCost, type CostTable } from '../../harness/plan.js';

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
});
