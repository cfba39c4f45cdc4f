// Request bodies of document 3 (spec/part3-domains-monitoring-networking.md): domains and records, monitoring,
// firewalls, IP addresses and IPv6 ranges.
import fc from 'fast-check';
import type { BodyArbitraries, BodyContext, Violation } from './types.js';
import {
  type Body,
  type BodyGen,
  ABSENT,
  type Change,
  constant,
  oneOf,
  replacing,
  broken,
  serverJudged,
  missing,
  type JsonKind,
  WRONG_TYPED,
  merged,
  nonEmpty,
  optionalRecord,
  wrongTypes,
} from './generators/body.js';
import { exampleHost } from './generators/dns.js';
import { addressesTooMany, firewallRule, ruleNetwork, ruleSet, ruleSetTooMany, type FirewallRule } from './generators/firewall.js';
import { label, labelBadBeginEnd, labelBadChar, labelTooLong, labelTooShort, prefixedLabel, SEPARATORS } from './generators/labels.js';
import { ipv4, ipv4Cidr, ipv6, ipv6Cidr, notCidr, notIp } from './generators/net.js';
import { ports, portsBadSyntax, portsLeadingZero, portsOutOfRange, portsRangeNotIncreasing, portsTooManyPieces } from './generators/ports.js';
import { tooLong, tooShort } from './generators/text.js';
import {
  domainClone,
  domainCloneViolations,
  domainCreate,
  domainCreateViolations,
  domainImport,
  domainImportViolations,
  domainUpdate,
  domainUpdateViolations,
  recordCreate,
  recordCreateViolations,
  recordUpdate,
  recordViolations,
} from './part3-domains.js';
import { listWithBad, tags } from './part3-shared.js';

// ------------------------------------------------------------------ monitoring

// Client labels are 3..32 with no character rules; labels.ts keeps lengths below prefix + 1 (3..6 for `cf7a3-`)
// prefix-free, so the 3-character bound is exercised at the cost of a few unswept clients.
// label in every body: whether a client may be made or updated without one is not shown.
const monitorClient: BodyGen = (context) => fc.record({ label: label(3, 32, context.labelPrefix) });

const monitorClientViolations = (typesRule: string): Violation[] => [
  broken('P3.monitor-client.label.min-3', monitorClient, { label: () => labelTooShort(3) }),
  broken('P3.monitor-client.label.max-32', monitorClient, { label: (c) => labelTooLong(32, c.labelPrefix) }),
  ...wrongTypes(typesRule, monitorClient, [['label', 'string']]),
  serverJudged('P3.monitor-client.label.unique', monitorClient, { label: (c) => prefixedLabel(3, 32, c.labelPrefix) }),
];

const SUBSCRIPTIONS = ['monitor-3', 'monitor-10', 'monitor-40', 'monitor-100', null];
/** Always names the plan: what an update without it means is not shown. */
const monitorPlan: BodyGen = () => fc.record({ monitor_subscription: fc.constantFrom(...SUBSCRIPTIONS) });

// ------------------------------------------------------------------ firewalls

const POLICIES = ['ACCEPT', 'DROP'] as const;
const firewallLabel = (context: BodyContext) => label(3, 32, context.labelPrefix);

/** Inbound / outbound lists, each left out now and then when empty. */
const ruleLists = (max?: number) =>
  fc.tuple(ruleSet(max), fc.boolean(), fc.boolean()).map(([set, keepIn, keepOut]) => ({
    ...(set.inbound.length || keepIn ? { inbound: set.inbound } : {}),
    ...(set.outbound.length || keepOut ? { outbound: set.outbound } : {}),
  }));

/** `maxRules` below 25 makes light bases for the many rule-level violations. */
const firewallCreateWith =
  (maxRules?: number): BodyGen =>
  (context) =>
    optionalRecord(
      {
        label: firewallLabel(context),
        rules: merged(ruleLists(maxRules), fc.record({ inbound_policy: fc.constantFrom(...POLICIES), outbound_policy: fc.constantFrom(...POLICIES) })),
        devices: optionalRecord({ computes: fc.subarray(context.computeIds) }),
        tags: tags(context),
      },
      ['label', 'rules'],
    );

const LIGHT_RULES = 3;

const firewallUpdate: BodyGen = (context) =>
  nonEmpty(optionalRecord({ label: firewallLabel(context), tags: tags(context), status: fc.constantFrom('enabled', 'disabled') }));

