// Records of a domain: list, create, view, update, delete.
import ipaddr from 'ipaddr.js';
import { emitEvent } from '../../core/events.js';
import { paginate } from '../../core/pagination.js';
import type { Store } from '../../core/store.js';
import type { RequestContext, Route } from '../../core/types.js';
import { asObject, fail, isIpv4Text, optInt, optString, reqString } from '../../core/validate.js';
import { route } from '../../core/routes.js';
import { deleteNowOrLater } from '../../core/deletions.js';
import { faulty, type FaultId } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import {
  domainOr404,
  entityOf,
  getDomain,
  isDomainName,
  R,
  RECORD_TYPES,
  roundRecordTtl,
  newRecordId,
  stateOf,
  TIME_DEFAULTS,
  W,
  type Domain,
  type DomainRecord,
  type RecordType,
} from './model.js';
import { touch } from './zone-file.js';

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

/** The address a server behind a proxy on its own host (a container's published port) sees every request come from. */
const PROXY_ADDRESS = '172.17.0.1';

function ipv4Of(remote: string): string | null {
  try {
    const a = ipaddr.process(remote);
    return a.kind() === 'ipv4' ? a.toString() : null;
  } catch {
    return null;
  }
}

/**
 * A target host: RFC 1035 letters, digits and hyphens (underscores belong in names such as `_sip._tcp`, not hosts);
 * under the variation record-targets-underscore RFC 2181's wider names, underscores in any label.
 */
function validDomainTarget(t: string, store: Store, type: RecordType): boolean {
  if (!isDomainName(t, { trailingDot: true, underscores: varied(store, 'record-targets-underscore') })) return false;
  // Under the variation dns-strict an NS, MX or CNAME target must be fully qualified: two labels or more, the last of letters
  // (RFC 1123). An SRV target may be a subdomain (documented).
  return type === 'SRV' || !varied(store, 'dns-strict') || /^.+\.[A-Za-z]{2,63}$/.test(t.replace(/\.$/, ''));
}

/**
 * Under blank-optional-absent an update's "" for a name or a target its record cannot have empty (all members of a
 * record update are optional) is read as not given. Which ones may be empty: MX and CAA names, an MX target (null MX).
 */
function withoutBlankNameOrTarget(body: Record<string, unknown>, type: string): Record<string, unknown> {
  const copy = { ...body };
  const typeOf = typeof copy['type'] === 'string' ? copy['type'] : type;
  if (copy['name'] === '' && typeOf !== 'MX' && typeOf !== 'CAA') delete copy['name'];
  if (copy['target'] === '' && typeOf !== 'MX') delete copy['target'];
  return copy;
}

/** `body` without its "" name and target. */
function withoutBlanks(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => !((key === 'name' || key === 'target') && value === '')));
}

/**
 * Validates a record body against the record it would produce (create: `base` empty; update: the stored record's
 * members for the same type). Returns the record members to store.
 */
