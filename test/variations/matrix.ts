// The variation matrix: full runs of the suite (every spec file, every rule) against a fresh embedded emulator making
// allowed choices differently, a few variations at a time, each run in its own order of spec files, and each
// variation alone when its group was not clean; the suite must report no fail and no error, in any of those runs. It runs on the mutation matrix's workers (test/mutation/worker.ts).
import { exclusivePairs, type Variation } from '../../emulator/variations/index.js';
import type { Results } from '../../reports/results.js';
import type { VariationMatrix, VariationOutcome } from '../../reports/variations.js';
import { runCommand } from '../../reports/reproduce.js';
import { availableParallelism } from 'node:os';
import { runWorkers, type WorkersOptions } from '../mutation/matrix.js';

export interface VariationMatrixOptions extends WorkersOptions<VariationOutcome> {
  variations: readonly Variation[];
  /** Variations per run of the first round (default GROUP_SIZE): another size deals other combinations. */
  groupSize?: number;
}

const short = (message: string | undefined): string => (message ?? '').slice(0, 300);

/**
 * `ids`: the variations switched on in the run (the variation's group); a variation run alone needs none. `leftBehind`:
 * what the run's cleanup could not delete (`kind path`): under an allowed choice the suite must leave nothing on the
 * target, so the run is not clean (reported as an error of the cleanup). `mayWarn`: the SHOULD rules the run's
 * variations declare they break (`warns`); a warning on another rule is a false one, listed with the fails.
 */
export function judgeVariation(
  variation: Variation,
  results: Results,
  durationMs: number,
  ids: string[] = [variation.id],
  leftBehind: string[] = [],
  mayWarn: readonly string[] = variation.warns ?? [],
): VariationOutcome {
  const failedRules = results.rules
    .filter((rule) => rule.status === 'fail' || (rule.status === 'warning' && !mayWarn.includes(rule.id)))
    .map((rule) => ({
      rule: rule.id,
      checks: rule.checks
        .filter((check) => check.verdict === 'fail' || check.verdict === 'finding')
        .map((check) => ({ check: check.name, message: short(check.message) })),
    }));
  const erroredChecks = [
    ...results.checkList.filter((check) => check.verdict === 'error').map((check) => ({ check: check.name, message: short(check.message) })),
    ...(leftBehind.length ? [{ check: "the run's cleanup", message: short(`left behind on the target: ${leftBehind.join(', ')}`) }] : []),
  ];
  const warnings = results.rules.filter((rule) => rule.warning).map((rule) => rule.id);
  return {
    id: variation.id,
    leaves: variation.leaves,
    does: variation.does,
    clean: failedRules.length === 0 && erroredChecks.length === 0,
    failedRules,
    erroredChecks,
    warnings,
    durationMs,
    rerun: runCommand(results.run),
    ...(ids.length > 1 ? { together: ids.filter((id) => id !== variation.id) } : {}),
  };
}

/** A variation the matrix could not judge, and why. */
export function unjudgedVariation(variation: Variation, problem: string): VariationOutcome {
  return {
    id: variation.id,
    leaves: variation.leaves,
    does: variation.does,
    clean: false,
    failedRules: [],
    erroredChecks: [],
    warnings: [],
    durationMs: 0,
    problem,
  };
}

/** Variations per run of the first round: switched on together, each is judged by the same full run (two runs, one a worker, for up to 300). */
export const GROUP_SIZE = 150;

/**
 * The variations dealt into groups of at most `size`, neighbours of the catalogue (often one subject) apart; a
 * variation dealt beside one it excludes (`excludes`: no one server makes both choices) goes to the first group
 * holding none it excludes, a group of its own when none does.
 */
export function groupsOf(variations: readonly Variation[], size: number): Variation[][] {
  const count = Math.ceil(variations.length / size);
  const groups = Array.from({ length: count }, (_, group) => variations.filter((_, index) => index % count === group));
  const excludes = (variation: Variation, group: Variation[]) =>
    group.some((other) => other !== variation && exclusivePairs([variation.id, other.id]).length > 0);
  for (const group of [...groups])
    for (const variation of [...group].reverse()) {
      if (!excludes(variation, group)) continue;
      group.splice(group.indexOf(variation), 1);
      const home = groups.find((other) => other.length < size && !excludes(variation, other));
      if (home) home.push(variation);
      else groups.push([variation]);
    }
  return groups;
}

/**
 * Each variation's outcome from the run with its group and, when that was not clean, the run alone. Clean alone: the
 * group's fail is explained when another variation of the group fails alone, or when the group's run could not be
 * judged (it claimed nothing); else it is the suite's, in that order of spec files or that mix of choices (two such
 * false fails were found this way, hidden by a retry before).
 */
export function verdictsOf(variations: readonly Variation[], grouped: VariationOutcome[], alone: VariationOutcome[]): VariationOutcome[] {
  const failsAlone = (id: string) => alone.some((outcome) => outcome.id === id && !outcome.clean);
  return variations.map((variation): VariationOutcome => {
    const first = grouped.find((outcome) => outcome.id === variation.id)!;
    if (first.clean) return first;
    const single = alone.find((outcome) => outcome.id === variation.id)!;
    const firstRun = {
      failedRules: first.failedRules,
      erroredChecks: first.erroredChecks,
      ...(first.problem ? { problem: first.problem } : {}),
      ...(first.rerun ? { rerun: first.rerun } : {}),
    };
    const explained = !single.clean || first.problem !== undefined || (first.together ?? []).some(failsAlone);
    return { ...single, clean: single.clean && explained, firstRun };
  });
}

export async function runVariationMatrix(options: VariationMatrixOptions): Promise<VariationMatrix> {
  // A spec file of a full run may wait on consistency windows; on a shared, loaded machine well over the mutation
  // matrix's 120 s without progress.
  const run = async (groups: Variation[][]) => {
    let done = 0;
    const total = groups.flat().length;
    const report = (outcomes: VariationOutcome[]) => outcomes.forEach((outcome) => options.onOutcome?.(outcome, ++done, total));
    return (
      await runWorkers<Variation[], VariationOutcome[]>(
        groups,
        { runTimeoutMs: 360_000, ...options, onOutcome: report },
        (items, common) => ({ kind: 'variations', items, ...common }),
        (group, problem) => group.map((variation) => unjudgedVariation(variation, problem)),
      )
    ).outcomes.flat();
  };
  const started = new Date();
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), options.variations.length));
  // First round: the variations in groups, one full run each (the choices are independent, so a correct suite
  // stays quiet under any mix of them, in any order of its spec files). A group that is not clean says nothing of
  // which of its variations made it so: each of them then runs alone.
  const grouped = await run(groupsOf(options.variations, options.groupSize ?? GROUP_SIZE));
  const doubtful = options.variations.filter((variation) => !grouped.find((outcome) => outcome.id === variation.id)?.clean);
  const alone = doubtful.length ? await run(doubtful.map((variation) => [variation])) : [];
  const outcomes = verdictsOf(options.variations, grouped, alone);
  const finished = new Date();
  return {
    started: started.toISOString(),
    finished: finished.toISOString(),
    seed: options.seed,
    runs: options.runs,
    violationRuns: options.violationRuns,
    jobs,
    durationMs: finished.getTime() - started.getTime(),
    variations: outcomes.length,
    clean: outcomes.filter((outcome) => outcome.clean).length,
    outcomes,
  };
}
