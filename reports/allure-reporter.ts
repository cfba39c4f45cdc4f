// allure-vitest, as a run's configuration names it when the Allure report is asked for (a reporter module of its own:
// a run without Allure never loads allure-vitest and allure-js-commons): results written as plain files as each spec
// file ends, a check that failed because the target broke a rule reported `failed`.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Status } from 'allure-js-commons';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { RunnerTask } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import { fromEnv } from '../harness/config.js';
import { redact, registerConfigSecrets } from '../harness/redact.js';

/**
 * Writes the Allure results as plain files, each renamed into place once whole (the renderer reads them while the run
 * goes on). allure-js-commons' own writer also makes each file durable (fsync): about 1 ms a file here, 2 s at the end
 * of a full run for its ~1,800 files.
 */
class PlainFileWriter implements Writer {
  constructor(private readonly dir: string) {}

  private write(name: string, content: string | Buffer): void {
    mkdirSync(this.dir, { recursive: true });
    const temporary = join(this.dir, `${name}.tmp`);
    writeFileSync(temporary, content);
    renameSync(temporary, join(this.dir, name));
  }

  writeResult(result: { uuid: string }): void {
    this.write(`${result.uuid}-result.json`, JSON.stringify(result));
  }
  writeGroup(result: { uuid: string }): void {
    this.write(`${result.uuid}-container.json`, JSON.stringify(result));
  }
  writeAttachment(name: string, content: Buffer): void {
    this.write(name, content);
  }
  writeAttachmentFromPath(name: string, from: string): void {
    this.write(name, readFileSync(from));
  }
  writeEnvironmentInfo(info: Record<string, string | undefined>): void {
    this.write('environment.properties', stringifyEnvInfo(info));
  }
  writeCategoriesDefinitions(categories: unknown[]): void {
    this.write('categories.json', JSON.stringify(categories));
  }
  writeGlobals(name: string, info: unknown): void {
    this.write(name, JSON.stringify(info));
  }
}

/**
 * allure-vitest writing its results to `resultsDir` with plain writes, with a check that failed because the target
 * broke a rule reported `failed`; Allure would call it `broken` (its word for a test defect, our `error`).
 */
export default class ConformanceAllureReporter extends AllureVitestReporter {
  private readonly resultsDir: string;

  constructor({ resultsDir }: { resultsDir: string }) {
    super({
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
    this.resultsDir = resultsDir;
    registerConfigSecrets(fromEnv());
  }

  private readonly written = new Set<TestModule>();

  override onInit(vitest: Vitest): void {
    // allure-vitest runs the tests with a runner of its own that enters an AsyncLocalStorage for each, so that tests run
    // concurrently within a file find theirs; checks never do, and with that store entered Node ran promise hooks around
    // every promise of the workers. vitest's own current test serves them: the runner the configuration names stays.
    const runners = vitest.projects.map((project) => project.config.runner);
    super.onInit(vitest);
    vitest.projects.forEach((project, index) => (project.config.runner = runners[index]!));
    // allure-vitest gives its runtime no way to name a writer: the runtime's (private) one is replaced.
    (this as unknown as { allureReporterRuntime: { writer: Writer } }).allureReporterRuntime.writer = new PlainFileWriter(this.resultsDir);
  }

  // allure-vitest writes every result when the run ends, 0.5 s of a full run's end: each spec file's results are
  // written as it ends instead (its `task`, as allure-vitest reads it), while the other files still run.
  onTestModuleEnd(module: TestModule): void {
    this.handleTask((module as unknown as { task: RunnerTask }).task);
    this.written.add(module);
  }

  override onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    super.onTestRunEnd(modules.filter((module) => !this.written.has(module)));
  }
}
