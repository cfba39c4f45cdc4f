// `npm run variations -- [--jobs N] [--seed S] [--only ID,ID] [--group-size N] [--runs N] [--violation-runs N] [--skips] [--out DIR]`:
// one full run of the suite per emulator variation (an allowed choice the documents leave open, made differently),
// written as <out>/variations.json and <out>/variations.html. Exit 1 when a run fails a rule or errors a check.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { GATED_VARIATIONS, VARIATIONS } from '../emulator/variations/index.js';
import { firstRunNote, renderVariationsHtml } from '../reports/variations.js';
import { MATRIX_RUNS } from '../test/mutation/matrix.js';
import type { Results } from '../reports/results.js';
import { GROUP_SIZE, runVariationMatrix, skippedBeyond } from '../test/variations/matrix.js';

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return Number(value);
}

const program = new Command('variations')
  .description('run the whole suite against the emulator once per variation and write the variation matrix')
  .option('--jobs <n>', 'runs at once (default: the number of cores)', positiveInt)
  .option('--seed <n>', 'fast-check seed of every run', positiveInt, 20261121)
  .option('--only <ids>', 'only these variation ids, comma-separated')
  .option(
    '--group-size <n>',
    `variations switched on together in a run of the first round (default ${GROUP_SIZE}); another size deals other combinations, every one an implementation the documents allow (variations that exclude each other kept apart)`,
    positiveInt,
    GROUP_SIZE,
  )
  .option('--runs <n>', 'fast-check runs per property of valid bodies', positiveInt, MATRIX_RUNS.runs)
  .option('--violation-runs <n>', 'fast-check runs per property of bodies breaking one rule', positiveInt, MATRIX_RUNS.violationRuns)
  .option('--out <dir>', 'output folder', 'reports/out')
  .option('--keep-runs', "keep each run's results (under <out>/variation-runs)")
  .option(
    '--skips',
    'each variation alone (group size 1) beside a run without variations: lists the checks each makes skip that that run judges (no fails, but rules unjudged under that choice; about 25 minutes for all on 2 cores)',
  )
  .showHelpAfterError();
program.parse();
const options = program.opts<{
  jobs?: number;
  seed: number;
  only?: string;
  groupSize: number;
  runs: number;
  violationRuns: number;
  out: string;
  keepRuns?: boolean;
  skips?: boolean;
}>();
if (options.skips) options.groupSize = 1;

let variations = [...GATED_VARIATIONS];
if (options.only) {
  const wanted = new Set(options.only.split(',').map((id) => id.trim()));
  const unknown = [...wanted].filter((id) => !VARIATIONS.some((variation) => variation.id === id));
  if (unknown.length) program.error(`unknown variation ${unknown.join(', ')} (npm run emulator -- --list-variations lists them)`);
  variations = VARIATIONS.filter((variation) => wanted.has(variation.id));
}

process.stderr.write(
  `variations: ${variations.length} variations in groups of up to ${options.groupSize}, seed ${options.seed}, ${options.runs}/${options.violationRuns} runs per property\n`,
);
const matrix = await runVariationMatrix({
  variations,
  groupSize: options.groupSize,
  seed: options.seed,
  runs: options.runs,
  violationRuns: options.violationRuns,
  ...(options.jobs ? { jobs: options.jobs } : {}),
  ...(options.keepRuns ? { keepRunsIn: join(options.out, 'variation-runs') } : {}),
  onOutcome: (outcome, done, total, round) => {
    const verdict = outcome.clean
      ? 'clean'
      : `CRIED WOLF (${[...outcome.failedRules.map((rule) => rule.rule), ...outcome.erroredChecks.map((check) => `error: ${check.check} (${check.message})`), ...(outcome.problem ? [outcome.problem] : [])].join('; ').slice(0, 600)})`;
    const group = outcome.together?.length ? `, with ${outcome.together.length} others` : ', alone';
    const narrowing = round > 1 ? `narrowing ${round - 1}: ` : '';
    process.stderr.write(`[${narrowing}${String(done).padStart(3)}/${total}] ${outcome.id} (${(outcome.durationMs / 1000).toFixed(1)} s${group}) ${verdict}\n`);
  },
});
if (options.skips) {
  const baseline = skippedWithoutVariations();
  matrix.baselineSkipped = baseline.length;
  for (const outcome of matrix.outcomes) {
    const beyond = skippedBeyond(outcome.skipped ?? [], baseline);
    if (beyond?.length) {
      outcome.skippedBeyondBaseline = beyond;
      process.stderr.write(
        `  ${outcome.id} skipped ${beyond.length} judged without variations: ${beyond
          .map((check) => check.check)
          .join('; ')
          .slice(0, 400)}\n`,
      );
    }
  }
}
mkdirSync(options.out, { recursive: true });
writeFileSync(join(options.out, 'variations.json'), `${JSON.stringify(matrix, null, 2)}\n`);
writeFileSync(join(options.out, 'variations.html'), renderVariationsHtml(matrix));
for (const outcome of matrix.outcomes.filter((candidate) => !candidate.clean)) {
  // (the smallest run that failed: the variation alone, or the variations whose mix fails)
  const again = outcome.rerun ?? outcome.firstRun?.rerun;
  process.stderr.write(`  ${outcome.id}: ${outcome.firstRun ? firstRunNote(outcome) : 'fails'}${again ? `; again: ${again}` : ''}\n`);
}
process.stderr.write(
  `variations: ${matrix.clean} of ${matrix.variations} variations without a fail or an error in ${(matrix.durationMs / 1000).toFixed(0)} s → ${join(options.out, 'variations.html')}\n`,
);
process.exitCode = matrix.clean === matrix.variations ? 0 : 1;

/** The names of the checks a run without variations skips, at the matrix's settings (the embedded emulator, through the CLI). */
function skippedWithoutVariations(): string[] {
  const out = mkdtempSync(join(tmpdir(), 'variations-baseline-'));
  try {
    const settings = ['--seed', String(options.seed), '--runs', String(options.runs), '--violation-runs', String(options.violationRuns), '--no-shrink'];
    spawnSync(process.execPath, ['bin/conformance.js', 'run', ...settings, '--no-allure', '--progress', 'quiet', '--out', out], { stdio: 'inherit' });
    const file = join(out, 'results.json');
    if (!existsSync(file)) program.error('variations: the run without variations wrote no results.json: its skips are not known');
    const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
    return results.checkList.filter((check) => check.verdict === 'skip').map((check) => check.name);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
