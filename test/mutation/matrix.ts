// The mutation matrix: for each emulator fault, run the suite against an embedded emulator started with that fault
// alone, narrowed to the fault's rule, and record whether the suite reported `fail` for that rule and which checks
// did. Runs go in parallel, one per core.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Fault } from '../../emulator/faults/index.js';
import type { FaultOutcome, Matrix } from '../../reports/mutation.js';
import type { Results } from '../../reports/results.js';

const BIN = new URL('../../bin/conformance.js', import.meta.url).pathname;

export interface MatrixOptions {
  faults: readonly Fault[];
  seed: number;
  /** Runs at once (default: the machine's cores). */
  jobs?: number;
  /** Work folder for the runs' output (removed run by run unless kept). */
  workDir: string;
  keepRuns?: boolean;
  /** Per-run wall-clock limit. */
  runTimeoutMs?: number;
  onOutcome?: (outcome: FaultOutcome, done: number, total: number) => void;
}

interface Finished {
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
}

function runConformance(args: string[], timeoutMs: number): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'run', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stderr, timedOut });
    });
  });
}

export function judgeFault(fault: Fault, results: Results): Pick<FaultOutcome, 'detected' | 'ruleStatus' | 'detectedBy' | 'otherFails'> {
  const rule = results.rules.find((candidate) => candidate.id === fault.rule);
  const ruleStatus = rule?.status ?? 'not in the results';
  // A check fails on its own rules; a named response check records a `finding` under the rule a response broke.
  const detectedBy = (rule?.checks ?? []).filter((check) => check.verdict === 'fail' || check.verdict === 'finding').map((check) => ({ check: check.name, message: (check.message ?? '').slice(0, 300) }));
  const otherFails = results.rules.filter((candidate) => candidate.status === 'fail' && candidate.id !== fault.rule).map((candidate) => candidate.id);
  return { detected: ruleStatus === 'fail', ruleStatus, detectedBy, otherFails };
}

async function runFault(fault: Fault, options: MatrixOptions, index: number): Promise<FaultOutcome> {
  const out = join(options.workDir, `fault-${index}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const started = Date.now();
  const args = ['--emulator-fault', fault.id, '--rules', fault.rule, '--seed', String(options.seed), '--out', out, '--run-id', `mut${index}`, '--no-allure', '--progress', 'quiet'];
  const finished = await runConformance(args, options.runTimeoutMs ?? 120_000);
  const base = { id: fault.id, rule: fault.rule, does: fault.does, exitCode: finished.exitCode, durationMs: Date.now() - started };
  let outcome: FaultOutcome;
  try {
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
    outcome = { ...base, ...judgeFault(fault, results) };
  } catch {
    const problem = finished.timedOut ? `the run did not finish within ${(options.runTimeoutMs ?? 120_000) / 1000} s` : `the run wrote no results (exit ${finished.exitCode}): ${finished.stderr.trim().split('\n').slice(-3).join(' ')}`;
    outcome = { ...base, detected: false, ruleStatus: 'no results', detectedBy: [], otherFails: [], problem };
  }
  if (!options.keepRuns) rmSync(out, { recursive: true, force: true });
  return outcome;
}

export async function runMatrix(options: MatrixOptions): Promise<Matrix> {
  const jobs = Math.max(1, options.jobs ?? availableParallelism());
  const started = new Date();
  const outcomes: FaultOutcome[] = new Array(options.faults.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < options.faults.length) {
      const index = next++;
      outcomes[index] = await runFault(options.faults[index]!, options, index);
      options.onOutcome?.(outcomes[index]!, ++done, options.faults.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, options.faults.length) }, worker));
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
