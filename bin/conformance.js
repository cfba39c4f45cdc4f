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
const { importSuite } = await import('./typescript.mjs');
// Run through tsx (no compiled copy), the packages a run imports load before tsx's loader (bin/packages-first.mjs);
// from the copy there is no loader, and a command refusing its flags loads none of them.
await importSuite('cli/main.ts', process.argv[2] === 'run' ? () => import('./packages-first.mjs') : undefined);
