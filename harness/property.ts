// fast-check properties inside a check: the run's seed and number of runs, and a failure that carries the seed,
// the path and the shrunk counterexample (the reports add the command that replays just that check).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { RuleViolation, type Check } from './check.js';

export interface PropertyOptions<T = unknown> {
  /** Runs (default: the configured runs per property), capped by `maxRuns`. */
  runs?: number;
  maxRuns?: number;
  /** Shrink a counterexample (default true); off where every run is costly. */
  shrink?: boolean;
  /**
   * Runs sent at once (default 1), to find out quickly that every run passes. Only for predicates whose runs cannot
   * disturb each other on a target that conforms (a body that must be refused). When one fails, the runs are replayed
   * one after another, as without this option (the same values, in order); on a faulty target a run sent at once may
   * break another rule only because of what another run did meanwhile, and what the runs at once left may hide the
   * fault from the replay: a break of the check's own (first) rule seen at once stands, the replay's otherwise.
   */
  concurrency?: number;
  /** Values run before the generated ones, within the same number of runs (fast-check's `examples`; not with `concurrency`). */
  examples?: T[];
}

const calls = new WeakMap<Check, number>();

/**
 * The seed of one property: the run's seed mixed with the check's identity (its rules, its name, and which of the
 * check's properties this is). Properties drawing from the same arbitrary then draw different values, so checks
 * running at the same time never send the same generated labels; the run's seed still replays each of them.
 */
export function propertySeed(c: Check, runSeed: number): number {
  const nth = calls.get(c) ?? 0;
  calls.set(c, nth + 1);
  const identity = `${runSeed} ${c.record.rules.join(' ')} ${c.key ?? ''} #${nth}`;
  return 1 + (createHash('sha256').update(identity).digest().readUInt32BE() % (2 ** 31 - 2));
}

/** A counterexample longer than this is cut, visibly (a shrunk one rarely is). */
export const COUNTEREXAMPLE_MAX = 20_000;

/** `text` whole, or its first COUNTEREXAMPLE_MAX characters and a mark saying how much is left out. */
export function elided(text: string): string {
  return text.length <= COUNTEREXAMPLE_MAX
    ? text
    : `${text.slice(0, COUNTEREXAMPLE_MAX)}… (${(text.length - COUNTEREXAMPLE_MAX).toLocaleString('en-US')} more characters left out)`;
}

/** Time a run is expected to need at least, over the longest run so far, before the check's deadline. */
const RUN_RESERVE_MS = 1000;

/**
 * The runs of one property within the check's time: a run is started only while the check's deadline leaves room for
 * it (twice the longest run so far, and a second). A slow target then gets its property judged on the runs that fit,
 * said on the check, rather than an `error` at the deadline with nothing judged.
 */
class RunClock {
  private longestMs = 0;
  /** Runs not started for want of time. */
  unrun = 0;

  constructor(private readonly c: Check) {}

  /** Whether there is time for one more run. */
  roomForRun(): boolean {
    return this.c.deadline - Date.now() > 2 * this.longestMs + RUN_RESERVE_MS;
  }

  async timed(run: () => Promise<void>): Promise<void> {
    const started = Date.now();
    try {
      await run();
    } finally {
      this.longestMs = Math.max(this.longestMs, Date.now() - started);
    }
  }

  /** Says on the check how many of its runs were judged, when not all were. */
  report(numRuns: number): void {
    if (this.unrun === 0 || this.c.record.message) return;
    const judged = numRuns - Math.min(this.unrun, numRuns);
    this.c.record.message = `judged on ${judged} of ${numRuns} generated values: the target answered too slowly for the rest within the check's time (the longest run took ${(this.longestMs / 1000).toFixed(1)} s)`;
  }
}

