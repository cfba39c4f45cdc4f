// The mutation matrix: for each emulator fault, run the suite against a fresh embedded emulator started with that
// fault alone, narrowed to the fault's rule, and record whether the suite reported `fail` for that rule and which
// checks did. One worker process per core (worker.ts), each keeping one vitest instance for its share of faults.
// The variation matrix (test/variations/matrix.ts) runs on the same workers: `runWorkers` is shared.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Fault } from '../../emulator/faults/index.js';
import type { Variation } from '../../emulator/variations/index.js';
import type { FaultOutcome, Matrix } from '../../reports/mutation.js';
import type { Results } from '../../reports/results.js';
import type { SuiteConfig } from '../../harness/config.js';
import { ruleById } from '../../rules/index.js';
import { compiledSuiteEnv } from '../../bin/typescript.mjs';
import { TYPESCRIPT_WITH_VITEST } from '../typescript-child.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * fast-check runs per property in both matrices (a user's run: 100 / 10). A property draws the same values from a
 * seed however many runs it is given, so what the first 20 (3) runs meet, a user's run with that seed meets too;
 * detecting a fault needs one counterexample, and the variations change representation and choices, which the first
 * few generated bodies already meet.
 */
export const MATRIX_RUNS = { runs: 20, violationRuns: 3 } as const;

export interface MatrixOptions extends WorkersOptions<FaultOutcome> {
  faults: readonly Fault[];
  /**
   * Variations every fault's emulator carries too (`npm run mutation -- --under`): a fault a check judges too early, or
   * reads in one form, may go unseen under an allowed choice. Not a gate: some choices leave a fault nothing to show
   * (no clone is ever running under `clones-instant`).
   */
  under?: readonly Variation[];
}

/** What every task of a matrix shares. */
type TaskCommon = { seed: number; runTimeoutMs: number; keepRunsIn?: string; runs: number; violationRuns: number };

/** What a worker is given: its share of the faults (or variations), with their places in the catalogue order. */
export type WorkerTask = TaskCommon &
  (
    | { kind: 'faults'; items: Array<[number, Fault]>; under: readonly Variation[] }
    // Each item of a variations task is a group of variations switched on together in one full run.
    | { kind: 'variations'; items: Array<[number, Variation[]]> }
    | { kind: 'runs'; items: Array<[number, NarrowedRun]> }
  );

/**
 * A run narrowed to some rules, under some variations (given the consistency window and region they ask for, as the
 * variation matrix gives them), with settings of its own over the task's (test/variations/combinations.test.ts).
 */
export interface NarrowedRun {
  rules: string[];
  variations: Variation[];
  settings: Partial<Pick<SuiteConfig, 'seed' | 'runs' | 'violationRuns' | 'shrink' | 'consistencyWindowMs' | 'maxInstances' | 'maxDatabases'>>;
}

/** A narrowed run's results, or why it has none. */
export type NarrowedOutcome = { results: Results } | { problem: string };

export type WorkerMessage<Outcome = FaultOutcome> = { kind: 'outcome'; index: number; outcome: Outcome } | { kind: 'failed'; message: string };

/** What every matrix run shares: the catalogue items, their seed and runs, the worker count and where to keep each run. */
export interface WorkersOptions<Outcome> {
  seed: number;
  /** fast-check runs per property (MATRIX_RUNS: fewer than a user's run). */
  runs: number;
  violationRuns: number;
  /** Worker processes (default: the machine's cores). */
  jobs?: number;
  /** Keep each run's results.json in this folder. */
  keepRunsIn?: string;
  /** How long a run may go without a spec file ending before it is cancelled and its items reported unjudged. */
  runTimeoutMs?: number;
  onOutcome?: (outcome: Outcome, done: number, total: number) => void;
}

/** What the suite must give a fault's rule: `fail` for a MUST rule, `warning` for a SHOULD rule (never a fail). */
export const expectedStatus = (fault: Fault): 'fail' | 'warning' => (ruleById.get(fault.rule)?.level === 'SHOULD' ? 'warning' : 'fail');

export function judgeFault(fault: Fault, results: Results): Pick<FaultOutcome, 'detected' | 'ruleStatus' | 'detectedBy' | 'otherFails'> {
  const rule = results.rules.find((candidate) => candidate.id === fault.rule);
  const ruleStatus = rule?.status ?? 'not in the results';
  // A check fails on its own rules; a named response check records a `finding` under the rule a response broke.
  const detectedBy = (rule?.checks ?? [])
    .filter((check) => check.verdict === 'fail' || check.verdict === 'finding')
    .map((check) => ({ check: check.name, message: (check.message ?? '').slice(0, 300) }));
  const otherFails = results.rules.filter((candidate) => candidate.status === 'fail' && candidate.id !== fault.rule).map((candidate) => candidate.id);
  return { detected: ruleStatus === expectedStatus(fault), ruleStatus, detectedBy, otherFails };
}

