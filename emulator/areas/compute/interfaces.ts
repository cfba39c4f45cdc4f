// Network interfaces of instances and configuration profiles, and the VLANs they create and attach.
import ipaddr from 'ipaddr.js';
import type { Store } from '../../core/store.js';
import { asObject, fail, optArray, optString, reqString } from '../../core/validate.js';
import { getInstance } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { states, vlanGhosts, vlans, type Iface } from './model.js';

const VLAN_LABEL = /^[A-Za-z0-9-]*$/;
export const vlanKey = (region: string, label: string) => `${region}\u0000${label}`;

function isCidr(s: string): boolean {
  if (!s.includes('/')) return false;
  return ipaddr.IPv4.isValidCIDRFourPartDecimal(s) || ipaddr.IPv6.isValidCIDR(s);
}

/** Under ipam-private-hosts: a private (RFC 1918) IPv4 host address with a netmask of 8..30 bits. */
function isPrivateHost(s: string): boolean {
  if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(s)) return false;
  const [address, bits] = ipaddr.IPv4.parseCIDR(s);
  const own = address.toString();
  return (
    address.range() === 'private' &&
    bits >= 8 &&
    bits <= 30 &&
    own !== ipaddr.IPv4.networkAddressFromCIDR(s).toString() &&
    own !== ipaddr.IPv4.broadcastAddressFromCIDR(s).toString()
  );
}

/**
 * Interfaces of instance create and of configuration profile create/update. Validates everything first and
 * returns the VLAN labels that do not exist yet in the region; the caller creates them with `createVlans` only
 * once the whole request is valid.
 */
