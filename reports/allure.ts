// Renders the Allure results that allure-vitest wrote during the run into one self-contained HTML file, with the
// Allure 3 command line (`allure generate`, `singleFile: true` in reports/allurerc.json). The report uses Allure 3's
// Allure-2-style plugin: the Awesome plugin's page always loads a Google Analytics tag, and a report opened from
// disk must not call anywhere; this plugin leaves the tag out when ALLURE_NO_ANALYTICS is true.
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Status } from 'allure-js-commons';
import AllureVitestReporter from 'allure-vitest/reporter';
import { fromEnv } from '../harness/config.js';
import { redact, registerConfigSecrets } from '../harness/redact.js';

const ALLURE_CLI = join(dirname(createRequire(import.meta.url).resolve('allure')), '..', 'cli.js');
const ALLURE_CONFIG = fileURLToPath(new URL('./allurerc.json', import.meta.url));

/** Renders `resultsDir` into `reportDir/index.html`; resolves to the file, or rejects with one line saying why. */
export function renderAllureReport(resultsDir: string, reportDir: string, name: string): Promise<string> {
  if (!existsSync(resultsDir)) return Promise.reject(new Error(`no Allure results in ${resultsDir}`));
  const args = [ALLURE_CLI, 'generate', resultsDir, '--config', ALLURE_CONFIG, '--output', reportDir, '--report-name', name];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' } },
      (error, stdout, stderr) => {
        const file = join(reportDir, 'index.html');
        if (error || !existsSync(file)) reject(new Error(`allure generate failed: ${(stderr || stdout || String(error)).trim().split('\n').pop()}`));
        else resolve(file);
      },
    );
  });
}

/** Allure's categories, named as compliance.html names the verdicts (Allure's own: "Product defects", "Test defects"). */
export const ALLURE_CATEGORIES = [
  { name: 'fail: a rule broken', matchedStatuses: ['failed'] },
  { name: 'error: no verdict', matchedStatuses: ['broken'] },
];

/** A java-properties value: backslashes, line breaks and leading blanks escaped. */
const propertyValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/^\s/, '\\$&');

/**
 * The run as Allure's Environment and Executor widgets show it (target, documents version, run id, seed), written
 * beside the results before the report is rendered.
 */
export function describeRunForAllure(
  resultsDir: string,
  run: { target: string; documentsVersion: string; runId: string; seed: number; shard: string | null },
): void {
  const environment: Record<string, string> = {
    target: run.target,
    documents: `version ${run.documentsVersion}`,
    run: run.runId,
    seed: String(run.seed),
    ...(run.shard ? { shard: run.shard } : {}),
  };
  writeFileSync(
    join(resultsDir, 'environment.properties'),
    Object.entries(environment)
      .map(([key, value]) => `${key}=${propertyValue(value)}\n`)
      .join(''),
  );
  writeFileSync(join(resultsDir, 'categories.json'), JSON.stringify(ALLURE_CATEGORIES));
  writeFileSync(
    join(resultsDir, 'executor.json'),
    JSON.stringify({ name: 'conformance', type: 'conformance', buildName: `run ${run.runId} (seed ${run.seed})`, reportName: `Conformance: ${run.target}` }),
  );
}

/**
 * allure-vitest writing its results to `resultsDir`, with a check that failed because the target broke a rule
 * reported `failed`; Allure would call it `broken` (its word for a test defect, our `error`).
 */
export function allureReporter(resultsDir: string): AllureVitestReporter {
  registerConfigSecrets(fromEnv());
  return new AllureVitestReporter({
    resultsDir,
    listeners: [
      {
        beforeTestResultWrite: (result) => {
          if (result.labels.some((label) => label.name === 'verdict' && label.value === 'fail')) result.status = Status.FAILED;
          // Checks redact their messages and attachments; this also covers errors raised outside a check.
          Object.assign(result, redact({ ...result }));
        },
      },
    ],
  });
}
