// Request-side cases as data (in the manner of JSON-Schema-Test-Suite): for every endpoint taking a body, the
// boundary cases the schemas derive from each valid sample (min−1, min, max, max+1, every enum member), each a
// whole body the documents say the endpoint accepts or rejects, grouped by the rule it exercises.
import { loadContract, validateValue } from './contract.js';
import { boundaryCases, withValue, type BoundaryCase } from './boundaries.js';
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
const valueAt = (body: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], body);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Json = Record<string, unknown>;

/** Names of the members a schema's `if` branches test (a record's `type`): other members' rules hang on them. */
function conditionedMembers(node: unknown, found = new Set<string>()): Set<string> {
  if (!node || typeof node !== 'object') return found;
  const condition = (node as Json).if as Json | undefined;
  for (const name of Object.keys((condition?.properties as Json | undefined) ?? {})) found.add(name);
  for (const child of Object.values(node)) conditionedMembers(child, found);
  return found;
}

/**
 * The bodies a boundary says are accepted. An enum member comes from a sample that already carries it, else from
 * the sample changed, unless other members' rules hang on that member (a record of another type needs other
 * members). A resized value is offered only where nothing else constrains the member's form (a one-character
 * string is no domain name).
 */
function acceptedBodies(schema: string, boundary: BoundaryCase, base: unknown, conditioned: Set<string>): { body: unknown; base: unknown }[] {
  if (boundary.keyword !== 'enum') return boundary.shaped ? [] : boundary.inside.map((value) => ({ body: withValue(base, boundary.pointer, value), base }));
  return boundary.inside.flatMap((member) => {
    const carrier = samples[schema]!.find((sample) => same(valueAt(sample, boundary.pointer), member));
    if (carrier) return [{ body: carrier, base: carrier }];
    return conditioned.has(boundary.pointer.split('/').at(-1)!) ? [] : [{ body: withValue(base, boundary.pointer, member), base }];
  });
}

/**
 * Every boundary case of every endpoint with a request body. An accepting case is kept only where the whole body
 * is valid, a rejecting one only where the body breaks its rule and nothing else, so each case means one thing.
 */
function requestCases(): RequestCase[] {
  const cases: RequestCase[] = [];
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    if (!endpoint.request) continue;
    const schema = endpoint.request;
    const conditioned = conditionedMembers(loadContract().documents.get(schema));
    for (const sample of samples[schema] ?? []) {
      for (const boundary of boundaryCases(schema, sample)) {
        const variants = [
          ...acceptedBodies(schema, boundary, sample, conditioned).map((accepted) => ({ ...accepted, expect: 'accept' as const })),
          ...boundary.outside.map((value) => ({ body: withValue(sample, boundary.pointer, value), base: sample, expect: 'reject' as const })),
        ];
        for (const { body, base, expect } of variants) {
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
