import fc from 'fast-check';
import { between } from './text.js';

/**
 * DNS names (document 3, Domain and Domain record). A bad name breaks what every reading of "1..255 chars; RFC
 * 1035" refuses: labels of 1..63 letters, digits and hyphens that neither begin nor end with a hyphen, at most 255
 * characters in all (each bad generator breaks exactly one of the 1..255 bounds, the 63-character label bound, the
 * label syntax). A good name keeps to what every reading accepts: RFC 1035's own syntax begins each label with a
 * letter (RFC 1123 allows a digit), and its 255-octet bound counts the wire form, 253 characters of text. Names a run
 * creates carry the run's prefix in their first label and end in a reserved example domain, so a sweep finds them
 * and no real zone is touched.
 */

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];
const LOWER_ALNUM = [...LETTERS, ...'0123456789'];
const LABEL_INNER = [...LOWER_ALNUM, '-'];
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org'] as const;
const MAX_NAME = 255;
/** The longest good name: RFC 1035's 255 octets in wire form. */
const MAX_GOOD_NAME = 253;
const MAX_LABEL = 63;

const chars = (alphabet: string[], n: number) => fc.array(fc.constantFrom(...alphabet), { minLength: n, maxLength: n }).map((cs) => cs.join(''));

/**
 * `label` without hyphens in its third and fourth places (`ab--c`, `xn--0`): IDNA reserves such labels for its
 * encoded names (RFC 5891, 4.2.3.1), and a server or a URL parser checking them refuses one that decodes to nothing.
 */
export const unreserved = (label: string) => (label.slice(2, 4) === '--' ? `${label.slice(0, 3)}a${label.slice(4)}` : label);

/** One DNS label of exactly `n` characters (n >= 1), beginning with a letter. */
function labelOfLength(n: number): fc.Arbitrary<string> {
  if (n === 1) return chars(LETTERS, 1);
  return fc.tuple(chars(LETTERS, 1), chars(LABEL_INNER, n - 2), chars(LOWER_ALNUM, 1)).map((parts) => unreserved(parts.join('')));
}

/** One DNS label of min..max characters (bounds often). */
function dnsLabel(min = 1, max = MAX_LABEL): fc.Arbitrary<string> {
  return between(min, max).chain(labelOfLength);
}

/**
 * A DNS name of exactly `n` characters (n >= 1), no trailing period: `n` letters, digits and hyphens cut into
 * labels at drawn positions (and wherever a label would pass 63), hyphens at label ends and digits at label starts
 * made letters, and no label reserved (`unreserved`).
 */
function hostOfLength(n: number): fc.Arbitrary<string> {
  return fc.tuple(chars(LABEL_INNER, n), fc.array(fc.nat(Math.max(0, n - 1)), { maxLength: 8 }), fc.constantFrom(...LETTERS)).map(([text, cuts, letter]) => {
    const drawn = new Set(cuts);
    const dots = new Set<number>();
    let run = 0;
    for (let i = 0; i < n; i++) {
      if (drawn.has(i) && run > 0 && i < n - 1) {
        dots.add(i);
        run = 0;
      } else if (++run > MAX_LABEL) {
        // cut here, or one earlier when this is the last character (a name does not end with a period)
        dots.add(i === n - 1 ? i - 1 : i);
        run = i === n - 1 ? 1 : 0;
      }
    }
    return [...text]
      .map((c, i) => {
        if (dots.has(i)) return '.';
        const atStart = i === 0 || dots.has(i - 1);
        const atEnd = i === n - 1 || dots.has(i + 1);
        return (atStart && !LETTERS.includes(c)) || (atEnd && c === '-') ? letter : c;
      })
      .join('')
      .split('.')
      .map(unreserved)
      .join('.');
  });
}

/** First label of a created name: the prefix in DNS letters, then 4..8 random ones (so names made by checks running at the same time do not clash). */
function prefixLabel(prefix: string): fc.Arbitrary<string> {
  const head = prefix
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_LABEL - 8);
  return between(4, 8)
    .chain((n) => chars(LOWER_ALNUM, n))
    .map((tail) => `${head}${tail}`);
}

/**
 * A domain the run may create: `<prefix><random>[.<labels>].<reserved domain>`, its length often exactly 253 and
 * its labels often exactly 63. The 1-character lower bound is not made: a name that short cannot carry the
 * prefix and a reserved domain (domainOfLength makes short names for bodies that create nothing).
 */
export function domainName(prefix: string): fc.Arbitrary<string> {
  const free = fc
    .tuple(prefixLabel(prefix), fc.array(dnsLabel(1, 12), { maxLength: 2 }), fc.constantFrom(...RESERVED_DOMAINS))
    .map(([first, middle, base]) => [first, ...middle, base].join('.'));
  // longest: the prefix label, then labels filling up to exactly 253 (one of them 63 long when room allows)
  const longest = fc.tuple(prefixLabel(prefix), fc.constantFrom(...RESERVED_DOMAINS)).chain(([first, base]) => {
    const room = MAX_GOOD_NAME - first.length - base.length - 2;
    const filler =
      room > MAX_LABEL + 1 ? fc.tuple(labelOfLength(MAX_LABEL), hostOfLength(room - MAX_LABEL - 1)).map(([a, b]) => `${a}.${b}`) : hostOfLength(room);
    return filler.map((middle) => `${first}.${middle}.${base}`);
  });
  const longLabel = fc.tuple(prefixLabel(prefix), labelOfLength(MAX_LABEL), fc.constantFrom(...RESERVED_DOMAINS)).map((parts) => parts.join('.'));
  return fc.oneof(free, longest, longLabel);
}

