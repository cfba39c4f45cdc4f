// The matrix's watchdog: a run that stops making progress (no spec file ends within the per-run limit) is cancelled,
// and its fault is reported unjudged with the reason: never a verdict, never a hang.
import { expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { MATRIX_RUNS, runMatrix } from './matrix.js';

it('reports a fault unjudged, with the reason, when its run makes no progress within the limit', async () => {
  const fault = FAULTS.find((candidate) => candidate.id === 'P2.tag-create.label.required')!;
  // No spec file can end within a millisecond: the batch is cancelled, then the fault's run alone too.
  const matrix = await runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1, runTimeoutMs: 1 });
  expect(matrix.outcomes).toEqual([
    expect.objectContaining({ id: fault.id, detected: false, problem: 'the run stopped making progress: no spec file ended within 0.001 s' }),
  ]);
}, 120_000);
