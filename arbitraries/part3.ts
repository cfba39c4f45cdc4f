// Request bodies of document 3 (spec/part3-domains-monitoring-networking.md): domains and records, monitoring,
// firewalls, IP addresses and IPv6 ranges.
import fc from 'fast-check';
import type { BodyArbitraries, BodyContext, Violation } from './types.js';
import {
  type Body,
  type BodyGen,
  type ValueGen,
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
  wrongTypes,
} from './generators/body.js';
import {
  domainBadSyntax,
  domainLabelTooLong,
  domainName,
  domainTooLong,
  domainTrailingPeriod,
  exampleHost,
  notRecordTargetHost,
  recordName,
  recordTargetHost,
} from './generators/dns.js';
import { addressesTooMany, firewallRule, ruleSet, ruleSetTooMany, type FirewallRule } from './generators/firewall.js';
import { label, labelBadBeginEnd, labelBadChar, labelTooLong, labelTooShort, prefixedLabel, SEPARATORS } from './generators/labels.js';
import { email, httpUrl, ipv4, ipv4Cidr, ipv6, ipv6Cidr, notCidr, notEmail, notIp, notUrl } from './generators/net.js';
import { ports, portsBadSyntax, portsLeadingZero, portsOutOfRange, portsRangeNotIncreasing, portsTooManyPieces } from './generators/ports.js';
import { between, stringOfLength, tooLong, tooShort, matching } from './generators/text.js';

// ------------------------------------------------------------------ helpers

/** Uniqueness: the body is valid as it is; the scenario sends the same body twice and expects the second refused. */
const sentTwice = (rule: string, valid: BodyGen, field: string): Violation => ({ rule, field, judgedBy: 'server', arbitrary: valid });

function optionalRecord(model: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Body> {
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Body>;
}

/** Merges the objects made by several generators into one body. */
function merged(...parts: Array<fc.Arbitrary<Body>>): fc.Arbitrary<Body> {
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects) as Body);
}

/** A list with `bad` first and 0..2 good items after it (field: `<member>.0`). */
const listWithBad =
  (bad: () => fc.Arbitrary<unknown>, good: () => fc.Arbitrary<unknown>): ValueGen =>
  () =>
    fc.tuple(bad(), fc.array(good(), { maxLength: 2 })).map(([first, rest]) => [first, ...rest]);

const noTrailingPeriod = (arb: fc.Arbitrary<string>) => arb.filter((text) => !text.endsWith('.'));

// ------------------------------------------------------------------ domains

const TIME_VALUES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
/** Domain time values: the valid ones, and others the server rounds up (any integer is accepted). */
/** Valid values, and others rounded up to one: nothing above the largest, which has no valid value to round up to. */
const timeValue = () => fc.oneof(fc.constantFrom(...TIME_VALUES), fc.integer({ min: 0, max: 2_419_200 }));
const ip = () => fc.oneof(ipv4(), ipv6());
/** Tag labels of 3..50 (the documented tag label length), so no body hinges on an undocumented shorter tag. */
const tags = () => fc.array(stringOfLength(3, 24), { maxLength: 3 });

const domainMembers = (context: BodyContext) => ({
  axfr_ips: fc.array(ip(), { maxLength: 4 }),
  description: stringOfLength(1, 255),
  domain: domainName(context.labelPrefix),
  expire_sec: timeValue(),
  group: stringOfLength(1, 50),
  master_ips: fc.array(ip(), { maxLength: 3 }),
  refresh_sec: timeValue(),
  retry_sec: timeValue(),
  soa_email: email(),
  status: fc.constantFrom('disabled', 'active'),
  tags: tags(),
  ttl_sec: timeValue(),
  type: fc.constantFrom('master', 'slave'),
});

/** A create body of one type: a master carries soa_email, a slave at least one master IP. */
const domainCreateOf =
  (type: 'master' | 'slave'): BodyGen =>
  (context) => {
    const { domain, soa_email, master_ips, ...optional } = domainMembers(context);
    const conditional = type === 'master' ? { soa_email, master_ips } : { soa_email, master_ips: fc.array(ip(), { minLength: 1, maxLength: 3 }) };
    return merged(
      optionalRecord({ ...optional, domain, type: fc.constant(type) }, ['domain', 'type']),
      optionalRecord(conditional, type === 'master' ? ['soa_email'] : ['master_ips']),
    );
  };
