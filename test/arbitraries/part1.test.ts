import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodies } from '../../arbitraries/part1.js';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import type { Violation } from '../../arbitraries/types.js';
import { loadContract, validateValue } from '../../harness/contract.js';
import { namedRules, walkSchema } from '../contract/audit.js';

const RUNS = { numRuns: 50 };

/** Request schemas of document 1, one body generator each. */
const SCHEMAS = [
  'requests/database-create', 'requests/database-update', 'requests/database-snapshot-create', 'requests/account-update',
  'requests/account-cancel', 'requests/credit-card', 'requests/entity-transfer-create', 'requests/oauth-client-create',
  'requests/oauth-client-update',
];

/**
 * Rules a schema names that no violation needs to cover, with why. Empty: every type rule is covered by a
 * wrong-typed member (members with an enum excepted, whose enum rule is covered instead).
 */
const EXEMPT: Array<{ rule: string; why: string }> = [];

/** Rules reported by the x-checks of the schemas (not named by `x-rule`), which violations must cover too. */
const X_CHECK_RULES: Record<string, string[]> = {
  'requests/account-update': ['P1.account.state.us-ca-code'],
};

const rulesOf = (schema: string, body: unknown) => [...new Set(validateValue(schema, body).map((violation) => violation.rule))];
const pointerOf = (field: string) => `/${field.split('.').join('/')}`;

function lookup(body: unknown, path: string[]): { found: boolean; parentFound: boolean } {
  let node: unknown = body;
  for (const [i, key] of path.entries()) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return { found: false, parentFound: i === path.length - 1 };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, parentFound: true };
}

/** `field` names a member of the body, or (a missing required member) a member absent from an existing parent. */
function fieldIsInBody(violation: Violation, body: unknown): boolean {
  if (violation.field === null) return true;
  const { found, parentFound } = lookup(body, violation.field.split('.'));
  return violation.rule.endsWith('.required') ? !found && parentFound : found;
}

const violationCases = Object.values(bodies).flatMap((body) =>
  body.violations.map((violation, i) => [`${body.schema} #${i} ${violation.rule} ${violation.field ?? '(no field)'} [${violation.judgedBy}]`, body.schema, violation] as const),
);

describe('document 1 body generators', () => {
  it('cover exactly the request schemas of document 1', () => {
    expect(Object.keys(bodies).sort()).toEqual([...SCHEMAS].sort());
    for (const [name, body] of Object.entries(bodies)) expect(body.schema).toBe(name);
  });

  it.each(SCHEMAS)('%s: valid bodies are schema-valid', (schema) => {
    fc.assert(fc.property(bodies[schema].valid(SAMPLE_CONTEXT), (body) => {
      expect(validateValue(schema, body)).toEqual([]);
    }), RUNS);
  });

  it.each(violationCases)('%s', (_, schema, violation) => {
    fc.assert(fc.property(violation.arbitrary(SAMPLE_CONTEXT), (body) => {
      expect(fieldIsInBody(violation, body), `field ${violation.field} in ${JSON.stringify(body).slice(0, 200)}`).toBe(true);
      if (violation.judgedBy === 'server') {
        expect(validateValue(schema, body)).toEqual([]);
        return;
      }
      const found = validateValue(schema, body);
      expect(rulesOf(schema, body), JSON.stringify(body).slice(0, 300)).toEqual([violation.rule]);
      if (violation.field !== null) expect(found.map((v) => v.path)).toContain(pointerOf(violation.field));
    }), RUNS);
  });

  it.each(SCHEMAS)('%s: every rule the schema names is covered by a violation', (schema) => {
    const named = new Set<string>(X_CHECK_RULES[schema] ?? []);
    walkSchema(loadContract().documents.get(schema)!, schema, (node) => namedRules(node).forEach((id) => named.add(id)));
    const covered = new Set(bodies[schema].violations.map((violation) => violation.rule));
    const exempt = new Set(EXEMPT.map((entry) => entry.rule));
    expect([...named].filter((id) => !covered.has(id) && !exempt.has(id)).sort()).toEqual([]);
  });

  it('labels start with the context prefix where the prefix fits', () => {
    const prefix = SAMPLE_CONTEXT.labelPrefix;
    const labelled = ['requests/database-create', 'requests/database-snapshot-create', 'requests/oauth-client-create'];
    for (const schema of labelled) {
      for (const body of fc.sample(bodies[schema].valid(SAMPLE_CONTEXT), 100)) {
        const label = body.label as string;
        if (label.length > prefix.length) expect(label.startsWith(prefix), label).toBe(true);
      }
    }
  });
});
