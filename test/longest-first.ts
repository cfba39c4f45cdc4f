// The order `npm test` starts its files in: the longest first (each runs whole suites as child processes), so that
// the workers never end with one long file running alone while the others sit idle.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { rankedFirst } from '../specs/setup/ranked-first.js';

const LONGEST = [
  'test/variations/matrix.test.ts',
  'test/mutation/matrix.test.ts',
  'test/suite/full-run.test.ts',
  'test/hostile/liar.test.ts',
  'test/hostile/consistency.test.ts',
  'test/suite/',
  'test/hostile/',
  'test/safety/',
  'test/cli/',
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return rankedFirst(await super.sort(files), LONGEST);
  }
}
