// Document 3, "Domains": DNS zones and their records, clone, import and zone file.
//
// Choices where the document is silent:
// - Time values (expire_sec, refresh_sec, retry_sec, ttl_sec) are stored as given after rounding UP to a valid
//   value; 0 is stored and returned as 0 (it is itself a valid value, meaning "the default") and the defaults
//   (expire 1209600, refresh 14400, retry 14400, ttl 86400) are applied when the zone is rendered.
//   Negative values and values above 2419200 → 400.
// - Record ttl_sec is rounded to the NEAREST valid value; a tie goes to the LARGER value; absent → the domain's
//   effective ttl. Negative → 400.
// - A domain without description / group has no such member (an empty string would break 1..255 / 1..50);
//   soa_email of a slave domain given none is "".
// - Domain names: 1..255 chars, at least two labels, labels 1..63 letters/digits/hyphens not starting or ending
//   with a hyphen (RFC 1035 as relaxed by RFC 1123: a label may start with a digit); no trailing period;
//   uniqueness is case-insensitive and platform-wide (a seeded domain of "another account" is never listed).
// - Import simulates the zone transfer: any valid hostname or IP as remote_nameserver succeeds, except addresses
//   in 192.0.2.0/24 (TEST-NET-1), which stand for a nameserver that refuses AXFR (400). The imported zone is a
//   master domain with soa_email hostmaster@<domain> and no records.
// - {domainId} in the clone and zone-file paths (a string) is the numeric id or the domain name.
// - Record fields that belong to other types (priority on an A record, tag on an MX, ...) → 400.
// - SRV: `service` and `protocol` get their `_` only when it is missing (so a PUT that sends back the stored value
//   is stable); service also gets a trailing period; the record's name is `<service><protocol>`.
// - A CNAME's name must differ from every other CNAME of the domain (case-insensitive).
// - The zone file is `{"zone_file": [lines]}`, re-rendered after every change while the domain is active; a domain
//   created disabled has never been rendered and returns `{"zone_file": []}`.
// - Events: dns_zone_create / dns_zone_update / dns_zone_delete / dns_zone_import, dns_record_create /
//   dns_record_update / dns_record_delete.
import ipaddr from 'ipaddr.js';
import { emitEvent } from '../core/events.js';
import { paginate } from '../core/pagination.js';
import { canAccess, grantOwnership } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { Area, RequestContext, Route } from '../core/types.js';
import {
  asObject,
  fail,
  optArray,
  optInt,
  optString,
  reqString,
  tagList,
} from '../core/validate.js';
import { route } from '../core/routes.js';
import { faulty, type FaultId } from '../faults/index.js';
import { conflictStatus } from '../variations/responses.js';

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
type RecordType = (typeof RECORD_TYPES)[number];

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

interface DomainState {
  records: DomainRecord[];
  /** Lines of the last rendered zone; null when never rendered. */
  zone: string[] | null;
}

const DOMAINS = 'domains';
const STATE = 'domains_state';
const FOREIGN = 'domains_foreign';
/** A domain owned by another account: never listed, but its name is taken on the platform. */
export const FOREIGN_DOMAIN = 'taken-by-another-account.example';

export const DOMAIN_TIME_VALUES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
const RECORD_TTL_VALUES = DOMAIN_TIME_VALUES.slice(1);
const TIME_DEFAULTS = { expire_sec: 1209600, refresh_sec: 14400, retry_sec: 14400, ttl_sec: 86400 } as const;
const NAMESERVERS = ['ns1.chs-emulator.net', 'ns2.chs-emulator.net'];

// ---------------------------------------------------------------------------------------------- exports

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

/** Domain-name labels as the faults `label-max-63` and `rfc-1035` read them. */
const LONG_LABEL = /^(?!-)[A-Za-z0-9-]{1,255}(?<!-)$/;
const HYPHEN_ENDS_LABEL = /^[A-Za-z0-9-]{1,63}$/;

/** A plain IP address: dotted-quad IPv4 (no legacy short forms) or IPv6, no mask. */
export function isIp(s: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(s) || (!s.includes('/') && ipaddr.IPv6.isValid(s));
}

