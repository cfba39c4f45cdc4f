import { createPrivateKey, createPublicKey } from 'node:crypto';
import fc from 'fast-check';
import { holds } from '../context.js';
import type { BodyContext } from '../types.js';
import { ipv4, ipv4HostCidr, notCidr } from './net.js';
import { matching } from './text.js';

/** Compute pieces of request bodies (document 2): device maps, network interfaces, SSH public keys. */

export const SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const;
export type Slot = (typeof SLOTS)[number];
/** Slots that may name a device in `fullvirt` mode; sde..sdh are left out there (a server may refuse them even as null). */
export const FULLVIRT_SLOTS: readonly Slot[] = ['sda', 'sdb', 'sdc', 'sdd'];
/** Rescue takes sda..sdg; sdh is reserved. */
export const RESCUE_SLOTS: readonly Slot[] = SLOTS.filter((slot) => slot !== 'sdh');

type Json = Record<string, unknown>;

/** A slot naming no device: null, or an object with a null member (not {}: "an object with disk_id … or volume_id …"). */
const emptySlot = () => fc.constantFrom<unknown>(null, { disk_id: null }, { volume_id: null }, { disk_id: null, volume_id: null });

/**
 * A device map over `slots` (each slot present or not, the map often empty); at most one slot of `deviceSlots`
 * holds the context's disk. The context has no volume, so no slot names a volume_id (a made-up id would be
 * rejected by the server as unknown). Slots outside `deviceSlots` are null when present: the schema takes only
 * null there, not an empty slot object.
 */
export function deviceMap(context: BodyContext, slots: readonly Slot[] = SLOTS, deviceSlots: readonly Slot[] = slots): fc.Arbitrary<Json> {
  const members = Object.fromEntries(slots.map((slot) => [slot, deviceSlots.includes(slot) ? emptySlot() : fc.constant(null)]));
  // (no disk where the context holds none: its file could not make one)
  const diskSlot = holds(context, 'diskId') ? fc.option(fc.constantFrom(...deviceSlots), { nil: null }) : fc.constant(null);
  const disk = holds(context, 'diskId') ? deviceSlot(context) : fc.constant(null);
  return fc.tuple(fc.record(members, { requiredKeys: [] }), diskSlot, disk).map(([map, slot, device]) => ({
    ...map,
    ...(slot ? { [slot]: device } : {}),
  }));
}

/** A slot that names both a disk and a volume (breaks "only one type per slot"). */
export function twoTypeSlot(context: BodyContext): fc.Arbitrary<Json> {
  const diskId = context.diskId;
  return fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((volumeId) => ({ disk_id: diskId, volume_id: volumeId }));
}

/** A slot that names a device (to put where no device may be: sde..sdh in fullvirt, sdh in rescue). */
export function deviceSlot(context: BodyContext): fc.Arbitrary<Json> {
  return fc.constantFrom<Json>({ disk_id: context.diskId }, { disk_id: context.diskId, volume_id: null });
}

// ---------------------------------------------------------------- network interfaces

export interface NetworkInterface {
  purpose?: unknown;
  label?: unknown;
  ipam_address?: unknown;
}

const VLAN_LABEL = /^[A-Za-z0-9-]*$/;

/**
 * The VLAN labels valid bodies use: a fixed pool of three (one exactly 64 characters long), because every new
 * label creates a VLAN and a region holds at most 10. Prefixed when the prefix is itself VLAN-label text; the
 * 1-character minimum cannot carry a prefix and is not hit.
 */
function vlanLabels(context: BodyContext): [string, string, string] {
  const prefix = VLAN_LABEL.test(context.labelPrefix) ? context.labelPrefix : '';
  const long = `${prefix}vlan-`.padEnd(64, 'x');
  return [`${prefix}vlan1`, `${prefix}vlan2`, long];
}

const publicInterface = (): fc.Arbitrary<NetworkInterface> =>
  fc.record({ purpose: fc.constant('public'), label: fc.constantFrom(null, ''), ipam_address: fc.constantFrom(null, '') }, { requiredKeys: ['purpose'] });

/**
 * `count` vlan interfaces with distinct labels of the pool and distinct ipam addresses (each sometimes absent or null:
 * never empty, which the documents name for public interfaces only).
 */
