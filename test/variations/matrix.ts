// The variation matrix: full runs of the suite (every spec file, every rule) against a fresh embedded emulator making
// allowed choices differently, many variations at a time, each run in its own order of spec files, a group that was not
// clean narrowed down by halves; the suite must report no fail and no error, in any of those runs. It runs on the
// mutation matrix's workers (test/mutation/worker.ts).
import { exclusivePairs, type Variation } from '../../emulator/variations/index.js';
import type { Results } from '../../reports/results.js';
import type { VariationMatrix, VariationOutcome } from '../../reports/variations.js';
import { runCommand } from '../../reports/reproduce.js';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runWorkers, type WorkersOptions } from '../mutation/matrix.js';

export interface VariationMatrixOptions extends Omit<WorkersOptions<VariationOutcome>, 'onOutcome'> {
  variations: readonly Variation[];
  /** Variations per run of the first round (default GROUP_SIZE): another size deals other combinations. */
  groupSize?: number;
  /** Each variation's outcome as its run ends; `round`: 1, then 2 and on for each narrowing by halves. */
  onOutcome?: (outcome: VariationOutcome, done: number, total: number, round: number) => void;
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
  const skipped = results.checkList.filter((check) => check.verdict === 'skip').map((check) => ({ check: check.name, message: short(check.message) }));
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
    ...(ids.length > 1 ? { together: ids.filter((id) => id !== variation.id) } : { skipped }),
  };
}

/**
 * The checks a variation's run alone skipped beyond those a run without variations skipped (`baseline`: their names;
 * checks of one name, e.g. of one rule on several endpoints, counted). Skips a check owes to what other spec files did
 * meanwhile (its message says so) are left out: they come and go with the order of the files.
 */
export function skippedBeyond(skipped: NonNullable<VariationOutcome['skipped']>, baseline: readonly string[]): VariationOutcome['skipped'] {
  const left = new Map<string, number>();
  for (const name of baseline) left.set(name, (left.get(name) ?? 0) + 1);
  return skipped.filter(({ check, message }) => {
    if (OTHER_FILES_MEANWHILE.test(message)) return false;
    const count = left.get(check) ?? 0;
    left.set(check, count - 1);
    return count <= 0;
  });
}

/** How a skip's message says it is owed to what other spec files did meanwhile. */
const OTHER_FILES_MEANWHILE = /another spec file|other spec files/;

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

/** Variations per run of the first round: switched on together, each is judged by the same full run (two runs, one a worker, for up to 320). */
export const GROUP_SIZE = 160;

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
 * A run of the matrix: its variations, the outcome of each, and, when it was not clean and held more than one, the
 * runs of its two halves.
 */
export interface MatrixRun {
  variations: Variation[];
  outcomes: VariationOutcome[];
  halves: MatrixRun[];
}

const cleanRun = (run: MatrixRun) => run.outcomes.every((outcome) => outcome.clean);

/** The two halves a run that was not clean is narrowed to (a group's variations never exclude each other: nor do its halves'). */
function halvesOf(variations: readonly Variation[]): Variation[][] {
  const middle = Math.ceil(variations.length / 2);
  return [variations.slice(0, middle), variations.slice(middle)];
}

/**
 * Narrows each run that was not clean down by halves, in place (`halves`): the halves of every such run of a round are
 * the next round's runs (`run` runs them on the workers, all at once).
 */
export async function narrowDown(runs: MatrixRun[], run: (groups: Variation[][]) => Promise<MatrixRun[]>): Promise<void> {
  const failed = runs.filter((matrixRun) => !cleanRun(matrixRun) && matrixRun.variations.length > 1);
  if (!failed.length) return;
  const halves = await run(failed.flatMap((matrixRun) => halvesOf(matrixRun.variations)));
  failed.forEach((matrixRun, index) => matrixRun.halves.push(...halves.slice(2 * index, 2 * index + 2)));
  await narrowDown(halves, run);
}

/**
 * Each variation's verdict from the runs that held it, from its first-round group down to the smallest run it took part
 * in: that run's outcome. A run that was not clean is explained by a half of it that was not clean either (the fail
 * traced to another variation, down to one that fails alone), or by its not being judged at all (a timeout claims
 * nothing); one that failed while both its halves ran clean is the suite's false fail, in that order of spec files or
 * that mix of choices (two were found this way, hidden by a retry before): each of its variations fails, with that
 * run's outcome. The first-round group's fail is kept beside each verdict (`firstRun`). In the order of `variations`.
 */
export function verdictsOf(variations: readonly Variation[], firstRound: readonly MatrixRun[]): VariationOutcome[] {
  const verdicts = new Map<string, VariationOutcome>();
  const judge = (run: MatrixRun, first: VariationOutcome | undefined): void => {
    const traced = run.halves.some((half) => !cleanRun(half)) || run.outcomes.some((outcome) => outcome.problem !== undefined);
    if (run.halves.length && traced) return run.halves.forEach((half) => judge(half, first));
    for (const outcome of run.outcomes) verdicts.set(outcome.id, { ...outcome, ...(first ? { firstRun: firstRunOf(first) } : {}) });
  };
  for (const run of firstRound) judge(run, cleanRun(run) ? undefined : run.outcomes[0]);
  return variations.map((variation) => verdicts.get(variation.id)!);
}

function firstRunOf(outcome: VariationOutcome): NonNullable<VariationOutcome['firstRun']> {
  return {
    failedRules: outcome.failedRules,
    erroredChecks: outcome.erroredChecks,
    ...(outcome.problem ? { problem: outcome.problem } : {}),
    ...(outcome.rerun ? { rerun: outcome.rerun } : {}),
  };
}

const keptIn = (folder: string | undefined, round: number) => (folder ? { keepRunsIn: round > 1 ? join(folder, `narrowing-${round - 1}`) : folder } : {});

export async function runVariationMatrix(options: VariationMatrixOptions): Promise<VariationMatrix> {
  // A spec file of a full run may wait on consistency windows; on a shared, loaded machine well over the mutation
  // matrix's 120 s without progress.
  let round = 0;
  const run = async (groups: Variation[][]): Promise<MatrixRun[]> => {
    let done = 0;
    const total = groups.flat().length;
    round++;
    const report = (outcomes: VariationOutcome[]) => outcomes.forEach((outcome) => options.onOutcome?.(outcome, ++done, total, round));
    const { outcomes } = await runWorkers<Variation[], VariationOutcome[]>(
      groups,
      // (each narrowing's runs kept apart from the round before's: a half's label may be its group's, cut short)
      { runTimeoutMs: 360_000, ...options, ...keptIn(options.keepRunsIn, round), onOutcome: report },
      (items, common) => ({ kind: 'variations', items, ...common }),
      (group, problem) => group.map((variation) => unjudgedVariation(variation, problem)),
    );
    return groups.map((variations, index) => ({ variations, outcomes: outcomes[index]!, halves: [] }));
  };
  const started = new Date();
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), options.variations.length));
  // First round: the variations in groups, one full run each (the choices are independent, so a correct suite
  // stays quiet under any mix of them, in any order of its spec files). A group that is not clean says nothing of
  // which of its variations made it so: it is narrowed down by halves, each half a run of its own, every half that
  // is not clean halved again (one culprit among 150: 16 runs, two at a time, where running each alone took 150).
  const firstRound = await run(groupsOf(options.variations, options.groupSize ?? GROUP_SIZE));
  await narrowDown(firstRound, run);
  const outcomes = verdictsOf(options.variations, firstRound);
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
