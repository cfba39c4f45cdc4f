// The `conformance` command's entry point (bin/conformance.js, `npm run conformance`); the commands are in program.ts.
import { redactStandardStreams } from '../harness/redact.js';
import { main } from './program.js';

// Every secret the commands register (tokens, base-URL credentials) is kept out of what this process prints.
redactStandardStreams();

// Vitest leaves worker threads winding down for seconds after a run: exit as soon as the verdict is known, once
// standard output has drained (a pipe takes 64 KiB at a time; exiting earlier cuts `rules --json` short).
const exitCode = await main(process.argv.slice(2));
process.stdout.write('', () => process.exit(exitCode));
