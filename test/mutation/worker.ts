// One worker of the mutation matrix (started by matrix.ts with an IPC channel). It keeps one vitest instance and
// one emulator host for all its faults, so start-ups and module transforms are paid once; for each fault it starts
// a fresh emulator with that fault alone, runs only the spec files holding a check of the fault's rule, narrowed to
// that rule, and sends back the outcome.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest, type TestModule, type TestSpecification, type Vitest } from 'vitest/node';
import type { Fault } from '../../emulator/faults/index.js';
import { fromEnv, type SuiteConfig } from '../../harness/config.js';
import { embeddedTargetInfo } from '../../harness/embedded.js';
import type { FaultOutcome } from '../../reports/mutation.js';
import { moduleErrorOutcome, outcomeOf, specFile } from '../../reports/outcomes.js';
import { buildResults, runInfoOf, type CheckOutcome } from '../../reports/results.js';
import { writeResultsJson } from '../../reports/write.js';
import { startEmulatorHost, type EmulatorHost } from './emulator-host.js';
import { judgeFault, ruleSelects, unjudged, type WorkerMessage, type WorkerTask } from './matrix.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NO_LIMITS = { maxRpsPerWorker: null, deadline: null };

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

/** Rule ids of a check, from its title `[rule rule …] what it checks`. */
function rulesOfTitle(name: string): string[] {
  return /^\[([^\]]+)\]/.exec(name)?.[1]?.split(' ') ?? [];
}

/** Which spec files declare a check of which rules (one collection pass over every spec file). */
async function checksByFile(vitest: Vitest, config: SuiteConfig): Promise<Map<TestSpecification, string[]>> {
  // Collection declares the checks without running them; some spec files read the target while declaring.
  vitest.projects[0]!.provide('target', embeddedTargetInfo(config, 'http://127.0.0.1:9', 'collecting', NO_LIMITS));
  const specifications = await vitest.globTestSpecifications();
  const collected = await vitest.collectTests(specifications);
  const rulesOf = new Map(collected.testModules.map((module) => [module.moduleId, [...module.children.allTests()].flatMap((test) => rulesOfTitle(test.name))]));
  return new Map(specifications.map((specification) => [specification, rulesOf.get(specification.moduleId) ?? []]));
}

function outcomesOf(modules: readonly TestModule[]): CheckOutcome[] {
  return modules.flatMap((module) => {
    const moduleError = moduleErrorOutcome(module);
    return [...(moduleError ? [moduleError] : []), ...[...module.children.allTests()].map((test) => outcomeOf(test, specFile(module)))];
  });
}

async function runFault(vitest: Vitest, host: EmulatorHost, specifications: TestSpecification[], fault: Fault, task: WorkerTask, index: number): Promise<FaultOutcome> {
  const startedAt = Date.now();
  const token = `embedded-${randomBytes(12).toString('hex')}`;
  const url = await host.start(token, [fault.id]);
  // Detection needs a counterexample, not the smallest one: shrinking would only add requests.
  const config: SuiteConfig = { ...fromEnv(), seed: task.seed, rules: [fault.rule], emulatorFaults: [fault.id], runId: `mut${index}`, allure: false, shrink: false };
  vitest.projects[0]!.provide('target', embeddedTargetInfo(config, url, token, NO_LIMITS));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), task.runTimeoutMs)));
  try {
    const run = await Promise.race([vitest.runTestSpecifications(specifications), timedOut]);
    if (run === 'timeout') {
      await vitest.cancelCurrentRun('keyboard-input');
      return { ...unjudged(fault, `the run did not finish within ${task.runTimeoutMs / 1000} s`), durationMs: Date.now() - startedAt };
    }
    // The run's result lists every module this vitest instance has run so far: keep this run's.
    const ran = new Set(specifications.map((specification) => specification.moduleId));
    const results = buildResults(outcomesOf(run.testModules.filter((module) => ran.has(module.moduleId))), { target: 'embedded reference emulator', started: new Date(startedAt).toISOString(), finished: new Date().toISOString(), run: runInfoOf(config) });
    if (task.keepRunsIn) writeResultsJson(results, join(task.keepRunsIn, `${index}-${fault.id}`, 'results.json'));
    const unhandled = run.unhandledErrors.map((error) => (error as Error).message ?? String(error));
    const problem = unhandled.length ? { problem: `unhandled errors: ${unhandled.join('; ').slice(0, 500)}` } : {};
    return { id: fault.id, rule: fault.rule, does: fault.does, durationMs: Date.now() - startedAt, ...judgeFault(fault, results), ...problem };
  } finally {
    clearTimeout(timer);
    await host.stop(url);
  }
}

async function main(task: WorkerTask): Promise<void> {
  if (task.keepRunsIn) mkdirSync(task.keepRunsIn, { recursive: true });
  // No reporters and no global setup: each fault's target is provided here, and the outcome is judged here. One
  // thread runs a run's spec files one after another: their modules are evaluated once per run, not once per file
  // (the other matrix workers keep the cores busy).
  const vitest = await createVitest('test', { config: join(ROOT, 'specs/vitest.config.ts'), root: ROOT, run: true, watch: false, reporters: [{}], globalSetup: [], maxWorkers: 1 });
  await vitest.standalone();
  const host = startEmulatorHost();
  try {
    const files = await checksByFile(vitest, fromEnv());
    const specificationsOf = (fault: Fault): TestSpecification[] => [...files].filter(([, rules]) => rules.some((rule) => ruleSelects(fault.rule, rule))).map(([specification]) => specification);
    for (const [index, fault] of task.faults) {
      const specifications = specificationsOf(fault);
      const outcome = specifications.length
        ? await runFault(vitest, host, specifications, fault, task, index).catch((error: Error) => unjudged(fault, error.message))
        : unjudged(fault, `no check of the suite names ${fault.rule}`, 'untested');
      await send({ kind: 'outcome', index, outcome });
    }
  } finally {
    await host.close();
    await vitest.close();
  }
}

process.once('message', (task: WorkerTask) => {
  main(task).then(
    () => process.exit(0),
    async (error: Error) => {
      await send({ kind: 'failed', message: error.stack ?? error.message });
      process.exit(1);
    },
  );
});
