// `npm run bench [-- --seconds S] [--faults N] [--variations N] [--skip-matrices] [--with-tests] [--with-ci]`: the
// speed figures of issue 15, measured in one sitting so that their ratios hold however loaded the machine is.
// `npm run bench -- --against <ref> [--pairs N]` instead compares this checkout with a commit: full and narrowed runs
// of each, in alternating pairs (a change's effect is smaller than the machine's drift between two sittings).
//   1. the floor: a bare node:http server (its own process) and an undici keep-alive client, 64 requests in flight;
//   2. the emulator: GET /v4/account with a token, the same client;
//   3. compiling every schema from scratch (a worker pays it once a run);
//   4. a full `npx conformance run` on the embedded emulator (100 runs per property), as the README's main job is
//      typed: wall time, its phases (start-up until the first verdict, of which npx's own start; the checks; after the
//      last verdict: reports and clean-up) and the requests/s of its check phase (every request the emulator served
//      then: the checks', their fixtures' and clean-up's, the control hooks'), as a share of the floor; the CPU of each
//      of its processes (npx, the command with its vitest workers, the emulator, the Allure renderer), and a request's
//      share of it next to what 25 % of the floor would allow;
//   5. a run narrowed to one rule family without the Allure report: its wall time and CPU, the fixed cost of a run;
//   6. the mutation matrix and the variation matrix, whole (or an even sample with --faults / --variations: the
//      whole matrices then extrapolated, which overstates them: faults run in batches, variations in groups);
//   7. with --with-tests, `npm test` in this checkout (about 9 minutes in a slow hour); with --with-ci, `.ci/run` on a
//      fresh clone of its HEAD (`npm ci` included, about 11 minutes): wall time, tests, the CPU of their Node processes
//      and of all their processes, and by self-test file (its tests in their vitest thread, where Linux shows a thread's
//      CPU, and the processes it started).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { Pool } from 'undici';
import { cpuByProcess, cpuBySelfTest, procStatTicks, readProcessLog, type CpuRows, type ProcessLog } from './bench-cpu.js';
import { FAULTS } from '../emulator/faults/index.js';
import { GATED_VARIATIONS } from '../emulator/variations/index.js';
import { buildContract } from '../harness/contract.js';
import { startEmbedded } from '../harness/embedded.js';
import type { Results } from '../reports/results.js';
import { MATRIX_RUNS, runMatrix, sampleFaults } from '../test/mutation/matrix.js';
import { runVariationMatrix } from '../test/variations/matrix.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'bench-token-000000000001';
const IN_FLIGHT = 64;
/** Self-test files listed by the CPU of the processes they started (the rest summed in one row). */
const SELF_TESTS_SHOWN = 12;

function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return Number(value);
}

const options = new Command('bench')
  .description('measure the floor, the emulator, a full run and the matrices in one sitting; print figures and ratios')
  .option('--seconds <s>', 'seconds of load for the floor and the emulator', positiveInt, 3)
  .option('--faults <n>', 'faults in the mutation sample (default: all)', positiveInt, Number.MAX_SAFE_INTEGER)
  .option('--variations <n>', 'variations in the variation sample (default: all)', positiveInt, Number.MAX_SAFE_INTEGER)
  .option('--skip-matrices', 'measure the floor, the emulator and a full run only')
  .option(
    '--without-hooks',
    "also time a full run against the emulator served without control hooks, as a staging server is (the run waits in real time where it would move the target's clock; about 40 s)",
  )
  .option('--with-tests', 'also time `npm test` in this checkout (about 9 minutes in a slow hour)')
  .option('--with-ci', "also time `.ci/run` on a fresh clone of this checkout's HEAD (npm ci included, about 11 minutes)")
  .option('--against <ref>', 'instead: alternate full and narrowed runs of this checkout and of the git commit <ref>, and compare them')
  .option('--pairs <n>', 'pairs of runs with --against', positiveInt, 5)
  .showHelpAfterError()
  .parse()
  .opts<{
    seconds: number;
    faults: number;
    variations: number;
    skipMatrices?: boolean;
    withoutHooks?: boolean;
    withTests?: boolean;
    withCi?: boolean;
    against?: string;
    pairs: number;
  }>();

/**
 * What an interrupted bench (Ctrl-C, SIGTERM) would leave behind is undone before it exits: the commands it started
 * are stopped (and waited for, up to 10 s), then a run's temporary folder, a worktree or a clone is removed.
 */
