// Helpers shared by the document-3 body modules (part3.ts, part3-domains.ts).
import fc from 'fast-check';
import type { Violation } from './types.js';
import { type BodyGen, type ValueGen } from './generators/body.js';
import { LOWER_ALNUM, stringOfLength } from './generators/text.js';

// ------------------------------------------------------------------ helpers

/** Uniqueness: the body is valid as it is; the scenario sends the same body twice and expects the second refused. */
export const sentTwice = (rule: string, valid: BodyGen, field: string): Violation => ({ rule, field, judgedBy: 'server', arbitrary: valid });

/** A list with `bad` first and 0..2 good items after it (field: `<member>.0`). */
export const listWithBad =
  (bad: () => fc.Arbitrary<unknown>, good: () => fc.Arbitrary<unknown>): ValueGen =>
  () =>
    fc.tuple(bad(), fc.array(good(), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]);

export const noTrailingPeriod = (arb: fc.Arbitrary<string>) => arb.filter((text) => !text.endsWith('.'));

/**
 * Tags: lengths within the tag label's 3..50, so no body hinges on an undocumented shorter tag; lowercase letters
 * and digits only, since which characters a tag may hold and whether it is stored as given are not shown.
 */
export const tags = () => fc.uniqueArray(stringOfLength(3, 24, LOWER_ALNUM), { maxLength: 3 });
