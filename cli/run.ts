// `conformance run`: resolves the configuration, runs the suite through vitest, and maps the verdicts to an
// exit code (0 no fail, 1 a fail, 2 an error or bad usage).
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { constants } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ViteUserConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';
import { SETUP_ERROR_ENV, toEnv, type SuiteConfig } from '../harness/config.js';
import { reportPaths } from '../reports/paths.js';
import { checkTitle, type Results } from '../reports/results.js';
import { SPEC_FILE_ERROR } from '../reports/outcomes.js';
import { pendingOfRun, writeRunRecord, type LedgerEntry } from '../harness/cleanup.js';
import { SPEC_FILTERS_ENV, specFilesToLoad } from '../harness/plan.js';
import { withoutCredentials } from '../harness/redact.js';
import { controlUrlProblem } from '../harness/control-hooks.js';
import { newEmbeddedToken, startEmbeddedAhead, stopEmbeddedAhead } from '../harness/embedded.js';
import { runnable } from '../harness/compiled-copy.js';
import { Interruption } from './interrupt.js';
import { configFromOptions, type RunOptions } from './options.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export type { RunOptions };
export { configFromOptions };

/**
 * Why a kind of resource may still be there when the run ends: refused while it is busy, for longer than the run waits
 * (the sweep then waits for it too).
 */
const BUSY_REFUSALS: Partial<Record<LedgerEntry['kind'], string>> = {
  database: 'a cluster cannot be deleted while it provisions',
  instance: 'a target may refuse to delete an instance while an action on it runs, a clone from or to it',
};

/** The closing line on a target given by URL: what the run created and is still there, and the sweep that deletes it. */
export function leftoversLine(
  config: Pick<SuiteConfig, 'baseUrl' | 'runId' | 'out'> & Partial<Pick<SuiteConfig, 'leftoversWaitMs'>>,
  left: readonly LedgerEntry[],
): string {
  const kinds = [...new Set(left.map((entry) => entry.kind))];
  const counts = kinds.map((kind) => `${left.filter((entry) => entry.kind === kind).length} ${kind}`);
  const busy = kinds.flatMap((kind) => BUSY_REFUSALS[kind] ?? []);
  // A cluster provisions for about half an hour (60 minutes judged), a clone runs a while: the sweep waits for them.
  const wait = busy.length ? ' --wait 3600000' : '';
  const paths = left.map((entry) => entry.deletePath);
  return `conformance: ${left.length} resources the run created are left (${[counts.join(', '), ...busy].join('; ')}): ${paths.slice(0, 5).join(', ')}${
    paths.length > 5 ? ', …' : ''
  }; \`conformance sweep --run-id ${config.runId} --base-url ${withoutCredentials(config.baseUrl!)} --out ${config.out} --token <token>${wait}\` deletes them${
    busy.length && !config.leftoversWaitMs ? ' (a run given --wait-for-leftovers 3600000 sweeps them itself at its end)' : ''
  }\n`;
}

/**
 * What the run created and is still on a target given by URL: swept first, given `--wait-for-leftovers`, waiting that
 * long for what the target refuses to delete while busy; then named, with the sweep that deletes it, or said to be none.
 */
async function reportLeftovers(config: SuiteConfig): Promise<void> {
  if (!config.baseUrl) return;
  if (config.leftoversWaitMs && config.token && pendingOfRun(config.out, config.runId).length)
    await sweepAtEnd({ ...config, baseUrl: config.baseUrl, token: config.token, leftoversWaitMs: config.leftoversWaitMs });
  const left = pendingOfRun(config.out, config.runId);
  if (left.length) process.stderr.write(leftoversLine(config, left));
  else if (!config.readOnly) process.stderr.write('conformance: nothing the run created is left on the target (each delete confirmed by a read)\n');
}

/**
 * The sweep of `--wait-for-leftovers`. Ctrl-C or SIGTERM while it waits stops it: what is still left is named, with
 * the sweep that deletes it, and the command exits 128 + the signal number, as an interrupted run does.
 */