/** Rounds a domain time value up to the next valid value (0 stays 0); above the largest → 400. */
export function roundDomainTime(v: number, field: string, fault: { nearest?: boolean; zeroRoundsUp?: boolean } = {}): number {
  if (fault.nearest && v <= 2419200) return nearest(DOMAIN_TIME_VALUES, v);
  const up = DOMAIN_TIME_VALUES.find((x) => x >= v && !(fault.zeroRoundsUp && x === 0));
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

function entityOf(d: Domain) {
  return { id: d.id, label: d.domain, type: 'domain', url: `/v4/domains/${d.id}` };
}

function stateOf(store: Store, id: number): DomainState {
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
const names = (store: Store) => store.table<number>(NAMES);

function nameTaken(store: Store, name: string, exceptId?: number): boolean {
  const lower = name.toLowerCase();
  if (store.table<string>(FOREIGN).has(lower)) return true;
  const id = names(store).get(lower);
  return id !== undefined && id !== exceptId;
}

function readDomainName(store: Store, o: Record<string, unknown>, required: boolean, exceptId?: number, clone = false): string | undefined {
  const max = faulty(store, 'P3.domain.domain.max-255') ? 1000 : 255;
  const name = required ? reqString(o, 'domain', { min: 1, max }) : optString(o, 'domain', { min: 1, max });
  if (name === undefined) return undefined;
  const label = faulty(store, 'P3.domain.domain.label-max-63') ? LONG_LABEL : faulty(store, 'P3.domain.domain.rfc-1035') ? HYPHEN_ENDS_LABEL : undefined;
  if (!isDomainName(name, { minLabels: 2, maxLength: max, ...(label ? { label } : {}) })) {
    fail(
      'domain must be a valid domain name (RFC 1035): at least two dot-separated labels of letters, digits and hyphens, each 1 to 63 characters, not starting or ending with a hyphen.',
      'domain',
    );
  }
  if (nameTaken(store, name, exceptId) && !(clone && faulty(store, 'P3.domain.domain.unique-platform'))) fail(`The domain ${name} already exists on the platform; choose another name.`, 'domain', conflictStatus(store));
  return name;
}

function readIpList(o: Record<string, unknown>, key: string, anyString = false): string[] | undefined {
  const arr = optArray(o, key);
  if (arr === undefined) return undefined;
  return arr.map((v, i) => {
    if (typeof v !== 'string' || !(isIp(v) || anyString)) fail(`${key}.${i} must be an IP address.`, `${key}.${i}`);
    return v;
  });
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const TIME_FAULTS: Record<'expire_sec' | 'refresh_sec' | 'retry_sec' | 'ttl_sec', { nearest: FaultId; zero?: FaultId }> = {
  expire_sec: { nearest: 'P3.domain.expire-sec.round-up' },
  refresh_sec: { nearest: 'P3.domain.refresh-sec.round-up', zero: 'P3.domain.refresh-sec.zero-means-default-14400' },
  retry_sec: { nearest: 'P3.domain.retry-sec.round-up' },
  ttl_sec: { nearest: 'P3.domain.ttl-sec.round-up', zero: 'P3.domain.ttl-sec.zero-means-default-86400' },
};

/**
 * Reads the domain members of a create or update body into `p`, a patch (the rules that span members come after);
 * on a refusal `p` holds the members read before the one at fault.
 */
function readDomainFields(ctx: RequestContext, o: Record<string, unknown>, creating: boolean, exceptId?: number, p: Partial<Domain> = {}): Partial<Domain> {
  const store = ctx.store;
  const domain = readDomainName(store, o, creating, exceptId);
  if (domain !== undefined) p.domain = domain;
  const types = faulty(store, 'P3.domain.type.enum') ? {} : { enum: ['master', 'slave'] as const };
  const type = creating && !faulty(store, 'P3.domain-create.type.required')
    ? reqString(o, 'type', types)
    : optString(o, 'type', types) ?? (creating ? (Array.isArray(o['master_ips']) && o['master_ips'].length > 0 ? 'slave' : 'master') : undefined);
  if (type !== undefined) p.type = type as Domain['type'];
  const status = optString(o, 'status', faulty(store, 'P3.domain.status.enum') ? {} : { enum: ['active', 'disabled'] as const });
  if (status !== undefined) p.status = status as Domain['status'];
  const soa = optString(o, 'soa_email', faulty(store, 'P3.domain.soa-email.email') ? { max: 255 } : { max: 255, pattern: EMAIL, patternReason: 'soa_email must be an email address.' });
  if (soa !== undefined) p.soa_email = soa;
  const description = optString(o, 'description', { min: 1, max: faulty(store, 'P3.domain.description.max-255') ? 1000 : 255 });
  if (description !== undefined) p.description = description;
  const group = optString(o, 'group', { min: faulty(store, 'P3.domain.group.min-1') ? 0 : 1, max: 50 });
  if (group !== undefined) p.group = group;
  const axfr = readIpList(o, 'axfr_ips');
  if (axfr !== undefined) p.axfr_ips = axfr;
  const masters = readIpList(o, 'master_ips', faulty(store, 'P3.domain.master-ips.ip'));
  if (masters !== undefined) p.master_ips = masters;
  const tags = tagList(ctx, o);
  if (tags !== undefined) p.tags = tags;
  for (const key of ['expire_sec', 'refresh_sec', 'retry_sec', 'ttl_sec'] as const) {
    const v = optInt(o, key, { min: 0 });
    const f = TIME_FAULTS[key];
    if (v !== undefined) p[key] = roundDomainTime(v, key, { nearest: faulty(store, f.nearest), zeroRoundsUp: f.zero !== undefined && faulty(store, f.zero) });
  }
  return p;
}

/** Rules across members, on the resulting domain. */
function checkDomain(store: Store, d: Domain): void {
  if (d.type === 'master' && !d.soa_email && !faulty(store, 'P3.domain.soa-email.required-for-master')) fail('soa_email is required for a master domain.', 'soa_email');
  if (d.type === 'slave' && d.master_ips.length === 0 && !faulty(store, 'P3.domain.master-ips.required-for-slave')) {
    fail('master_ips needs at least one IP address for a slave domain.', 'master_ips');
  }
}

function domainOr404(ctx: RequestContext, raw: string, level: 'read_only' | 'read_write', byName = false): Domain {
  let d: Domain | undefined;
  if (/^\d{1,15}$/.test(raw)) d = getDomain(ctx.store, Number(raw));
  else if (byName) {
    const id = names(ctx.store).get(raw.toLowerCase());
    d = id === undefined ? undefined : getDomain(ctx.store, id);
  }
  if (!d || !canAccess(ctx.principal, 'domain', d.id, 'read_only')) fail(`Domain ${raw} not found.`, null, 404);
  if (level === 'read_write' && !canAccess(ctx.principal, 'domain', d.id, 'read_write')) {
    fail(`You have read-only access to domain ${d.id}; read_write is needed.`, null, 403);
  }
  return d;
}

function createDomain(ctx: RequestContext, fields: Partial<Domain> & { domain: string; type: Domain['type'] }): Domain {
  const now = ctx.store.nowIso();
  const d: Domain = {
    id: ctx.store.nextId('domain'),
    domain: fields.domain,
    type: fields.type,
    status: faulty(ctx.store, 'P3.domain.status.default-active') ? 'disabled' : 'active',
    soa_email: '',
    axfr_ips: [],
    master_ips: [],
    tags: [],
    expire_sec: 0,
    refresh_sec: 0,
    retry_sec: 0,
    ttl_sec: 0,
    created: now,
    updated: now,
  };
  Object.assign(d, fields);
  checkDomain(ctx.store, d);
  ctx.store.table<Domain>(DOMAINS).set(String(d.id), d);
  names(ctx.store).set(d.domain.toLowerCase(), d.id);
  grantOwnership(ctx.principal, 'domain', d.id);
  render(ctx.store, d);
  return d;
}

// ---------------------------------------------------------------------------------------------- zone file

function fqdn(name: string, zone: string): string {
  if (name === '') return `${zone}.`;
  if (name.endsWith('.')) return name;
  if (name.toLowerCase() === zone.toLowerCase() || name.toLowerCase().endsWith(`.${zone.toLowerCase()}`)) return `${name}.`;
  return `${name}.${zone}.`;
}

/** Renders the zone when the domain is active; a disabled domain keeps its last rendered zone. */
function render(store: Store, d: Domain): void {
  if (d.status !== 'active') return;
  const eff = (k: keyof typeof TIME_DEFAULTS) => d[k] || TIME_DEFAULTS[k];
  const serial = d.updated.slice(0, 10).replace(/-/g, '') + '01';
  const email = d.soa_email ? d.soa_email.replace('@', '.') + '.' : `hostmaster.${d.domain}.`;
  const lines = [
    `; ${d.domain} [${d.id}]`,
    `$TTL ${eff('ttl_sec')}`,
    `@\tIN\tSOA\t${NAMESERVERS[0]}. ${email} ${serial} ${eff('refresh_sec')} ${eff('retry_sec')} ${eff('expire_sec')} ${eff('ttl_sec')}`,
    ...NAMESERVERS.map((ns) => `@\t\tNS\t${ns}.`),
  ];
  for (const r of stateOf(store, d.id).records) {
    const owner = r.type === 'SRV' ? fqdn(r.name, d.domain) : r.name === '' ? '@' : r.name;
    let data: string;
    switch (r.type) {
      case 'MX':
        data = `${r.priority} ${r.target === '' ? '.' : fqdn(r.target, '')}`;
        break;
      case 'SRV':
        data = `${r.priority} ${r.weight} ${r.port} ${fqdn(r.target, '')}`;
        break;
      case 'CAA':
        data = `0 ${r.tag} "${r.target}"`;
        break;
      case 'TXT':
        data = JSON.stringify(r.target);
        break;
      case 'NS':
      case 'CNAME':
        data = fqdn(r.target, '');
        break;
      default:
        data = r.target;
    }
    lines.push(`${owner}\t${r.ttl_sec}\tIN\t${r.type}\t${data}`);
  }
  stateOf(store, d.id).zone = lines;
}

// ---------------------------------------------------------------------------------------------- records

const ONLY_FOR: Record<string, readonly RecordType[]> = {
  priority: ['MX', 'SRV'],
  weight: ['SRV'],
  port: ['SRV'],
  service: ['SRV'],
  protocol: ['SRV'],
  tag: ['CAA'],
};
// Record names: the document bounds the whole name (1..100), so labels are not held to 63 here.
const HOSTNAME = /^(\*|[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)(\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/;
const SRV_PART = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function ipv4Of(remote: string): string | null {
  try {
    const a = ipaddr.process(remote);
    return a.kind() === 'ipv4' ? a.toString() : null;
  } catch {
    return null;
  }
}

/** A target host: RFC 1035 letters, digits and hyphens (underscores belong in names such as `_sip._tcp`, not hosts). */
function validDomainTarget(t: string): boolean {
  return isDomainName(t, { trailingDot: true });
}

/**
 * Validates a record body against the record it would produce (create: `base` empty; update: the stored record's
 * members for the same type). Returns the record members to store.
 */
function buildRecord(ctx: RequestContext, d: Domain, o: Record<string, unknown>, base: Partial<DomainRecord>, selfId?: number) {
  const store = ctx.store;
  const typeIn = base.type === undefined
    ? reqString(o, 'type', { enum: RECORD_TYPES })
    : optString(o, 'type', { enum: RECORD_TYPES });
  const type = (typeIn ?? base.type) as RecordType;
  if (type === 'PTR') fail('PTR records are set through the reverse DNS procedure (PUT /v4/networking/ips/{address}).', 'type');
  // A type change starts from scratch: members of the old type do not carry over.
  const from: Partial<DomainRecord> = typeIn !== undefined && typeIn !== base.type ? { name: base.name, ttl_sec: base.ttl_sec } : base;
  for (const [key, types] of Object.entries(ONLY_FOR)) {
    const v = o[key];
    if (v !== undefined && v !== null && !types.includes(type)) fail(`${key} is only allowed for ${types.join(' and ')} records.`, key);
  }

  const allowEmptyName = type === 'MX' || type === 'CAA' || (type !== 'CNAME' && faulty(store, 'P3.record.name.min-1'));
  let name = optString(o, 'name', { max: faulty(store, 'P3.record.name.max-100') ? 1000 : 100 }) ?? from.name ?? '';
  if (o['name'] !== undefined && name === '' && !allowEmptyName) fail('name must be 1 to 100 characters long.', 'name');
  if (name !== '' && type !== 'SRV' && !HOSTNAME.test(name)) {
    fail('name must be a hostname: labels of letters, digits, hyphens and underscores separated by periods.', 'name');
  }
  if (type === 'CNAME' && name === '' && !faulty(store, 'P3.record.cname.name.required')) {
    fail('name is required for a CNAME record.', 'name');
  }

  let target = optString(o, 'target') ?? from.target;
  const ttlIn = optInt(o, 'ttl_sec', { min: 0 });
  const ttl_sec = ttlIn !== undefined ? roundRecordTtl(ttlIn, faulty(store, 'P3.record.ttl-sec.round-nearest')) : from.ttl_sec ?? (d.ttl_sec || TIME_DEFAULTS.ttl_sec);
  const pick = (key: 'priority' | 'weight' | 'port', max: number, min = 0): number | null => {
    const v = optInt(o, key, { min, max, nullable: true });
    return v === undefined ? (from[key] ?? null) : v;
  };
  let priority = ONLY_FOR.priority!.includes(type) ? pick('priority', faulty(store, 'P3.record.priority.max-255') ? 65535 : 255) : null;
  let weight = type === 'SRV' ? pick('weight', 65535, faulty(store, 'P3.record.weight.min-0') ? -65535 : 0) : null;
  const port = type === 'SRV' ? pick('port', faulty(store, 'P3.record.port.max-65535') ? 1_000_000 : 65535) : null;
  let service: string | null = null;
  let protocol: string | null = null;
  const tags = faulty(store, 'P3.record.tag.enum') ? { nullable: true as const } : { enum: ['issue', 'issuewild', 'iodef'] as const, nullable: true as const };
  const tag = type === 'CAA' ? (optString(o, 'tag', tags) ?? from.tag ?? null) : null;

  const need = (v: unknown, key: string, what: string) => {
    if (v === undefined || v === null || v === '') fail(`${key} is required for ${what}.`, key);
  };
  // The null MX: empty name and empty target.
  const nullMx = type === 'MX' && target === '' && (name === '' || faulty(store, 'P3.record.mx.null-name-empty'));
  if (type === 'TXT' && faulty(store, 'P3.record.target.required')) target ??= '';
  if (!nullMx && !(type === 'TXT' && target === '' && faulty(store, 'P3.record.target.required'))) {
    need(target, 'target', type === 'MX' ? 'MX records (an empty target needs an empty name: the null MX)' : `${type} records`);
  }
  let t = target!;
  const trailingDotForbidden = type === 'A' || type === 'AAAA' || type === 'CAA';
  if (type === 'CAA' && t.endsWith('.') && faulty(store, 'P3.record.target.no-trailing-period')) target = t = t.slice(0, -1);
  if (trailingDotForbidden && t.endsWith('.')) fail(`A trailing period is not accepted in the target of ${type} records.`, 'target');
  const domainTarget = (host: string) =>
    faulty(store, 'P3.record.target.valid-domain') || (type === 'CNAME' && faulty(store, 'P3.record.target.trailing-period-accepted') ? isDomainName(host) : validDomainTarget(host));

  switch (type) {
    case 'A': {
      if (t === '[remote_addr]' && faulty(store, 'P3.record.a.remote-addr')) break;
      if (t === '[remote_addr]') {
        const v4 = ipv4Of(ctx.remoteAddress);
        if (!v4) fail('[remote_addr] needs a request made over IPv4.', 'target');
        target = v4;
      } else if (!ipaddr.IPv4.isValidFourPartDecimal(t)) fail('target must be an IPv4 address for an A record.', 'target');
      break;
    }
    case 'AAAA':
      if (!ipaddr.IPv6.isValid(t) || t.includes('/')) {
        fail('target must be an IPv6 address for an AAAA record ([remote_addr] submits an IPv4 address and fits only A).', 'target');
      }
      target = ipaddr.IPv6.parse(t).toString();
      break;
    case 'NS':
    case 'CNAME':
      if (!domainTarget(t)) fail(`target must be a valid domain name for a ${type} record.`, 'target');
      break;
    case 'MX':
      if (!nullMx && !domainTarget(t)) fail('target must be a valid domain name for an MX record.', 'target');
      if (priority === null) priority = faulty(store, 'P3.record.priority.default-0-mx') ? 10 : 0;
      break;
    case 'TXT':
      break;
    case 'SRV': {
      need(priority, 'priority', 'SRV records');
      if (weight === null && faulty(store, 'P3.record.srv.weight.required')) weight = 0;
      need(weight, 'weight', 'SRV records');
      need(port, 'port', 'SRV records');
      const svc = optString(o, 'service', { nullable: true });
      const serviceRaw = svc === undefined ? from.service ?? null : svc;
      need(serviceRaw, 'service', 'SRV records');
      const bare = serviceRaw!.replace(/^_/, '').replace(/\.$/, '');
      if (!SRV_PART.test(bare)) fail('service must be letters, digits and hyphens (an underscore is prepended for you).', 'service');
      service = faulty(store, 'P3.record.srv.service.underscore-period') ? `${bare}.` : `_${bare}.`;
      const proto = optString(o, 'protocol', { nullable: true });
      const protocolRaw = proto === undefined ? from.protocol ?? null : proto;
      if (protocolRaw !== null && protocolRaw !== '') {
        const bareP = protocolRaw.replace(/^_/, '');
        if (!SRV_PART.test(bareP)) fail('protocol must be letters, digits and hyphens (an underscore is prepended for you).', 'protocol');
        protocol = faulty(store, 'P3.record.srv.protocol.underscore') ? bareP : `_${bareP}`;
      }
      name = protocol ? `${service}${protocol}` : service.slice(0, -1);
      if (!domainTarget(t)) fail('target must be a domain or a subdomain for an SRV record.', 'target');
      // A bare subdomain is combined with the domain; a dotted value is taken as an FQDN as is.
      if (!t.replace(/\.$/, '').includes('.') && !faulty(store, 'P3.record.srv.target.subdomain-combined')) target = `${t.replace(/\.$/, '')}.${d.domain}`;
      break;
    }
    case 'CAA': {
      if (!faulty(store, 'P3.record.caa.tag.required')) need(tag, 'tag', 'CAA records');
      if (tag === 'iodef') {
        if (!/^(https?:\/\/[^\s/]+\S*|mailto:[^\s@]+@[^\s@]+)$/.test(t) && !faulty(store, 'P3.record.caa.iodef.target-url')) {
          fail('target must be an http(s) or mailto URL for an iodef CAA record.', 'target');
        }
      } else if ((tag === 'issue' || tag === 'issuewild') && !isDomainName(t) && !faulty(store, 'P3.record.caa.issue.target-domain')) {
        fail(`target must be the certificate issuer's domain for an ${tag} CAA record.`, 'target');
      }
      break;
    }
  }

  // (the fault refuses a whole-domain CAA name only once every other member has been judged)
  if (type === 'CAA' && o['name'] === '' && faulty(store, 'P3.record.caa.name.empty-whole-domain')) fail('name must be 1 to 100 characters long.', 'name');
  const records = stateOf(ctx.store, d.id).records.filter((r) => r.id !== selfId);
  if (type === 'CNAME' && !faulty(store, 'P3.record.cname.name.unique') && records.some((r) => r.type === 'CNAME' && r.name.toLowerCase() === name.toLowerCase())) {
    fail(`A CNAME record named ${name} already exists; CNAME names must be unique.`, 'name');
  }
  if (type === 'MX') {
    const isNull = nullMx;
    const mx = records.filter((r) => r.type === 'MX');
    if (mx.some((r) => r.target === '' && r.name === '') && !faulty(store, 'P3.record.mx.null-blocks-mx')) {
      fail('A null MX record exists; no other MX record can be created while it exists.', 'type');
    }
    if (isNull && mx.length > 0) fail('A null MX record needs every other MX record removed first.', 'target');
    if (isNull && priority !== 0 && !faulty(store, 'P3.record.mx.null-priority-zero')) fail('priority must be 0 for a null MX record.', 'priority');
    if (isNull && faulty(store, 'P3.record.mx.null-accepted')) fail('target is required for MX records.', 'target');
  }
  return { type, name, target: target!, ttl_sec, priority, weight, port, service, protocol, tag };
}

function recordOr404(ctx: RequestContext, d: Domain, raw: string): DomainRecord {
  const r = /^\d{1,15}$/.test(raw) ? stateOf(ctx.store, d.id).records.find((x) => x.id === Number(raw)) : undefined;
  if (!r) fail(`Record ${raw} not found in domain ${d.id}.`, null, 404);
  return r;
}

// ---------------------------------------------------------------------------------------------- routes

const R = 'domains:read_only';
const W = 'domains:read_write';

function touch(store: Store, d: Domain): void {
  d.updated = store.nowIso();
  render(store, d);
}

const routes: Route[] = [
  route('GET', '/v4/domains', R, (ctx) =>
    paginate(ctx, ctx.principal?.restricted ? listDomains(ctx.store).filter((d) => canAccess(ctx.principal, 'domain', d.id, 'read_only')) : listDomains(ctx.store)),
  ),
  route('POST', '/v4/domains', W, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const fields = readDomainFields(ctx, o, true);
    const d = createDomain(ctx, fields as Partial<Domain> & { domain: string; type: Domain['type'] });
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_create', entity: entityOf(d) });
    return d;
  }),
  route('POST', '/v4/domains/import', W, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const name = readDomainName(ctx.store, o, true)!;
    const ns = faulty(ctx.store, 'P3.domain-import.remote-nameserver.required')
      ? optString(o, 'remote_nameserver', { min: 1, max: 255 }) ?? `ns1.${name}`
      : reqString(o, 'remote_nameserver', { min: 1, max: 255 });
    const nsIsIp = isIp(ns);
    if (!nsIsIp && !isDomainName(ns, { trailingDot: true, minLabels: 2 })) {
      fail('remote_nameserver must be the hostname or IP address of a nameserver.', 'remote_nameserver');
    }
    if (nsIsIp && ipaddr.IPv4.isValidFourPartDecimal(ns) && ipaddr.IPv4.parse(ns).match(ipaddr.IPv4.parseCIDR('192.0.2.0/24'))) {
      fail(
        'The remote nameserver refused the zone transfer: allow AXFR from 96.126.114.97, 96.126.114.98, 2600:3c00::5e and 2600:3c00::5f.',
        'remote_nameserver',
      );
    }
    const d = createDomain(ctx, { domain: name, type: 'master', soa_email: `hostmaster@${name}` });
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_import', entity: entityOf(d) });
    return d;
  }),
  route('GET', '/v4/domains/{domainId}', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only');
    return faulty(ctx.store, 'P3.domain.types') ? { ...d, id: String(d.id) } : d;
  }),
  route('PUT', '/v4/domains/{domainId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const o = asObject(ctx.body ?? {});
    const members = Object.keys(o);
    if (members.length > 0 && members.every((m) => ['group', 'tags'].includes(m)) && faulty(ctx.store, 'P3.domain-update.none-required')) {
      fail('An update must change the name, type, status, servers or time values of the domain.');
    }
    const patch: Partial<Domain> = {};
    try {
      readDomainFields(ctx, o, false, d.id, patch);
    } catch (error) {
      if (faulty(ctx.store, 'P1.errors.rejected-write-no-effect~domain')) {
        const { status, description, group } = patch;
        Object.assign(d, { status: status ?? d.status }, description !== undefined ? { description } : {}, group !== undefined ? { group } : {});
      }
      throw error;
    }
    const ignored =
      (patch.status === 'disabled' && d.status === 'active' && faulty(ctx.store, 'P3.domain.status.active-to-disabled')) ||
      (patch.status === 'active' && d.status === 'disabled' && faulty(ctx.store, 'P3.domain.status.disabled-to-active'));
    if (ignored) delete patch.status;
    checkDomain(ctx.store, { ...d, ...patch });
    if (patch.domain !== undefined) {
      names(ctx.store).delete(d.domain.toLowerCase());
      names(ctx.store).set(patch.domain.toLowerCase(), d.id);
    }
    Object.assign(d, patch);
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_update', entity: entityOf(d) });
    return d;
  }),
  route('DELETE', '/v4/domains/{domainId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    ctx.store.table<Domain>(DOMAINS).delete(String(d.id));
    names(ctx.store).delete(d.domain.toLowerCase());
    ctx.store.table<DomainState>(STATE).delete(String(d.id));
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_delete', entity: entityOf(d) });
    return {};
  }),
  route('POST', '/v4/domains/{domainId}/clone', W, (ctx) => {
    const src = domainOr404(ctx, ctx.params['domainId']!, 'read_only', true);
    const o = asObject(ctx.body ?? {});
    const name = readDomainName(ctx.store, o, true, undefined, true)!;
    const { id: _id, created: _c, updated: _u, domain: _d, ...copy } = src;
    const d = createDomain(ctx, { ...structuredClone(copy), domain: name });
    const now = ctx.store.nowIso();
    const copied = faulty(ctx.store, 'P3.domain.clone.copies-records') ? [] : stateOf(ctx.store, src.id).records;
    stateOf(ctx.store, d.id).records = copied.map((r) => ({
      ...r,
      id: ctx.store.nextId('domain_record'),
      created: now,
      updated: now,
    }));
    render(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_create', entity: entityOf(d) });
    return d;
  }),
  route('GET', '/v4/domains/{domainId}/records', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only');
    return paginate(ctx, stateOf(ctx.store, d.id).records);
  }),
  route('POST', '/v4/domains/{domainId}/records', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const o = asObject(ctx.body ?? {});
    const fields = buildRecord(ctx, d, o, {});
    const now = ctx.store.nowIso();
    const r: DomainRecord = { id: ctx.store.nextId('domain_record'), ...fields, created: now, updated: now };
    stateOf(ctx.store, d.id).records.push(r);
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_record_create', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    return r;
  }),
  route('GET', '/v4/domains/{domainId}/records/{recordId}', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only');
    return recordOr404(ctx, d, ctx.params['recordId']!);
  }),
  route('PUT', '/v4/domains/{domainId}/records/{recordId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const r = recordOr404(ctx, d, ctx.params['recordId']!);
    const o = asObject(ctx.body ?? {});
    if (o['name'] !== undefined && o['type'] === undefined && faulty(ctx.store, 'P3.record-update.none-required')) fail('type is required to rename a record.', 'type');
    Object.assign(r, buildRecord(ctx, d, o, r, r.id), { updated: ctx.store.nowIso() });
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_record_update', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    return r;
  }),
  route('DELETE', '/v4/domains/{domainId}/records/{recordId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const r = recordOr404(ctx, d, ctx.params['recordId']!);
    const st = stateOf(ctx.store, d.id);
    st.records = st.records.filter((x) => x.id !== r.id);
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_record_delete', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    return {};
  }),
  route('GET', '/v4/domains/{domainId}/zone-file', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only', true);
    return { zone_file: stateOf(ctx.store, d.id).zone ?? [] };
  }),
];

function recordEntity(d: Domain, r: DomainRecord) {
  return { id: r.id, label: r.name, type: 'domain_record', url: `/v4/domains/${d.id}/records/${r.id}` };
}

/** Records of a domain (for the reverse DNS check of the ips area). */
export function recordsOf(store: Store, domainId: number): readonly DomainRecord[] {
  return stateOf(store, domainId).records;
}

export const area: Area = {
  name: 'domains',
  routes,
  seed(store) {
    store.table<string>(FOREIGN).set(FOREIGN_DOMAIN, 'another-account');
  },
};
