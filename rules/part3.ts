import { declareRules } from './declare.js';
import type { DeclaredRule } from './types.js';

// Ledger of document 3 (spec/part3-domains-monitoring-networking.md): domains and records, monitoring,
// firewalls, IP addresses, IPv6 ranges and pools, VLANs. Per-endpoint rules (auth, scopes, /v4beta, paging)
// come from the catalogue (rules/endpoint-rules.ts) and are not repeated here.

const { must, should } = declareRules(3);

// ---- endpoints, exactly as in inventory/endpoints.tsv
const DOMAINS_LIST = 'GET /v4/domains';
const DOMAIN_CREATE = 'POST /v4/domains';
const DOMAIN_IMPORT = 'POST /v4/domains/import';
const DOMAIN_VIEW = 'GET /v4/domains/{domainId}';
const DOMAIN_UPDATE = 'PUT /v4/domains/{domainId}';
const DOMAIN_DELETE = 'DELETE /v4/domains/{domainId}';
const DOMAIN_CLONE = 'POST /v4/domains/{domainId}/clone';
const RECORDS_LIST = 'GET /v4/domains/{domainId}/records';
const RECORD_CREATE = 'POST /v4/domains/{domainId}/records';
const RECORD_VIEW = 'GET /v4/domains/{domainId}/records/{recordId}';
const RECORD_UPDATE = 'PUT /v4/domains/{domainId}/records/{recordId}';
const RECORD_DELETE = 'DELETE /v4/domains/{domainId}/records/{recordId}';
const ZONE_FILE = 'GET /v4/domains/{domainId}/zone-file';
const CLIENTS_LIST = 'GET /v4/monitor/clients';
const CLIENT_CREATE = 'POST /v4/monitor/clients';
const CLIENT_VIEW = 'GET /v4/monitor/clients/{clientId}';
const CLIENT_UPDATE = 'PUT /v4/monitor/clients/{clientId}';
const CLIENT_DELETE = 'DELETE /v4/monitor/clients/{clientId}';
const PLAN_VIEW = 'GET /v4/monitor/plan';
const PLAN_UPDATE = 'PUT /v4/monitor/plan';
const SUBSCRIPTIONS_LIST = 'GET /v4/monitor/subscriptions';
const SUBSCRIPTION_VIEW = 'GET /v4/monitor/subscriptions/{subscriptionId}';
const FIREWALLS_LIST = 'GET /v4/networking/firewalls';
const FIREWALL_CREATE = 'POST /v4/networking/firewalls';
const FIREWALL_VIEW = 'GET /v4/networking/firewalls/{firewallId}';
const FIREWALL_UPDATE = 'PUT /v4/networking/firewalls/{firewallId}';
const FIREWALL_DELETE = 'DELETE /v4/networking/firewalls/{firewallId}';
const DEVICES_LIST = 'GET /v4/networking/firewalls/{firewallId}/devices';
const DEVICE_CREATE = 'POST /v4/networking/firewalls/{firewallId}/devices';
const DEVICE_VIEW = 'GET /v4/networking/firewalls/{firewallId}/devices/{deviceId}';
const DEVICE_DELETE = 'DELETE /v4/networking/firewalls/{firewallId}/devices/{deviceId}';
const RULES_VIEW = 'GET /v4/networking/firewalls/{firewallId}/rules';
const RULES_UPDATE = 'PUT /v4/networking/firewalls/{firewallId}/rules';
const IPS_LIST = 'GET /v4/networking/ips';
const IP_ALLOCATE = 'POST /v4/networking/ips';
const IPS_ASSIGN = 'POST /v4/networking/ips/assign';
const IPS_SHARE = 'POST /v4beta/networking/ips/share';
const IP_VIEW = 'GET /v4/networking/ips/{address}';
const IP_UPDATE = 'PUT /v4/networking/ips/{address}';
const IPV4_ASSIGN = 'POST /v4/networking/ipv4/assign';
const IPV4_SHARE = 'POST /v4/networking/ipv4/share';
const POOLS_LIST = 'GET /v4/networking/ipv6/pools';
const RANGES_LIST = 'GET /v4/networking/ipv6/ranges';
const RANGE_CREATE = 'POST /v4/networking/ipv6/ranges';
const RANGE_VIEW = 'GET /v4/networking/ipv6/ranges/{range}';
const RANGE_DELETE = 'DELETE /v4/networking/ipv6/ranges/{range}';
const VLANS_LIST = 'GET /v4beta/networking/vlans';

// Responses of POST/PUT are 'not shown': response-shape rules name the list and view only.
const DOMAIN_RETURNED = [DOMAINS_LIST, DOMAIN_VIEW];
const DOMAIN_WRITE = [DOMAIN_CREATE, DOMAIN_UPDATE];
const DOMAIN_ALL = [...DOMAIN_RETURNED, DOMAIN_CREATE, DOMAIN_UPDATE];
const DOMAIN_NAME = [...DOMAIN_ALL, DOMAIN_IMPORT, DOMAIN_CLONE];
const RECORD_WRITE = [RECORD_CREATE, RECORD_UPDATE];
const CLIENT_RETURNED = [CLIENTS_LIST, CLIENT_VIEW];
const CLIENT_LABEL = [CLIENT_CREATE, CLIENT_UPDATE, CLIENTS_LIST, CLIENT_VIEW];
const FIREWALL_RETURNED = [FIREWALLS_LIST, FIREWALL_VIEW];
const FIREWALL_LABEL = [...FIREWALL_RETURNED, FIREWALL_CREATE, FIREWALL_UPDATE];
const FIREWALL_RULES_ALL = [FIREWALLS_LIST, FIREWALL_VIEW, RULES_VIEW, FIREWALL_CREATE, RULES_UPDATE];
const RULE_WRITE = [FIREWALL_CREATE, RULES_UPDATE];

// ---- sections, exactly as the document's headings
const S_DOES = 'What the service does';
const S_DOMAIN = 'Domain';
const S_RECORD = 'Domain record (request fields)';
const S_CLIENT = 'Monitoring client';
const S_SUBSCRIPTION = 'Monitoring subscription (plan)';
const S_FIREWALL = 'Firewall';
const S_DEVICE = 'Firewall device';
const S_IP = 'IP address, IPv6 pool, IPv6 range, VLAN';
const S_FW_STATUS = 'Firewall status';
const S_DOMAIN_STATUS = 'Domain status';
const S_DOMAINS = 'Domains';
const S_MONITORING = 'Monitoring';
const S_FIREWALLS = 'Firewalls';
const S_IPS = 'IP addresses';
const S_LIMITS = 'Limits';

const NOT_OBSERVABLE_DNS = 'untestable: what the nameservers serve is not observable through the API';
const NOT_OBSERVABLE_TRAFFIC = 'untestable: packet filtering on an instance is not observable through the API';

const TIME_DEFAULTS: Array<[string, string, number]> = [
  ['expire_sec', 'expire-sec', 1209600],
  ['refresh_sec', 'refresh-sec', 14400],
  ['retry_sec', 'retry-sec', 14400],
  ['ttl_sec', 'ttl-sec', 86400],
];
const TIME_VALUES = '0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200';

