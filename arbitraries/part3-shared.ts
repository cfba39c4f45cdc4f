// Helpers shared by the document-3 body modules (part3.ts, part3-domains.ts).
import fc from 'fast-check';
import type { BodyContext, Violation } from './types.js';
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
 * Tags: lengths within the tag label's 3..50 (at most 24), lowercase letters and digits only, since which characters a
 * tag may hold and whether it is stored as given are not shown. Each starts with the run's prefix (its letters and
 * digits) and `t`: a tag a domain carries is an account tag, and one that is not the run's own may be the label of a tag
 * created meanwhile (document 2's tag-create bodies, whose shortest labels cannot hold the prefix, are refused as taken).
 */
export const tags = (context: BodyContext) => {
  const prefix = `${context.labelPrefix.toLowerCase().replace(/[^a-z0-9]/g, '')}t`;
  const rest = stringOfLength(Math.max(1, 3 - prefix.length), Math.max(1, 24 - prefix.length), LOWER_ALNUM);
  return fc.uniqueArray(
    rest.map((text) => prefix + text),
    { maxLength: 3 },
  );
};