const domainMaster = domainCreateOf('master');
const domainSlave = domainCreateOf('slave');
const domainCreate: BodyGen = (context) => fc.oneof(domainMaster(context), domainSlave(context));
/**
 * Update: a create body, sometimes without `domain`. It always names its type with that type's required member:
 * whether soa_email or master_ips are needed otherwise depends on the stored type, which a body cannot know.
 */
const domainUpdate: BodyGen = (context) =>
  fc
    .tuple(domainCreate(context), fc.boolean())
    .map(([body, keepName]) => (keepName ? body : Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'domain'))));

/** The `domain` member: 1..255, labels up to 63, RFC 1035 syntax. */
const domainNameViolations = (valid: BodyGen): Violation[] => [
  broken('P3.domain.domain.min-1', valid, { domain: constant('') }),
  broken('P3.domain.domain.max-255', valid, { domain: () => domainTooLong() }),
  broken('P3.domain.domain.label-max-63', valid, { domain: () => domainLabelTooLong() }),
  broken('P3.domain.domain.rfc-1035', valid, { domain: () => domainBadSyntax() }),
  // a domain's own name takes no trailing period (record targets do)
  broken('P3.domain.domain.rfc-1035', valid, { domain: () => domainTrailingPeriod() }),
];

/** Members of create and update alike. */
const domainFieldViolations = (valid: BodyGen): Violation[] => [
  ...domainNameViolations(valid),
  broken('P3.domain.description.min-1', valid, { description: constant('') }),
  broken('P3.domain.description.max-255', valid, { description: () => tooLong(255) }),
  broken('P3.domain.group.min-1', valid, { group: constant('') }),
  broken('P3.domain.group.max-50', valid, { group: () => tooLong(50) }),
  broken('P3.domain.status.enum', valid, { status: oneOf('', 'enabled', 'Active', 'inactive', 'deleted') }),
  broken('P3.domain.type.enum', valid, { type: oneOf('', 'primary', 'secondary', 'Master', 'SLAVE') }),
  broken('P3.domain.axfr-ips.ip', valid, { axfr_ips: listWithBad(notIp, ip) }, 'axfr_ips.0'),
  broken('P3.domain.master-ips.ip', valid, { master_ips: listWithBad(notIp, ip) }, 'master_ips.0'),
  broken('P3.domain.soa-email.email', valid, { soa_email: () => notEmail() }),
];

const DOMAIN_TYPED: Array<[string, JsonKind]> = [
  ['axfr_ips', 'array'],
  ['description', 'string'],
  ['domain', 'string'],
  ['expire_sec', 'integer'],
  ['group', 'string'],
  ['refresh_sec', 'integer'],
  ['retry_sec', 'integer'],
  ['soa_email', 'string'],
  ['tags', 'array'],
  ['ttl_sec', 'integer'],
];

const domainCreateViolations: Violation[] = [
  missing('P3.domain-create.domain.required', domainCreate, 'domain'),
  missing('P3.domain-create.type.required', domainCreate, 'type'),
  ...domainFieldViolations(domainCreate),
  broken('P3.domain.soa-email.required-for-master', domainSlave, { type: constant('master'), soa_email: ABSENT }, 'soa_email'),
  broken('P3.domain.master-ips.required-for-slave', domainMaster, { type: constant('slave'), master_ips: ABSENT }, 'master_ips'),
  broken('P3.domain.master-ips.required-for-slave', domainMaster, { type: constant('slave'), master_ips: constant([]) }, 'master_ips'),
  // on a slave body a master_ips of another type breaks the slave rule too, so a master body carries it
  ...wrongTypes('P3.domain-create.types', domainCreate, DOMAIN_TYPED),
  ...wrongTypes('P3.domain-create.types', domainMaster, [['master_ips', 'array']]),
  sentTwice('P3.domain.domain.unique-platform', domainCreate, 'domain'),
];

const domainUpdateViolations: Violation[] = [
  ...domainFieldViolations(domainUpdate),
  ...wrongTypes('P3.domain-update.types', domainUpdate, [...DOMAIN_TYPED, ['master_ips', 'array']]),
];