const firewallCreate = firewallCreateWith();
const rulesUpdateWith =
  (maxRules?: number): BodyGen =>
  () =>
    nonEmpty(merged(ruleLists(maxRules), optionalRecord({ inbound_policy: fc.constantFrom(...POLICIES), outbound_policy: fc.constantFrom(...POLICIES) })));
const rulesUpdate = rulesUpdateWith();

/**
 * Two equal separators (`--`, `__`, `..`) past the prefix, their neighbours alphanumeric: never a mixed pair,
 * which the document leaves ambiguous (labels.ts's labelDoubledSeparator mixes them, so it is not used here).
 */
function labelDoubledSame(min: number, max: number, prefix: string): fc.Arbitrary<string> {
  const from = prefix.length + 1;
  return prefixedLabel(Math.max(min, prefix.length + 4), max, prefix).chain((text) =>
    fc.tuple(fc.integer({ min: from, max: text.length - 3 }), fc.constantFrom(...SEPARATORS), fc.constantFrom(...'abc123')).map(([i, sep, letter]) => {
      const chars = [...text];
      const isSep = (c: string | undefined) => (SEPARATORS as readonly string[]).includes(c ?? '');
      if (isSep(chars[i - 1])) chars[i - 1] = letter;
      if (isSep(chars[i + 2])) chars[i + 2] = letter;
      chars[i] = sep;
      chars[i + 1] = sep;
      return chars.join('');
    }),
  );
}

/** The firewall label rules (resources/firewall#/$defs/label), and its type rule. */
const firewallLabelViolations = (valid: BodyGen): Violation[] => [
  // the empty label breaks alnum-ends as well
  broken('P3.firewall.label.min-3', valid, { label: () => labelTooShort(3).filter((text) => text.length > 0) }),
  broken('P3.firewall.label.max-32', valid, { label: (c) => labelTooLong(32, c.labelPrefix) }),
  broken('P3.firewall.label.charset', valid, { label: (c) => labelBadChar(3, 32, c.labelPrefix) }),
  broken('P3.firewall.label.alnum-ends', valid, { label: (c) => labelBadBeginEnd(3, 32, c.labelPrefix) }),
  broken('P3.firewall.label.no-double-punctuation', valid, { label: (c) => labelDoubledSame(3, 32, c.labelPrefix) }),
  ...wrongTypes('P3.firewall.types', valid, [['label', 'string']]),
  serverJudged('P3.firewall.label.unique', valid, { label: (c) => prefixedLabel(3, 32, c.labelPrefix) }),
];

/** Puts `bad` first in the inbound list at `at` (a dot path or '' for the body), keeping 25 rules at most. */
function withBadRule(valid: BodyGen, at: string, bad: fc.Arbitrary<FirewallRule>): BodyGen {
  return (context) =>
    fc.tuple(valid(context), bad).map(([body, rule]) => {
      const copy = structuredClone(body);
      const rules = (at ? copy[at] : copy) as { inbound?: FirewallRule[]; outbound?: FirewallRule[] };
      rules.inbound = [rule, ...(rules.inbound ?? []).slice(1)];
      if (rules.outbound) rules.outbound = rules.outbound.slice(0, 25 - rules.inbound.length);
      return copy;
    });
}

/** A valid rule (protocol among `protocols`) with members replaced or removed. */
function ruleWith(changes: Record<string, Change>, protocols: string[] = ['TCP', 'UDP', 'ICMP']): fc.Arbitrary<FirewallRule> {
  const base: BodyGen = () =>
    fc.tuple(firewallRule(), fc.constantFrom(...protocols), ports()).map(([rule, protocol, portText]) => {
      const { ports: _, ...rest } = rule;
      return protocol === 'ICMP' ? { ...rest, protocol } : { ...rest, protocol, ports: portText };
    });
  return replacing(base, changes)({} as BodyContext);
}

const TCP_UDP = ['TCP', 'UDP'];
/** The good entries beside a bad one: networks every reading of a rule's addresses takes. */
const v4Network = () => ruleNetwork('ipv4');
const v6Network = () => ruleNetwork('ipv6');

