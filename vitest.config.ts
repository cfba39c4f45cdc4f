import { defineConfig } from 'vitest/config';

// The project's self-tests (`npm test`): contract model, emulator, harness, command line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
