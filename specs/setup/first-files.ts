// The order a run starts its spec files in: vitest's own, or with --shuffle one drawn from its seed; either way the
// files holding checks that must see the target before the others (harness/run-order.ts) are moved to the front.
import fc from 'fast-check';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { FIRST_FILES } from '../../harness/run-order.js';

const isFirst = (file: TestSpecification) => FIRST_FILES.some((path) => file.moduleId.includes(`/${path}`));

/** The sequencer of a run: the files in an order drawn from `shuffleSeed` when one is given. */
export function firstFilesFirst(shuffleSeed: number | undefined): typeof BaseSequencer {
  return class FirstFilesFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const order =
        shuffleSeed === undefined
          ? await super.sort(files)
          : fc.sample(fc.shuffledSubarray(files, { minLength: files.length }), { seed: shuffleSeed, numRuns: 1 })[0]!;
      return [...order.filter(isFirst), ...order.filter((file) => !isFirst(file))];
    }
  };
}
