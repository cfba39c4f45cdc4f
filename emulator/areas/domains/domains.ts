// Domains: list, create, import, view, update, delete, clone and the zone file.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { emitEvent } from '../../core/events.js';
import { paginate } from '../../core/pagination.js';
import { canAccess, grantOwnership } from '../../core/permissions.js';
import type { Store } from '../../core/store.js';
import type { RequestContext, Route } from '../../core/types.js';
import { asObject, fail, optArray, optInt, optString, reqString, tagList } from '../../core/validate.js';
import { route } from '../../core/routes.js';
import { faulty, type FaultId } from '../../faults/index.js';
import { conflictStatus } from '../../variations/responses.js';
import { varied } from '../../variations/index.js';
import {
  DOMAINS,
  domainOr404,
  entityOf,
  DELETED_KEEPING_RECORDS,
  FOREIGN,
  getDomain,
  isDomainName,
  isIp,
  listDomains,
  names,
  releaseName,
  newRecordId,
  R,
  roundDomainTime,
  stateOf,
  STATE,
  TIME_DEFAULTS,
  W,
  type Domain,
  type DomainRecord,
  type DomainState,
} from './model.js';
import { render, touch } from './zone-file.js';

/** Under the variation domain-delete-runs-a-while, how long a deleted domain is still shown with its records (simulated time). */
const DELETE_RUNS_MS = 60_000;
/** The ids of the domains whose deletion runs (domain-delete-runs-a-while). */
const DELETING = 'domains_deleting';

/** The records of deleted domains by name, kept for the next domain of that name (the fault removes-records~by-name). */
const KEPT_BY_NAME = 'domains_records_kept_by_name';

/** Domain-name labels as the faults `label-max-63` and `rfc-1035` read them. */
const LONG_LABEL = /^(?!-)[A-Za-z0-9-]{1,255}(?<!-)$/;
const HYPHEN_ENDS_LABEL = /^[A-Za-z0-9-]{1,63}$/;

function nameTaken(store: Store, name: string, exceptId?: number, caseless = true): boolean {
  // (the fault ~case takes names differing in case only for other names, ~case-on-create does so but on a create)
  if (!caseless || faulty(store, 'P3.domain.domain.unique-platform~case'))
    return store.table<string>(FOREIGN).has(name) || listDomains(store).some((d) => d.domain === name && d.id !== exceptId);
  const lower = name.toLowerCase();
  if (store.table<string>(FOREIGN).has(lower) && !faulty(store, 'P3.domain.domain.unique-platform~own-account')) return true;
  const id = names(store).get(lower);
  // (under the fault ~active-only a disabled domain holds no name)
  if (id !== undefined && faulty(store, 'P3.domain.domain.unique-platform~active-only') && getDomain(store, id)?.status === 'disabled') return false;
  return id !== undefined && id !== exceptId;
}

/** Reads the `domain` of a body sent `via` a create, an update (of the domain `exceptId`), an import or a clone. */
function readDomainName(store: Store, o: Record<string, unknown>, via: 'create' | 'update' | 'import' | 'clone', exceptId?: number): string | undefined {
  const required = via !== 'update';
  const max = faulty(store, 'P3.domain.domain.max-255') ? 1000 : 255;
  const given = required ? reqString(o, 'domain', { min: 1, max }) : optString(o, 'domain', { min: 1, max });
  if (given === undefined) return undefined;
  // Under the variations an absolute name (RFC 1035's master-file form) is the same name.
  const absoluteTaken = varied(store, 'domain-absolute-name-accepted') || varied(store, 'domain-names-absolute');
  const name = absoluteTaken && /[^.]\.$/.test(given) ? given.slice(0, -1) : given;
  const label = faulty(store, 'P3.domain.domain.label-max-63') ? LONG_LABEL : faulty(store, 'P3.domain.domain.rfc-1035') ? HYPHEN_ENDS_LABEL : undefined;
  // Under the variation domain-names-underscore a label may hold underscores (RFC 2181's wider names).
  const underscores = varied(store, 'domain-names-underscore');
  if (!isDomainName(name, { minLabels: 2, maxLength: max, underscores, ...(label ? { label } : {}) })) {
    fail(
      'domain must be a valid domain name (RFC 1035): at least two dot-separated labels of letters, digits and hyphens, each 1 to 63 characters, not starting or ending with a hyphen.',
      'domain',
    );
  }
  const caseless = via === 'create' || !faulty(store, 'P3.domain.domain.unique-platform~case-on-create');
  if (nameTaken(store, name, exceptId, caseless) && !(via === 'clone' && faulty(store, 'P3.domain.domain.unique-platform')))
    fail(`The domain ${name} already exists on the platform; choose another name.`, 'domain', conflictStatus(store));
  return name;
}

