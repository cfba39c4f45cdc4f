// Child processes, CPU pinning, statistics and the HTTP load loop of the emulator benchmark (scripts/bench-emulator.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool, type Dispatcher } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHILD_START_TIMEOUT_MS = 60_000;

// ------------------------------------------------------------------------------------------ child processes

const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the child leads its own process group (detached)
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export function killAllNow(): void {
  for (const c of children) killGroup(c, 'SIGKILL');
  children.clear();
}

process.on('exit', killAllNow);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    process.stderr.write(`bench: ${sig}, stopping the emulator children\n`);
    killAllNow();
    process.exit(130);
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((res) => child.once('exit', () => res()));
    killGroup(child, 'SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), 3_000);
    await exited;
    clearTimeout(t);
    // npx / tsx wrappers may leave the group's other members behind a moment longer
    killGroup(child, 'SIGKILL');
  }
  children.delete(child);
}

export interface Emu {
  child: ChildProcess;
  /** Pid of the process that serves the API (the node process itself when started without a wrapper). */
  pid: number;
  url: string;
  spawnedAt: number;
  listeningAt: number;
  stderrTail: () => string;
}

/** Spawns an emulator with `--port 0` and resolves once it printed its URL. */
export function spawnEmulator(kind: 'node' | 'npx', pinCpu: string | null): Promise<Emu> {
  const emuArgs = ['emulator/main.ts', '--port', '0', '--host', '127.0.0.1'];
  let cmd: string;
  let args: string[];
  if (kind === 'npx') {
    cmd = 'npx';
    args = ['tsx', ...emuArgs];
  } else {
    cmd = process.execPath;
    args = ['--import', 'tsx', ...emuArgs];
  }
  if (pinCpu !== null) {
    args = ['-c', pinCpu, cmd, ...args];
    cmd = 'taskset'; // taskset execs the command: the pid stays the node process's
  }
  const spawnedAt = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
  children.add(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4_000);
  });
  return new Promise<Emu>((res, rej) => {
    let out = '';
    let done = false;
    const timer = setTimeout(() => finish(new Error(`the emulator did not start within ${CHILD_START_TIMEOUT_MS} ms`)), CHILD_START_TIMEOUT_MS);
    const finish = (err: Error | null, url?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) {
        killGroup(child, 'SIGKILL');
        children.delete(child);
        rej(new Error(`${err.message}${stderr ? `\n--- emulator stderr ---\n${stderr}` : ''}`));
        return;
      }
      res({ child, pid: child.pid!, url: url!, spawnedAt, listeningAt: performance.now(), stderrTail: () => stderr });
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      if (done) return; // keep draining the pipe
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) finish(null, m[1]);
      else if (out.length > 100_000) out = out.slice(-1_000);
    });
    child.once('error', (err) => finish(err));
    child.once('exit', (code, signal) => finish(new Error(`the emulator exited early (code ${code}, signal ${signal})`)));
  });
}

/** VmRSS / VmHWM of a process, in MB (null when /proc is not readable). */
export function memOf(pid: number): { rssMb: number; hwmMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

const CLK_TCK = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** User + system CPU seconds of a process (null when /proc is not readable). */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15)
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------------------------------ cores

function allowedCpus(): number[] {
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (!list) return [];
    const cpus: number[] = [];
    for (const part of list.split(',')) {
      const [a, b] = part.split('-').map(Number);
      if (a === undefined || !Number.isFinite(a)) continue;
      for (let c = a; c <= (b ?? a) && cpus.length < 4096; c++) cpus.push(c);
    }
    return cpus;
  } catch {
    return [];
  }
}

export interface Pinning {
  emulatorCpu: string | null;
  driverCpus: string | null;
  description: string;
}

export function planPinning(): Pinning {
  const hasTaskset = spawnSync('which', ['taskset'], { encoding: 'utf8' }).status === 0;
  const cpus = allowedCpus();
  if (!hasTaskset || cpus.length === 0) {
    return { emulatorCpu: null, driverCpus: null, description: 'NOT pinned (taskset or /proc/self/status unavailable)' };
  }
  const emulatorCpu = String(cpus[0]);
  if (cpus.length === 1) {
    return { emulatorCpu, driverCpus: null, description: `emulator pinned to CPU ${emulatorCpu}; only one CPU allowed, so the load generator shares it` };
  }
  const rest = cpus.slice(1).join(',');
  const r = spawnSync('taskset', ['-a', '-p', '-c', rest, String(process.pid)], { encoding: 'utf8' });
  if (r.status !== 0) {
    return { emulatorCpu, driverCpus: null, description: `emulator pinned to CPU ${emulatorCpu}; load generator not pinned (${r.stderr.trim()})` };
  }
  return {
    emulatorCpu,
    driverCpus: rest,
    description: `emulator pinned to CPU ${emulatorCpu} (taskset -c ${emulatorCpu}); load generator pinned to CPU ${rest}`,
  };
}

// ------------------------------------------------------------------------------------------ statistics

function percentile(sorted: Float64Array | number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

export const r1 = (n: number): number => Math.round(n * 10) / 10;
export const r2 = (n: number): number => Math.round(n * 100) / 100;

// ------------------------------------------------------------------------------------------ HTTP

export function newPool(url: string, connections: number): Pool {
  return new Pool(url, {
    connections,
    pipelining: 1, // keep-alive, one request in flight per connection
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
}

/** One request: status and body text. */
export async function call(d: Dispatcher, opts: Dispatcher.RequestOptions): Promise<{ status: number; text: string }> {
  const res = await d.request(opts);
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

export const AUTH = (token: string) => ({ authorization: `Bearer ${token}` });

export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  emulatorCpuPct: number | null;
  driverCpuPct: number;
  /** 1-minute load average of the machine when the run ended (other processes compete for the cores). */
  loadAvg1: number;
}

/** `concurrency` workers send requests back to back for `ms` milliseconds (new requests stop at the deadline). */
export async function runFor(pool: Pool, ms: number, concurrency: number, make: () => Dispatcher.RequestOptions, emulatorPid: number): Promise<LoadResult> {
  const lat = new Float64Array(2_000_000); // bounds the run as well: ~80 s at 25 000 req/s
  let n = 0;
  let errors = 0;
  let firstError: string | null = null;
  const cpu0 = cpuSecondsOf(emulatorPid);
  const dcpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + ms;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline && n < lat.length) {
      const opts = make();
      const t0 = performance.now();
      try {
        const { status, text } = await call(pool, opts);
        if (status < 200 || status >= 300) {
          errors++;
          firstError ??= `${opts.method} ${opts.path} → ${status} ${text.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstError ??= `${opts.method} ${opts.path} → ${(err as Error).message}`;
      }
      lat[n++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  const cpu1 = cpuSecondsOf(emulatorPid);
  const dcpu = process.cpuUsage(dcpu0);
  const sorted = lat.subarray(0, n).sort();
  return {
    requests: n,
    errors,
    firstError,
    seconds: r2(seconds),
    rps: Math.round(n / seconds),
    p50Ms: r2(percentile(sorted, 0.5)),
    p99Ms: r2(percentile(sorted, 0.99)),
    emulatorCpuPct: cpu0 !== null && cpu1 !== null ? Math.round(((cpu1 - cpu0) / seconds) * 100) : null,
    driverCpuPct: Math.round(((dcpu.user + dcpu.system) / 1e6 / seconds) * 100),
    loadAvg1: r2(loadavg()[0] ?? NaN),
  };
}