/** Rule-level cases: rule, member at fault (relative to the rule), the bad rule, and other members an error may name. */
const RULE_CASES: Array<[rule: string, member: string, bad: () => fc.Arbitrary<FirewallRule>, orMembers?: string[]]> = [
  ['P3.firewall.rule.action.required', 'action', () => ruleWith({ action: ABSENT })],
  ['P3.firewall.rule.addresses.required', 'addresses', () => ruleWith({ addresses: ABSENT })],
  ['P3.firewall.rule.protocol.required', 'protocol', () => ruleWith({ protocol: ABSENT })],
  ['P3.firewall.rule.action.enum', 'action', () => ruleWith({ action: oneOf('ALLOW', 'REJECT', 'DENY') })],
  ['P3.firewall.rule.protocol.enum', 'protocol', () => ruleWith({ protocol: oneOf('ALL', 'SCTP', 'IPENCAP') })],
  // An address without its mask (what a server could take for a single host) in every body of one way; other
  // addresses in another, so that each run of the first meets it.
  ['P3.firewall.rule.addresses.ipv4-mask', 'addresses.ipv4.0', () => ruleWith({ 'addresses.ipv4': listWithBad(() => ipv4(), v4Network) })],
  [
    'P3.firewall.rule.addresses.ipv4-mask',
    'addresses.ipv4.0',
    () => ruleWith({ 'addresses.ipv4': listWithBad(() => fc.oneof(notCidr(), ipv6Cidr()), v4Network) }),
  ],
  ['P3.firewall.rule.addresses.ipv6-mask', 'addresses.ipv6.0', () => ruleWith({ 'addresses.ipv6': listWithBad(() => ipv6(), v6Network) })],
  [
    'P3.firewall.rule.addresses.ipv6-mask',
    'addresses.ipv6.0',
    () => ruleWith({ 'addresses.ipv6': listWithBad(() => fc.oneof(notCidr(), ipv4Cidr()), v6Network) }),
  ],
  ['P3.firewall.rule.addresses.max-255', 'addresses', () => ruleWith({ addresses: () => addressesTooMany() })],
  ['P3.firewall.rule.description.min-1', 'description', () => ruleWith({ description: constant('') })],
  ['P3.firewall.rule.description.max-100', 'description', () => ruleWith({ description: () => tooLong(100) })],
  ['P3.firewall.rule.label.min-3', 'label', () => ruleWith({ label: () => tooShort(3) })],
  ['P3.firewall.rule.label.max-32', 'label', () => ruleWith({ label: () => tooLong(32) })],
  // ports and protocol clash, ports missing for the protocol or present against it: which is at fault is not shown
  ['P3.firewall.rule.ports.required-for-tcp-udp', 'ports', () => ruleWith({ ports: ABSENT }, TCP_UDP), ['protocol']],
  ['P3.firewall.rule.ports.forbidden-for-icmp', 'ports', () => ruleWith({ ports: () => ports() }, ['ICMP']), ['protocol']],
  ['P3.firewall.rule.ports.syntax', 'ports', () => ruleWith({ ports: () => portsBadSyntax() }, TCP_UDP)],
  ['P3.firewall.rule.ports.range-end-greater', 'ports', () => ruleWith({ ports: () => portsRangeNotIncreasing() }, TCP_UDP)],
  ['P3.firewall.rule.ports.range-1-65535', 'ports', () => ruleWith({ ports: () => portsOutOfRange() }, TCP_UDP)],
  ['P3.firewall.rule.ports.no-leading-zeroes', 'ports', () => ruleWith({ ports: () => portsLeadingZero() }, TCP_UDP)],
  ['P3.firewall.rule.ports.pieces-max-15', 'ports', () => ruleWith({ ports: () => portsTooManyPieces() }, TCP_UDP)],
  ...(
    [
      ['description', 'string'],
      ['label', 'string'],
      ['ports', 'string'],
      ['addresses', 'object'],
      ['addresses.ipv4', 'array'],
      ['addresses.ipv6', 'array'],
    ] as Array<[string, JsonKind]>
  ).map(([member, kind]): [string, string, () => fc.Arbitrary<FirewallRule>] => [
    'P3.firewall-rule.types',
    member,
    () => ruleWith({ [member]: () => fc.constantFrom(...WRONG_TYPED[kind]).map((value) => structuredClone(value)) }, TCP_UDP),
  ]),
];

