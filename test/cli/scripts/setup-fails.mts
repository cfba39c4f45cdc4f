// `conformance run` past its pre-flight with a target whose start fails (an emulator fault the emulator refuses):
// what a global-setup failure looks like to the command. Usage: node --import tsx setup-fails.mts OUT_DIR
import { resolveConfig } from '../../../harness/config.js';
import { runSuite } from '../../../cli/run.js';

const config = { ...resolveConfig({ flags: { out: process.argv[2], allure: 'false', progress: 'quiet' } }), emulatorFaults: ['NOPE'] };
const code = await runSuite(config, ['specs/part3/firewalls']);
process.stdout.write('', () => process.exit(code));