const running = new Set<ChildProcess>();
const leftovers = new Set<() => void>();
/** The exit code once interrupted (a run the signal stopped then ends the bench with it, not as a failure). */
let interruptedCode: number | undefined;
process.on('exit', () => {
  for (const remove of leftovers) remove();
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => {
    interruptedCode = code;
    console.error(`\nbench: ${signal}: stopping what it started and removing its temporary files`);
    const closed = [...running].map((child) => new Promise((resolve) => child.once('close', resolve).kill(signal)));
    void Promise.race([Promise.all(closed), delay(10_000)]).then(() => process.exit(code));
  });

/** `child`, stopped if the bench is interrupted while it runs. */
function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('close', () => running.delete(child));
  return child;
}

/** `remove` runs when the bench exits, however it ends, unless the function returned ran it before. */
function leftover(remove: () => void): () => void {
  leftovers.add(remove);
  return () => {
    leftovers.delete(remove);
    remove();
  };
}

/** Requests/s of `path` on `origin` with IN_FLIGHT requests in flight for `seconds` (after a short warm-up). */
async function load(origin: string, path: string, seconds: number, headers: Record<string, string> = {}): Promise<number> {
  const pool = new Pool(origin, { connections: IN_FLIGHT, keepAliveTimeout: 10_000 });
  const one = async () => {
    const response = await pool.request({ method: 'GET', path, headers });
    await response.body.arrayBuffer();
  };
  const drive = async (until: number) => {
    let count = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < until) {
          await one();
          count++;
        }
      }),
    );
    return count;
  };
  await drive(performance.now() + 500);
  const started = performance.now();
  const count = await drive(started + seconds * 1000);
  await pool.close();
  return count / ((performance.now() - started) / 1000);
}

/** The floor: a node:http server answering a small JSON body, in a process of its own. */
async function floor(seconds: number): Promise<number> {
  const server = tracked(
    spawn(
      process.execPath,
      [
        '-e',
        `
    const body = JSON.stringify({ email: 'floor@example.com', balance: 0 });
    const server = require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); });
    server.keepAliveTimeout = 10000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
  `,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => {
        const match = /listening on (\S+)/.exec(chunk.toString());
        if (match) resolve(match[1]!);
      });
      server.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)));
    });
    return await load(origin, '/v4/account', seconds);
  } finally {
    server.kill();
  }
}

async function emulatorGets(seconds: number): Promise<number> {
  const emulator = await startEmbedded(TOKEN, []);
  try {
    return await load(emulator.url, '/v4/account', seconds, { authorization: `Bearer ${TOKEN}` });
  } finally {
    await emulator.stop();
  }
}

interface TimedRun {
  wallMs: number;
  startupMs: number;
  checksMs: number;
  afterMs: number;
  /** Requests the target served (the checks', their fixtures' and clean-up's, the control hooks'), as it logged them. */
  requests: number;
  /** Of those, the ones begun between the first verdict and the last. */
  requestsDuringChecks: number;
  checks: number;
  code: number | null;
  /** CPU ms (user + system) of each process the run started, itself first, as each logged it at exit. */
  cpu: CpuRows;
}

/** Requests the command's processes served in all, and those begun between `from` and `to` (ms since the epoch). */
function servedRequests(processes: ProcessLog[], from: number, to: number): { total: number; within: number } {
  let total = 0;
  let within = 0;
  for (const { served = [], servedBucketMs = 1 } of processes)
    for (const [bucket, requests] of served) {
      total += requests;
      if (bucket * servedBucketMs >= from && bucket * servedBucketMs < to) within += requests;
    }
  return { total, within };
}

