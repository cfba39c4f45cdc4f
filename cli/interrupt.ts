// Ctrl-C or SIGTERM during `conformance run`: the run stops (running checks get a few seconds, then their workers
// are stopped), what the cleanup ledger holds is deleted within a bounded time, the results gathered so far are
// written, and the command exits 128 + the signal number. A second signal exits at once.
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Vitest } from 'vitest/node';
import type { SuiteConfig } from '../harness/config.js';
import { HttpClient } from '../harness/http.js';
import { withoutCredentials } from '../harness/redact.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** SIGPIPE: standard output was closed (`conformance run … | head -1`); it is handled, never delivered. */
type Signal = (typeof SIGNALS)[number] | 'SIGPIPE';

/** Running checks may finish (and their spec file's own cleanup run) for this long before their workers are stopped. */
const GRACE_MS = 5_000;
/** Closing vitest (its global teardown stops the embedded emulator) after it did not wind down. */
const CLOSE_MS = 5_000;
/** After the workers were stopped, vitest gets this long to wind down before the command goes on without it. */
const WIND_DOWN_MS = 10_000;
/** The cleanup of what the ledger holds stops after this long (`sweep` deletes the rest). */
const CLEANUP_MS = 30_000;

function signalExitCode(signal: Signal): number {
  return 128 + constants.signals[signal];
}

export class Interruption {
  signal: Signal | null = null;
  private vitest: Vitest | undefined;
  /** Spec files are being run: a cancel before that would be undone when the run starts. */
  private running = false;
  private readonly handler = (signal: Signal) => this.onSignal(signal);
  private giveUp: (() => void) | undefined;
  /** Resolves when a stopped run did not wind down in time: the command goes on without waiting for vitest. */
  readonly gaveUp = new Promise<void>((resolve) => (this.giveUp = resolve));
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly config: SuiteConfig) {
    for (const signal of SIGNALS) process.on(signal, this.handler);
  }

  /**
   * A vitest plugin handing over the vitest instance and telling when spec files start to run. Vitest's own signal
   * handlers exit the process at once, which would leave the run's resources behind: the ones it added are removed.
   */
  plugin(): { name: string; config: () => void; configureVitest: (context: { vitest: Vitest }) => void } {
    const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
    const takeSignals = () => {
      for (const signal of SIGNALS) for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    };
    return {
      name: 'conformance-interrupt',
      // Vite's first hook, right after vitest registered its handlers.
      config: takeSignals,
      configureVitest: ({ vitest }) => {
        this.vitest = vitest;
        takeSignals();
        vitest.config.reporters.push({
          onTestModuleQueued: () => {
            if (this.running) return;
            this.running = true;
            if (this.signal) this.stop();
          },
        });
      },
    };
  }

  private onSignal(signal: Signal): void {
    if (this.signal) {
      const remains = this.config.baseUrl && !this.config.readOnly ? `; what the run created may remain: ${this.sweepCommand()}` : '';
      process.stderr.write(`conformance: second ${signal}: exiting at once${remains}\n`);
      process.exit(signalExitCode(signal));
    }
    this.signal = signal;
    process.stderr.write(`\nconformance: ${signal}: stopping the run, then deleting what it created (a second signal exits at once)\n`);
    this.stop();
  }

  /** Standard output was closed: the run stops and cleans up as for a signal, rather than crash on EPIPE. */
  outputClosed(): void {
    if (this.signal) return;
    this.signal = 'SIGPIPE';
    process.stderr.write('conformance: standard output was closed: stopping the run, then deleting what it created\n');
    this.stop();
  }

  private stop(): void {
    const vitest = this.vitest;
    if (!vitest || !this.running) return;
    void vitest.cancelCurrentRun('keyboard-input');
    // A second cancel stops the workers whose checks are still running.
    this.timers.push(setTimeout(() => void vitest.cancelCurrentRun('keyboard-input'), GRACE_MS));
    this.timers.push(setTimeout(() => this.giveUp?.(), GRACE_MS + WIND_DOWN_MS));
  }

  /** After a normal end: the handlers go. */
  dispose(): void {
    for (const signal of SIGNALS) process.off(signal, this.handler);
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** After an interrupted run: deletes what the ledger holds (bounded), prints one line, returns the exit code. */
  async finish(resultsWritten: boolean): Promise<number> {
    this.dispose();
    // A second signal during the cleanup still exits at once.
    for (const each of SIGNALS) process.once(each, () => this.onSignal(each));
    // Usually closed already; after a run that did not wind down, this stops its workers and the embedded emulator.
    await Promise.race([this.vitest?.close(), sleep(CLOSE_MS)]);
    const signal = this.signal!;
    const results = resultsWritten ? 'the results gathered so far are written' : 'no results were written';
    const { baseUrl, token } = this.config;
    if (!baseUrl || !token || this.config.readOnly) {
      const cleanup = this.config.readOnly ? 'a read-only run created nothing' : 'the embedded emulator is discarded with everything the run created';
      process.stderr.write(`conformance: interrupted by ${signal}: ${results}; ${cleanup}\n`);
      return signalExitCode(signal);
    }
    // Bounded like the run (rate cap, page cap): a request started just before the deadline still ends within CLEANUP_MS.
    const timeoutMs = Math.min(this.config.timeoutMs, CLEANUP_MS / 3);
    const ends = Date.now() + CLEANUP_MS;
    const http = new HttpClient(baseUrl, { timeoutMs, maxRps: this.config.maxRps, deadline: ends });
    const print = (line: string) => process.stderr.write(`conformance: ${line}\n`);
    let cleanup: string;
    try {
      // Imported here: it brings the checks' harness (vitest's expect, fast-check, ajv), which the run's own process
      // needs only when interrupted.
      const { sweep } = await import('./sweep.js');
      const outcome = await sweep({
        http,
        token,
        baseUrl,
        out: this.config.out,
        runIds: [this.config.runId],
        deadline: ends - timeoutMs,
        windowMs: this.config.consistencyWindowMs,
        print,
      });
      for (const line of outcome.unread) print(`not read: ${line}`);
      const left = outcome.remaining.length + outcome.unread.length;
      cleanup = `cleanup deleted ${outcome.deleted}, ${left ? `${outcome.remaining.length} remain${outcome.unread.length ? ` and ${outcome.unread.length} lists were not read to the end` : ''}: ${this.sweepCommand()}` : 'nothing it created remains'}`;
    } catch (error) {
      cleanup = `cleanup stopped (${(error as Error).message}): ${this.sweepCommand()}`;
    } finally {
      await http.close();
    }
    process.stderr.write(`conformance: interrupted by ${signal}: ${results}; ${cleanup}\n`);
    return signalExitCode(signal);
  }

  private sweepCommand(): string {
    const { runId, baseUrl, out } = this.config;
    return `conformance sweep --run-id ${runId} --base-url ${baseUrl && withoutCredentials(baseUrl)} --token … --out ${out}`;
  }
}
