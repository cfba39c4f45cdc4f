// What the documents say an endpoint answers, judged on one recorded response: the resource schema, the list
// envelope, the error body or `{}`; "not shown" responses are not judged.
import { ENVELOPE, LIST_PREFIX, validateValue, type Violation } from './contract.js';
import { endpointByKey, endpointKey, endpoints, type Endpoint } from '../rules/endpoints.js';
import { ruleById } from '../rules/index.js';
import { returnedTwin } from '../rules/response-bounds.js';

export interface JudgedViolation extends Violation {
  /** MUST: a fail. SHOULD: a warning (the rule or the endpoint's response shape is inferred, not stated). */
  level: 'MUST' | 'SHOULD';
}

export interface ResponseVerdict {
  endpoint: string;
  status: number;
  /** What the body was judged against, e.g. `resources/domain`, `lists/resources/event`, `common/error-body`, or `not shown`. */
  judgedAgainst: string;
  violations: JudgedViolation[];
}

/**
 * Parameters whose id may keep its slash in a path (`/v4/images/private/27`): a database engine's, an image's
 * (`compute/…`, `private/…`) and a kernel's (what one looks like is not shown), where the target takes them so
 * (`discoverSlashedIdForm` in harness/resources.ts). No other endpoint of the same method lies under theirs.
 */
const mayHoldSlash = (endpoint: Endpoint, name: string) => endpoint.params[name] === 'engine-id' || name === 'imageId' || name === 'kernelId';

const matchers = endpoints
  .map((endpoint) => ({
    endpoint,
    literalSegments: endpoint.path.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
    pattern: new RegExp(`^${endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => (mayHoldSlash(endpoint, name) ? '[^/]+(?:/[^/]+)?' : '[^/]+'))}/?$`),
  }))
  .sort((a, b) => b.literalSegments - a.literalSegments);

/**
 * Endpoints already found, by what was asked: every exchange asks about its path several times (admitting, judging,
 * counting), and a run's paths repeat (a resource's create, read and delete). Cleared when it grows large.
 */
const found = new Map<string, Endpoint | undefined>();
const FOUND_MAX = 10_000;

/** Finds the catalogue endpoint for `METHOD /template` or a concrete `METHOD /v4/domains/12?page=2`. */
export function findEndpoint(spec: string): Endpoint | undefined {
  if (found.has(spec)) return found.get(spec);
  if (found.size >= FOUND_MAX) found.clear();
  const endpoint = lookUpEndpoint(spec);
  found.set(spec, endpoint);
  return endpoint;
}

function lookUpEndpoint(spec: string): Endpoint | undefined {
  const match = /^\s*(GET|POST|PUT|DELETE)\s+(\S+)\s*$/i.exec(spec);
  if (!match) return undefined;
  const method = match[1]!.toUpperCase();
  const path = match[2]!.split('?')[0]!;
  const exact = endpointByKey.get(`${method} ${path}`);
  if (exact) return exact;
  return matchers.find((candidate) => candidate.endpoint.method === method && candidate.pattern.test(path))?.endpoint;
}

/** The keywords that carry a caller-side rule: a length bound, a character rule, or one an x-check function reports. */
const CALLER_SIDE_KEYWORDS = new Set(['minLength', 'maxLength', 'pattern', 'x-check']);

/** A caller-side rule broken by a response is reported under its response-side twin (SHOULD): see rules/response-bounds.ts. */
function responseRule(rule: string, keyword?: string): string {
  return (keyword && CALLER_SIDE_KEYWORDS.has(keyword) && returnedTwin(rule)) || rule;
}

function withLevels(violations: Violation[], shapeLevel: 'MUST' | 'SHOULD'): JudgedViolation[] {
  return violations.map((judged) => {
    const violation = { ...judged, rule: responseRule(judged.rule, judged.keyword) };
    const ruleLevel = ruleById.get(violation.rule)?.level ?? 'MUST';
    return { ...violation, level: ruleLevel === 'MUST' && shapeLevel === 'MUST' ? 'MUST' : 'SHOULD' };
  });
}

/** The schema a response of this endpoint and status is judged against, or null when the documents do not show it. */
export function responseSchemaFor(endpoint: Endpoint, status: number): { ref: string; level: 'MUST' | 'SHOULD' } | null {
  if (status >= 400) return { ref: 'common/error-body', level: 'MUST' };
  if (status < 200 || status >= 300) return null;
  const spec = endpoint.response;
  switch (spec.kind) {
    case 'resource':
      return { ref: spec.schema, level: spec.level };
    case 'list':
      return { ref: spec.item ? `${LIST_PREFIX}${spec.item}` : ENVELOPE, level: spec.level };
    case 'empty':
      return { ref: 'common/empty', level: 'MUST' };
    case 'not-shown':
      return null;
  }
}

export function judgeResponse(endpoint: Endpoint, status: number, body: unknown): ResponseVerdict {
  const schema = responseSchemaFor(endpoint, status);
  const key = endpointKey(endpoint);
  if (!schema) return { endpoint: key, status, judgedAgainst: 'not shown', violations: [] };
  return { endpoint: key, status, judgedAgainst: schema.ref, violations: withLevels(validateValue(schema.ref, body), schema.level) };
}

/** A judgement asked for an endpoint the catalogue lacks, or a status that is no HTTP status code. */
export class JudgeInputError extends Error {}

/**
 * Judges one response given as `METHOD /template` or a concrete `METHOD /v4/…` path, its status and its body:
 * what `conformance validate` prints and the package's `validate()` returns.
 */
export function judgeExchange(endpointSpec: string, status: number, body: unknown): ResponseVerdict {
  const endpoint = typeof endpointSpec === 'string' ? findEndpoint(endpointSpec) : undefined;
  if (!endpoint)
    throw new JudgeInputError(
      `unknown endpoint "${String(endpointSpec)}" (see \`conformance endpoints\`; write it as "GET /v4/domains/{domainId}" or a concrete path)`,
    );
  if (!Number.isInteger(status) || status < 100 || status > 599) throw new JudgeInputError(`status must be an HTTP status code (100–599), got "${status}"`);
  return judgeResponse(endpoint, status, body);
}
