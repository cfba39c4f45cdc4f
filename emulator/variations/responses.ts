// The variations applied once, to every API response as it is sent (the server's onSend hook): member order, item
// order, extra members, success and error status codes. The areas never see them.
import { varied } from './index.js';

type Store = { variations: ReadonlySet<string> };
type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

/** The status a variation gives an API error of `status` (`documented`: the documents name it, so it stays). */
export function errorStatus(store: Store, status: number, documented: boolean): number {
  if (documented) return status;
  if (status === 400 && varied(store, 'invalid-422')) return 422;
  if (status === 401 && varied(store, 'unauthenticated-403')) return 403;
  if (status === 403 && varied(store, 'forbidden-401')) return 401;
  if (status === 404 && varied(store, 'not-found-403')) return 403;
  return status;
}

/** 409 for a clash with an existing resource under the variation, else 400 (the areas' uniqueness checks). */
export function conflictStatus(store: Store): number {
  return varied(store, 'conflicts-409') ? 409 : 400;
}

/** The status of a successful POST: `create` when the path is also a list (a collection). */
export function successStatus(store: Store, method: string, status: number, create: boolean): number {
  if (method !== 'POST' || status !== 200) return status;
  if (create && varied(store, 'creates-201')) return 201;
  if (!create && varied(store, 'actions-202')) return 202;
  return status;
}

