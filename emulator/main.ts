// `npm run emulator -- --port <n> [--host 127.0.0.1] [--no-control] [--fault ID]... [--list-faults]
//  [--variation ID]... [--list-variations] [--token T] [--parent-pid PID]`
// `--parent-pid`: exit when that process is gone (a child emulator never outlives its parent, even one killed by SIGKILL).
// Faults also come from CHS_EMULATOR_FAULTS, variations from CHS_EMULATOR_VARIATIONS (comma-separated).
// `--instances`: no emulator at first; each JSON line on standard input starts or closes one (the mutation matrix
// starts hundreds of emulators, one per fault, without paying a process start-up for each):
//   {"faults": ["ID"], "variations": ["ID"], "token": "T"}  →  {"url": "http://127.0.0.1:PORT"}   (a fresh emulator,
//                                                                                        its own state)
//   {"close": "http://127.0.0.1:PORT"} →  {"closed": "http://127.0.0.1:PORT"}
// A line that cannot be served answers {"error": "why"}; the host goes on.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { FAULTS, unknownFaults } from './faults/index.js';
import { VARIATIONS, unknownVariations } from './variations/index.js';
import { startEmulator, type RunningEmulator } from './index.js';

const USAGE = 'usage: npm run emulator -- --port <n> [--host 127.0.0.1] [--no-control] [--fault ID]... [--list-faults] [--variation ID]... [--list-variations] [--token T] [--parent-pid PID] | --instances';
/** How often a child emulator looks for its parent. */
const PARENT_POLL_MS = 500;
const TOKEN = /^\S{1,256}$/;

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
        variation: { type: 'string', multiple: true, default: [] },
        'list-variations': { type: 'boolean', default: false },
        token: { type: 'string' },
        'parent-pid': { type: 'string' },
        instances: { type: 'boolean', default: false },
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
  if (values['list-variations']) {
    for (const variation of VARIATIONS) process.stdout.write(`${variation.id}\t${variation.does}\t${variation.leaves}\n`);
    return;
  }
  if (values.instances) return serveInstances(values.host, !values['no-control']);
  const faults = [...values.fault, ...fromEnv('CHS_EMULATOR_FAULTS')];
  const variations = [...values.variation, ...fromEnv('CHS_EMULATOR_VARIATIONS')];
  const problem = unknownIds(faults, variations);
  if (problem) die(problem);
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
    die(`--port must be an integer from 0 to 65535, not "${values.port}"`);
  }
  if (values.token !== undefined && !TOKEN.test(values.token)) die('--token must be 1..256 non-space characters');
  const parent = values['parent-pid'];
  if (parent !== undefined && !/^[1-9]\d{0,9}$/.test(parent)) die(`--parent-pid must be a process id, not "${parent}"`);

  let emulator;
  try {
    emulator = await startEmulator({
      port: Number(values.port),
      host: values.host,
      control: !values['no-control'],
      faults,
      variations,
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
  if (parent !== undefined) watchParent(Number(parent), stop);
}

/** Stops when the parent process is gone (signal 0 tests for a process without touching it). */
function watchParent(pid: number, stop: () => void): void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') return;
      clearInterval(timer);
      stop();
    }
  }, PARENT_POLL_MS);
  timer.unref();
}

function fromEnv(name: string): string[] {
  return (process.env[name] ?? '').split(',').map((id) => id.trim()).filter(Boolean);
}

/** Why these fault and variation ids cannot be served, or '' when every one is known. */
function unknownIds(faults: readonly string[], variations: readonly string[]): string {
  const faultsUnknown = unknownFaults(faults);
  if (faultsUnknown.length) return `unknown fault ${faultsUnknown.join(', ')} (--list-faults lists them)`;
  const variationsUnknown = unknownVariations(variations);
  if (variationsUnknown.length) return `unknown variation ${variationsUnknown.join(', ')} (--list-variations lists them)`;
  return '';
}

type InstanceRequest = { faults?: unknown; variations?: unknown; token?: unknown; close?: unknown };
const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === 'string');

function parseLine(line: string): InstanceRequest | null {
  try {
    return JSON.parse(line) as InstanceRequest | null;
  } catch {
    return null;
  }
}

/** One answer per line of standard input, in order; ends (closing every emulator) with standard input. */
async function serveInstances(host: string, control: boolean): Promise<void> {
  const running = new Map<string, RunningEmulator>();
  const answer = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const request = parseLine(line);
    if (!request || typeof request !== 'object' || Array.isArray(request)) {
      answer({ error: 'each line is a JSON object: {"faults": [...], "variations": [...], "token": "..."} or {"close": "URL"}' });
      continue;
    }
    if (typeof request.close === 'string') {
      await running.get(request.close)?.close();
      running.delete(request.close);
      answer({ closed: request.close });
      continue;
    }
    const faults = request.faults ?? [];
    const variations = request.variations ?? [];
    if (!isIdList(faults)) answer({ error: 'faults is an array of fault ids' });
    else if (!isIdList(variations)) answer({ error: 'variations is an array of variation ids' });
    else if (unknownIds(faults, variations)) answer({ error: unknownIds(faults, variations) });
    else if (typeof request.token !== 'string' || !TOKEN.test(request.token)) answer({ error: 'token is 1..256 non-space characters' });
    else {
      try {
        const emulator = await startEmulator({ port: 0, host, control, faults, variations, token: request.token });
        running.set(emulator.url, emulator);
        answer({ url: emulator.url });
      } catch (error) {
        answer({ error: `cannot start: ${(error as Error).message}` });
      }
    }
  }
  await Promise.all([...running.values()].map((emulator) => emulator.close()));
}

void main();
