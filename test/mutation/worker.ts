// One worker of the mutation matrix or of the variation matrix (started by matrix.ts with an IPC channel). It keeps
// one vitest instance and one emulator host for all its items, so start-ups and module transforms are paid once.
// For each fault it starts a fresh emulator with that fault alone, runs only the spec files holding a check of the
// fault's rule, narrowed to that rule (FAULTS_PER_RUN faults share one vitest run, each through its own copies of its
// spec files); for each group of variations, a fresh emulator with those variations and a full
// run (every spec file, every rule); for each narrowed run, a fresh emulator with its variations and a run of its
// rules' spec files. It sends back the outcome.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest, type TestModule, type TestProject, type TestSpecification, type Vitest } from 'vitest/node';
import type { Fault } from '../../emulator/faults/index.js';
import type { Variation } from '../../emulator/variations/index.js';
import { fromEnv, type SuiteConfig } from '../../harness/config.js';
import { embeddedTargetInfo, newEmbeddedToken } from '../../harness/embedded.js';
import { fileForTarget, targetKeyOf } from '../../harness/target-key.js';
import { withIdForms } from '../../harness/resources.js';
import type { TargetInfo } from '../../harness/target.js';
import { moduleOutcomes } from '../../reports/outcomes.js';
import { buildResults, runInfoOf, type Results } from '../../reports/results.js';
import { writeResultsJson } from '../../reports/write.js';
import { startEmulatorHost, type EmulatorHost } from './emulator-host.js';
import { judgeFault, unjudged, type NarrowedOutcome, type NarrowedRun, type WorkerMessage, type WorkerTask } from './matrix.js';
import { forgetFileEnds, markFileEnded } from '../../harness/run-order.js';
import { ledgerDir, pendingOfRun } from '../../harness/cleanup.js';
import { filesHoldingChosenChecks } from '../../harness/plan.js';
import { judgeVariation, unjudgedVariation } from '../variations/matrix.js';
import { heldOn, leftSince } from '../variations/leftovers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The configuration of each target of the run under way, by its spec files' target key ('' for a run of one target). */
const configs = new Map<string, SuiteConfig>();
const NO_LIMITS = { maxRpsPerWorker: null, deadline: null };
/**
 * The folder of this worker's runs (their cleanup ledgers and spec files' end marks, under `runs/<run id>`): a folder of
 * its own, as another matrix in the same checkout (`npm test` beside `npm run variations`) numbers its runs alike, and
 * each would clear and read the other's ledgers and end marks (a run judged to leave what the other made, a
 * cancellation sent while the other's files ran). Removed when the worker exits.
 */
const RUNS_OUT = mkdtempSync(join(tmpdir(), 'conformance-matrix-runs-'));
process.once('exit', () => rmSync(RUNS_OUT, { recursive: true, force: true }));
/** When a spec file of the run under way last ended (or the run started). */
let lastProgressAt = 0;

/**
 * Resolves 'timeout' once the run under way has gone `limitMs` without a spec file ending: a hang is a run that stopped
 * making progress, while a batch's whole time grows with the faults it holds.
 */
function stalled(limitMs: number): { promise: Promise<'timeout'>; stop: () => void } {
  lastProgressAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'timeout'>((resolve) => {
    timer = setInterval(() => Date.now() - lastProgressAt >= limitMs && resolve('timeout'), Math.min(1000, limitMs));
  });
  return { promise, stop: () => clearInterval(timer) };
}

function send(message: WorkerMessage<unknown>): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

/** One run of the matrix: the emulator it needs, the configuration, the spec files, and how its results are judged. */
interface Plan<Outcome> {
  label: string;
  faults: string[];
  variations: string[];
  config: SuiteConfig;
  specifications: TestSpecification[];
  /** `untracked`: what the run left on the target that its ledger never held (variation runs only, `leftSince`). */
  judge: (results: Results, durationMs: number, untracked: string[]) => Outcome;
  unjudged: (problem: string, durationMs: number) => Outcome;
  /** The outcome when no spec file holds a check the plan would run. */
  nothingToRun: () => Outcome;
}