const domainImport: BodyGen = (context) => fc.record({ domain: domainName(context.labelPrefix), remote_nameserver: fc.oneof(ipv4(), ipv6(), exampleHost()) });

const domainImportViolations: Violation[] = [
  missing('P3.domain-import.domain.required', domainImport, 'domain'),
  missing('P3.domain-import.remote-nameserver.required', domainImport, 'remote_nameserver'),
  ...domainNameViolations(domainImport),
  ...wrongTypes('P3.domain-import.types', domainImport, [
    ['domain', 'string'],
    ['remote_nameserver', 'string'],
  ]),
  sentTwice('P3.domain.domain.unique-platform', domainImport, 'domain'),
];

const domainClone: BodyGen = (context) => fc.record({ domain: domainName(context.labelPrefix) });

const domainCloneViolations: Violation[] = [
  missing('P3.domain-clone.domain.required', domainClone, 'domain'),
  ...domainNameViolations(domainClone),
  ...wrongTypes('P3.domain-clone.types', domainClone, [['domain', 'string']]),
  sentTwice('P3.domain.domain.unique-platform', domainClone, 'domain'),
];

// ------------------------------------------------------------------ domain records

const RECORD_TTLS = [300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
/** Record ttl_sec: valid values, and others the server rounds to the nearest one. */
const recordTtl = () => fc.oneof(fc.constantFrom(...RECORD_TTLS), fc.integer({ min: 0, max: 3_000_000 }));

/** Record shapes: the nine types, with MX split into an ordinary and a null MX (empty target and name). */
// PTR records are "set through the reverse DNS procedure": whether the records endpoint takes them is not shown,
// so no body is built on one.
type RecordShape = 'A' | 'AAAA' | 'NS' | 'MX' | 'NULL_MX' | 'CNAME' | 'TXT' | 'SRV' | 'CAA';
const SHAPES: RecordShape[] = ['A', 'AAAA', 'NS', 'MX', 'NULL_MX', 'CNAME', 'TXT', 'SRV', 'CAA'];
const NOT_SRV = SHAPES.filter((shape) => shape !== 'SRV');
const NOT_CAA = SHAPES.filter((shape) => shape !== 'CAA');

/** protocol, service and tag are null when present on a type they are not for. */
const nullsFor = (shape: RecordShape) => ({
  ...(shape === 'SRV' ? {} : { protocol: fc.constant(null), service: fc.constant(null) }),
  ...(shape === 'CAA' ? {} : { tag: fc.constant(null) }),
});

const caaTarget = (tag: string) =>
  tag === 'iodef'
    ? fc.oneof(
        httpUrl(),
        email().map((address) => `mailto:${address}`),
      )
    : exampleHost();

/** A valid record body of one shape (type always given). */
function recordOf(shape: RecordShape): fc.Arbitrary<Body> {
  const type = fc.constant(shape === 'NULL_MX' ? 'MX' : shape);
  const base = { type, ttl_sec: recordTtl(), ...nullsFor(shape) };
  const host = recordTargetHost();
  switch (shape) {
    case 'A':
      return optionalRecord({ ...base, name: recordName(), target: fc.oneof(ipv4(), fc.constant('[remote_addr]')) }, ['type', 'target']);
    case 'AAAA':
      return optionalRecord({ ...base, name: recordName(), target: ipv6() }, ['type', 'target']);
    case 'NS':
    case 'TXT': {
      // A TXT value is required; whether an empty one counts is not shown.
      const target = shape === 'NS' ? host : stringOfLength(1, 255);
      return optionalRecord({ ...base, name: recordName(), target }, ['type', 'target']);
    }
    case 'CNAME':
      return optionalRecord({ ...base, name: recordName(), target: host }, ['type', 'name', 'target']);
    case 'MX':
      return optionalRecord({ ...base, name: fc.oneof(recordName(), fc.constant('')), target: host, priority: between(0, 255) }, ['type', 'target']);
    case 'NULL_MX':
      return optionalRecord({ ...base, name: fc.constant(''), target: fc.constant(''), priority: fc.constant(0) }, ['type', 'name', 'target']);
    case 'SRV':
      return optionalRecord(
        {
          ...base,
          name: recordName(),
          target: host,
          priority: between(0, 255),
          weight: between(0, 65535),
          port: between(0, 65535),
          // The service's format is not shown: a name of letters and digits with inner hyphens, valid in every reading.
          service: matching(/^[a-z]([a-z0-9-]{0,18}[a-z0-9])?$/),
          protocol: fc.oneof(fc.constantFrom('tcp', 'udp', 'tls'), fc.constant(null)),
        },
        ['type', 'target', 'priority', 'weight', 'port', 'service'],
      );
    case 'CAA':
      return fc.oneof(
        ...['issue', 'issuewild', 'iodef'].map((tag) =>
          // The value is always sent: a CAA record without one has no documented meaning.
          optionalRecord({ ...base, tag: fc.constant(tag), name: fc.oneof(recordName(), fc.constant('')), target: caaTarget(tag) }, ['type', 'tag', 'target']),
        ),
      );
  }
}

const recordsOf =
  (...shapes: RecordShape[]): BodyGen =>
  () =>
    fc.oneof(...shapes.map(recordOf));
const recordCreate: BodyGen = recordsOf(...SHAPES);

/**
 * Update: a full record naming its type. A body without `type` is judged against the stored record's type, which a
 * generated body cannot know, so valid updates always name theirs.
 */
const recordUpdate: BodyGen = recordCreate;

/** Violations of the record members, on bodies that name their type (so the per-type rules apply on update too). */
function recordViolations(typesRule: string): Violation[] {
  const on = recordsOf;
  return [
    broken('P3.record.type.enum', on('TXT'), { type: oneOf('', 'SPF', 'HINFO', 'a', 'txt', 'ALIAS') }),
    broken('P3.record.name.max-100', on(...SHAPES.filter((shape) => shape !== 'NULL_MX')), { name: () => tooLong(100, 'abcdefghij0123456789.-') }),
    broken('P3.record.name.min-1', on('A', 'AAAA', 'NS', 'CNAME', 'TXT', 'SRV'), { name: constant('') }),
    broken('P3.record.target.required', on('A', 'AAAA', 'NS', 'MX', 'CNAME', 'TXT', 'SRV'), { target: ABSENT }),
    broken('P3.record.a.target.ipv4', on('A'), {
      target: () => noTrailingPeriod(fc.oneof(ipv6(), notIp(), ipv4Cidr(), fc.constantFrom('remote_addr', '[REMOTE_ADDR]')) as fc.Arbitrary<string>),
    }),
    broken('P3.record.aaaa.target.ipv6', on('AAAA'), { target: () => noTrailingPeriod(fc.oneof(ipv4(), notIp(), ipv6Cidr(), fc.constant('[remote_addr]'))) }),
    // on A and AAAA a trailing period also breaks the address format: only CAA shows this rule alone
    broken('P3.record.target.no-trailing-period', on('CAA'), { tag: oneOf('issue', 'issuewild'), target: () => domainTrailingPeriod() }, 'target'),
    broken('P3.record.target.no-trailing-period', on('CAA'), { tag: constant('iodef'), target: () => httpUrl().map((url) => `${url}.`) }, 'target'),
    broken('P3.record.target.valid-domain', on('NS', 'MX', 'CNAME', 'SRV'), { target: () => notRecordTargetHost() }),
    broken('P3.record.target.valid-domain', on('NS', 'CNAME', 'SRV'), { target: constant('') }),
    broken('P3.record.cname.name.required', on('CNAME'), { name: ABSENT }),
    broken('P3.record.priority.only-mx-srv', on('A', 'AAAA', 'NS', 'CNAME', 'TXT', 'CAA'), { priority: () => between(0, 255) }),
    broken('P3.record.weight.only-srv', on(...NOT_SRV), { weight: () => between(0, 65535) }),
    broken('P3.record.port.only-srv', on(...NOT_SRV), { port: () => between(0, 65535) }),
    broken('P3.record.protocol.only-srv', on(...NOT_SRV), { protocol: oneOf('tcp', 'udp', '_tcp') }),
    broken('P3.record.service.only-srv', on(...NOT_SRV), { service: oneOf('sip', '_xmpp', 'http') }),
    broken('P3.record.tag.only-caa', on(...NOT_CAA), { tag: oneOf('issue', 'issuewild', 'iodef') }),
    ...(['priority', 'weight', 'port', 'service'] as const).map((member) => missing(`P3.record.srv.${member}.required`, on('SRV'), member)),
    broken('P3.record.priority.min-0', on('MX', 'SRV'), { priority: () => between(-1000, -1) }),
    broken('P3.record.priority.max-255', on('MX', 'SRV'), { priority: () => between(256, 100_000) }),
    broken('P3.record.weight.min-0', on('SRV'), { weight: () => between(-1000, -1) }),
    broken('P3.record.weight.max-65535', on('SRV'), { weight: () => between(65536, 1_000_000) }),
    broken('P3.record.port.min-0', on('SRV'), { port: () => between(-1000, -1) }),
    broken('P3.record.port.max-65535', on('SRV'), { port: () => between(65536, 1_000_000) }),
    broken('P3.record.tag.enum', on('CAA'), { tag: oneOf('', 'issuer', 'ISSUE', 'contactemail', 'issuemail') }),
    // The target stays an issuer domain: without a tag, a URL target would break the issue/issuewild rule too.
    broken('P3.record.caa.tag.required', on('CAA'), { tag: ABSENT, target: () => caaTarget('issue') }, 'tag'),
    broken(
      'P3.record.caa.iodef.target-url',
      on('CAA'),
      {
        tag: constant('iodef'),
        target: () =>
          noTrailingPeriod(fc.oneof(notUrl(), fc.constantFrom('ftp://example.com/report', 'tel:+15555550100', 'example.com', 'urn:isbn:0451450523'))),
      },
      'target',
    ),
    broken('P3.record.caa.issue.target-domain', on('CAA'), { tag: oneOf('issue', 'issuewild'), target: () => domainBadSyntax() }, 'target'),
    // Which member an error names is not judged: with another MX stored, a null MX is refused for that ("first
    // remove all other MX records") and may name target — state the body cannot know.
    broken('P3.record.mx.null-priority-zero', on('NULL_MX'), { priority: () => between(1, 255) }, null),
    broken('P3.record.mx.null-name-empty', on('NULL_MX'), { name: () => recordName() }, null), // a name with an empty target: null-MX name or plain-MX target at fault, either reading
    // name on a type with a 1-character minimum is typed by that rule too; CAA has none
    ...wrongTypes(typesRule, on('CAA'), [['name', 'string']]),
    ...wrongTypes(typesRule, on('TXT'), [
      ['target', 'string'],
      ['ttl_sec', 'integer'],
    ]),
    ...wrongTypes(typesRule, on('SRV'), [
      ['priority', 'integer'],
      ['weight', 'integer'],
      ['port', 'integer'],
      ['protocol', 'nullable-string'],
    ]),
  ];
}

const recordCreateViolations: Violation[] = [
  missing('P3.record-create.type.required', recordCreate, 'type'),
  ...recordViolations('P3.record-create.types'),
  sentTwice('P3.record.cname.name.unique', recordsOf('CNAME'), 'name'),
];

// ------------------------------------------------------------------ monitoring

// Client labels are 3..32 with no character rules; labels.ts keeps lengths below prefix + 1 (3..6 for `cf7a3-`)
// prefix-free, so the 3-character bound is exercised at the cost of a few unswept clients.
const monitorClient: BodyGen = (context) => optionalRecord({ label: label(3, 32, context.labelPrefix) });

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
        tags: tags(),
      },
      ['label', 'rules'],
    );

