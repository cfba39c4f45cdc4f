// Document 3, "Firewalls": firewalls, their rules and their devices (compute instances).
//
// Choices where the document is silent:
// - A firewall is `{id, label, status, tags, rules, created, updated}` (never `devices`); a device is
//   `{id, entity: {id, label, type: 'compute', url}, created, updated}`; GET/PUT rules return the rules object.
// - Label characters: begin and end alphanumeric (ASCII), only alphanumerics, `-`, `_`, `.`, and none of `--`,
//   `__`, `..`; labels are unique case-insensitively.
// - Rule addresses must carry a mask (`192.0.2.1/32`, `2001:db8::/32`); a rule always comes back with both
//   `addresses.ipv4` and `addresses.ipv6` arrays; `ports` appears only when given (never for ICMP).
// - An instance listed in `devices.computes` or added as a device that does not exist (or is invisible to a
//   restricted caller) → 400 on that member; visible read-only → 403.
// - PUT firewall ignores `rules` and `devices` (they "cannot be changed here"); `status: deleted` → 400.
//   firewall_update is emitted when label or tags are given; firewall_enable / firewall_disable on a status change.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { emitEvent, type EventEntity } from '../core/events.js';
import { paginate } from '../core/pagination.js';
import { canAccess, grantOwnership } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { Area, RequestContext, Route } from '../core/types.js';
import { asObject, fail, fieldPath, optArray, optObject, optString, reqInt, reqObject, reqString, tagList } from '../core/validate.js';
import { getInstance, instanceEntity, instanceFromBody, type Instance } from '../core/entities.js';
import { route } from '../core/routes.js';
import { deleteNowOrLater } from '../core/deletions.js';
import { faulty, type FaultId } from '../faults/index.js';
import { varied } from '../variations/index.js';
import { conflictStatus } from '../variations/responses.js';

interface FirewallRule {
  action: 'ACCEPT' | 'DROP';
  protocol: 'TCP' | 'UDP' | 'ICMP';
  ports?: string;
  addresses: { ipv4: string[]; ipv6: string[] };
  label?: string;
  description?: string;
}

interface FirewallRules {
  inbound: FirewallRule[];
  inbound_policy: 'ACCEPT' | 'DROP';
  outbound: FirewallRule[];
  outbound_policy: 'ACCEPT' | 'DROP';
}

interface Firewall {
  id: number;
  label: string;
  status: 'enabled' | 'disabled';
  tags: string[];
  rules: FirewallRules;
  created: string;
  updated: string;
}

interface FirewallDevice {
  id: number;
  entity: { id: number; label: string; type: 'compute'; url: string };
  created: string;
  updated: string;
}

const FIREWALLS = 'firewalls';
const DEVICES = 'firewall_devices'; // firewall id → its devices
const DELETED_HOLDING = 'firewall_deleted_holding'; // under the fault P3.firewall.delete.frees-instances: instance id → deleted firewall
// under the variation firewall-delete-releases-later: instance id → the deleted firewall still holding it, until when (store ms)
const RELEASING = 'firewall_releasing';
/** Under the variation firewall-delete-releases-later, how long a deleted enabled firewall still holds its instances. */
const RELEASE_MS = 60_000;
const MAX_RULES = 25;
const MAX_RULE_ADDRESSES = 255;
const MAX_PORT_PIECES = 15;
const POLICIES = ['ACCEPT', 'DROP'] as const;

function firewalls(store: Store): Map<string, Firewall> {
  return store.table<Firewall>(FIREWALLS);
}

