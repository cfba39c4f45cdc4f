// Rules that every endpoint row states in its document's endpoint table: how it authenticates, the scopes it
// needs, whether restricted users are refused, the /v4beta prefix, and the paging bounds of each document.
// They are derived from the catalogue rather than written out 127 times.
import { endpointKey, endpoints, type Endpoint } from './endpoints.js';
import type { DeclaredRule } from './types.js';

const PART = { part1: 1, part2: 2, part3: 3 } as const;
const AREA: Record<string, string> = {
  'Managed databases': 'databases',
  Account: 'account',
  'Compute instances': 'compute',
  Images: 'images',
  Tags: 'tags',
  Domains: 'domains',
  Monitoring: 'monitor',
  Firewalls: 'firewalls',
  'IP addresses': 'ips',
};

/** `GET /v4/domains/{domainId}/records` → `get-domains-id-records`. */
function endpointSlug(endpoint: Pick<Endpoint, 'method' | 'path'>): string {
  const segments = endpoint.path
    .split('/')
    .slice(2)
    .map((segment) => (segment.startsWith('{') ? 'id' : segment));
  return [endpoint.method.toLowerCase(), ...segments].join('-');
}

function ruleId(endpoint: Endpoint, kind: string): string {
  // Beta is stated once, in document 1's Versioning section, for endpoints of documents 1 and 3.
  if (kind === 'beta') return `P1.versioning.beta.${endpointSlug(endpoint)}`;
  return `P${PART[endpoint.document]}.${AREA[endpoint.section]}.${kind}.${endpointSlug(endpoint)}`;
}

export type EndpointRuleKind = 'serves' | 'auth' | 'scope' | 'unrestricted-only' | 'beta' | 'unknown-id';

/** The id of a per-endpoint rule. */
export function endpointRuleId(endpoint: Endpoint, kind: EndpointRuleKind): string {
  return ruleId(endpoint, kind);
}

function base(endpoint: Endpoint): Pick<DeclaredRule, 'part' | 'section' | 'level' | 'endpoints'> {
  return { part: PART[endpoint.document], section: endpoint.section, level: 'MUST', endpoints: [endpointKey(endpoint)] };
}

const AUTH_SENTENCE: Record<string, string> = {
  token: 'needs `Authorization: Bearer <token>`; without a token, or with an unknown one, it is rejected with a 4xx error body',
  none: 'needs no authentication: it answers without a token',
  optional: 'answers without authentication showing only public images; with authentication private images too',
};

/**
 * Endpoints whose last id is a bound rather than the address of one resource: an id that no resource has is still
 * meaningful, so its refusal is not a rule (and a target accepting it is not wrong). Why, for each.
 */
const ID_IS_A_BOUND: Readonly<Record<string, string>> = {
  'POST /v4/account/events/{eventId}/seen':
    'document 1 says it "marks all events up to and including this ID as seen": the ID is a bound, meaningful for any integer, so an ID no event has may be accepted (marking every event up to it) as well as refused',
};

/** Path parameters that name something which may not exist (a year or a month is a value, not a resource). */
const idParams = (endpoint: Endpoint) => Object.keys(endpoint.params).filter((name) => name !== 'year' && name !== 'month');

/**
 * Whether an unknown id must be refused. Not for a tag's label (`/v4/tags/{label}`): a label is a name the caller
 * chooses, not an ID, and a tag's existence apart from the objects carrying it is not shown (the tags list is not).
 * Document 2 defines the tagged objects list only as a paginated list of the objects carrying the label, so for a
 * label no object carries an empty list is as valid an answer as an error; and its delete "removes the tag from all
 * objects and deletes it", which for a label nothing carries may remove it from nothing and answer `{}`.
 */
function refusesUnknownId(endpoint: Endpoint): boolean {
  return idParams(endpoint).length > 0 && endpoint.path !== '/v4/tags/{label}';
}