// One row per rule: the formatter leaves the table alone.
// prettier-ignore
const domainRules: DeclaredRule[] = [
  should('P3.domain.fields', S_DOMAIN, 'inferred: a returned domain carries the fields of the Domain table (axfr_ips, domain, expire_sec, id, master_ips, refresh_sec, retry_sec, soa_email, status, tags, ttl_sec, type; description and group only when set, as they cannot be empty).', DOMAIN_RETURNED, 'schema'),
  must('P3.domain.types', S_DOMAIN, 'Domain fields, when present, have the documented types (axfr_ips, master_ips and tags arrays of strings; id and the time values integers; the others strings).', DOMAIN_RETURNED, 'schema'),
  must('P3.domain-create.types', S_DOMAINS, 'Domain create body fields are those of the Domain resource except id, with the documented types.', [DOMAIN_CREATE], 'schema'),
  must('P3.domain-update.types', S_DOMAINS, 'Domain update body fields are those of the Domain resource except id, with the documented types.', [DOMAIN_UPDATE], 'schema'),
  must('P3.domain-update.none-required', S_DOMAINS, 'PUT domain takes domain fields, none required: a body with any single member is accepted.', [DOMAIN_UPDATE], 'property'),
  must('P3.domain.update.reflected', S_DOMAINS, 'PUT domain takes the fields of the Domain resource: after an accepted update the domain shows the name (case and a final period aside), type, status, SOA email, description, group, master and AXFR addresses (in any order) and tags (in any order) sent.', [DOMAIN_UPDATE, DOMAIN_VIEW], 'property'),
  must('P3.domain-create.domain.required', S_DOMAINS, 'POST /v4/domains requires `domain`.', [DOMAIN_CREATE], 'schema'),
  must('P3.domain-create.type.required', S_DOMAINS, 'POST /v4/domains requires `type`.', [DOMAIN_CREATE], 'schema'),
  must('P3.domain.axfr-ips.ip', S_DOMAIN, 'axfr_ips holds the IPs allowed to transfer the zone: each member is an IP address.', [...DOMAIN_ALL], 'schema'),
  untestable('P3.domain.axfr-ips.transfer-allowed', S_DOMAIN, 'The IPs of axfr_ips are allowed to transfer the zone.', DOMAIN_WRITE, 'zone transfers from the service nameservers are outside the API'),
  must('P3.domain.description.min-1', S_DOMAIN, 'description is 1..255 chars: at least 1.', DOMAIN_ALL, 'schema'),
  must('P3.domain.description.max-255', S_DOMAIN, 'description is 1..255 chars: at most 255.', DOMAIN_ALL, 'schema'),
  untestable('P3.domain.description.display-only', S_DOMAIN, 'description is display only.', DOMAIN_WRITE, 'that a field has no effect on DNS service is not observable'),
  must('P3.domain.domain.min-1', S_DOMAIN, 'domain is 1..255 chars: at least 1.', DOMAIN_NAME, 'schema'),
  must('P3.domain.domain.max-255', S_DOMAIN, 'domain is 1..255 chars: at most 255.', DOMAIN_NAME, 'schema'),
  must('P3.domain.domain.label-max-63', S_DOMAIN, 'domain labels are up to 63 chars.', DOMAIN_NAME, 'code'),
  must('P3.domain.domain.rfc-1035', S_DOMAIN, 'domain follows RFC 1035: dot-separated labels of letters, digits and hyphens, not beginning or ending with a hyphen (digits may begin a label, RFC 1123).', DOMAIN_NAME, 'code'),
  must('P3.domain.domain.unique-platform', S_DOMAIN, 'domain is unique across the whole platform: creating, importing or cloning to a domain that already exists is rejected.', [DOMAIN_CREATE, DOMAIN_IMPORT, DOMAIN_CLONE], 'scenario'),
  untestable('P3.domain.domain.filterable', S_DOMAIN, 'domain can be used to filter the domains list.', [DOMAINS_LIST], 'the filter request syntax is not shown'),
  untestable('P3.domain.expire-sec.meaning', S_DOMAIN, 'expire_sec is the seconds until the zone is no longer authoritative.', DOMAIN_WRITE, 'secondary nameserver behaviour is outside the API'),
  must('P3.domain.group.min-1', S_DOMAIN, 'group is 1..50 chars: at least 1.', DOMAIN_ALL, 'schema'),
  must('P3.domain.group.max-50', S_DOMAIN, 'group is 1..50 chars: at most 50.', DOMAIN_ALL, 'schema'),
  untestable('P3.domain.group.filterable', S_DOMAIN, 'group can be used to filter the domains list.', [DOMAINS_LIST], 'the filter request syntax is not shown'),
  must('P3.domain.master-ips.ip', S_DOMAIN, 'master_ips holds master DNS IPs: each member is an IP address.', DOMAIN_ALL, 'schema'),
  must('P3.domain.master-ips.required-for-slave', S_DOMAIN, 'master_ips needs at least one value for `slave` domains.', [DOMAIN_CREATE, ...DOMAIN_RETURNED], 'schema'),
  must('P3.domain.soa-email.email', S_DOMAIN, 'soa_email is an email address.', DOMAIN_ALL, 'schema'),
  must('P3.domain.soa-email.required-for-master', S_DOMAIN, 'soa_email is required for `master` domains.', [DOMAIN_CREATE, ...DOMAIN_RETURNED], 'schema'),
  must('P3.domain.status.enum', S_DOMAIN, 'status is one of `disabled`, `active`.', DOMAIN_ALL, 'schema'),
  must('P3.domain.status.default-active', S_DOMAIN_STATUS, 'A newly created domain is `active` unless `status` says otherwise (default `active`).', [DOMAIN_CREATE, DOMAIN_VIEW], 'scenario'),
  must('P3.domain.status.active-to-disabled', S_DOMAIN_STATUS, 'PUT domain with status `disabled` moves an `active` domain to `disabled`.', [DOMAIN_UPDATE, DOMAIN_VIEW], 'scenario'),
  must('P3.domain.status.disabled-to-active', S_DOMAIN_STATUS, 'PUT domain with status `active` moves a `disabled` domain to `active`.', [DOMAIN_UPDATE, DOMAIN_VIEW], 'scenario'),
  untestable('P3.domain.status.rendering', S_DOMAIN_STATUS, 'A `disabled` domain is not rendered; an `active` domain is rendered.', [DOMAIN_UPDATE], NOT_OBSERVABLE_DNS.replace('untestable: ', '')),
  untestable('P3.domain.tags.filterable', S_DOMAIN, 'tags can be used to filter the domains list.', [DOMAINS_LIST], 'the filter request syntax is not shown'),
  must('P3.domain.type.enum', S_DOMAIN, 'type is one of `master`, `slave`.', DOMAIN_ALL, 'schema'),
  untestable('P3.domain.slave.read-only', S_DOMAIN, 'A `slave` domain is a read-only copy of the zone held by its masters.', [DOMAIN_CREATE], 'zone transfer from the master nameservers is outside the API'),
  untestable('P3.domain.not-registrar', S_DOES, 'The service is not a registrar: the caller must own the domain and point the registrar at the service nameservers.', [DOMAIN_CREATE], 'registration happens outside the service'),
  ...TIME_DEFAULTS.flatMap(([field, slug, fallback]): DeclaredRule[] => [
    must(`P3.domain.${slug}.valid-values`, S_DOMAIN, `${field} as returned is one of the valid values ${TIME_VALUES}.`, DOMAIN_RETURNED, 'schema'),
    must(`P3.domain.${slug}.round-up`, S_DOMAIN, `A ${field} that is not a valid value is rounded up to the nearest valid value (e.g. 301 becomes 3600).`, [DOMAIN_CREATE, DOMAIN_UPDATE, DOMAIN_VIEW], 'scenario'),
    must(`P3.domain.${slug}.zero-means-default-${fallback}`, S_DOMAIN, `${field} 0 means the default, ${fallback}.`, [DOMAIN_CREATE, DOMAIN_UPDATE, DOMAIN_VIEW], 'scenario'),
  ]),
  must('P3.domain-import.types', S_DOMAINS, 'The import body has `domain` (string) and `remote_nameserver` (string).', [DOMAIN_IMPORT], 'schema'),
  must('P3.domain-import.domain.required', S_DOMAINS, 'POST /v4/domains/import requires `domain`.', [DOMAIN_IMPORT], 'schema'),
  must('P3.domain-import.remote-nameserver.required', S_DOMAINS, 'POST /v4/domains/import requires `remote_nameserver`.', [DOMAIN_IMPORT], 'schema'),
  untestable('P3.domain.import.axfr-allowed', S_DOMAINS, 'The remote nameserver must allow zone transfers (AXFR) for the import to succeed.', [DOMAIN_IMPORT], 'needs a remote nameserver under the tester\'s control'),
  untestable('P3.domain.import.axfr-sources', S_DOMAINS, 'The import transfers the zone from 96.126.114.97, 96.126.114.98, 2600:3c00::5e or 2600:3c00::5f.', [DOMAIN_IMPORT], 'needs a remote nameserver that logs transfer sources'),
  should('P3.path.integer-ids', 'Endpoints', 'inferred: {domainId} (but in the clone and zone-file paths), {recordId}, {clientId}, {firewallId} and {deviceId} are integers, so a path with a non-integer value there names no resource and is rejected.', [DOMAIN_VIEW, RECORD_VIEW, CLIENT_VIEW, FIREWALL_VIEW, DEVICE_VIEW], 'scenario'),
  must('P3.domain.delete.gone', S_DOMAINS, 'DELETE domain deletes the domain (and all its records): after a successful DELETE the domain is no longer viewable or listed.', [DOMAIN_DELETE, DOMAIN_VIEW, DOMAINS_LIST], 'scenario'),
  must('P3.domain.delete.removes-records', S_DOMAINS, 'DELETE domain deletes all its records.', [DOMAIN_DELETE, RECORDS_LIST], 'scenario'),
  untestable('P3.domain.delete.nameservers', S_DOMAINS, 'DELETE domain removes the domain from the nameservers shortly after.', [DOMAIN_DELETE], NOT_OBSERVABLE_DNS.replace('untestable: ', '')),
  must('P3.domain-clone.types', S_DOMAINS, 'The clone body has `domain` (string).', [DOMAIN_CLONE], 'schema'),
  must('P3.domain-clone.domain.required', S_DOMAINS, 'POST clone requires `domain`.', [DOMAIN_CLONE], 'schema'),
  must('P3.domain.clone.copies-records', S_DOMAINS, 'Clone creates the new domain with all the records of the source domain.', [DOMAIN_CLONE, RECORDS_LIST], 'scenario'),
  must('P3.domain.clone.copies-domain', S_DOMAINS, 'Clone "clones the domain": the new domain shows the type, soa_email, master_ips, axfr_ips and time values (expire_sec, refresh_sec, retry_sec, ttl_sec) the source shows. Its id and name (the `domain` sent) are its own; its status (a newly created domain is `active` unless `status` says otherwise), tags, description and group are not judged.', [DOMAIN_CLONE, ...DOMAIN_RETURNED], 'scenario'),
  untestable('P3.domain.zone-file.last-rendered', S_DOMAINS, 'The zone-file endpoint returns the zone file of the last rendered zone.', [ZONE_FILE], 'the zone file format and the rendering time are not shown'),
];

