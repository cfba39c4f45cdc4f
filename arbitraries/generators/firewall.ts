import fc from 'fast-check';
import { ipv4Cidr, ipv6Cidr } from './net.js';
import { ports } from './ports.js';
import { between, stringOfLength } from './text.js';

/**
 * Firewall rules (document 3, Rule object): action ACCEPT|DROP, protocol TCP|UDP|ICMP, ports required for TCP
 * and UDP and absent for ICMP, addresses `ipv4` / `ipv6` lists of IP/mask strings with at most 255 entries across
 * both, optional description (1..100) and label (3..32, no character rules). A firewall holds at most 25 rules
 * across inbound and outbound.
 */

export const ACTIONS = ['ACCEPT', 'DROP'] as const;
export const PROTOCOLS = ['TCP', 'UDP', 'ICMP'] as const;
export const MAX_ADDRESSES = 255;
export const MAX_RULES = 25;

export type FirewallRule = Record<string, unknown>;
export interface RuleSet {
  inbound: FirewallRule[];
  outbound: FirewallRule[];
}

/** `count` addresses split between an `ipv4` and an `ipv6` list (either list may be absent when empty). */
function addressesOfCount(count: number): fc.Arbitrary<Record<string, string[]>> {
  return fc.integer({ min: 0, max: count }).chain((v4) =>
    fc
      .tuple(fc.array(ipv4Cidr(), { minLength: v4, maxLength: v4 }), fc.array(ipv6Cidr(), { minLength: count - v4, maxLength: count - v4 }), fc.boolean(), fc.boolean())
      .map(([ipv4, ipv6, keepEmpty4, keepEmpty6]) => ({
        ...(ipv4.length || keepEmpty4 ? { ipv4 } : {}),
        ...(ipv6.length || keepEmpty6 ? { ipv6 } : {}),
      })),
  );
}

/** A rule's `addresses`: usually a few entries, sometimes exactly 255 (`large` false keeps it small). */
export function addresses(large = true): fc.Arbitrary<Record<string, string[]>> {
  const small = fc.integer({ min: 0, max: 6 }).chain(addressesOfCount);
  return large ? fc.oneof({ arbitrary: small, weight: 5 }, { arbitrary: addressesOfCount(MAX_ADDRESSES), weight: 1 }) : small;
}

/** 256..270 addresses across both lists, each well formed. */
export function addressesTooMany(): fc.Arbitrary<Record<string, string[]>> {
  return between(MAX_ADDRESSES + 1, MAX_ADDRESSES + 15).chain(addressesOfCount);
}

/** One valid rule; `large` lets its address list reach the 255 bound. */
export function firewallRule(large = false): fc.Arbitrary<FirewallRule> {
  return fc
    .tuple(
      fc.constantFrom(...ACTIONS),
      fc.constantFrom(...PROTOCOLS),
      addresses(large),
      ports(),
      fc.option(stringOfLength(1, 100), { nil: undefined }),
      fc.option(stringOfLength(3, 32), { nil: undefined }),
    )
    .map(([action, protocol, addrs, portText, description, label]) => ({
      action,
      protocol,
      addresses: addrs,
      ...(protocol === 'ICMP' ? {} : { ports: portText }),
      ...(description === undefined ? {} : { description }),
      ...(label === undefined ? {} : { label }),
    }));
}

/** `n` rules, at most one of them with a long address list (so a body stays quick to validate). */
function rulesOf(n: number): fc.Arbitrary<FirewallRule[]> {
  return fc.tuple(fc.array(firewallRule(false), { minLength: n, maxLength: n }), fc.option(firewallRule(true), { freq: 3, nil: undefined }), fc.nat()).map(([rules, big, at]) =>
    big && rules.length ? rules.map((rule, i) => (i === at % rules.length ? big : rule)) : rules,
  );
}

/** `total` rules split between inbound and outbound. */
function ruleSetOfCount(total: number): fc.Arbitrary<RuleSet> {
  return fc.integer({ min: 0, max: total }).chain((inbound) => rulesOf(total).map((rules) => ({ inbound: rules.slice(0, inbound), outbound: rules.slice(inbound) })));
}

/** Inbound and outbound rules, at most 25 across both (0 and exactly 25 often). */
export function ruleSet(): fc.Arbitrary<RuleSet> {
  return between(0, MAX_RULES).chain(ruleSetOfCount);
}

/** 26..30 valid rules across inbound and outbound. */
export function ruleSetTooMany(): fc.Arbitrary<RuleSet> {
  return between(MAX_RULES + 1, MAX_RULES + 5).chain(ruleSetOfCount);
}