/** The rules object's cases, at `at` ('rules' in a firewall create body, '' for the rules update body). */
function rulesObjectViolations(valid: BodyGen, light: BodyGen, at: string): Violation[] {
  const path = (member: string) => (at ? `${at}.${member}` : member);
  const tooMany: BodyGen = (context) =>
    fc.tuple(valid(context), ruleSetTooMany()).map(([body, set]) => {
      const copy = structuredClone(body);
      Object.assign(at ? (copy[at] as Body) : copy, set);
      return copy;
    });
  return [
    ...RULE_CASES.map(([rule, member, bad, orMembers]): Violation => ({
      rule,
      field: path(`inbound.0.${member}`),
      ...(orMembers ? { orFields: orMembers.map((other) => path(`inbound.0.${other}`)) } : {}),
      judgedBy: 'schema',
      // a min-1 case can only send "", and a rule's members with a length (description, label) are optional
      ...(rule.endsWith('.min-1') ? { blankMember: path(`inbound.0.${member}`) } : {}),
      arbitrary: withBadRule(light, at, bad()),
    })),
    broken('P3.firewall.policy.enum', valid, { [path('inbound_policy')]: oneOf('REJECT', 'ALLOW') }),
    broken('P3.firewall.policy.enum', valid, { [path('outbound_policy')]: oneOf('REJECT', 'DENY') }),
    { rule: 'P3.firewall.rules.max-25', field: at || null, judgedBy: 'schema', arbitrary: tooMany },
  ];
}

const firewallCreateViolations: Violation[] = [
  missing('P3.firewall-create.label.required', firewallCreate, 'label'),
  missing('P3.firewall-create.rules.required', firewallCreate, 'rules'),
  missing('P3.firewall-create.rules.inbound-policy.required', firewallCreate, 'rules.inbound_policy'),
  missing('P3.firewall-create.rules.outbound-policy.required', firewallCreate, 'rules.outbound_policy'),
  ...firewallLabelViolations(firewallCreate),
  ...rulesObjectViolations(firewallCreate, firewallCreateWith(LIGHT_RULES), 'rules'),
  ...wrongTypes('P3.firewall-create.types', firewallCreate, [
    ['rules', 'object'],
    ['rules.inbound', 'array'],
    ['rules.outbound', 'array'],
    ['devices', 'object'],
    ['devices.computes', 'array'],
    ['tags', 'array'],
  ]),
];

const firewallUpdateViolations: Violation[] = [
  ...firewallLabelViolations(firewallUpdate),
  broken('P3.firewall.status.update-not-deleted', firewallUpdate, { status: oneOf('deleted', 'active') }),
  ...wrongTypes('P3.firewall-update.types', firewallUpdate, [['tags', 'array']]),
];

const rulesUpdateViolations: Violation[] = [
  ...rulesObjectViolations(rulesUpdate, rulesUpdateWith(LIGHT_RULES), ''),
  ...wrongTypes('P3.firewall-rules-update.types', rulesUpdate, [
    ['inbound', 'array'],
    ['outbound', 'array'],
  ]),
];

const deviceCreate: BodyGen = (context) => fc.record({ id: fc.constantFrom(...context.computeIds), type: fc.constant('compute') });

const deviceViolations: Violation[] = [
  missing('P3.firewall-device-create.id.required', deviceCreate, 'id'),
  missing('P3.firewall-device-create.type.required', deviceCreate, 'type'),
  broken('P3.firewall-device.type.enum', deviceCreate, { type: oneOf('linode', 'nodebalancer', 'instance') }),
  ...wrongTypes('P3.firewall-device-create.types', deviceCreate, [['id', 'integer']]),
];

// ------------------------------------------------------------------ IP addresses and IPv6 ranges

const hextet = () => fc.integer({ min: 0, max: 0xffff });
/** An IPv6 /56 or /64 network: `2600:3c00:1:200::/56` (host bits clear). */
const ipv6Range = () =>
  fc.tuple(fc.array(hextet(), { minLength: 4, maxLength: 4 }), fc.constantFrom(56, 64)).map(([groups, prefix]) => {
    const kept = prefix === 56 ? [...groups.slice(0, 3), groups[3]! & 0xff00] : groups;
    return `${kept.map((g) => g.toString(16)).join(':')}::/${prefix}`;
  });
/** Addresses of TEST-NET-1 (RFC 5737): well formed, held by no account. */
const foreignIpv4 = () => fc.integer({ min: 1, max: 254 }).map((n) => `192.0.2.${n}`);

const ipAllocate: BodyGen = (context) => fc.record({ compute_id: fc.constantFrom(...context.computeIds), public: fc.boolean(), type: fc.constant('ipv4') });

