import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

// The project's self-tests (`npm test`): contract model, emulator, harness, command line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    // Two files at a time: most long files wait on child processes (full runs, matrices, timeouts against hostile
    // targets), so a second file fills the idle core.
    maxWorkers: 2,
    // Files share each worker's modules: loading the rules, schemas and emulator anew for each of ~95 files cost about
    // 40 % of the in-process tests' CPU. No file mocks modules or changes globals.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // Each file's name in its thread's environment, for the bench's CPU by self-test file.
    setupFiles: ['test/selftest-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