async function runPlan<Outcome>(vitest: Vitest, host: EmulatorHost, plan: Plan<Outcome>, task: WorkerTask): Promise<Outcome> {
  const startedAt = Date.now();
  const token = newEmbeddedToken();
  const url = await host.start(token, plan.faults, plan.variations);
  const heldBefore = plan.variations.length ? await heldOn(url, token) : null;
  vitest.projects[0]!.provide('target', await withIdForms(embeddedTargetInfo(plan.config, url, token, NO_LIMITS)));
  configs.clear();
  configs.set('', plan.config);
  // An earlier run of the same id (another matrix) left its ledger, budget slots and file ends: judged is this run's.
  rmSync(ledgerDir(plan.config.out, plan.config.runId), { recursive: true, force: true });
  const watchdog = stalled(task.runTimeoutMs);
  try {
    const run = await Promise.race([vitest.runTestSpecifications(plan.specifications), watchdog.promise]);
    if (run === 'timeout') {
      await vitest.cancelCurrentRun('keyboard-input');
      return plan.unjudged(`the run stopped making progress: no spec file ended within ${task.runTimeoutMs / 1000} s`, Date.now() - startedAt);
    }
    // The run's result lists every module this vitest instance has run so far: keep this run's.
    const ran = new Set(plan.specifications.map((specification) => specification.moduleId));
    const results = resultsOf(
      run.testModules.filter((module) => ran.has(module.moduleId)),
      plan,
      startedAt,
      task,
    );
    const unhandled = run.unhandledErrors.map((error) => (error as Error).message ?? String(error));
    if (unhandled.length) return plan.unjudged(`unhandled errors: ${unhandled.join('; ').slice(0, 500)}`, Date.now() - startedAt);
    return plan.judge(results, Date.now() - startedAt, heldBefore ? await leftSince(heldBefore, url, token) : []);
  } finally {
    watchdog.stop();
    await host.stop(url);
  }
}

/** The results of a plan's spec files (kept under `keepRunsIn` when asked). */
function resultsOf(modules: readonly TestModule[], plan: Plan<unknown>, startedAt: number, task: WorkerTask): Results {
  const results = buildResults(modules.flatMap(moduleOutcomes), {
    target: 'embedded reference emulator',
    started: new Date(startedAt).toISOString(),
    finished: new Date().toISOString(),
    run: runInfoOf(plan.config),
  });
  if (task.keepRunsIn) writeResultsJson(results, join(task.keepRunsIn, plan.label, 'results.json'));
  return results;
}

/**
 * Faults judged in one vitest run: worker start-up and module loading are paid once per batch, not once per fault
 * (each batch costs a new vitest worker thread, about 2 s of CPU). Two batches a worker, so that progress still shows.
 */
const FAULTS_PER_RUN = 128;

/**
 * Runs a batch of fault plans in one vitest run: each fault gets its own emulator and its own copies of its spec files
 * (`<file>?target=<index>`, harness/target-key.ts), so no fault sees another's emulator. Returns null when the batch
 * could not be judged as a whole (a timeout, an unhandled error): its faults are then run one by one.
 */
async function runBatch(vitest: Vitest, host: EmulatorHost, plans: Array<[number, Plan<unknown>]>, task: WorkerTask): Promise<Array<[number, unknown]> | null> {
  const startedAt = Date.now();
  const project = vitest.projects[0]!;
  const targets: Record<string, TargetInfo> = {};
  const urls: string[] = [];
  let watchdog: ReturnType<typeof stalled> | undefined;
  try {
    for (const [index, plan] of plans) {
      const token = newEmbeddedToken();
      const url = await host.start(token, plan.faults, plan.variations);
      urls.push(url);
      targets[String(index)] = await withIdForms(embeddedTargetInfo(plan.config, url, token, NO_LIMITS));
    }
    configs.clear();
    for (const [index, plan] of plans) {
      configs.set(String(index), plan.config);
      forgetFileEnds(plan.config);
    }
    project.provide('targets', targets);
    const copies = plans.flatMap(([index, plan]) =>
      plan.specifications.map((specification) => project.createSpecification(fileForTarget(specification.moduleId, String(index)))),
    );
    watchdog = stalled(task.runTimeoutMs);
    const run = await Promise.race([vitest.runTestSpecifications(copies), watchdog.promise]);
    if (run === 'timeout') {
      await vitest.cancelCurrentRun('keyboard-input');
      return null;
    }
    if (run.unhandledErrors.length) return null;
    const durationMs = (Date.now() - startedAt) / plans.length;
    const ran = new Set(copies.map((copy) => copy.moduleId));
    return plans.map(([index, plan]) => {
      const modules = run.testModules.filter((module) => ran.has(module.moduleId) && targetKeyOf(module.moduleId) === String(index));
      return [index, plan.judge(resultsOf(modules, plan, startedAt, task), durationMs, [])];
    });
  } finally {
    watchdog?.stop();
    await Promise.all(urls.map((url) => host.stop(url)));
  }
}

