// results.json: the contract every report builds on. Rule statuses are aggregated from the checks that declare a
// rule and from the named-check findings attributed to it.
import { DOCUMENTS_VERSION, ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import type { SuiteConfig } from '../harness/config.js';
import type { CheckRecord, Verdict } from '../harness/check.js';
import type { CostRecord } from '../harness/target.js';
import type { Exchange } from '../harness/http.js';
import { withoutCredentials } from '../harness/redact.js';
import { documentCoverage } from '../rules/coverage.js';
import { DOCUMENTS, areaOfRule, areaOfRuleIds, documentOf, type DocumentId } from './areas.js';
import type { Expectation, ExpectationsReport } from './expectations.js';
import { curlCommand, replayCommand, replaySettingsOf, type ReplaySettings } from './reproduce.js';

export { replayCommand };

export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'error', 'skip', 'disabled'];
/**
 * A rule's status: the worst verdict of its checks; `warning` is a SHOULD rule a check saw diverge (never a fail);
 * `expected` a fail or warning the run's expectations file excuses (reports/expectations.ts).
 */
export type RuleStatus = Verdict | 'warning' | 'expected';
export const RULE_STATUSES: readonly RuleStatus[] = ['pass', 'fail', 'expected', 'error', 'warning', 'skip', 'disabled'];
/** How much of a rule was judged: every check reached pass or fail (`full`), some did (`partial`), none did (`none`). */
type Judgement = 'full' | 'partial' | 'none';
const SCORE_DEFINITION = 'MUST rules that passed ÷ MUST rules judged (passed or failed); SHOULD rules, errors, skips and rules not run do not count';

export interface CheckOutcome {
  /** Test name, e.g. `[P3.firewall.rules.max-25] a 26th rule is refused`. */
  name: string;
  /** Spec file, relative to the project root. */
  file: string;
  verdict: Verdict;
  message?: string;
  durationMs?: number;
  record?: CheckRecord;
}

/** What a replay needs to know about the run (never a token). */
export interface RunInfo {
  id: string;
  seed: number;
  runs: number;
  violationRuns: number;
  /** null: the embedded reference emulator. */
  baseUrl: string | null;
  emulatorFaults: string[];
  /** Absent in results written before variations existed. */
  emulatorVariations?: string[];
  rules: string[] | null;
  areas: string[] | null;
  /** `i/n` when the run was one shard of n (a partial run). */
  shard: string | null;
  /** The seed the spec files' order was drawn from (`--shuffle`); null or absent: vitest's own order. */
  shuffle?: number | null;
  /** What the replay command repeats of the run's settings (absent in results written before replays carried them). */
  settings?: ReplaySettings;
}

export interface RuleCheck {
  name: string;
  verdict: Verdict | 'finding';
  message?: string;
  /** Spec file of the check (fails and findings). */
  file?: string;
  evidence?: Exchange[];
  seed?: number;
  path?: string;
  counterexample?: string;
  /** A one-line command that runs just this rule's checks of that spec file again, with the run's seed and settings. */
  replay?: string;
  /** Index in `evidence` of the exchange that broke the rule. */
  failingExchange?: number;
  /** curl sending the failing exchange again (the token as $TOKEN). */
  curl?: string;
}

export interface RuleResult {
  id: string;
  level: 'MUST' | 'SHOULD';
  /**
   * The worst verdict of its checks (fail, error, warning, pass, skip, disabled); `warning`: a SHOULD rule a check saw
   * diverge. `untested` only for rules the ledger marks not black-box testable, or that no check reached.
   */
  status: RuleStatus | 'untested';
  /** SHOULD rules whose checks saw a divergence: reported as warnings, never as fails (the first message). */
  warning?: string;
  /** Checks that reached pass or fail for this rule (its own checks, and the checks whose responses it was judged on). */
  checksJudged: number;
  /** Every check of the rule, skipped, errored and disabled ones included. */
  checksTotal: number;
  /** `full`: every check judged; `partial`: some skipped, errored or disabled (a `pass` of what was judged only); `none`. */
  judgement: Judgement;
  document: DocumentId;
  /** The heading of the document the rule sits under. */
  section: string;
  /** That heading's anchor in the document's file (GitHub's slug), e.g. `common-conventions`. */
  anchor: string;
  area: string;
  /** The rule in one sentence, in the documents' terms. */
  sentence: string;
  /** The document's own words: the sentences and table rows that state the rule (absent in results of older versions). */
  quotes?: string[];
  /** Why no black-box check is possible (rules the ledger marks untestable). */
  untestable?: string;
  /** The expectation excusing its fail (status `expected`). */
  expected?: Expectation;
  checks: RuleCheck[];
}

