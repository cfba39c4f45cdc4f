// The variation matrix: for each variation, a full run of the suite (every spec file, every rule) against a fresh
// embedded emulator making that one allowed choice differently; the suite must report no fail and no error. It runs
// on the mutation matrix's workers (test/mutation/worker.ts).
import type { Variation } from '../../emulator/variations/index.js';
import type { Results } from '../../reports/results.js';
import type { VariationMatrix, VariationOutcome } from '../../reports/variations.js';
import { runWorkers, type WorkersOptions } from '../mutation/matrix.js';

/**
 * fast-check runs per property in the matrix: every variation is a full run, so fewer than a user's run (100 / 10);
 * the variations change representation and choices, which the first few generated bodies already meet.
 */
export const MATRIX_RUNS = { runs: 20, violationRuns: 3 } as const;

export interface VariationMatrixOptions extends WorkersOptions<VariationOutcome> {
  variations: readonly Variation[];
  /** fast-check runs per property (lower than a user's run: the matrix makes dozens of full runs). */
  runs: number;
  violationRuns: number;
}

const short = (message: string | undefined): string => (message ?? '').slice(0, 300);

export function judgeVariation(variation: Variation, results: Results, durationMs: number): VariationOutcome {
  const failedRules = results.rules
    .filter((rule) => rule.status === 'fail')
    .map((rule) => ({
      rule: rule.id,
      checks: rule.checks
        .filter((check) => check.verdict === 'fail' || check.verdict === 'finding')
        .map((check) => ({ check: check.name, message: short(check.message) })),
    }));
  const erroredChecks = results.checkList.filter((check) => check.verdict === 'error').map((check) => ({ check: check.name, message: short(check.message) }));
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

export async function runVariationMatrix(options: VariationMatrixOptions): Promise<VariationMatrix> {
  // A full run takes 20–70 s alone; on a shared, loaded machine well over the mutation matrix's 120 s per run.
  const run = (variations: readonly Variation[]) =>
    runWorkers(
      variations,
      { runTimeoutMs: 360_000, ...options },
      (items, common) => ({ kind: 'variations', items, runs: options.runs, violationRuns: options.violationRuns, ...common }),
      unjudgedVariation,
    );
  const { started, jobs, outcomes: first } = await run(options.variations);
  // Spec files share the account and the clock: a variation counts as crying wolf only when a second run does too
  // (as `twice()` does for a scenario); what the first run reported stays in the row.
  const unclean = options.variations.filter((variation) => !first.find((outcome) => outcome.id === variation.id)?.clean);
  const second = unclean.length ? (await run(unclean)).outcomes : [];
  const outcomes = first.map((outcome) => {
    const again = second.find((retry) => retry.id === outcome.id);
    if (!again?.clean) return again ?? outcome;
    return {
      ...again,
      firstRun: { failedRules: outcome.failedRules, erroredChecks: outcome.erroredChecks, ...(outcome.problem ? { problem: outcome.problem } : {}) },
    };
  });
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
