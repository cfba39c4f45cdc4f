// The order a run starts its spec files in: vitest's own, or with --shuffle one drawn from its seed (vitest's
// `sequence.seed` when the run's configuration gives none: the variation matrix's runs); either way the files holding
// requests that must come after every other (harness/run-order.ts) are moved to the end.
import fc from 'fast-check';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LAST_FILES } from '../../harness/run-order.js';

const isLast = (file: TestSpecification) => LAST_FILES.some((path) => file.moduleId.includes(`/${path}`));

/** The sequencer of a run: the files in an order drawn from `shuffleSeed` when one is given. */
export function lastFilesLast(shuffleSeed: number | undefined): typeof BaseSequencer {
  return class LastFilesLast extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const drawnFrom = shuffleSeed ?? this.ctx.config.sequence.seed;
      const order =
        drawnFrom === undefined
          ? await super.sort(files)
          : fc.sample(fc.shuffledSubarray(files, { minLength: files.length }), { seed: drawnFrom, numRuns: 1 })[0]!;
      return [...order.filter((file) => !isLast(file)), ...order.filter(isLast)];
    }
  };
}