function untestable(id: string, section: string, text: string, endpoints: string[], reason: string): DeclaredRule {
  return must(id, section, text, endpoints, `untestable: ${reason}`);
}

// prettier-ignore
const recordRules: DeclaredRule[] = [
  must('P3.record-create.types', S_RECORD, 'Record create body members have the documented types (type, name, target, protocol, service, tag strings; ttl_sec, priority, weight, port integers; protocol, service, tag may be null).', [RECORD_CREATE], 'schema'),
  must('P3.record-update.types', S_RECORD, 'Record update body members have the documented types.', [RECORD_UPDATE], 'schema'),
  must('P3.record-update.none-required', S_DOMAINS, 'PUT record takes record fields, none required: a body with any single member is accepted.', [RECORD_UPDATE], 'property'),
  must('P3.record.update.reflected', S_DOMAINS, 'PUT record takes record fields: after an accepted update the record shows the type, name (relative or fully qualified, case and a final period aside), target (case and a final period aside), priority, weight, port and tag sent.', [RECORD_UPDATE, RECORD_VIEW], 'property'),
  must('P3.record-create.type.required', S_RECORD, 'type is required on create.', [RECORD_CREATE], 'schema'),
  must('P3.record.type.enum', S_RECORD, 'type is one of `A`, `AAAA`, `NS`, `MX`, `CNAME`, `TXT`, `SRV`, `PTR`, `CAA`.', RECORD_WRITE, 'schema'),
  must('P3.record.name.min-1', S_RECORD, 'name is 1..100 chars: at least 1 (the empty string is documented only for a null MX and a whole-domain CAA).', RECORD_WRITE, 'schema'),
  must('P3.record.name.max-100', S_RECORD, 'name is 1..100 chars: at most 100.', RECORD_WRITE, 'schema'),
  must('P3.record.cname.name.required', S_RECORD, 'A CNAME record requires name.', RECORD_WRITE, 'schema'),
  must('P3.record.cname.name.unique', S_RECORD, 'A CNAME name must be unique: creating a second CNAME with the name of another, or renaming one to it, is rejected.', [RECORD_CREATE, RECORD_UPDATE], 'scenario'),
  must('P3.record.caa.name.empty-whole-domain', S_RECORD, 'A CAA record for the whole domain omits name or gives the empty string, and is accepted.', [RECORD_CREATE], 'property'),
  must('P3.record.target.required', S_RECORD, 'target is required for A, AAAA, NS, MX, CNAME, TXT and SRV records.', RECORD_WRITE, 'schema'),
  should('P3.record.a.target.ipv4', S_RECORD, 'inferred: an A record target is an IPv4 address (the document says "IP address"), or the literal `[remote_addr]`.', RECORD_WRITE, 'schema'),
  should('P3.record.aaaa.target.ipv6', S_RECORD, 'inferred: an AAAA record target is an IPv6 address (the document says "IP address").', RECORD_WRITE, 'schema'),
  must('P3.record.a.remote-addr', S_RECORD, 'The literal `[remote_addr]` as target submits the IPv4 address of the request.', [RECORD_CREATE, RECORD_UPDATE], 'scenario'),
  must('P3.record.target.valid-domain', S_RECORD, 'NS, MX (except a null MX), CNAME and SRV targets are valid domains.', RECORD_WRITE, 'code'),
  must('P3.record.target.no-trailing-period', S_RECORD, 'A trailing period is not accepted in the target of A, AAAA and CAA records.', RECORD_WRITE, 'schema'),
  must('P3.record.target.trailing-period-accepted', S_RECORD, 'A trailing period is accepted in the target of other record types (e.g. NS, MX, CNAME, SRV).', RECORD_WRITE, 'property'),
  must('P3.record.ttl-sec.round-nearest', S_RECORD, 'A record ttl_sec that is not one of 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200 is rounded to the nearest valid value.', [RECORD_CREATE, RECORD_UPDATE, RECORD_VIEW], 'scenario'),
  must('P3.record.priority.min-0', S_RECORD, 'priority is 0..255: at least 0.', RECORD_WRITE, 'schema'),
  must('P3.record.priority.max-255', S_RECORD, 'priority is 0..255: at most 255.', RECORD_WRITE, 'schema'),
  should('P3.record.priority.only-mx-srv', S_RECORD, 'inferred: priority is only for MX and SRV, so a record of another type carrying it is rejected.', RECORD_WRITE, 'schema'),
  must('P3.record.priority.default-0-mx', S_RECORD, 'An MX record created without priority has priority 0.', [RECORD_CREATE, RECORD_VIEW], 'scenario'),
  untestable('P3.record.priority.lower-preferred', S_RECORD, 'A lower priority is preferred.', RECORD_WRITE, 'mail and service resolution is outside the API'),
  must('P3.record.weight.min-0', S_RECORD, 'weight is 0..65535: at least 0.', RECORD_WRITE, 'schema'),
  must('P3.record.weight.max-65535', S_RECORD, 'weight is 0..65535: at most 65535.', RECORD_WRITE, 'schema'),
  should('P3.record.weight.only-srv', S_RECORD, 'inferred: weight is only for SRV, so a record of another type carrying it is rejected.', RECORD_WRITE, 'schema'),
  untestable('P3.record.weight.higher-preferred', S_RECORD, 'A higher weight is preferred at equal priority.', RECORD_WRITE, 'service resolution is outside the API'),
  must('P3.record.port.min-0', S_RECORD, 'port is 0..65535: at least 0.', RECORD_WRITE, 'schema'),
  must('P3.record.port.max-65535', S_RECORD, 'port is 0..65535: at most 65535.', RECORD_WRITE, 'schema'),
  should('P3.record.port.only-srv', S_RECORD, 'inferred: port is only for SRV, so a record of another type carrying it is rejected.', RECORD_WRITE, 'schema'),
  should('P3.record.protocol.only-srv', S_RECORD, 'inferred: protocol is only for SRV, so a record of another type carrying a non-null protocol is rejected.', RECORD_WRITE, 'schema'),
  should('P3.record.service.only-srv', S_RECORD, 'inferred: service is only for SRV, so a record of another type carrying a non-null service is rejected.', RECORD_WRITE, 'schema'),
  should('P3.record.tag.only-caa', S_RECORD, 'inferred: tag is only for CAA, so a record of another type carrying a non-null tag is rejected.', RECORD_WRITE, 'schema'),
  must('P3.record.srv.priority.required', S_RECORD, 'priority is required for SRV records.', RECORD_WRITE, 'schema'),
  must('P3.record.srv.weight.required', S_RECORD, 'weight is required for SRV records.', RECORD_WRITE, 'schema'),
  must('P3.record.srv.port.required', S_RECORD, 'port is required for SRV records.', RECORD_WRITE, 'schema'),
  must('P3.record.srv.service.required', S_RECORD, 'service is required for SRV records.', RECORD_WRITE, 'schema'),
  must('P3.record.srv.protocol.underscore', S_RECORD, 'An underscore is prepended to an SRV protocol automatically.', [RECORD_CREATE, RECORD_UPDATE, RECORD_VIEW], 'scenario'),
  must('P3.record.srv.service.underscore-period', S_RECORD, 'An underscore is prepended and a period appended to an SRV service automatically.', [RECORD_CREATE, RECORD_UPDATE, RECORD_VIEW], 'scenario'),
  must('P3.record.srv.target.subdomain-combined', S_RECORD, 'An SRV target that is a subdomain is combined with the domain; a value with a dot-separated suffix that is an FQDN is used as is.', [RECORD_CREATE, RECORD_UPDATE, RECORD_VIEW], 'scenario'),
  must('P3.record.tag.enum', S_RECORD, 'tag is one of `issue`, `issuewild`, `iodef` (or null).', RECORD_WRITE, 'schema'),
  must('P3.record.caa.tag.required', S_RECORD, 'tag is required for CAA records.', RECORD_WRITE, 'schema'),
  must('P3.record.caa.issue.target-domain', S_RECORD, 'For `issue` and `issuewild` the CAA target is the certificate issuer\'s domain.', RECORD_WRITE, 'code'),
  must('P3.record.caa.iodef.target-url', S_RECORD, 'For `iodef` the CAA target is a contact or submission URL (http or mailto).', RECORD_WRITE, 'schema'),
  must('P3.record.mx.null-name-empty', S_RECORD, 'A null MX record has an empty `name` as well as an empty `target`.', RECORD_WRITE, 'schema'),
  must('P3.record.mx.null-priority-zero', S_RECORD, 'priority must be 0 for a null MX.', RECORD_WRITE, 'schema'),
  must('P3.record.mx.null-accepted', S_RECORD, 'With no other MX record, an MX record with empty `target` and `name` (a null MX) is accepted.', [RECORD_CREATE], 'scenario'),
  should('P3.record.mx.null-requires-no-other-mx', S_RECORD, 'inferred: a null MX can only be created after all other MX records are removed, so creating one beside another MX is rejected.', [RECORD_CREATE], 'scenario'),
  must('P3.record.mx.null-blocks-mx', S_RECORD, 'While a null MX exists, new MX records cannot be created.', [RECORD_CREATE], 'scenario'),
  untestable('P3.record.ptr.reverse-dns', S_RECORD, 'PTR records are set through the reverse DNS procedure.', [RECORD_CREATE], 'what the records endpoint does with a PTR record is not shown'),
  untestable('P3.record.fields-not-shown', S_RECORD, 'Fields of a record as returned are not shown.', [RECORDS_LIST, RECORD_CREATE, RECORD_VIEW, RECORD_UPDATE], 'nothing is asserted about returned records'),
  must('P3.record.delete.gone', S_DOMAINS, 'DELETE record deletes the record: once the deletion has run (whether it has when the DELETE answers is not shown) it is no longer viewable or listed, and the domain\'s other records stay.', [RECORD_DELETE, RECORD_VIEW, RECORDS_LIST], 'scenario'),
];