/** Runs `predicate` on generated values; it fails through the check's `fail`/`expect…`, as any check does. */
export async function runProperty<T>(
  c: Check,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<void> {
  const seed = c.target.info.config.seed;
  const checkSeed = propertySeed(c, seed);
  const numRuns = Math.min(options.runs ?? c.target.info.config.runs, options.maxRuns ?? Infinity);
  const clock = new RunClock(c);
  let ownRuleAtOnce: Broken<T> | undefined;
  if ((options.concurrency ?? 1) > 1) {
    // fc.sample draws the values fc.check draws below, in the same order.
    const broken = await brokenAtOnce(fc.sample(arbitrary, { numRuns, seed: checkSeed }), predicate, options.concurrency!, clock);
    if (!broken.length) return clock.report(numRuns);
    ownRuleAtOnce = broken.find(({ violation }) => violation.rule === c.record.rules[0]);
    clock.unrun = 0;
  }
  // A run ended by something other than a broken rule (no answer, setup, skip) would end every shrinking step the
  // same way, each after a timeout against a hanging target: the first such error ends the remaining runs at once.
  let stopped: unknown;
  // Shrinking keeps to the rule of the first failure: against a stateful target a replayed value may break another
  // rule only because of what the first run left (an address already taken), and is no smaller case of the first.
  let firstRule: string | undefined;
  const guarded = async (value: T): Promise<void> => {
    if (stopped !== undefined) throw stopped;
    // Out of time, a run is not sent: it passes unjudged and is counted (a skip would make fast-check draw again).
    if (!clock.roomForRun()) {
      clock.unrun++;
      return;
    }
    try {
      await clock.timed(() => predicate(value));
    } catch (error) {
      if (error instanceof RuleViolation && firstRule !== undefined && error.rule !== firstRule) return;
      if (error instanceof RuleViolation) firstRule = error.rule;
      if (!(error instanceof RuleViolation) && !fc.PreconditionFailure.isFailure(error)) stopped = error;
      throw error;
    }
  };
  const details = await fc.check(fc.asyncProperty(arbitrary, guarded), {
    numRuns,
    seed: checkSeed,
    endOnFailure: options.shrink === false || !c.target.info.config.shrink,
    ...(options.examples ? { examples: options.examples.map((value): [T] => [value]) } : {}),
  });
  const cause = details.errorInstance;
  if (ownRuleAtOnce && !(details.failed && cause instanceof RuleViolation && cause.rule === ownRuleAtOnce.violation.rule))
    throw generatedFailure(ownRuleAtOnce.violation, { seed, counterexample: elided(fc.stringify(ownRuleAtOnce.value)) }, 0);
  if (!details.failed) return clock.report(numRuns);
  // A setup error, a skip or a harness bug keeps its own verdict.
  if (!(cause instanceof RuleViolation)) throw cause instanceof Error ? cause : new Error(String(cause));
  const counterexample = elided(fc.stringify(details.counterexample?.[0]));
  throw generatedFailure(cause, { seed, path: details.counterexamplePath ?? undefined, counterexample }, details.numShrinks);
}

/**
 * The violation of a generated value: the message says what broke, once; the counterexample, seed and path travel
 * beside it (the reports show them once, with the one replay command built from the whole run's settings).
 */
function generatedFailure(cause: RuleViolation, replay: { seed: number; path?: string; counterexample: string }, shrinks: number): RuleViolation {
  const failure = new RuleViolation(
    cause.rule,
    `${cause.message.replace(/^[^:]+: /, '')} (a generated value, shrunk in ${shrinks} step${shrinks === 1 ? '' : 's'})`,
    cause.exchange,
  );
  Object.assign(failure, { replay });
  return failure;
}

interface Broken<T> {
  value: T;
  violation: RuleViolation;
}

/**
 * `predicate` on every value, `concurrency` at a time, until a run breaks a rule (the runs in flight then finish) or
 * the check's time runs short: the runs that broke one. A discarded run (`fc.pre`) counts as passed. A run ended otherwise than by a broken rule
 * (no answer, setup, skip) ends the check with that error, as it would one run at a time.
 */
async function brokenAtOnce<T>(values: T[], predicate: (value: T) => Promise<void>, concurrency: number, clock: RunClock): Promise<Broken<T>[]> {
  let next = 0;
  const broken: Broken<T>[] = [];
  let ended: unknown;
  const worker = async () => {
    while (next < values.length && !broken.length && ended === undefined) {
      if (!clock.roomForRun()) {
        clock.unrun = values.length - next;
        return;
      }
      const value = values[next++]!;
      try {
        await clock.timed(() => predicate(value));
      } catch (error) {
        if (error instanceof RuleViolation) broken.push({ value, violation: error });
        else if (!fc.PreconditionFailure.isFailure(error)) ended ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, values.length) }, worker));
  if (ended !== undefined && !broken.length) throw ended;
  return broken;
}
