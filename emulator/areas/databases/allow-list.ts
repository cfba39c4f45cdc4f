// The allow list of a managed database cluster (document 1, "Managed databases"): IPv4 or IPv6 addresses or CIDR
// ranges, a single address kept with its full prefix length.
import ipaddr from 'ipaddr.js';
import type { Store } from '../../core/store.js';
import { fail, isIpv4Text, optArray } from '../../core/validate.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

/** An IP address or CIDR range, normalised as responses show it (single addresses get a prefix length). */
function normaliseIpOrCidr(store: Store, value: string): string | null {
  const slash = value.indexOf('/');
  const addr = slash < 0 ? value : value.slice(0, slash);
  const prefix = slash < 0 ? null : value.slice(slash + 1);
  let max: number;
  if (isIpv4Text(store, addr)) max = 32;
  else if (!addr.includes('%') && ipaddr.IPv6.isValid(addr)) max = 128;
  else return null;
  if (prefix === null) return `${addr}/${max}`;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return null;
  return `${addr}/${Number(prefix)}`;
}

/** Address ranges (ipaddr.js names) no connection comes from: the allow-list-unicast-only variation refuses them. */
const NO_SOURCE = ['unspecified', 'loopback', 'multicast', 'broadcast', 'linkLocal', 'reserved'];

/** Whether the allow-list-unicast-only variation takes an entry: a unicast address, or a network of /8 (/16) or narrower. */
function unicastEntry(entry: string): boolean {
  const [addr, prefix] = entry.split('/');
  const parsed = ipaddr.parse(addr!);
  return !NO_SOURCE.includes(parsed.range()) && Number(prefix) >= (parsed.kind() === 'ipv4' ? 8 : 16);
}

/** An entry as the allow-list-rewritten variation keeps it: the address in its canonical text (RFC 5952 for IPv6). */
function rewritten(entry: string): string {
  const [addr, prefix] = entry.split('/');
  if (!ipaddr.isValid(addr!)) return entry;
  const parsed = ipaddr.parse(addr!);
  return `${parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).toRFC5952String() : parsed.toString()}/${prefix}`;
}

/** The allow_list member of a create or update body, checked and as the cluster keeps it (undefined: absent). */
export function allowList(store: Store, o: Record<string, unknown>): string[] | undefined {
  const items = optArray(o, 'allow_list');
  if (items === undefined) return undefined;
  const entries = checkedAllowList(store, items);
  return varied(store, 'allow-list-rewritten') ? [...new Set(entries.map(rewritten))] : entries;
}

function checkedAllowList(store: Store, items: unknown[]): string[] {
  return items.map((item, i) => {
    const field = `allow_list.${i}`;
    if (typeof item !== 'string') fail(`${field} must be a string holding an IP address or a CIDR range.`, field);
    if (faulty(store, 'P1.database.allow-list.ip-or-cidr')) return item;
    const normal = normaliseIpOrCidr(store, item);
    if (normal !== null && !item.includes('/') && faulty(store, 'P1.database.allow-list.slash-32')) return item;
    if (normal === null)
      fail(`${field} (${JSON.stringify(item.slice(0, 64))}) is not a valid IP address or CIDR range, e.g. 203.0.113.5 or 192.0.2.0/24.`, field);
    if (varied(store, 'allow-list-ipv4-only') && normal.includes(':')) fail(`${field} (${item}) must be an IPv4 address or network.`, field);
    if (varied(store, 'allow-list-unicast-only') && !unicastEntry(normal))
      fail(`${field} (${item}) must be a unicast address or a network of at most /8 (IPv4) or /16 (IPv6).`, field);
    return normal;
  });
}

/** Under the variation allow-list-changes-spaced: when (store time, ms) each cluster's allow list was last changed. */
const lastChanged = new WeakMap<object, number>();

/**
 * An accepted allow-list change of `cluster`; under allow-list-changes-spaced ("rapid successive updates are
 * unsuitable") one within a simulated minute of the last is refused (409) instead.
 */
export function allowListChange(store: Store, cluster: object): void {
  if (!varied(store, 'allow-list-changes-spaced')) return;
  const now = store.now().getTime();
  if (now < (lastChanged.get(cluster) ?? -Infinity) + 60_000)
    fail('The allow list was changed less than a minute ago and is still being applied; change it again in a minute.', null, 409);
  lastChanged.set(cluster, now);
}
