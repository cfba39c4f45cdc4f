// The mutation matrix: for each emulator fault, run the suite against a fresh embedded emulator started with that
// fault alone, narrowed to the fault's rule, and record whether the suite reported `fail` for that rule and which
// checks did. One worker process per core (worker.ts), each keeping one vitest instance for its share of faults.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Fault } from '../../emulator/faults/index.js';
import type { FaultOutcome, Matrix } from '../../reports/mutation.js';
import type { Results } from '../../reports/results.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface MatrixOptions {
  faults: readonly Fault[];
  seed: number;
  /** Worker processes (default: the machine's cores). */
  jobs?: number;
  /** Keep each run's results.json in this folder. */
  keepRunsIn?: string;
  /** Per-fault wall-clock limit. */
  runTimeoutMs?: number;
  onOutcome?: (outcome: FaultOutcome, done: number, total: number) => void;
}

/** What a worker is given: its share of the faults, with their places in the catalogue order. */
export interface WorkerTask {
  faults: Array<[number, Fault]>;
  seed: number;
  runTimeoutMs: number;
  keepRunsIn?: string;
}

export type WorkerMessage = { kind: 'outcome'; index: number; outcome: FaultOutcome } | { kind: 'failed'; message: string };

/** Whether a check of `rule` runs under the rule filter `filter` (the run command's `--rules` semantics). */
export function ruleSelects(filter: string, rule: string): boolean {
  return rule === filter || rule.startsWith(`${filter}.`);
}

export function judgeFault(fault: Fault, results: Results): Pick<FaultOutcome, 'detected' | 'ruleStatus' | 'detectedBy' | 'otherFails'> {
  const rule = results.rules.find((candidate) => candidate.id === fault.rule);
  const ruleStatus = rule?.status ?? 'not in the results';
  // A check fails on its own rules; a named response check records a `finding` under the rule a response broke.
  const detectedBy = (rule?.checks ?? []).filter((check) => check.verdict === 'fail' || check.verdict === 'finding').map((check) => ({ check: check.name, message: (check.message ?? '').slice(0, 300) }));
  const otherFails = results.rules.filter((candidate) => candidate.status === 'fail' && candidate.id !== fault.rule).map((candidate) => candidate.id);
  return { detected: ruleStatus === 'fail', ruleStatus, detectedBy, otherFails };
}

/** A fault the matrix could not judge, and why. */
export function unjudged(fault: Fault, problem: string, ruleStatus = 'no results'): FaultOutcome {
  return { id: fault.id, rule: fault.rule, does: fault.does, durationMs: 0, detected: false, ruleStatus, detectedBy: [], otherFails: [], problem };
}

/** Runs one worker over `share`; a worker that dies leaves its remaining faults unjudged, with the reason. */
function runWorker(share: Array<[number, Fault]>, options: MatrixOptions, record: (index: number, outcome: FaultOutcome) => void): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let failure = '';
    const pending = new Map(share);
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('message', (message: WorkerMessage) => {
      if (message.kind === 'failed') failure = message.message;
      else {
        pending.delete(message.index);
        record(message.index, message.outcome);
      }
    });
    child.on('close', (code) => {
      const reason = `the matrix worker stopped (exit ${code}) before this fault: ${(failure || stderr).trim().split('\n').slice(-3).join(' ')}`;
      for (const [index, fault] of pending) record(index, unjudged(fault, reason));
      resolve();
    });
    const task: WorkerTask = { faults: share, seed: options.seed, runTimeoutMs: options.runTimeoutMs ?? 120_000, ...(options.keepRunsIn ? { keepRunsIn: options.keepRunsIn } : {}) };
    child.send(task);
  });
}

export async function runMatrix(options: MatrixOptions): Promise<Matrix> {
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), options.faults.length));
  const started = new Date();
  const outcomes: FaultOutcome[] = new Array(options.faults.length);
  let done = 0;
  const record = (index: number, outcome: FaultOutcome): void => {
    outcomes[index] = outcome;
    options.onOutcome?.(outcome, ++done, options.faults.length);
  };
  // Dealt round-robin: neighbouring faults of the catalogue (often the same area, similar cost) go to different workers.
  const shares = Array.from({ length: jobs }, (_, job) => options.faults.map((fault, index) => [index, fault] as [number, Fault]).filter(([index]) => index % jobs === job));
  await Promise.all(shares.map((share) => runWorker(share, options, record)));
  const finished = new Date();
  return {
    started: started.toISOString(),
    finished: finished.toISOString(),
    seed: options.seed,
    jobs,
    durationMs: finished.getTime() - started.getTime(),
    faults: outcomes.length,
    detected: outcomes.filter((outcome) => outcome.detected).length,
    outcomes,
  };
}

/** A deterministic sample of `size` faults spread evenly over the catalogue. */
export function sampleFaults(faults: readonly Fault[], size: number): Fault[] {
  if (size >= faults.length) return [...faults];
  const step = faults.length / size;
  return Array.from({ length: size }, (_, i) => faults[Math.floor(i * step)]!);
}
