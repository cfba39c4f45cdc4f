// Prepares the target once per run. Without a base URL the reference emulator is started as a child process
// on a free port: the suite and the emulator meet only over HTTP, and a crashing target cannot take the run down.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { embeddedDefaults, fromEnv, toEnv } from '../../harness/config.js';
import { HttpClient } from '../../harness/http.js';
import { ControlHooks, type RequestLimits, type TargetInfo } from '../../harness/target.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function startEmbedded(token: string, faults: string[]): Promise<{ url: string; child: ChildProcess }> {
  const args = ['--port', '0', '--token', token, ...faults.flatMap((fault) => ['--fault', fault])];
  const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the embedded emulator did not start within 20 s: ${stderr.trim()}`)), 20_000);
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
  return { url, child };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const config = fromEnv();
  // Workers and the reporter read the same resolved configuration (one seed, one run id).
  Object.assign(process.env, toEnv(config));
  let child: ChildProcess | undefined;
  let info: TargetInfo;
  // Workers cannot share a limiter, so each gets its share of the cap: together they never exceed it.
  const limits: RequestLimits = { maxRpsPerWorker: config.maxRps ? config.maxRps / project.globalConfig.maxWorkers : null, deadline: config.runBudgetMs ? Date.now() + config.runBudgetMs : null };
  if (!config.baseUrl) {
    const token = config.token ?? `embedded-${randomBytes(12).toString('hex')}`;
    const started = await startEmbedded(token, config.emulatorFaults);
    child = started.child;
    // The embedded emulator is disposable (destructive operations are safe) and its seed regions are known.
    info = { config: embeddedDefaults(config), baseUrl: started.url, token, controlUrl: started.url, embedded: true, limits };
  } else {
    const controlBase = config.controlUrl ?? config.baseUrl;
    const http = new HttpClient(controlBase, config.timeoutMs);
    const control = await ControlHooks.probe(http).catch(() => false);
    await http.close();
    info = { config, baseUrl: config.baseUrl, token: config.token!, controlUrl: control ? controlBase : null, embedded: false, limits };
  }
  project.provide('target', info);
  return async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
}