/** The environment of a benchmarked command: each of its Node processes logs its CPU to `cpuLog` at exit. */
function loggingCpu(cpuLog: string): NodeJS.ProcessEnv {
  const hook = pathToFileURL(join(ROOT, 'scripts/bench-cpu-hook.mjs')).href;
  return { ...process.env, BENCH_CPU_LOG: cpuLog, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${hook}`.trim() };
}

const totalCpuMs = (cpu: TimedRun['cpu']) => cpu.reduce((sum, { cpuMs }) => sum + cpuMs, 0);

/**
 * How a run is started: `npx conformance`, as the README's main job is typed (npx's own start included), or the
 * command's script itself, as the self-tests start their runs (what the suite costs, compared between checkouts).
 */
type Launcher = 'npx' | 'node';

/**
 * `conformance run …args` (reports included unless `args` leave them out), timed from the outside; the phases from its
 * jsonl progress. `elsewhere`: the target is not the run's own emulator, whose log counts the requests (none counted).
 */
function timedRun(
  args: string[] = [],
  { checkout = ROOT, launcher = 'node', elsewhere = false }: { checkout?: string; launcher?: Launcher; elsewhere?: boolean } = {},
): Promise<TimedRun> {
  const out = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  const removeOut = leftover(() => rmSync(out, { recursive: true, force: true }));
  const cpuLog = join(out, 'cpu.jsonl');
  const runArgs = ['run', '--out', out, '--progress', 'jsonl', '--seed', '20261121', ...args];
  const [command, commandArgs] =
    launcher === 'npx' ? ['npx', ['conformance', ...runArgs]] : [process.execPath, [join(checkout, 'bin/conformance.js'), ...runArgs]];
  const started = performance.now();
  const child = tracked(
    spawn(command, commandArgs, {
      cwd: checkout,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: loggingCpu(cpuLog),
    }),
  );
  let first: number | undefined;
  let last = started;
  let stderr = '';
  child.stdout.on('data', () => {
    first ??= performance.now();
    last = performance.now();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      removeOut();
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    child.once('close', (code) => {
      const ended = performance.now();
      try {
        const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
        const { processes } = readProcessLog(cpuLog);
        // The progress lines' times on the wall clock the target's log counts by.
        const requests = servedRequests(processes, performance.timeOrigin + (first ?? last), performance.timeOrigin + last);
        if (!requests.total && !elsewhere) {
          reject(new Error("the run's emulator logged no request served: scripts/bench-cpu-hook.mjs was not loaded into it"));
          return;
        }
        resolve({
          wallMs: ended - started,
          startupMs: (first ?? ended) - started,
          checksMs: last - (first ?? last),
          afterMs: ended - last,
          requests: requests.total,
          requestsDuringChecks: requests.within,
          checks: results.checkList.length,
          code,
          cpu: cpuByProcess(processes),
        });
      } catch (error) {
        reject(new Error(`the full run wrote no results (exit ${code}): ${stderr.slice(-1000)} ${String(error)}`));
      } finally {
        removeOut();
      }
    });
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** A short time per unit in ms (a fault of a batch takes tens of them: `0.0 s` said nothing). */
const perUnit = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : seconds(ms));
const perSecond = (n: number) => `${Math.round(n).toLocaleString('en')}/s`;
const row = (what: string, figure: string) => console.log(`${what.padEnd(58)} ${figure}`);

const cores = availableParallelism();
console.log(`bench on ${cores} cores, Node ${process.versions.node}\n`);
/** What stops the bench (a command it could not start, a run without results): one line, exit 2. */
function stop(error: Error): never {
  if (interruptedCode === undefined) console.error(`bench: ${error.message}`);
  process.exit(interruptedCode ?? 2);
}

if (options.against) {
  await compareWith(options.against, options.pairs).catch(stop);
  process.exit(0);
}
const floorRate = await floor(options.seconds);
row('floor: node:http + undici keep-alive, 64 in flight', perSecond(floorRate));
const emulatorRate = await emulatorGets(options.seconds);
row('emulator: GET /v4/account with a token', `${perSecond(emulatorRate)} (${((100 * emulatorRate) / floorRate).toFixed(0)} % of the floor)`);

const compileStarted = performance.now();
const fresh = buildContract();
for (const name of fresh.names) fresh.validator(name);
row(`compiling all ${fresh.names.length} schemas from scratch`, seconds(performance.now() - compileStarted));

/**
 * What npx adds before the command starts (npm 11 reads the whole node_modules tree when the command is the project's
 * own bin): the least of three `npx conformance --version` less the least of three `node bin/conformance.js --version`.
 */
function npxStartMs(): number {
  const least = (command: string, args: string[]) =>
    Math.min(
      ...[1, 2, 3].map(() => {
        const started = performance.now();
        spawnSync(command, args, { cwd: ROOT, stdio: 'ignore' });
        return performance.now() - started;
      }),
    );
  return least('npx', ['conformance', '--version']) - least(process.execPath, [join(ROOT, 'bin/conformance.js'), '--version']);
}

const run = await timedRun([], { launcher: 'npx' }).catch(stop);
const runRate = run.requestsDuringChecks / (run.checksMs / 1000);
row(
  'full run: `npx conformance run` (100 runs a property)',
  `${seconds(run.wallMs)} wall, exit ${run.code}, ${run.checks.toLocaleString('en')} checks, ${run.requests.toLocaleString('en')} requests served`,
);
row('  start-up until the first verdict', `${seconds(run.startupMs)} (${((100 * run.startupMs) / run.wallMs).toFixed(0)} %)`);
row("    of which npx's own start (before the command)", seconds(npxStartMs()));
row('  checks (first verdict to last)', `${seconds(run.checksMs)} (${((100 * run.checksMs) / run.wallMs).toFixed(0)} %)`);
row('  after the last verdict (reports, clean-up, exit)', `${seconds(run.afterMs)} (${((100 * run.afterMs) / run.wallMs).toFixed(0)} %)`);
row(
  '  requests/s during the checks',
  `${perSecond(runRate)} (${((100 * runRate) / floorRate).toFixed(1)} % of the floor; goal 25 %; ${run.requestsDuringChecks.toLocaleString('en')} requests)`,
);
const msPerRequest = (cpuMs: number) => `${(cpuMs / run.requests).toFixed(2)} ms a request`;
const runCpuMs = totalCpuMs(run.cpu);
row('  CPU (user + system), whole run', `${seconds(runCpuMs)}, ${msPerRequest(runCpuMs)}`);
for (const { what, cpuMs } of run.cpu) row(`    ${what}`, `${seconds(cpuMs)}, ${msPerRequest(cpuMs)}`);
// At 25 % of the floor, on this machine's cores, everything the run does for a request must fit in this much CPU.
row('  CPU a request at 25 % of the floor, at most', `${((1000 * cores) / (0.25 * floorRate)).toFixed(2)} ms (on ${cores} cores)`);
// What a run pays whatever it judges (loading, collecting, the emulator's start, the reports): the test command starts
// some sixty such runs.
const narrowed = await timedRun(['--rules', 'P3.firewall.status', '--no-allure']).catch(stop);
const narrowedCpuMs = totalCpuMs(narrowed.cpu);
row(
  'narrowed run (--rules P3.firewall.status, no Allure)',
  `${seconds(narrowed.wallMs)} wall, exit ${narrowed.code}, ${narrowed.requests.toLocaleString('en')} requests served, ${seconds(narrowedCpuMs)} of CPU`,
);

if (options.withoutHooks) {
  // A real target's case: the run's waits (consistency windows, actions let run) take real time, not clock steps.
  const target = await startEmbedded(TOKEN, [], [], { control: false });
  try {
    const unhooked = await timedRun(['--base-url', target.url, '--token', TOKEN, '--no-allure'], { elsewhere: true }).catch(stop);
    row(
      'full run against the emulator without control hooks',
      `${seconds(unhooked.wallMs)} wall, exit ${unhooked.code}, ${unhooked.checks.toLocaleString('en')} checks (the default 5 s window)`,
    );
  } finally {
    await target.stop();
  }
}

if (!options.skipMatrices) {
  const faults = sampleFaults(FAULTS, options.faults);
  const mutation = await runMatrix({ faults, seed: 20261121, ...MATRIX_RUNS });
  const perFault = mutation.durationMs / faults.length;
  row(
    `mutation matrix, ${faults.length} of ${FAULTS.length} faults`,
    `${seconds(mutation.durationMs)}, ${perUnit(perFault)} a fault, ${mutation.detected} detected${faults.length < FAULTS.length ? `; the whole matrix at most ≈ ${seconds(perFault * FAULTS.length)} (its batches share start-up costs)` : ''} (goal 120 s)`,
  );
  const variations = sampleFaults(GATED_VARIATIONS, options.variations);
  const matrix = await runVariationMatrix({ variations, seed: 20261121, ...MATRIX_RUNS });
  const perVariation = matrix.durationMs / variations.length;
  row(
    `variation matrix, ${variations.length} of ${GATED_VARIATIONS.length} variations`,
    `${seconds(matrix.durationMs)}, ${perUnit(perVariation)} a variation${variations.length < GATED_VARIATIONS.length ? `; the whole matrix at most ≈ ${seconds(perVariation * GATED_VARIATIONS.length)} (its groups share full runs)` : ''} (goal 120 s)`,
  );
}

/**
 * The CPU (user + system, ms) of this process's children that have ended and been waited for, with their own children
 * waited for in turn: Linux's `/proc/self/stat`. It counts what the hook cannot, processes other than Node's (the
 * typecheck's native compiler, Chromium); undefined where there is no such file.
 */
function endedChildrenCpuMs(): number | undefined {
  const ticks = procStatTicks('/proc/self/stat', [16, 17]);
  return ticks === undefined ? undefined : (ticks * 1000) / clockTicksPerSecond();
}

let ticksPerSecond: number | undefined;
function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ticksPerSecond;
}

/**
 * A command of the test gate, timed from the outside: its output goes to `<folder>/output.log` (kept: a failing gate
 * says why there), its Node processes' CPU comes from the hook, its tests from vitest's JSON report at `report`.
 * Resolves to its row and the CPU of the processes each self-test file started.
 */
function timedGate(
  command: string,
  args: string[],
  cwd: string,
  folder: string,
  report: string,
  goal: string,
): Promise<{ summary: string; bySelfTest: TimedRun['cpu'] }> {
  const cpuLog = join(folder, 'cpu.jsonl');
  const logFile = join(folder, 'output.log');
  const output = createWriteStream(logFile);
  const childrenCpuBefore = endedChildrenCpuMs();
  const started = performance.now();
  const child = tracked(spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: loggingCpu(cpuLog) }));
  child.stdout.pipe(output, { end: false });
  child.stderr.pipe(output, { end: false });
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ summary: `could not start ${command}: ${error.message}`, bySelfTest: [] }));
    child.once('close', (code) => {
      output.end();
      const logged = readProcessLog(cpuLog);
      const cpuMs = totalCpuMs(cpuByProcess(logged.processes));
      const childrenCpuAfter = endedChildrenCpuMs();
      const allCpu =
        childrenCpuBefore === undefined || childrenCpuAfter === undefined ? '' : `, ${seconds(childrenCpuAfter - childrenCpuBefore)} in all its processes`;
      let tests = 'no test report';
      try {
        const counts = JSON.parse(readFileSync(report, 'utf8')) as {
          numPassedTests: number;
          numFailedTests: number;
          numPendingTests: number;
          numTodoTests: number;
        };
        tests = `${counts.numPassedTests.toLocaleString('en')} passed, ${counts.numFailedTests} failed, ${counts.numPendingTests + counts.numTodoTests} skipped`;
      } catch {
        // the command ended before vitest wrote its report: the log says why
      }
      resolve({
        summary: `${seconds(performance.now() - started)} wall, exit ${code}, ${tests}, ${seconds(cpuMs)} of CPU in its Node processes${allCpu} (goal ${goal}; output: ${logFile})`,
        bySelfTest: cpuBySelfTest(logged, clockTicksPerSecond()),
      });
    });
  });
}

/** The gate's row, then the self-test files whose processes took the most CPU. */
function gateRows(what: string, { summary, bySelfTest }: { summary: string; bySelfTest: TimedRun['cpu'] }): void {
  row(what, summary);
  const shown = bySelfTest.slice(0, SELF_TESTS_SHOWN);
  if (shown.length) row('  CPU of a self-test file', "its tests in their vitest thread (where Linux shows a thread's CPU) and the processes it started");
  for (const { what: file, cpuMs } of shown) row(`    ${file}`, seconds(cpuMs));
  const rest = bySelfTest.slice(SELF_TESTS_SHOWN);
  const files = rest.filter(({ what: file }) => file.startsWith('test/')).length;
  if (rest.length) row(`    the rest: ${files} self-test files, ${rest.length - files} other kinds of process`, seconds(totalCpuMs(rest)));
}

if (options.withTests) {
  const folder = mkdtempSync(join(tmpdir(), 'conformance-bench-tests-'));
  const report = join(folder, 'selftest.json');
  gateRows(
    'npm test (this checkout)',
    await timedGate('npm', ['test', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], ROOT, folder, report, '5 min'),
  );
}

if (options.withCi) {
  const folder = mkdtempSync(join(tmpdir(), 'conformance-bench-ci-'));
  const clone = join(folder, 'clone');
  // The documents sit beside the checkout (`../shared`), as on the CI machine.
  if (existsSync(join(ROOT, '../shared'))) symlinkSync(resolvePath(ROOT, '../shared'), join(folder, 'shared'));
  // The clone holds a whole node_modules once .ci/run has run: only the output and CPU logs are kept.
  const removeClone = leftover(() => rmSync(clone, { recursive: true, force: true }));
  const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
  if (cloned.status !== 0) row('.ci/run (a fresh clone)', `could not clone ${ROOT}: ${(cloned.stderr || cloned.error?.message || '').trim()}`);
  else {
    gateRows('.ci/run (a fresh clone of HEAD)', await timedGate(join(clone, '.ci/run'), [], clone, folder, join(clone, 'reports/out/selftest.json'), '7 min'));
  }
  removeClone();
}

/**
 * A checkout of the commit `ref` (a git worktree sharing this checkout's node_modules, the documents beside it as
 * here), removed when the bench exits.
 */
function checkoutOf(ref: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'conformance-bench-against-'));
  const checkout = join(folder, 'checkout');
  const added = spawnSync('git', ['worktree', 'add', '--detach', checkout, ref], { cwd: ROOT, encoding: 'utf8' });
  if (added.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`cannot check out ${ref}: ${(added.stderr || added.error?.message || '').trim()}`);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  if (existsSync(join(ROOT, '../shared'))) symlinkSync(resolvePath(ROOT, '../shared'), join(folder, 'shared'));
  leftover(() => {
    spawnSync('git', ['worktree', 'remove', '--force', checkout], { cwd: ROOT });
    rmSync(folder, { recursive: true, force: true });
  });
  return checkout;
}

/**
 * `--against <ref>`: full runs (without the Allure report, whose renderer adds noise) and narrowed runs of this
 * checkout and of `ref`, in alternating pairs (each pair's order the other way round from the last), so that the
 * machine's drift through the sitting falls on both alike: the means, and how many pairs this checkout was lower in.
 */
async function compareWith(ref: string, pairs: number): Promise<void> {
  const checkout = checkoutOf(ref);
  const sha = spawnSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  console.log(`this checkout against ${ref} (${sha}), ${pairs} alternating pairs of each kind of run (seed 20261121)\n`);
  const kinds = [
    { what: 'full run (embedded, 100 runs per property, no Allure)', args: ['--no-allure'] },
    { what: 'narrowed run (--rules P3.firewall.status, no Allure)', args: ['--rules', 'P3.firewall.status', '--no-allure'] },
  ];
  for (const { what, args } of kinds) {
    const here: TimedRun[] = [];
    const there: TimedRun[] = [];
    for (let pair = 0; pair < pairs; pair++) {
      const runs = [() => timedRun(args).then((run) => here.push(run)), () => timedRun(args, { checkout }).then((run) => there.push(run))];
      for (const next of pair % 2 ? runs.reverse() : runs) await next();
    }
    const failed = [...here, ...there].filter((run) => run.code !== 0).length;
    const mean = (runs: TimedRun[], of: (run: TimedRun) => number) => runs.reduce((sum, run) => sum + of(run), 0) / runs.length;
    const figures = (runs: TimedRun[]) => `${seconds(mean(runs, (run) => run.wallMs))} wall, ${seconds(mean(runs, (run) => totalCpuMs(run.cpu)))} of CPU`;
    const change = (of: (run: TimedRun) => number) => {
      const [a, b] = [mean(here, of), mean(there, of)];
      const lower = here.filter((run, index) => of(run) < of(there[index]!)).length;
      const sign = a < b ? '−' : '+';
      return `${sign}${seconds(Math.abs(a - b))} (${sign}${((100 * Math.abs(a - b)) / b).toFixed(1)} %), lower in ${lower} of ${pairs} pairs`;
    };
    row(what, failed ? `${failed} of ${2 * pairs} runs did not exit 0` : `${2 * pairs} runs, each exit 0`);
    row(`  this checkout`, figures(here));
    row(`  ${ref}`, figures(there));
    row(
      '  wall: this checkout against it',
      change((run) => run.wallMs),
    );
    row(
      '  CPU: this checkout against it',
      change((run) => totalCpuMs(run.cpu)),
    );
  }
}