function rulesOf(endpoint: Endpoint): DeclaredRule[] {
  const key = endpointKey(endpoint);
  const rules: DeclaredRule[] = [
    {
      ...base(endpoint),
      id: ruleId(endpoint, 'serves'),
      rule: `${key} answers a request the documents describe as valid with success (2xx).`,
      needs: ['none'],
      check: 'scenario',
    },
  ];
  const params = idParams(endpoint);
  if (refusesUnknownId(endpoint))
    rules.push({
      ...base(endpoint),
      id: ruleId(endpoint, 'unknown-id'),
      rule:
        endpoint.method === 'DELETE'
          ? `${key} rejects a request naming a {${params.at(-1)}} that does not exist with a 4xx error body, or answers \`{}\` as an operation returning no resource does (resources are addressed by ID in the path; what deleting one that is not there answers is not shown, and HTTP's DELETE is idempotent).`
          : `${key} rejects a request naming a {${params.at(-1)}} that does not exist with a 4xx error body (resources are addressed by ID in the path).`,
      needs: ['none'],
      check: ID_IS_A_BOUND[key] ? `untestable: ${ID_IS_A_BOUND[key]}` : 'scenario',
    });
  if (endpoint.auth !== 'not-shown')
    rules.push({ ...base(endpoint), id: ruleId(endpoint, 'auth'), rule: `${key} ${AUTH_SENTENCE[endpoint.auth]}.`, needs: ['none'], check: 'scenario' });
  if (endpoint.auth !== 'none' && endpoint.scopes.length)
    rules.push({
      ...base(endpoint),
      id: ruleId(endpoint, 'scope'),
      rule: `${key} needs the OAuth scope${endpoint.scopes.length > 1 ? 's' : ''} ${endpoint.scopes.join(' and ')}${endpoint.scopes.length > 1 ? ' (all of them)' : ''}: a token lacking one is rejected, a token holding exactly these is accepted.`,
      needs: ['scoped-token'],
      check: 'scenario',
    });
  if (endpoint.flags.includes('unrestricted-only'))
    rules.push({
      ...base(endpoint),
      id: ruleId(endpoint, 'unrestricted-only'),
      rule: `${key} is available only to unrestricted users, whatever the token's scopes.`,
      needs: ['restricted-user'],
      check: 'scenario',
    });
  if (endpoint.flags.includes('beta'))
    rules.push({
      ...base(endpoint),
      part: 1,
      section: 'Versioning',
      id: ruleId(endpoint, 'beta'),
      rule: `${key} is in beta and is served under the /v4beta prefix.`,
      needs: ['none'],
      check: 'scenario',
    });
  return rules;
}

/** Paging rules: documents 2 and 3 state the bounds and defaults; document 1 only that lists accept the parameters. */
function pagingRules(): DeclaredRule[] {
  const rules: DeclaredRule[] = [];
  for (const document of ['part1', 'part2', 'part3'] as const) {
    const paged = endpoints.filter((endpoint) => endpoint.document === document && endpoint.paginated).map(endpointKey);
    const part = PART[document];
    const at = (section: string, id: string, rule: string): DeclaredRule => ({
      id: `P${part}.pagination.${id}`,
      part,
      section,
      level: 'MUST',
      rule,
      endpoints: paged,
      needs: ['none'],
      check: 'scenario',
    });
    if (part === 1) {
      rules.push(at('Endpoints', 'accepted', 'List endpoints accept query `page` and `page_size` and return the page asked for.'));
      rules.push(at('Common conventions', 'consistent', "A list response's `pages` and `results` agree with what paging through the collection returns."));
      continue;
    }
    rules.push(at('Limits', 'page.min-1', '`page` is an integer >= 1: a smaller page is rejected.'));
    rules.push(at('Limits', 'page.default-1', '`page` defaults to 1.'));
    rules.push(at('Limits', 'page-size.min-25', '`page_size` is at least 25: a smaller value is rejected.'));
    rules.push(at('Limits', 'page-size.max-100', '`page_size` is at most 100: a larger value is rejected.'));
    rules.push(at('Limits', 'page-size.default-100', '`page_size` defaults to 100.'));
  }
  return rules;
}

/** Inferred: the documents name success and error responses only; a server error is no documented outcome. */
const noServerError: DeclaredRule = {
  id: 'P1.errors.no-server-error',
  part: 1,
  section: 'Errors',
  level: 'SHOULD',
  rule: 'Inferred: a request answered by any documented endpoint gets a success or an error response for a documented condition, never a 5xx server error.',
  endpoints: endpoints.map(endpointKey),
  needs: ['none'],
  check: 'scenario',
};

/** An error response means the request failed: what it addressed reads back as before. */
const rejectedWriteNoEffect: DeclaredRule = {
  id: 'P1.errors.rejected-write-no-effect',
  part: 1,
  section: 'Errors',
  level: 'MUST',
  rule: 'A write answered with an error response has no effect: the resource it addressed reads back unchanged.',
  endpoints: endpoints.filter((endpoint) => endpoint.method === 'PUT').map(endpointKey),
  needs: ['none'],
  check: 'property',
};

export const endpointRules: DeclaredRule[] = [...endpoints.flatMap(rulesOf), ...pagingRules(), noServerError, rejectedWriteNoEffect];
