// `npm run emulator -- --help` lists the flags (declared in emulator/settings.ts).
// `--instances`: no emulator at first; each JSON line on standard input starts or closes one (the mutation matrix
// starts hundreds of emulators, one per fault, without paying a process start-up for each):
//   {"faults": ["ID"], "variations": ["ID"], "token": "T"}  →  {"url": "http://127.0.0.1:PORT"}   (a fresh emulator,
//                                                                                        its own state)
//   {"close": "http://127.0.0.1:PORT"} →  {"closed": "http://127.0.0.1:PORT"}
// A line that cannot be served answers {"error": "why"}; the host goes on.
import { createInterface } from 'node:readline';
import { FAULTS } from './faults/index.js';
import { VARIATIONS } from './variations/index.js';
import { emulatorInstances, startEmulator, type RunningEmulator } from './index.js';
import { TOKEN, UsageError, readSettings, idsProblem, usage, type EmulatorSettings } from './settings.js';

/** How often a child emulator looks for its parent. */
const PARENT_POLL_MS = 500;

function die(message: string): never {
  process.stderr.write(`emulator: ${message} (npm run emulator -- --help lists the flags)\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let settings: EmulatorSettings;
  try {
    settings = readSettings(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) die(error.message);
    throw error;
  }
  // A reader that hung up (`--list-variations | head -3`): a listing has nothing more to say (it crashed on EPIPE); a
  // running emulator goes on serving.
  const listing = settings.help || settings['list-faults'] || settings['list-variations'];
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (listing) process.exit(0);
  });
  if (settings.help) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  if (settings['list-faults']) {
    for (const fault of FAULTS) process.stdout.write(`${fault.id}\t${fault.does}\n`);
    return;
  }
  if (settings['list-variations']) {
    for (const variation of VARIATIONS) process.stdout.write(`${variation.id}\t${variation.does}\t${variation.leaves}\n`);
    return;
  }
  if (settings.instances) return serveInstances(settings.host, !settings['no-control']);

  let emulator;
  try {
    emulator = await startEmulator({
      port: settings.port,
      host: settings.host,
      control: !settings['no-control'],
      faults: settings.fault,
      variations: settings.variation,
      ...(settings.token !== undefined ? { token: settings.token } : {}),
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
  if (settings['parent-pid'] !== undefined) watchParent(settings['parent-pid'], stop);
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

function cannotServe(faults: readonly string[], variations: readonly string[]): string {
  return idsProblem('fault', faults) || idsProblem('variation', variations);
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
  const instances = emulatorInstances(host, control);
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
    else if (cannotServe(faults, variations)) answer({ error: cannotServe(faults, variations) });
    else if (typeof request.token !== 'string' || !TOKEN.test(request.token)) answer({ error: 'token is 1..256 non-space characters' });
    else {
      try {
        const emulator = await instances.start({ faults, variations, token: request.token });
        running.set(emulator.url, emulator);
        answer({ url: emulator.url });
      } catch (error) {
        answer({ error: `cannot start: ${(error as Error).message}` });
      }
    }
  }
  await Promise.all([...running.values()].map((emulator) => emulator.close()));
  await instances.close();
}

void main();
