import fc from 'fast-check';
import { between } from './text.js';

/**
 * Root passwords. The document only says "an internally calculated strength score"; the generators follow the
 * reference emulator's rule: at least three of the four classes lower case, upper case, digit, symbol, and not
 * all one character. Strength is judged by the server only (no schema can say it).
 */

const PASSWORD_CLASSES = {
  lower: [...'abcdefghijklmnopqrstuvwxyz'],
  upper: [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'],
  digit: [...'0123456789'],
  // Printable ASCII only: what every server and shell agrees on.
  symbol: [...'!#$%&()*+,-./:;<=>?@[]^_{|}~'],
} as const;
type PasswordClass = keyof typeof PASSWORD_CLASSES;
const CLASS_NAMES = Object.keys(PASSWORD_CLASSES) as PasswordClass[];

/** The emulator's strength rule, for the self-tests. */
export function isStrongPassword(password: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(password)).length;
  return classes >= 3 && new Set(password).size > 1;
}

/** A password of exactly `n` characters using every class of `classes` and nothing else (n >= classes.length). */
function passwordOf(classes: PasswordClass[], n: number): fc.Arbitrary<string> {
  const pool = classes.flatMap((name) => PASSWORD_CLASSES[name]);
  const one = classes.map((name) => fc.constantFrom(...PASSWORD_CLASSES[name]));
  const rest = fc.array(fc.constantFrom(...pool), { minLength: n - classes.length, maxLength: n - classes.length });
  return fc
    .tuple(fc.tuple(...one), rest)
    .chain(([each, others]) => {
      const chars = [...each, ...others];
      return fc.shuffledSubarray(chars, { minLength: chars.length, maxLength: chars.length });
    })
    .map((chars) => chars.join(''));
}

/** A strong password of min..max characters (bounds often; min >= 3), with three or all four classes. */
export function strongPassword(min = 7, max = 128): fc.Arbitrary<string> {
  if (min < 3) throw new Error('a strong password needs at least 3 characters');
  return fc.tuple(fc.subarray(CLASS_NAMES, { minLength: 3, maxLength: 4 }), between(min, max)).chain(([classes, n]) => passwordOf(classes.slice(0, n), n));
}

/** A password of valid length (min..max) that fails the strength rule: one or two classes, or all one character. */
export function weakPassword(min = 7, max = 128): fc.Arbitrary<string> {
  const fewClasses = fc.tuple(fc.subarray(CLASS_NAMES, { minLength: 1, maxLength: 2 }), between(min, max)).chain(([classes, n]) => passwordOf(classes, n));
  const oneCharacter = fc
    .tuple(fc.constantFrom(...CLASS_NAMES.flatMap((name) => PASSWORD_CLASSES[name])), between(min, max))
    .map(([char, n]) => char.repeat(n));
  return fc.oneof(fewClasses, oneCharacter);
}
