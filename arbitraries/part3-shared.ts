// Helpers shared by the document-3 body modules (part3.ts, part3-domains.ts).
import fc from 'fast-check';
import type { Violation } from './types.js';
import { type Body, type BodyGen, type ValueGen } from './generators/body.js';
import { stringOfLength } from './generators/text.js';

// ------------------------------------------------------------------ helpers

/** Uniqueness: the body is valid as it is; the scenario sends the same body twice and expects the second refused. */
export const sentTwice = (rule: string, valid: BodyGen, field: string): Violation => ({ rule, field, judgedBy: 'server', arbitrary: valid });

export function optionalRecord(model: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Body> {
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Body>;
}

/** Merges the objects made by several generators into one body. */
export function merged(...parts: Array<fc.Arbitrary<Body>>): fc.Arbitrary<Body> {
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects) as Body);
}

/** A list with `bad` first and 0..2 good items after it (field: `<member>.0`). */
export const listWithBad =
  (bad: () => fc.Arbitrary<unknown>, good: () => fc.Arbitrary<unknown>): ValueGen =>
  () =>
    fc.tuple(bad(), fc.array(good(), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]);

export const noTrailingPeriod = (arb: fc.Arbitrary<string>) => arb.filter((text) => !text.endsWith('.'));

/** Tag labels of 3..50 (the documented tag label length), so no body hinges on an undocumented shorter tag. */
export const tags = () => fc.array(stringOfLength(3, 24), { maxLength: 3 });
