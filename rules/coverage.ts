// The document coverage map: every normative unit of the three documents (a sentence of prose or list item, a row
// of a table) mapped to the rule ids that judge it, or to the reason it has none. The map (rules/coverage/part<n>.json)
// holds each unit's own words, so a rule's verbatim text is the units that map to it; test/contract/coverage.test.ts
// splits the documents again and fails on a unit the map does not hold.
import { readFileSync } from 'node:fs';
import { endpoints, endpointKey } from './endpoints.js';
import { endpointRules } from './endpoint-rules.js';
import { DOCUMENTS } from './documents.js';
import { returnedTwin } from './response-bounds.js';

export type Part = 1 | 2 | 3;

/** One unit of a document: a sentence (of a paragraph or list item) or a table row, under its nearest heading. */
export interface Unit {
  section: string;
  text: string;
}

/**
 * The kinds of reason a unit is judged by no rule: it introduces or sums up what other units state (`overview`),
 * defines a term or placeholder the others use (`definition`), leaves the behaviour open (`not shown`), or states
 * what no request and response can observe (`not observable`). A reason is `<kind>: <why>`.
 */
export const EXCUSES = ['overview', 'definition', 'not shown', 'not observable'] as const;

/** A unit of the map: the rules judging it, or why none does. */
export type MappedUnit = Unit & ({ rules: string[] } | { none: string });

interface CoverageFile {
  document: string;
  units: Array<{ section: string; text: string; rules?: string[]; none?: string }>;
}

