// fast-check properties inside a check: the run's seed and number of runs, and a failure that carries the seed,
// the path and the shrunk counterexample, with a command that replays just that check.
import fc from 'fast-check';
import { RuleViolation, type Check } from './check.js';

export interface PropertyOptions {
  /** Runs (default: the configured runs per property), capped by `maxRuns`. */
  runs?: number;
  maxRuns?: number;
  /** Shrink a counterexample (default true); off where every run is costly. */
  shrink?: boolean;
}

/** Runs `predicate` on generated values; it fails through the check's `fail`/`expect…`, as any check does. */
export async function runProperty<T>(c: Check, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options: PropertyOptions = {}): Promise<void> {
  const seed = c.target.info.config.seed;
  const numRuns = Math.min(options.runs ?? c.target.info.config.runs, options.maxRuns ?? Infinity);
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), { numRuns, seed, endOnFailure: options.shrink === false });
  if (!details.failed) return;
  const cause = details.errorInstance;
  // A setup error, a skip or a harness bug keeps its own verdict.
  if (!(cause instanceof RuleViolation)) throw cause instanceof Error ? cause : new Error(String(cause));
  const counterexample = fc.stringify(details.counterexample?.[0]).slice(0, 2000);
  const replay = `npx conformance run --rules ${cause.rule} --seed ${seed}`;
  const failure = new RuleViolation(cause.rule, `${cause.message.replace(/^[^:]+: /, '')} — counterexample ${counterexample} (seed ${seed}, path ${details.counterexamplePath}; replay: ${replay})`, cause.exchange);
  Object.assign(failure, { replay: { seed, path: details.counterexamplePath ?? undefined, counterexample } });
  throw failure;
}
