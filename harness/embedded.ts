// Starts the reference emulator as a child process on a free port (the suite and the emulator meet only over
// HTTP; a crashing target cannot take the run down). Used by the run's global setup and the mutation matrix.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { embeddedDefaults, type SuiteConfig } from './config.js';
import { emulatorCommand } from './emulator-command.js';
import type { RequestLimits, TargetInfo } from './target.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface EmbeddedEmulator {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A fresh token for an embedded emulator's default user (a run that was given none). */
export const newEmbeddedToken = (): string => `embedded-${randomBytes(12).toString('hex')}`;

/** `control: false` serves it without the control hooks, as a staging server would be (the bench's run of that case). */
export async function startEmbedded(
  token: string,
  faults: readonly string[],
  variations: readonly string[] = [],
  { control = true }: { control?: boolean } = {},
): Promise<EmbeddedEmulator> {
  // --parent-pid: the emulator exits when this process is gone, however it ended (SIGKILL included).
  const args = [
    '--port',
    '0',
    '--token',
    token,
    '--parent-pid',
    String(process.pid),
    ...faults.flatMap((fault) => ['--fault', fault]),
    ...variations.flatMap((variation) => ['--variation', variation]),
    ...(control ? [] : ['--no-control']),
  ];
  const child = spawn(process.execPath, [...(await emulatorCommand()), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the embedded emulator did not start within 20 s: ${stderr.trim()}`));
    }, 20_000);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the embedded emulator exited (${code}): ${stderr.trim()}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return { url, child, stop };
}

/** The run's emulator started ahead by `conformance run`, while vitest starts, for the run's global setup to take. */
let ahead: { token: string; settings: string; emulator: Promise<EmbeddedEmulator> } | undefined;
const settingsKey = (faults: readonly string[], variations: readonly string[]) => JSON.stringify([faults, variations]);

/** Starts the embedded emulator a run will ask for (its start-up, about 0.4 s in a slow hour, then overlaps vitest's). */
export function startEmbeddedAhead(token: string, faults: readonly string[], variations: readonly string[]): void {
  const emulator = startEmbedded(token, faults, variations);
  // A start that fails is reported by the global setup that takes it.
  emulator.catch(() => {});
  ahead = { token, settings: settingsKey(faults, variations), emulator };
}

/**
 * The emulator started ahead with these faults and variations (and this token, when one is asked for), taken once;
 * null when there is none.
 */
export function takeEmbeddedAhead(
  token: string | undefined,
  faults: readonly string[],
  variations: readonly string[],
): { token: string; emulator: Promise<EmbeddedEmulator> } | null {
  const taken = ahead;
  if (!taken || taken.settings !== settingsKey(faults, variations) || (token !== undefined && token !== taken.token)) return null;
  ahead = undefined;
  return taken;
}

/** Stops an emulator started ahead that no global setup took (the run ended before, or asked for another); returns it. */
export async function stopEmbeddedAhead(): Promise<EmbeddedEmulator | undefined> {
  const left = ahead;
  ahead = undefined;
  const emulator = await left?.emulator.catch(() => undefined);
  await emulator?.stop();
  return emulator;
}

/** What the spec files' workers are given for an embedded emulator: it is disposable, and its seed regions are known. */
export function embeddedTargetInfo(config: SuiteConfig, url: string, token: string, limits: RequestLimits): TargetInfo {
  return { config: embeddedDefaults(config), baseUrl: url, token, controlUrl: url, embedded: true, limits };
}
