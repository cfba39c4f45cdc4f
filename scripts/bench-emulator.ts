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
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { request as undiciRequest, type Dispatcher, type Pool } from 'undici';
import {
  killAllNow,
  stopChild,
  type Emu,
  spawnEmulator,
  memOf,
  type Pinning,
  planPinning,
  median,
  r1,
  r2,
  newPool,
  call,
  AUTH,
  type LoadResult,
  runFor,
} from './bench-emulator-support.js';

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