export interface EndpointCoverage {
  method: string;
  path: string;
  requests: number;
  requested: boolean;
  document: DocumentId;
  area: string;
  /** Verdicts of the checks that sent at least one request to the endpoint. */
  verdicts: Record<Verdict, number>;
}

/** A check's title: its name without the leading `[rule ids]` the harness puts before it. */
export const checkTitle = (name: string): string => name.replace(/^\[[^\]]*\] /, '');

/** One check as run (JUnit writes one test case per entry). */
export interface CheckResult {
  name: string;
  file: string;
  area: string;
  rules: string[];
  verdict: Verdict;
  message?: string;
  failedRule?: string;
  durationMs?: number;
  /** What the check created and needed, and the rules its responses were judged against (specs/plan/costs.json). */
  cost?: CostRecord & { exercised: string[] };
  /** Reads after writes that waited out the consistency window in vain: a correct server showing writes at once costs none. */
  unsettledReads?: number;
}

/** Index of every fail: the rule, the check that saw it, and how to replay it (evidence sits in `rules[].checks`). */
interface Failure {
  rule: string;
  check: string;
  file: string;
  replay: string;
  /** The fail is excused by the run's expectations file (the rule's status is `expected`). */
  expected?: boolean;
}

interface Score {
  /** Percent with one decimal; null when no MUST rule was judged. */
  percent: number | null;
  passedMust: number;
  judgedMust: number;
  definition: string;
}

export interface Results {
  /** Base URL, or "embedded reference emulator". */
  target: string;
  started: string;
  finished: string;
  /** When the run started. */
  date: string;
  documentsVersion: string;
  run: RunInfo;
  score: Score;
  /** Rules per status. */
  summary: Record<RuleStatus, number>;
  /** Testable rules by how much of them was judged (see RuleResult.judgement); `untestable`: the ledger says why. */
  judgement: Record<Judgement | 'untestable', number>;
  /** Checks per verdict. */
  checks: Record<Verdict, number>;
  /** SHOULD rules with a finding (status `warning`). */
  warnings: number;
  /** Rules not judged: marked untestable by the ledger, or reached by no check. */
  untested: number;
  /** Why the run's setup failed (nothing was judged); absent when it did not. */
  setupError?: string;
  /** The expectations file the run was given, and what became of each entry (absent without one). */
  expectations?: ExpectationsReport;
  /** The shard results this one was merged from (`conformance report --from A --from B …`). */
  merged?: { from: string[]; shards: string[] };
  documents: typeof DOCUMENTS;
  /** How much of each document the ledger judges: its units (sentences, table rows), judged by rules or excused. */
  documentCoverage?: Record<DocumentId, { units: number; judged: number; excused: number }>;
  rules: RuleResult[];
  endpoints: EndpointCoverage[];
  checkList: CheckResult[];
  failures: Failure[];
}

const ORDER: Array<RuleStatus | 'untested'> = ['fail', 'expected', 'error', 'warning', 'pass', 'skip', 'disabled', 'untested'];

/** The worse of two rule statuses (a fail over an error over a warning over a pass over a skip …). */
export function worseStatus(a: RuleStatus | 'untested', b: RuleStatus | 'untested'): RuleStatus | 'untested' {
  return ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b;
}

const zeroCounts = (): Record<Verdict, number> => ({ pass: 0, fail: 0, error: 0, skip: 0, disabled: 0 });

export function targetOf(config: Pick<SuiteConfig, 'baseUrl'>): string {
  return config.baseUrl ? withoutCredentials(config.baseUrl) : 'embedded reference emulator';
}

export function runInfoOf(config: SuiteConfig): RunInfo {
  return {
    id: config.runId,
    seed: config.seed,
    runs: config.runs,
    violationRuns: config.violationRuns,
    baseUrl: config.baseUrl && withoutCredentials(config.baseUrl),
    emulatorFaults: config.emulatorFaults,
    emulatorVariations: config.emulatorVariations,
    rules: config.rules,
    areas: config.areas,
    shard: config.shard,
    shuffle: config.shuffle,
    settings: replaySettingsOf(config),
  };
}

/** The rule id that selects a check again: the one it failed, if it declares it, else the first it declares. */
function selectingRule(record: CheckRecord | undefined, fallback: string): string {
  if (!record?.rules.length) return fallback;
  return record.failedRule && record.rules.includes(record.failedRule) ? record.failedRule : record.rules[0]!;
}