function vlanInterfaces(context: BodyContext, count: number): fc.Arbitrary<NetworkInterface[]> {
  const labels = fc.shuffledSubarray(vlanLabels(context), { minLength: count, maxLength: count });
  const addresses = fc.uniqueArray(ipv4HostCidr(), { minLength: count, maxLength: count, selector: (cidr) => cidr.split('/')[0] });
  const forms = fc.array(fc.constantFrom('cidr', 'absent', 'null'), { minLength: count, maxLength: count });
  return fc.tuple(labels, addresses, forms).map(([names, cidrs, kinds]) =>
    names.map((label, i) => {
      const ipam = { cidr: cidrs[i], absent: undefined, null: null }[kinds[i]!];
      return ipam === undefined ? { purpose: 'vlan', label } : { purpose: 'vlan', label, ipam_address: ipam };
    }),
  );
}

/**
 * A valid interfaces array: 0..3 items, at most one public (usually eth0), vlan items only when `vlans` (the
 * caller knows whether the region supports VLANs).
 */
export function interfaces(context: BodyContext, vlans = true): fc.Arbitrary<NetworkInterface[]> {
  return fc
    .record({ withPublic: fc.boolean(), publicFirst: fc.boolean(), vlanCount: fc.integer({ min: 0, max: vlans ? 3 : 0 }) })
    .chain(({ withPublic, publicFirst, vlanCount }) => {
      const count = withPublic ? Math.min(vlanCount, 2) : vlanCount;
      return fc
        .tuple(withPublic ? publicInterface().map((item) => [item]) : fc.constant([]), vlanInterfaces(context, count))
        .map(([pub, vlan]) => (publicFirst ? [...pub, ...vlan] : [...vlan, ...pub]));
    });
}

/** Whether an interfaces array has a vlan item (the body then needs a VLAN-capable region). */
export function hasVlan(items: unknown): boolean {
  return Array.isArray(items) && items.some((item) => (item as NetworkInterface | null)?.purpose === 'vlan');
}

/**
 * Whether an interfaces array has an item that is not public: a vlan item, or one whose purpose is missing or another
 * value, which a server that does not judge purpose may take for a vlan item (then only a VLAN-capable region tells it
 * from a correct server, both refusing it elsewhere naming its purpose).
 */
export function mayHoldVlan(items: unknown): boolean {
  return Array.isArray(items) && items.some((item) => (item as NetworkInterface | null)?.purpose !== 'public');
}

/** One way an interfaces array breaks a rule: the rule, the member at fault (dot path inside the array, '' for the array). */
export interface BadInterfaces {
  rule: string;
  field: string;
  arbitrary: (context: BodyContext) => fc.Arbitrary<NetworkInterface[]>;
}

const vlanLabelChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-');
const vlanLabelOf = (min: number, max: number) => fc.string({ unit: vlanLabelChars, minLength: min, maxLength: max });
const oneVlan = (context: BodyContext) => vlanInterfaces(context, 1).map(([item]) => item!);
/** `items` followed by a valid public interface half the time (it never breaks a vlan rule). */
const thenMaybePublic = (items: fc.Arbitrary<NetworkInterface[]>) =>
  fc.tuple(items, fc.option(publicInterface(), { nil: null })).map(([list, pub]) => (pub ? [...list, pub] : list));

/** A vlan interface with its label replaced by `label`. */
const vlanWithLabel = (context: BodyContext, label: fc.Arbitrary<unknown>) =>
  fc.tuple(oneVlan(context), label).map(([item, value]) => ({ ...item, label: value }));

/** Whether the given CIDRs of an array are all different addresses (the uniqueness check ignores the mask). */
function distinctAddresses(items: NetworkInterface[]): boolean {
  const addresses = items.map((item) => item.ipam_address).filter((ipam): ipam is string => typeof ipam === 'string' && ipam !== '');
  return new Set(addresses.map((cidr) => cidr.split('/')[0])).size === addresses.length;
}

