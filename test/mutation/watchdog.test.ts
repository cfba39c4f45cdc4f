// The matrix's watchdog: a run that stops making progress (no spec file ends within the per-run limit) is cancelled,
// and its fault is reported unjudged with the reason: never a verdict, never a hang.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { MATRIX_RUNS, runMatrix, type WorkerTask } from './matrix.js';
import { VARIATIONS } from '../../emulator/variations/index.js';
import { compiledSuiteEnv } from '../../bin/typescript.mjs';
import { TYPESCRIPT_WITH_VITEST } from '../typescript-child.js';
import { tempDir } from '../safety/support.js';

it('reports a fault unjudged, with the reason, when its run makes no progress within the limit', async () => {
  const fault = FAULTS.find((candidate) => candidate.id === 'P2.tag-create.label.required')!;
  // No spec file can end within a millisecond: the batch is cancelled, then the fault's run alone too.
  const matrix = await runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1, runTimeoutMs: 1 });
  expect(matrix.outcomes).toEqual([
    expect.objectContaining({ id: fault.id, detected: false, problem: 'the run stopped making progress: no spec file ended within 0.001 s' }),
  ]);
}, 120_000);

it('a worker whose matrix is gone (its channel closed) stops its run rather than going on orphaned', async () => {
  // The worker's temporary folder is the test's own: its runs' folders there show a run under way.
  const tmp = tempDir('watchdog-worker');
  const worker = spawn(process.execPath, [...TYPESCRIPT_WITH_VITEST, fileURLToPath(new URL('./worker.ts', import.meta.url))], {
    env: { ...process.env, ...(await compiledSuiteEnv()), TMPDIR: tmp },
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
  // A variation's full run: far longer than the wait below.
  const variation = VARIATIONS.find((candidate) => candidate.id === 'datetime-fraction')!;
  const task: WorkerTask = { kind: 'variations', items: [[0, [variation]]], seed: 1, ...MATRIX_RUNS, runTimeoutMs: 60_000 };
  worker.send(task);
  // Closed once the run is under way (its ledger folder made), not after a fixed wait: on a loaded machine the worker
  // may still be loading, and a channel closed before it listens leaves it nothing to run and nothing to stop.
  const runUnderWay = () =>
    readdirSync(tmp).some(
      (folder) => folder.startsWith('conformance-matrix-runs-') && existsSync(join(tmp, folder, 'runs')) && readdirSync(join(tmp, folder, 'runs')).length > 0,
    );
  for (const started = Date.now(); !runUnderWay() && Date.now() - started < 50_000;) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(runUnderWay()).toBe(true);
  const closedAt = Date.now();
  worker.disconnect();
  const code = await Promise.race([exited, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 5000))]);
  if (code === 'still running') worker.kill('SIGKILL');
  expect(code).toBe(1);
  expect(Date.now() - closedAt).toBeLessThan(5000);
}, 90_000);