function readIpList(store: Store, o: Record<string, unknown>, key: string, anyString = false): string[] | undefined {
  const arr = optArray(o, key);
  if (arr === undefined) return undefined;
  return arr.map((v, i) => {
    if (typeof v !== 'string' || !(isIp(store, v) || anyString)) fail(`${key}.${i} must be an IP address.`, `${key}.${i}`);
    // Under the variation a nameserver's address must be one a nameserver on the internet can have.
    if (isIp(store, v) && varied(store, 'domain-ips-unicast-only') && ipaddr.parse(v).range() !== 'unicast')
      fail(`${key}.${i} must be a public unicast address (not ${ipaddr.parse(v).range()}).`, `${key}.${i}`);
    return v;
  });
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const TIME_FAULTS: Record<'expire_sec' | 'refresh_sec' | 'retry_sec' | 'ttl_sec', { nearest: FaultId; zero: FaultId }> = {
  expire_sec: { nearest: 'P3.domain.expire-sec.round-up', zero: 'P3.domain.expire-sec.zero-means-default-1209600' },
  refresh_sec: { nearest: 'P3.domain.refresh-sec.round-up', zero: 'P3.domain.refresh-sec.zero-means-default-14400' },
  retry_sec: { nearest: 'P3.domain.retry-sec.round-up', zero: 'P3.domain.retry-sec.zero-means-default-14400' },
  ttl_sec: { nearest: 'P3.domain.ttl-sec.round-up', zero: 'P3.domain.ttl-sec.zero-means-default-86400' },
};

/**
 * Reads the domain members of a create or update body into `p`, a patch (the rules that span members come after);
 * on a refusal `p` holds the members read before the one at fault.
 */
function readDomainFields(ctx: RequestContext, o: Record<string, unknown>, creating: boolean, exceptId?: number, p: Partial<Domain> = {}): Partial<Domain> {
  const store = ctx.store;
  const domain = readDomainName(store, o, creating ? 'create' : 'update', exceptId);
  if (domain !== undefined) p.domain = domain;
  const types = faulty(store, 'P3.domain.type.enum') ? {} : { enum: ['master', 'slave'] as const };
  const type =
    creating && !faulty(store, 'P3.domain-create.type.required')
      ? reqString(o, 'type', types)
      : (optString(o, 'type', types) ?? (creating ? (Array.isArray(o['master_ips']) && o['master_ips'].length > 0 ? 'slave' : 'master') : undefined));
  if (type !== undefined) p.type = type as Domain['type'];
  const status = optString(o, 'status', faulty(store, 'P3.domain.status.enum') ? {} : { enum: ['active', 'disabled'] as const });
  if (status !== undefined) p.status = status as Domain['status'];
  // Under the variation a slave domain takes soa_email "" as none.
  const noSoa = type === 'slave' && o['soa_email'] === '' && varied(store, 'slave-soa-email-empty');
  const soa = optString(
    o,
    'soa_email',
    faulty(store, 'P3.domain.soa-email.email') || noSoa ? { max: 255 } : { max: 255, pattern: EMAIL, patternReason: 'soa_email must be an email address.' },
  );
  if (soa !== undefined) p.soa_email = soa;
  const description = optString(o, 'description', {
    min: faulty(store, 'P3.domain.description.min-1') ? 0 : 1,
    max: faulty(store, 'P3.domain.description.max-255') ? 1000 : 255,
  });
  if (description !== undefined) p.description = description;
  const group = optString(o, 'group', { min: faulty(store, 'P3.domain.group.min-1') ? 0 : 1, max: 50 });
  if (group !== undefined) p.group = group;
  const axfr = readIpList(store, o, 'axfr_ips');
  if (axfr !== undefined) p.axfr_ips = axfr;
  const masters = readIpList(store, o, 'master_ips', faulty(store, 'P3.domain.master-ips.ip'));
  if (masters !== undefined) p.master_ips = masters;
  const tags = tagList(ctx, o);
  if (tags !== undefined) p.tags = tags;
  for (const key of ['expire_sec', 'refresh_sec', 'retry_sec', 'ttl_sec'] as const) {
    const v = optInt(o, key, { min: 0 });
    const f = TIME_FAULTS[key];
    // (the fault ~create-exact takes a valid refresh_sec sent on a create for the next one up: > for >=)
    const strict = creating && key === 'refresh_sec' && faulty(store, 'P3.domain.refresh-sec.round-up~create-exact');
    if (v !== undefined) p[key] = roundDomainTime(v, key, { nearest: faulty(store, f.nearest), zeroRoundsUp: faulty(store, f.zero), strict });
  }
  return p;
}

/** Rules across members, on the resulting domain; `sent`: the body's members (the variation names the one sent). */
function checkDomain(store: Store, d: Domain, sent?: readonly string[]): void {
  const named = (missing: string) =>
    sent && !sent.includes(missing) && sent.includes('type') && varied(store, 'error-field-names-sent-member') ? 'type' : missing;
  if (d.type === 'master' && !d.soa_email && !faulty(store, 'P3.domain.soa-email.required-for-master'))
    fail('soa_email is required for a master domain.', named('soa_email'));
  if (d.type === 'slave' && d.master_ips.length === 0 && !faulty(store, 'P3.domain.master-ips.required-for-slave')) {
    fail('master_ips needs at least one IP address for a slave domain.', named('master_ips'));
  }
}

/** Records of the service's own a new master zone starts with, under the variations zone-starts-with-*. */
function startingRecords(store: Store, d: Domain): Array<Pick<DomainRecord, 'type' | 'name' | 'target'> & Partial<DomainRecord>> {
  return [
    ...(varied(store, 'zone-starts-with-ns-records')
      ? ['ns1', 'ns2'].map((host) => ({ type: 'NS' as const, name: '', target: `${host}.emulator.example` }))
      : []),
    ...(varied(store, 'zone-starts-with-mx-record') ? [{ type: 'MX' as const, name: '', target: `mail.${d.domain}`, priority: 10 }] : []),
  ];
}

export function createDomain(ctx: RequestContext, fields: Partial<Domain> & { domain: string; type: Domain['type'] }): Domain {
  const now = ctx.store.nowIso();
  const d: Domain = {
    id: ctx.store.newId('domain', (n) => ctx.store.table<Domain>(DOMAINS).has(String(n))),
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
  checkDomain(ctx.store, d, Object.keys(fields));
  ctx.store.table<Domain>(DOMAINS).set(String(d.id), d);
  // (a state of its own: not the records or zone a deleted domain of this id left, under ids-reused)
  ctx.store.table<DomainState>(STATE).delete(String(d.id));
  names(ctx.store).set(d.domain.toLowerCase(), d.id);
  grantOwnership(ctx.principal, 'domain', d.id);
  // (one record after the other: each one's id is held before the next one's is given, under ids-reused)
  if (d.type === 'master')
    for (const start of startingRecords(ctx.store, d))
      stateOf(ctx.store, d.id).records.push({
        id: newRecordId(ctx.store),
        ttl_sec: 0,
        priority: null,
        weight: null,
        port: null,
        service: null,
        protocol: null,
        tag: null,
        created: now,
        updated: now,
        ...start,
      });
  const kept = ctx.store.table<DomainRecord[]>(KEPT_BY_NAME);
  for (const r of kept.get(d.domain.toLowerCase()) ?? [])
    stateOf(ctx.store, d.id).records.push({ ...r, id: newRecordId(ctx.store), created: now, updated: now });
  kept.delete(d.domain.toLowerCase());
  render(ctx.store, d);
  return d;
}

export const domainRoutes: Route[] = [
  route('GET', '/v4/domains', R, (ctx) =>
    paginate(
      ctx,
      ctx.principal?.restricted ? listDomains(ctx.store).filter((d) => canAccess(ctx.principal, 'domain', d.id, 'read_only')) : listDomains(ctx.store),
      // Under the variation domain-list-summary an item is a summary of the domain (the view shows it whole).
      varied(ctx.store, 'domain-list-summary') ? ({ id, domain, type, status, tags }: Domain) => ({ id, domain, type, status, tags }) : undefined,
    ),
  ),
  route('POST', '/v4/domains', W, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const fields = readDomainFields(ctx, o, true);
    const d = createDomain(ctx, fields as Partial<Domain> & { domain: string; type: Domain['type'] });
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_create', entity: entityOf(d) });
    return d;
  }),
  route('POST', '/v4/domains/import', W, (ctx) => {
    const refuseTransfer = () =>
      fail(
        'The remote nameserver refused the zone transfer: allow AXFR from 96.126.114.97, 96.126.114.98, 2600:3c00::5e and 2600:3c00::5f.',
        'remote_nameserver',
      );
    const o = asObject(ctx.body ?? {});
    if (typeof o['domain'] === 'string' && typeof o['remote_nameserver'] === 'string' && varied(ctx.store, 'import-transfer-first')) refuseTransfer();
    const name = readDomainName(ctx.store, o, 'import')!;
    // Under the fault an import without a nameserver goes ahead, whatever the domain's name.
    const ns = faulty(ctx.store, 'P3.domain-import.remote-nameserver.required')
      ? optString(o, 'remote_nameserver', { min: 1, max: 255 })
      : reqString(o, 'remote_nameserver', { min: 1, max: 255 });
    const nsIsIp = ns !== undefined && isIp(ctx.store, ns);
    if (ns !== undefined && !nsIsIp && !isDomainName(ns, { trailingDot: true, minLabels: 2 })) {
      fail('remote_nameserver must be the hostname or IP address of a nameserver.', 'remote_nameserver');
    }
    if (nsIsIp && isIPv4(ns) && ipaddr.IPv4.parse(ns).match(ipaddr.IPv4.parseCIDR('192.0.2.0/24'))) {
      refuseTransfer();
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
    checkDomain(ctx.store, { ...d, ...patch }, members);
    if (faulty(ctx.store, 'P3.domain.update.reflected')) for (const member of ['description', 'group', 'axfr_ips', 'tags'] as const) delete patch[member];
    if (faulty(ctx.store, 'P3.domain.update.reflected~name')) delete patch.domain;
    if (patch.domain !== undefined) {
      releaseName(ctx.store, d);
      names(ctx.store).set(patch.domain.toLowerCase(), d.id);
    }
    Object.assign(d, patch);
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_update', entity: entityOf(d) });
    return d;
  }),
  route('DELETE', '/v4/domains/{domainId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    if (faulty(ctx.store, 'P3.domain.delete.gone')) return {};
    const remove = (store: Store) => {
      if (store.table<Domain>(DOMAINS).get(String(d.id)) !== d) return;
      store.table<Domain>(DOMAINS).delete(String(d.id));
      releaseName(store, d);
      if (faulty(store, 'P3.domain.delete.removes-records~by-name'))
        store.table<DomainRecord[]>(KEPT_BY_NAME).set(d.domain.toLowerCase(), stateOf(store, d.id).records);
      if (faulty(store, 'P3.domain.delete.removes-records')) store.table<Domain>(DELETED_KEEPING_RECORDS).set(String(d.id), d);
      else store.table<DomainState>(STATE).delete(String(d.id));
    };
    // Under the variation domain-delete-runs-a-while the domain, its records and its name stay a while ("shortly after");
    // a DELETE sent again meanwhile answers {} too, its deletion already running.
    if (varied(ctx.store, 'domain-delete-runs-a-while')) {
      const deleting = ctx.store.table<true>(DELETING);
      if (deleting.has(String(d.id))) return {};
      deleting.set(String(d.id), true);
      ctx.store.schedule(new Date(ctx.store.now().getTime() + DELETE_RUNS_MS), (store) => {
        store.table<true>(DELETING).delete(String(d.id));
        remove(store);
      });
    } else remove(ctx.store);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_delete', entity: entityOf(d) });
    return {};
  }),
  route('POST', '/v4/domains/{domainId}/clone', W, (ctx) => {
    const src = domainOr404(ctx, ctx.params['domainId']!, 'read_only', true);
    const o = asObject(ctx.body ?? {});
    const name = readDomainName(ctx.store, o, 'clone')!;
    const { id: _id, created: _c, updated: _u, domain: _d, ...copy } = src;
    const fields = faulty(ctx.store, 'P3.domain.clone.copies-domain') ? { type: 'master' as const, soa_email: `hostmaster@${name}` } : structuredClone(copy);
    const d = createDomain(ctx, { ...fields, domain: name });
    const now = ctx.store.nowIso();
    const copied = faulty(ctx.store, 'P3.domain.clone.copies-records')
      ? []
      : stateOf(ctx.store, src.id).records.filter((r) => !(faulty(ctx.store, 'P3.domain.clone.copies-records~common-types') && ['NS', 'SRV'].includes(r.type)));
    const ttl = faulty(ctx.store, 'P3.domain.clone.copies-records~default-ttl') ? { ttl_sec: d.ttl_sec || TIME_DEFAULTS.ttl_sec } : {};
    const copies = stateOf(ctx.store, d.id);
    copies.records = [];
    for (const r of copied) copies.records.push({ ...r, ...ttl, id: newRecordId(ctx.store), created: now, updated: now });
    render(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_zone_create', entity: entityOf(d) });
    // Under the variation domain-clone-answers-empty the clone answers {} (its response body is not shown).
    return varied(ctx.store, 'domain-clone-answers-empty') ? {} : d;
  }),
  route('GET', '/v4/domains/{domainId}/zone-file', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only', true);
    // Under the variation zone-file-after-first-render a new domain's zone is first rendered 2 simulated minutes on.
    if (varied(ctx.store, 'zone-file-after-first-render') && ctx.store.now().getTime() - Date.parse(d.created) < 2 * 60_000)
      fail(`The zone of domain ${d.id} has not been rendered yet`, null, 404);
    return { zone_file: stateOf(ctx.store, d.id).zone ?? [] };
  }),
];
