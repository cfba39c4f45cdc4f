import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../harness/contract.js';
import { ledger, ruleById } from '../../rules/index.js';
import { endpointByKey, endpointKey, endpoints } from '../../rules/endpoints.js';
import { namedRules, walkSchema } from './audit.js';

const DOCUMENTS = {
  1: '../shared/spec/part1-common-databases-account.md',
  2: '../shared/spec/part2-compute-images-tags.md',
  3: '../shared/spec/part3-domains-monitoring-networking.md',
} as const;

const headings = Object.fromEntries(
  Object.entries(DOCUMENTS).map(([part, file]) => [
    part,
    new Set(
      readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) => line.replace(/^#+\s*/, '').trim()),
    ),
  ]),
) as Record<string, Set<string>>;

describe('rule ledger', () => {
  it('has several hundred rules with unique, well-formed ids', () => {
    expect(ledger.length).toBeGreaterThan(300);
    const ids = ledger.map((rule) => rule.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.filter((id) => !/^P[123]\.[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(id))).toEqual([]);
  });

  it('names a real heading of its document for every rule, and its part agrees with its id', () => {
    expect(ledger.filter((rule) => !headings[rule.part]!.has(rule.section)).map((rule) => `${rule.id}: "${rule.section}"`)).toEqual([]);
    expect(ledger.filter((rule) => !rule.id.startsWith(`P${rule.part}.`)).map((rule) => rule.id)).toEqual([]);
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
