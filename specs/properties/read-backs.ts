// How a property check compares a member of an accepted update with the value read back (`ValidPlan.readBack` in
// property-checks.ts): the same value, the same set, a domain time rounded up, an allow_list as applied.
import { allowListBreak } from '../part1/databases-support.js';

/** Compares one member sent with the value read back: the rule broken when they differ, or null when they agree. */
export type ReadBack = (sent: unknown, shown: unknown) => string | null;

const DOMAIN_TIMES = [0, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];
export const DOMAIN_DEFAULTS: Record<string, number> = { expire_sec: 1209600, refresh_sec: 14400, retry_sec: 14400, ttl_sec: 86400 };

/** Time values round up to the next valid value; 0 means the default (shown as 0 or as the default). */
export const roundedUp =
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
