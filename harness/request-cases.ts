// Request-side cases as data (in the manner of JSON-Schema-Test-Suite): for every endpoint taking a body, the
// boundary cases the schemas derive from each valid sample (min−1, min, max, max+1, every enum member), each a
// whole body the documents say the endpoint accepts or rejects, grouped by the rule it exercises.
import { validateValue } from './contract.js';
import { boundaryCases, withValue } from './boundaries.js';
import { samples } from './samples.js';
import { endpointKey, endpoints } from '../rules/endpoints.js';

export interface RequestCase {
  rule: string;
  /** `METHOD /path` as in the catalogue. */
  endpoint: string;
  body: unknown;
  expect: 'accept' | 'reject';
  /** Dot path of the member the case changes (`rules.inbound.0.ports`), or null when it is the whole body. */
  field: string | null;
  /** The valid sample the case changes: a target that refuses this one has no ground to judge the case on. */
  base: unknown;
}

const fieldOf = (pointer: string): string | null => (pointer ? pointer.slice(1).split('/').join('.') : null);
const ruleSet = (schema: string, body: unknown) => [...new Set(validateValue(schema, body).map((violation) => violation.rule))];

/**
 * Every boundary case of every endpoint with a request body. An accepting case is kept only where the whole body
 * is valid, a rejecting one only where the body breaks its rule and nothing else, so each case means one thing.
 */
export function requestCases(): RequestCase[] {
  const cases: RequestCase[] = [];
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    if (!endpoint.request) continue;
    const schema = endpoint.request;
    for (const base of samples[schema] ?? []) {
      for (const boundary of boundaryCases(schema, base)) {
        const variants = [
          ...boundary.inside.map((value) => ({ value, expect: 'accept' as const })),
          ...boundary.outside.map((value) => ({ value, expect: 'reject' as const })),
        ];
        for (const { value, expect } of variants) {
          const body = withValue(base, boundary.pointer, value);
          const rules = ruleSet(schema, body);
          const clean = expect === 'accept' ? rules.length === 0 : rules.length === 1 && rules[0] === boundary.rule;
          const testCase: RequestCase = { rule: boundary.rule, endpoint: endpointKey(endpoint), body, expect, field: fieldOf(boundary.pointer), base };
          const key = JSON.stringify([testCase.rule, testCase.endpoint, body, expect]);
          if (!clean || seen.has(key)) continue;
          seen.add(key);
          cases.push(testCase);
        }
      }
    }
  }
  return cases;
}

/** The cases grouped by rule id, rules in ledger-id order. */
export function casesByRule(cases: RequestCase[] = requestCases()): Map<string, RequestCase[]> {
  const byRule = new Map<string, RequestCase[]>();
  for (const testCase of [...cases].sort((a, b) => a.rule.localeCompare(b.rule))) byRule.set(testCase.rule, [...(byRule.get(testCase.rule) ?? []), testCase]);
  return byRule;
}