async function sweepAtEnd(config: SuiteConfig & { baseUrl: string; token: string; leftoversWaitMs: number }): Promise<void> {
  const left = pendingOfRun(config.out, config.runId);
  process.stderr.write(
    `conformance: ${left.length} resources the run created are left: sweeping them, waiting up to ${Math.ceil(config.leftoversWaitMs / 1000)} s for what the target refuses to delete while busy\n`,
  );
  const print = (line: string) => process.stderr.write(`conformance: ${line.startsWith('sweep: ') ? line : `sweep: ${line}`}\n`);
  const stopped = (signal: NodeJS.Signals) => {
    print(`stopped (${signal})`);
    process.stderr.write(leftoversLine(config, pendingOfRun(config.out, config.runId)));
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stopped);
  const { SweepError, sweepTarget } = await import('./sweep.js');
  try {
    await sweepTarget(config, [config.runId], config.leftoversWaitMs, print);
  } catch (error) {
    if (!(error instanceof SweepError)) throw error;
    print(`stopped: ${error.message}`);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stopped);
  }
}

/** A check by its first rule and its title (its name repeats every rule it judges). */
const shortName = (check: Results['checkList'][number]) => `${check.rules[0] ?? ''}${check.rules.length > 1 ? ' …' : ''} ("${checkTitle(check.name)}")`;

/**
 * A line when reads after writes waited the whole consistency window in vain: the target showed a write later than
 * the window, or never. What a check then judged on the last read may be a slow server's lag, not a divergence.
 */
function unsettledReadsLine(results: Pick<Results, 'checkList'>, windowMs: number): string | undefined {
  const waited = results.checkList.filter((check) => check.unsettledReads);
  if (!waited.length) return undefined;
  const reads = waited.reduce((sum, check) => sum + (check.unsettledReads ?? 0), 0);
  const most = waited.reduce((one, other) => ((other.unsettledReads ?? 0) > (one.unsettledReads ?? 0) ? other : one));
  return `${reads} read(s) after a write waited the whole consistency window (${windowMs} ms) in ${waited.length} check(s), most in ${shortName(most)}: the target showed the write later than that, or never; for a slow but correct target raise --consistency-window (unsettledReads in results.json)`;
}

/**
 * Moves a folder out of the way at once and deletes it in the background (an earlier run's ~1,800 Allure results took
 * ~0.15 s to delete, at the start of the run); also deletes what an interrupted run left moved aside.
 */
function moveAsideForDeletion(folder: string): Promise<unknown> {
  const aside = `${folder}.old-${process.pid}`;
  try {
    renameSync(folder, aside);
  } catch {
    // nothing there
  }
  const prefix = `${basename(folder)}.old-`;
  let leftovers: string[] = [];
  try {
    leftovers = readdirSync(dirname(folder)).filter((name) => name.startsWith(prefix));
  } catch {
    // no output folder yet
  }
  return Promise.all(leftovers.map((name) => rm(join(dirname(folder), name), { recursive: true, force: true }).catch(() => {})));
}

/** Runs the suite; returns the exit code. `warning`: a line said once the run is sure to start (settings it defaulted). */
export async function runSuite(config: SuiteConfig, filters: string[] = [], warning?: string | null): Promise<number> {
  Object.assign(process.env, toEnv(config));
  delete process.env[SETUP_ERROR_ENV];
  const problem = await controlUrlProblem(config);
  if (problem) {
    process.stderr.write(`conformance: ${problem}\n`);
    return 2;
  }
  if (warning) process.stderr.write(`conformance: ${warning}\n`);
  // The workers' plan spends the budgets on the spec files asked for only.
  process.env[SPEC_FILTERS_ENV] = filters.join('\n');
  const { json: resultsFile, allureResults } = reportPaths(config);
  rmSync(resultsFile, { force: true });
  // allure-vitest adds to its folder: results of an earlier run would show in this run's Allure report.
  const oldResults = moveAsideForDeletion(allureResults);
  // `sweep` applies a run's ledger only to the target the run recorded.
  writeRunRecord(config.out, { runId: config.runId, target: config.baseUrl && withoutCredentials(config.baseUrl), started: new Date().toISOString() });
  const interruption = new Interruption(config);
  // A reader that hung up (`| head -1`): writes to standard output fail with EPIPE from now on, which must not crash.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') interruption.outputClosed();
  };
  process.stdout.on('error', onOutputError);
  if (!config.baseUrl) startEmbeddedAhead(config.token ?? newEmbeddedToken(), config.emulatorFaults, config.emulatorVariations);
  try {
    return await runVitest(config, filters, interruption, resultsFile, oldResults);
  } finally {
    await stopEmbeddedAhead();
  }
}

