// The domains area's stored objects: domains, their records and rendered zones, the names taken on the
// platform, with the lookups the other domain files and the ips and tags areas use.
import ipaddr from 'ipaddr.js';
import type { Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { fail, isIpv4Text } from '../../core/validate.js';
import { canAccess } from '../../core/permissions.js';
import { deletionRuns } from '../../core/deletions.js';
import { faulty } from '../../faults/index.js';

export interface Domain {
  id: number;
  domain: string;
  type: 'master' | 'slave';
  status: 'active' | 'disabled';
  soa_email: string;
  description?: string;
  group?: string;
  axfr_ips: string[];
  master_ips: string[];
  tags: string[];
  expire_sec: number;
  refresh_sec: number;
  retry_sec: number;
  ttl_sec: number;
  created: string;
  updated: string;
}

export const RECORD_TYPES = ['A', 'AAAA', 'NS', 'MX', 'CNAME', 'TXT', 'SRV', 'PTR', 'CAA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface DomainRecord {
  id: number;
  type: RecordType;
  name: string;
  target: string;
  ttl_sec: number;
  priority: number | null;
  weight: number | null;
  port: number | null;
  service: string | null;
  protocol: string | null;
  tag: string | null;
  created: string;
  updated: string;
}

export interface DomainState {
  records: DomainRecord[];
  /** Lines of the last rendered zone; null when never rendered. */
  zone: string[] | null;
}

export const DOMAINS = 'domains';
export const STATE = 'domains_state';
export const FOREIGN = 'domains_foreign';
/** A domain owned by another account: never listed, but its name is taken on the platform. */
export const FOREIGN_DOMAIN = 'taken-by-another-account.example';

const DOMAIN_TIME_VALUES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
const RECORD_TTL_VALUES = DOMAIN_TIME_VALUES.slice(1);
export const TIME_DEFAULTS = { expire_sec: 1209600, refresh_sec: 14400, retry_sec: 14400, ttl_sec: 86400 } as const;
export const NAMESERVERS = ['ns1.chs-emulator.net', 'ns2.chs-emulator.net'];
export const R = 'domains:read_only';
export const W = 'domains:read_write';

export function getDomain(store: Store, id: number): Domain | undefined {
  return store.table<Domain>(DOMAINS).get(String(id));
}

export function listDomains(store: Store): Domain[] {
  return [...store.table<Domain>(DOMAINS).values()];
}

/** A DNS name: labels of letters/digits/hyphens (1..63, no hyphen at either end), 1..255 chars in all. */
export function isDomainName(
  s: string,
  opts: { trailingDot?: boolean; minLabels?: number; underscores?: boolean; maxLength?: number; label?: RegExp } = {},
): boolean {
  let name = s;
  if (opts.trailingDot && name.endsWith('.')) name = name.slice(0, -1);
  if (name.length < 1 || name.length > (opts.maxLength ?? 255)) return false;
  const labels = name.split('.');
  if (labels.length < (opts.minLabels ?? 1)) return false;
  const label = opts.label ?? (opts.underscores ? /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/ : /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/);
  return labels.every((l) => label.test(l));
}

/** A plain IP address: IPv4 (isIpv4Text) or IPv6, no mask. */
export function isIp(store: Store, s: string): boolean {
  return isIpv4Text(store, s) || (!s.includes('/') && ipaddr.IPv6.isValid(s));
}

/** Rounds a domain time value up to the next valid value (0 stays 0); above the largest → 400. */
export function roundDomainTime(v: number, field: string, fault: { nearest?: boolean; zeroRoundsUp?: boolean; strict?: boolean } = {}): number {
  if (fault.nearest && v <= 2419200) return nearest(DOMAIN_TIME_VALUES, v);
  const up = DOMAIN_TIME_VALUES.find((x) => (fault.strict ? x > v : x >= v) && !(fault.zeroRoundsUp && x === 0));
  if (up === undefined) fail(`${field} must be at most 2419200 seconds.`, field);
  return up;
}

/** The nearest of `values`; a tie goes to the larger one. */
function nearest(values: readonly number[], v: number): number {
  let best = values[0]!;
  for (const x of values) if (Math.abs(x - v) <= Math.abs(best - v)) best = x;
  return best;
}

/** Rounds a record ttl to the nearest valid value; a tie goes to the larger one. */
export function roundRecordTtl(v: number, roundUp = false): number {
  return roundUp ? (RECORD_TTL_VALUES.find((x) => x >= v) ?? RECORD_TTL_VALUES.at(-1)!) : nearest(RECORD_TTL_VALUES, v);
}

export function entityOf(d: Domain) {
  return { id: d.id, label: d.domain, type: 'domain', url: `/v4/domains/${d.id}` };
}

export function stateOf(store: Store, id: number): DomainState {
  const t = store.table<DomainState>(STATE);
  let s = t.get(String(id));
  if (!s) {
    s = { records: [], zone: null };
    t.set(String(id), s);
  }
  return s;
}

/** The account's domains by lower-cased name (names are unique ignoring case): kept with every create, rename, delete. */
const NAMES = 'domain-names';
export const names = (store: Store) => store.table<number>(NAMES);

/** Frees a domain's name; under the fault P3.domain.domain.unique-platform a clone may hold it still, and keeps it taken. */
export function releaseName(store: Store, d: Domain): void {
  const lower = d.domain.toLowerCase();
  if (names(store).get(lower) === d.id) names(store).delete(lower);
  const holder = listDomains(store).find((other) => other.id !== d.id && other.domain.toLowerCase() === lower);
  if (holder) names(store).set(lower, holder.id);
}

/** Under the fault P3.domain.delete.removes-records: deleted domains whose records still answer at their paths. */
export const DELETED_KEEPING_RECORDS = 'domains_deleted_keeping_records';

/** `recordRead`: the domain of a records read (under the fault above a deleted domain still answers there). */
export function domainOr404(ctx: RequestContext, raw: string, level: 'read_only' | 'read_write', byName = false, recordRead = false): Domain {
  let d: Domain | undefined;
  if (/^\d{1,15}$/.test(raw)) d = getDomain(ctx.store, Number(raw));
  else if (faulty(ctx.store, 'P3.path.integer-ids') && /^\d/.test(raw)) d = getDomain(ctx.store, parseInt(raw, 10));
  else if (byName) {
    const id = names(ctx.store).get(raw.toLowerCase());
    d = id === undefined ? undefined : getDomain(ctx.store, id);
  }
  if (!d && recordRead && /^\d{1,15}$/.test(raw) && faulty(ctx.store, 'P3.domain.delete.removes-records'))
    d = ctx.store.table<Domain>(DELETED_KEEPING_RECORDS).get(String(Number(raw)));
  if (!d || !canAccess(ctx.principal, 'domain', d.id, 'read_only')) fail(`Domain ${raw} not found.`, null, 404);
  if (level === 'read_write' && !canAccess(ctx.principal, 'domain', d.id, 'read_write')) {
    fail(`You have read-only access to domain ${d.id}; read_write is needed.`, null, 403);
  }
  return d;
}

/**
 * A new record's id: the next, or under ids-reused the lowest no record of any domain holds, nor one whose deletion
 * still runs (record-delete-runs-a-while: its domain deleted meanwhile, a DELETE of a new record of its id would be
 * taken for a DELETE sent again).
 */
export function newRecordId(store: Store): number {
  let held: Set<number> | undefined;
  const records = () => new Set([...store.table<DomainState>(STATE).values()].flatMap((st) => st.records.map((r) => r.id)));
  return store.newId('domain_record', (n) => (held ??= records()).has(n) || deletionRuns(store, 'record-delete-runs-a-while', String(n)));
}

/** Records of a domain (for the reverse DNS check of the ips area). */
export function recordsOf(store: Store, domainId: number): readonly DomainRecord[] {
  return stateOf(store, domainId).records;
}
