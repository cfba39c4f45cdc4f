// Performance figures of the reference emulator (issue 3): start-up time, single-core keep-alive throughput and
// memory / listing latency with many stored resources.
//
//   npx tsx scripts/bench-emulator.ts [--quick]
//
// Prints Markdown tables on stdout, then one line of JSON (the last stdout line) with every figure; progress and
// notes go to stderr. `--quick` shrinks everything (1 s runs, 10 000 resources) for a self-test. The exit code
// is 0 when the measurements completed (whether or not the targets were met) and 1 when the benchmark itself
// could not run.
//
// What is measured:
//   1. Start-up: (a) in a fresh child process, the time from spawn() to the first HTTP answer of
//      `node --import tsx emulator/main.ts --port 0` and of `npx tsx emulator/main.ts --port 0` (the port is read
//      from the "listening on" line, then a GET is made); (b) in this process, the `import()` of emulator/index.ts
//      and `startEmulator()` (build + listen) — the first call and the median of the next ones. Target: the
//      in-process start < 300 ms.
//   2. Throughput: the emulator runs in a child process pinned with `taskset` to one core; this process (pinned to
//      the other allowed cores when there are any) drives it with an undici Pool (keep-alive, CONCURRENCY requests
//      in flight), a warm-up run, then a fixed-duration run: requests/s and p50/p99 latency of
//      GET /v4/account (target >= 5 000/s), POST /v4/domains and GET /v4/monitor/subscriptions (no auth).
//   3. Memory: a fresh pinned child; domains are created through the API up to 100 000 (10 000 with --quick);
//      at 1 000, 10 000 and 100 000 stored domains: the child's VmRSS (target < 500 MB at the end) and the median
//      latency of 50 sequential GET /v4/domains?page=1&page_size=100 and of a middle page. Creating stops after a
//      time budget (15 min, 2 min with --quick; env BENCH_CREATE_BUDGET_MS overrides it) and the last row is then
//      measured at the count reached.
//
// Every loop is bounded in count and in time; traffic goes to 127.0.0.1 only; every child is started in its own
// process group and killed (group-wide) on exit, on errors and on SIGINT/SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool, request as undiciRequest, type Dispatcher } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** CPUs this process may use, read before it pins itself to some of them. */
const CPUS = availableParallelism();
const QUICK = process.argv.slice(2).includes('--quick');
const UNKNOWN_ARGS = process.argv.slice(2).filter((a) => a !== '--quick');

const CFG = QUICK
  ? {
      childStartRuns: 1,
      inProcessRestarts: 3,
      warmupMs: 300,
      durationMs: 1_000,
      concurrency: 32,
      resources: 10_000,
      checkpoints: [1_000, 10_000],
      listSamples: 50,
      createBudgetMs: 120_000,
    }
  : {
      childStartRuns: 3,
      inProcessRestarts: 5,
      warmupMs: 1_000,
      durationMs: 3_000,
      concurrency: 64,
      resources: 100_000,
      checkpoints: [1_000, 10_000, 100_000],
      listSamples: 50,
      createBudgetMs: 15 * 60_000,
    };
// BENCH_CREATE_BUDGET_MS overrides the time allowed for creating the resources (the run stops early beyond it).
const budgetEnv = Number(process.env['BENCH_CREATE_BUDGET_MS']);
if (Number.isFinite(budgetEnv) && budgetEnv > 0) CFG.createBudgetMs = budgetEnv;
const PROGRESS_EVERY = 10_000;
const CHILD_START_TIMEOUT_MS = 60_000;
const MAX_CREATE_ERRORS = 100;

const TARGETS = { inProcessStartMs: 300, authGetRps: 5_000, rssMb: 500 };

const notes: string[] = [];
function note(msg: string): void {
  notes.push(msg);
  process.stderr.write(`bench: ${msg}\n`);
}
function progress(msg: string): void {
  process.stderr.write(`bench: ${msg}\n`);
}

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

