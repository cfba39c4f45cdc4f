// The variation gate: a full run against an emulator making allowed choices differently (choices the documents leave
// open: many variations per run, each run in its own order of spec files, a group that was not clean narrowed down by
// halves) reports no fail and no error; a run's fail neither of its halves repeats fails the gate too. A
// variation that fails is a false claim of the suite: fix the check, never weaken or drop the variation. `npm test` runs every variation, beside the mutation matrix and on the same
// worker design; VARIATION_SAMPLE=N runs a deterministic sample of N for a quicker local round.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exclusivePairs, GATED_VARIATIONS, VARIATIONS, type Variation } from '../../emulator/variations/index.js';
import { firstRunNote, renderVariationsHtml, type VariationOutcome } from '../../reports/variations.js';
import { MATRIX_RUNS, sampleFaults } from '../mutation/matrix.js';
import {
  GROUP_SIZE,
  groupsOf,
  judgeVariation,
  narrowDown,
  runVariationMatrix,
  skippedBeyond,
  unjudgedVariation,
  verdictsOf,
  type MatrixRun,
} from './matrix.js';
import type { Results } from '../../reports/results.js';
import { ruleById } from '../../rules/index.js';

const REPORTS = 'reports/out';
const sample = process.env['VARIATION_SAMPLE'] ?? 'all';
if (sample !== 'all' && !/^[1-9]\d*$/.test(sample)) throw new Error(`VARIATION_SAMPLE is "all" or a positive number of variations, not "${sample}"`);
const variations = sample === 'all' ? GATED_VARIATIONS : sampleFaults(GATED_VARIATIONS, Number(sample));
const outcomes = new Map<string, VariationOutcome>();