const LIGHT_RULES = 3;

const firewallUpdate: BodyGen = (context) => optionalRecord({ label: firewallLabel(context), tags: tags(), status: fc.constantFrom('enabled', 'disabled') });

const firewallCreate = firewallCreateWith();
const rulesUpdateWith =
  (maxRules?: number): BodyGen =>
  () =>
    merged(ruleLists(maxRules), optionalRecord({ inbound_policy: fc.constantFrom(...POLICIES), outbound_policy: fc.constantFrom(...POLICIES) }));
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

/** Rule-level cases: rule, member at fault (relative to the rule), the bad rule. */
const RULE_CASES: Array<[rule: string, member: string, bad: () => fc.Arbitrary<FirewallRule>]> = [
  ['P3.firewall.rule.action.required', 'action', () => ruleWith({ action: ABSENT })],
  ['P3.firewall.rule.addresses.required', 'addresses', () => ruleWith({ addresses: ABSENT })],
  ['P3.firewall.rule.protocol.required', 'protocol', () => ruleWith({ protocol: ABSENT })],
  ['P3.firewall.rule.action.enum', 'action', () => ruleWith({ action: oneOf('', 'ALLOW', 'accept', 'REJECT', 'DENY') })],
  ['P3.firewall.rule.protocol.enum', 'protocol', () => ruleWith({ protocol: oneOf('', 'ALL', 'tcp', 'SCTP', 'IPENCAP') })],
  [
    'P3.firewall.rule.addresses.ipv4-mask',
    'addresses.ipv4.0',
    () => ruleWith({ 'addresses.ipv4': listWithBad(() => fc.oneof(ipv4(), notCidr(), ipv6Cidr()), ipv4Cidr) }),
  ],
  [
    'P3.firewall.rule.addresses.ipv6-mask',
    'addresses.ipv6.0',
    () => ruleWith({ 'addresses.ipv6': listWithBad(() => fc.oneof(ipv6(), notCidr(), ipv4Cidr()), ipv6Cidr) }),
  ],
  ['P3.firewall.rule.addresses.max-255', 'addresses', () => ruleWith({ addresses: () => addressesTooMany() })],
  ['P3.firewall.rule.description.min-1', 'description', () => ruleWith({ description: constant('') })],
  ['P3.firewall.rule.description.max-100', 'description', () => ruleWith({ description: () => tooLong(100) })],
  ['P3.firewall.rule.label.min-3', 'label', () => ruleWith({ label: () => tooShort(3) })],
  ['P3.firewall.rule.label.max-32', 'label', () => ruleWith({ label: () => tooLong(32) })],
  ['P3.firewall.rule.ports.required-for-tcp-udp', 'ports', () => ruleWith({ ports: ABSENT }, TCP_UDP)],
  ['P3.firewall.rule.ports.forbidden-for-icmp', 'ports', () => ruleWith({ ports: () => ports() }, ['ICMP'])],
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
    ...RULE_CASES.map(([rule, member, bad]): Violation => ({
      rule,
      field: path(`inbound.0.${member}`),
      judgedBy: 'schema',
      arbitrary: withBadRule(light, at, bad()),
    })),
    broken('P3.firewall.policy.enum', valid, { [path('inbound_policy')]: oneOf('', 'REJECT', 'accept', 'ALLOW') }),
    broken('P3.firewall.policy.enum', valid, { [path('outbound_policy')]: oneOf('', 'REJECT', 'drop', 'DENY') }),
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
  broken('P3.firewall.status.update-not-deleted', firewallUpdate, { status: oneOf('deleted', '', 'active', 'ENABLED', 'Disabled') }),
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
  broken('P3.firewall-device.type.enum', deviceCreate, { type: oneOf('', 'linode', 'nodebalancer', 'Compute', 'instance') }),
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

const ipAllocateViolations: Violation[] = [
  ...(['compute_id', 'public', 'type'] as const).map((member) => missing(`P3.ip-allocate.${member.replace('_', '-')}.required`, ipAllocate, member)),
  broken('P3.ip-allocate.type.enum', ipAllocate, { type: oneOf('', 'ipv6', 'IPv4', 'ipv4/private', 'public') }),
  ...wrongTypes('P3.ip-allocate.types', ipAllocate, [
    ['compute_id', 'integer'],
    ['public', 'boolean'],
  ]),
];

const assignment = (context: BodyContext, address: fc.Arbitrary<string>, withRegion: boolean) =>
  fc.record({ address, compute_id: fc.constantFrom(...context.computeIds), ...(withRegion ? { region: fc.constant(context.region) } : {}) });
const assignAddress = (context: BodyContext) => fc.oneof(fc.constantFrom(...context.ipv4s), ipv6Range());

/** ips/assign with `region` beside the array (`minItems` assignments). */
const assignTop =
  (minItems: number): BodyGen =>
  (context) =>
    fc.record({
      region: fc.constant(context.region),
      assignments: fc.array(assignment(context, assignAddress(context), false), { minLength: minItems, maxLength: 3 }),
    });
/** ips/assign with `region` in every item. */
const assignInItems: BodyGen = (context) =>
  fc.record({ assignments: fc.array(assignment(context, assignAddress(context), true), { minLength: 1, maxLength: 3 }) });
const ipsAssign: BodyGen = (context) => fc.oneof(assignTop(0)(context), assignInItems(context));

const ipsAssignViolations: Violation[] = [
  missing('P3.ips-assign.assignments.required', assignTop(0), 'assignments'),
  missing('P3.ips-assign.region.required', assignTop(0), 'region'),
  missing('P3.assignment.address.required', assignTop(1), 'assignments.0.address'),
  missing('P3.assignment.compute-id.required', assignTop(1), 'assignments.0.compute_id'),
  broken('P3.ips-assign.address.ipv4-or-ipv6-range', (c) => fc.oneof(assignTop(1)(c), assignInItems(c)), {
    'assignments.0.address': () =>
      fc.oneof(
        ipv6(),
        notIp(),
        ipv4Cidr(),
        ipv6Range().map((range) => range.replace(/\/\d+$/, '/48')),
        ipv6Range().map((range) => range.replace(/\/\d+$/, '/128')),
      ),
  }),
  ...wrongTypes('P3.ips-assign.types', assignTop(1), [
    ['assignments', 'array'],
    ['region', 'string'],
    ['assignments.0.address', 'string'],
    ['assignments.0.compute_id', 'integer'],
  ]),
  ...wrongTypes('P3.ips-assign.types', assignInItems, [['assignments.0.region', 'string']]),
  serverJudged('P3.assign.same-region', assignTop(1), { region: oneOf('zz-nowhere-9', 'xx-void-1') }),
  serverJudged('P3.assign.accessible-in-region', assignTop(1), { 'assignments.0.address': () => foreignIpv4() }),
];

const ipv4Assign: BodyGen = (context) => fc.record({ assignments: fc.array(assignment(context, fc.constantFrom(...context.ipv4s), false), { maxLength: 3 }) });
const ipv4AssignOne: BodyGen = (context) =>
  fc.record({ assignments: fc.array(assignment(context, fc.constantFrom(...context.ipv4s), false), { minLength: 1, maxLength: 3 }) });

const ipv4AssignViolations: Violation[] = [
  missing('P3.ipv4-assign.assignments.required', ipv4Assign, 'assignments'),
  missing('P3.assignment.address.required', ipv4AssignOne, 'assignments.0.address'),
  missing('P3.assignment.compute-id.required', ipv4AssignOne, 'assignments.0.compute_id'),
  broken('P3.ipv4-assign.address.ipv4', ipv4AssignOne, { 'assignments.0.address': () => fc.oneof(ipv6(), notIp(), ipv4Cidr(), ipv6Range()) }),
  ...wrongTypes('P3.ipv4-assign.types', ipv4AssignOne, [
    ['assignments', 'array'],
    ['assignments.0.address', 'string'],
    ['assignments.0.compute_id', 'integer'],
  ]),
  serverJudged('P3.assign.accessible-in-region', ipv4AssignOne, { 'assignments.0.address': () => foreignIpv4() }),
];

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

const ipUpdate: BodyGen = () => optionalRecord({ rdns: fc.oneof(exampleHost(), fc.constant(null)) });

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
  broken('P3.ipv6-range-create.route-target.ipv6', ipv6ByTarget, { route_target: () => fc.oneof(ipv4(), notIp()) }),
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
  // The members a type requires may come from the stored record: on update only the other record rules apply.
  entry(
    'requests/record-update',
    recordUpdate,
    recordViolations('P3.record-update.types').filter((violation) => !violation.rule.endsWith('.required')),
  ),
  entry('requests/monitor-client-create', monitorClient, monitorClientViolations('P3.monitor-client-create.types')),
  entry('requests/monitor-client-update', monitorClient, monitorClientViolations('P3.monitor-client-update.types')),
  entry('requests/monitor-plan-update', monitorPlan, [
    broken('P3.monitor-plan.subscription.enum', monitorPlan, { monitor_subscription: oneOf('', 'free', 'monitor-5', 'Monitor-3', 'monitor_3', 'none') }),
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
