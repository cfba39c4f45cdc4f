// The IP addresses area's model (emulator/areas/ips.ts, whose header holds its choices): the address and range
// objects, the store tables they live in, and the helpers the routes, assignment and sharing share.
import ipaddr from 'ipaddr.js';
import { canAccess } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { RequestContext } from '../core/types.js';
import { getInstance, listInstances, type Instance } from '../core/entities.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';

export interface IpAddress {
  address: string;
  gateway: string | null;
  subnet_mask: string;
  prefix: number;
  type: 'ipv4' | 'ipv6';
  public: boolean;
  rdns: string | null;
  compute_id: number;
  region: string;
}

export interface Ipv6Range {
  range: string;
  prefix_length: 56 | 64;
  region: string;
  route_target: string | null;
  created: string;
}

const DEFAULT_RDNS_DOMAIN = 'chs-emulator.net';
export const EXTRA_IPV4_TAG = 'extra-ipv4';
export const RDNS = 'ips_rdns'; // address → rdns set by the caller (null = reset)
export const SHARES = 'ips_shares'; // instance id → addresses and ranges it may bring up
const RANGES = 'ipv6_ranges'; // range (no prefix) → range
export const DELETED_RANGES = 'ipv6_ranges_deleted'; // kept only by the fault delete-disconnects
// Regions whose one range per account was deleted a short time ago: held for a simulated minute under the variation
// range-release-later (region → the range deleted).
export const HELD_REGIONS = 'ipv6_ranges_held';
// Deleted instances whose addresses stay listed: for good under a fault, for a simulated minute under the variation
// instance-delete-releases-later.
export const UNRELEASED = 'ips_unreleased';

// ---------------------------------------------------------------------------------------------- helpers

/** An address of the private pools: RFC 1918's, or (variation private-ipv4-shared-space) RFC 6598's shared space. */
export const isPrivate4 = (a: string) => ['private', 'carrierGradeNat'].includes(ipaddr.IPv4.parse(a).range());
export const slaacOf = (inst: Instance): string | null => (inst.ipv6 ? norm6(inst.ipv6.replace(/\/\d+$/, '')) : null);

export function norm6(a: string): string {
  return ipaddr.IPv6.parse(a).toString();
}

function defaultRdns(address: string): string {
  return `${address.replace(/\./g, '-')}.ip.${DEFAULT_RDNS_DOMAIN}`;
}

export function ipObject(store: Store, inst: Instance, address: string): IpAddress {
  const set = store.table<string | null>(RDNS);
  if (address.includes(':')) {
    return {
      address,
      gateway: 'fe80::1',
      subnet_mask: 'ffff:ffff:ffff:ffff::',
      prefix: 64,
      type: 'ipv6',
      public: true,
      rdns: set.get(address) ?? null,
      compute_id: inst.id,
      region: inst.region,
    };
  }
  const priv = isPrivate4(address);
  const octets = address.split('.');
  return {
    address,
    gateway: priv ? null : `${octets.slice(0, 3).join('.')}.1`,
    subnet_mask: priv ? '255.255.128.0' : '255.255.255.0',
    prefix: priv ? 17 : 24,
    type: 'ipv4',
    public: !priv,
    // Under the variation the default name is shown as null (it applies in DNS only).
    rdns: priv ? null : (set.get(address) ?? (varied(store, 'rdns-default-null') ? null : defaultRdns(address))),
    compute_id: inst.id,
    region: inst.region,
  };
}

export function ownerOf4(store: Store, address: string): Instance | undefined {
  return listInstances(store).find((i) => i.ipv4.includes(address));
}

export function ownerBySlaac(store: Store, slaac: string | null): Instance | undefined {
  if (!slaac) return undefined;
  return listInstances(store).find((i) => slaacOf(i) === slaac);
}

/** Under the fault P2.instances.delete.releases-ips: the deleted instance still holding the address (IPv4 or SLAAC). */
export function keptHolder(store: Store, address: string): Instance | undefined {
  if (!faulty(store, 'P2.instances.delete.releases-ips')) return undefined;
  return [...store.table<Instance>(UNRELEASED).values()].find((i) => i.ipv4.includes(address) || slaacOf(i) === address);
}

export function ranges(store: Store): Map<string, Ipv6Range> {
  return store.table<Ipv6Range>(RANGES);
}

/** Parses an IPv6 range written without (or, where allowed, with) its prefix length; undefined when invalid. */
export function parseRange(raw: string): { range: string; prefix: number | null } | undefined {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(raw);
  if (!m || !ipaddr.IPv6.isValid(m[1]!)) return undefined;
  return { range: norm6(m[1]!), prefix: m[2] === undefined ? null : Number(m[2]) };
}

export function visibleRange(ctx: RequestContext, r: Ipv6Range, level: 'read_only' | 'read_write'): boolean {
  const owner = ownerBySlaac(ctx.store, r.route_target);
  return owner ? canAccess(ctx.principal, 'compute', owner.id, level) : !ctx.principal?.restricted;
}

export function extraEnabled(inst: Instance): boolean {
  return inst.tags.includes(EXTRA_IPV4_TAG);
}

// ---------------------------------------------------------------------------------------------- allocation

/** Under the variation ip-allocate-runs-a-while: instance id → the addresses allocated to it and not shown on it yet. */
const ALLOCATING = 'ips_allocating';
/** Under the variation ip-allocate-runs-a-while, how long an allocation runs before the instance shows the address. */
const ALLOCATION_RUNS_MS = 60_000;

/** The addresses allocated to the instance that it does not show yet (ip-allocate-runs-a-while); they count toward its one private address. */
export function allocating(store: Store, instanceId: number): string[] {
  return store.table<string[]>(ALLOCATING).get(String(instanceId)) ?? [];
}

/** A deleted instance's allocations still running go with it (an instance given its id since, ids-reused, has none). */
export function forgetAllocations(store: Store, instanceId: number): void {
  store.table<string[]>(ALLOCATING).delete(String(instanceId));
}

/**
 * An allocation that runs a while (the variation ip-allocate-runs-a-while): answered with the new address's object at
 * once, the instance (still there) shows the address a simulated minute later.
 */
export function allocateLater(store: Store, inst: Instance, address: string): IpAddress {
  const key = String(inst.id);
  store.table<string[]>(ALLOCATING).set(key, [...allocating(store, inst.id), address]);
  store.schedule(new Date(store.now().getTime() + ALLOCATION_RUNS_MS), (later) => {
    const left = allocating(later, inst.id).filter((a) => a !== address);
    if (left.length) later.table<string[]>(ALLOCATING).set(key, left);
    else later.table<string[]>(ALLOCATING).delete(key);
    // (an instance deleted meanwhile shows nothing, nor one given its id since: ids-reused)
    const shown = getInstance(later, inst.id);
    if (shown !== inst) return;
    shown.ipv4 = [...shown.ipv4, address];
    shown.updated = later.nowIso();
  });
  return ipObject(store, inst, address);
}