/**
 * The spec files the cost table says hold a check of one of the rules (specs/plan/costs.json is kept current by
 * test/suite/budget.test.ts).
 */
const filesJudging = (rules: string[], project: TestProject): TestSpecification[] =>
  filesHoldingChosenChecks({ rules, areas: null }).map((file) => project.createSpecification(join(ROOT, file)));

/**
 * A run's configuration: the task's seed and runs per property, no Allure report, no shrinking (detection needs a
 * counterexample, not the smallest one: shrinking would only add requests), this worker's folder; then `settings`.
 */
const runConfig = (task: WorkerTask, runId: string, settings: Partial<SuiteConfig>): SuiteConfig => ({
  ...fromEnv(),
  out: RUNS_OUT,
  seed: task.seed,
  runs: task.runs,
  violationRuns: task.violationRuns,
  runId,
  allure: false,
  shrink: false,
  ...settings,
});

/** The plan of a fault: its rule's spec files, narrowed to its rule. */
function faultPlan(fault: Fault, index: number, task: WorkerTask, project: TestProject): Plan<unknown> {
  const specifications = filesJudging([fault.rule], project);
  const under = task.kind === 'faults' ? task.under : [];
  return {
    label: `${index}-${fault.id}`,
    faults: [fault.id],
    variations: under.map((variation) => variation.id),
    config: runConfig(task, `mut${index}`, { rules: [fault.rule], emulatorFaults: [fault.id], ...settingsUnder(under) }),
    specifications,
    judge: (results, durationMs) => ({ id: fault.id, rule: fault.rule, does: fault.does, durationMs, ...judgeFault(fault, results) }),
    unjudged: (problem, durationMs) => ({ ...unjudged(fault, problem), durationMs }),
    nothingToRun: () => unjudged(fault, `no check of the suite names ${fault.rule}`, 'untested'),
  };
}

/** What a run under these variations is given: the longest consistency window any of them asks for, and the region one asks for. */
function settingsUnder(group: readonly Variation[]): Partial<SuiteConfig> {
  const window = Math.max(0, ...group.map((variation) => variation.consistencyWindowMs ?? 0));
  const region = group.find((variation) => variation.region)?.region;
  return { ...(window ? { consistencyWindowMs: window } : {}), ...(region ? { region } : {}) };
}

/** The plan of a group of variations switched on together: every spec file, every rule (`settingsUnder`). Its outcome is one per variation. */
function variationPlan(group: Variation[], index: number, task: WorkerTask, files: TestSpecification[]): Plan<unknown> {
  const ids = group.map((variation) => variation.id);
  const config = runConfig(task, `var${index}`, {
    emulatorVariations: ids,
    // recorded in the run's results: `conformance run --shuffle <it>` meets the same order of spec files
    shuffle: task.seed + index,
    ...settingsUnder(group),
  });
  return {
    label: `${index}-${ids.join('+')}`.slice(0, 120),
    faults: [],
    variations: ids,
    config,
    specifications: files,
    judge: (results, durationMs, untracked) => {
      const left = [
        ...pendingOfRun(config.out, config.runId).map((entry) => `${entry.kind} ${entry.deletePath}`),
        ...untracked.map((item) => `untracked ${item}`),
      ];
      const mayWarn = group.flatMap((variation) => variation.warns ?? []);
      return group.map((variation) => judgeVariation(variation, results, durationMs, ids, left, mayWarn));
    },
    unjudged: (problem, durationMs) => group.map((variation) => ({ ...unjudgedVariation(variation, problem), durationMs })),
    nothingToRun: () => group.map((variation) => unjudgedVariation(variation, 'no spec files')),
  };
}

/** The plan of a narrowed run: its rules' spec files under its variations and settings. Its outcome is its results. */
function narrowedPlan(run: NarrowedRun, index: number, task: WorkerTask, project: TestProject): Plan<NarrowedOutcome> {
  const ids = run.variations.map((variation) => variation.id);
  return {
    label: `${index}-${ids.join('+')}`.slice(0, 120),
    faults: [],
    variations: ids,
    config: runConfig(task, `run${index}`, { rules: run.rules, emulatorVariations: ids, ...settingsUnder(run.variations), ...run.settings }),
    specifications: filesJudging(run.rules, project),
    judge: (results) => ({ results }),
    unjudged: (problem) => ({ problem }),
    nothingToRun: () => ({ problem: `no check of the suite names ${run.rules.join(', ')}` }),
  };
}

