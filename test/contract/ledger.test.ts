import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../harness/contract.js';
import { DOCUMENTS, headingSlug, ledger, ruleById, type Rule } from '../../rules/index.js';
import { endpointByKey, endpointKey, endpoints } from '../../rules/endpoints.js';
import { namedRules, walkSchema } from './audit.js';

const documentText = (part: Rule['part']) => readFileSync(new URL(`../../../shared/spec/${DOCUMENTS[part]}`, import.meta.url), 'utf8');

const headingsOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#+\s*/, '').trim());

/** Each heading of a document with its GitHub anchor, the first heading of each text only: a repeated slug gets -1, -2 … */
function anchorsOf(text: string): Map<string, string> {
  const anchors = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const heading of headingsOf(text)) {
    const slug = headingSlug(heading);
    const repeats = seen.get(slug) ?? 0;
    seen.set(slug, repeats + 1);
    if (!anchors.has(heading)) anchors.set(heading, repeats ? `${slug}-${repeats}` : slug);
  }
  return anchors;
}

const PARTS = [1, 2, 3] as const;
const headings = Object.fromEntries(PARTS.map((part) => [part, new Set(headingsOf(documentText(part)))])) as Record<Rule['part'], Set<string>>;
const anchors = Object.fromEntries(PARTS.map((part) => [part, anchorsOf(documentText(part))])) as Record<Rule['part'], Map<string, string>>;

describe('rule ledger', () => {
  it('has several hundred rules with unique, well-formed ids', () => {
    expect(ledger.length).toBeGreaterThan(300);
    const ids = ledger.map((rule) => rule.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => !/^P[123]\.[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(id))).toEqual([]);
  });

  it('names a real heading of its document for every rule, and its part agrees with its id', () => {
    expect(ledger.filter((rule) => !headings[rule.part].has(rule.section)).map((rule) => `${rule.id}: "${rule.section}"`)).toEqual([]);
    expect(ledger.filter((rule) => !rule.id.startsWith(`P${rule.part}.`)).map((rule) => rule.id)).toEqual([]);
  });

  it('anchors every rule at its section: the GitHub slug of the first heading so written in its document', () => {
    expect(headingSlug('IP address, IPv6 pool, IPv6 range, VLAN')).toBe('ip-address-ipv6-pool-ipv6-range-vlan');
    expect(headingSlug('Managed database (cluster)')).toBe('managed-database-cluster');
    expect(anchorsOf('# A\n## B (b)\n### A\n## a\n')).toEqual(
      new Map([
        ['A', 'a'],
        ['B (b)', 'b-b'],
        ['a', 'a-2'],
      ]),
    );
    expect(ledger.filter((rule) => rule.document !== DOCUMENTS[rule.part]).map((rule) => rule.id)).toEqual([]);
    expect(ledger.filter((rule) => rule.anchor !== anchors[rule.part].get(rule.section)).map((rule) => `${rule.id}: ${rule.anchor}`)).toEqual([]);
  });

  it('fills every field of every entry', () => {
    const incomplete = ledger.filter(
      (rule) =>
        !['MUST', 'SHOULD'].includes(rule.level) ||
        rule.rule.trim().length < 10 ||
        !rule.needs.length ||
        !/^(schema|code|scenario|property|untestable: .{5,})$/.test(rule.check),
    );
    expect(incomplete.map((rule) => rule.id)).toEqual([]);
  });

  it('names only catalogue endpoints', () => {
    expect(ledger.flatMap((rule) => rule.endpoints.filter((key) => !endpointByKey.has(key)).map((key) => `${rule.id}: ${key}`))).toEqual([]);
  });

  it('names every catalogue endpoint in at least one rule', () => {
    const named = new Set(ledger.flatMap((rule) => rule.endpoints));
    expect(endpoints.map(endpointKey).filter((key) => !named.has(key))).toEqual([]);
  });

  it('has a schema behind every rule checked by schema', () => {
    const contract = loadContract();
    const inSchemas = new Set<string>();
    for (const name of contract.names) walkSchema(contract.documents.get(name)!, name, (node) => namedRules(node).forEach((id) => inSchemas.add(id)));
    expect(ledger.filter((rule) => rule.check === 'schema' && !inSchemas.has(rule.id)).map((rule) => rule.id)).toEqual([]);
    expect([...inSchemas].filter((id) => !ruleById.has(id))).toEqual([]);
  });
});
