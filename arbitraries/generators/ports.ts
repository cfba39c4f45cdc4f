import fc from 'fast-check';
import { between } from './text.js';

/**
 * Firewall rule `ports` strings (document 3, Rule object): a single port, a range `start-end` (end greater than
 * start), or a comma-separated list of them where a space may follow a comma; ports 1..65535 written without
 * leading zeroes; at most 15 pieces, a single port counting one and a range two. Each bad generator breaks one
 * rule of that grammar and keeps the others.
 */

const MIN_PORT = 1;
const MAX_PORT = 65535;
const MAX_PIECES = 15;

interface Item {
  text: string;
  pieces: 1 | 2;
}

const single = (port: number): Item => ({ text: String(port), pieces: 1 });
const range = (start: number, end: number): Item => ({ text: `${start}-${end}`, pieces: 2 });

/** A port number, 1 or 65535 often. */
function portNumber(): fc.Arbitrary<number> {
  return between(MIN_PORT, MAX_PORT);
}

const singleItem = () => portNumber().map(single);
const rangeItem = () => between(MIN_PORT, MAX_PORT - 1).chain((start) => between(start + 1, MAX_PORT).map((end) => range(start, end)));

/** `, ` or `,` between list items. */
const separators = (n: number) => fc.array(fc.constantFrom(',', ', '), { minLength: n, maxLength: n });

function join(items: Item[]): fc.Arbitrary<string> {
  return separators(Math.max(0, items.length - 1)).map((seps) => items.map((item, i) => (i === 0 ? item.text : `${seps[i - 1]}${item.text}`)).join(''));
}

/**
 * Items of at most `max` pieces in all (exactly `max` when `exact`), at least one item, in any order. No port is
 * listed twice nor falls in a listed range: whether a list may repeat or overlap is not shown. Made of distinct port
 * numbers, sorted: each either a single port or, with the next one, a range.
 */
function items(max: number, exact: boolean): fc.Arbitrary<Item[]> {
  return (exact ? fc.constant(max) : between(1, max))
    .chain((pieces) =>
      fc.tuple(fc.uniqueArray(portNumber(), { minLength: pieces, maxLength: pieces }), fc.array(fc.boolean(), { minLength: pieces, maxLength: pieces })),
    )
    .map(([numbers, ranges]) => {
      const sorted = [...numbers].sort((a, b) => a - b);
      const kept: Item[] = [];
      for (let i = 0; i < sorted.length; i++) {
        if (ranges[i] && i + 1 < sorted.length) {
          kept.push(range(sorted[i]!, sorted[i + 1]!));
          i++;
        } else kept.push(single(sorted[i]!));
      }
      return kept;
    })
    .chain((kept) => fc.shuffledSubarray(kept, { minLength: kept.length, maxLength: kept.length }));
}

/** A valid ports string: a port, a range, or a list (often exactly 15 pieces). */
export function ports(): fc.Arbitrary<string> {
  return fc.oneof(
    singleItem().map((item) => item.text),
    rangeItem().map((item) => item.text),
    items(MAX_PIECES, false).chain(join),
    items(MAX_PIECES, true).chain(join),
  );
}

/** A valid list of at most 13 pieces with `bad` (at most 2 pieces) put at a random position. */
function withItem(bad: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.option(items(MAX_PIECES - 2, false), { nil: undefined }), bad, fc.nat()).chain(([good, text, at]) => {
    const list = good ?? [];
    const i = at % (list.length + 1);
    return join([...list.slice(0, i), { text, pieces: 1 }, ...list.slice(i)]);
  });
}

/**
 * Outside the grammar under every reading: not digits, a dangling dash or comma, an empty piece, another separator.
 * Blanks other than one space after a comma (" 80", "80 ,443", "80,  443") are not stated either way: never generated.
 */
export function portsBadSyntax(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('', ' ', 'abc', 'http', '80;443', '80,,443', '80 443', '80-', '-80', '80-90-100', '80,', ',80', '1.5', '+80', '80:90', 'ALL'),
    withItem(fc.constantFrom('x', '80-', '8o', '1e3', '-1')),
  );
}

/** A range whose end is not greater than its start (equal often). */
export function portsRangeNotIncreasing(): fc.Arbitrary<string> {
  return withItem(between(MIN_PORT, MAX_PORT).chain((start) => between(MIN_PORT, start).map((end) => `${start}-${end}`)));
}

/** A port 0 or above 65535 (no leading zero), alone or in a list. */
export function portsOutOfRange(): fc.Arbitrary<string> {
  return withItem(fc.oneof(fc.constant('0'), between(MAX_PORT + 1, 999999).map(String)));
}

/** A port written with leading zeroes (`080`, `00`). */
export function portsLeadingZero(): fc.Arbitrary<string> {
  return withItem(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: MAX_PORT })).map(([zeroes, port]) => `${'0'.repeat(zeroes)}${port}`));
}

/** 16..30 pieces, every item valid (16 often). */
export function portsTooManyPieces(): fc.Arbitrary<string> {
  return between(MAX_PIECES + 1, 30)
    .chain((n) => items(n, true))
    .filter((list) => list.reduce((sum, item) => sum + item.pieces, 0) > MAX_PIECES)
    .chain(join);
}