/**
 * "The instance must be enabled for extra addresses through a support request first", which no body can hold: a server
 * may refuse a body for it before judging its type or its public (without which it cannot tell the kind asked for),
 * naming the address asked for or the instance.
 */
const orNotEnabled = (violation: Violation): Violation => ({ ...violation, orFields: ['public', 'compute_id'] });

const ipAllocateViolations: Violation[] = [
  missing('P3.ip-allocate.compute-id.required', ipAllocate, 'compute_id'),
  orNotEnabled(missing('P3.ip-allocate.public.required', ipAllocate, 'public')),
  orNotEnabled(missing('P3.ip-allocate.type.required', ipAllocate, 'type')),
  // Once for a private and once for a public address: a server may check the two kinds apart.
  ...[false, true].map((isPublic) =>
    orNotEnabled(broken('P3.ip-allocate.type.enum', ipAllocate, { type: oneOf('ipv6', 'ipv4/private', 'public'), public: constant(isPublic) })),
  ),
  ...wrongTypes('P3.ip-allocate.types', ipAllocate, [['compute_id', 'integer']]),
  ...wrongTypes('P3.ip-allocate.types', ipAllocate, [['public', 'boolean']]).map(orNotEnabled),
];

const assignment = (context: BodyContext, address: fc.Arbitrary<string>, withRegion: boolean) =>
  fc.record({ address, compute_id: fc.constantFrom(...context.computeIds), ...(withRegion ? { region: fc.constant(context.region) } : {}) });
const assignAddress = (context: BodyContext) => fc.oneof(fc.constantFrom(...context.ipv4s), ipv6Range());

/** Where `region` stands in an assignment body, beside the array or in each item (not shown): an error may name either. */
export const REGION_PLACES = 'region|assignments.*.region';

/** ips/assign with `region` beside the array. */
const assignTop: BodyGen = (context) =>
  fc.record({
    region: fc.constant(context.region),
    assignments: fc.array(assignment(context, assignAddress(context), false), { maxLength: 3 }),
  });
/** ips/assign with `region` in every item. */
const assignInItems: BodyGen = (context) =>
  fc.record({ assignments: fc.array(assignment(context, assignAddress(context), true), { minLength: 1, maxLength: 3 }) });
const ipsAssign: BodyGen = (context) => fc.oneof(assignTop(context), assignInItems(context));

/**
 * The assignments bodies breaking one rule start from: a swap of the context's two instances' addresses, valid under
 * every reading. Random items may name a range the account lacks, move nothing or leave an instance without a public
 * address, and a server may judge that before the member at fault (the order is not shown).
 */
function swapItems(context: BodyContext, withRegion: boolean): Array<Record<string, unknown>> {
  const [a, b] = context.ipv4s;
  const [first, second] = context.computeIds;
  const items =
    a && b && second !== undefined
      ? [
          { address: a, compute_id: second },
          { address: b, compute_id: first },
        ]
      : [{ address: a, compute_id: first }];
  return items.map((item) => (withRegion ? { ...item, region: context.region } : item));
}
/**
 * Breaking the first item of a swap breaks the end state too (the second instance gives its address and gets none: "every
 * instance involved must end with at least one public IPv4 address"), and a server may judge that first: an error may
 * name any item of the assignments.
 */
const orAnyItem = (violations: Violation[]): Violation[] =>
  violations.map((violation) => (violation.field?.startsWith('assignments.0') ? { ...violation, orFields: ['assignments'] } : violation));
const assignSwapTop: BodyGen = (context) => fc.constant(null).map(() => ({ region: context.region, assignments: swapItems(context, false) }));
const assignSwapInItems: BodyGen = (context) => fc.constant(null).map(() => ({ assignments: swapItems(context, true) }));

