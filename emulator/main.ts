// `npm run emulator -- --port <n> [--host 127.0.0.1] [--no-control] [--fault ID]... [--list-faults] [--token T]`
// Faults also come from CHS_EMULATOR_FAULTS (comma-separated).
import { parseArgs } from 'node:util';
import { FAULTS, unknownFaults } from './faults/index.js';
import { startEmulator } from './index.js';

const USAGE = 'usage: npm run emulator -- --port <n> [--host 127.0.0.1] [--no-control] [--fault ID]... [--list-faults] [--token T]';

function die(message: string): never {
  process.stderr.write(`emulator: ${message} (${USAGE})\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        'no-control': { type: 'boolean', default: false },
        fault: { type: 'string', multiple: true, default: [] },
        'list-faults': { type: 'boolean', default: false },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    die((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (values['list-faults']) {
    for (const fault of FAULTS) process.stdout.write(`${fault.id}\t${fault.does}\n`);
    return;
  }
  const faults = [...values.fault, ...(process.env['CHS_EMULATOR_FAULTS'] ?? '').split(',').map((id) => id.trim()).filter(Boolean)];
  const unknown = unknownFaults(faults);
  if (unknown.length > 0) die(`unknown fault ${unknown.join(', ')} (--list-faults lists them)`);
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
    die(`--port must be an integer from 0 to 65535, not "${values.port}"`);
  }
  if (values.token !== undefined && !/^\S{1,256}$/.test(values.token)) die('--token must be 1..256 non-space characters');

  let emulator;
  try {
    emulator = await startEmulator({
      port: Number(values.port),
      host: values.host,
      control: !values['no-control'],
      faults,
      ...(values.token !== undefined ? { token: values.token } : {}),
    });
  } catch (err) {
    process.stderr.write(`emulator: cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`Emulator listening on ${emulator.url} (token: ${emulator.token})\n`);

  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    emulator.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`emulator: error while closing: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
