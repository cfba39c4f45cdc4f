// How the self-tests start a child process on a TypeScript script that drives vitest's Node API.
import { fileURLToPath } from 'node:url';

/** Node's arguments before the script: vitest's modules first (test/vitest-first.mjs), then tsx for the sources. */
export const TYPESCRIPT_WITH_VITEST = ['--import', fileURLToPath(new URL('./vitest-first.mjs', import.meta.url)), '--import', 'tsx'];
