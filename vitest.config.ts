import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.js';

// The project's self-tests (`npm test`): contract model, emulator, harness, command line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    // Five files at a time on two cores: most long files wait on child processes (full runs, matrices, timeouts
    // against hostile targets, replica lag, the real-time waits' 160 s), and the others fill the cores they leave idle.
    // Measured in one hour (2026-12-07, cores sampled every 2 s): four workers 278–283 s of wall with the cores under
    // half busy for about 40 s of it, five 250–258 s (docs/speed-log.md).
    maxWorkers: 5,
    // Files share each worker's modules: loading the rules, schemas and emulator anew for each of ~95 files cost about
    // 40 % of the in-process tests' CPU. No file mocks modules or changes globals.
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // Each file's name in its thread's environment, for the bench's CPU by self-test file.
    setupFiles: ['test/selftest-file.ts'],
    // Nothing left in the system's temporary folder: the tests' folders and files go in one, removed at the end.
    globalSetup: ['test/temp-folder.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