export const badInterfaces: BadInterfaces[] = [
  {
    rule: 'P2.interfaces.max-3',
    field: '',
    arbitrary: (context) => fc.tuple(publicInterface(), vlanInterfaces(context, 3)).map(([pub, vlan]) => [pub, ...vlan]),
  },
  {
    rule: 'P2.interfaces.purpose.required',
    field: '0.purpose',
    arbitrary: (context) => thenMaybePublic(oneVlan(context).map(({ purpose: _purpose, ...rest }) => [rest])),
  },
  {
    rule: 'P2.interfaces.purpose.enum',
    field: '0.purpose',
    arbitrary: (context) =>
      thenMaybePublic(fc.tuple(oneVlan(context), fc.constantFrom('private', 'vpc', '', 'lan')).map(([item, purpose]) => [{ ...item, purpose }])),
  },
  {
    rule: 'P2.interfaces.label.required-for-vlan',
    field: '0.label',
    arbitrary: (context) =>
      thenMaybePublic(fc.tuple(oneVlan(context), fc.boolean()).map(([{ label: _label, ...rest }, asNull]) => [asNull ? { ...rest, label: null } : rest])),
  },
  { rule: 'P2.interfaces.label.min-1', field: '0.label', arbitrary: (context) => thenMaybePublic(vlanWithLabel(context, fc.constant('')).map((i) => [i])) },
  {
    rule: 'P2.interfaces.label.max-64',
    field: '0.label',
    arbitrary: (context) => thenMaybePublic(vlanWithLabel(context, fc.oneof(vlanLabelOf(65, 65), vlanLabelOf(65, 100))).map((i) => [i])),
  },
  {
    rule: 'P2.interfaces.label.chars',
    field: '0.label',
    arbitrary: (context) =>
      thenMaybePublic(
        vlanWithLabel(
          context,
          fc.tuple(vlanLabelOf(0, 30), fc.constantFrom('_', '.', ' ', '!', '/', 'é', '@'), vlanLabelOf(0, 30)).map(([head, bad, rest]) => head + bad + rest),
        ).map((i) => [i]),
      ),
  },
  {
    rule: 'P2.interfaces.label.unique',
    // either of the two equal labels is at fault
    field: '*.label',
    arbitrary: (context) => thenMaybePublic(vlanInterfaces(context, 2).map(([first, second]) => [first!, { ...second, label: first!.label }])),
  },
  {
    rule: 'P2.interfaces.label.empty-for-public',
    field: '0.label',
    arbitrary: (context) =>
      fc
        .tuple(publicInterface(), vlanLabelOf(1, 64), fc.option(oneVlan(context), { nil: null }))
        .map(([pub, label, vlan]) => (vlan ? [{ ...pub, label }, vlan] : [{ ...pub, label }])),
  },
  {
    rule: 'P2.interfaces.ipam-address.cidr',
    field: '0.ipam_address',
    arbitrary: (context) => thenMaybePublic(fc.tuple(oneVlan(context), fc.oneof(notCidr(), ipv4())).map(([item, ipam]) => [{ ...item, ipam_address: ipam }])),
  },
  {
    rule: 'P2.interfaces.ipam-address.vlan-only',
    field: '0.ipam_address',
    arbitrary: (context) =>
      fc
        .tuple(publicInterface(), ipv4HostCidr(), fc.option(oneVlan(context), { nil: null }))
        .map(([pub, ipam, vlan]) => (vlan ? [{ ...pub, ipam_address: ipam }, vlan] : [{ ...pub, ipam_address: ipam }]))
        .filter(distinctAddresses),
  },
  {
    // Identical text: the emulator compares the strings, the schema the addresses; both agree on this.
    rule: 'P2.interfaces.ipam-address.unique',
    field: '*.ipam_address',
    arbitrary: (context) =>
      thenMaybePublic(
        fc.tuple(vlanInterfaces(context, 2), ipv4HostCidr()).map(([[first, second], ipam]) => [
          { ...first, ipam_address: ipam },
          { ...second, ipam_address: ipam },
        ]),
      ),
  },
  {
    rule: 'P2.interfaces.public.max-1',
    field: '*.purpose',
    arbitrary: (context) =>
      fc
        .tuple(publicInterface(), publicInterface(), fc.option(oneVlan(context), { nil: null }))
        .map(([first, second, vlan]) => (vlan ? [first, second, vlan] : [first, second])),
  },
];

// ---------------------------------------------------------------- SSH keys

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 public key of a 32-byte seed: a point on the curve, as a server parsing keys may require. */
function ed25519PublicKey(seed: Uint8Array): Buffer {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  return Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url');
}

/** A valid ssh-ed25519 public key line (the key of a drawn seed, example comment). */
export function sshPublicKey(): fc.Arbitrary<string> {
  const lengthPrefixed = (bytes: Uint8Array) => {
    const out = new Uint8Array(4 + bytes.length);
    new DataView(out.buffer).setUint32(0, bytes.length);
    out.set(bytes, 4);
    return out;
  };
  return fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), matching(/^[a-z]{1,8}@example\.com$/)).map(([seed, comment]) => {
    const blob = Buffer.concat([lengthPrefixed(new TextEncoder().encode('ssh-ed25519')), lengthPrefixed(ed25519PublicKey(seed))]);
    return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
  });
}
