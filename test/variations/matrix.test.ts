// The variation gate: a full run against an emulator making allowed choices differently (choices the documents leave
// open: a few variations per run, each alone when its group was not clean) reports no fail and no error. A
// variation that fails is a false claim of the suite: fix the check, never weaken or drop the variation. `npm test` runs every variation, beside the mutation matrix and on the same
// worker design; VARIATION_SAMPLE=N runs a deterministic sample of N for a quicker local round.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { VARIATIONS } from '../../emulator/variations/index.js';
import { renderVariationsHtml, type VariationOutcome } from '../../reports/variations.js';
import { sampleFaults } from '../mutation/matrix.js';
import { GROUP_SIZE, groupsOf, MATRIX_RUNS, runVariationMatrix } from './matrix.js';

const REPORTS = 'reports/out';
const sample = process.env['VARIATION_SAMPLE'] ?? 'all';
if (sample !== 'all' && !/^[1-9]\d*$/.test(sample)) throw new Error(`VARIATION_SAMPLE is "all" or a positive number of variations, not "${sample}"`);
const variations = sample === 'all' ? VARIATIONS : sampleFaults(VARIATIONS, Number(sample));
const outcomes = new Map<string, VariationOutcome>();

describe('the variation catalogue', () => {
  it('holds at least 25 variations', () => {
    expect(VARIATIONS.length).toBeGreaterThanOrEqual(25);
  });

  it('is dealt into groups of at most GROUP_SIZE for the first round, each variation once, neighbours apart', () => {
    const groups = groupsOf(VARIATIONS, GROUP_SIZE);
    expect(groups.every((group) => group.length >= 1 && group.length <= GROUP_SIZE)).toBe(true);
    expect(
      groups
        .flat()
        .map((variation) => variation.id)
        .sort(),
    ).toEqual(VARIATIONS.map((variation) => variation.id).sort());
    const groupOf = (index: number) => groups.findIndex((group) => group.includes(VARIATIONS[index]!));
    expect(VARIATIONS.slice(1).every((_, index) => groupOf(index) !== groupOf(index + 1))).toBe(true);
  });

  it.each(VARIATIONS.map((variation) => [variation.id, variation] as const))(
    '%s quotes the sentence of the documents that leaves the choice open',
    (_, variation) => {
      expect(variation.leaves).toMatch(/^documents? [123]/);
      expect(variation.leaves).toMatch(/"[^"]{10,}"/);
      expect(variation.does.length).toBeGreaterThan(10);
    },
  );
});

describe('the variation matrix', () => {
  beforeAll(async () => {
    const matrix = await runVariationMatrix({ variations, seed: 20261121, ...MATRIX_RUNS });
    for (const outcome of matrix.outcomes) outcomes.set(outcome.id, outcome);
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(join(REPORTS, 'variations.json'), `${JSON.stringify(matrix, null, 2)}\n`);
    writeFileSync(join(REPORTS, 'variations.html'), renderVariationsHtml(matrix));
  }, 2_400_000); // a backstop only: about 5 minutes on a quiet 2-core machine; CI shares its cores with the rest of npm test

  it.each(variations.map((variation) => [variation.id] as const))('%s: a full run reports no fail and no error', (id) => {
    const outcome = outcomes.get(id)!;
    expect(outcome.problem ?? '', 'the run could not be judged').toBe('');
    expect(
      outcome.failedRules.map((rule) => `${rule.rule}: ${rule.checks[0]?.message ?? ''}`),
      'rules failed',
    ).toEqual([]);
    expect(
      outcome.erroredChecks.map((check) => `${check.check}: ${check.message}`),
      'checks errored',
    ).toEqual([]);
  });
});