/** A fault the matrix could not judge, and why. */
export function unjudged(fault: Fault, problem: string, ruleStatus = 'no results'): FaultOutcome {
  return { id: fault.id, rule: fault.rule, does: fault.does, durationMs: 0, detected: false, ruleStatus, detectedBy: [], otherFails: [], problem };
}

/** Runs one worker over its task; a worker that dies leaves its remaining items unjudged, with the reason. */
function runWorker<Item, Outcome>(
  task: WorkerTask,
  unjudgedOf: (item: Item, problem: string) => Outcome,
  record: (index: number, outcome: Outcome) => void,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TYPESCRIPT_WITH_VITEST, WORKER], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let failure = '';
    const pending = new Map(task.items as Array<[number, Item]>);
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('message', (message: WorkerMessage<Outcome>) => {
      if (message.kind === 'failed') failure = message.message;
      else {
        pending.delete(message.index);
        record(message.index, message.outcome);
      }
    });
    child.on('close', (code) => {
      const reason = `the matrix worker stopped (exit ${code}) before this item: ${(failure || stderr).trim().split('\n').slice(-3).join(' ')}`;
      for (const [index, item] of pending) record(index, unjudgedOf(item, reason));
      resolve();
    });
    child.send(task);
  });
}

/**
 * Deals `items` round-robin to the workers (neighbours in a catalogue, often the same area and a similar cost, go
 * to different workers) and collects one outcome per item, in catalogue order.
 */
export async function runWorkers<Item, Outcome>(
  items: readonly Item[],
  options: WorkersOptions<Outcome>,
  taskOf: (share: Array<[number, Item]>, common: TaskCommon) => WorkerTask,
  unjudgedOf: (item: Item, problem: string) => Outcome,
): Promise<{ started: Date; finished: Date; jobs: number; outcomes: Outcome[] }> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), items.length));
  const started = new Date();
  const outcomes: Outcome[] = new Array(items.length);
  let done = 0;
  const record = (index: number, outcome: Outcome): void => {
    outcomes[index] = outcome;
    options.onOutcome?.(outcome, ++done, items.length);
  };
  const common = {
    seed: options.seed,
    runs: options.runs,
    violationRuns: options.violationRuns,
    runTimeoutMs: options.runTimeoutMs ?? 120_000,
    ...(options.keepRunsIn ? { keepRunsIn: options.keepRunsIn } : {}),
  };
  const shares = Array.from({ length: jobs }, (_, job) =>
    items.map((item, index) => [index, item] as [number, Item]).filter(([index]) => index % jobs === job),
  );
  // The workers run through tsx; the spec files their vitest threads import come from the suite's compiled copy.
  const env = { ...process.env, ...(await compiledSuiteEnv()) };
  await Promise.all(shares.map((share) => runWorker(taskOf(share, common), unjudgedOf, record, env)));
  return { started, finished: new Date(), jobs, outcomes };
}

export async function runMatrix(options: MatrixOptions): Promise<Matrix> {
  const { started, finished, jobs, outcomes } = await runWorkers(
    options.faults,
    options,
    (items, common) => ({ kind: 'faults', items, under: options.under ?? [], ...common }),
    unjudged,
  );
  return {
    started: started.toISOString(),
    finished: finished.toISOString(),
    seed: options.seed,
    runs: options.runs,
    violationRuns: options.violationRuns,
    jobs,
    durationMs: finished.getTime() - started.getTime(),
    faults: outcomes.length,
    detected: outcomes.filter((outcome) => outcome.detected).length,
    outcomes,
  };
}

/**
 * Narrowed runs, one after another in each of two workers (each run its own vitest run and emulator, in one process: a
 * run of the command line pays about a second of CPU to start vitest, load the suite and start its emulator). Two, not
 * one: many runs wait out a 3 s consistency window (test/variations/combinations.test.ts 49 s alone with one, 30 s with
 * two, 1.5 s more CPU).
 */
export async function runNarrowed(runs: readonly NarrowedRun[], options: WorkersOptions<NarrowedOutcome>): Promise<NarrowedOutcome[]> {
  const { outcomes } = await runWorkers(
    runs,
    { jobs: 2, ...options },
    (items, common) => ({ kind: 'runs', items, ...common }),
    (_, problem) => ({ problem }),
  );
  return outcomes;
}

/** A deterministic sample of `size` faults spread evenly over the catalogue. */
export function sampleFaults<T>(faults: readonly T[], size: number): T[] {
  if (size >= faults.length) return [...faults];
  const step = faults.length / size;
  return Array.from({ length: size }, (_, i) => faults[Math.floor(i * step)]!);
}
