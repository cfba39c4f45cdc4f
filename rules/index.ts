import { rules as part1 } from './part1.js';
import { rules as part2 } from './part2.js';
import { rules as part3 } from './part3.js';
import { endpointRules } from './endpoint-rules.js';
import { withResponseTwins } from './response-bounds.js';
import type { DeclaredRule, Rule } from './types.js';
import { DOCUMENTS, headingSlug } from './documents.js';
import { quotesByRule } from './coverage.js';

export type { Rule, Need } from './types.js';
export { DOCUMENTS, DOCUMENTS_VERSION, headingSlug } from './documents.js';

// GitHub suffixes a repeated slug (-1, -2 …), but a rule names its section by text, and the first heading of that
// text gets no suffix unless an earlier, different heading has the same slug (test/contract/ledger.test.ts checks).
const quotes = quotesByRule();
const located = (rule: DeclaredRule): Rule => ({
  ...rule,
  document: DOCUMENTS[rule.part],
  anchor: headingSlug(rule.section),
  quotes: (quotes.get(rule.id) ?? []).map((unit) => unit.text),
});

/**
 * The whole ledger: the hand-written rules of each document (each caller-side length bound or character rule of a
 * resource table with its response-side twin, rules/response-bounds.ts), then the per-endpoint rules derived from the
 * catalogue.
 */
export const ledger: Rule[] = [...withResponseTwins([...part1, ...part2, ...part3]), ...endpointRules].map(located);

export const ruleById: ReadonlyMap<string, Rule> = new Map(ledger.map((rule) => [rule.id, rule]));