// "e.g." and "i.e." end no sentence; a period inside a code span or a number (4.123.1) is not followed by a space.
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs))\.\s+(?=[A-Z`{(])/;

/** The sentences of a paragraph or list item, each with its final period. */
function sentencesOf(paragraph: string): string[] {
  const parts = paragraph.split(SENTENCE_END).map((part) => part.trim());
  return parts.filter(Boolean).map((part, index) => (index < parts.length - 1 ? `${part}.` : part));
}

const keyOf = (unit: Unit) => `${unit.section}\u0000${unit.text}`;

const isSeparatorRow = (line: string) => /^\|[\s|:-]+\|$/.test(line);

/** Splits a document into its units: headings are not units; a table's header row and separator are not either. */
function splitDocument(text: string): Unit[] {
  const units: Unit[] = [];
  let section = '';
  let paragraph: string[] = [];
  let tableStarts = false;
  const flush = () => {
    if (paragraph.length) for (const sentence of sentencesOf(paragraph.join(' '))) units.push({ section, text: sentence });
    paragraph = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      section = heading[1]!.trim();
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      // The first row of a table is its header, the second its separator.
      if (!tableStarts) tableStarts = true;
      else if (!isSeparatorRow(line)) units.push({ section, text: line });
      continue;
    }
    tableStarts = false;
    const item = /^(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (!line || item) flush();
    if (item) paragraph.push(item[1]!);
    else if (line) paragraph.push(line);
  }
  flush();
  // A row repeated under one heading (two tables of the same fields) is one unit.
  return units.filter((unit, index) => units.findIndex((other) => keyOf(other) === keyOf(unit)) === index);
}

/** The document of a part, read from a folder holding the three (default: the copy beside the repository). */
export function readDocument(part: Part, folder = new URL('../../shared/spec/', import.meta.url)): string {
  return readFileSync(new URL(DOCUMENTS[part], folder), 'utf8');
}

/** The endpoint a table row describes (its first cell is `METHOD /path`), or undefined. */
function endpointOfRow(text: string): string | undefined {
  const first = /^\|\s*([A-Z]+ \/\S+)[^|]*\|/.exec(text)?.[1];
  return first && endpoints.some((endpoint) => endpointKey(endpoint) === first) ? first : undefined;
}

/** The rules derived from the catalogue for one endpoint (serves, auth, scope, …): its table row quotes them all. */
const RULES_OF_ENDPOINT = new Map<string, string[]>();
for (const rule of endpointRules)
  if (rule.endpoints.length === 1) RULES_OF_ENDPOINT.set(rule.endpoints[0]!, [...(RULES_OF_ENDPOINT.get(rule.endpoints[0]!) ?? []), rule.id]);

let loaded: Map<Part, MappedUnit[]> | undefined;

/** The map of every document, with the endpoint rows given their catalogue rules and caller-side rules their twins. */
export function coverageMap(): Map<Part, MappedUnit[]> {
  if (loaded) return loaded;
  loaded = new Map();
  for (const part of [1, 2, 3] as const) {
    const file = JSON.parse(readFileSync(new URL(`./coverage/part${part}.json`, import.meta.url), 'utf8')) as CoverageFile;
    loaded.set(
      part,
      file.units.map((unit) => {
        const endpoint = endpointOfRow(unit.text);
        const declared = unit.rules ?? [];
        const rules = [...declared, ...declared.flatMap((id) => returnedTwin(id) ?? []), ...(endpoint ? (RULES_OF_ENDPOINT.get(endpoint) ?? []) : [])];
        if (rules.length || unit.none === undefined) return { section: unit.section, text: unit.text, rules: [...new Set(rules)] };
        return { section: unit.section, text: unit.text, none: unit.none };
      }),
    );
  }
  return loaded;
}

/** The document's own words for each rule: the units that map to it, in document order. */
export function quotesByRule(): Map<string, Array<Unit & { part: Part }>> {
  const quotes = new Map<string, Array<Unit & { part: Part }>>();
  for (const [part, units] of coverageMap())
    for (const unit of units)
      if ('rules' in unit) for (const id of unit.rules) quotes.set(id, [...(quotes.get(id) ?? []), { part, section: unit.section, text: unit.text }]);
  return quotes;
}

export interface DocumentCoverage {
  part: Part;
  document: string;
  units: number;
  mapped: number;
  excused: number;
  /** Units judged by no rule and excused by no reason (or, when the documents were read, not in the map). */
  unmapped: Unit[];
  /** Units of the map the documents no longer hold (only when the documents were read). */
  stale: Unit[];
}

let fromMapAlone: DocumentCoverage[] | undefined;

/** Coverage of each document: from the map alone (worked out once), or compared with the documents' text when given. */
export function documentCoverage(texts?: Partial<Record<Part, string>>): DocumentCoverage[] {
  if (texts === undefined) return (fromMapAlone ??= coverageOf());
  return coverageOf(texts);
}

function coverageOf(texts?: Partial<Record<Part, string>>): DocumentCoverage[] {
  return ([1, 2, 3] as const).map((part) => {
    const map = coverageMap().get(part)!;
    const text = texts?.[part];
    const units = text === undefined ? map : splitDocument(text);
    const mapped = new Map(map.map((unit) => [keyOf(unit), unit]));
    const present = new Set(units.map(keyOf));
    const held = units.map((unit) => mapped.get(keyOf(unit)));
    const judged = (unit: MappedUnit | undefined) => unit !== undefined && 'rules' in unit && unit.rules.length > 0;
    const excused = (unit: MappedUnit | undefined) => unit !== undefined && 'none' in unit;
    return {
      part,
      document: DOCUMENTS[part],
      units: units.length,
      mapped: held.filter(judged).length,
      excused: held.filter(excused).length,
      unmapped: units.filter((_, index) => !judged(held[index]) && !excused(held[index])),
      stale: text === undefined ? [] : map.filter((unit) => !present.has(keyOf(unit))),
    };
  });
}

/** Rule ids the map names that are not among `known` (the ledger's ids). */
export function unknownRuleIds(known: ReadonlySet<string>): string[] {
  return [...new Set([...coverageMap().values()].flat().flatMap((unit) => ('rules' in unit ? unit.rules : [])))].filter((id) => !known.has(id));
}