async function runVitest(
  config: SuiteConfig,
  filters: string[],
  interruption: Interruption,
  resultsFile: string,
  oldResults: Promise<unknown>,
): Promise<number> {
  const { startVitest } = await import('vitest/node');
  // The configuration imported here (from the compiled copy, or through tsx: bin/typescript.mjs) and given whole: vite
  // neither bundles the file nor starts a loader thread to import it. Its results reporter is made here: the verdicts
  // are taken from it (reading results.json back cost a narrowed run ~2 % of its CPU).
  const { suiteConfig } = (await import(pathToFileURL(runnable(join(ROOT, 'specs/vitest.config.ts'))).href)) as {
    suiteConfig: (resultsReporter: Reporter) => ViteUserConfig;
  };
  const resultsReporter = new (await import('../reports/results-reporter.js')).default();
  const configuration = suiteConfig(resultsReporter);
  const running = startVitest(
    'test',
    specFilesToLoad(config, filters),
    {
      config: false,
      root: ROOT,
      run: true,
      watch: false,
      // A run narrowed to some rules judges few checks: one worker collects and runs them (a second one would load
      // every module and collect every spec file once more, for little to run). Else the configuration's two.
      ...(config.workers ? { maxWorkers: config.workers } : config.rules?.length ? { maxWorkers: 1 } : {}),
      ...(config.shard ? { shard: config.shard } : {}),
    },
    { ...configuration, plugins: [interruption.plugin()] },
  );
  const vitest = await Promise.race([running, interruption.gaveUp.then(() => undefined)]);
  await vitest?.close();
  await oldResults;
  if (interruption.signal) return interruption.finish(existsSync(resultsFile));
  interruption.dispose();
  await reportLeftovers(config);
  const results = resultsReporter.results;
  if (!results) {
    process.stderr.write('conformance: the run produced no results (see the output above)\n');
    return 2;
  }
  const unsettled = unsettledReadsLine(results, config.consistencyWindowMs);
  if (unsettled) process.stderr.write(`conformance: ${unsettled}\n`);
  const outsideChecks = vitest?.state.getUnhandledErrors().length ?? 0;
  const verdict = exitOf(results, config, outsideChecks);
  if (verdict.line) process.stderr.write(`conformance: ${verdict.line}\n`);
  return verdict.code;
}

/**
 * The exit code of a finished run: 1 a MUST rule failed (or, with --fail-on warning, a SHOULD rule warned); 2 an
 * error inside or outside the checks, or nothing of weight judged; else 0. `line` says why when it is not obvious.
 */
export function exitOf(
  results: Pick<Results, 'summary' | 'warnings' | 'score' | 'checkList' | 'setupError' | 'expectations'>,
  config: Pick<SuiteConfig, 'failOn'> & Partial<Pick<SuiteConfig, 'strictExpectations'>>,
  outsideChecks = 0,
): { code: number; line?: string } {
  if (results.setupError) return { code: 2, line: `${results.setupError}: nothing was judged` };
  const uncollected = results.checkList.filter((check) => check.name.startsWith(SPEC_FILE_ERROR));
  if (uncollected.length)
    return {
      code: 2,
      line: `${uncollected.map((check) => check.file).join(', ')} could not be collected (${uncollected[0]!.message ?? 'see above'}): the run is incomplete`,
    };
  if (results.summary.fail > 0) return { code: 1 };
  const passing = results.expectations?.unexpectedlyPassing ?? [];
  if (config.strictExpectations && passing.length)
    return { code: 1, line: `${passing.length} rule(s) expected to fail now pass: take them out of ${results.expectations!.file} (--strict-expectations)` };
  if (config.failOn === 'warning' && results.warnings > 0)
    return { code: 1, line: `${results.warnings} SHOULD rule(s) with a warning, and the run fails on warnings (--fail-on warning)` };
  // Errors outside any check (e.g. a shard with no spec files) leave the run incomplete.
  if (outsideChecks > 0) return { code: 2, line: `${outsideChecks} error(s) outside the checks (above): the run is incomplete` };
  if (results.summary.error > 0) return { code: 2 };
  if (results.score.judgedMust === 0) return { code: 2, line: 'no MUST rule was judged (every check skipped, disabled or errored): the run proves nothing' };
  return { code: 0 };
}
