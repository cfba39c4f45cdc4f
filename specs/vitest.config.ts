import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';
import { fromEnv } from '../harness/config.js';
import { compiledCopy, runnable } from '../harness/compiled-copy.js';
import { reportPaths } from '../reports/paths.js';
import { lastFilesLast } from './setup/file-order.js';

const config = fromEnv();

/**
 * The conformance suite proper (run by `npx conformance run`, or from the sources by
 * `NODE_OPTIONS="--import tsx" npx vitest run --config specs/vitest.config.ts`: its reporters are TypeScript too).
 * `conformance run` hands in its own results reporter, to take the verdicts from it rather than read results.json back.
 */
export const suiteConfig = (resultsReporter: Reporter | string = runnable('reports/results-reporter.ts')) =>
  defineConfig({
    test: {
      root: fileURLToPath(new URL('..', import.meta.url)),
      include: ['specs/**/*.spec.ts'],
      globalSetup: [runnable('specs/setup/global-setup.ts')],
      // Terminal progress; allure-vitest (unless --no-allure) writes the Allure results before the results reporter
      // renders every report.
      reporters: [
        runnable('reports/progress-reporter.ts'),
        ...(config.allure
          ? [[runnable('reports/allure-reporter.ts'), { resultsDir: reportPaths(config).allureResults }] as [string, Record<string, unknown>]]
          : []),
        resultsReporter,
      ],
      // --shuffle draws the spec files' order from its seed; either way the files that must come after all others start last.
      sequence: { sequencer: lastFilesLast(config.shuffle ?? undefined) },
      pool: 'threads',
      // Two workers on this two-core machine: a third one waits on the same cores and loads every module once more
      // (`--workers` sets another count, for a target far away).
      // Spec files share the modules of their worker (ajv, fast-check, the schemas are imported once).
      maxWorkers: 2,
      isolate: false,
      // Node's own `import` instead of vite's module runner: no transform round trip to the main thread for every module
      // of every worker. A run from the compiled copy (bin/typescript.mjs) imports each spec file's copy with no loader
      // in the workers; a run from the sources registers tsx's in each worker first.
      ...(compiledCopy()
        ? {
            runner: runnable('specs/setup/compiled-runner.ts'),
            execArgv: ['--require', fileURLToPath(new URL('./setup/no-loader-thread.cjs', import.meta.url))],
          }
        : { setupFiles: ['specs/setup/native-typescript.mjs'] }),
      experimental: { viteModuleRunner: false, nodeLoader: false },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // A verdict (a broken rule, a target that gave nothing to judge, a failed setup) is not a crash: no stack frames.
      onStackTrace: (error) => !['RuleViolation', 'NothingToJudge', 'DeadlinePassed', 'SetupError'].includes(error.name ?? ''),
    },
  });

export default suiteConfig();
