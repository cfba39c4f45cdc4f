// The variation matrix (test/variations): for each allowed choice the documents leave open, made differently by the
// emulator, the rules a full run failed and the checks that errored (both should be none); written as
// variations.json and rendered as a self-contained variations.html beside the mutation matrix.
import { checkCell, escapeHtml, matrixPage } from './mutation.js';

export interface VariationOutcome {
  id: string;
  /** The sentence of the documents that leaves the choice open. */
  leaves: string;
  does: string;
  /** No fail, no error, no problem: the suite accepted the allowed choice. */
  clean: boolean;
  /** Rules the run failed, each with the checks that failed it: claims the documents do not make. */
  failedRules: Array<{ rule: string; checks: Array<{ check: string; message: string }> }>;
  erroredChecks: Array<{ check: string; message: string }>;
  /** SHOULD rules the run warned about (allowed: a warning is not a fail). */
  warnings: string[];
  durationMs: number;
  /** Why the run could not be judged (no results, a timeout). */
  problem?: string;
  /** The command that repeats the run that judged it: its variations, seed, runs and order of spec files. */
  rerun?: string;
  /**
   * What the run with its first-round group reported when it was not clean: the group was then narrowed down by
   * halves, and the outcome above is the smallest run that held the variation. Clean when the fail was traced to other
   * variations; failing alone, the variation's own; failing together with others while each half of them ran clean, a
   * fail that depends on the order of the spec files or on the mix of choices, a false fail all the same.
   */
  firstRun?: Pick<VariationOutcome, 'failedRules' | 'erroredChecks' | 'problem' | 'rerun'>;
  /** The variations switched on in the same run (its group), when it was judged together with others. */
  together?: string[];
  /** The checks its run skipped, when it ran alone (a skip is no fail, but what the check judges goes unjudged). */
  skipped?: Array<{ check: string; message: string }>;
  /** Of those, the checks a run without variations judges (`npm run variations -- --skips`): unjudged under this choice. */
  skippedBeyondBaseline?: Array<{ check: string; message: string }>;
}

export interface VariationMatrix {
  started: string;
  finished: string;
  seed: number;
  runs: number;
  violationRuns: number;
  jobs: number;
  durationMs: number;
  variations: number;
  clean: number;
  outcomes: VariationOutcome[];
  /** With `--skips`: how many checks the run without variations skipped (the baseline each variation's skips are set against). */
  baselineSkipped?: number;
}

/** What the run with its first-round group says about a variation whose group was narrowed down (`firstRun`). */
export function firstRunNote(outcome: VariationOutcome): string {
  if (outcome.clean)
    return 'clean in a run of part of its group (the fail traced to other variations, or the run could not be judged); the run with its group reported';
  if (!outcome.together?.length) return 'fails alone too; the run with its group reported';
  return 'fails only together with the variations it was judged with, each half of them clean: a false fail of the suite in that order of spec files or that mix of choices; the run with its group reported';
}

export function renderVariationsHtml(matrix: VariationMatrix): string {
  const skipsListed = matrix.baselineSkipped !== undefined;
  const skippedCount = (outcome: VariationOutcome) => outcome.skippedBeyondBaseline?.length ?? 0;
  // (with --skips, the variations that made checks skip first, most first; else the catalogue's order)
  const ordered = skipsListed ? [...matrix.outcomes].sort((a, b) => skippedCount(b) - skippedCount(a)) : matrix.outcomes;
  const rows = ordered.map((outcome) => {
    const failed = outcome.failedRules
      .map((rule) => `<div class="check"><code>${escapeHtml(rule.rule)}</code>${rule.checks.map(checkCell).join('')}</div>`)
      .join('');
    const errored = outcome.erroredChecks.length ? `<div class="msg">errored:</div>${outcome.erroredChecks.map(checkCell).join('')}` : '';
    const problem = outcome.problem ? `<div class="msg">${escapeHtml(outcome.problem)}</div>` : '';
    const first = outcome.firstRun
      ? `<div class="msg">${escapeHtml(firstRunNote(outcome))}: ${escapeHtml([...outcome.firstRun.failedRules.map((rule) => `${rule.rule} (${rule.checks[0]?.message ?? ''})`), ...outcome.firstRun.erroredChecks.map((check) => `error ${check.check}: ${check.message}`), ...(outcome.firstRun.problem ? [outcome.firstRun.problem] : [])].join('; '))}${outcome.firstRun.rerun ? `<br>again: <code>${escapeHtml(outcome.firstRun.rerun)}</code>` : ''}</div>`
      : '';
    const again = !outcome.clean && outcome.rerun ? `<div class="msg">again: <code>${escapeHtml(outcome.rerun)}</code></div>` : '';
    const together = outcome.together?.length ? `<div class="msg">judged in one run with ${outcome.together.map(escapeHtml).join(', ')}</div>` : '';
    const warned = outcome.warnings.length ? `<div class="msg">warnings (SHOULD, not fails): ${outcome.warnings.map(escapeHtml).join(', ')}</div>` : '';
    const unjudged = skippedCount(outcome)
      ? `<div class="msg">skipped here, judged without variations (not fails):</div>${(outcome.skippedBeyondBaseline ?? []).map(checkCell).join('')}`
      : '';
    return `<tr class="${outcome.clean ? 'clean' : 'cried'}"><td><code>${escapeHtml(outcome.id)}</code><div class="msg">${escapeHtml(outcome.does)}</div><div class="msg">${escapeHtml(outcome.leaves)}</div></td><td>${outcome.clean ? 'no fail' : 'CRIED WOLF'}${skippedCount(outcome) ? `<div class="msg">${skippedCount(outcome)} skipped</div>` : ''}</td><td>${failed}${errored}${problem}${again}${first}${together}${warned}${unjudged}</td><td>${(outcome.durationMs / 1000).toFixed(1)} s</td></tr>`;
  });
  const cried = matrix.variations - matrix.clean;
  const skipping = matrix.outcomes.filter((outcome) => skippedCount(outcome) > 0).length;
  const skips =
    matrix.baselineSkipped === undefined
      ? ''
      : ` Each variation ran alone beside a run without variations (${matrix.baselineSkipped} checks skipped there): <strong>${skipping}</strong> made checks skip that that run judges (listed; a skip is no fail, but the rule goes unjudged under that choice).`;
  return matrixPage({
    title: `Variation matrix: ${matrix.clean} / ${matrix.variations} allowed choices without a fail`,
    heading: 'Variation matrix',
    summary: `<p><strong>${matrix.clean} of ${matrix.variations}</strong> allowed choices run with zero fail and zero error${cried ? ` — <strong>${cried} cried wolf</strong>` : ''}.
Each row is a full run against an emulator making that one choice the documents leave open. Seed ${matrix.seed}, ${matrix.runs} runs per valid-body property, ${matrix.violationRuns} per violation property, ${matrix.jobs} workers, ${(matrix.durationMs / 1000).toFixed(0)} s (${escapeHtml(matrix.started)}).${skips}</p>`,
    headers: [
      'Variation (what the emulator does, and the sentence that allows it)',
      'Verdict',
      `Rules failed, checks errored${skipsListed ? ', checks skipped' : ''}`,
      'Run',
    ],
    rows,
  });
}
