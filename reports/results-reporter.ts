// Vitest reporter that turns the suite's checks into the run's reports: results.json, compliance.html, junit.xml
// and the single-file Allure report (from the results allure-vitest wrote), then prints a one-line summary.
import { existsSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { SETUP_ERROR_ENV, fromEnv, type SuiteConfig } from '../harness/config.js';
import { markFileEnded } from '../harness/run-order.js';
import { FILTERED_OUT, filteredOutChecks, filteredOutRecord, specFilters } from '../harness/plan.js';
import { redact, registerConfigSecrets } from '../harness/redact.js';
import { AllureRenderer, describeRunForAllure } from './allure.js';
import { moduleOutcomes, specFile } from './outcomes.js';
import { reportPaths } from './paths.js';
import { buildResults, runInfoOf, targetOf, type CheckOutcome, type Results } from './results.js';
import { writeRenderedReports, writeResultsJson } from './write.js';
import { DOCUMENTS_VERSION } from '../rules/documents.js';
import { applyExpectations, expectationsLine, readExpectations } from './expectations.js';

function outcomesOf(modules: ReadonlyArray<TestModule>, config: SuiteConfig): CheckOutcome[] {
  const ran = modules.flatMap(moduleOutcomes);
  // A run narrowed by --rules / --areas loads only the spec files holding a check it chose; the others are listed.
  const unloaded = filteredOutChecks(config, specFilters(), new Set(modules.map(specFile))).map(({ file, name, rules }): CheckOutcome => ({
    name,
    file,
    verdict: 'disabled',
    message: FILTERED_OUT,
    record: filteredOutRecord(rules),
  }));
  return [...ran, ...unloaded];
}

export default class ResultsReporter implements Reporter {
  private started = new Date().toISOString();
  private allure?: AllureRenderer;
  /** What results.json holds, once the run's reports are written. */
  results?: Results;

  onTestRunStart(): void {
    this.started = new Date().toISOString();
  }

  // The Allure renderer starts when the first spec file is done: its start-up then runs beside the checks, not beside
  // the workers' own start-up. It reads each file's results (written by the Allure reporter, listed before this one)
  // as the file ends.
  onTestModuleEnd(module: TestModule): void {
    const config = fromEnv();
    // (whatever its verdicts, even when it could not be loaded: a request that must come last waits for it)
    markFileEnded(config, module.moduleId);
    this.allure ??= startAllureRenderer(config);
    this.allure?.readSoFar(reportPaths(config).allureResults);
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const config = fromEnv();
    const paths = reportPaths(config);
    const target = targetOf(config);
    registerConfigSecrets(config);
    // The Allure report is rendered by its own process, beside the rendering of the others.
    const allure = config.allure ? renderAllureReport(config, paths, target, this.allure ?? startAllureRenderer(config)!) : undefined;
    // Checks redact what they record; this pass also covers errors outside them (a spec file that could not run).
    const built = buildResults(outcomesOf(modules, config), {
      target,
      started: this.started,
      finished: new Date().toISOString(),
      run: runInfoOf(config),
      setupError: process.env[SETUP_ERROR_ENV],
    });
    // The file was read once before the run (cli/preflight.ts): a problem with it never reaches this point.
    const judged = config.expectations ? applyExpectations(built, readExpectations(config.expectations), config.expectations) : built;
    const results = redact(judged);
    writeResultsJson(results, paths.json);
    this.results = results;
    writeRenderedReports(results, paths);
    const written = [paths.json, paths.html, paths.junit];
    if (allure)
      await allure.then(
        (file) => written.push(file),
        (error: Error) => process.stderr.write(`conformance: the Allure report was not rendered: ${error.message}\n`),
      );
    summarise(results, written, config);
  }
}

function startAllureRenderer(config: SuiteConfig): AllureRenderer | undefined {
  return config.allure ? new AllureRenderer(reportPaths(config).allureReport, `Conformance: ${targetOf(config)}`) : undefined;
}

function renderAllureReport(config: SuiteConfig, paths: ReturnType<typeof reportPaths>, target: string, renderer: AllureRenderer): Promise<string> {
  // The last Allure results were written by allure-vitest's own onTestRunEnd, listed before this reporter.
  if (existsSync(paths.allureResults))
    describeRunForAllure(paths.allureResults, { target, documentsVersion: DOCUMENTS_VERSION, runId: config.runId, seed: config.seed, shard: config.shard });
  return renderer.render(paths.allureResults);
}

function summarise(results: Results, written: string[], config: SuiteConfig): void {
  const s = results.summary;
  const score = results.score.percent === null ? 'no MUST rule judged' : `score ${results.score.percent.toFixed(1)} %`;
  const partial = config.shard ? ` — shard ${config.shard}: a partial run, only this shard's spec files` : '';
  const j = results.judgement;
  const line = `conformance: rules ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.warning} warning, ${s.skip} skip, ${s.disabled} disabled; judged ${j.full} fully, ${j.partial} partly, ${j.none} not (${score})${expectationsLine(results.expectations)}${partial} → ${written.join(', ')}\n`;
  // A pass with a message was judged on fewer generated values than asked (harness/property.ts).
  const fewer = results.checkList.filter((check) => check.verdict === 'pass' && check.message).length;
  const fewerLine = fewer
    ? `conformance: ${fewer} ${fewer === 1 ? 'property was' : 'properties were'} judged on fewer generated values than asked: the target answered too slowly for all within a check's time (each says how many in the report; --runs asks for fewer)\n`
    : '';
  // JSON lines keep standard output machine-readable: the summary goes to standard error there.
  (config.progress === 'jsonl' ? process.stderr : process.stdout).write(fewerLine + line);
}