const ipsAssignViolations: Violation[] = orAnyItem([
  missing('P3.ips-assign.assignments.required', assignSwapTop, 'assignments'),
  // an error may name region beside the array or in an item: where it stands is not shown
  broken('P3.ips-assign.region.required', assignSwapTop, { region: ABSENT }, REGION_PLACES),
  missing('P3.assignment.address.required', assignSwapTop, 'assignments.0.address'),
  missing('P3.assignment.compute-id.required', assignSwapTop, 'assignments.0.compute_id'),
  broken('P3.ips-assign.address.ipv4-or-ipv6-range', (c) => fc.oneof(assignSwapTop(c), assignSwapInItems(c)), {
    'assignments.0.address': () =>
      fc.oneof(
        ipv6(),
        notIp(),
        ipv4Cidr(),
        ipv6Range().map((range) => range.replace(/\/\d+$/, '/48')),
        ipv6Range().map((range) => range.replace(/\/\d+$/, '/128')),
      ),
  }),
  ...wrongTypes('P3.ips-assign.types', assignSwapTop, [
    ['assignments', 'array'],
    ['assignments.0.address', 'string'],
    ['assignments.0.compute_id', 'integer'],
  ]),
  // region of another type, wherever the target takes it (its place is not shown)
  ...[assignSwapTop, assignSwapInItems].map((valid) =>
    broken(
      'P3.ips-assign.types',
      valid,
      { [valid === assignSwapInItems ? 'assignments.0.region' : 'region']: () => fc.constantFrom(42, true, ['us-east'], { id: 'us-east' }) },
      REGION_PLACES,
    ),
  ),
  serverJudged('P3.assign.same-region', assignSwapTop, { region: oneOf('zz-nowhere-9', 'xx-void-1') }),
  serverJudged('P3.assign.accessible-in-region', assignSwapTop, { 'assignments.0.address': () => foreignIpv4() }),
]);

const ipv4Assign: BodyGen = (context) => fc.record({ assignments: fc.array(assignment(context, fc.constantFrom(...context.ipv4s), false), { maxLength: 3 }) });
const ipv4AssignSwap: BodyGen = (context) => fc.constant(null).map(() => ({ assignments: swapItems(context, false) }));

const ipv4AssignViolations: Violation[] = orAnyItem([
  missing('P3.ipv4-assign.assignments.required', ipv4AssignSwap, 'assignments'),
  missing('P3.assignment.address.required', ipv4AssignSwap, 'assignments.0.address'),
  missing('P3.assignment.compute-id.required', ipv4AssignSwap, 'assignments.0.compute_id'),
  broken('P3.ipv4-assign.address.ipv4', ipv4AssignSwap, { 'assignments.0.address': () => fc.oneof(ipv6(), notIp(), ipv4Cidr(), ipv6Range()) }),
  ...wrongTypes('P3.ipv4-assign.types', ipv4AssignSwap, [
    ['assignments', 'array'],
    ['assignments.0.address', 'string'],
    ['assignments.0.compute_id', 'integer'],
  ]),
  serverJudged('P3.assign.accessible-in-region', ipv4AssignSwap, { 'assignments.0.address': () => foreignIpv4() }),
]);

/**
 * ips/share and ipv4/share: the first instance takes addresses of the other run instances (the caller must have
 * access to all, and an address is shared with an instance besides its owner); empty removes all.
 */
const share: BodyGen = (context) => fc.record({ ips: fc.subarray(context.ipv4s.slice(1)), compute_id: fc.constant(context.computeIds[0]!) });

const shareViolations = (prefix: 'P3.ips-share' | 'P3.ipv4-share'): Violation[] => [
  missing(`${prefix}.ips.required`, share, 'ips'),
  missing(`${prefix}.compute-id.required`, share, 'compute_id'),
  broken('P3.share.ips.address', share, { ips: listWithBad(() => fc.oneof(notIp(), ipv4Cidr(), ipv6Range()), ipv4) }, 'ips.0'),
  ...wrongTypes(`${prefix}.types`, share, [
    ['ips', 'array'],
    ['compute_id', 'integer'],
  ]),
  serverJudged('P3.share.access-all', share, { ips: () => fc.array(foreignIpv4(), { minLength: 1, maxLength: 3 }) }, 'ips.0'),
];

// rdns in every body, its one member: whether an update without it is accepted is not shown.
const ipUpdate: BodyGen = () => fc.record({ rdns: fc.oneof(exampleHost(), fc.constant(null)) });

const ipv6ByCompute: BodyGen = (context) => fc.record({ prefix_length: fc.constantFrom(56, 64), compute_id: fc.constantFrom(...context.computeIds) });
const ipv6ByTarget: BodyGen = (context) => fc.record({ prefix_length: fc.constantFrom(56, 64), route_target: fc.constant(context.slaac) });
const ipv6RangeCreate: BodyGen = (context) => fc.oneof(ipv6ByCompute(context), ipv6ByTarget(context));

