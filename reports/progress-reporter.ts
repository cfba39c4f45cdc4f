// Terminal progress of a run: per area, checks done / total and the fails so far (a check that broke SHOULD rules
// only is a warning, one that broke rules the expectations file excuses only is expected, as in the results: neither
// is shown as a fail).
//   tty    one line per area, updated in place; each fail or error printed above as it happens
//   plain  the same lines, printed every few seconds for the areas that moved (logs, CI), and each fail or error
//   quiet  nothing (the results reporter prints the closing summary line)
//   jsonl  one JSON object per finished check on standard output: {"check","rules","verdict","file","area",…}
import { createLogUpdate } from 'log-update';
import pc from 'picocolors';
import type { Reporter, SerializedError, TestCase, TestModule, TestSpecification } from 'vitest/node';
import type { Verdict } from '../harness/check.js';
import { fromEnv, type ProgressMode } from '../harness/config.js';
import { ruleById } from '../rules/index.js';
import { excusedOn, readExpectations } from './expectations.js';
import { AREAS, areaOfRuleIds, ruleIdsOfName } from './areas.js';
import { checksOf, isPlaceholder, moduleErrorOutcome, outcomeOf, specFile } from './outcomes.js';
import type { CheckOutcome } from './results.js';

export interface ProgressOptions {
  mode?: ProgressMode;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** How often `plain` prints (ms). */
  intervalMs?: number;
  /** Milliseconds since the epoch (tests pass a fake clock). */
  clock?: () => number;
  /** The run's expectations file (default: the run's configuration). */
  expectations?: string | null;
}

/** A check's verdict as the results count it: a fail of SHOULD rules only is a warning, of excused rules only expected. */
type Shown = Verdict | 'warning' | 'expected';

function shownVerdict(outcome: CheckOutcome, excused: ReadonlySet<string>): Shown {
  const broken = [outcome.record?.failedRule, ...(outcome.record?.alsoFailed ?? [])].filter((id) => id !== undefined);
  if (outcome.verdict !== 'fail' || !broken.length) return outcome.verdict;
  if (broken.every((id) => excused.has(id))) return 'expected';
  return broken.every((id) => ruleById.get(id)?.level === 'SHOULD') ? 'warning' : 'fail';
}

interface Tally {
  total: number;
  done: number;
  verdicts: Record<Shown, number>;
  /** `done` when the area was last printed (plain). */
  printedDone: number;
}

const AREA_WIDTH = Math.max(...AREAS.map((area) => area.length));