describe('the variation catalogue', () => {
  it('holds at least 25 variations', () => {
    expect(VARIATIONS.length).toBeGreaterThanOrEqual(25);
    // Judged by hand only: its lag meets other files' clock moves at wall-clock timing the gate cannot repeat.
    expect(VARIATIONS.filter((variation) => variation.byHand).map((variation) => variation.id)).toEqual(['replica-reads']);
  });

  it('declares only SHOULD rules of the ledger as those a variation may warn on (a MUST rule it broke would fail)', () => {
    const declared = VARIATIONS.flatMap((variation) => (variation.warns ?? []).map((id) => [variation.id, id, ruleById.get(id)?.level] as const));
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter(([, , level]) => level !== 'SHOULD')).toEqual([]);
  });

  it('is dealt into groups of at most GROUP_SIZE for the first round, each variation once, neighbours apart (but one moved for an excluded pair)', () => {
    const groups = groupsOf(VARIATIONS, GROUP_SIZE);
    expect(groups.every((group) => group.length >= 1 && group.length <= GROUP_SIZE)).toBe(true);
    expect(
      groups
        .flat()
        .map((variation) => variation.id)
        .sort(),
    ).toEqual(VARIATIONS.map((variation) => variation.id).sort());
    const groupOf = (index: number) => groups.findIndex((group) => group.includes(VARIATIONS[index]!));
    // Dealt in turn, each variation's group is its place modulo the count, unless it left it for one it excludes.
    const stayed = (index: number) => groupOf(index) === index % Math.ceil(VARIATIONS.length / GROUP_SIZE);
    const together = VARIATIONS.slice(1)
      .map((_, index) => index)
      .filter((index) => stayed(index) && stayed(index + 1) && groupOf(index) === groupOf(index + 1));
    expect(together.map((index) => `${VARIATIONS[index]!.id} + ${VARIATIONS[index + 1]!.id}`)).toEqual([]);
    expect(
      VARIATIONS.filter((_, index) => !stayed(index)).every(
        (variation) => (variation.excludes ?? []).length > 0 || VARIATIONS.some((other) => other.excludes?.includes(variation.id)),
      ),
    ).toBe(true);
  });

  it('never deals two variations that exclude each other into one group, whatever the size (no one server makes both choices)', () => {
    const declared = VARIATIONS.flatMap((variation) => (variation.excludes ?? []).map((other) => [variation.id, other]));
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter(([, other]) => !VARIATIONS.some((variation) => variation.id === other))).toEqual([]);
    for (const size of [1, 2, 3, 30, 44, 88, GROUP_SIZE, VARIATIONS.length]) {
      const groups = groupsOf(VARIATIONS, size);
      expect(groups.flat().length, `size ${size}`).toBe(VARIATIONS.length);
      expect(new Set(groups.flat()).size, `size ${size}`).toBe(VARIATIONS.length);
      expect(
        groups.every((group) => group.length <= size),
        `size ${size}`,
      ).toBe(true);
      expect(
        groups.flatMap((group) => exclusivePairs(group.map((variation) => variation.id))),
        `size ${size}`,
      ).toEqual([]);
    }
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

describe('the verdict of each variation, from the run with its group narrowed down by halves', () => {
  const [a, b, c, d] = VARIATIONS as [Variation, Variation, Variation, Variation];
  const group = [a, b, c, d];
  const outcome = (variation: Variation, failed: boolean, together: Variation[]): VariationOutcome => ({
    ...unjudgedVariation(variation, ''),
    problem: undefined,
    clean: !failed,
    failedRules: failed ? [{ rule: 'P3.some.rule', checks: [{ check: 'a check', message: 'refused' }] }] : [],
    rerun: `npx conformance run --shuffle ${together.length}`,
    ...(together.length > 1 ? { together: together.filter((other) => other !== variation).map((other) => other.id) } : {}),
  });
  /** The matrix's runs, each failing when `fails` says so of its variations, narrowed as the matrix narrows them. */
  const narrowed = async (fails: (variations: Variation[]) => boolean, first: Variation[] = group) => {
    const sent: Variation[][] = [];
    const run = async (groups: Variation[][]): Promise<MatrixRun[]> => {
      sent.push(...groups);
      return groups.map((variations) => ({
        variations,
        outcomes: variations.map((variation) => outcome(variation, fails(variations), variations)),
        halves: [],
      }));
    };
    const firstRound = await run([first]);
    await narrowDown(firstRound, run);
    return {
      sent: sent.map((variations) => variations.map((variation) => variation.id)),
      verdicts: Object.fromEntries(verdictsOf(first, firstRound).map((verdict) => [verdict.id, verdict])),
    };
  };
  const ids = (...variations: Variation[]) => variations.map((variation) => variation.id);
  const cleanOf = (verdicts: Record<string, VariationOutcome>) => group.map((variation) => verdicts[variation.id]!.clean);

  it('a clean group run judges each of its variations, and is not run again', async () => {
    const { sent, verdicts } = await narrowed(() => false);
    expect(sent).toEqual([ids(a, b, c, d)]);
    expect(cleanOf(verdicts)).toEqual([true, true, true, true]);
    expect(verdicts[a.id]!.firstRun).toBeUndefined();
    // in the catalogue's order, whatever groups the first round dealt
    const dealt = [
      [c, d],
      [a, b],
    ].map((run) => ({ variations: run, outcomes: run.map((variation) => outcome(variation, false, run)), halves: [] }));
    expect(verdictsOf(group, dealt).map((verdict) => verdict.id)).toEqual(ids(a, b, c, d));
  });

  it('a variation failing alone fails; the others are clean by the smallest run that held them, with what the group run reported', async () => {
    const { sent, verdicts } = await narrowed((variations) => variations.includes(b));
    expect(sent).toEqual([ids(a, b, c, d), ids(a, b), ids(c, d), ids(a), ids(b)]);
    expect(cleanOf(verdicts)).toEqual([true, false, true, true]);
    expect(verdicts[b.id]!.failedRules).toHaveLength(1);
    expect(firstRunNote(verdicts[b.id]!)).toMatch(/^fails alone too/);
    expect(verdicts[c.id]!.together).toEqual(ids(d));
    expect(verdicts[c.id]!.firstRun?.failedRules).toHaveLength(1);
    expect(verdicts[c.id]!.firstRun?.rerun).toBe('npx conformance run --shuffle 4');
    expect(firstRunNote(verdicts[a.id]!)).toMatch(/^clean in a run of part of its group/);
    // The report gives the command of the run alone that failed, and the group's.
    const matrix = { started: '', finished: '', seed: 1, runs: 20, violationRuns: 3, jobs: 2, durationMs: 1000, variations: 4, clean: 3 };
    const html = renderVariationsHtml({ ...matrix, outcomes: Object.values(verdicts) });
    expect(html).toContain('again: <code>npx conformance run --shuffle 1</code>');
    expect(html).toContain('again: <code>npx conformance run --shuffle 4</code>');
  });

  it('narrows one culprit among many in about two runs per halving, not one run per variation', async () => {
    const many = VARIATIONS.slice(0, 150);
    const culprit = many[97]!;
    const { sent, verdicts } = await narrowed((variations) => variations.includes(culprit), many);
    expect(sent.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(many.length)));
    expect(many.filter((variation) => !verdicts[variation.id]!.clean).map((variation) => variation.id)).toEqual([culprit.id]);
  });

  it("a run's fail that neither half repeats fails every variation of that run (order or mix: the suite's), and only those", async () => {
    const whole = await narrowed((variations) => variations.length === 4);
    expect(whole.sent).toEqual([ids(a, b, c, d), ids(a, b), ids(c, d)]);
    expect(cleanOf(whole.verdicts)).toEqual([false, false, false, false]);
    expect(firstRunNote(whole.verdicts[c.id]!)).toMatch(/fails only together with the variations it was judged with, each half of them clean: a false fail/);
    expect(whole.verdicts[c.id]!.together).toEqual(ids(a, b, d));
    // (a and b fail together, neither alone)
    const pair = await narrowed((variations) => variations.includes(a) && variations.includes(b));
    expect(pair.sent).toEqual([ids(a, b, c, d), ids(a, b), ids(c, d), ids(a), ids(b)]);
    expect(cleanOf(pair.verdicts)).toEqual([false, false, true, true]);
    expect(pair.verdicts[a.id]!.together).toEqual(ids(b));
  });

  it('a group run that could not be judged claimed nothing: its variations are judged by its halves', async () => {
    const run = async (groups: Variation[][]): Promise<MatrixRun[]> =>
      groups.map((variations) => ({
        variations,
        outcomes: variations.map((variation) =>
          variations.length === 4 ? unjudgedVariation(variation, 'the run timed out') : outcome(variation, false, variations),
        ),
        halves: [],
      }));
    const firstRound = await run([group]);
    await narrowDown(firstRound, run);
    const verdicts = verdictsOf(group, firstRound);
    expect(verdicts.map((verdict) => verdict.clean)).toEqual([true, true, true, true]);
    expect(verdicts[0]!.firstRun?.problem).toBe('the run timed out');
  });

  it('a run without a fail or an error that left something on the target is not clean: its cleanup errs', () => {
    const results = {
      rules: [],
      checkList: [],
      run: { seed: 7, runs: 100, violationRuns: 10, emulatorFaults: [], emulatorVariations: [a.id] },
    } as unknown as Results;
    expect(judgeVariation(a, results, 1000).clean).toBe(true);
    const left = judgeVariation(a, results, 1000, [a.id], ['instance /v4/compute/instances/7']);
    expect(left.clean).toBe(false);
    expect(left.erroredChecks).toEqual([{ check: "the run's cleanup", message: 'left behind on the target: instance /v4/compute/instances/7' }]);
  });

  it('a warning on a SHOULD rule no variation of the run declares it breaks (`warns`) is a false one, as a fail is', () => {
    const check = { name: '[P1.auth.bearer-only] a token without the Bearer scheme is refused', verdict: 'fail', message: 'a bare token was accepted' };
    const results = {
      rules: [{ id: 'P1.auth.bearer-only', status: 'warning', warning: 'a bare token was accepted', checks: [check] }],
      checkList: [check],
      run: { seed: 7, runs: 100, violationRuns: 10, emulatorFaults: [], emulatorVariations: [a.id] },
    } as unknown as Results;
    const undeclared = judgeVariation(a, results, 1000);
    expect(undeclared.clean).toBe(false);
    expect(undeclared.failedRules).toEqual([{ rule: 'P1.auth.bearer-only', checks: [{ check: check.name, message: check.message }] }]);
    expect(judgeVariation(a, results, 1000, [a.id, b.id], [], ['P1.auth.bearer-only']).clean).toBe(true);
  });

  it('a run alone keeps its skipped checks; `--skips` lists those a run without variations judges (a name skipped twice counted), not those owed to other files', () => {
    const skip = (name: string, message = 'not shown') => ({ name, verdict: 'skip', message });
    const results = {
      rules: [],
      checkList: [
        skip('[P2.x] default page size'),
        skip('[P2.x] default page size'),
        skip('[P1.y] balance', 'the account is closed'),
        skip('[P1.w] walk', 'the list kept changing (other spec files create and delete in parallel)'),
        { name: '[P3.z] ok', verdict: 'pass' },
      ],
      run: { seed: 7, runs: 100, violationRuns: 10, emulatorFaults: [], emulatorVariations: [a.id] },
    } as unknown as Results;
    const alone = judgeVariation(a, results, 1000);
    expect(alone.skipped?.map((check) => check.check)).toEqual(['[P2.x] default page size', '[P2.x] default page size', '[P1.y] balance', '[P1.w] walk']);
    expect(judgeVariation(a, results, 1000, [a.id, b.id]).skipped).toBeUndefined();
    const beyond = skippedBeyond(alone.skipped!, ['[P2.x] default page size', '[P3.w] elsewhere']);
    expect(beyond).toEqual([
      { check: '[P2.x] default page size', message: 'not shown' },
      { check: '[P1.y] balance', message: 'the account is closed' },
    ]);
    const matrix = { started: '', finished: '', seed: 1, runs: 20, violationRuns: 3, jobs: 2, durationMs: 1000, variations: 1, clean: 1 };
    const html = renderVariationsHtml({ ...matrix, baselineSkipped: 1, outcomes: [{ ...alone, skippedBeyondBaseline: beyond }] });
    expect(html).toContain('(1 checks skipped there): <strong>1</strong> made checks skip');
    expect(html).toContain('skipped here, judged without variations');
    expect(html).toContain('no fail<div class="msg">2 skipped</div>');
    expect(html).toContain('the account is closed');
    expect(renderVariationsHtml({ ...matrix, outcomes: [alone] })).not.toContain('skipped here');
    // (with --skips, the variations that made checks skip first)
    const listed = renderVariationsHtml({
      ...matrix,
      baselineSkipped: 1,
      outcomes: [
        { ...alone, id: 'quiet' },
        { ...alone, skippedBeyondBaseline: beyond },
      ],
    });
    expect(listed.indexOf(`<code>${a.id}</code>`)).toBeLessThan(listed.indexOf('<code>quiet</code>'));
    expect(listed).toContain('checks errored, checks skipped');
  });
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
    const first = outcome.firstRun;
    expect(
      outcome.clean,
      first &&
        `${firstRunNote(outcome)} ${[...first.failedRules.map((rule) => `${rule.rule}: ${rule.checks[0]?.message ?? ''}`), ...first.erroredChecks.map((check) => `${check.check}: ${check.message}`)].join('; ')}; again: ${outcome.rerun ?? first.rerun}`,
    ).toBe(true);
  });
});
