// The order a run starts its spec files in: the longest first, then vitest's own order, or with --shuffle one drawn
// from its seed (vitest's `sequence.seed` when the run's configuration gives none: the variation matrix's runs);
// either way the files holding requests that must come after every other (harness/run-order.ts) are moved to the end.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { LAST_FILES } from '../../harness/run-order.js';
import { rankedFirst } from './ranked-first.js';

/**
 * The spec files that take the longest on any target (each property sends its runs' bodies one after another), first:
 * vitest's own order goes by the durations its cache holds, which every run of the checkout writes (a hostile
 * target's, a narrowed one's), or, for files it holds none of (a fresh clone), by size, and these files are the
 * smallest: started last, one of them then ran alone at the end of a full run.
 */
export const LONGEST_FIRST = ['specs/properties/part3.spec.ts', 'specs/properties/part2.spec.ts', 'specs/properties/part1.spec.ts'];

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
      const order = drawnFrom === undefined ? rankedFirst(await super.sort(files), LONGEST_FIRST) : await shuffled(files, drawnFrom);
      return [...order.filter((file) => !isLast(file)), ...order.filter(isLast)];
    }
  };
}
