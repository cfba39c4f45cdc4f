#!/usr/bin/env node
// Runs the TypeScript command line (from its compiled copy: bin/typescript.mjs), so `npx conformance …` works right
// after `npm ci`.
import { existsSync } from 'node:fs';

// The installed package carries the contract library only (dist/); the command runs from a checkout.
if (!existsSync(new URL('../cli/main.ts', import.meta.url))) {
  process.stderr.write(
    'conformance: this installed copy of chs-conformance carries the contract library only (import it: see the README); run the command from a checkout of the repository after `npm ci`\n',
  );
  process.exit(2);
}
// The packages a run imports are loaded before the loader is registered (bin/packages-first.mjs).
if (process.argv[2] === 'run') await import('./packages-first.mjs');
const { importSuite } = await import('./typescript.mjs');
await importSuite('cli/main.ts');
