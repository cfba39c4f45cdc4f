// How a property check compares a member of an accepted update with the value read back (`ValidPlan.readBack` in
// property-checks.ts): the same value, the same set, a domain time rounded up, an allow_list as applied, a domain's
// name, addresses and a record's members each written one way.
import ipaddr from 'ipaddr.js';
import { sameDomainName } from '../../harness/domain-names.js';
import { allowListBreak } from '../part1/databases-support.js';
import { bareTarget, relativeName } from '../part3/records-support.js';

/** Compares one member sent with the value read back: the rule broken when they differ, or null when they agree. */
export type ReadBack = (sent: unknown, shown: unknown) => string | null;

const DOMAIN_TIMES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
export const DOMAIN_DEFAULTS: Record<string, number> = { expire_sec: 1209600, refresh_sec: 14400, retry_sec: 14400, ttl_sec: 86400 };

/** Time values round up to the next valid value; 0 means the default (shown as 0 or as the default). */
const roundedUp =
  (member: string): ReadBack =>
  (sent, shown) => {
    const up = DOMAIN_TIMES.find((value) => value >= Number(sent));
    const zero = Number(sent) === 0;
    const ok = zero ? shown === 0 || shown === DOMAIN_DEFAULTS[member] : shown === up;
    return ok ? null : zero ? zeroRule(member) : `P3.domain.${member.replace('_', '-')}.round-up`;
  };
export const zeroRule = (member: string) => `P3.domain.${member.replace('_', '-')}.zero-means-default-${DOMAIN_DEFAULTS[member]}`;

export const same =
  (rule: string): ReadBack =>
  (sent, shown) =>
    JSON.stringify(sent) === JSON.stringify(shown) ? null : rule;
export const sameIgnoringCase =
  (rule: string): ReadBack =>
  (sent, shown) =>
    String(sent).toLowerCase() === String(shown).toLowerCase() ? null : rule;
/** Every tag sent is shown (stated); no tag that was not sent remains (the tags replace the old ones: inferred). */
export const firewallTags: ReadBack = (sent, shown) => {
  if (!Array.isArray(sent) || !Array.isArray(shown) || !sent.every((tag) => shown.includes(tag))) return 'P3.firewall.update.reflected';
  return shown.every((tag) => sent.includes(tag)) ? null : 'P3.firewall.update.tags-replaced';
};
export const sameSet =
  (rule: string): ReadBack =>
  (sent, shown) =>
    Array.isArray(sent) && Array.isArray(shown) && JSON.stringify([...sent].sort()) === JSON.stringify([...shown].sort()) ? null : rule;
/** allow_list as sent against as shown (see `allowListBreak`). */
export const allowList: ReadBack = allowListBreak;
/** A domain's name as sent against as shown, case and a final period aside (`sameDomainName`). */
const sameDomain =
  (rule: string): ReadBack =>
  (sent, shown) =>
    sameDomainName(shown, sent) ? null : rule;
/** An address written one way (an IPv6 address as RFC 5952 writes it): how a response writes one is not shown. */
const addressKey = (address: unknown) => (typeof address === 'string' && ipaddr.isValid(address) ? ipaddr.parse(address).toString() : address);
/** Addresses in any order, each written one way, a repeated one counted once. */
const sameAddresses =
  (rule: string): ReadBack =>
  (sent, shown) =>
    Array.isArray(sent) && Array.isArray(shown) && sameSet(rule)([...new Set(sent.map(addressKey))], [...new Set(shown.map(addressKey))]) === null
      ? null
      : rule;

export const DOMAIN_REFLECTED = 'P3.domain.update.reflected';
export const RECORD_REFLECTED = 'P3.record.update.reflected';

/**
 * A record of the zone `zone` as sent against as shown: its name relative to the zone (a name as returned may be
 * fully qualified: `relativeName`), its target written one way (`bareTarget`), the type's own members as sent. The
 * forms of service and protocol as returned are not shown: they are not compared.
 */
export const recordReadBack = (zone: string): Record<string, ReadBack> => ({
  type: same(RECORD_REFLECTED),
  name: (sent, shown) => (relativeName(shown, zone) === relativeName(sent, zone) ? null : RECORD_REFLECTED),
  target: (sent, shown) => (bareTarget(shown) === bareTarget(sent) ? null : RECORD_REFLECTED),
  ...Object.fromEntries(['priority', 'weight', 'port', 'tag'].map((member) => [member, same(RECORD_REFLECTED)])),
});

/**
 * A domain update's members as sent against as shown: the time values rounded up, the name case and a final period
 * aside, the addresses and tags in any order, the others as sent.
 */
export const domainReadBack: Record<string, ReadBack> = {
  ...Object.fromEntries(Object.keys(DOMAIN_DEFAULTS).map((member) => [member, roundedUp(member)])),
  domain: sameDomain(DOMAIN_REFLECTED),
  ...Object.fromEntries(['type', 'status', 'soa_email', 'description', 'group'].map((member) => [member, same(DOMAIN_REFLECTED)])),
  master_ips: sameAddresses(DOMAIN_REFLECTED),
  axfr_ips: sameAddresses(DOMAIN_REFLECTED),
  tags: sameSet(DOMAIN_REFLECTED),
};
