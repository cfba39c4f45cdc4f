// The order `npm test` starts its files in: the longest first (each runs whole suites as child processes), so that
// the workers never end with one long file running alone while the others sit idle; then files that mostly wait on
// the wall clock (timeouts, consistency windows, lagging proxies, jobs that complete in real time) alternate with files
// that keep a core busy, so that the workers seldom wait together with the cores idle (measured in one hour:
// 52 and 43 seconds of the run with the cores under 80 % busy with waiting files side by side, 35–36 alternating).
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { rankedFirst } from '../specs/setup/ranked-first.js';

// (the real-time waits first of all: its 160 s of waiting keep a worker but hardly a core, and started late it ran alone
// at the end, a minute of the run with two workers idle)
const LONGEST = [
  'test/hostile/real-time-waits.test.ts',
  'test/variations/matrix.test.ts',
  'test/mutation/matrix.test.ts',
  'test/suite/full-run.test.ts',
  'test/hostile/liar.test.ts',
];
/** Long files that keep a core busy. */
const BUSY = [
  'test/variations/combinations.test.ts',
  'test/cli/run-flags.test.ts',
  'test/hostile/evidence.test.ts',
  'test/suite/base-url.test.ts',
  'test/safety/guards.test.ts',
  'test/safety/interrupt.test.ts',
  'test/safety/guest.test.ts',
  'test/cli/report-merge.test.ts',
];
/** Long files that mostly wait on the wall clock. */
const WAITING = [
  'test/harness/deadline.test.ts',
  'test/hostile/consistency.test.ts',
  'test/suite/budget.test.ts',
  'test/hostile/no-answer.test.ts',
  'test/suite/held-clock.test.ts',
  'test/safety/clone-job.test.ts',
  'test/safety/guest-every-area.test.ts',
  'test/safety/colleague-labels.test.ts',
];
const FOLDERS = ['test/suite/', 'test/hostile/', 'test/safety/', 'test/cli/'];

/** The files and folders ranked first, in order (test/longest-first.test.ts: each one is there). */
const alternating = Array.from({ length: Math.max(BUSY.length, WAITING.length) }, (_, i) => [BUSY[i], WAITING[i]]).flat();
export const RANKED = [...LONGEST, ...alternating.filter((path) => path !== undefined), ...FOLDERS];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return rankedFirst(await super.sort(files), RANKED);
  }
}
