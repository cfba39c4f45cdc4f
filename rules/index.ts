import { rules as part1 } from './part1.js';
import { rules as part2 } from './part2.js';
import { rules as part3 } from './part3.js';
import { endpointRules } from './endpoint-rules.js';
import { withResponseBounds } from './response-bounds.js';
import type { Rule } from './types.js';

export type { Rule, Need } from './types.js';

/** The version of the documents the ledger follows. */
export const DOCUMENTS_VERSION = '4.123.1';

/**
 * The whole ledger: the hand-written rules of each document (each length bound of a resource table with its
 * response-side twin, rules/response-bounds.ts), then the per-endpoint rules derived from the catalogue.
 */
export const ledger: Rule[] = [...withResponseBounds([...part1, ...part2, ...part3]), ...endpointRules];

export const ruleById: ReadonlyMap<string, Rule> = new Map(ledger.map((rule) => [rule.id, rule]));
