// The order a run starts its spec files in: vitest's own, or with --shuffle one drawn from its seed (vitest's
// `sequence.seed` when the run's configuration gives none: the variation matrix's runs); either way the files holding
// requests that must come after every other (harness/run-order.ts) are moved to the end.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LAST_FILES } from '../../harness/run-order.js';

const isLast = (file: TestSpecification) => LAST_FILES.some((path) => file.moduleId.includes(`/${path}`));

/** The files in the order drawn from the seed (fast-check imported here: most runs' main thread never needs it). */
async function shuffled(files: TestSpecification[], seed: number): Promise<TestSpecification[]> {
  const { default: fc } = await import('fast-check');
  return fc.sample(fc.shuffledSubarray(files, { minLength: files.length }), { seed, numRuns: 1 })[0]!;
}

/** The sequencer of a run: the files in an order drawn from `shuffleSeed` when one is given. */
export function lastFilesLast(shuffleSeed: number | undefined): typeof BaseSequencer {
  return class LastFilesLast extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const drawnFrom = shuffleSeed ?? this.ctx.config.sequence.seed;
      const order = drawnFrom === undefined ? await super.sort(files) : await shuffled(files, drawnFrom);
      return [...order.filter((file) => !isLast(file)), ...order.filter(isLast)];
    }
  };
}
