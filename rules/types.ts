/** One documented, black-box-testable rule of the API documents. */
export interface Rule {
  /** Stable readable id: P<part>.<area>.<subject>.<constraint>, e.g. `P3.firewall.rules.max-25`. */
  id: string;
  part: 1 | 2 | 3;
  /** The file name of that part's document, e.g. `part1-common-databases-account.md`. */
  document: string;
  /** The GitHub anchor of `section` in that document (of its first heading so written). */
  anchor: string;
  /** A heading (any level) of that part's document, exactly as written there. */
  section: string;
  /** MUST: the documents state it. SHOULD: inferred; a violation is reported as a warning, never a fail. */
  level: 'MUST' | 'SHOULD';
  /** The rule in one sentence, in the documents' own terms. */
  rule: string;
  /** The document's own words: the sentences and table rows that state it (rules/coverage/part<n>.json). */
  quotes: string[];
  /** Endpoints it concerns, as `METHOD /path` exactly as in the catalogue; empty for response-shape rules used everywhere. */
  endpoints: string[];
  /** What a black-box check of it needs from the target. */
  needs: Need[];
  /** How it is checked. */
  check: Check;
}

/** A rule as declared (rules/part<n>.ts, rules/endpoint-rules.ts): rules/index.ts adds where it lives in its document. */
export type DeclaredRule = Omit<Rule, 'document' | 'anchor' | 'quotes'>;

/** How a rule is checked: `schema` (a response or request schema constraint), `code` (a checking function),
 *  `scenario`, `property`, or `untestable: <reason>` when no black-box check is possible. */
export type Check = 'schema' | 'code' | 'scenario' | 'property' | `untestable: ${string}`;

export type Need = 'none' | 'clock' | 'scoped-token' | 'restricted-user' | 'grants' | 'long-wait' | 'destructive';