const ipv6RangeViolations: Violation[] = [
  missing('P3.ipv6-range-create.prefix-length.required', ipv6RangeCreate, 'prefix_length'),
  broken('P3.ipv6-range.prefix-length.enum', ipv6RangeCreate, {
    prefix_length: () =>
      fc.oneof(
        fc.constantFrom(0, 48, 60, 63, 65, 128),
        fc.integer({ min: -10, max: 200 }).filter((n) => n !== 56 && n !== 64),
      ),
  }),
  broken('P3.ipv6-range-create.target.exactly-one', ipv6ByCompute, { route_target: (c) => fc.constant(c.slaac) }, null),
  broken('P3.ipv6-range-create.target.exactly-one', ipv6ByCompute, { compute_id: ABSENT }, null),
  // An IPv4 address of one of the caller's instances too: one a server could take for that instance, but not IPv6.
  broken('P3.ipv6-range-create.route-target.ipv6', ipv6ByTarget, {
    route_target: (c) => (c.ipv4s.length ? fc.oneof(fc.constantFrom(...c.ipv4s), ipv4(), notIp()) : fc.oneof(ipv4(), notIp())),
  }),
  broken('P3.ipv6-range-create.route-target.no-prefix', ipv6ByTarget, { route_target: (c) => fc.constantFrom(`${c.slaac}/128`, `${c.slaac}/64`) }),
  ...wrongTypes('P3.ipv6-range-create.types', ipv6ByCompute, [['compute_id', 'integer']]),
  ...wrongTypes('P3.ipv6-range-create.types', ipv6ByTarget, [['route_target', 'string']]),
];

// ------------------------------------------------------------------ all bodies

const entry = (schema: string, valid: BodyGen, violations: Violation[]): [string, BodyArbitraries] => [schema, { schema, valid, violations }];

export const bodies: Record<string, BodyArbitraries> = Object.fromEntries([
  entry('requests/domain-create', domainCreate, domainCreateViolations),
  entry('requests/domain-update', domainUpdate, domainUpdateViolations),
  entry('requests/domain-import', domainImport, domainImportViolations),
  entry('requests/domain-clone', domainClone, domainCloneViolations),
  entry('requests/record-create', recordCreate, recordCreateViolations),
  // The members a type requires may come from the stored record: on update only the other record rules apply. A body
  // naming no known type goes to the file's A record, which a server ignoring an update's type judges it as: it is
  // refused for its target then. A null MX is documented as created only: on an update of an MX, "" for its name and
  // target may be read as no change, which leaves a plain priority change or rename.
  entry(
    'requests/record-update',
    recordUpdate,
    recordViolations('P3.record-update.types', true)
      .filter((violation) => !violation.rule.endsWith('.required') && !violation.rule.startsWith('P3.record.mx.null-'))
      .map((violation) => (violation.rule === 'P3.record.type.enum' ? { ...violation, orFields: ['target'] } : violation)),
  ),
  entry('requests/monitor-client-create', monitorClient, monitorClientViolations('P3.monitor-client-create.types')),
  entry('requests/monitor-client-update', monitorClient, monitorClientViolations('P3.monitor-client-update.types')),
  entry('requests/monitor-plan-update', monitorPlan, [
    broken('P3.monitor-plan.subscription.enum', monitorPlan, { monitor_subscription: oneOf('free', 'monitor-5', 'monitor_3', 'none') }),
  ]),
  entry('requests/firewall-create', firewallCreate, firewallCreateViolations),
  entry('requests/firewall-update', firewallUpdate, firewallUpdateViolations),
  entry('requests/firewall-rules-update', rulesUpdate, rulesUpdateViolations),
  entry('requests/firewall-device-create', deviceCreate, deviceViolations),
  entry('requests/ip-allocate', ipAllocate, ipAllocateViolations),
  entry('requests/ips-assign', ipsAssign, ipsAssignViolations),
  entry('requests/ips-share', share, shareViolations('P3.ips-share')),
  entry('requests/ipv4-assign', ipv4Assign, ipv4AssignViolations),
  entry('requests/ipv4-share', share, shareViolations('P3.ipv4-share')),
  entry('requests/ip-update', ipUpdate, wrongTypes('P3.ip-update.types', ipUpdate, [['rdns', 'nullable-string']])),
  entry('requests/ipv6-range-create', ipv6RangeCreate, ipv6RangeViolations),
]);