/** `42 s`, `3 min 05 s`. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

export default class ProgressReporter implements Reporter {
  private readonly mode: ProgressMode;
  private readonly stream: NodeJS.WritableStream;
  private readonly intervalMs: number;
  private readonly tallies = new Map<string, Tally>();
  private readonly live?: ReturnType<typeof createLogUpdate>;
  private timer?: NodeJS.Timeout;
  private readonly colour: ReturnType<typeof pc.createColors>;
  private lastDraw = 0;
  private expectedFiles = 0;
  private collectedFiles = 0;
  private readonly clock: () => number;
  private startedAt = 0;
  /** Rules the run's expectations file excuses today (the file was checked before the run). */
  private readonly excused: ReadonlySet<string>;

  constructor(options: ProgressOptions = {}) {
    this.stream = options.stream ?? process.stdout;
    const isTTY = (options.stream ?? process.stdout).isTTY === true;
    this.mode = options.mode ?? fromEnv().progress ?? (isTTY ? 'tty' : 'plain');
    this.intervalMs = options.intervalMs ?? 5000;
    this.clock = options.clock ?? Date.now;
    if (this.mode === 'tty') this.live = createLogUpdate(this.stream);
    // Colours only where lines are redrawn on a terminal; logs and CI get plain text.
    this.colour = pc.createColors(this.mode === 'tty' && pc.isColorSupported);
    const expectations = options.expectations ?? fromEnv().expectations;
    this.excused = expectations ? excusedOn(readExpectations(expectations), new Date().toISOString().slice(0, 10)) : new Set();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.expectedFiles = specifications.length;
    this.startedAt = this.clock();
    if (this.mode === 'plain') {
      this.timer = setInterval(() => this.printMovedAreas(), this.intervalMs);
      this.timer.unref();
    }
  }

  onTestModuleCollected(module: TestModule): void {
    this.collectedFiles++;
    for (const test of checksOf(module)) this.tally(areaOfRuleIds(ruleIdsOfName(test.name))).total++;
    this.draw();
  }

  onTestCaseResult(test: TestCase): void {
    if (!isPlaceholder(test)) this.finished(outcomeOf(test, specFile(test.module)));
  }

  onTestModuleEnd(module: TestModule): void {
    const failed = moduleErrorOutcome(module);
    if (failed) this.finished(failed);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    clearInterval(this.timer);
    if (this.mode === 'tty') {
      this.draw(true);
      this.live!.done();
    } else if (this.mode === 'plain') this.printMovedAreas(true);
    for (const error of unhandledErrors) process.stderr.write(`conformance: unhandled error during the run: ${error.message}\n`);
  }

  /** Records a finished check (public for the reporter's own tests). */
  finished(outcome: CheckOutcome): void {
    const rules = outcome.record?.rules ?? ruleIdsOfName(outcome.name);
    const area = areaOfRuleIds(rules);
    const shown = shownVerdict(outcome, this.excused);
    if (this.mode === 'jsonl') {
      const line = {
        check: outcome.name,
        rules,
        verdict: outcome.verdict,
        file: outcome.file,
        area,
        ...(outcome.record?.failedRule ? { failedRule: outcome.record.failedRule } : {}),
        ...(shown !== outcome.verdict ? { countedAs: shown } : {}),
        ...(outcome.message && outcome.verdict !== 'pass' ? { message: outcome.message } : {}),
        ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
      };
      this.stream.write(`${JSON.stringify(line)}\n`);
      return;
    }
    const tally = this.tally(area);
    tally.done++;
    tally.verdicts[shown]++;
    if (shown !== 'pass' && shown !== 'skip' && shown !== 'disabled') this.announce(outcome, shown);
    this.draw();
  }

  private tally(area: string): Tally {
    let tally = this.tallies.get(area);
    if (!tally) {
      tally = { total: 0, done: 0, verdicts: { pass: 0, fail: 0, warning: 0, expected: 0, error: 0, skip: 0, disabled: 0 }, printedDone: 0 };
      this.tallies.set(area, tally);
    }
    return tally;
  }

  /** A fail, warning or error, printed as it happens (tty and plain). */
  private announce(outcome: CheckOutcome, shown: Shown): void {
    if (this.mode !== 'tty' && this.mode !== 'plain') return;
    const rule = outcome.record?.failedRule ?? outcome.record?.rules[0] ?? '';
    const message = (outcome.message ?? '').replace(`${rule}: `, '').replace(/\s+/g, ' ').slice(0, 240);
    const line = `${this.paint(shown, `${shown.toUpperCase()} ${rule}`)} ${message} ${this.colour.dim(`(${outcome.file})`)}`;
    if (this.live) this.live.persist(line);
    else this.stream.write(`${line}\n`);
  }

  private paint(verdict: Shown, text: string): string {
    const { green, red, yellow, magenta, dim, cyan } = this.colour;
    return { pass: green, fail: red, warning: cyan, expected: cyan, error: yellow, skip: magenta, disabled: dim }[verdict](text);
  }

  private areaLine(area: string, tally: Tally): string {
    const { fail, warning, expected, error, skip, disabled } = tally.verdicts;
    const total = Math.max(tally.total, tally.done);
    const counts = [
      fail && this.paint('fail', `${fail} fail`),
      warning && this.paint('warning', `${warning} warning`),
      expected && this.paint('expected', `${expected} expected`),
      error && this.paint('error', `${error} error`),
      skip && this.paint('skip', `${skip} skip`),
      disabled && this.paint('disabled', `${disabled} disabled`),
    ]
      .filter(Boolean)
      .join(', ');
    const width = String(total).length;
    // ✓: the area finished with nothing failed or errored.
    const clean = tally.done === total && this.collectedFiles >= this.expectedFiles && !fail && !error;
    return `${area.padEnd(AREA_WIDTH)}  ${String(tally.done).padStart(width)}/${total} checks${clean ? ' ✓' : ''}${counts ? `  ${counts}` : ''}`;
  }

  /**
   * The whole run: checks done / total, time elapsed and, once every spec file is collected (the total is known),
   * the time left at the pace so far.
   */
  overallLine(): string {
    const tallies = [...this.tallies.values()];
    const done = tallies.reduce((sum, tally) => sum + tally.done, 0);
    const total = tallies.reduce((sum, tally) => sum + Math.max(tally.total, tally.done), 0);
    const elapsed = this.clock() - this.startedAt;
    const collecting = this.collectedFiles < this.expectedFiles;
    const left = !collecting && done > 0 && done < total ? ` · about ${duration((elapsed / done) * (total - done))} left` : '';
    const collection = collecting ? this.colour.dim(` (collecting: ${this.collectedFiles}/${this.expectedFiles} spec files)`) : '';
    return `${'overall'.padEnd(AREA_WIDTH)}  ${done}/${total} checks · ${duration(elapsed)} elapsed${left}${collection}`;
  }

  private orderedAreas(): Array<[string, Tally]> {
    return [...this.tallies].sort(([a], [b]) => AREAS.indexOf(a) - AREAS.indexOf(b));
  }

  /** tty: redraws the area lines, at most every 100 ms unless forced. */
  private draw(force = false): void {
    if (!this.live) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.live([this.colour.bold(this.overallLine()), ...this.orderedAreas().map(([area, tally]) => this.areaLine(area, tally))].join('\n'));
  }

  /** plain: the lines of the areas that moved since the last print; at the end (`all`), every area's final line. */
  private printMovedAreas(all = false): void {
    const moved = this.orderedAreas().filter(([, tally]) => all || tally.done !== tally.printedDone);
    if (moved.length) this.stream.write(`${this.overallLine()}\n`);
    for (const [area, tally] of moved) {
      tally.printedDone = tally.done;
      this.stream.write(`${this.areaLine(area, tally)}\n`);
    }
  }
}
