import { describe, expect, it } from 'vitest';
import { buildContract, loadContract, validateValue } from '../../harness/contract.js';
import { auditSchemas } from './audit.js';
import { boundaryCases, withValue } from '../../harness/boundaries.js';
import { cases, samples } from '../../harness/samples.js';

const contract = loadContract();
const rulesOf = (schema: string, value: unknown) => [...new Set(validateValue(schema, value).map((violation) => violation.rule))];

describe('schemas', () => {
  it('every schema compiles in strict mode and every constraint names a known rule', () => {
    expect(auditSchemas()).toEqual([]);
  });

  // A bound against a pathological schema (one whose compiled code explodes), not a speed figure: compiling all of
  // them takes 0.3 s in a fast hour and 1.1 s in a slow one beside the other self-tests (`npm run bench` prints it).
  it('compiling every schema from scratch takes under five seconds', () => {
    const started = performance.now();
    const fresh = buildContract();
    for (const name of fresh.names) fresh.validator(name);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(5000);
  });

  it('judges a list body that is not an object (a target answering null) as breaking the envelope, without throwing', () => {
    for (const body of [null, 'text', 3, []]) expect(rulesOf('lists/resources/domain', body), JSON.stringify(body)).toContain('P1.conventions.list.object');
  });

  it('takes page 0 of an empty list of no pages only', () => {
    const page = (body: object) => rulesOf('lists/resources/domain', body).includes('P1.conventions.list.page');
    expect(page({ data: [], page: 0, pages: 0, results: 0 })).toBe(false);
    expect(page({ data: [], page: 1, pages: 0, results: 0 })).toBe(false);
    expect(page({ data: [], page: 0, pages: 1, results: 0 })).toBe(true);
    expect(page({ data: samples['resources/domain']!.slice(0, 1), page: 0, pages: 1, results: 1 })).toBe(true);
    expect(page({ data: [], page: -1, pages: 0, results: 0 })).toBe(true);
  });

  it('every resource and request schema has a sample', () => {
    const missing = contract.names.filter((name) => !name.startsWith('common/') && !samples[name]?.length);
    expect(missing).toEqual([]);
  });
});

describe.each(Object.entries(samples))('%s', (schema, values) => {
  it.each(values.map((value, i) => [i, value] as const))('sample %i is valid', (_, value) => {
    expect(validateValue(schema, value)).toEqual([]);
  });

  const boundaries = values.flatMap((value) => boundaryCases(schema, value).map((boundary) => ({ ...boundary, value })));
  it.runIf(boundaries.length > 0).each(boundaries.map((boundary) => [`${boundary.pointer || '/'} ${boundary.keyword} → ${boundary.rule}`, boundary] as const))(
    'bound %s',
    (_, boundary) => {
      for (const inside of boundary.inside)
        expect(rulesOf(schema, withValue(boundary.value, boundary.pointer, inside)), `inside: ${JSON.stringify(inside)?.slice(0, 80)}`).not.toContain(
          boundary.rule,
        );
      for (const outside of boundary.outside)
        expect(rulesOf(schema, withValue(boundary.value, boundary.pointer, outside)), `outside: ${JSON.stringify(outside)?.slice(0, 80)}`).toContain(
          boundary.rule,
        );
    },
  );
});

describe('cases from the documents', () => {
  it.each(cases.map((testCase) => [`${testCase.schema}: ${testCase.note}`, testCase] as const))('%s', (_, testCase) => {
    const found = rulesOf(testCase.schema, testCase.value);
    if ('valid' in testCase) expect(found).toEqual([]);
    else expect(found).toEqual([testCase.rule]);
  });
});
