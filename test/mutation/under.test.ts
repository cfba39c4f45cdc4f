// `npm run mutation -- --under`: every fault's emulator carries the variations given too. Under `clones-instant` no clone
// is ever running, so the fault of a sixth concurrent clone has nothing to show (its rule skips); on the plain
// emulator it is detected.
import { expect, it } from 'vitest';
import { FAULTS } from '../../emulator/faults/index.js';
import { VARIATIONS } from '../../emulator/variations/index.js';
import { MATRIX_RUNS, runMatrix } from './matrix.js';

it('runs each fault under the variations given, which reach its emulator', async () => {
  const fault = FAULTS.find((candidate) => candidate.id === 'P2.clone.max-5-concurrent')!;
  const [plain, under] = await Promise.all([
    runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1 }),
    runMatrix({ faults: [fault], seed: 1, ...MATRIX_RUNS, jobs: 1, under: VARIATIONS.filter((variation) => variation.id === 'clones-instant') }),
  ]);
  expect(plain.outcomes).toEqual([expect.objectContaining({ id: fault.id, detected: true })]);
  expect(under.outcomes).toEqual([expect.objectContaining({ id: fault.id, detected: false, ruleStatus: 'skip' })]);
}, 120_000);
