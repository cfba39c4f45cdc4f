// The reference emulator as a separate process, for tests that put something between it and the suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface EmulatorProcess {
  url: string;
  token: string;
  stop(): void;
}

export async function startEmulatorProcess(token = 'hostile-emulator-token-01'): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', '--token', token], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
  return { url, token, stop: () => void child.kill('SIGTERM') };
}