function devicesOf(store: Store, firewallId: number): FirewallDevice[] {
  const t = store.table<FirewallDevice[]>(DEVICES);
  let list = t.get(String(firewallId));
  if (!list) {
    list = [];
    t.set(String(firewallId), list);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------- exports

/** Firewalls (enabled or disabled) that have the instance as a device. */
/** The lowest id no firewall holds (variation firewall-ids-reused). */
function lowestFreeId(held: Map<string, Firewall>): number {
  let id = 1;
  while (held.has(String(id))) id++;
  return id;
}

function firewallsOfInstance(store: Store, instanceId: number): Firewall[] {
  return [...firewalls(store).values()].filter((f) => devicesOf(store, f.id).some((d) => d.entity.id === instanceId));
}

/** When an instance is deleted: its device entries go away (no events). */
function removeInstanceFromFirewalls(store: Store, instanceId: number): void {
  for (const [key, list] of store.table<FirewallDevice[]>(DEVICES)) {
    const kept = list.filter((d) => d.entity.id !== instanceId);
    if (kept.length !== list.length) store.table<FirewallDevice[]>(DEVICES).set(key, kept);
  }
}

/** When an instance is deleted: no deleted firewall holds it any more (an instance given its id since, ids-reused, is another). */
function releaseDeletedInstance(store: Store, instanceId: number): void {
  removeInstanceFromFirewalls(store, instanceId);
  store.table(DELETED_HOLDING).delete(String(instanceId));
  store.table(RELEASING).delete(String(instanceId));
}

/** A new device's id: the next, or under ids-reused the lowest no device of any firewall holds; never `avoided`. */
function newDeviceId(store: Store, avoided?: number): number {
  let held: Set<number> | undefined;
  const devices = () => new Set([...store.table<FirewallDevice[]>(DEVICES).values()].flatMap((list) => list.map((d) => d.id)));
  const taken = (n: number) => n === avoided || (held ??= devices()).has(n);
  let id = store.newId('firewall_device', taken);
  while (id === avoided) id = store.newId('firewall_device', taken);
  return id;
}

// ---------------------------------------------------------------------------------------------- validation

// Begins and ends with an alphanumeric; only alphanumerics and - _ .; no "--", "__" or "..".
const LABEL = /^(?!.*(--|__|\.\.))[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** Under the variation labels-unicode-alphanumerics: any letter or digit. */
const UNICODE_LABEL = /^(?!.*(--|__|\.\.))[\p{L}\p{N}](?:[\p{L}\p{N}._-]*[\p{L}\p{N}])?$/u;
/** The label pattern as each label fault reads it. */
const FAULTY_LABELS: Array<[FaultId, RegExp]> = [
  ['P3.firewall.label.alnum-ends', /^(?!.*(--|__|\.\.))[A-Za-z0-9._-]+$/],
  ['P3.firewall.label.charset', /^(?!.*(--|__|\.\.))[A-Za-z0-9](?:.*[A-Za-z0-9])?$/u],
  ['P3.firewall.label.no-double-punctuation', /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/],
];

function readLabel(store: Store, o: Record<string, unknown>, required: boolean, selfId?: number): string | undefined {
  const opts = {
    min: faulty(store, 'P3.firewall.label.min-3') ? 1 : 3,
    max: faulty(store, 'P3.firewall.label.max-32') ? 64 : 32,
    pattern: FAULTY_LABELS.find(([id]) => faulty(store, id))?.[1] ?? (varied(store, 'labels-unicode-alphanumerics') ? UNICODE_LABEL : LABEL),
    patternReason:
      'label must begin and end with a letter or digit and contain only letters, digits, dashes, underscores and periods, with no two dashes, underscores or periods in a row.',
  };
  const label = required ? reqString(o, 'label', opts) : optString(o, 'label', opts);
  if (label === undefined) return undefined;
  const lower = label.toLowerCase();
  for (const f of firewalls(store).values()) {
    // (a firewall shown `deleted` — the fault update-not-deleted — holds no label)
    const holds = f.id !== selfId && (f.status as string) !== 'deleted';
    if (holds && f.label.toLowerCase() === lower && !faulty(store, 'P3.firewall.label.unique'))
      fail(`A firewall labeled ${label} already exists; labels must be unique.`, 'label', conflictStatus(store));
  }
  return label;
}

/**
 * The ports grammar: pieces separated by "," or ", "; a piece is a port or a range "a-b" with b > a; ports
 * 1..65535 without leading zeroes; at most 15 pieces, a range counting as two. Returns a reason or null.
 */
function portsProblem(ports: string, store?: Store): string | null {
  const f = (id: FaultId) => store !== undefined && faulty(store, id);
  if (ports === '') return 'ports must not be empty.';
  const pieces = ports.split(/, ?/).filter((piece) => piece !== '' || !f('P3.firewall.rule.ports.syntax'));
  let count = 0;
  const port = f('P3.firewall.rule.ports.no-leading-zeroes') ? /^(?!0+$)[0-9]{1,5}$/ : /^[1-9][0-9]{0,4}$/;
  const top = f('P3.firewall.rule.ports.range-1-65535') ? 65536 : 65535;
  for (const piece of pieces) {
    const m = /^([^-]*)-([^-]*)$/.exec(piece);
    const ends = m ? [m[1]!, m[2]!] : [piece];
    for (const e of ends) {
      if (!port.test(e) || Number(e) > top) {
        return `ports: "${piece}" is not a port 1..65535 (no leading zeroes) or a range of two such ports; separate pieces with "," or ", ".`;
      }
    }
    const notIncreasing = f('P3.firewall.rule.ports.range-end-greater') ? Number(ends[1]) < Number(ends[0]) : Number(ends[1]) <= Number(ends[0]);
    if (m && notIncreasing) return `ports: in the range "${piece}" the end must be greater than the start.`;
    count += f('P3.firewall.rule.ports.pieces-max-15') ? 1 : ends.length;
  }
  if (count > MAX_PORT_PIECES) return `ports has ${count} pieces; at most ${MAX_PORT_PIECES} are allowed (a range counts as two).`;
  if (store !== undefined && varied(store, 'rule-lists-distinct')) {
    const spans = pieces.map((piece) => piece.split('-').map(Number)).map(([start, end]) => [start!, end ?? start!] as const);
    const overlap = spans.some(([start, end], i) => spans.some(([s2, e2], j) => j !== i && s2 <= end && start <= e2));
    if (overlap) return 'ports lists a port twice (a port repeated or within a listed range).';
  }
  return null;
}

/**
 * Address ranges (ipaddr.js names) no traffic comes from: the rule-addresses-routable-only variation refuses a rule
 * network whose address is in one (`reserved` holds 240.0.0.0/4 and the documentation networks), /0 aside.
 */
const NO_TRAFFIC = ['unspecified', 'loopback', 'multicast', 'broadcast', 'linkLocal', 'reserved'];

function readAddresses(list: unknown[] | undefined, kind: 'ipv4' | 'ipv6', field: string, bareIpv4 = false, routableOnly = false): string[] {
  if (list === undefined) return [];
  return list.map((v, i) => {
    const f = `${field}.${i}`;
    if (typeof v !== 'string') fail(`${f} must be a string in IP/mask format.`, f);
    // `address/mask`, the mask within the family's bits.
    const [, ip, mask] = /^([^/]+)\/(\d{1,3})$/.exec(v) ?? [];
    const ok = ip !== undefined && Number(mask) <= (kind === 'ipv4' ? 32 : 128) && (kind === 'ipv4' ? isIPv4(ip) : ipaddr.IPv6.isValid(ip));
    if (!ok && !(bareIpv4 && kind === 'ipv4' && isIPv4(v)))
      fail(
        `${f} must be an ${kind === 'ipv4' ? 'IPv4' : 'IPv6'} address or network in IP/mask format, e.g. ${kind === 'ipv4' ? '192.0.2.0/24' : '2001:db8::/32'}.`,
        f,
      );
    if (routableOnly && ok && Number(mask) !== 0 && NO_TRAFFIC.includes(ipaddr.parse(ip).range()))
      fail(
        `${f} (${v}) is a network no traffic comes from (${ipaddr.parse(ip).range()}); give a routable network, or ${kind === 'ipv4' ? '0.0.0.0/0' : '::/0'}.`,
        f,
      );
    return v;
  });
}

function readRule(store: Store, v: unknown, path: string): FirewallRule {
  const f = (id: FaultId) => faulty(store, id);
  const o = asObject(v, path);
  const action = reqString(o, 'action', f('P3.firewall.rule.action.enum') ? { path } : { enum: POLICIES, path }) as FirewallRule['action'];
  const protocols = ['TCP', 'UDP', 'ICMP'] as const;
  const protocol = reqString(o, 'protocol', f('P3.firewall.rule.protocol.enum') ? { path } : { enum: protocols, path }) as FirewallRule['protocol'];
  const addrPath = fieldPath(path, 'addresses');
  const addresses = reqObject(o, 'addresses', { path });
  if (varied(store, 'rule-needs-both-lists'))
    for (const kind of ['ipv4', 'ipv6'] as const)
      if (addresses[kind] === undefined) fail(`${addrPath}.${kind} is required (it may be empty).`, `${addrPath}.${kind}`);
  const routableOnly = varied(store, 'rule-addresses-routable-only');
  const ipv4 = readAddresses(
    optArray(addresses, 'ipv4', { path: addrPath }),
    'ipv4',
    `${addrPath}.ipv4`,
    f('P3.firewall.rule.addresses.ipv4-mask'),
    routableOnly,
  );
  const ipv6 = readAddresses(optArray(addresses, 'ipv6', { path: addrPath }), 'ipv6', `${addrPath}.ipv6`, false, routableOnly);
  if (varied(store, 'rule-lists-distinct'))
    for (const [kind, list] of [
      ['ipv4', ipv4],
      ['ipv6', ipv6],
    ] as const) {
      const twice = list.findIndex((address, i) => list.indexOf(address) !== i);
      if (twice >= 0) fail(`${addrPath}.${kind}.${twice} lists ${list[twice]} a second time.`, `${addrPath}.${kind}.${twice}`);
    }
  if (ipv4.length + ipv6.length === 0 && varied(store, 'rule-needs-an-address')) fail('A rule must list at least one address (ipv4 or ipv6).', addrPath);
  if (ipv4.length + (f('P3.firewall.rule.addresses.max-255') ? 0 : ipv6.length) > MAX_RULE_ADDRESSES) {
    fail(`A rule may list at most ${MAX_RULE_ADDRESSES} addresses across ipv4 and ipv6 (${ipv4.length + ipv6.length} given).`, addrPath);
  }
  const rule: FirewallRule = { action, protocol, addresses: { ipv4, ipv6 } };
  // Under the variation icmp-ports-shown-empty an ICMP rule shows ports "" and takes it back ("" or null: no ports).
  const icmpEmpty = protocol === 'ICMP' && varied(store, 'icmp-ports-shown-empty');
  const ports = optString(o, 'ports', { path, nullable: icmpEmpty }) ?? undefined;
  const portsField = fieldPath(path, 'ports');
  const portsOptional = (protocol === 'UDP' && f('P3.firewall.rule.ports.required-for-tcp-udp')) || !protocols.includes(protocol);
  if (protocol === 'ICMP' && !f('P3.firewall.rule.ports.forbidden-for-icmp')) {
    const clash = varied(store, 'icmp-ports-names-protocol') ? fieldPath(path, 'protocol') : portsField;
    if (ports !== undefined && !(icmpEmpty && ports === '')) fail('ports is not allowed for ICMP rules.', clash);
    if (icmpEmpty) rule.ports = '';
  } else if (!(ports === undefined && (protocol === 'ICMP' || portsOptional))) {
    // Under the variation tcp-ports-names-protocol the missing ports are put on the protocol needing them.
    if (ports === undefined)
      fail(`ports is required for ${protocol} rules.`, varied(store, 'tcp-ports-names-protocol') ? fieldPath(path, 'protocol') : portsField);
    const problem = portsProblem(ports, store);
    if (problem) fail(problem, portsField);
    rule.ports = ports;
  }
  // Under the variation a rule's label follows the firewall label's rules.
  const charset = varied(store, 'rule-label-charset') ? { pattern: LABEL, patternReason: "a rule's label follows the firewall label's rules." } : {};
  const label = optString(o, 'label', { min: f('P3.firewall.rule.label.min-3') ? 0 : 3, max: 32, path, ...charset });
  if (label !== undefined) rule.label = label;
  const description = optString(o, 'description', { min: 1, max: f('P3.firewall.rule.description.max-100') ? 1000 : 100, path });
  if (description !== undefined) rule.description = description;
  return rule;
}

function readRuleList(store: Store, o: Record<string, unknown>, key: 'inbound' | 'outbound', path: string | undefined): FirewallRule[] | undefined {
  const list = optArray(o, key, { path });
  if (list === undefined) return undefined;
  const field = fieldPath(path, key);
  return list.map((r, i) => readRule(store, r, `${field}.${i}`));
}

/** Reads a rules object; on create both policies are required, on update every member is optional. */
function readRules(store: Store, o: Record<string, unknown>, creating: boolean, current: FirewallRules | null, path?: string): FirewallRules {
  const policies = faulty(store, 'P3.firewall.policy.enum') ? { path } : { enum: POLICIES, path };
  const policy = (key: string) => (creating ? reqString(o, key, policies) : optString(o, key, policies)) as FirewallRules['inbound_policy'] | undefined;
  const inbound_policy = policy('inbound_policy') ?? current!.inbound_policy;
  const outbound_policy = policy('outbound_policy') ?? current!.outbound_policy;
  const givenIn = readRuleList(store, o, 'inbound', path);
  const givenOut = readRuleList(store, o, 'outbound', path);
  const inbound = givenIn ?? current?.inbound ?? [];
  const outbound = givenOut ?? current?.outbound ?? [];
  let counted = inbound.length + outbound.length;
  if (creating && faulty(store, 'P3.firewall.rules.max-25')) counted = Math.max(inbound.length, outbound.length);
  if (!creating && faulty(store, 'P3.firewall.rules.max-25-stored')) counted = (givenIn?.length ?? 0) + (givenOut?.length ?? 0);
  if (counted > MAX_RULES) {
    fail(`A firewall may have at most ${MAX_RULES} rules across inbound and outbound (${inbound.length + outbound.length} given).`, path ?? null);
  }
  return { inbound, inbound_policy, outbound, outbound_policy };
}

/** 400 when enabling `fw` on `instanceId` would give that instance a second enabled firewall. */
function checkSingleEnabled(store: Store, instanceId: number, exceptFirewallId: number | null, field: string | null): void {
  const other =
    firewallsOfInstance(store, instanceId).find((f) => f.id !== exceptFirewallId && f.status === 'enabled')?.id ??
    (faulty(store, 'P3.firewall.delete.frees-instances') ? store.table<number>(DELETED_HOLDING).get(String(instanceId)) : undefined) ??
    releasingFirewall(store, instanceId);
  if (other !== undefined) {
    fail(`Compute instance ${instanceId} already has the enabled firewall ${other}; an instance can have only one enabled firewall (disable it first).`, field);
  }
}

/** Under the variation firewall-delete-releases-later: the deleted firewall whose rules are still being removed from the instance. */
function releasingFirewall(store: Store, instanceId: number): number | undefined {
  const held = store.table<{ firewallId: number; until: number }>(RELEASING).get(String(instanceId));
  return held && store.now().getTime() < held.until ? held.firewallId : undefined;
}

function firewallOr404(ctx: RequestContext, level: 'read_only' | 'read_write'): Firewall {
  const raw = ctx.params['firewallId']!;
  const f = /^\d{1,15}$/.test(raw) ? firewalls(ctx.store).get(String(Number(raw))) : undefined;
  if (!f || !canAccess(ctx.principal, 'firewall', f.id, 'read_only')) fail(`Firewall ${raw} not found.`, null, 404);
  if (level === 'read_write' && !canAccess(ctx.principal, 'firewall', f.id, 'read_write')) {
    fail(`You have read-only access to firewall ${f.id}; read_write is needed.`, null, 403);
  }
  return f;
}

/**
 * A device as the responses show it: as stored, or under a variation its own id beside the instance's `compute_id`, or
 * the request's own form (the instance's id and type), or that form with the device's own id (no instance shown).
 */
function deviceView(store: Store, d: FirewallDevice): unknown {
  switch (deviceForm(store)) {
    case 'compute-id':
      return { id: d.id, compute_id: d.entity.id, created: d.created, updated: d.updated };
    case 'typed-own-id':
      return { id: d.id, type: 'compute', compute_id: d.entity.id, created: d.created, updated: d.updated };
    case 'as-request':
      return { id: d.entity.id, type: 'compute', created: d.created, updated: d.updated };
    case 'own-id-only':
      return { id: d.id, type: 'compute', created: d.created, updated: d.updated };
    default:
      return d;
  }
}

/** Which of the device forms the responses show (the first of the variations switched on, as listed here). */
function deviceForm(store: Store): 'compute-id' | 'typed-own-id' | 'as-request' | 'own-id-only' | 'stored' {
  if (varied(store, 'device-compute-id')) return 'compute-id';
  if (varied(store, 'device-typed-own-id')) return 'typed-own-id';
  if (varied(store, 'device-as-request')) return 'as-request';
  return varied(store, 'device-own-id-only') ? 'own-id-only' : 'stored';
}

/** The device its path names: by the id it shows (its own, or the instance's in the request's form). */
function deviceOr404(ctx: RequestContext, f: Firewall): FirewallDevice {
  const raw = ctx.params['deviceId']!;
  const idOf = (x: FirewallDevice) => (deviceForm(ctx.store) === 'as-request' ? x.entity.id : x.id);
  const d = /^\d{1,15}$/.test(raw) ? devicesOf(ctx.store, f.id).find((x) => idOf(x) === Number(raw)) : undefined;
  if (!d) fail(`Device ${raw} not found on firewall ${f.id}.`, null, 404);
  return d;
}

function entityOf(f: Firewall) {
  return { id: f.id, label: f.label, type: 'firewall', url: `/v4/networking/firewalls/${f.id}` };
}

/** A device event: the firewall its entity and the instance its second one, or the other way round under that variation. */
function deviceEvent(store: Store, action: string, firewall: EventEntity, device: EventEntity) {
  return varied(store, 'firewall-device-events-instance-first')
    ? { action, entity: device, secondary_entity: firewall }
    : { action, entity: firewall, secondary_entity: device };
}

function newDevice(store: Store, inst: Instance): FirewallDevice {
  const now = store.nowIso();
  const e = instanceEntity(inst);
  // Under device-own-id-only a device never shows its instance's id (it would read as the request's form).
  const id = newDeviceId(store, deviceForm(store) === 'own-id-only' ? inst.id : undefined);
  return { id, entity: { ...e, type: 'compute' }, created: now, updated: now };
}

// ---------------------------------------------------------------------------------------------- routes

const R = 'firewall:read_only';
const W = 'firewall:read_write';
const BASE = '/v4/networking/firewalls';

const routes: Route[] = [
  route('GET', BASE, R, (ctx) =>
    paginate(
      ctx,
      [...firewalls(ctx.store).values()].filter((f) => canAccess(ctx.principal, 'firewall', f.id, 'read_only')),
    ),
  ),
  route('POST', BASE, W, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const label = readLabel(ctx.store, o, true)!;
    const rules = readRules(ctx.store, reqObject(o, 'rules'), true, null, 'rules');
    const tags = tagList(ctx, o) ?? [];
    const devices = optObject(o, 'devices');
    const ids: number[] = [];
    const computes = devices ? (optArray(devices, 'computes', { path: 'devices' }) ?? []) : [];
    computes.forEach((v, i) => {
      const field = `devices.computes.${i}`;
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(`${field} must be an integer instance id.`, field);
      if (ids.includes(v)) fail(`Instance ${v} is listed twice.`, field);
      instanceFromBody(ctx, v, field, faulty(ctx.store, 'P3.firewall-create.grants') ? 'read_only' : 'read_write');
      checkSingleEnabled(ctx.store, v, null, field);
      if (!faulty(ctx.store, 'P3.firewall-create.devices.assigned')) ids.push(v);
    });
    const now = ctx.store.nowIso();
    const f: Firewall = {
      id:
        varied(ctx.store, 'firewall-ids-reused') && !varied(ctx.store, 'ids-reused')
          ? lowestFreeId(firewalls(ctx.store))
          : ctx.store.newId('firewall', (n) => firewalls(ctx.store).has(String(n))),
      label,
      status: varied(ctx.store, 'firewall-created-disabled') ? 'disabled' : 'enabled',
      tags,
      rules,
      created: now,
      updated: now,
    };
    firewalls(ctx.store).set(String(f.id), f);
    // (a list of its own: not one a deleted firewall of this id left, under ids-reused)
    ctx.store.table<FirewallDevice[]>(DEVICES).set(String(f.id), []);
    const list = devicesOf(ctx.store, f.id);
    for (const id of ids) list.push(newDevice(ctx.store, getInstance(ctx.store, id)!));
    grantOwnership(ctx.principal, 'firewall', f.id);
    if (!faulty(ctx.store, 'P3.firewall.event.create')) emitEvent(ctx.store, ctx.principal, { action: 'firewall_create', entity: entityOf(f) });
    // Under the variation firewall-state-event-on-create the status it starts in is recorded too.
    if (varied(ctx.store, 'firewall-state-event-on-create'))
      emitEvent(ctx.store, ctx.principal, { action: f.status === 'enabled' ? 'firewall_enable' : 'firewall_disable', entity: entityOf(f) });
    return f;
  }),
  route('GET', `${BASE}/{firewallId}`, R, (ctx) => {
    const f = firewallOr404(ctx, 'read_only');
    return faulty(ctx.store, 'P3.firewall.view.no-devices') ? { ...f, devices: devicesOf(ctx.store, f.id) } : f;
  }),
  route('PUT', `${BASE}/{firewallId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const o = asObject(ctx.body ?? {});
    const label = readLabel(ctx.store, o, false, f.id);
    const tags = tagList(ctx, o);
    if (faulty(ctx.store, 'P1.errors.rejected-write-no-effect~firewall'))
      Object.assign(f, label !== undefined ? { label } : {}, tags !== undefined ? { tags } : {});
    if (o['status'] === 'deleted' && !faulty(ctx.store, 'P3.firewall.status.update-not-deleted'))
      fail('status cannot be set to deleted; delete the firewall instead.', 'status');
    const statuses = faulty(ctx.store, 'P3.firewall.status.update-not-deleted')
      ? (['enabled', 'disabled', 'deleted'] as const)
      : (['enabled', 'disabled'] as const);
    let status = optString(o, 'status', { enum: statuses }) as Firewall['status'] | undefined;
    if (status === 'enabled' && f.status !== 'enabled' && !faulty(ctx.store, 'P3.firewall.status.enable-blocked-by-active')) {
      for (const d of devicesOf(ctx.store, f.id)) checkSingleEnabled(ctx.store, d.entity.id, f.id, 'status');
    }
    if (status === 'disabled' && faulty(ctx.store, 'P3.firewall.status.enabled-to-disabled')) status = undefined;
    if (status === 'enabled' && faulty(ctx.store, 'P3.firewall.status.disabled-to-enabled')) status = undefined;
    if (o['rules'] !== undefined && faulty(ctx.store, 'P3.firewall-update.devices-rules-unchanged'))
      f.rules = readRules(ctx.store, asObject(o['rules'], 'rules'), false, f.rules, 'rules');
    if (label !== undefined && !faulty(ctx.store, 'P3.firewall.update.reflected~label')) f.label = label;
    if (tags !== undefined && !faulty(ctx.store, 'P3.firewall.update.reflected'))
      f.tags = faulty(ctx.store, 'P3.firewall.update.tags-replaced') ? [...new Set([...f.tags, ...tags])] : tags;
    const changed = status !== undefined && status !== f.status;
    if (status !== undefined) f.status = status;
    if (label !== undefined || tags !== undefined || changed) f.updated = ctx.store.nowIso();
    if (label !== undefined || tags !== undefined) emitEvent(ctx.store, ctx.principal, { action: 'firewall_update', entity: entityOf(f) });
    if (changed && status === 'enabled') {
      emitEvent(ctx.store, ctx.principal, {
        action: faulty(ctx.store, 'P3.firewall.event.enable') ? 'firewall_update' : 'firewall_enable',
        entity: entityOf(f),
      });
    }
    if (changed && status !== 'enabled' && !faulty(ctx.store, 'P3.firewall.event.disable'))
      emitEvent(ctx.store, ctx.principal, { action: 'firewall_disable', entity: entityOf(f) });
    if (changed && status === 'disabled' && faulty(ctx.store, 'P3.firewall.event.delete~early'))
      emitEvent(ctx.store, ctx.principal, { action: 'firewall_delete', entity: entityOf(f) });
    return f;
  }),
  route('DELETE', `${BASE}/{firewallId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const silent = f.status === 'disabled' && faulty(ctx.store, 'P3.firewall.event.delete~disabled');
    // Removed at once, or (variation firewall-delete-runs-a-while) a simulated minute later, as it is then.
    const remove = (store: Store) => {
      if (firewalls(store).get(String(f.id)) !== f) return;
      if (f.status === 'enabled' && faulty(store, 'P3.firewall.delete.frees-instances'))
        for (const d of devicesOf(store, f.id)) store.table<number>(DELETED_HOLDING).set(String(d.entity.id), f.id);
      if (f.status === 'enabled' && varied(store, 'firewall-delete-releases-later'))
        for (const d of devicesOf(store, f.id))
          store
            .table<{ firewallId: number; until: number }>(RELEASING)
            .set(String(d.entity.id), { firewallId: f.id, until: store.now().getTime() + RELEASE_MS });
      // The faults keep the firewall as it was (a disabled one only: ~disabled), under the variation too.
      const kept =
        faulty(store, 'P3.firewall.status.delete-removes') || (f.status === 'disabled' && faulty(store, 'P3.firewall.status.delete-removes~disabled'));
      if (kept) return;
      if (varied(store, 'firewall-deleted-listed')) Object.assign(f, { status: 'deleted' });
      else {
        firewalls(store).delete(String(f.id));
        store.table<FirewallDevice[]>(DEVICES).delete(String(f.id));
      }
    };
    if (!deleteNowOrLater(ctx.store, 'firewall-delete-runs-a-while', String(f.id), remove)) return {};
    if (!silent)
      emitEvent(ctx.store, ctx.principal, {
        action: faulty(ctx.store, 'P3.firewall.event.delete') ? 'firewall_update' : 'firewall_delete',
        entity: entityOf(f),
      });
    return {};
  }),
  route('GET', `${BASE}/{firewallId}/devices`, R, (ctx) =>
    paginate(ctx, devicesOf(ctx.store, firewallOr404(ctx, 'read_only').id), (d) => deviceView(ctx.store, d)),
  ),
  route('POST', `${BASE}/{firewallId}/devices`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const o = asObject(ctx.body ?? {});
    const id = reqInt(o, 'id');
    reqString(o, 'type', faulty(ctx.store, 'P3.firewall-device.type.enum') ? {} : { enum: ['compute'] as const });
    const inst = instanceFromBody(ctx, id, 'id');
    const list = devicesOf(ctx.store, f.id);
    if (list.some((d) => d.entity.id === id)) fail(`Instance ${id} is already a device of firewall ${f.id}.`, 'id');
    if (list.length > 0 && faulty(ctx.store, 'P3.firewall.device.many-instances')) fail(`Firewall ${f.id} already has a device.`, 'id');
    const checked =
      f.status === 'enabled' ? !faulty(ctx.store, 'P3.firewall.device.one-active-per-instance') : faulty(ctx.store, 'P3.firewall.device.disabled-may-be-added');
    if (checked) checkSingleEnabled(ctx.store, id, f.id, 'id');
    const d = newDevice(ctx.store, inst);
    list.push(d);
    const action = faulty(ctx.store, 'P3.firewall.event.device-add') ? 'firewall_update' : 'firewall_device_add';
    if (!faulty(ctx.store, 'P1.events.emission~device-add'))
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, action, entityOf(f), instanceEntity(inst)));
    if (faulty(ctx.store, 'P3.firewall.event.device-remove~early'))
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, 'firewall_device_remove', entityOf(f), instanceEntity(inst)));
    return varied(ctx.store, 'device-add-answers-firewall') ? f : deviceView(ctx.store, d);
  }),
  route('GET', `${BASE}/{firewallId}/devices/{deviceId}`, R, (ctx) => {
    const f = firewallOr404(ctx, 'read_only');
    if (faulty(ctx.store, 'P3.firewall.device.listed')) fail(`Device ${ctx.params['deviceId']} not found on firewall ${f.id}.`, null, 404);
    return deviceView(ctx.store, deviceOr404(ctx, f));
  }),
  route('DELETE', `${BASE}/{firewallId}/devices/{deviceId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const d = deviceOr404(ctx, f);
    const t = ctx.store.table<FirewallDevice[]>(DEVICES);
    if (faulty(ctx.store, 'P3.firewall.device.remove-keeps-other-firewalls')) removeInstanceFromFirewalls(ctx.store, d.entity.id);
    else if (!faulty(ctx.store, 'P3.firewall.device.remove'))
      t.set(
        String(f.id),
        devicesOf(ctx.store, f.id).filter((x) => x.id !== d.id),
      );
    if (!faulty(ctx.store, 'P3.firewall.event.device-remove')) {
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, 'firewall_device_remove', entityOf(f), { ...d.entity }));
    }
    return {};
  }),
  route('GET', `${BASE}/{firewallId}/rules`, R, (ctx) => rulesShown(ctx.store, firewallOr404(ctx, 'read_only').rules)),
  route('PUT', `${BASE}/{firewallId}/rules`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const body = asObject(ctx.body ?? {});
    const before = f.rules;
    f.rules = readRules(ctx.store, body, false, f.rules);
    if (faulty(ctx.store, 'P3.firewall.rules-update.replaces')) {
      // an empty list keeps the stored rules of its direction (within the 25-rule limit)
      const empty = (key: 'inbound' | 'outbound') => Array.isArray(body[key]) && (body[key] as unknown[]).length === 0;
      const kept = {
        ...f.rules,
        inbound: empty('inbound') ? before.inbound : f.rules.inbound,
        outbound: empty('outbound') ? before.outbound : f.rules.outbound,
      };
      if (kept.inbound.length + kept.outbound.length <= MAX_RULES) f.rules = kept;
    }
    f.updated = ctx.store.nowIso();
    return rulesShown(ctx.store, f.rules);
  }),
];

/** A firewall's rules as GET and PUT …/rules answer them: "inbound and outbound rules", without the policies under that variation. */
function rulesShown(store: Store, rules: FirewallRules): FirewallRules | Pick<FirewallRules, 'inbound' | 'outbound'> {
  return varied(store, 'firewall-rules-read-without-policies') ? { inbound: rules.inbound, outbound: rules.outbound } : rules;
}

/** Under the variation legacy-names-listed the account holds a firewall labelled before the label rules. */
function seed(store: Store): void {
  if (!varied(store, 'legacy-names-listed')) return;
  const now = store.nowIso();
  const id = store.newId('firewall', (n) => firewalls(store).has(String(n)));
  const rules: FirewallRules = { inbound: [], inbound_policy: 'ACCEPT', outbound: [], outbound_policy: 'ACCEPT' };
  firewalls(store).set(String(id), { id, label: 'fw__legacy', status: 'enabled', tags: [], rules, created: now, updated: now });
}

export const area: Area = {
  name: 'firewalls',
  routes,
  seed,
  listen: (store) => store.listen('instance-deleted', ({ instanceId }) => releaseDeletedInstance(store, instanceId)),
};