// prettier-ignore
const monitoringRules: DeclaredRule[] = [
  should('P3.monitor-client.fields', S_CLIENT, 'inferred: a returned monitoring client carries `label`.', CLIENT_RETURNED, 'schema'),
  must('P3.monitor-client.types', S_CLIENT, 'label of a monitoring client, when present, is a string.', [...CLIENT_RETURNED, CLIENT_CREATE], 'schema'),
  must('P3.monitor-client-create.types', S_MONITORING, 'The client create body has `label` (string).', [CLIENT_CREATE], 'schema'),
  must('P3.monitor-client.update.reflected', S_MONITORING, 'PUT client takes `label`, the client\'s display label (renaming to a label in use is refused; the update cannot change how the server is monitored): after an accepted update the client shows the label sent.', [CLIENT_UPDATE, CLIENT_VIEW], 'property'),
  must('P3.monitor-client-update.types', S_MONITORING, 'The client update body has `label` (string).', [CLIENT_UPDATE], 'schema'),
  must('P3.monitor-client.label.min-3', S_CLIENT, 'label is 3..32 chars: at least 3.', CLIENT_LABEL, 'schema'),
  must('P3.monitor-client.label.max-32', S_CLIENT, 'label is 3..32 chars: at most 32.', CLIENT_LABEL, 'schema'),
  must('P3.monitor-client.label.unique', S_CLIENT, 'label is a unique display label: creating or renaming a client to a label in use is rejected.', [CLIENT_CREATE, CLIENT_UPDATE], 'scenario'),
  untestable('P3.monitor-client.label.filterable', S_CLIENT, 'label can be used to filter the clients list.', [CLIENTS_LIST], 'the filter request syntax is not shown'),
  must('P3.monitor-client.create.returns-install-code', S_CLIENT, 'Creation returns an `install_code`.', [CLIENT_CREATE], 'schema'),
  must('P3.monitor-client.create.returns-api-key', S_CLIENT, 'Creation returns an `api_key`.', [CLIENT_CREATE], 'schema'),
  should('P3.monitor-client.credentials.string', S_CLIENT, 'inferred: `install_code` and `api_key` are strings (their type is not stated).', [CLIENT_CREATE], 'schema'),
  untestable('P3.monitor-client.create.monitors-nothing', S_MONITORING, 'The client monitors nothing until the agent is configured on the instance.', [CLIENT_CREATE], 'needs an agent installed on an instance'),
  untestable('P3.monitor-client.update.monitoring-unchanged', S_MONITORING, 'PUT client cannot change how the server is monitored.', [CLIENT_UPDATE], 'needs an agent installed on an instance'),
  must('P3.monitor-client.delete.gone', S_MONITORING, 'DELETE client deletes it ("all stored data of the client is lost"): once the deletion has run (whether it has when the DELETE answers is not shown) the client is no longer viewable or listed.', [CLIENT_DELETE, CLIENT_VIEW, CLIENTS_LIST], 'scenario'),
  untestable('P3.monitor-client.delete.agent-not-uninstalled', S_MONITORING, 'DELETE client does not uninstall the agent.', [CLIENT_DELETE], 'the agent on the instance is outside the API'),
  should('P3.monitor-subscription.fields', S_SUBSCRIPTION, 'inferred: a subscription carries its `id`.', [SUBSCRIPTIONS_LIST, SUBSCRIPTION_VIEW, PLAN_VIEW, PLAN_UPDATE], 'schema'),
  must('P3.monitor-subscription.types', S_SUBSCRIPTION, 'A subscription is an object whose id is a string.', [SUBSCRIPTIONS_LIST, SUBSCRIPTION_VIEW, PLAN_VIEW, PLAN_UPDATE], 'schema'),
  must('P3.monitor-subscription.id.enum', S_SUBSCRIPTION, 'Subscription IDs are `monitor-3`, `monitor-10`, `monitor-40`, `monitor-100`.', [SUBSCRIPTIONS_LIST, SUBSCRIPTION_VIEW, PLAN_VIEW, PLAN_UPDATE], 'schema'),
  should('P3.monitor-subscription.list.all-plans', S_SUBSCRIPTION, 'inferred: the subscriptions list holds the four plans monitor-3, monitor-10, monitor-40, monitor-100, and each can be viewed by its ID.', [SUBSCRIPTIONS_LIST, SUBSCRIPTION_VIEW], 'scenario'),
  must('P3.monitor-plan.subscription-or-empty', S_MONITORING, 'The plan view and update return the subscription object, or `{}` on the free plan.', [PLAN_VIEW, PLAN_UPDATE], 'schema'),
  must('P3.monitor-plan.free-is-empty', S_SUBSCRIPTION, 'The free plan is the absence of a subscription: the plan view returns `{}` for it.', [PLAN_VIEW], 'scenario'),
  must('P3.monitor-plan-update.types', S_MONITORING, 'The plan update body has `monitor_subscription` (string or null).', [PLAN_UPDATE], 'schema'),
  must('P3.monitor-plan.subscription.enum', S_MONITORING, 'monitor_subscription is one of `monitor-3`, `monitor-10`, `monitor-40`, `monitor-100`, or null.', [PLAN_UPDATE], 'schema'),
  must('P3.monitor-plan.update.null-means-free', S_SUBSCRIPTION, 'The plan update takes null for the free plan; afterwards the plan view returns `{}`.', [PLAN_UPDATE, PLAN_VIEW], 'scenario', ['destructive']),
  must('P3.monitor-plan.update.returns-subscription', S_MONITORING, 'The plan update returns the updated subscription object (with the requested ID), or `{}` for free.', [PLAN_UPDATE], 'scenario', ['destructive']),
  must('P3.monitor-plan.view.grants', S_MONITORING, 'The plan view needs one of the global grants account_access read_write, account_access read_only, monitor_subscription true, add_monitor true; a user with none of them is refused.', [PLAN_VIEW], 'scenario', ['restricted-user', 'grants']),
  must('P3.monitor-plan.update.grants', S_MONITORING, 'The plan update needs the global grant monitor_subscription true; a user without it is refused.', [PLAN_UPDATE], 'scenario', ['restricted-user', 'grants']),
];

