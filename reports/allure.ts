// Renders the Allure results that allure-vitest wrote during the run into one self-contained HTML file, with Allure 3's
// report generator (`singleFile: true` in reports/allurerc.json) in a process of its own (reports/allure-render.mjs).
// The report uses Allure 3's Allure-2-style plugin: the Awesome plugin's page always loads a Google Analytics tag, and a
// report opened from disk must not call anywhere; this plugin leaves the tag out when ALLURE_NO_ANALYTICS is true.
// The results are written by reports/allure-reporter.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RENDER_SCRIPT = fileURLToPath(new URL('./allure-render.mjs', import.meta.url));
const ALLURE_CONFIG = fileURLToPath(new URL('./allurerc.json', import.meta.url));
const RENDER_TIMEOUT_MS = 120_000;
/** The niceness of the renderer's process (19: the lowest priority). */
const LOWEST_PRIORITY = 19;

/**
 * The renderer of `reportDir/index.html`, started ahead: it loads Allure's modules and reads the results written so far
 * (`readSoFar`) while the checks run; `render` has it read the rest and write the report.
 */
export class AllureRenderer {
  private readonly child: ChildProcess;
  private readonly exited: Promise<{ code: number | null; stderr: string }>;
  /** Whether it runs at the lowest priority (until the run waits for it). */
  private lowered = false;
  /** The renderer started afresh at the run's priority where this one's could not be raised. */
  private replacement?: AllureRenderer;

  /** How it sets a process's priority (a test stands in for a user not permitted to lower a niceness). */
  private readonly prioritize: typeof setPriority;

  constructor(
    private readonly reportDir: string,
    private readonly name: string,
    { lowest = true, prioritize = setPriority }: { lowest?: boolean; prioritize?: typeof setPriority } = {},
  ) {
    this.prioritize = prioritize;
    this.child = spawn(process.execPath, [RENDER_SCRIPT, ALLURE_CONFIG, reportDir, name], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' },
    });
    // It reads results while the checks run: at the lowest priority it takes the cores only when the checks leave them
    // idle (a full run 0.2–1.4 s shorter in four alternating pairs; docs/speed-log.md). Where the priority cannot be
    // set it renders as before.
    try {
      if (lowest && this.child.pid !== undefined) prioritize(this.child.pid, LOWEST_PRIORITY);
      this.lowered = lowest;
    } catch {
      // (not permitted here: the default priority)
    }
    let stderr = '';
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A renderer that is gone before it is told to render must not take the run down with a broken pipe.
    this.child.stdin!.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => resolve({ code: null, stderr: error.message }));
      this.child.once('close', (code) => resolve({ code, stderr }));
    });
  }

  /** The process id of the renderer working for the run (undefined when it could not be started). */
  get pid(): number | undefined {
    return this.replacement?.pid ?? this.child.pid;
  }

  /** Has the renderer read the results written so far (in the background: the run does not wait for it). */
  readSoFar(resultsDir: string): void {
    if (existsSync(resultsDir)) this.child.stdin!.write(`read ${resultsDir}\n`);
  }

  /** Resolves to the report file, or rejects with one line saying why. */
  async render(resultsDir: string): Promise<string> {
    if (!existsSync(resultsDir)) {
      this.cancel();
      throw new Error(`no Allure results in ${resultsDir}`);
    }
    // The run waits for it now: at the lowest priority, any other work on the machine would starve it (a narrowed run
    // beside a loaded test command waited over a minute). Back to the run's own priority, or, where an unprivileged
    // user may not lower a niceness, a renderer at the run's priority reads the results afresh.
    if (this.atRunPriority()) return this.finish(resultsDir);
    this.child.kill();
    this.replacement = new AllureRenderer(this.reportDir, this.name, { lowest: false, prioritize: this.prioritize });
    return this.replacement.finish(resultsDir);
  }

  /** Whether it now runs at this process's priority. */
  private atRunPriority(): boolean {
    if (!this.lowered || this.child.pid === undefined) return true;
    try {
      this.prioritize(this.child.pid, getPriority());
      this.lowered = false;
      return true;
    } catch {
      return false;
    }
  }

  private async finish(resultsDir: string): Promise<string> {
    this.child.stdin!.end(`render ${resultsDir}\n`);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), RENDER_TIMEOUT_MS);
    const { code, stderr } = await this.exited.finally(() => clearTimeout(timer));
    const file = join(this.reportDir, 'index.html');
    if (code !== 0 || !existsSync(file)) throw new Error(`allure generate failed: ${stderr.trim().split('\n').pop() || `exit ${code}`}`);
    return file;
  }

  private cancel(): void {
    this.child.stdin!.end();
  }
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
