import fc from 'fast-check';
import { between } from './text.js';

/**
 * Instance-style labels (document 2 instance labels; document 3 firewall labels follow the same rules):
 * only A-Z a-z 0-9 and the separators - _ . ; begin and end with an alphanumeric; no two dashes, underscores or
 * periods in a row. Valid labels never put two separators side by side (not even a mixed pair, which the ledger
 * leaves unjudged). Each bad generator breaks exactly one rule and keeps the length inside [min, max].
 */

const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
export const SEPARATORS = ['-', '_', '.'] as const;
/**
 * Characters outside the label alphabet (printable, no newline: the rule is about the alphabet, not about lines). No
 * letters beyond ASCII: "alphanumerics" may be read as any letter or digit (the VLAN label alone says "ASCII").
 */
const BAD_LABEL_CHARS = [' ', '!', '@', '#', '$', '%', '&', '*', '+', '/', ':', ',', '~', '='] as const;

const isSeparator = (char: string | undefined) => char !== undefined && (SEPARATORS as readonly string[]).includes(char);
const alnum = () => fc.constantFrom(...ALNUM);
const separator = () => fc.constantFrom(...SEPARATORS);

function checkPrefix(prefix: string): void {
  if (prefix !== '' && !/^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?![-_.]))*$/.test(prefix)) throw new Error(`"${prefix}" cannot begin a label`);
}

/**
 * `n` characters that follow `prefix` so that prefix + them is a valid label: each position is a separator
 * when the draw asks for one and the rules allow it (not first, not last, not after a separator), else alphanumeric.
 */
function tail(prefix: string, n: number): fc.Arbitrary<string> {
  const draw = fc.tuple(alnum(), fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: separator() }));
  return fc.array(draw, { minLength: n, maxLength: n }).map((draws) => {
    let text = prefix;
    draws.forEach(([letter, sep], i) => {
      const allowed = sep !== null && text.length > 0 && i < n - 1 && !isSeparator(text[text.length - 1]);
      text += allowed ? sep : letter;
    });
    return text;
  });
}

/** The shortest prefixed label: the prefix needs at least one character after it. */
function shortestLabel(min: number, prefix = ''): number {
  return Math.max(min, prefix === '' ? 1 : prefix.length + 1);
}

/**
 * A valid label of min..max characters (bounds often), starting with `prefix` (itself a valid start). Lengths too
 * short to hold the prefix and one more character (the lower bound of 3..64, say) are made WITHOUT the prefix: the
 * bound matters more than the sweep, so those few labels may leak.
 */
export function label(min: number, max: number, prefix = ''): fc.Arbitrary<string> {
  checkPrefix(prefix);
  return between(min, max).chain((n) => (n > prefix.length ? tail(prefix, n - prefix.length) : tail('', n)));
}

/** Like `label`, but always prefixed (lengths below prefix + 1 are not made). */
export function prefixedLabel(min: number, max: number, prefix: string): fc.Arbitrary<string> {
  checkPrefix(prefix);
  return between(shortestLabel(min, prefix), max).chain((n) => tail(prefix, n - prefix.length));
}

/**
 * Shorter than `min`, otherwise valid; too short for a prefix, so never prefixed. Empty only where nothing else is
 * shorter (min 1): "" for an optional member may be read as absent (variation blank-optional-absent).
 */
export function labelTooShort(min: number): fc.Arbitrary<string> {
  if (min < 1) throw new Error('no label is shorter than 0 characters');
  return min === 1 ? fc.constant('') : fc.integer({ min: 1, max: min - 1 }).chain((n) => tail('', n));
}

/**
 * Longer than `max` (often exactly max + 1) by at most 16, otherwise valid: a server whose limit is merely off (twice
 * a bound of 16 or more) refuses none of them, so one draw meets it (up to 40 over, a limit of 64 for 32 let a tenth
 * of the draws escape).
 */
export function labelTooLong(max: number, prefix = ''): fc.Arbitrary<string> {
  checkPrefix(prefix);
  return fc.oneof(fc.constant(max + 1), fc.integer({ min: max + 1, max: max + 16 })).chain((n) => tail(prefix, n - prefix.length));
}

/**
 * A valid label of a length in [max(min, least), max] with characters replaced by `mutate`, which gets the
 * characters and the first index it may touch (past the prefix) and returns them changed.
 */
function mutatedLabel(
  min: number,
  max: number,
  prefix: string,
  least: number,
  mutate: (chars: string[], from: number) => fc.Arbitrary<string[]>,
): fc.Arbitrary<string> {
  const lower = Math.max(shortestLabel(min, prefix), least);
  if (lower > max) throw new Error(`no room for this mutation in ${min}..${max} with prefix "${prefix}"`);
  return prefixedLabel(lower, max, prefix)
    .chain((text) => mutate([...text], prefix.length))
    .map((chars) => chars.join(''));
}

/** One inner character (not the first or last, not in the prefix) outside the alphabet. */
export function labelBadChar(min: number, max: number, prefix = ''): fc.Arbitrary<string> {
  return mutatedLabel(min, max, prefix, Math.max(3, prefix.length + 2), (chars, from) =>
    fc.tuple(fc.integer({ min: Math.max(1, from), max: chars.length - 2 }), fc.constantFrom(...BAD_LABEL_CHARS)).map(([i, bad]) => {
      chars[i] = bad;
      return chars;
    }),
  );
}

/**
 * A separator as the first or the last character (its neighbour made alphanumeric so no separators double up).
 * With a prefix the separator goes in front of it (the label stays findable by the prefix it contains).
 */
export function labelBadBeginEnd(min: number, max: number, prefix = ''): fc.Arbitrary<string> {
  const atEnd = mutatedLabel(min, max, prefix, Math.max(3, prefix.length + 2), (chars) =>
    fc.tuple(separator(), alnum()).map(([sep, letter]) => {
      if (isSeparator(chars[chars.length - 2])) chars[chars.length - 2] = letter;
      chars[chars.length - 1] = sep;
      return chars;
    }),
  );
  const atBegin =
    prefix === ''
      ? mutatedLabel(min, max, '', 3, (chars) =>
          fc.tuple(separator(), alnum()).map(([sep, letter]) => {
            if (isSeparator(chars[1])) chars[1] = letter;
            chars[0] = sep;
            return chars;
          }),
        )
      : fc.tuple(separator(), prefixedLabel(Math.max(min - 1, 1), max - 1, prefix)).map(([sep, rest]) => sep + rest);
  return fc.oneof(atBegin, atEnd);
}

/**
 * The same separator twice in a row (`--`, `__`, `..`) inside the label, past the prefix, between alphanumerics.
 * Mixed pairs (`-_`, `._`) are left out: the ledger reads the sentence as ambiguous for them and judges only
 * same-character pairs, so a mixed pair would break nothing the schema checks.
 */
export function labelDoubledSeparator(min: number, max: number, prefix = ''): fc.Arbitrary<string> {
  const first = prefix === '' ? 1 : prefix.length + 1;
  return mutatedLabel(min, max, prefix, first + 3, (chars) =>
    fc.tuple(fc.integer({ min: first, max: chars.length - 3 }), separator(), alnum(), alnum()).map(([i, sep, before, after]) => {
      chars[i - 1] = isSeparator(chars[i - 1]) ? before : chars[i - 1]!;
      chars[i] = sep;
      chars[i + 1] = sep;
      chars[i + 2] = isSeparator(chars[i + 2]) ? after : chars[i + 2]!;
      return chars;
    }),
  );
}
