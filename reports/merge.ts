// The results of a run spread over CI machines (`run --shard i/n`) merged into one: checks, endpoint requests and
// counts are the union; a rule judged in several shards takes the worst status. Expectations are applied again to
// the merged rules (a rule may fail in one shard and pass in another: it failed).
import { applyExpectations, withoutExpectations, type Expectations } from './expectations.js';
import { tallyRules, worseStatus, type EndpointCoverage, type Results, type RuleResult } from './results.js';
import { ResultsFileError } from './write.js';

export interface ShardResults {
  /** Where the results were read from (named in the merged report). */
  file: string;
  results: Results;
}

function mergeRule(a: RuleResult, b: RuleResult): RuleResult {
  const warning = a.warning ?? b.warning;
  return {
    ...a,
    status: worseStatus(a.status, b.status),
    checksJudged: a.checksJudged + b.checksJudged,
    checksTotal: a.checksTotal + b.checksTotal,
    ...(warning ? { warning } : {}),
    checks: [...a.checks, ...b.checks],
  };
}

function mergeEndpoint(a: EndpointCoverage, b: EndpointCoverage): EndpointCoverage {
  const verdicts = { ...a.verdicts };
  for (const [verdict, count] of Object.entries(b.verdicts) as Array<[keyof typeof verdicts, number]>) verdicts[verdict] += count;
  return { ...a, requests: a.requests + b.requests, requested: a.requested || b.requested, verdicts };
}

/** Merges items keyed alike, in the order of their first appearance. */
function mergeBy<T>(lists: T[][], key: (item: T) => string, merge: (a: T, b: T) => T): T[] {
  const merged = new Map<string, T>();
  for (const item of lists.flat()) {
    const known = merged.get(key(item));
    merged.set(key(item), known ? merge(known, item) : item);
  }
  return [...merged.values()];
}

/** `1/3, 2/3 of 3` is incomplete; every slice of one n is the whole run. */
function shardsCoverRun(shards: Array<string | null>): boolean {
  if (shards.some((shard) => shard === null)) return true;
  const counts = new Set(shards.map((shard) => shard!.split('/')[1]));
  if (counts.size !== 1) return false;
  const n = Number([...counts][0]);
  return new Set(shards).size === n;
}

export function mergeResults(parts: ShardResults[]): Results {
  const [first, ...others] = parts;
  if (!first) throw new ResultsFileError('nothing to merge');
  for (const { file, results } of others) {
    if (results.target !== first.results.target)
      throw new ResultsFileError(
        `${file} ran against ${results.target}, ${first.file} against ${first.results.target}: merge the shards of one target only (\`conformance diff\` compares two targets)`,
      );
    if (results.documentsVersion !== first.results.documentsVersion)
      throw new ResultsFileError(`${file} judged documents ${results.documentsVersion}, ${first.file} documents ${first.results.documentsVersion}`);
  }
  const seen = new Map<string, string>();
  for (const { file, results } of parts) {
    const key = `${results.run.id} ${results.run.shard ?? 'whole'}`;
    if (seen.has(key))
      throw new ResultsFileError(
        `${file} and ${seen.get(key)} are the same results (run ${results.run.id}${results.run.shard ? `, shard ${results.run.shard}` : ''}): each would be counted twice`,
      );
    seen.set(key, file);
  }
  const bare = parts.map((part) => withoutExpectations(part.results));
  const rules = mergeBy(
    bare.map((results) => results.rules),
    (rule) => rule.id,
    mergeRule,
  );
  const checks = { ...bare[0]!.checks };
  for (const results of bare.slice(1))
    for (const [verdict, count] of Object.entries(results.checks) as Array<[keyof typeof checks, number]>) checks[verdict] += count;
  const shards = bare.map((results) => results.run.shard);
  const setupErrors = [...new Set(bare.flatMap((results) => (results.setupError ? [results.setupError] : [])))];
  const started = bare.map((results) => results.started).sort()[0]!;
  const merged: Results = {
    ...bare[0]!,
    started,
    date: started,
    finished: bare
      .map((results) => results.finished)
      .sort()
      .at(-1)!,
    run: { ...bare[0]!.run, shard: shardsCoverRun(shards) ? null : shards.join(', ') },
    ...tallyRules(rules),
    checks,
    ...(setupErrors.length ? { setupError: setupErrors.join('; ') } : {}),
    rules,
    endpoints: mergeBy(
      bare.map((results) => results.endpoints),
      (endpoint) => `${endpoint.method} ${endpoint.path}`,
      mergeEndpoint,
    ),
    checkList: bare.flatMap((results) => results.checkList),
    failures: bare.flatMap((results) => results.failures),
    merged: { from: parts.map((part) => part.file), shards: shards.map((shard) => shard ?? 'whole run') },
  };
  const withExpectations = parts.filter((part) => part.results.expectations);
  if (!withExpectations.length) return merged;
  const entries: Expectations = Object.assign({}, ...withExpectations.map((part) => part.results.expectations!.entries));
  return applyExpectations(merged, entries, [...new Set(withExpectations.map((part) => part.results.expectations!.file))].join(', '));
}
