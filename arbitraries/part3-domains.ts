// Request bodies of document 3's domains and records (gathered with the others in part3.ts).
import fc from 'fast-check';
import type { BodyContext, Violation } from './types.js';
import {
  type Body,
  type BodyGen,
  ABSENT,
  blank,
  constant,
  oneOf,
  broken,
  merged,
  missing,
  optionalRecord,
  type JsonKind,
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
  recordNameTooLong,
  recordTargetHost,
} from './generators/dns.js';
import { email, httpUrl, ipv4, ipv4Cidr, ipv6, ipv6Cidr, nameserverAddress, notEmail, notIp, notUrl, unicastAddress } from './generators/net.js';
import { between, stringOfLength, tooLong, matching } from './generators/text.js';
import { listWithBad, noTrailingPeriod, sentTwice, tags } from './part3-shared.js';

// ------------------------------------------------------------------ domains

const TIME_VALUES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
/** Domain time values: the valid ones, and others the server rounds up (any integer is accepted). */
/** Valid values, and others rounded up to one: nothing above the largest, which has no valid value to round up to. */
const timeValue = () => fc.oneof(fc.constantFrom(...TIME_VALUES), fc.integer({ min: 0, max: 2_419_200 }));
const ip = nameserverAddress;

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
  tags: tags(context),
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
export const domainCreate: BodyGen = (context) => fc.oneof(domainMaster(context), domainSlave(context));
/**
 * Update: a create body, sometimes without `domain`. It always names its type with that type's required member:
 * whether soa_email or master_ips are needed otherwise depends on the stored type, which a body cannot know.
 */
export const domainUpdate: BodyGen = (context) =>
  fc
    .tuple(domainCreate(context), fc.boolean())
    .map(([body, keepName]) => (keepName ? body : Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'domain'))));

/** The `domain` member: 1..255, labels up to 63, RFC 1035 syntax. */
/** `field`: where the error may point (`domain` unless the body has another precondition the server may judge first). */
const domainNameViolations = (valid: BodyGen, field = 'domain'): Violation[] => [
  { ...blank('P3.domain.domain.min-1', valid, 'domain'), field },
  broken('P3.domain.domain.max-255', valid, { domain: () => domainTooLong() }, field),
  broken('P3.domain.domain.label-max-63', valid, { domain: () => domainLabelTooLong() }, field),
  // Not a final period: RFC 1035 writes an absolute name so in master files, and a server may read it as the same name.
  // One way a kind of break: each run of each way meets a server that lets that kind through.
  ...(['hyphenEnd', 'badCharacter', 'emptyLabel'] as const).map((kind) =>
    broken('P3.domain.domain.rfc-1035', valid, { domain: () => domainBadSyntax(kind) }, field),
  ),
];