function killAllNow(): void {
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

async function stopChild(child: ChildProcess): Promise<void> {
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

interface Emu {
  child: ChildProcess;
  /** Pid of the process that serves the API (the node process itself when started without a wrapper). */
  pid: number;
  url: string;
  spawnedAt: number;
  listeningAt: number;
  stderrTail: () => string;
}

/** Spawns an emulator with `--port 0` and resolves once it printed its URL. */
function spawnEmulator(kind: 'node' | 'npx', pinCpu: string | null): Promise<Emu> {
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
function memOf(pid: number): { rssMb: number; hwmMb: number } | null {
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

interface Pinning {
  emulatorCpu: string | null;
  driverCpus: string | null;
  description: string;
}

function planPinning(): Pinning {
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

function median(xs: number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

const r1 = (n: number): number => Math.round(n * 10) / 10;
const r2 = (n: number): number => Math.round(n * 100) / 100;

// ------------------------------------------------------------------------------------------ HTTP

function newPool(url: string, connections: number): Pool {
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
async function call(d: Dispatcher, opts: Dispatcher.RequestOptions): Promise<{ status: number; text: string }> {
  const res = await d.request(opts);
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

const AUTH = (token: string) => ({ authorization: `Bearer ${token}` });

interface LoadResult {
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
async function runFor(pool: Pool, ms: number, concurrency: number, make: () => Dispatcher.RequestOptions, emulatorPid: number): Promise<LoadResult> {
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

// ------------------------------------------------------------------------------------------ 1. start-up

interface StartupFigures {
  childNodeMs: number[];
  childNodeListenMs: number[];
  childNpxMs: number[];
  importMs: number;
  firstStartMs: number;
  restartMs: number[];
}

async function firstAnswer(emu: Emu): Promise<number> {
  const res = await undiciRequest(`${emu.url}/v4/monitor/subscriptions`, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET /v4/monitor/subscriptions answered ${res.statusCode}`);
  return performance.now() - emu.spawnedAt;
}

async function measureStartup(): Promise<StartupFigures> {
  const f: StartupFigures = { childNodeMs: [], childNodeListenMs: [], childNpxMs: [], importMs: NaN, firstStartMs: NaN, restartMs: [] };
  for (let i = 0; i < CFG.childStartRuns; i++) {
    const emu = await spawnEmulator('node', null);
    f.childNodeListenMs.push(emu.listeningAt - emu.spawnedAt);
    f.childNodeMs.push(await firstAnswer(emu));
    await stopChild(emu.child);
  }
  progress(`child start (node --import tsx): ${f.childNodeMs.map((x) => x.toFixed(0)).join(', ')} ms`);
  for (let i = 0; i < CFG.childStartRuns; i++) {
    try {
      const emu = await spawnEmulator('npx', null);
      f.childNpxMs.push(await firstAnswer(emu));
      await stopChild(emu.child);
    } catch (err) {
      note(`npx tsx start-up not measured: ${(err as Error).message.split('\n')[0]}`);
      break;
    }
  }
  if (f.childNpxMs.length) progress(`child start (npx tsx): ${f.childNpxMs.map((x) => x.toFixed(0)).join(', ')} ms`);

  const t0 = performance.now();
  const mod = await import('../emulator/index.js');
  f.importMs = performance.now() - t0;
  for (let i = 0; i <= CFG.inProcessRestarts; i++) {
    const s0 = performance.now();
    const emu = await mod.startEmulator({ port: 0, host: '127.0.0.1' });
    const ms = performance.now() - s0;
    if (i === 0) f.firstStartMs = ms;
    else f.restartMs.push(ms);
    // sanity: the in-process server answers
    const res = await undiciRequest(`${emu.url}/v4/account`, { headers: AUTH(emu.token) });
    await res.body.text();
    if (res.statusCode !== 200) note(`in-process GET /v4/account answered ${res.statusCode}`);
    await emu.close();
  }
  progress(`in-process: import ${f.importMs.toFixed(0)} ms, first startEmulator() ${f.firstStartMs.toFixed(1)} ms`);
  return f;
}

// ------------------------------------------------------------------------------------------ 2. throughput

interface ThroughputFigures {
  pinning: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  authGet: LoadResult;
  create: LoadResult | null;
  createStoredAfter: number | null;
  noAuthGet: LoadResult;
}

async function probeDomains(pool: Pool, token: string): Promise<string | null> {
  try {
    const r = await call(pool, {
      method: 'POST',
      path: '/v4/domains',
      headers: { ...AUTH(token), 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'bench-probe.example.com', type: 'master', soa_email: 'admin@example.com' }),
    });
    if (r.status >= 200 && r.status < 300) return null;
    return `POST /v4/domains answered ${r.status}: ${r.text.slice(0, 200)}`;
  } catch (err) {
    return `POST /v4/domains failed: ${(err as Error).message}`;
  }
}

let domainSeq = 0;
function createDomainOpts(token: string): Dispatcher.RequestOptions {
  const n = ++domainSeq;
  return {
    method: 'POST',
    path: '/v4/domains',
    headers: { ...AUTH(token), 'content-type': 'application/json' },
    body: JSON.stringify({ domain: `bench-${n}.example.com`, type: 'master', soa_email: `admin@bench-${n}.example.com` }),
  };
}

async function measureThroughput(pinning: Pinning, token: string): Promise<{ figures: ThroughputFigures; domainsOk: boolean }> {
  const emu = await spawnEmulator('node', pinning.emulatorCpu);
  const pool = newPool(emu.url, CFG.concurrency);
  try {
    const scenario = async (label: string, make: () => Dispatcher.RequestOptions): Promise<LoadResult> => {
      await runFor(pool, CFG.warmupMs, CFG.concurrency, make, emu.pid);
      const r = await runFor(pool, CFG.durationMs, CFG.concurrency, make, emu.pid);
      progress(
        `${label}: ${r.rps}/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, emulator CPU ${r.emulatorCpuPct}%, ` +
          `driver CPU ${r.driverCpuPct}%, load average ${r.loadAvg1}`,
      );
      if (r.emulatorCpuPct !== null && r.emulatorCpuPct < 85 && r.driverCpuPct < 85) {
        note(
          `${label}: neither the emulator (${r.emulatorCpuPct}% CPU) nor the load generator (${r.driverCpuPct}%) was saturated; other processes were probably competing for the cores (load average ${r.loadAvg1} on ${CPUS} CPUs), so this figure is low`,
        );
      }
      if (r.errors) note(`${label}: ${r.errors} failed requests, first: ${r.firstError}`);
      return r;
    };
    const authGet = await scenario('GET /v4/account', () => ({ method: 'GET', path: '/v4/account', headers: AUTH(token) }));
    const noAuthGet = await scenario('GET /v4/monitor/subscriptions', () => ({ method: 'GET', path: '/v4/monitor/subscriptions' }));
    const problem = await probeDomains(pool, token);
    let create: LoadResult | null = null;
    let createStoredAfter: number | null = null;
    if (problem) {
      note(`domains area not usable, create throughput and memory not measured: ${problem}`);
    } else {
      create = await scenario('POST /v4/domains', () => createDomainOpts(token));
      const list = await call(pool, { method: 'GET', path: '/v4/domains?page=1&page_size=25', headers: AUTH(token) });
      createStoredAfter = list.status === 200 ? (JSON.parse(list.text) as { results: number }).results : null;
    }
    return {
      figures: {
        pinning: pinning.description,
        concurrency: CFG.concurrency,
        durationMs: CFG.durationMs,
        warmupMs: CFG.warmupMs,
        authGet,
        create,
        createStoredAfter,
        noAuthGet,
      },
      domainsOk: problem === null,
    };
  } finally {
    await pool.close();
    await stopChild(emu.child);
  }
}

// ------------------------------------------------------------------------------------------ 3. memory

interface Checkpoint {
  stored: number;
  /** The creation stopped early (time budget or errors): measured at the count reached, not at a planned checkpoint. */
  partial: boolean;
  listedResults: number | null;
  rssMb: number | null;
  hwmMb: number | null;
  firstPageMedianMs: number;
  middlePage: number;
  middlePageMedianMs: number;
  /** Creation rate over the segment that ended at this checkpoint. */
  segmentCreatesPerSec: number;
}

interface MemoryFigures {
  baselineRssMb: number | null;
  target: number;
  created: number;
  createSeconds: number;
  createErrors: number;
  stoppedEarly: string | null;
  checkpoints: Checkpoint[];
}

async function listMedian(pool: Pool, token: string, page: number): Promise<{ ms: number; results: number | null }> {
  const times: number[] = [];
  let results: number | null = null;
  for (let i = 0; i < CFG.listSamples; i++) {
    const t0 = performance.now();
    const r = await call(pool, { method: 'GET', path: `/v4/domains?page=${page}&page_size=100`, headers: AUTH(token) });
    times.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`GET /v4/domains?page=${page} answered ${r.status}: ${r.text.slice(0, 200)}`);
    if (i === 0) results = (JSON.parse(r.text) as { results?: number }).results ?? null;
  }
  return { ms: r2(median(times)), results };
}

async function measureMemory(pinning: Pinning, token: string): Promise<MemoryFigures> {
  domainSeq = 0;
  const emu = await spawnEmulator('node', pinning.emulatorCpu);
  const pool = newPool(emu.url, CFG.concurrency);
  const f: MemoryFigures = {
    baselineRssMb: null,
    target: CFG.resources,
    created: 0,
    createSeconds: 0,
    createErrors: 0,
    stoppedEarly: null,
    checkpoints: [],
  };
  try {
    await call(pool, { method: 'GET', path: '/v4/account', headers: AUTH(token) });
    f.baselineRssMb = memOf(emu.pid)?.rssMb ?? null;
    if (f.baselineRssMb === null) note(`cannot read /proc/${emu.pid}/status: RSS not measured`);
    const started = performance.now();
    const budgetEnd = started + CFG.createBudgetMs;
    let claimed = 0;
    let nextProgress = PROGRESS_EVERY;
    let firstError: string | null = null;
    for (const checkpoint of CFG.checkpoints) {
      const segStart = performance.now();
      const segFrom = f.created;
      const worker = async (): Promise<void> => {
        while (claimed < checkpoint && f.stoppedEarly === null) {
          if (performance.now() > budgetEnd) {
            f.stoppedEarly = `time budget of ${CFG.createBudgetMs / 1000} s for creating exhausted at ${f.created} domains`;
            return;
          }
          claimed++;
          const opts = createDomainOpts(token);
          try {
            const r = await call(pool, opts);
            if (r.status >= 200 && r.status < 300) f.created++;
            else {
              f.createErrors++;
              claimed--;
              firstError ??= `${r.status} ${r.text.slice(0, 200)}`;
            }
          } catch (err) {
            f.createErrors++;
            claimed--;
            firstError ??= (err as Error).message;
          }
          if (f.createErrors > MAX_CREATE_ERRORS) {
            f.stoppedEarly = `more than ${MAX_CREATE_ERRORS} failed creates; first: ${firstError}`;
            return;
          }
          if (f.created >= nextProgress) {
            nextProgress += PROGRESS_EVERY;
            const mem = memOf(emu.pid);
            progress(
              `created ${f.created} domains in ${((performance.now() - started) / 1000).toFixed(1)} s, emulator RSS ${mem ? mem.rssMb.toFixed(0) : '?'} MB`,
            );
          }
        }
      };
      await Promise.all(Array.from({ length: CFG.concurrency }, worker));
      const partial = f.stoppedEarly !== null;
      if (partial) note(`${f.stoppedEarly}; the last row is measured at that count`);
      const segSeconds = (performance.now() - segStart) / 1000;
      const mem = memOf(emu.pid);
      const first = await listMedian(pool, token, 1);
      const pages = Math.max(1, Math.ceil(f.created / 100));
      const middlePage = Math.max(1, Math.ceil(pages / 2));
      const middle = await listMedian(pool, token, middlePage);
      const cp: Checkpoint = {
        stored: f.created,
        partial,
        listedResults: first.results,
        rssMb: mem ? r1(mem.rssMb) : null,
        hwmMb: mem ? r1(mem.hwmMb) : null,
        firstPageMedianMs: first.ms,
        middlePage,
        middlePageMedianMs: middle.ms,
        segmentCreatesPerSec: Math.round((f.created - segFrom) / segSeconds),
      };
      f.checkpoints.push(cp);
      progress(
        `at ${cp.stored} domains: RSS ${cp.rssMb} MB, page 1 ${cp.firstPageMedianMs} ms, page ${middlePage} ${cp.middlePageMedianMs} ms, ` +
          `creates ${cp.segmentCreatesPerSec}/s over the last segment`,
      );
      if (first.results !== null && first.results !== f.created) note(`the list reports ${first.results} domains, ${f.created} were created`);
      if (partial) break;
    }
    f.createSeconds = r1((performance.now() - started) / 1000);
    if (f.createErrors) note(`${f.createErrors} failed creates; first: ${firstError}`);
    return f;
  } finally {
    await pool.close();
    await stopChild(emu.child);
  }
}

// ------------------------------------------------------------------------------------------ report

const fmt = (n: number | null | undefined, digits = 0): string =>
  n === null || n === undefined || Number.isNaN(n) ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mark = (ok: boolean | null): string => (ok === null ? '' : ok ? ' ✅' : ' ❌');

function report(s: StartupFigures | null, t: ThroughputFigures | null, m: MemoryFigures | null, totalSeconds: number): void {
  const out: string[] = [];
  out.push(`## Emulator benchmark${QUICK ? ' (--quick)' : ''}`, '');
  if (s) {
    const restart = s.restartMs.length ? median(s.restartMs) : NaN;
    out.push('| Start-up | Time | Target |', '|---|---:|---|');
    out.push(
      `| in-process \`startEmulator()\` (build + listen), first call | ${fmt(s.firstStartMs, 1)} ms${mark(s.firstStartMs < TARGETS.inProcessStartMs)} | < ${TARGETS.inProcessStartMs} ms |`,
    );
    out.push(`| in-process \`startEmulator()\`, median of the next ${s.restartMs.length} | ${fmt(restart, 1)} ms | |`);
    out.push(`| in-process \`import('emulator/index.ts')\` (tsx transpile + load, once) | ${fmt(s.importMs, 0)} ms | |`);
    out.push(
      `| child \`node --import tsx emulator/main.ts\`: spawn → first HTTP answer (median of ${s.childNodeMs.length}) | ${fmt(median(s.childNodeMs), 0)} ms | |`,
    );
    if (s.childNpxMs.length) {
      out.push(`| child \`npx tsx emulator/main.ts\`: spawn → first HTTP answer (median of ${s.childNpxMs.length}) | ${fmt(median(s.childNpxMs), 0)} ms | |`);
    }
    out.push('');
  }
  if (t) {
    out.push(`Throughput: ${t.pinning}; undici Pool, keep-alive, ${t.concurrency} requests in flight, ${t.warmupMs} ms warm-up then ${t.durationMs} ms.`, '');
    out.push('| Request | req/s | p50 | p99 | errors | emulator CPU | load avg | Target |', '|---|---:|---:|---:|---:|---:|---:|---|');
    const row = (label: string, r: LoadResult | null, target: string, ok: boolean | null): void => {
      if (!r) {
        out.push(`| ${label} | not measured | | | | | | ${target} |`);
        return;
      }
      out.push(
        `| ${label} | ${fmt(r.rps)}${mark(ok)} | ${fmt(r.p50Ms, 2)} ms | ${fmt(r.p99Ms, 2)} ms | ${r.errors} | ${r.emulatorCpuPct ?? 'n/a'}% | ${fmt(r.loadAvg1, 2)} | ${target} |`,
      );
    };
    row('`GET /v4/account` (token)', t.authGet, `≥ ${fmt(TARGETS.authGetRps)}/s`, t.authGet.rps >= TARGETS.authGetRps && t.authGet.errors === 0);
    row(`\`POST /v4/domains\`${t.createStoredAfter !== null ? ` (${fmt(t.createStoredAfter)} stored at the end)` : ''}`, t.create, '', null);
    row('`GET /v4/monitor/subscriptions` (no auth)', t.noAuthGet, '', null);
    out.push('');
  }
  if (m) {
    out.push(
      `Memory and listing: domains created through the API (${fmt(m.created)} in ${fmt(m.createSeconds, 1)} s); list latency = median of ${CFG.listSamples} sequential requests, page_size=100; emulator RSS before creating: ${fmt(m.baselineRssMb, 0)} MB.`,
      '',
    );
    out.push('| Stored domains | Emulator RSS | Peak RSS | `page=1` | middle page | creates/s (segment) | Target |', '|---:|---:|---:|---:|---:|---:|---|');
    m.checkpoints.forEach((c, i) => {
      const last = i === m.checkpoints.length - 1 && c.stored >= m.target;
      out.push(
        `| ${fmt(c.stored)}${c.partial ? ' (stopped early)' : ''} | ${fmt(c.rssMb, 0)} MB${last && c.rssMb !== null ? mark(c.rssMb < TARGETS.rssMb) : ''} | ${fmt(c.hwmMb, 0)} MB | ` +
          `${fmt(c.firstPageMedianMs, 2)} ms | ${fmt(c.middlePageMedianMs, 2)} ms (page ${c.middlePage}) | ${fmt(c.segmentCreatesPerSec)} | ${last ? `RSS < ${TARGETS.rssMb} MB` : ''} |`,
      );
    });
    out.push('');
  }
  if (notes.length) out.push('Notes:', ...notes.map((n) => `- ${n}`), '');
  out.push(`Total benchmark time: ${fmt(totalSeconds, 1)} s.`, '');
  process.stdout.write(out.join('\n') + '\n');
  const last = m?.checkpoints.at(-1);
  const json = {
    bench: 'emulator',
    quick: QUICK,
    node: process.version,
    cpus: CPUS,
    totalSeconds: r1(totalSeconds),
    startup: s && {
      inProcessFirstMs: r1(s.firstStartMs),
      inProcessRestartMedianMs: s.restartMs.length ? r1(median(s.restartMs)) : null,
      importMs: r1(s.importMs),
      childNodeFirstAnswerMs: s.childNodeMs.map(r1),
      childNodeListeningMs: s.childNodeListenMs.map(r1),
      childNpxFirstAnswerMs: s.childNpxMs.map(r1),
    },
    throughput: t,
    memory: m,
    targets: {
      inProcessStartUnder300ms: s ? s.firstStartMs < TARGETS.inProcessStartMs : null,
      authGetAtLeast5000rps: t ? t.authGet.rps >= TARGETS.authGetRps && t.authGet.errors === 0 : null,
      rssUnder500mb: last?.rssMb != null && m?.created === CFG.resources ? last.rssMb < TARGETS.rssMb : null,
    },
    notes,
  };
  process.stdout.write(JSON.stringify(json) + '\n');
}

// ------------------------------------------------------------------------------------------ main

async function main(): Promise<void> {
  if (UNKNOWN_ARGS.length) {
    process.stderr.write(`usage: npx tsx scripts/bench-emulator.ts [--quick] (unknown: ${UNKNOWN_ARGS.join(' ')})\n`);
    process.exit(2);
  }
  const t0 = performance.now();

  progress(`1/3 start-up (${CFG.childStartRuns} child start(s) of each kind, ${CFG.inProcessRestarts + 1} in-process starts)`);
  const startup = await measureStartup();
  const { DEFAULT_TOKEN } = await import('../emulator/index.js'); // loaded (and timed) by measureStartup

  const pinning = planPinning();
  progress(`2/3 throughput: ${pinning.description}`);
  if (pinning.emulatorCpu === null) note(`throughput: the emulator is ${pinning.description}`);
  const { figures: throughput, domainsOk } = await measureThroughput(pinning, DEFAULT_TOKEN);

  let memory: MemoryFigures | null = null;
  if (domainsOk) {
    progress(`3/3 memory: creating ${CFG.resources} domains (checkpoints ${CFG.checkpoints.join(', ')})`);
    memory = await measureMemory(pinning, DEFAULT_TOKEN);
  } else {
    note('memory not measured: the domains area does not accept POST /v4/domains');
  }

  report(startup, throughput, memory, (performance.now() - t0) / 1000);
}

main().then(
  () => {
    killAllNow();
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`bench: failed: ${(err as Error)?.stack ?? String(err)}\n`);
    killAllNow();
    process.exit(1);
  },
);