function buildRecord(ctx: RequestContext, d: Domain, body: Record<string, unknown>, base: Partial<DomainRecord>, selfId?: number) {
  const store = ctx.store;
  const blankUnchanged = base.type !== undefined && varied(store, 'blank-optional-absent');
  // Under the variation null-mx-create-only an MX's update reads "" for its name and target as no change.
  const o = blankUnchanged
    ? withoutBlankNameOrTarget(body, base.type!)
    : base.type === 'MX' && varied(store, 'null-mx-create-only')
      ? withoutBlanks(body)
      : body;
  // Under the variation record-type-ignored-on-update an update's type is not read: the body is judged as the stored type.
  const typeIn =
    base.type === undefined
      ? reqString(o, 'type', { enum: RECORD_TYPES })
      : varied(store, 'record-type-ignored-on-update')
        ? undefined
        : optString(o, 'type', { enum: RECORD_TYPES });
  const type = (typeIn ?? base.type) as RecordType;
  if (type === 'PTR') fail('PTR records are set through the reverse DNS procedure (PUT /v4/networking/ips/{address}).', 'type');
  // A type change starts from scratch: members of the old type do not carry over.
  const from: Partial<DomainRecord> = typeIn !== undefined && typeIn !== base.type ? { name: base.name, ttl_sec: base.ttl_sec } : base;
  for (const [key, types] of Object.entries(ONLY_FOR)) {
    const v = o[key];
    if (v !== undefined && v !== null && !types.includes(type)) fail(`${key} is only allowed for ${types.join(' and ')} records.`, key);
  }

  const emptyNameFault = faulty(store, 'P3.record.name.min-1');
  const allowEmptyName = type === 'MX' || type === 'CAA' || emptyNameFault || (type !== 'CNAME' && varied(store, 'empty-name-is-apex'));
  let name = optString(o, 'name', { max: faulty(store, 'P3.record.name.max-100') ? 1000 : 100 }) ?? from.name ?? '';
  if (o['name'] !== undefined && name === '' && !allowEmptyName) fail('name must be 1 to 100 characters long.', 'name');
  // Under the variation a member its type does not use is refused on SRV too: the name ("unused (use service)").
  if (type === 'SRV' && name !== '' && o['name'] !== undefined && varied(store, 'srv-name-refused'))
    fail('name is unused on SRV records: use service.', 'name');
  if (name !== '' && type !== 'SRV' && !HOSTNAME.test(name)) {
    fail('name must be a hostname: labels of letters, digits, hyphens and underscores separated by periods.', 'name');
  }
  // Under the variation record-missing-member-names-type a member the type sent requires is missing: type is named.
  const missingNamed = (key: string) =>
    key !== 'target' && o[key] === undefined && o['type'] !== undefined && varied(store, 'record-missing-member-names-type') ? 'type' : key;
  if (type === 'CNAME' && name === '' && !faulty(store, 'P3.record.cname.name.required') && !emptyNameFault) {
    fail('name is required for a CNAME record.', missingNamed('name'));
  }

  // (the faults ~update take their rules for created records only)
  const updating = (fault: FaultId) => selfId !== undefined && faulty(store, fault);
  const nullPriorityJudged = !faulty(store, 'P3.record.mx.null-priority-zero') && !updating('P3.record.mx.null-priority-zero~update');
  const nullNameJudged = !faulty(store, 'P3.record.mx.null-name-empty') && !updating('P3.record.mx.null-name-empty~update');
  // Under the variation an absent target reads as "" (as a decoder without optional members does): an MX without one
  // is then a null MX with a name, refused for that name (the fault takes it, as it takes one given target "").
  // Under absent-target-empty-priority-first (that reading too) such a null MX's priority other than 0 is judged first.
  const priorityFirst = varied(store, 'absent-target-empty-priority-first');
  const absentEmpty = varied(store, 'absent-target-empty') || priorityFirst;
  let target = optString(o, 'target') ?? from.target ?? (type === 'MX' && absentEmpty ? '' : undefined);
  if (
    type === 'MX' &&
    target === '' &&
    o['target'] === undefined &&
    priorityFirst &&
    typeof o['priority'] === 'number' &&
    o['priority'] !== 0 &&
    nullPriorityJudged
  )
    fail('priority must be 0 for a null MX record (an MX without target is a null MX).', 'priority');
  if (type === 'MX' && target === '' && name !== '' && absentEmpty && nullNameJudged)
    fail('An MX record with an empty target is a null MX: its name must be empty too.', 'name');
  const ttlIn = optInt(o, 'ttl_sec', { min: 0 });
  const ttl_sec =
    // Under the variation record-ttl-zero-default a record's 0 is kept: the domain's default, as for the domain's own.
    ttlIn === 0 && varied(store, 'record-ttl-zero-default')
      ? 0
      : ttlIn !== undefined
        ? roundRecordTtl(ttlIn, faulty(store, 'P3.record.ttl-sec.round-nearest'))
        : (from.ttl_sec ?? (d.ttl_sec || TIME_DEFAULTS.ttl_sec));
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
    if (v === undefined || v === null || v === '') fail(`${key} is required for ${what}.`, missingNamed(key));
  };
  // The null MX: empty name and empty target.
  const nullMx = type === 'MX' && target === '' && (name === '' || !nullNameJudged);
  if (type === 'MX' && name === '' && target !== '' && target !== undefined && varied(store, 'dns-strict'))
    fail('An MX record with an empty name is a null MX: its target must be empty too (name the mail subdomain).', 'name');
  // Under the variation mx-priority-makes-ordinary a priority other than 0 makes an empty-name MX an ordinary one, which
  // needs its mail subdomain (the fault, taking such an MX as a null MX, still takes it).
  const ordinaryByPriority = priority !== null && priority !== 0 && nullPriorityJudged;
  if (type === 'MX' && name === '' && target === '' && ordinaryByPriority && varied(store, 'mx-priority-makes-ordinary'))
    fail('An MX record with a priority other than 0 is an ordinary MX: name its mail subdomain (a null MX has priority 0).', 'name');
  if (type === 'TXT' && faulty(store, 'P3.record.target.required')) target ??= '';
  if (!nullMx && !(type === 'TXT' && target === '' && faulty(store, 'P3.record.target.required'))) {
    need(target, 'target', type === 'MX' ? 'MX records (an empty target needs an empty name: the null MX)' : `${type} records`);
  }
  let t = target!;
  const trailingDotForbidden = type === 'A' || type === 'AAAA' || type === 'CAA';
  if (type === 'CAA' && t.endsWith('.') && faulty(store, 'P3.record.target.no-trailing-period')) target = t = t.slice(0, -1);
  if (trailingDotForbidden && t.endsWith('.')) fail(`A trailing period is not accepted in the target of ${type} records.`, 'target');
  // (the fault ~host-types-only takes a trailing period in the targets naming hosts only)
  if (type === 'TXT' && t.endsWith('.') && faulty(store, 'P3.record.target.trailing-period-accepted~host-types-only'))
    fail('A trailing period is not accepted in the value of a TXT record.', 'target');
  const domainTarget = (host: string) =>
    faulty(store, 'P3.record.target.valid-domain') ||
    (type === 'CNAME' && faulty(store, 'P3.record.target.trailing-period-accepted') ? isDomainName(host) : validDomainTarget(host, store, type));

  switch (type) {
    case 'A': {
      // (the fault ~update stores the literal an update sends as sent)
      if (t === '[remote_addr]' && (faulty(store, 'P3.record.a.remote-addr') || (o['target'] !== undefined && updating('P3.record.a.remote-addr~update'))))
        break;
      if (t === '[remote_addr]') {
        const v4 = varied(store, 'remote-addr-behind-proxy') ? PROXY_ADDRESS : ipv4Of(ctx.remoteAddress);
        if (!v4) fail('[remote_addr] needs a request made over IPv4.', 'target');
        target = v4;
      } else if (!isIpv4Text(store, t)) fail('target must be an IPv4 address for an A record.', 'target');
      else refuseNoHostAddress(store, t);
      break;
    }
    case 'AAAA':
      if (!ipaddr.IPv6.isValid(t) || t.includes('/')) {
        fail('target must be an IPv6 address for an AAAA record ([remote_addr] submits an IPv4 address and fits only A).', 'target');
      }
      refuseNoHostAddress(store, t);
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
      const serviceRaw = svc === undefined ? (from.service ?? null) : svc;
      need(serviceRaw, 'service', 'SRV records');
      const bare = serviceRaw!.replace(/^_/, '').replace(/\.$/, '');
      if (!SRV_PART.test(bare)) fail('service must be letters, digits and hyphens (an underscore is prepended for you).', 'service');
      if (varied(store, 'dns-strict') && (bare.length > 15 || bare.includes('--')))
        fail('service must be an RFC 6335 service name: at most 15 characters, no two hyphens in a row.', 'service');
      const serviceFault = faulty(store, 'P3.record.srv.service.underscore-period') || faulty(store, 'P3.record.srv.service.underscore-period~zone');
      // (the faults ~update keep what an update sends as sent)
      service = serviceFault ? `${bare}.` : svc !== undefined && updating('P3.record.srv.service.underscore-period~update') ? serviceRaw! : `_${bare}.`;
      const proto = optString(o, 'protocol', { nullable: true });
      const protocolRaw = proto === undefined ? (from.protocol ?? null) : proto;
      if (protocolRaw !== null && protocolRaw !== '') {
        const bareP = protocolRaw.replace(/^_/, '');
        if (!SRV_PART.test(bareP)) fail('protocol must be letters, digits and hyphens (an underscore is prepended for you).', 'protocol');
        if (varied(store, 'srv-protocol-tcp-udp-only') && !['tcp', 'udp'].includes(bareP.toLowerCase())) fail("protocol must be 'tcp' or 'udp'.", 'protocol');
        const protocolFault = faulty(store, 'P3.record.srv.protocol.underscore') || faulty(store, 'P3.record.srv.protocol.underscore~zone');
        protocol = protocolFault || (proto !== undefined && updating('P3.record.srv.protocol.underscore~update')) ? bareP : `_${bareP}`;
      }
      name = protocol ? `${service}${protocol}` : service.slice(0, -1);
      // The underscores (and period) then show in the composed name only.
      if (varied(store, 'srv-parts-shown-as-given')) [service, protocol] = [bare, protocol && protocol.replace(/^_/, '')];
      if (!domainTarget(t)) fail('target must be a domain or a subdomain for an SRV record.', 'target');
      // A bare subdomain is combined with the domain (under the variation srv-target-shown-as-given, where the zone is
      // rendered only); a dotted value is taken as an FQDN as is. The fault takes the subdomain for a name of its own.
      const bareTarget = t.replace(/\.$/, '');
      if (!bareTarget.includes('.'))
        target =
          faulty(store, 'P3.record.srv.target.subdomain-combined') || (o['target'] !== undefined && updating('P3.record.srv.target.subdomain-combined~update'))
            ? `${bareTarget}.`
            : varied(store, 'srv-target-shown-as-given') || faulty(store, 'P3.record.srv.target.subdomain-combined~zone')
              ? bareTarget
              : `${bareTarget}.${d.domain}`;
      break;
    }
    case 'CAA': {
      if (!faulty(store, 'P3.record.caa.tag.required')) need(tag, 'tag', 'CAA records');
      if (tag === 'iodef') {
        if (varied(store, 'caa-iodef-http-mailto-only') && /^https:/i.test(t)) fail('target of an iodef CAA record is an http or mailto URL.', 'target');
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
  if (
    type === 'CNAME' &&
    !faulty(store, 'P3.record.cname.name.unique') &&
    !updating('P3.record.cname.name.unique~update') &&
    records.some(
      (r) =>
        r.type === 'CNAME' &&
        (faulty(store, 'P3.record.cname.name.unique~case') || updating('P3.record.cname.name.unique~update-case')
          ? r.name === name
          : r.name.toLowerCase() === name.toLowerCase()),
    )
  ) {
    fail(`A CNAME record named ${name} already exists; CNAME names must be unique.`, 'name');
  }
  const built = { type, name, target: target!, ttl_sec, priority, weight, port, service, protocol, tag };
  if (varied(store, 'identical-records-refused') && records.some((r) => sameRecord(r, built))) fail(`An identical ${type} record already exists.`, 'target');
  if (type === 'MX') {
    const isNull = nullMx;
    const mx = records.filter((r) => r.type === 'MX');
    if (mx.some((r) => r.target === '' && r.name === '') && !faulty(store, 'P3.record.mx.null-blocks-mx')) {
      fail('A null MX record exists; no other MX record can be created while it exists.', 'type');
    }
    if (isNull && mx.length > 0) fail('A null MX record needs every other MX record removed first.', 'target');
    if (isNull && priority !== 0 && nullPriorityJudged)
      fail('priority must be 0 for a null MX record.', varied(store, 'error-field-names-sent-member') ? 'target' : 'priority');
    if (isNull && faulty(store, 'P3.record.mx.null-accepted')) fail('target is required for MX records.', 'target');
  }
  return built;
}

type RecordMembers = Omit<DomainRecord, 'id' | 'created' | 'updated'>;

/** Whether two records say the same (their TTL aside; names and targets compared as DNS does, case and final period aside). */
function sameRecord(a: RecordMembers, b: RecordMembers): boolean {
  const dns = (value: string) => value.toLowerCase().replace(/\.$/, '');
  const members = ['type', 'priority', 'weight', 'port', 'service', 'protocol', 'tag'] as const;
  return dns(a.name) === dns(b.name) && dns(a.target) === dns(b.target) && members.every((member) => a[member] === b[member]);
}

function recordOr404(ctx: RequestContext, d: Domain, raw: string): DomainRecord {
  const r = /^\d{1,15}$/.test(raw) ? stateOf(ctx.store, d.id).records.find((x) => x.id === Number(raw)) : undefined;
  if (!r) fail(`Record ${raw} not found in domain ${d.id}.`, null, 404);
  return r;
}

/** A record as returned: its name may be null (srv-parts-composed-in-zone). */
type ShownRecord = Omit<DomainRecord, 'name'> & { name: string | null };

/**
 * A record as returned: as stored, or (the variation record-names-absolute) with its name fully qualified and the
 * targets that are domain names written absolute, with their trailing period, or (the variation
 * srv-parts-composed-in-zone) an SRV record with its service and protocol as given and name null, the composed name
 * showing in the rendered zone only.
 */
function recordView(store: Store, d: Domain): (r: DomainRecord) => ShownRecord {
  // (the faults …~zone show SRV records so too, their fault showing in the zone only)
  const partsInZone =
    varied(store, 'srv-parts-composed-in-zone') ||
    faulty(store, 'P3.record.srv.protocol.underscore~zone') ||
    faulty(store, 'P3.record.srv.service.underscore-period~zone');
  if (partsInZone)
    return (r) =>
      r.type === 'SRV'
        ? { ...r, name: null, service: r.service && r.service.replace(/^_/, '').replace(/\.$/, ''), protocol: r.protocol && r.protocol.replace(/^_/, '') }
        : r;
  if (!varied(store, 'record-names-absolute')) return (r) => r;
  const absolute = (t: string) => (t === '' || t.endsWith('.') ? t : `${t}.`);
  // An SRV target kept as a bare subdomain (srv-target-shown-as-given) is written absolute as the name it stands for
  // (under the fault …~zone, a name of its own, as the zone renders it).
  const ownName = faulty(store, 'P3.record.srv.target.subdomain-combined~zone');
  const srvTarget = (t: string) => absolute(t.includes('.') || ownName ? t : `${t}.${d.domain}`);
  return (r) => ({
    ...r,
    name: r.name === '' ? d.domain : `${r.name}.${d.domain}`,
    target: r.type === 'SRV' ? srvTarget(r.target) : ['NS', 'MX', 'CNAME'].includes(r.type) ? absolute(r.target) : r.target,
  });
}

function recordEntity(d: Domain, r: DomainRecord) {
  return { id: r.id, label: r.name, type: 'domain_record', url: `/v4/domains/${d.id}/records/${r.id}` };
}

export const recordRoutes: Route[] = [
  route('GET', '/v4/domains/{domainId}/records', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only', false, true);
    return paginate(ctx, stateOf(ctx.store, d.id).records, recordView(ctx.store, d));
  }),
  route('POST', '/v4/domains/{domainId}/records', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const o = asObject(ctx.body ?? {});
    const fields = buildRecord(ctx, d, o, {});
    const now = ctx.store.nowIso();
    const r: DomainRecord = { id: newRecordId(ctx.store), ...fields, created: now, updated: now };
    stateOf(ctx.store, d.id).records.push(r);
    touch(ctx.store, d);
    const event = emitEvent(ctx.store, ctx.principal, { action: 'dns_record_create', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    // Under the variation record-create-answers-event the create answers the event it recorded (its response is not shown).
    return varied(ctx.store, 'record-create-answers-event') ? { ...event } : recordView(ctx.store, d)(r);
  }),
  route('GET', '/v4/domains/{domainId}/records/{recordId}', R, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_only', false, true);
    return recordView(ctx.store, d)(recordOr404(ctx, d, ctx.params['recordId']!));
  }),
  route('PUT', '/v4/domains/{domainId}/records/{recordId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const r = recordOr404(ctx, d, ctx.params['recordId']!);
    const o = asObject(ctx.body ?? {});
    if (o['name'] !== undefined && o['type'] === undefined && faulty(ctx.store, 'P3.record-update.none-required'))
      fail('type is required to rename a record.', 'type');
    if (o['type'] !== undefined && o['type'] !== r.type && varied(ctx.store, 'record-type-fixed'))
      fail(`The type of a record cannot be changed (this one is ${r.type}); delete it and create a new one.`, 'type');
    const built = buildRecord(ctx, d, o, r, r.id);
    if (faulty(ctx.store, 'P3.record.update.reflected')) Object.assign(built, { name: r.name, target: r.target, priority: r.priority });
    Object.assign(r, built, { updated: ctx.store.nowIso() });
    touch(ctx.store, d);
    emitEvent(ctx.store, ctx.principal, { action: 'dns_record_update', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    return recordView(ctx.store, d)(r);
  }),
  route('DELETE', '/v4/domains/{domainId}/records/{recordId}', W, (ctx) => {
    const d = domainOr404(ctx, ctx.params['domainId']!, 'read_write');
    const r = recordOr404(ctx, d, ctx.params['recordId']!);
    // Gone at once, or (variation record-delete-runs-a-while) a simulated minute later, if its domain is still there.
    const remove = (store: Store) => {
      if (getDomain(store, d.id) !== d) return;
      const st = stateOf(store, d.id);
      if (!faulty(store, 'P3.record.delete.gone')) st.records = st.records.filter((x) => x !== r);
      touch(store, d);
    };
    if (!deleteNowOrLater(ctx.store, 'record-delete-runs-a-while', String(r.id), remove)) return {};
    emitEvent(ctx.store, ctx.principal, { action: 'dns_record_delete', entity: entityOf(d), secondary_entity: recordEntity(d, r) });
    return {};
  }),
];

/**
 * Under the variation record-targets-host-addresses: an address no host can have is refused as a record target; under
 * record-targets-global-unicast, any address outside the global unicast range (documentation, private, reserved …).
 */
function refuseNoHostAddress(store: Store, address: string): void {
  const parsed = ipaddr.parse(address);
  if (varied(store, 'record-targets-global-unicast') && parsed.range() !== 'unicast')
    fail(`target ${address} is not a global unicast address (${parsed.range()}).`, 'target');
  if (!varied(store, 'record-targets-host-addresses')) return;
  const noHost = ['unspecified', 'broadcast', 'multicast'].includes(parsed.range()) || (parsed.kind() === 'ipv4' && parsed.toByteArray()[0]! >= 240);
  if (noHost) fail(`target ${address} is not an address a host can have.`, 'target');
}