// prettier-ignore
const firewallRules: DeclaredRule[] = [
  should('P3.firewall.fields', S_FIREWALL, 'inferred: a returned firewall carries label, tags, status and rules.', FIREWALL_RETURNED, 'schema'),
  must('P3.firewall.types', S_FIREWALL, 'Firewall fields, when present, have the documented types (label and status strings, tags array of strings, rules object).', FIREWALL_RETURNED, 'schema'),
  must('P3.firewall.view.no-devices', S_FIREWALL, 'The firewall view does not return devices.', [FIREWALL_VIEW], 'schema'),
  must('P3.firewall.label.min-3', S_FIREWALL, 'Firewall label is 3..32 chars: at least 3.', FIREWALL_LABEL, 'schema'),
  must('P3.firewall.label.max-32', S_FIREWALL, 'Firewall label is 3..32 chars: at most 32.', FIREWALL_LABEL, 'schema'),
  must('P3.firewall.label.alnum-ends', S_FIREWALL, 'Firewall label begins and ends with an alphanumeric character.', FIREWALL_LABEL, 'schema'),
  must('P3.firewall.label.charset', S_FIREWALL, 'Firewall label holds only alphanumerics, dashes, underscores and periods.', FIREWALL_LABEL, 'schema'),
  must('P3.firewall.label.no-double-punctuation', S_FIREWALL, 'A firewall label has no two dashes, underscores or periods in a row. The sentence is ambiguous for mixed pairs (`-_`, `._`), so only `--`, `__` and `..` are judged; a mixed pair is asserted neither way.', FIREWALL_LABEL, 'schema'),
  must('P3.firewall.label.unique', S_FIREWALL, 'Firewall label is unique: creating or renaming a firewall to a label in use is rejected.', [FIREWALL_CREATE, FIREWALL_UPDATE], 'scenario'),
  untestable('P3.firewall.label.filterable', S_FIREWALL, 'label can be used to filter the firewalls list.', [FIREWALLS_LIST], 'the filter request syntax is not shown'),
  untestable('P3.firewall.tags.filterable', S_FIREWALL, 'tags can be used to filter the firewalls list.', [FIREWALLS_LIST], 'the filter request syntax is not shown'),
  must('P3.firewall.status.enum', S_FIREWALL, 'Firewall status is one of `enabled`, `disabled`, `deleted`.', FIREWALL_RETURNED, 'schema'),
  must('P3.firewall.status.update-not-deleted', S_FW_STATUS, 'Status can be set to `enabled` or `disabled` by update, not to `deleted`.', [FIREWALL_UPDATE], 'schema'),
  must('P3.firewall.status.enabled-to-disabled', S_FW_STATUS, 'PUT firewall with status `disabled` moves an `enabled` firewall to `disabled`.', [FIREWALL_UPDATE, FIREWALL_VIEW], 'scenario'),
  must('P3.firewall.status.disabled-to-enabled', S_FW_STATUS, 'PUT firewall with status `enabled` moves a `disabled` firewall to `enabled` when no other enabled firewall is assigned to the same instance.', [FIREWALL_UPDATE, FIREWALL_VIEW], 'scenario'),
  must('P3.firewall.status.enable-blocked-by-active', S_FW_STATUS, 'A disabled firewall cannot be enabled while another enabled firewall is assigned to the same instance.', [FIREWALL_UPDATE, DEVICE_CREATE], 'scenario'),
  must('P3.firewall.status.delete-removes', S_FW_STATUS, 'DELETE firewall moves an `enabled` or `disabled` firewall to `deleted` (removed). `deleted` is also a listed status value, so both readings are allowed: once the deletion has run (whether it has when the DELETE answers is not shown) the firewall is no longer viewable or listed, or it is shown with status `deleted`; it is never shown `enabled` or `disabled` again.', [FIREWALL_DELETE, FIREWALL_VIEW, FIREWALLS_LIST], 'scenario'),
  untestable('P3.firewall.delete.rules-removed-from-instances', S_FW_STATUS, 'DELETE firewall removes its rules from every assigned instance.', [FIREWALL_DELETE], NOT_OBSERVABLE_TRAFFIC.replace('untestable: ', '')),
  must('P3.firewall.event.create', S_FIREWALLS, 'POST firewall emits the event firewall_create.', [FIREWALL_CREATE], 'scenario'),
  must('P3.firewall.event.enable', S_FW_STATUS, 'Moving a firewall to `enabled` emits the event firewall_enable.', [FIREWALL_UPDATE], 'scenario'),
  must('P3.firewall.event.disable', S_FW_STATUS, 'Moving a firewall to `disabled` emits the event firewall_disable.', [FIREWALL_UPDATE], 'scenario'),
  must('P3.firewall.event.delete', S_FW_STATUS, 'DELETE firewall emits the event firewall_delete.', [FIREWALL_DELETE], 'scenario'),
  must('P3.firewall.event.device-add', S_FIREWALLS, 'POST device emits the event firewall_device_add.', [DEVICE_CREATE], 'scenario'),
  must('P3.firewall.event.device-remove', S_FIREWALLS, 'DELETE device emits the event firewall_device_remove.', [DEVICE_DELETE], 'scenario'),
  must('P3.firewall-create.types', S_FIREWALLS, 'The firewall create body has `label` (string), `rules` (object), `devices` (object with `computes`, array of integer instance IDs) and `tags` (array of strings).', [FIREWALL_CREATE], 'schema'),
  must('P3.firewall-create.label.required', S_FIREWALLS, 'POST firewall requires `label`.', [FIREWALL_CREATE], 'schema'),
  must('P3.firewall-create.rules.required', S_FIREWALLS, 'POST firewall requires `rules`.', [FIREWALL_CREATE], 'schema'),
  must('P3.firewall-create.rules.inbound-policy.required', S_FIREWALLS, 'POST firewall requires `rules.inbound_policy`.', [FIREWALL_CREATE], 'schema'),
  must('P3.firewall-create.rules.outbound-policy.required', S_FIREWALLS, 'POST firewall requires `rules.outbound_policy`.', [FIREWALL_CREATE], 'schema'),
  must('P3.firewall-create.devices.assigned', S_FIREWALLS, 'The instances listed in `devices.computes` become devices of the new firewall.', [FIREWALL_CREATE, DEVICES_LIST], 'scenario'),
  must('P3.firewall-create.grants', S_FIREWALLS, 'POST firewall needs read_write grants on the listed instances; without them it is refused.', [FIREWALL_CREATE], 'scenario', ['restricted-user', 'grants']),
  must('P3.firewall.update.reflected', S_FIREWALLS, 'PUT firewall takes `label` and `tags` (devices and rules "cannot be changed here"): after an accepted update the firewall shows the label sent and every tag sent.', [FIREWALL_UPDATE, FIREWALL_VIEW], 'property'),
  should('P3.firewall.update.tags-replaced', S_FIREWALLS, 'inferred: the tags sent in a firewall update replace its tags, so no tag that was not sent remains (the document does not say whether they replace or add to the stored ones).', [FIREWALL_UPDATE, FIREWALL_VIEW], 'property'),
  must('P3.firewall-update.types', S_FIREWALLS, 'The firewall update body has `label` (string), `tags` (array of strings) and `status` (string).', [FIREWALL_UPDATE], 'schema'),
  must('P3.firewall-update.devices-rules-unchanged', S_FIREWALLS, 'Devices and rules cannot be changed through PUT firewall: devices or rules given there leave them as they were.', [FIREWALL_UPDATE, RULES_VIEW, DEVICES_LIST], 'scenario'),
  must('P3.firewall-rules.types', S_FIREWALL, 'The rules object has `inbound` and `outbound` (arrays of rules) and `inbound_policy`, `outbound_policy` (strings).', FIREWALL_RULES_ALL, 'schema'),
  should('P3.firewall-rules.fields', S_FIREWALL, 'inferred: a returned rules object carries inbound, inbound_policy, outbound and outbound_policy.', [...FIREWALL_RETURNED, RULES_VIEW], 'schema'),
  must('P3.firewall.policy.enum', S_FIREWALL, 'inbound_policy and outbound_policy are one of `ACCEPT`, `DROP`.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rules.max-25', S_FIREWALL, 'A firewall has at most 25 rules across inbound and outbound.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rules.max-25-stored', S_LIMITS, 'Replacing one direction so that the stored inbound plus outbound rules exceed 25 is rejected.', [RULES_UPDATE], 'scenario'),
  must('P3.firewall-rules-update.types', S_FIREWALLS, 'The rules update body has `inbound`, `outbound` (arrays of rules), `inbound_policy`, `outbound_policy` (strings), all optional.', [RULES_UPDATE], 'schema'),
  must('P3.firewall.rules-update.replaces', S_FIREWALLS, 'PUT rules replaces the whole inbound and/or outbound ruleset given.', [RULES_UPDATE, RULES_VIEW], 'scenario'),
  should('P3.firewall.rules-update.omitted-unchanged', S_FIREWALLS, 'inferred from "and/or ... given": a direction not given in PUT rules keeps its rules.', [RULES_UPDATE, RULES_VIEW], 'scenario'),
  must('P3.firewall-rule.types', S_FIREWALL, 'A rule object has action, description, label, ports, protocol strings and an addresses object with ipv4 and ipv6 arrays of strings.', [...FIREWALL_RULES_ALL], 'schema'),
  must('P3.firewall.rule.action.required', S_FIREWALL, 'A rule requires action.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.action.enum', S_FIREWALL, 'Rule action is one of `ACCEPT`, `DROP`.', FIREWALL_RULES_ALL, 'schema'),
  untestable('P3.firewall.rule.action.overrides-policy', S_FIREWALL, 'A rule action overrides the firewall policy for that direction.', RULE_WRITE, NOT_OBSERVABLE_TRAFFIC.replace('untestable: ', '')),
  must('P3.firewall.rule.addresses.required', S_FIREWALL, 'A rule requires addresses.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.addresses.ipv4-mask', S_FIREWALL, 'addresses.ipv4 holds IPv4 addresses in IP/mask format.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.addresses.ipv6-mask', S_FIREWALL, 'addresses.ipv6 holds IPv6 addresses in IP/mask format.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.addresses.max-255', S_FIREWALL, 'A rule has up to 255 addresses or networks across ipv4 and ipv6; a network counts the same as a single IP.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rule.description.min-1', S_FIREWALL, 'Rule description is 1..100 chars: at least 1.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.description.max-100', S_FIREWALL, 'Rule description is 1..100 chars: at most 100.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.label.min-3', S_FIREWALL, 'Rule label is 3..32 chars: at least 3.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.label.max-32', S_FIREWALL, 'Rule label is 3..32 chars: at most 32.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.ports.required-for-tcp-udp', S_FIREWALL, 'ports is required for TCP and UDP rules.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.ports.forbidden-for-icmp', S_FIREWALL, 'ports is not allowed for ICMP rules.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.ports.syntax', S_FIREWALL, 'ports is a single port, a range, or a comma-separated list of them (a space may follow a comma). Only that one space is stated: other blanks around separators and at the ends (" 22", "22 ,80", "22,  80") are judged neither way; a string outside the grammar under every reading (letters, another separator, an empty piece, a dangling dash) is refused.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rule.ports.range-end-greater', S_FIREWALL, 'In a ports range the end must be greater than the start.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rule.ports.range-1-65535', S_FIREWALL, 'Ports are 1..65535.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rule.ports.no-leading-zeroes', S_FIREWALL, 'Ports are written without leading zeroes.', FIREWALL_RULES_ALL, 'code'),
  must('P3.firewall.rule.ports.pieces-max-15', S_FIREWALL, 'ports has up to 15 pieces (a single port is one piece, a range is two).', FIREWALL_RULES_ALL, 'code'),
  untestable('P3.firewall.rule.ports.range-inclusive', S_FIREWALL, 'Port ranges are inclusive.', RULE_WRITE, NOT_OBSERVABLE_TRAFFIC.replace('untestable: ', '')),
  must('P3.firewall.rule.protocol.required', S_FIREWALL, 'A rule requires protocol.', FIREWALL_RULES_ALL, 'schema'),
  must('P3.firewall.rule.protocol.enum', S_FIREWALL, 'Rule protocol is one of `TCP`, `UDP`, `ICMP`.', FIREWALL_RULES_ALL, 'schema'),
  should('P3.firewall-device.object', S_DEVICE, 'inferred from document 1 (bodies are JSON): a device as returned is an object; its fields are not shown.', [DEVICES_LIST, DEVICE_CREATE, DEVICE_VIEW], 'schema'),
  must('P3.firewall-device-create.types', S_DEVICE, 'The device body has `id` (integer, entity ID) and `type` (string).', [DEVICE_CREATE], 'schema'),
  must('P3.firewall-device-create.id.required', S_FIREWALLS, 'POST device requires `id`.', [DEVICE_CREATE], 'schema'),
  must('P3.firewall-device-create.type.required', S_FIREWALLS, 'POST device requires `type`.', [DEVICE_CREATE], 'schema'),
  must('P3.firewall-device.type.enum', S_DEVICE, 'Device type is `compute`: only entities of type compute are accepted.', [DEVICE_CREATE], 'schema'),
  must('P3.firewall.device.listed', S_DEVICE, 'A device added to a firewall appears in its devices list and can be viewed.', [DEVICE_CREATE, DEVICES_LIST, DEVICE_VIEW], 'scenario'),
  must('P3.firewall.device.many-instances', S_FIREWALLS, 'A firewall can be assigned to many instances.', [DEVICE_CREATE, DEVICES_LIST], 'scenario'),
  must('P3.firewall.device.one-active-per-instance', S_FIREWALLS, 'An instance can have one active firewall: assigning a second enabled firewall to it is rejected.', [DEVICE_CREATE, FIREWALL_CREATE], 'scenario'),
  must('P3.firewall.device.disabled-may-be-added', S_FIREWALLS, 'Further disabled firewalls may be assigned to an instance that has an active firewall.', [DEVICE_CREATE], 'scenario'),
  must('P3.firewall.device.remove', S_FIREWALLS, 'DELETE device removes this firewall from the instance: the device is no longer listed.', [DEVICE_DELETE, DEVICES_LIST], 'scenario'),
  must('P3.firewall.device.remove-keeps-other-firewalls', S_FIREWALLS, 'DELETE device removes this firewall from the instance; the other firewalls assigned to it stay ("rules of other assigned firewalls stay"): the instance is still in their devices lists. What is filtered is not judged, only the assignment.', [DEVICE_DELETE, DEVICES_LIST], 'scenario'),
  must('P3.firewall.delete.frees-instances', S_FIREWALLS, 'An instance can have one active firewall, and a deleted firewall is `deleted` (removed): while its enabled firewall exists another enabled firewall cannot take the instance, after that firewall\'s DELETE it can.', [FIREWALL_DELETE, DEVICE_CREATE], 'scenario'),
  untestable('P3.firewall.device.remove-keeps-other-rules', S_FIREWALLS, 'DELETE device removes this firewall\'s rules from the instance; rules of other assigned firewalls stay.', [DEVICE_DELETE], NOT_OBSERVABLE_TRAFFIC.replace('untestable: ', '')),
];

