// `npm run mutation -- [--jobs N] [--seed S] [--only ID,ID] [--sample N] [--runs N] [--violation-runs N] [--under ID,ID] [--out DIR]`: the
// kill matrix of every emulator fault, written as <out>/mutation.json and <out>/mutation.html. Exit 1 when a fault goes
// undetected. `--under` gives every fault's emulator variations too (`timing`: every variation of
// emulator/variations/timing.ts): a fault judged too early, or read in one form, may go unseen under an allowed choice.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { FAULTS } from '../emulator/faults/index.js';
import { unknownVariations, VARIATIONS } from '../emulator/variations/index.js';
import { TIMING_READINGS } from '../emulator/variations/timing.js';
import { renderMutationHtml } from '../reports/mutation.js';
import { MATRIX_RUNS, runMatrix, sampleFaults } from '../test/mutation/matrix.js';

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return Number(value);
}

const program = new Command('mutation')
  .description('run the suite against the emulator once per fault and write the kill matrix')
  .option('--jobs <n>', 'runs at once (default: the number of cores)', positiveInt)
  .option('--seed <n>', 'fast-check seed of every run', positiveInt, 20261121)
  .option('--only <ids>', 'only these fault ids, comma-separated')
  .option('--sample <n>', 'a deterministic sample of n faults spread over the catalogue', positiveInt)
  .option('--runs <n>', 'fast-check runs per property of valid bodies', positiveInt, MATRIX_RUNS.runs)
  .option('--violation-runs <n>', 'fast-check runs per property of bodies breaking one rule', positiveInt, MATRIX_RUNS.violationRuns)
  .option('--out <dir>', 'output folder', 'reports/out')
  .option('--keep-runs', "keep each run's output folder (under <out>/mutation-runs)")
  .option('--under <ids>', "variations every fault's emulator carries too, comma-separated (timing: all of emulator/variations/timing.ts)")
  .showHelpAfterError();
program.parse();
const options = program.opts<{
  jobs?: number;
  seed: number;
  only?: string;
  sample?: number;
  runs: number;
  violationRuns: number;
  out: string;
  keepRuns?: boolean;
  under?: string;
}>();

let faults = [...FAULTS];
if (options.only) {
  const wanted = new Set(options.only.split(',').map((id) => id.trim()));
  faults = faults.filter((fault) => wanted.has(fault.id));
  const unknown = [...wanted].filter((id) => !FAULTS.some((fault) => fault.id === id));
  if (unknown.length) program.error(`unknown fault ${unknown.join(', ')} (npm run emulator -- --list-faults lists them)`);
}
if (options.sample) faults = sampleFaults(faults, options.sample);
const under = (options.under ?? '')
  .split(',')
  .map((id) => id.trim())
  .filter(Boolean)
  .flatMap((id) => (id === 'timing' ? Object.keys(TIMING_READINGS) : [id]));
const unknownUnder = unknownVariations(under);
if (unknownUnder.length) program.error(`unknown variation ${unknownUnder.join(', ')} (npm run emulator -- --list-variations lists them)`);

process.stderr.write(
  `mutation: ${faults.length} faults, seed ${options.seed}, ${options.runs}/${options.violationRuns} runs per property${under.length ? `, under ${under.length} variation(s)` : ''}\n`,
);
const matrix = await runMatrix({
  faults,
  seed: options.seed,
  runs: options.runs,
  violationRuns: options.violationRuns,
  under: VARIATIONS.filter((variation) => under.includes(variation.id)),
  ...(options.jobs ? { jobs: options.jobs } : {}),
  ...(options.keepRuns ? { keepRunsIn: join(options.out, 'mutation-runs') } : {}),
  onOutcome: (outcome, done, total) => {
    const verdict = outcome.detected ? 'detected' : `MISSED (${outcome.ruleStatus}${outcome.problem ? `: ${outcome.problem}` : ''})`;
    process.stderr.write(`[${String(done).padStart(3)}/${total}] ${verdict.padEnd(9)} ${outcome.id} (${(outcome.durationMs / 1000).toFixed(1)} s)\n`);
  },
});
mkdirSync(options.out, { recursive: true });
writeFileSync(join(options.out, 'mutation.json'), `${JSON.stringify(matrix, null, 2)}\n`);
writeFileSync(join(options.out, 'mutation.html'), renderMutationHtml(matrix));
process.stderr.write(
  `mutation: ${matrix.detected} of ${matrix.faults} faults detected in ${(matrix.durationMs / 1000).toFixed(0)} s → ${join(options.out, 'mutation.html')}\n`,
);
process.exitCode = matrix.detected === matrix.faults ? 0 : 1;