/** A valid DNS name of min..max characters (bounds often), for names nothing is created under. */
function domainOfLength(min = 1, max = MAX_GOOD_NAME): fc.Arbitrary<string> {
  return between(min, max).chain(hostOfLength);
}

/** A host under a reserved example domain (`mail.example.com`), short, for record targets and issuers. */
export function exampleHost(): fc.Arbitrary<string> {
  return fc.tuple(fc.array(dnsLabel(1, 10), { maxLength: 2 }), fc.constantFrom(...RESERVED_DOMAINS)).map(([labels, base]) => [...labels, base].join('.'));
}

/**
 * A record target that must be a valid domain (NS, MX, CNAME, SRV): a host under a reserved example domain, up to the
 * longest good name, sometimes with a trailing period. Fully qualified (its last label letters): which names count as
 * a valid domain is not shown, and a server may hold targets to RFC 1123's host names.
 */
export function recordTargetHost(): fc.Arbitrary<string> {
  const long = fc
    .constantFrom(...RESERVED_DOMAINS)
    .chain((base) => between(1, MAX_GOOD_NAME - base.length - 1).chain((n) => hostOfLength(n).map((host) => `${host}.${base}`)));
  return fc.tuple(fc.oneof(exampleHost(), long), fc.boolean()).map(([host, dot]) => (dot ? `${host}.` : host));
}

/** A record name (1..100 characters, bounds often): a relative host name. */
export function recordName(min = 1, max = 100): fc.Arbitrary<string> {
  return domainOfLength(min, max);
}

// ------------------------------------------------------------------ bad names

/** A record name longer than 100 characters (by 1..16, 101 often), every label valid. */
export function recordNameTooLong(): fc.Arbitrary<string> {
  return fc.oneof(fc.constant(101), between(101, 116)).chain(hostOfLength);
}

/** Longer than 255 characters (256 often), every label valid. */
export function domainTooLong(): fc.Arbitrary<string> {
  return between(MAX_NAME + 1, MAX_NAME + 40).chain(hostOfLength);
}

/** One label of 64..80 characters, the rest valid, at most 255 in all. */
export function domainLabelTooLong(): fc.Arbitrary<string> {
  return fc
    .tuple(
      between(MAX_LABEL + 1, 80).chain((n) => labelOfLength(n)),
      exampleHost(),
      fc.boolean(),
    )
    .map(([long, host, first]) => (first ? `${long}.${host}` : `${host.split('.')[0]}.${long}.${host.split('.').slice(1).join('.')}`));
}

/** Kinds of syntax errors a name can have, each keeping labels <= 63 and the name 1..255 long. */
type SyntaxBreak = (labels: string[], pick: number) => string[];
/** The ways a name breaks RFC 1035, by kind. */
const SYNTAX_BREAKS = {
  hyphenEnd: [(labels, i) => labels.map((l, j) => (j === i ? `-${l}` : l)), (labels, i) => labels.map((l, j) => (j === i ? `${l}-` : l))],
  // a character outside letters, digits and hyphens inside a label; not an underscore, outside RFC 1035's preferred
  // syntax but inside RFC 2181's DNS names, which a server may take
  badCharacter: [(labels, i) => labels.map((l, j) => (j === i ? `${l}!x` : l)), (labels, i) => labels.map((l, j) => (j === i ? `${l} x` : l))],
  // two dots in a row, a leading dot
  emptyLabel: [(labels, i) => [...labels.slice(0, i), '', ...labels.slice(i)], (labels) => ['', ...labels]],
} satisfies Record<string, SyntaxBreak[]>;
type SyntaxBreakKind = keyof typeof SYNTAX_BREAKS;

/** Breaks one label of a valid host so the name is not RFC 1035, in one of `breaks`. */
function brokenHost(base: fc.Arbitrary<string>, breaks: SyntaxBreak[]): fc.Arbitrary<string> {
  return fc.tuple(base, fc.integer({ min: 0, max: breaks.length - 1 }), fc.nat()).map(([host, kind, at]) => {
    const labels = host.split('.').map((l) => l.slice(0, MAX_LABEL - 2));
    return breaks[kind]!(labels, at % labels.length).join('.');
  });
}

/**
 * Not an RFC 1035 name under the other bounds: a hyphen at a label's end, a bad character or an empty label (`kind`:
 * that one only).
 */
export function domainBadSyntax(kind?: SyntaxBreakKind): fc.Arbitrary<string> {
  return brokenHost(exampleHost(), kind ? SYNTAX_BREAKS[kind] : Object.values(SYNTAX_BREAKS).flat());
}

/** A name with a trailing period: refused as an A, AAAA or CAA record target. */
export function domainTrailingPeriod(): fc.Arbitrary<string> {
  return exampleHost().map((host) => `${host}.`);
}

/** A name that is not a valid domain for record targets (trailing period allowed there, so none is added). */
export function notRecordTargetHost(): fc.Arbitrary<string> {
  return fc.oneof(brokenHost(exampleHost(), Object.values(SYNTAX_BREAKS).flat()), domainLabelTooLong(), domainTooLong());
}