export function buildResults(
  outcomes: CheckOutcome[],
  meta: { target: string; started: string; finished: string; run: RunInfo; setupError?: string },
): Results {
  const byRule = new Map<string, RuleResult>(
    ledger.map((rule) => [
      rule.id,
      {
        id: rule.id,
        level: rule.level,
        status: 'untested',
        checksJudged: 0,
        checksTotal: 0,
        judgement: 'none',
        document: documentOf(rule),
        section: rule.section,
        anchor: rule.anchor,
        area: areaOfRule(rule),
        sentence: rule.rule,
        quotes: rule.quotes,
        ...(rule.check.startsWith('untestable: ') ? { untestable: rule.check.slice('untestable: '.length) } : {}),
        checks: [],
      },
    ]),
  );
  const requests = new Map<string, number>();
  const endpointVerdicts = new Map<string, Record<Verdict, number>>();
  const checkCounts = zeroCounts();
  const failures: Failure[] = [];

  /** A fail or finding entry with its evidence and replay; those of MUST rules are indexed in `failures` (SHOULD ones are warnings). */
  function failedEntry(outcome: CheckOutcome, rule: RuleResult, verdict: 'fail' | 'finding', fields: Partial<RuleCheck>): RuleCheck {
    const replay = replayCommand(meta.run, selectingRule(outcome.record, rule.id), outcome.file);
    if (rule.level === 'MUST' && !failures.some((failure) => failure.rule === rule.id && failure.check === outcome.name))
      failures.push({ rule: rule.id, check: outcome.name, file: outcome.file, replay });
    const failing = verdict === 'fail' && outcome.record?.failingExchange !== undefined ? outcome.record.exchanges[outcome.record.failingExchange] : undefined;
    const curl = failing && curlCommand(failing, meta.run.baseUrl);
    const reproduction = failing ? { failingExchange: outcome.record!.failingExchange, ...(curl ? { curl } : {}) } : {};
    return { name: outcome.name, verdict, file: outcome.file, evidence: outcome.record?.exchanges, ...fields, replay, ...reproduction };
  }

  /** One more check of `rule`; pass and fail (and a finding) judged it. */
  function count(rule: RuleResult, verdict: Verdict | 'finding'): void {
    rule.checksTotal++;
    if (verdict === 'pass' || verdict === 'fail' || verdict === 'finding') rule.checksJudged++;
  }

  for (const outcome of outcomes) {
    checkCounts[outcome.verdict]++;
    const record = outcome.record;
    for (const [key, count] of Object.entries(record?.endpoints ?? {})) {
      requests.set(key, (requests.get(key) ?? 0) + count);
      const verdicts = endpointVerdicts.get(key) ?? zeroCounts();
      verdicts[outcome.verdict]++;
      endpointVerdicts.set(key, verdicts);
    }
    for (const id of record?.rules ?? []) {
      const rule = byRule.get(id);
      if (!rule) continue;
      // A failing check of several rules fails the rule it names (and the general rules that break breaks too); the
      // others it declared are not judged by it.
      const broken = record?.failedRule === id || record?.alsoFailed?.includes(id);
      const verdict: Verdict = outcome.verdict === 'fail' && record?.failedRule && !broken ? 'pass' : outcome.verdict;
      // A pass carries a message only when it was judged on fewer generated values than asked (harness/property.ts).
      const message = outcome.message && (verdict !== 'pass' || outcome.verdict === 'pass') ? { message: outcome.message } : {};
      rule.checks.push(
        verdict === 'fail'
          ? failedEntry(outcome, rule, 'fail', { ...message, seed: record?.seed, path: record?.path, counterexample: record?.counterexample })
          : { name: outcome.name, verdict, ...message },
      );
      count(rule, verdict);
      applyVerdict(rule, verdict, outcome.message);
    }
    if (record?.failedRule && !record.rules.includes(record.failedRule)) {
      const rule = byRule.get(record.failedRule);
      if (rule) {
        rule.checks.push(failedEntry(outcome, rule, 'fail', { message: outcome.message }));
        count(rule, 'fail');
        applyVerdict(rule, 'fail', outcome.message);
      }
    }
    // Rules judged on the check's responses (schema rules; a finding marks the ones broken) count it as one check.
    const judgedOnResponses = new Set<string>([
      ...(outcome.verdict !== 'error' ? (record?.exercised ?? []) : []),
      ...(record?.findings ?? []).map((finding) => finding.rule),
    ]);
    for (const id of judgedOnResponses) {
      const rule = byRule.get(id);
      if (!rule || record?.rules.includes(id) || record?.failedRule === id) continue;
      const found = record?.findings.some((finding) => finding.rule === id);
      count(rule, found ? 'finding' : 'pass');
      if (!found) applyVerdict(rule, 'pass');
    }
    for (const finding of record?.findings ?? []) {
      const rule = byRule.get(finding.rule);
      if (!rule) continue;
      if (rule.checks.filter((c) => c.verdict === 'finding').length < 5)
        rule.checks.push(
          failedEntry(outcome, rule, 'finding', {
            name: `${outcome.name} — response check on ${finding.request}`,
            message: `${finding.path}: ${finding.message}`,
          }),
        );
      applyVerdict(rule, 'fail', `${finding.request} ${finding.path}: ${finding.message}`);
    }
  }

  function applyVerdict(rule: RuleResult, verdict: Verdict, message?: string): void {
    let status: RuleStatus = verdict;
    if (verdict === 'fail' && rule.level === 'SHOULD') {
      rule.warning ??= message ?? 'a check saw a divergence from this inferred rule';
      status = 'warning';
    }
    rule.status = rule.status === 'untested' ? status : worseStatus(rule.status, status);
  }

  const rules = [...byRule.values()];
  return {
    target: meta.target,
    started: meta.started,
    finished: meta.finished,
    date: meta.started,
    documentsVersion: DOCUMENTS_VERSION,
    run: meta.run,
    ...tallyRules(rules),
    checks: checkCounts,
    ...(meta.setupError ? { setupError: meta.setupError } : {}),
    documents: DOCUMENTS,
    documentCoverage: Object.fromEntries(
      documentCoverage().map((entry) => [`part${entry.part}`, { units: entry.units, judged: entry.mapped, excused: entry.excused }]),
    ) as Results['documentCoverage'],
    rules,
    endpoints: endpoints.map((endpoint) => {
      const key = endpointKey(endpoint);
      const count = requests.get(key) ?? 0;
      return {
        method: endpoint.method,
        path: endpoint.path,
        requests: count,
        requested: count > 0,
        document: endpoint.document,
        area: endpoint.section,
        verdicts: endpointVerdicts.get(key) ?? zeroCounts(),
      };
    }),
    checkList: outcomes.map((outcome) => {
      const rules = outcome.record?.rules ?? [];
      return {
        name: outcome.name,
        file: outcome.file,
        area: areaOfRuleIds(rules),
        rules,
        verdict: outcome.verdict,
        ...(outcome.message ? { message: outcome.message } : {}),
        ...(outcome.record?.failedRule ? { failedRule: outcome.record.failedRule } : {}),
        ...(outcome.durationMs !== undefined ? { durationMs: outcome.durationMs } : {}),
        ...(outcome.record?.cost ? { cost: { ...outcome.record.cost, exercised: outcome.record.exercised } } : {}),
        ...(outcome.record?.unsettledReads ? { unsettledReads: outcome.record.unsettledReads } : {}),
      };
    }),
    failures,
  };
}

