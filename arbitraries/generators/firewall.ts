import fc from 'fast-check';
import { networkFromSomewhere } from './net.js';
import { ports } from './ports.js';
import { stringOfLength } from './text.js';

/**
 * Firewall rules (document 3, Rule object): action ACCEPT|DROP, protocol TCP|UDP|ICMP, ports required for TCP
 * and UDP and absent for ICMP, addresses `ipv4` / `ipv6` lists of IP/mask strings (networks traffic can come from)
 * with at most 255 entries across both, optional description (1..100) and label (3..32, no character rules). A firewall holds at most 25 rules
 * across inbound and outbound.
 */

const ACTIONS = ['ACCEPT', 'DROP'] as const;
const PROTOCOLS = ['TCP', 'UDP', 'ICMP'] as const;
const MAX_ADDRESSES = 255;
const MAX_RULES = 25;

export type FirewallRule = Record<string, unknown>;
export interface RuleSet {
  inbound: FirewallRule[];
  outbound: FirewallRule[];
}

/**
 * A network of one family in IP/mask form that every reading of a rule's `addresses` takes: any address (`/0`), or one
 * connections can come from (`fromSomewhere`, as an access list's entries). Which networks a rule takes is not shown:
 * a server may refuse one no traffic comes from (a documentation, multicast or loopback network).
 */
export function ruleNetwork(family: 'ipv4' | 'ipv6'): fc.Arbitrary<string> {
  return networkFromSomewhere(family);
}

/**
 * min..max distinct addresses (each IPv4 or IPv6: whether a list may repeat one is not shown) split into `ipv4` and
 * `ipv6` lists, both always given (whether either may be left out is not shown).
 */
function addressesBetween(min: number, max: number): fc.Arbitrary<Record<string, string[]>> {
  const tagged = fc.oneof(
    ruleNetwork('ipv4').map((address) => ({ v4: true, address })),
    ruleNetwork('ipv6').map((address) => ({ v4: false, address })),
  );
  return fc.uniqueArray(tagged, { minLength: min, maxLength: max, selector: (entry) => entry.address }).map((all) => ({
    ipv4: all.filter((entry) => entry.v4).map((entry) => entry.address),
    ipv6: all.filter((entry) => !entry.v4).map((entry) => entry.address),
  }));
}

/**
 * A rule's `addresses`: usually a few entries, sometimes exactly 255 (`large` false keeps it small); never none (whether
 * a rule may list no address is not shown).
 */
function addresses(large = true): fc.Arbitrary<Record<string, string[]>> {
  const small = addressesBetween(1, 6);
  return large ? fc.oneof({ arbitrary: small, weight: 5 }, { arbitrary: addressesBetween(MAX_ADDRESSES, MAX_ADDRESSES), weight: 1 }) : small;
}

/** 256..270 addresses across both lists, each well formed. */
export function addressesTooMany(): fc.Arbitrary<Record<string, string[]>> {
  return addressesBetween(MAX_ADDRESSES + 1, MAX_ADDRESSES + 15);
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
      // letters and digits: which characters a rule label takes is not shown (a server may hold it to the firewall
      // label's rules)
      fc.option(stringOfLength(3, 32, 'abcdefghijklmnopqrstuvwxyz0123456789'), { nil: undefined }),
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

/**
 * min..max rules (often exactly min or max) split at random between inbound and outbound; at most one rule has a
 * long address list, so a body stays quick to validate.
 */
function ruleSetBetween(min: number, max: number): fc.Arbitrary<RuleSet> {
  const rule = firewallRule(false);
  const lists = fc.oneof(
    fc.array(rule, { minLength: min, maxLength: max }),
    fc.array(rule, { minLength: min, maxLength: min }),
    fc.array(rule, { minLength: max, maxLength: max }),
  );
  return fc.tuple(lists, fc.option(firewallRule(true), { freq: 3, nil: undefined }), fc.nat(), fc.nat()).map(([drawn, big, at, split]) => {
    const rules = big && drawn.length ? drawn.map((one, i) => (i === at % drawn.length ? big : one)) : drawn;
    const inbound = split % (rules.length + 1);
    return { inbound: rules.slice(0, inbound), outbound: rules.slice(inbound) };
  });
}

/** Inbound and outbound rules, at most `max` (25) across both (0 and exactly `max` often). */
export function ruleSet(max = MAX_RULES): fc.Arbitrary<RuleSet> {
  return ruleSetBetween(0, max);
}

/** 26..30 valid rules across inbound and outbound. */
export function ruleSetTooMany(): fc.Arbitrary<RuleSet> {
  return ruleSetBetween(MAX_RULES + 1, MAX_RULES + 5);
}
