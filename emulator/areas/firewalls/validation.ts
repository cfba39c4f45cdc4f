// Document 3, "Firewalls": reading a firewall's label and rules from a request body (the grammar and the limits).
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Store } from '../../core/store.js';
import { asObject, fail, fieldPath, optArray, optString, reqObject, reqString } from '../../core/validate.js';
import { faulty, type FaultId } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { conflictStatus } from '../../variations/responses.js';
import { firewalls, MAX_RULES, type FirewallRule, type FirewallRules } from './model.js';

const MAX_RULE_ADDRESSES = 255;
const MAX_PORT_PIECES = 15;
const POLICIES = ['ACCEPT', 'DROP'] as const;

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

export function readLabel(store: Store, o: Record<string, unknown>, required: boolean, selfId?: number): string | undefined {
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
    // (a firewall shown `deleted` — the fault update-not-deleted — holds no label; under the fault ~enabled-only nor
    // does a disabled one)
    const holds = f.id !== selfId && (f.status as string) !== 'deleted' && !(f.status === 'disabled' && faulty(store, 'P3.firewall.label.unique~enabled-only'));
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
/** IPv6 global unicast (RFC 4291): IANA reserves the space outside it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The range the variation rule-addresses-routable-only refuses `ip` for, if any: an IPv6 one outside global unicast too. */
function noTrafficFrom(ip: string): string | undefined {
  const address = ipaddr.parse(ip);
  if (NO_TRAFFIC.includes(address.range())) return address.range();
  return address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6) ? 'outside global unicast 2000::/3' : undefined;
}

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
    const refused = routableOnly && ok && Number(mask) !== 0 ? noTrafficFrom(ip) : undefined;
    if (refused) fail(`${f} (${v}) is a network no traffic comes from (${refused}); give a routable network, or ${kind === 'ipv4' ? '0.0.0.0/0' : '::/0'}.`, f);
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
    // (the faults ~inbound-only and ~first-rule-only judge the ports of some rules only)
    const unjudged =
      (/(^|\.)outbound\./.test(path) && f('P3.firewall.rule.ports.range-1-65535~inbound-only')) ||
      (!path.endsWith('.0') && f('P3.firewall.rule.ports.syntax~first-rule-only'));
    const problem = unjudged ? null : portsProblem(ports, store);
    if (problem) fail(problem, portsField);
    rule.ports = ports;
  }
  // Under the variation a rule's label follows the firewall label's rules.
  const charset = varied(store, 'rule-label-charset') ? { pattern: LABEL, patternReason: "a rule's label follows the firewall label's rules." } : {};
  const label = optString(o, 'label', { min: f('P3.firewall.rule.label.min-3') ? 0 : 3, max: 32, path, ...charset });
  if (label !== undefined) rule.label = label;
  const description = optString(o, 'description', {
    min: f('P3.firewall.rule.description.min-1') ? 0 : 1,
    max: f('P3.firewall.rule.description.max-100') ? 1000 : 100,
    path,
  });
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
export function readRules(store: Store, o: Record<string, unknown>, creating: boolean, current: FirewallRules | null, path?: string): FirewallRules {
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
