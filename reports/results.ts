// results.json: the contract every report builds on. Rule statuses are aggregated from the checks that declare a
// rule and from the named-check findings attributed to it.
import { ledger } from '../rules/index.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';
import type { CheckRecord, Verdict } from '../harness/check.js';
import type { Exchange } from '../harness/http.js';

export interface CheckOutcome {
  /** Test name, e.g. `[P3.firewall.rules.max-25] a 26th rule is refused`. */
  name: string;
  file: string;
  verdict: Verdict;
  message?: string;
  record?: CheckRecord;
}

export interface RuleResult {
  id: string;
  level: 'MUST' | 'SHOULD';
  /** `untested` only for rules the ledger marks not black-box testable, or when a filter left them out. */
  status: Verdict | 'untested';
  /** SHOULD rules whose checks saw a divergence: reported as warnings, never as fails. */
  warning?: string;
  checks: Array<{ name: string; verdict: Verdict | 'finding'; message?: string; evidence?: Exchange[]; seed?: number; path?: string; counterexample?: string }>;
}

export interface Results {
  target: string;
  started: string;
  finished: string;
  documentsVersion: string;
  summary: Record<Verdict, number>;
  checks: Record<Verdict, number>;
  warnings: number;
  rules: RuleResult[];
  endpoints: Array<{ method: string; path: string; requests: number }>;
}

const ORDER: Array<Verdict | 'untested'> = ['fail', 'error', 'pass', 'skip', 'disabled', 'untested'];

export function buildResults(outcomes: CheckOutcome[], meta: { target: string; started: string; finished: string }): Results {
  const byRule = new Map<string, RuleResult>(ledger.map((rule) => [rule.id, { id: rule.id, level: rule.level, status: 'untested', checks: [] }]));
  const requests = new Map<string, number>();
  const worst = (a: Verdict | 'untested', b: Verdict | 'untested') => (ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b);
  const checkCounts: Record<Verdict, number> = { pass: 0, fail: 0, error: 0, skip: 0, disabled: 0 };

  for (const outcome of outcomes) {
    checkCounts[outcome.verdict]++;
    const record = outcome.record;
    for (const [key, count] of Object.entries(record?.endpoints ?? {})) requests.set(key, (requests.get(key) ?? 0) + count);
    for (const id of record?.rules ?? []) {
      const rule = byRule.get(id);
      if (!rule) continue;
      // A failing check of several rules fails the rule it names; the others it declared are not judged by it.
      const verdict: Verdict = outcome.verdict === 'fail' && record?.failedRule && record.failedRule !== id ? 'pass' : outcome.verdict;
      const failed = verdict === 'fail';
      rule.checks.push({ name: outcome.name, verdict, ...(outcome.message && verdict !== 'pass' ? { message: outcome.message } : {}), ...(failed ? { evidence: record?.exchanges, seed: record?.seed, path: record?.path, counterexample: record?.counterexample } : {}) });
      applyVerdict(rule, verdict, outcome.message);
    }
    if (record?.failedRule && !record.rules.includes(record.failedRule)) {
      const rule = byRule.get(record.failedRule);
      if (rule) {
        rule.checks.push({ name: outcome.name, verdict: 'fail', message: outcome.message, evidence: record.exchanges });
        applyVerdict(rule, 'fail', outcome.message);
      }
    }
    // Response-schema rules judged on the check's responses hold unless a finding below says otherwise.
    if (outcome.verdict !== 'error')
      for (const id of record?.exercised ?? []) {
        const rule = byRule.get(id);
        if (rule && rule.status === 'untested') rule.status = 'pass';
      }
    for (const finding of record?.findings ?? []) {
      const rule = byRule.get(finding.rule);
      if (!rule) continue;
      if (rule.checks.filter((c) => c.verdict === 'finding').length < 5)
        rule.checks.push({ name: `${outcome.name} — response check on ${finding.request}`, verdict: 'finding', message: `${finding.path}: ${finding.message}`, evidence: record?.exchanges });
      applyVerdict(rule, 'fail', `${finding.request} ${finding.path}: ${finding.message}`);
      if (rule.status === 'untested') rule.status = 'pass';
    }
  }

  function applyVerdict(rule: RuleResult, verdict: Verdict, message?: string): void {
    if (verdict === 'fail' && rule.level === 'SHOULD') {
      rule.warning ??= message ?? 'a check saw a divergence from this inferred rule';
      rule.status = worst(rule.status, 'pass');
      return;
    }
    rule.status = rule.status === 'untested' ? verdict : worst(rule.status, verdict);
  }

  const rules = [...byRule.values()];
  const summary: Record<Verdict, number> = { pass: 0, fail: 0, error: 0, skip: 0, disabled: 0 };
  for (const rule of rules) if (rule.status !== 'untested') summary[rule.status]++;
  return {
    target: meta.target,
    started: meta.started,
    finished: meta.finished,
    documentsVersion: '4.123.1',
    summary,
    checks: checkCounts,
    warnings: rules.filter((rule) => rule.warning).length,
    rules,
    endpoints: endpoints.map((endpoint) => ({ method: endpoint.method, path: endpoint.path, requests: requests.get(endpointKey(endpoint)) ?? 0 })),
  };
}