/** The counts a results.json derives from its rules (set again after expectations are applied or shards merged). */
export function tallyRules(rules: RuleResult[]): Pick<Results, 'score' | 'summary' | 'judgement' | 'warnings' | 'untested'> {
  const summary: Record<RuleStatus, number> = { ...zeroCounts(), warning: 0, expected: 0 };
  const judgement = { full: 0, partial: 0, none: 0, untestable: 0 };
  for (const rule of rules) {
    if (rule.status !== 'untested') summary[rule.status]++;
    rule.judgement = rule.checksJudged === 0 ? 'none' : rule.checksJudged === rule.checksTotal ? 'full' : 'partial';
    judgement[rule.untestable && rule.checksTotal === 0 ? 'untestable' : rule.judgement]++;
  }
  const must = rules.filter((rule) => rule.level === 'MUST');
  const passedMust = must.filter((rule) => rule.status === 'pass').length;
  // An expected fail is still a fail of the target: expectations change the gate, not the score.
  const judgedMust = passedMust + must.filter((rule) => rule.status === 'fail' || rule.status === 'expected').length;
  return {
    score: { percent: judgedMust ? Math.floor((1000 * passedMust) / judgedMust) / 10 : null, passedMust, judgedMust, definition: SCORE_DEFINITION },
    summary,
    judgement,
    warnings: rules.filter((rule) => rule.warning && rule.status !== 'expected').length,
    untested: rules.filter((rule) => rule.status === 'untested').length,
  };
}
