import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodies } from '../../arbitraries/part3.js';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import type { Violation } from '../../arbitraries/types.js';
import { loadContract, validateValue } from '../../harness/contract.js';
import { namedRules, walkSchema } from '../contract/audit.js';

const RUNS = { numRuns: 50 };

/** Request schemas of document 3, one body generator each. */
const SCHEMAS = [
  'requests/domain-create', 'requests/domain-update', 'requests/domain-import', 'requests/domain-clone', 'requests/record-create',
  'requests/record-update', 'requests/monitor-client-create', 'requests/monitor-client-update', 'requests/monitor-plan-update',
  'requests/firewall-create', 'requests/firewall-update', 'requests/firewall-rules-update', 'requests/firewall-device-create',
  'requests/ip-allocate', 'requests/ips-assign', 'requests/ips-share', 'requests/ipv4-assign', 'requests/ipv4-share', 'requests/ip-update',
  'requests/ipv6-range-create',
];

/** Rules a schema names that no violation covers, with why. */
const EXEMPT: Array<{ rule: string; why: string }> = [
  // the body's only member has an enum: a value of another type breaks the enum rule as well, so the type rule
  // can never be broken alone (the enum rule is covered instead)
  { rule: 'P3.monitor-plan-update.types', why: 'monitor_subscription is its only member and has an enum' },
];

/** Rules the x-checks report (not named by `x-rule`), which violations must cover too. */
const DOMAIN_NAME = ['P3.domain.domain.rfc-1035', 'P3.domain.domain.label-max-63'];
const FIREWALL_RULE = [
  'P3.firewall.rule.ports.syntax', 'P3.firewall.rule.ports.range-end-greater', 'P3.firewall.rule.ports.range-1-65535',
  'P3.firewall.rule.ports.no-leading-zeroes', 'P3.firewall.rule.ports.pieces-max-15', 'P3.firewall.rule.addresses.max-255',
];
const X_CHECK_RULES: Record<string, string[]> = {
  'requests/domain-create': DOMAIN_NAME,
  'requests/domain-update': DOMAIN_NAME,
  'requests/domain-import': DOMAIN_NAME,
  'requests/domain-clone': DOMAIN_NAME,
  'requests/record-create': ['P3.record.target.valid-domain', 'P3.record.caa.issue.target-domain'],
  'requests/record-update': ['P3.record.target.valid-domain', 'P3.record.caa.issue.target-domain'],
  'requests/firewall-create': [...FIREWALL_RULE, 'P3.firewall.rules.max-25'],
  'requests/firewall-rules-update': [...FIREWALL_RULE, 'P3.firewall.rules.max-25'],
  'requests/ipv6-range-create': ['P3.ipv6-range-create.route-target.ipv6', 'P3.ipv6-range-create.route-target.no-prefix'],
};

type Json = Record<string, unknown>;

/** Every rule a schema names, following `$ref`s into other documents (firewall rules and labels live in resources/). */
function rulesNamedBy(schema: string, seen = new Set<string>()): Set<string> {
  const named = new Set<string>();
  if (seen.has(schema)) return named;
  seen.add(schema);
  const { documents } = loadContract();
  walkSchema(documents.get(schema)!, schema, (node) => {
    namedRules(node).forEach((id) => named.add(id));
    const ref = node.$ref;
    if (typeof ref !== 'string') return;
    const [file, pointer = ''] = ref.replace(/^\/schemas\//, '').split('#');
    const name = file!.replace(/\.json$/, '');
    const target = pointer.split('/').filter(Boolean).reduce<unknown>((at, key) => (at as Json)[key], documents.get(name));
    if (pointer) walkSchema(target as Json, ref, (inner) => namedRules(inner).forEach((id) => named.add(id)));
    else rulesNamedBy(name, seen).forEach((id) => named.add(id));
  });
  return named;
}

const rulesOf = (schema: string, body: unknown) => [...new Set(validateValue(schema, body).map((violation) => violation.rule))];
const pointerOf = (field: string) => `/${field.split('.').join('/')}`;

/** `field` names a member of the body, or a member missing from a parent the body has. */
function fieldIsInBody(violation: Violation, body: unknown): boolean {
  if (violation.field === null) return true;
  let node: unknown = body;
  const keys = violation.field.split('.');
  for (const [i, key] of keys.entries()) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return i === keys.length - 1 && node !== null && typeof node === 'object';
    node = (node as Json)[key];
  }
  return true;
}

const violationCases = Object.values(bodies).flatMap((body) =>
  body.violations.map((violation, i) => [`${body.schema} #${i} ${violation.rule} ${violation.field ?? '(no field)'} [${violation.judgedBy}]`, body.schema, violation] as const),
);

describe('document 3 body generators', () => {
  it('cover exactly the request schemas of document 3', () => {
    expect(Object.keys(bodies).sort()).toEqual([...SCHEMAS].sort());
    for (const [name, body] of Object.entries(bodies)) expect(body.schema).toBe(name);
  });

  it.each(SCHEMAS)('%s: valid bodies are schema-valid', (schema) => {
    fc.assert(fc.property(bodies[schema]!.valid(SAMPLE_CONTEXT), (body) => {
      expect(validateValue(schema, body), JSON.stringify(body).slice(0, 300)).toEqual([]);
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
      // a member forbidden by a condition (`not: {required}`) is reported at the object holding it
      if (violation.field !== null) expect(found.some((v) => pointerOf(violation.field!).startsWith(v.path === '/' ? '/' : `${v.path}/`) || v.path === pointerOf(violation.field!)), JSON.stringify(found)).toBe(true);
    }), RUNS);
  });

  it.each(SCHEMAS)('%s: every rule the schema names is covered by a violation', (schema) => {
    const named = new Set<string>([...rulesNamedBy(schema), ...(X_CHECK_RULES[schema] ?? [])]);
    const covered = new Set(bodies[schema]!.violations.map((violation) => violation.rule));
    const exempt = new Set(EXEMPT.map((entry) => entry.rule));
    expect([...named].filter((id) => !covered.has(id) && !exempt.has(id)).sort()).toEqual([]);
  });

  it('created names and labels carry the context prefix where it fits', () => {
    const prefix = SAMPLE_CONTEXT.labelPrefix;
    const named: Array<[string, string]> = [
      ['requests/domain-create', 'domain'], ['requests/domain-import', 'domain'], ['requests/domain-clone', 'domain'],
      ['requests/firewall-create', 'label'], ['requests/monitor-client-create', 'label'],
    ];
    for (const [schema, member] of named) {
      for (const body of fc.sample(bodies[schema]!.valid(SAMPLE_CONTEXT), 100)) {
        const value = body[member] as string | undefined;
        if (value !== undefined && value.length > prefix.length) expect(value.startsWith(prefix), value).toBe(true);
      }
    }
  });

  it('valid labels never hold two separators in a row, and doubled ones use one separator twice', () => {
    const mixed = /[-_.][-_.]/;
    for (const body of fc.sample(bodies['requests/firewall-create']!.valid(SAMPLE_CONTEXT), 200)) expect(mixed.test(body.label as string)).toBe(false);
    const doubled = bodies['requests/firewall-create']!.violations.find((v) => v.rule === 'P3.firewall.label.no-double-punctuation')!;
    for (const body of fc.sample(doubled.arbitrary(SAMPLE_CONTEXT), 200)) {
      const pairs = (body.label as string).match(/[-_.](?=[-_.])./g) ?? [];
      expect(pairs.length).toBeGreaterThan(0);
      for (const pair of pairs) expect(['--', '__', '..']).toContain(pair);
    }
  });
});