// prettier-ignore
const ipRules: DeclaredRule[] = [
  must('P3.ip-address.types', S_IP, 'An IP address object, when its members are present, has `address` (string) and `rdns` (string; null accepted, see ip-update).', [IPS_LIST, IP_VIEW], 'schema'),
  must('P3.ip-address.address.ip', S_IP, '`address` is an IP address.', [IPS_LIST, IP_VIEW], 'schema'),
  must('P3.ips.list.no-private', S_IPS, 'The IP list holds the addresses of the account, private addresses excluded.', [IPS_LIST], 'scenario'),
  must('P3.ip-allocate.types', S_IPS, 'The allocate body has `compute_id` (integer), `public` (boolean), `type` (string).', [IP_ALLOCATE], 'schema'),
  must('P3.ip-allocate.compute-id.required', S_IPS, 'POST ips requires `compute_id`.', [IP_ALLOCATE], 'schema'),
  must('P3.ip-allocate.public.required', S_IPS, 'POST ips requires `public`.', [IP_ALLOCATE], 'schema'),
  must('P3.ip-allocate.type.required', S_IPS, 'POST ips requires `type`.', [IP_ALLOCATE], 'schema'),
  must('P3.ip-allocate.type.enum', S_IPS, 'The allocate `type` is `ipv4`.', [IP_ALLOCATE], 'schema'),
  must('P3.ip-allocate.allocates-ipv4', S_IPS, 'POST ips allocates an IPv4 address to the instance.', [IP_ALLOCATE], 'scenario', ['destructive']),
  untestable('P3.ip-allocate.support-request', S_IPS, 'The instance must be enabled for extra addresses through a support request first.', [IP_ALLOCATE], 'the enablement is a support request outside the API'),
  must('P3.ips-assign.types', S_IPS, 'The ips/assign body has `assignments` (array of objects) and `region` (string).', [IPS_ASSIGN], 'schema'),
  must('P3.ips-assign.assignments.required', S_IPS, 'POST ips/assign requires `assignments`.', [IPS_ASSIGN], 'schema'),
  must('P3.ips-assign.region.required', S_IPS, 'POST ips/assign requires `region` (placement beside the array or inside each item is not shown, so a body without region anywhere is rejected).', [IPS_ASSIGN], 'schema'),
  must('P3.ipv4-assign.types', S_IPS, 'The ipv4/assign body has `assignments` (array of objects).', [IPV4_ASSIGN], 'schema'),
  must('P3.ipv4-assign.assignments.required', S_IPS, 'POST ipv4/assign requires `assignments`.', [IPV4_ASSIGN], 'schema'),
  must('P3.assignment.address.required', S_IPS, 'An assignment item requires `address`.', [IPS_ASSIGN, IPV4_ASSIGN], 'schema'),
  must('P3.assignment.compute-id.required', S_IPS, 'An assignment item requires `compute_id` (integer).', [IPS_ASSIGN, IPV4_ASSIGN], 'schema'),
  must('P3.ips-assign.address.ipv4-or-ipv6-range', S_IPS, 'For ips/assign an assignment address is an IPv4 address or an IPv6 range with a /56 or /64 prefix.', [IPS_ASSIGN], 'schema'),
  must('P3.ipv4-assign.address.ipv4', S_IPS, 'For ipv4/assign an assignment address is an IPv4 address (IPv4 only; use ips/assign for IPv6 ranges).', [IPV4_ASSIGN], 'schema'),
  must('P3.assign.accessible-in-region', S_IPS, 'An assigned address must be accessible in the region; public and private addresses are both accepted.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['destructive']),
  must('P3.assign.previous-holder-loses', S_IPS, 'The instance named by compute_id receives the address; the previous holder loses it.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['destructive']),
  must('P3.assign.end-public-ipv4', S_IPS, 'Every instance involved must end with at least one public IPv4 address; an assignment that leaves one without is rejected.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['destructive']),
  must('P3.assign.end-private-max-1', S_LIMITS, 'Every instance involved must end with at most one private IPv4 address.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['destructive']),
  must('P3.assign.end-ipv6-range-max-1', S_LIMITS, 'Every instance involved must end with at most one IPv6 range.', [IPS_ASSIGN], 'untestable: one IPv6 range per region per account (more only through a support request) means no instance can be offered a second range, so the end state cannot be produced', ['destructive']),
  must('P3.assign.ipv6-retarget', S_IPS, 'Assigning an IPv6 range re-targets the range to the SLAAC address of the receiving instance.', [IPS_ASSIGN, RANGE_VIEW], 'scenario', ['destructive']),
  must('P3.assign.same-region', S_IPS, 'All addresses and instances of an assignment must be in the given region.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['destructive']),
  must('P3.assign.grants', S_IPS, 'The caller needs read_write on all addresses and instances of an assignment.', [IPS_ASSIGN, IPV4_ASSIGN], 'scenario', ['restricted-user', 'grants']),
  must('P3.ips-share.types', S_IPS, 'The ips/share body has `ips` (array of strings) and `compute_id` (integer).', [IPS_SHARE], 'schema'),
  must('P3.ips-share.ips.required', S_IPS, 'POST ips/share requires `ips`.', [IPS_SHARE], 'schema'),
  must('P3.ips-share.compute-id.required', S_IPS, 'POST ips/share requires `compute_id`.', [IPS_SHARE], 'schema'),
  must('P3.ipv4-share.types', S_IPS, 'The ipv4/share body has `ips` (array of strings) and `compute_id` (integer).', [IPV4_SHARE], 'schema'),
  must('P3.ipv4-share.ips.required', S_IPS, 'POST ipv4/share requires `ips`.', [IPV4_SHARE], 'schema'),
  must('P3.ipv4-share.compute-id.required', S_IPS, 'POST ipv4/share requires `compute_id`.', [IPV4_SHARE], 'schema'),
  must('P3.share.ips.address', S_IPS, '`ips` holds IPv4 addresses (private or public) and IPv6 ranges with the prefix length omitted.', [IPS_SHARE, IPV4_SHARE], 'schema'),
  must('P3.share.access-all', S_IPS, 'The caller must have access to all shared addresses.', [IPS_SHARE, IPV4_SHARE], 'scenario', ['restricted-user', 'grants']),
  must('P3.share.same-region', S_IPS, 'Shared addresses must be in the primary instance\'s region.', [IPS_SHARE, IPV4_SHARE], 'scenario', ['destructive']),
  must('P3.share.empty-removes', S_IPS, 'An empty `ips` array removes all shared addresses of the instance.', [IPS_SHARE, IPV4_SHARE], 'scenario'),
  must('P3.share.owner-keeps', S_IPS, 'The given instance may bring up the shared addresses "in addition to their owners": after a share each shared IPv4 address is still an address of the instance that held it (its `ipv4`, document 2).', [IPS_SHARE, IPV4_SHARE], 'scenario'),
  untestable('P3.share.failover', S_IPS, 'The given instance may bring up the shared addresses in addition to their owners.', [IPS_SHARE, IPV4_SHARE], 'bringing up an address on an instance is outside the API'),
  untestable('P3.share.ipv6-some-regions', S_IPS, 'IPv6 range sharing is available only in some regions.', [IPS_SHARE], 'which regions is not shown'),
  must('P3.ip-update.types', S_IPS, 'The rDNS update body has `rdns` (string, or null to reset).', [IP_UPDATE], 'schema'),
  must('P3.ip.rdns.forward-dns-required', S_IPS, 'Forward DNS must already be set up before rdns is set: a name that can have no forward record (one under the reserved TLD `.invalid`, RFC 6761) is refused, and the address keeps its rdns.', [IP_UPDATE, IP_VIEW], 'scenario'),
  must('P3.ip.rdns.null-resets-default', S_IPS, 'Setting rdns to null on a public IPv4 address resets it to the default under {default_rdns_domain}.', [IP_UPDATE, IP_VIEW], 'scenario'),
  must('P3.ipv6.range.format', S_IP, '`range` is an IPv6 range (an IPv6 address, the prefix length given apart or after a slash).', [POOLS_LIST, RANGES_LIST, RANGE_VIEW], 'schema'),
  must('P3.ipv6-pool.types', S_IP, 'An IPv6 pool object, when its members are present, has `range` (string) and `prefix_length` (integer).', [POOLS_LIST], 'schema'),
  untestable('P3.ipv6-pool.routed-to-all', S_IP, 'An IPv6 pool is routed to all of the account\'s instances in a region; any instance may bring up any address without external configuration.', [POOLS_LIST], 'routing is outside the API'),
  must('P3.ipv6-range.types', S_IP, 'An IPv6 range object, when its members are present, has `range` (string), `prefix_length` (integer), `route_target` (string).', [RANGES_LIST, RANGE_VIEW], 'schema'),
  must('P3.ipv6-range.prefix-length.enum', S_IP, 'An IPv6 range is a /56 or a /64: prefix_length is 56 or 64.', [RANGES_LIST, RANGE_VIEW], 'schema'),
  must('P3.ipv6-range.route-target.ipv6', S_IP, '`route_target` is the IPv6 SLAAC address the range routes to.', [RANGES_LIST, RANGE_VIEW], 'schema'),
  must('P3.ipv6-range-create.types', S_IPS, 'The range create body has `prefix_length` (integer), `compute_id` (integer), `route_target` (string).', [RANGE_CREATE], 'schema'),
  must('P3.ipv6-range-create.prefix-length.required', S_IPS, 'POST ipv6/ranges requires `prefix_length`.', [RANGE_CREATE], 'schema'),
  must('P3.ipv6-range-create.prefix-length.applied', S_IPS, 'A range is created of the `prefix_length` asked for (56 or 64): where it shows its length (`prefix_length`, or the /n of `range`), it is that one.', [RANGE_CREATE, RANGE_VIEW], 'scenario'),
  must('P3.ipv6-range-create.target.exactly-one', S_IPS, 'Exactly one of compute_id and route_target is given; giving both is an error.', [RANGE_CREATE], 'schema'),
  must('P3.ipv6-range-create.route-target.ipv6', S_IPS, 'route_target is an IPv6 address.', [RANGE_CREATE], 'code'),
  must('P3.ipv6-range-create.route-target.no-prefix', S_IPS, 'route_target is given without `/128`.', [RANGE_CREATE], 'code'),
  must('P3.ipv6-range.region-of-instance', S_IPS, 'The range is created in the region of the instance given by compute_id or route_target.', [RANGE_CREATE, RANGE_VIEW], 'scenario', ['destructive']),
  must('P3.ipv6-range.one-per-region', S_IPS, 'One IPv6 range per region per account: creating a second one in a region is rejected.', [RANGE_CREATE], 'scenario', ['destructive']),
  must('P3.ipv6-range.one-slaac-per-instance', S_IPS, 'One range targeting an instance\'s SLAAC address per instance: a second such range is rejected.', [RANGE_CREATE], 'scenario', ['destructive']),
  untestable('P3.ipv6-range.more-by-support', S_IPS, 'More ranges are available through a support request.', [RANGE_CREATE], 'support requests are outside the API'),
  must('P3.ipv6-range.delete-disconnects', S_IPS, 'DELETE range disconnects it from assigned instances: once the deletion has run (whether it has when the DELETE answers is not shown) it is no longer viewable or listed.', [RANGE_DELETE, RANGE_VIEW, RANGES_LIST], 'scenario'),
  must('P3.ipv6-range.shared-cannot-delete', S_IPS, 'A shared range cannot be deleted.', [RANGE_DELETE], 'scenario'),
  should('P3.vlan.object', S_IP, 'inferred from document 1 (bodies are JSON): a VLAN as returned is an object; its fields are not shown.', [VLANS_LIST], 'schema'),
  must('P3.vlan.list-account', S_IPS, 'The VLAN list holds the account\'s VLANs, including one created through an instance interface.', [VLANS_LIST], 'scenario'),
  must('P3.vlan.created-through-interfaces', S_IPS, 'VLANs are created and attached through the `interfaces` of instance create and configuration profile create and update (document 2).', [VLANS_LIST], 'scenario'),
  must('P3.vlan.detach', S_IPS, 'A VLAN is detached by removing the interface from the active configuration profile and rebooting, booting a profile without it, or deleting the instance.', [VLANS_LIST], 'scenario', ['long-wait']),
];

export const rules: DeclaredRule[] = [...domainRules, ...recordRules, ...monitoringRules, ...firewallRules, ...ipRules];