async function main(task: WorkerTask): Promise<void> {
  if (task.keepRunsIn) mkdirSync(task.keepRunsIn, { recursive: true });
  // No reporters and no global setup: each fault's target is provided here, and the outcome is judged here. One
  // thread runs a run's spec files one after another: their modules are evaluated once per run, not once per file
  // (the other matrix workers keep the cores busy). A variation's full run keeps several threads, as a user's run does: one
  // thread holding every spec file meets cross-file interactions a user's run never has (found: generated labels
  // clashing with what another file left, under the fixed seed) — reported, not hidden by the matrix.
  const vitest = await createVitest('test', {
    config: join(ROOT, 'specs/vitest.config.ts'),
    root: ROOT,
    run: true,
    watch: false,
    // Each spec file's end is marked in its run's folder, for a request that must come after all others (run-order.ts).
    reporters: [
      {
        onTestModuleEnd: (module) => {
          lastProgressAt = Date.now();
          const config = configs.get(targetKeyOf(module.moduleId));
          if (config) markFileEnded(config, module.moduleId);
        },
      },
    ],
    globalSetup: [],
    // A batch of faults runs copies of spec files (`<file>?target=<key>`), each a module of its own to Node's `import`
    // (specs/setup/compiled-runner.ts).
    // A narrowed run is run as the command line runs one, on one thread. A variation's run has four (`--workers 4`, as a
    // user's run against a distant target may): the windowed variations' waits (3 s a read judging what must not show
    // yet) kept two threads idle most of a run, 86 s alone; 60 s with four.
    ...(task.kind === 'variations' ? { maxWorkers: 4 } : { maxWorkers: 1 }),
    // A user's run orders its spec files by what vitest's cache holds (durations of earlier runs, else sizes): any
    // order is one a user may meet. Each variation run takes its own, drawn from the matrix's seed: the same on every
    // machine (a fresh clone met a false fail an old checkout's order hid), and different from run to run.
    ...(task.kind === 'variations' ? { sequence: { shuffle: { files: true, tests: false }, seed: task.seed } } : {}),
  });
  await vitest.standalone();
  const host = await startEmulatorHost();
  try {
    const files = task.kind === 'variations' ? await vitest.globTestSpecifications() : [];
    const project = vitest.projects[0]!;
    const plans: Array<[number, Plan<unknown>]> =
      task.kind === 'faults'
        ? task.items.map(([index, fault]) => [index, faultPlan(fault, index, task, project)])
        : task.kind === 'runs'
          ? task.items.map(([index, run]) => [index, narrowedPlan(run, index, task, project)])
          : task.items.map(([index, group]) => [index, variationPlan(group, index, task, files)]);
    const runAlone = async ([index, plan]: [number, Plan<unknown>]) => {
      const outcome = plan.specifications.length
        ? await runPlan(vitest, host, plan, task).catch((error: Error) => plan.unjudged(error.message, 0))
        : plan.nothingToRun();
      await send({ kind: 'outcome', index, outcome });
    };
    if (task.kind === 'variations')
      for (const plan of plans) {
        vitest.config.sequence.seed = plan[1].config.shuffle!;
        await runAlone(plan);
      }
    // (each alone: what a thread's modules learn of one target is never met by a run under other variations)
    else if (task.kind === 'runs') for (const plan of plans) await runAlone(plan);
    else
      for (let start = 0; start < plans.length; start += FAULTS_PER_RUN) {
        const batch = plans.slice(start, start + FAULTS_PER_RUN);
        const judged = await runBatch(
          vitest,
          host,
          batch.filter(([, plan]) => plan.specifications.length),
          task,
        ).catch(() => null);
        const done = new Map(judged ?? []);
        for (const item of batch) {
          if (done.has(item[0])) await send({ kind: 'outcome', index: item[0], outcome: done.get(item[0]) });
          else await runAlone(item);
        }
      }
  } finally {
    await host.close();
    await vitest.close();
  }
}

// A matrix whose process is gone (killed, crashed) has no use for what this worker would judge: it stops with it
// rather than running the rest of its runs orphaned.
process.once('disconnect', () => process.exit(1));

process.once('message', (task: WorkerTask) => {
  main(task).then(
    () => process.exit(0),
    async (error: Error) => {
      await send({ kind: 'failed', message: error.stack ?? error.message });
      process.exit(1);
    },
  );
});
