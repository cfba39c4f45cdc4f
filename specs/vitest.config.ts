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
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
