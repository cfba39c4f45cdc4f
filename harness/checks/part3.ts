import ipaddr from 'ipaddr.js';
import type { SemanticCheck, SemanticProblem } from './types.js';

/**
 * Reading of "RFC 1035" used here (document 3, Domain): a name is dot-separated labels; each label is
 * 1..63 letters, digits or hyphens and neither begins nor ends with a hyphen (the RFC 1123 relaxation lets a
 * label begin with a digit). The whole name is at most 255 characters. An underscore is taken too: outside RFC 1035's
 * preferred syntax, inside RFC 2181's names (`_dmarc.example.com`), so a server may hold one.
 */
const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$/;

/** Problems of a DNS name: `lengthRule` for a label over 63 characters, `syntaxRule` for anything else. */
function dnsNameProblems(name: string, syntaxRule: string, lengthRule: string, allowTrailingPeriod: boolean): SemanticProblem[] {
  const body = allowTrailingPeriod && name.endsWith('.') && name.length > 1 ? name.slice(0, -1) : name;
  const labels = body.split('.');
  const problems: SemanticProblem[] = [];
  const long = labels.filter((label) => label.length > 63);
  if (long.length) problems.push({ rule: lengthRule, message: `label of ${long[0]!.length} characters (at most 63)` });
  const bad = labels.filter((label) => label.length <= 63 && !LABEL.test(label));
  if (bad.length) problems.push({ rule: syntaxRule, message: `"${name}" is not a valid domain name (label "${bad[0]}")` });
  return problems;
}

/**
 * The `domain` member of a domain: labels of at most 63 characters, RFC 1035 syntax. Bounds 1..255 are schema rules.
 * A final period is accepted: RFC 1035 writes an absolute name so, and how a name is written back is not shown.
 */
const domainName: SemanticCheck = (value) => {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255) return [];
  return dnsNameProblems(value, 'P3.domain.domain.rfc-1035', 'P3.domain.domain.label-max-63', true);
};

/** A record target that must be a valid domain (NS, MX, CNAME, SRV); a trailing period is accepted; the empty string (null MX) is not judged here. */
const recordTargetDomain: SemanticCheck = (value) => {
  if (typeof value !== 'string' || value.length === 0) return [];
  if (value.length > 255) return [{ rule: 'P3.record.target.valid-domain', message: `name of ${value.length} characters (at most 255)` }];
  return dnsNameProblems(value, 'P3.record.target.valid-domain', 'P3.record.target.valid-domain', true);
};

/** A CAA `issue` / `issuewild` target: the certificate issuer's domain (the trailing period is a rule of its own). */
const caaIssuerDomain: SemanticCheck = (value) => {
  if (typeof value !== 'string' || value.length === 0 || value.endsWith('.')) return [];
  return dnsNameProblems(value, 'P3.record.caa.issue.target-domain', 'P3.record.caa.issue.target-domain', false);
};

/**
 * Firewall rule `ports`: single port, range, or comma-separated list (a space may follow a comma); ranges
 * inclusive with end > start; ports 1..65535 without leading zeroes; at most 15 pieces (a range counts two).
 * A string outside the grammar reports only the syntax rule. Only a space after a comma is stated: other blanks
 * around the separators and at the ends (" 22", "22 ,80", "22,  80", "80 - 90") are judged neither way, so the
 * grammar is checked with them taken out.
 */
const firewallPorts: SemanticCheck = (value) => {
  if (typeof value !== 'string') return [];
  const items = value
    .trim()
    .split(/\s*,\s*/)
    .map((item) => item.replace(/\s*-\s*/g, '-'));
  const syntax = /^\d+(?:-\d+)?$/;
  const badItem = items.find((item) => !syntax.test(item));
  if (badItem !== undefined)
    return [{ rule: 'P3.firewall.rule.ports.syntax', message: `"${value}" is not a port, a range, or a comma-separated list of them (piece "${badItem}")` }];
  const problems: SemanticProblem[] = [];
  let pieces = 0;
  for (const item of items) {
    const numbers = item.split('-');
    pieces += numbers.length;
    for (const number of numbers) {
      if (/^0\d/.test(number)) problems.push({ rule: 'P3.firewall.rule.ports.no-leading-zeroes', message: `port "${number}" has a leading zero` });
      else if (Number(number) < 1 || Number(number) > 65535)
        problems.push({ rule: 'P3.firewall.rule.ports.range-1-65535', message: `port ${number} is outside 1..65535` });
    }
    if (numbers.length === 2 && Number(numbers[1]) <= Number(numbers[0]))
      problems.push({ rule: 'P3.firewall.rule.ports.range-end-greater', message: `range "${item}" does not end above its start` });
  }
  if (pieces > 15) problems.push({ rule: 'P3.firewall.rule.ports.pieces-max-15', message: `${pieces} pieces (at most 15; a range counts two)` });
  return problems;
};

/** Up to 255 addresses or networks per rule across `ipv4` and `ipv6`. */
const firewallRuleAddresses: SemanticCheck = (value) => {
  const addresses = value as { ipv4?: unknown; ipv6?: unknown };
  if (!addresses || typeof addresses !== 'object') return [];
  const count = (Array.isArray(addresses.ipv4) ? addresses.ipv4.length : 0) + (Array.isArray(addresses.ipv6) ? addresses.ipv6.length : 0);
  return count > 255 ? [{ rule: 'P3.firewall.rule.addresses.max-255', message: `${count} addresses across ipv4 and ipv6 (at most 255)` }] : [];
};

/** At most 25 rules across `inbound` and `outbound`. */
const firewallRulesCount: SemanticCheck = (value) => {
  const rules = value as { inbound?: unknown; outbound?: unknown };
  if (!rules || typeof rules !== 'object') return [];
  const count = (Array.isArray(rules.inbound) ? rules.inbound.length : 0) + (Array.isArray(rules.outbound) ? rules.outbound.length : 0);
  return count > 25 ? [{ rule: 'P3.firewall.rules.max-25', message: `${count} rules across inbound and outbound (at most 25)`, path: '' }] : [];
};

/** IPv6 range create `route_target`: an IPv6 (SLAAC) address given without `/128`. */
const routeTarget: SemanticCheck = (value) => {
  if (typeof value !== 'string') return [];
  if (value.includes('/'))
    return [{ rule: 'P3.ipv6-range-create.route-target.no-prefix', message: `"${value}" carries a prefix length; give the address without /128` }];
  return ipaddr.IPv6.isValid(value) ? [] : [{ rule: 'P3.ipv6-range-create.route-target.ipv6', message: `"${value}" is not an IPv6 address` }];
};

/** Constraints of document 3 that JSON Schema cannot express, named by `"x-check"` in the schemas. */
export const checks: Record<string, SemanticCheck> = {
  'domain-name': domainName,
  'record-target-domain': recordTargetDomain,
  'caa-issuer-domain': caaIssuerDomain,
  'firewall-ports': firewallPorts,
  'firewall-rule-addresses': firewallRuleAddresses,
  'firewall-rules-count': firewallRulesCount,
  'ipv6-route-target': routeTarget,
};
