// The validators compiled ahead with the suite's compiled copy (`precompiledValidatorsSource`, written beside the copy
// by bin/typescript.mjs) judge exactly as those ajv compiles at run time: the same errors, whole, for every sample, every
// boundary value, every case from the documents and some garbage, on every schema and every resource list.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { LIST_PREFIX, buildContract, precompiledValidators, precompiledValidatorsSource } from '../../harness/contract.js';
import { boundaryCases, withValue } from '../../harness/boundaries.js';
import { cases, samples } from '../../harness/samples.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-precompiled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'validators.cjs');
writeFileSync(file, await precompiledValidatorsSource());
const precompiled = precompiledValidators(file)!;
const compiledNow = buildContract();

const GARBAGE = [null, 0, -1.5, '', 'text', true, [], [{}], {}, { data: 'x' }];

/** What a schema is tried on: its samples, each boundary value put into its sample, and the documents' cases. */
function valuesOf(schema: string): unknown[] {
  const own = samples[schema] ?? [];
  const bounded = own.flatMap((sample) =>
    boundaryCases(schema, sample).flatMap((boundary) => [...boundary.inside, ...boundary.outside].map((value) => withValue(sample, boundary.pointer, value))),
  );
  return [...own, ...bounded, ...cases.filter((testCase) => testCase.schema === schema).map((testCase) => testCase.value), ...GARBAGE];
}

/** A resource list's values: pages of its item's values (one item per page, and all on one page), and garbage. */
function listValuesOf(item: string): unknown[] {
  const items = valuesOf(item);
  return [...items.map((value) => ({ data: [value], page: 1, pages: 1, results: 1 })), { data: items, page: 2, pages: 1, results: 0 }, ...GARBAGE];
}

function errorsOf(validate: ValidateFunction, value: unknown): unknown {
  const valid = validate(value);
  return { valid, errors: validate.errors ?? null };
}

const refs = [...compiledNow.names, ...compiledNow.names.filter((name) => name.startsWith('resources/')).map((name) => `${LIST_PREFIX}${name}`)];

it('holds a validator for every schema and every resource list, and nothing else', () => {
  expect(Object.keys(precompiled).sort()).toEqual([...refs].sort());
});

it.each(refs)('%s judges as the validator ajv compiles at run time', (ref) => {
  const values = ref.startsWith(LIST_PREFIX) ? listValuesOf(ref.slice(LIST_PREFIX.length)) : valuesOf(ref);
  expect(values.length).toBeGreaterThan(GARBAGE.length - 1);
  const ahead = values.map((value) => errorsOf(precompiled[ref]!, value));
  const now = values.map((value) => errorsOf(compiledNow.validator(ref), value));
  expect(ahead).toEqual(now);
});
