// A reference emulator process in `--instances` mode: it starts a fresh emulator (its own state, its own port) per
// request, so the matrix pays one process start-up per worker rather than one per fault. Still only HTTP between
// the suite and each emulator; this side speaks to the host over its standard input and output.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { emulatorCommand } from '../../harness/emulator-command.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Answer = { url?: string; closed?: string; error?: string };

export interface EmulatorHost {
  /** A fresh emulator with these faults and variations; resolves to its base URL. */
  start(token: string, faults: readonly string[], variations?: readonly string[]): Promise<string>;
  stop(url: string): Promise<void>;
  close(): Promise<void>;
}

export async function startEmulatorHost(): Promise<EmulatorHost> {
  const child = spawn(process.execPath, [...(await emulatorCommand()), '--instances'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  // Answers come in the order of the requests.
  const waiting: Array<{ resolve: (answer: Answer) => void; reject: (error: Error) => void }> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => waiting.shift()?.resolve(JSON.parse(line) as Answer));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      for (const pending of waiting.splice(0)) pending.reject(new Error(`the emulator host exited (${code}): ${stderr.trim()}`));
      resolve();
    }),
  );
  const ask = (request: object): Promise<Answer> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error(`the emulator host has exited (${child.exitCode}): ${stderr.trim()}`));
      waiting.push({ resolve, reject });
      child.stdin!.write(`${JSON.stringify(request)}\n`);
    });
  return {
    async start(token, faults, variations = []) {
      const answer = await ask({ token, faults, variations });
      if (!answer.url) throw new Error(`the emulator host could not start an emulator: ${answer.error ?? JSON.stringify(answer)}`);
      return answer.url;
    },
    async stop(url) {
      await ask({ close: url });
    },
    async close() {
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
