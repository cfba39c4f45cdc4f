import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The conformance suite proper (run by `npx conformance run`, or `npx vitest run --config specs/vitest.config.ts`).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['specs/setup/global-setup.ts'],
    reporters: ['default', './reports/results-reporter.ts'],
    pool: 'threads',
    // Checks wait on HTTP far more than they compute (the target is another process): more workers than cores
    // pay off, and sharing modules between spec files saves re-importing ajv, fast-check and the schemas.
    maxWorkers: 3,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
