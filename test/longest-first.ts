// The order `npm test` starts its files in: the longest first (each runs whole suites as child processes), so that
// the workers never end with one long file running alone while the others sit idle.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

const rank = (file: TestSpecification): number => {
  const at = LONGEST.findIndex((path) => file.moduleId.includes(`/${path}`));
  return at < 0 ? LONGEST.length : at;
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