/** Members of create and update alike. */
const domainFieldViolations = (valid: BodyGen): Violation[] => [
  ...domainNameViolations(valid),
  blank('P3.domain.description.min-1', valid, 'description'),
  broken('P3.domain.description.max-255', valid, { description: () => tooLong(255) }),
  blank('P3.domain.group.min-1', valid, 'group'),
  broken('P3.domain.group.max-50', valid, { group: () => tooLong(50) }),
  broken('P3.domain.status.enum', valid, { status: oneOf('enabled', 'inactive', 'deleted') }),
  broken('P3.domain.type.enum', valid, { type: oneOf('primary', 'secondary', 'replica') }),
  broken('P3.domain.axfr-ips.ip', valid, { axfr_ips: listWithBad(notIp, ip) }, 'axfr_ips.0'),
  broken('P3.domain.master-ips.ip', valid, { master_ips: listWithBad(notIp, ip) }, 'master_ips.0'),
  // not "": on a slave domain, which needs no soa_email, it may be read as none (slave-soa-email-empty)
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

export const domainCreateViolations: Violation[] = [
  missing('P3.domain-create.domain.required', domainCreate, 'domain'),
  missing('P3.domain-create.type.required', domainCreate, 'type'),
  ...domainFieldViolations(domainCreate),
  // A clash with the type: a server may put either member at fault.
  { ...broken('P3.domain.soa-email.required-for-master', domainSlave, { type: constant('master'), soa_email: ABSENT }, 'soa_email'), orFields: ['type'] },
  { ...broken('P3.domain.master-ips.required-for-slave', domainMaster, { type: constant('slave'), master_ips: ABSENT }, 'master_ips'), orFields: ['type'] },
  {
    ...broken('P3.domain.master-ips.required-for-slave', domainMaster, { type: constant('slave'), master_ips: constant([]) }, 'master_ips'),
    orFields: ['type'],
  },
  // on a slave body a master_ips of another type breaks the slave rule too, so a master body carries it
  ...wrongTypes('P3.domain-create.types', domainCreate, DOMAIN_TYPED),
  ...wrongTypes('P3.domain-create.types', domainMaster, [['master_ips', 'array']]),
  sentTwice('P3.domain.domain.unique-platform', domainCreate, 'domain'),
];

export const domainUpdateViolations: Violation[] = [
  ...domainFieldViolations(domainUpdate),
  ...wrongTypes('P3.domain-update.types', domainUpdate, [...DOMAIN_TYPED, ['master_ips', 'array']]),
];

export const domainImport: BodyGen = (context) =>
  fc.record({ domain: domainName(context.labelPrefix), remote_nameserver: fc.oneof(ipv4(), ipv6(), exampleHost()) });

export const domainImportViolations: Violation[] = [
  missing('P3.domain-import.domain.required', domainImport, 'domain'),
  missing('P3.domain-import.remote-nameserver.required', domainImport, 'remote_nameserver'),
  // The generated nameservers are not known to allow the zone transfer the import needs, and the order in which a
  // server tries the transfer and judges the name is not shown: the error may point at either member.
  ...domainNameViolations(domainImport, 'domain|remote_nameserver'),
  ...wrongTypes('P3.domain-import.types', domainImport, [
    ['domain', 'string'],
    ['remote_nameserver', 'string'],
  ]),
  sentTwice('P3.domain.domain.unique-platform', domainImport, 'domain'),
];

export const domainClone: BodyGen = (context) => fc.record({ domain: domainName(context.labelPrefix) });

export const domainCloneViolations: Violation[] = [
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

/** An iodef target is "a contact or submission URL (http or mailto)": https, which a server may take too, is not sent. */
const caaTarget = (tag: string) =>
  tag === 'iodef'
    ? fc.oneof(
        httpUrl(['http']),
        email().map((address) => `mailto:${address}`),
      )
    : exampleHost();

/** A valid record body of one shape (type always given). */
function recordOf(shape: RecordShape): fc.Arbitrary<Body> {
  const type = fc.constant(shape === 'NULL_MX' ? 'MX' : shape);
  // protocol, service and tag are left out on the types they are not for (even null: a server may refuse the member)
  const base = { type, ttl_sec: recordTtl() };
  const host = recordTargetHost();
  switch (shape) {
    case 'A':
      // not `[remote_addr]`: a request reaching the target over IPv6 has no IPv4 address to submit (records.spec.ts
      // judges it where the target is reached over IPv4)
      return optionalRecord({ ...base, name: recordName(), target: unicastAddress('ipv4') }, ['type', 'target']);
    case 'AAAA':
      return optionalRecord({ ...base, name: recordName(), target: unicastAddress('ipv6') }, ['type', 'target']);
    case 'NS':
    case 'TXT': {
      // A TXT value is required; whether an empty one counts is not shown.
      const target = shape === 'NS' ? host : stringOfLength(1, 255);
      return optionalRecord({ ...base, name: recordName(), target }, ['type', 'target']);
    }
    case 'CNAME':
      return optionalRecord({ ...base, name: recordName(), target: host }, ['type', 'name', 'target']);
    case 'MX':
      // the empty name is documented for a null MX only: an ordinary MX always names its mail subdomain (left out, a
      // server may take the name as empty, a null MX's)
      return optionalRecord({ ...base, name: recordName(), target: host, priority: between(0, 255) }, ['type', 'name', 'target']);
    case 'NULL_MX':
      return optionalRecord({ ...base, name: fc.constant(''), target: fc.constant(''), priority: fc.constant(0) }, ['type', 'name', 'target']);
    case 'SRV':
      return optionalRecord(
        // No name: "unused (use `service`)" on SRV, and a server may refuse a member its type does not use.
        {
          ...base,
          target: host,
          priority: between(0, 255),
          weight: between(0, 65535),
          port: between(0, 65535),
          // The service's format is not shown: a name every reading takes, RFC 6335's (at most 15 letters and digits,
          // beginning with a letter, no hyphen at an end or beside another).
          service: matching(/^[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,6})?$/),
          // which protocols a server takes is not shown: the two every one does (srv-protocol-tcp-udp-only)
          protocol: fc.oneof(fc.constantFrom('tcp', 'udp'), fc.constant(null)),
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
export const recordCreate: BodyGen = recordsOf(...SHAPES);

/**
 * Update: a full A record naming its type, as the record the bodies go to is (the file's A record). A body without
 * `type` is judged against the stored record's type; whether an update may change the type is not shown (a server
 * may refuse it, or ignore `type` and judge the body as the stored type), so valid updates keep it.
 */
export const recordUpdate: BodyGen = recordsOf('A');

/**
 * Violations of the record members, on bodies that name their type (so the per-type rules apply on update too). On an
 * update, where no member is required, "" for a name or a target may be read as not given (blank-optional-absent).
 */
export function recordViolations(typesRule: string, update = false): Violation[] {
  const on = recordsOf;
  const emptied = (rule: string, valid: BodyGen, member: string) => (update ? blank(rule, valid, member) : broken(rule, valid, { [member]: constant('') }));
  return [
    broken('P3.record.type.enum', on('TXT'), { type: oneOf('SPF', 'HINFO', 'ALIAS') }),
    // not on SRV, whose name is "unused" (a server may ignore it)
    // A host name but for its length: any other flaw (an empty label, a hyphen at a label's end) breaks a rule too.
    broken('P3.record.name.max-100', on(...SHAPES.filter((shape) => shape !== 'NULL_MX' && shape !== 'SRV')), { name: () => recordNameTooLong() }),
    // CNAME only ("required"): an empty name on the others may be read as the whole domain, as CAA says outright
    emptied('P3.record.name.min-1', on('CNAME'), 'name'),
    broken('P3.record.target.required', on('A', 'AAAA', 'NS', 'CNAME', 'TXT', 'SRV'), { target: ABSENT }),
    // An MX without target: a server that reads an absent member as "" sees a null MX with a name and perhaps a priority
    // other than 0 ("must be 0 for a null MX"), at fault either way (which it judges first is not shown).
    { ...broken('P3.record.target.required', on('MX'), { target: ABSENT }), orFields: ['name', 'priority'] },
    broken('P3.record.a.target.ipv4', on('A'), {
      target: () => noTrailingPeriod(fc.oneof(ipv6(), notIp(), ipv4Cidr(), fc.constantFrom('remote_addr', '[REMOTE_ADDR]')) as fc.Arbitrary<string>),
    }),
    // not [remote_addr]: the literal is documented on the row of A and AAAA alike
    broken('P3.record.aaaa.target.ipv6', on('AAAA'), { target: () => noTrailingPeriod(fc.oneof(ipv4(), notIp(), ipv6Cidr())) }),
    // On A and AAAA a trailing period also breaks the address format: only CAA shows this rule alone, on an issuer's
    // domain (an iodef URL's final period is a character of its path, not a domain's trailing period).
    broken('P3.record.target.no-trailing-period', on('CAA'), { tag: oneOf('issue', 'issuewild'), target: () => domainTrailingPeriod() }, 'target'),
    broken('P3.record.target.valid-domain', on('NS', 'MX', 'CNAME', 'SRV'), { target: () => notRecordTargetHost() }),
    // not on SRV: "a subdomain is combined with the domain", and an empty one may be read as the domain itself
    emptied('P3.record.target.valid-domain', on('NS', 'CNAME'), 'target'),
    // A member the type sent requires is missing (a CNAME's name, an SRV's priority, weight, port and service, a CAA's
    // tag): the member and the type clash, and which one an error names is not shown.
    { ...broken('P3.record.cname.name.required', on('CNAME'), { name: ABSENT }), orFields: ['type'] },
    broken('P3.record.priority.only-mx-srv', on('A', 'AAAA', 'NS', 'CNAME', 'TXT', 'CAA'), { priority: () => between(0, 255) }),
    broken('P3.record.weight.only-srv', on(...NOT_SRV), { weight: () => between(0, 65535) }),
    broken('P3.record.port.only-srv', on(...NOT_SRV), { port: () => between(0, 65535) }),
    broken('P3.record.protocol.only-srv', on(...NOT_SRV), { protocol: oneOf('tcp', 'udp', '_tcp') }),
    broken('P3.record.service.only-srv', on(...NOT_SRV), { service: oneOf('sip', '_xmpp', 'http') }),
    broken('P3.record.tag.only-caa', on(...NOT_CAA), { tag: oneOf('issue', 'issuewild', 'iodef') }),
    ...(['priority', 'weight', 'port', 'service'] as const).map((member) => ({
      ...missing(`P3.record.srv.${member}.required`, on('SRV'), member),
      orFields: ['type'],
    })),
    broken('P3.record.priority.min-0', on('MX', 'SRV'), { priority: () => between(-1000, -1) }),
    // Over 255 but within 16 bits (the wire's): a server with a wider bound still takes them, and must not.
    broken('P3.record.priority.max-255', on('MX', 'SRV'), { priority: () => fc.oneof(fc.constant(256), between(257, 65_535)) }),
    broken('P3.record.weight.min-0', on('SRV'), { weight: () => between(-1000, -1) }),
    broken('P3.record.weight.max-65535', on('SRV'), { weight: () => between(65536, 1_000_000) }),
    broken('P3.record.port.min-0', on('SRV'), { port: () => between(-1000, -1) }),
    broken('P3.record.port.max-65535', on('SRV'), { port: () => between(65536, 1_000_000) }),
    broken('P3.record.tag.enum', on('CAA'), { tag: oneOf('issuer', 'contactemail', 'issuemail') }),
    // The target stays an issuer domain: without a tag, a URL target would break the issue/issuewild rule too.
    { ...broken('P3.record.caa.tag.required', on('CAA'), { tag: ABSENT, target: () => caaTarget('issue') }, 'tag'), orFields: ['type'] },
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

export const recordCreateViolations: Violation[] = [
  missing('P3.record-create.type.required', recordCreate, 'type'),
  ...recordViolations('P3.record-create.types'),
  sentTwice('P3.record.cname.name.unique', recordsOf('CNAME'), 'name'),
];
