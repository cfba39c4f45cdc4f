import fc from 'fast-check';

/**
 * Text of controlled length. Lengths are biased to the bounds: `between(min, max)` picks `min` or `max` about
 * half the time, so boundary lengths come up in every short run.
 */

export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';
/** Printable ASCII seen in names and addresses (one code point = one character under every way of counting). */
const PLAIN_TEXT = `${LOWER_ALNUM}ABCDEFGHIJKLMNOPQRSTUVWXYZ .,-'#/`;

const matchingByPattern = new Map<string, fc.Arbitrary<string>>();

/**
 * `fc.stringMatching(pattern)`, built once per pattern: building one parses the pattern and costs milliseconds, and
 * generators are called again for every generated body.
 */
export function matching(pattern: RegExp): fc.Arbitrary<string> {
  let arbitrary = matchingByPattern.get(pattern.source);
  if (!arbitrary) matchingByPattern.set(pattern.source, (arbitrary = fc.stringMatching(pattern)));
  return arbitrary;
}

/** An integer in [min, max], often exactly min or max. */
export function between(min: number, max: number): fc.Arbitrary<number> {
  if (min === max) return fc.constant(min);
  return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
}

/** A string of `alphabet` characters, its length in [min, max] (often a bound); never starts or ends with a space. */
export function stringOfLength(min: number, max: number, alphabet: string = PLAIN_TEXT): fc.Arbitrary<string> {
  const chars = [...alphabet];
  return between(min, max).chain((length) =>
    fc.array(fc.constantFrom(...chars), { minLength: length, maxLength: length }).map((picked) => {
      const text = picked.join('');
      return text.replace(/^ /, 'x').replace(/ $/, 'x');
    }),
  );
}

function alphanumeric(min: number, max: number): fc.Arbitrary<string> {
  return stringOfLength(min, max, LOWER_ALNUM);
}

/** Lower-case alphanumerics beginning with a letter (min >= 1): a label every reading of "user-defined" takes. */
function letterFirst(min: number, max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...LOWER_ALNUM.slice(0, 26)), alphanumeric(min - 1, max - 1)).map(([first, rest]) => first + rest);
}

/** A string of decimal digits only. */
export function digits(min: number, max: number): fc.Arbitrary<string> {
  return stringOfLength(min, max, DIGITS);
}

/** A digit string of a length in [max(min, 1), max] with one character a space, dash, letter or other non-digit. */
export function notDigits(min: number, max: number): fc.Arbitrary<string> {
  return fc.tuple(digits(Math.max(min, 1), max), fc.constantFrom(' ', '-', 'a', 'O', '.', '/', '+'), fc.nat()).map(([text, bad, at]) => {
    const i = at % text.length;
    return `${text.slice(0, i)}${bad}${text.slice(i + 1)}`;
  });
}

/** Shorter than `min` (min > 0); empty only where nothing else is shorter (as labelTooShort). */
export function tooShort(min: number, alphabet: string = PLAIN_TEXT): fc.Arbitrary<string> {
  if (min <= 0) throw new Error('nothing is shorter than 0 characters');
  return stringOfLength(Math.min(1, min - 1), min - 1, alphabet);
}

/** Longer than `max`, by 1..16 characters (1 often). */
export function tooLong(max: number, alphabet: string = PLAIN_TEXT): fc.Arbitrary<string> {
  return stringOfLength(max + 1, max + 16, alphabet);
}

/**
 * A label of [min, max] characters starting with `prefix` (then lower-case alphanumerics), so a sweep finds what a
 * run created. Lengths too short to hold the prefix and one more character (the lower bound of a short label) are
 * generated WITHOUT the prefix, beginning with a letter (which characters a label takes is mostly not shown): the
 * bound matters more than the sweep, and callers know those may leak.
 */
export function label(prefix: string, min: number, max: number): fc.Arbitrary<string> {
  const shortest = prefix.length + 1;
  if (shortest > max) return letterFirst(Math.max(min, 1), max);
  const prefixed = between(Math.max(min, shortest), max).chain((length) =>
    alphanumeric(length - prefix.length, length - prefix.length).map((rest) => prefix + rest),
  );
  if (min >= shortest) return prefixed;
  return fc.oneof({ arbitrary: prefixed, weight: 4 }, { arbitrary: letterFirst(Math.max(min, 1), shortest - 1), weight: 1 });
}

/** A label longer than `max` (by 1..16), prefixed when the prefix fits. */
export function tooLongLabel(prefix: string, max: number): fc.Arbitrary<string> {
  return alphanumeric(max + 1, max + 16).map((text) => (prefix.length < text.length ? prefix + text.slice(prefix.length) : text));
}
