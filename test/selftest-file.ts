// Names the self-test file a worker thread is running in that thread's environment, which the processes the file
// starts inherit: `npm run bench -- --with-tests` sums their CPU by the file that started them
// (scripts/bench-cpu-hook.mjs). Each vitest worker thread has an environment of its own.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

beforeAll(() => {
  process.env.SELFTEST_FILE = relative(ROOT, expect.getState().testPath ?? '');
});