const isObject = (value: Json): value is { [member: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);
const isListPage = (value: { [member: string]: Json }): boolean => Array.isArray(value['data']) && typeof value['page'] === 'number' && 'results' in value;

/** Objects whose keys are data, not member names (a node type's prices keyed by engine name): no member is added. */
const KEYED_MAPS = new Set(['engines']);

/**
 * The routes whose answers show ids of a type the documents do not give (firewalls, their devices, domain records,
 * monitoring clients; a device add may answer the firewall): the object's own `id`, or each list item's.
 */
const UNTYPED_ID_ROUTES = /^\/v4\/(networking\/firewalls|domains\/:domainId\/records|monitor\/clients)(\/|$)/;

/** The ids of the answer (its own, or its list items') written as JSON strings of digits (`not-shown-ids-as-strings`). */
function idsAsStrings(value: Json): Json {
  if (!isObject(value)) return value;
  if (isListPage(value)) return { ...value, data: (value['data'] as Json[]).map(idsAsStrings) };
  return typeof value['id'] === 'number' ? { ...value, id: String(value['id']) } : value;
}

function reshape(store: Store, value: Json, keyed = false): Json {
  if (Array.isArray(value)) return value.map((item) => reshape(store, item));
  if (!isObject(value)) return value;
  let entries = Object.entries(value).map(([member, inner]): [string, Json] => [member, reshape(store, inner, KEYED_MAPS.has(member))]);
  if (varied(store, 'items-reversed') && isListPage(value))
    entries = entries.map(([member, inner]) => [member, member === 'data' ? [...(inner as Json[])].reverse() : inner]);
  if (varied(store, 'extra-members') && entries.length > 0 && !keyed) entries.push(['vendor_note', 'an undocumented member']);
  if (varied(store, 'domain-unset-members-null') && isDomain(value)) entries = withUnsetNull(entries, value['type'] === 'slave');
  if (varied(store, 'firewall-rule-unset-members-null') && isFirewallRule(value)) entries = withMembersNull(entries, ['description', 'label']);
  if (varied(store, 'domain-names-absolute') && isZone(value))
    entries = entries.map(([member, inner]): [string, Json] => [member, member === 'domain' ? absolute(inner) : inner]);
  if (varied(store, 'members-reversed')) entries.reverse();
  return Object.fromEntries(entries);
}

/** A domain as the areas write it (a zone name, a type and an SOA address member). */
const isDomain = (value: { [member: string]: Json }): boolean =>
  typeof value['domain'] === 'string' && (value['type'] === 'master' || value['type'] === 'slave') && 'soa_email' in value;

/** A domain or a summary of one (domain-list-summary): a zone name and a type. */
const isZone = (value: { [member: string]: Json }): boolean => typeof value['domain'] === 'string' && (value['type'] === 'master' || value['type'] === 'slave');

/** A firewall rule as the areas write it (an action, a protocol and an addresses object). */
const isFirewallRule = (value: { [member: string]: Json }): boolean =>
  typeof value['action'] === 'string' && typeof value['protocol'] === 'string' && isObject(value['addresses'] ?? null);

/** A domain name written absolute, with a final period (RFC 1035's master-file form). */
const absolute = (name: Json): Json => (typeof name === 'string' && !name.endsWith('.') ? `${name}.` : name);

/** `members` the object does not have, added as null. */
function withMembersNull(entries: Array<[string, Json]>, members: string[]): Array<[string, Json]> {
  return [...entries, ...members.filter((member) => !entries.some(([name]) => name === member)).map((member): [string, Json] => [member, null])];
}

/** A domain's optional members without a value shown as null: description and group, and a slave's empty soa_email. */
function withUnsetNull(entries: Array<[string, Json]>, slave: boolean): Array<[string, Json]> {
  const shown = entries.map(([member, inner]): [string, Json] => [member, member === 'soa_email' && slave && inner === '' ? null : inner]);
  return withMembersNull(shown, ['description', 'group']);
}

const BODY_VARIATIONS = [
  'members-reversed',
  'items-reversed',
  'extra-members',
  'domain-unset-members-null',
  'firewall-rule-unset-members-null',
  'domain-names-absolute',
  'not-shown-ids-as-strings',
] as const;

/** The JSON payload as the body variations write it (`route`: the pattern of the route that answered); anything else unchanged. */
export function variedPayload(store: Store, payload: unknown, route: string | undefined): unknown {
  if (typeof payload !== 'string' || !BODY_VARIATIONS.some((id) => varied(store, id))) return payload;
  let parsed: Json;
  try {
    parsed = JSON.parse(payload) as Json;
  } catch {
    return payload;
  }
  if (varied(store, 'not-shown-ids-as-strings') && UNTYPED_ID_ROUTES.test(route ?? '')) parsed = idsAsStrings(parsed);
  return JSON.stringify(reshape(store, parsed));
}

/** How long (wall-clock ms) reads lag a create under `reads-lag-creates`. */
export const READ_LAG_MS = 150;

const created = new WeakMap<Store, Map<string, number>>();

/**
 * Reads lagging creates (`reads-lag-creates`), as from a replica: for READ_LAG_MS after a POST made a resource, its
 * collection's list (when shown on one page) leaves it out and its view answers 404. Writes are not delayed. Returns the status and payload
 * a read answers with, or undefined to send the response as it is.
 */
export function laggedRead(store: Store, method: string, path: string, status: number, payload: unknown): { status: number; payload: string } | undefined {
  if (!varied(store, 'reads-lag-creates') || typeof payload !== 'string' || status < 200 || status >= 300) return undefined;
  let recent = created.get(store);
  if (!recent) created.set(store, (recent = new Map()));
  let body: Json;
  try {
    body = JSON.parse(payload) as Json;
  } catch {
    return undefined;
  }
  const now = Date.now();
  if (method === 'POST') {
    const id = isObject(body) ? body['id'] : undefined;
    if (typeof id === 'number' || typeof id === 'string') recent.set(`${path}/${id}`, now + READ_LAG_MS);
    return undefined;
  }
  if (method !== 'GET') return undefined;
  const hidden = (key: string): boolean => (recent.get(key) ?? 0) > now;
  if (hidden(path)) return { status: 404, payload: JSON.stringify({ errors: [{ reason: 'Not found', field: null }] }) };
  // Only a list shown whole leaves items out: one page's answer cannot tell what the others hide, and a replica's
  // results and pages count what its pages show.
  if (!isObject(body) || !isListPage(body) || body['pages'] !== 1) return undefined;
  const data = (body['data'] as Json[]).filter((item) => !(isObject(item) && hidden(`${path}/${String(item['id'])}`)));
  const left = (body['data'] as Json[]).length - data.length;
  if (!left) return undefined;
  return { status, payload: JSON.stringify({ ...body, data, results: (body['results'] as number) - left }) };
}

/** How long (wall-clock ms) a read may lag the writes before it under `replica-reads`. */
export const REPLICA_LAG_MS = 150;

interface Replica {
  lastWrite: number;
  /** The last answer to each GET (path, query and caller), and when it was given. */
  answers: Map<string, { at: number; status: number; payload: string }>;
}
const replicas = new WeakMap<Store, Replica>();

/**
 * Reads from a replica that lags up to REPLICA_LAG_MS (`replica-reads`): a GET repeated within that time of its last
 * answer, with a write in between, gets the last answer again (the state before the write). Returns the status and
 * payload a read answers with, or undefined to send the response as it is.
 */
export function replicaRead(store: Store, method: string, key: string, status: number, payload: unknown): { status: number; payload: string } | undefined {
  if (!varied(store, 'replica-reads') || typeof payload !== 'string') return undefined;
  let replica = replicas.get(store);
  if (!replica) replicas.set(store, (replica = { lastWrite: 0, answers: new Map() }));
  const now = Date.now();
  if (method !== 'GET') {
    if (status < 400) replica.lastWrite = now;
    return undefined;
  }
  const last = replica.answers.get(key);
  if (last && now - last.at < REPLICA_LAG_MS && replica.lastWrite > last.at) return { status: last.status, payload: last.payload };
  replica.answers.set(key, { at: now, status, payload });
  return undefined;
}

const deletedPaths = new WeakMap<Store, Set<string>>();

function parsedOrUndefined(payload: string): Json | undefined {
  try {
    return JSON.parse(payload) as Json;
  } catch {
    return undefined;
  }
}

/**
 * The view of what was deleted (`deleted-view-gone-410`): a successful DELETE marks its path; a GET of that path, or of
 * a path under it, that answers 404 answers 410 Gone instead (the same error body). A path no DELETE removed keeps its
 * 404. Returns the status and payload a read answers with, or undefined to send the response as it is.
 */
export function goneRead(store: Store, method: string, path: string, status: number, payload: unknown): { status: number; payload: string } | undefined {
  if (!varied(store, 'deleted-view-gone-410') || typeof payload !== 'string') return undefined;
  let deleted = deletedPaths.get(store);
  if (!deleted) deletedPaths.set(store, (deleted = new Set()));
  if (method === 'DELETE' && status >= 200 && status < 300) deleted.add(path);
  // A create given a deleted resource's id (ids-reused) makes its path no longer gone.
  if (method === 'POST' && status >= 200 && status < 300 && deleted.size > 0) {
    const body = parsedOrUndefined(payload);
    if (body !== undefined && isObject(body) && typeof body['id'] === 'number') deleted.delete(`${path}/${body['id']}`);
  }
  if (method !== 'GET' || status !== 404) return undefined;
  const segments = path.split('/');
  const removed = segments.some((_, end) => end > 1 && deleted.has(segments.slice(0, end + 1).join('/')));
  return removed ? { status: 410, payload } : undefined;
}
