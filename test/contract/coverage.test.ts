// The document coverage map (rules/coverage/part<n>.json) against the documents: every unit (a sentence, a table
// row) is held and judged by rules or excused with a reason of a known kind; every rule of the ledger is quoted by
// the units it comes from (its verbatim text); the map names only rules the ledger holds.
import { describe, expect, it } from 'vitest';
import { coverageMap, documentCoverage, EXCUSES, quotesByRule, readDocument, unknownRuleIds, type Part } from '../../rules/coverage.js';
import { ledger } from '../../rules/index.js';

const PARTS = [1, 2, 3] as const;
const texts = Object.fromEntries(PARTS.map((part) => [part, readDocument(part)])) as Record<Part, string>;
const coverage = documentCoverage(texts);
const show = (units: Array<{ section: string; text: string }>) => units.map((unit) => `${unit.section}: ${unit.text.slice(0, 160)}`);

describe.each(PARTS)('the coverage map of document %i', (part) => {
  const of = coverage.find((entry) => entry.part === part)!;

  it('holds every unit of the document, and none it no longer has', () => {
    expect(show(of.stale), 'units of the map the document no longer has').toEqual([]);
    expect(show(of.unmapped), 'units judged by no rule and excused by no reason').toEqual([]);
  });

  it('excuses a unit only with a reason of a known kind', () => {
    const odd = coverageMap()
      .get(part)!
      .filter((unit) => 'none' in unit && !EXCUSES.some((kind) => unit.none.startsWith(`${kind}: `)));
    expect(show(odd)).toEqual([]);
  });
});

describe('the coverage map and the ledger', () => {
  it('names only rules the ledger holds', () => {
    expect(unknownRuleIds(new Set(ledger.map((rule) => rule.id)))).toEqual([]);
  });

  it("quotes every rule of the ledger with its document's own words", () => {
    const quotes = quotesByRule();
    expect(ledger.filter((rule) => !quotes.has(rule.id)).map((rule) => `${rule.id} (${rule.section}): ${rule.rule}`)).toEqual([]);
  });

  it('quotes every rule with words of its own document (others may state it too)', () => {
    const quotes = quotesByRule();
    const elsewhere = ledger.filter((rule) => quotes.has(rule.id) && !quotes.get(rule.id)!.some((unit) => unit.part === rule.part)).map((rule) => rule.id);
    expect(elsewhere).toEqual([]);
  });
});