export function interfacesOf(
  store: Store,
  o: Record<string, unknown>,
  region: string,
  key = 'interfaces',
  /** Interfaces of the instance's other profiles: labels and ipam_address unique among them too, under the variation. */
  elsewhere: Iface[] = [],
  /** A profile update (the faults ~update let one hold a vlan interface in any region, or past the region's limit). */
  updating = false,
): { list: Iface[]; newVlans: string[] } | undefined {
  const arr =
    faulty(store, 'P2.interfaces.types') && !Array.isArray(o[key]) ? undefined : optArray(o, key, { max: faulty(store, 'P2.interfaces.max-3') ? 8 : 3 });
  if (arr === undefined || arr === null) return undefined;
  // Under the variation vlan-region-checked-first a vlan item in a region without VLANs is refused before any item is
  // (the fault P2.interfaces.vlan.capable-regions takes it there as it does later).
  const firstVlan = arr.findIndex((raw) => (raw as Record<string, unknown> | null)?.['purpose'] === 'vlan');
  const vlansAnywhere = faulty(store, 'P2.interfaces.vlan.capable-regions') || (updating && faulty(store, 'P2.interfaces.vlan.capable-regions~update'));
  if (firstVlan >= 0 && varied(store, 'vlan-region-checked-first') && !vlansAnywhere && !store.regions.find((r) => r.id === region)?.vlans)
    fail(`VLANs are not available in region ${region}`, `${key}.${firstVlan}.purpose`);
  const list: Iface[] = [];
  arr.forEach((raw, i) => {
    const path = `${key}.${i}`;
    // The item a clash is reported on: this one, or under the variation the earlier one it clashes with.
    const clashing = (earlier: number) => (varied(store, 'duplicates-name-first') ? `${key}.${earlier}` : path);
    const item = asObject(raw, path);
    const purpose = (
      (faulty(store, 'P2.interfaces.purpose.required') && item.purpose === undefined) ||
      (faulty(store, 'P2.interfaces.purpose.enum') && typeof item.purpose === 'string' && item.purpose !== 'public')
        ? 'vlan'
        : reqString(item, 'purpose', { enum: ['public', 'vlan'], path })
    ) as Iface['purpose'];
    const emptyOrNull = (k: string) => {
      const v = item[k];
      if (v !== undefined && v !== null && v !== '') fail(`${k} must be empty or null for a public interface`, `${path}.${k}`);
    };
    if (purpose === 'public') {
      if (!faulty(store, 'P2.interfaces.label.empty-for-public')) emptyOrNull('label');
      if (!faulty(store, 'P2.interfaces.ipam-address.vlan-only')) emptyOrNull('ipam_address');
      if (list.some((x) => x.purpose === 'public') && !faulty(store, 'P2.interfaces.public.max-1'))
        fail('Only one public interface is allowed per instance', `${clashing(list.findIndex((x) => x.purpose === 'public'))}.purpose`);
      list.push({ purpose, label: null, ipam_address: null });
      return;
    }
    const label =
      faulty(store, 'P2.interfaces.label.required-for-vlan') && item.label == null
        ? 'default'
        : reqString(item, 'label', {
            min: faulty(store, 'P2.interfaces.label.min-1') ? 0 : 1,
            max: faulty(store, 'P2.interfaces.label.max-64') ? 128 : 64,
            pattern: faulty(store, 'P2.interfaces.label.chars') ? undefined : VLAN_LABEL,
            patternReason: 'VLAN label must be 1..64 ASCII letters, digits or dashes',
            path,
          });
    let ipam = optString(item, 'ipam_address', { nullable: true, path }) ?? null;
    if (ipam === '' && varied(store, 'vlan-ipam-cidr-or-nothing'))
      fail('ipam_address of a vlan interface must be in CIDR form IP/netmask, or left out', `${path}.ipam_address`);
    if (ipam === '') ipam = null;
    if (ipam !== null && !isCidr(ipam) && !faulty(store, 'P2.interfaces.ipam-address.cidr'))
      fail('ipam_address must be in CIDR form IP/netmask, e.g. 10.0.0.1/24', `${path}.ipam_address`);
    // The variation narrows which CIDR values are taken: text not in CIDR form (let through by the fault) is not its to refuse.
    if (ipam !== null && isCidr(ipam) && varied(store, 'ipam-private-hosts') && !isPrivateHost(ipam))
      fail('ipam_address must be a private IPv4 host address with its netmask, e.g. 10.0.0.1/24', `${path}.ipam_address`);
    const taken = (member: 'label' | 'ipam_address', value: string) =>
      varied(store, 'interface-labels-unique-per-instance') && elsewhere.some((x) => x[member] === value);
    if (taken('label', label)) fail(`Interface label ${label} is in use by another profile of the instance`, `${path}.label`);
    if (ipam !== null && taken('ipam_address', ipam)) fail(`ipam_address ${ipam} is in use by another profile of the instance`, `${path}.ipam_address`);
    if (list.some((x) => x.label === label) && !faulty(store, 'P2.interfaces.label.unique'))
      fail("Interface labels must be unique among the instance's interfaces", `${clashing(list.findIndex((x) => x.label === label))}.label`);
    if (ipam !== null && list.some((x) => x.ipam_address === ipam) && !faulty(store, 'P2.interfaces.ipam-address.unique'))
      fail("ipam_address must be unique among the instance's interfaces", `${clashing(list.findIndex((x) => x.ipam_address === ipam))}.ipam_address`);
    list.push({ purpose, label, ipam_address: ipam });
  });
  const vlanIfaces = list.map((x, i) => ({ x, i })).filter(({ x }) => x.purpose === 'vlan');
  if (vlanIfaces.length === 0) return { list, newVlans: [] };
  const reg = store.regions.find((r) => r.id === region);
  if (!reg?.vlans && !vlansAnywhere) fail(`VLANs are not available in region ${region}`, `${key}.${vlanIfaces[0]!.i}.purpose`);
  const newVlans: string[] = [];
  const limit = updating && faulty(store, 'P2.interfaces.vlan.max-10-per-region~update') ? Infinity : vlansPerRegion(store);
  let inRegion = 0;
  for (const v of vlans(store).values()) if (v.region === region) inRegion++;
  for (const { x, i } of vlanIfaces) {
    if (vlans(store).has(vlanKey(region, x.label!))) continue;
    newVlans.push(x.label!);
    if (inRegion + newVlans.length > limit) fail(`At most ${limit} VLANs can exist in region ${region}`, `${key}.${i}.label`);
  }
  return { list, newVlans };
}

/** How many VLANs a region may hold (instance create, profile writes and clones alike). */
export function vlansPerRegion(store: Store): number {
  return faulty(store, 'P2.interfaces.vlan.max-10-per-region') ? 20 : 10;
}

export function createVlans(store: Store, region: string, labels: string[]): void {
  if (faulty(store, 'P2.interfaces.label.new-creates-vlan')) return;
  for (const label of labels) vlans(store).set(vlanKey(region, label), { label, region, created: store.nowIso() });
}

/** VLANs of the account with the instances whose interfaces in effect attach them. */
export function listVlans(store: Store): { label: string; region: string; created: string; computes: number[] }[] {
  const members = new Map<string, number[]>();
  const attached = [...states(store).values()].flatMap((st) => {
    const inst = getInstance(store, st.id);
    return inst ? [{ id: inst.id, region: inst.region, interfaces: st.activeInterfaces }] : [];
  });
  for (const { id, region, interfaces } of [...attached, ...vlanGhosts(store).values()]) {
    for (const i of interfaces) {
      if (i.purpose !== 'vlan' || i.label === null) continue;
      const key = vlanKey(region, i.label);
      const list = members.get(key) ?? [];
      if (!list.includes(id)) list.push(id);
      members.set(key, list);
    }
  }
  return [...vlans(store).entries()].map(([key, v]) => ({
    label: v.label,
    region: v.region,
    created: v.created,
    computes: (members.get(key) ?? []).sort((a, b) => a - b),
  }));
}
