// Document 3, "Firewalls": the stored firewalls and their devices, how a device is shown, and the one rule across
// them (an instance has at most one enabled firewall).
import { type EventEntity } from '../../core/events.js';
import type { Store } from '../../core/store.js';
import { instanceEntity, type Instance } from '../../core/entities.js';
import { fail } from '../../core/validate.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

export interface FirewallRule {
  action: 'ACCEPT' | 'DROP';
  protocol: 'TCP' | 'UDP' | 'ICMP';
  ports?: string;
  addresses: { ipv4: string[]; ipv6: string[] };
  label?: string;
  description?: string;
}

export interface FirewallRules {
  inbound: FirewallRule[];
  inbound_policy: 'ACCEPT' | 'DROP';
  outbound: FirewallRule[];
  outbound_policy: 'ACCEPT' | 'DROP';
}

export interface Firewall {
  id: number;
  label: string;
  status: 'enabled' | 'disabled';
  tags: string[];
  rules: FirewallRules;
  created: string;
  updated: string;
}

export interface FirewallDevice {
  id: number;
  entity: { id: number; label: string; type: 'compute'; url: string };
  created: string;
  updated: string;
}

const FIREWALLS = 'firewalls';
export const DEVICES = 'firewall_devices'; // firewall id → its devices
export const DELETED_HOLDING = 'firewall_deleted_holding'; // under the faults frees-instances and held-after-device-removal: instance id → the firewall it left
// under the variation firewall-delete-releases-later: instance id → the deleted firewall still holding it, until when (store ms)
export const RELEASING = 'firewall_releasing';
/** Under the variation firewall-delete-releases-later, how long a deleted enabled firewall still holds its instances. */
export const RELEASE_MS = 60_000;
export const MAX_RULES = 25;

export function firewalls(store: Store): Map<string, Firewall> {
  return store.table<Firewall>(FIREWALLS);
}

export function devicesOf(store: Store, firewallId: number): FirewallDevice[] {
  const t = store.table<FirewallDevice[]>(DEVICES);
  let list = t.get(String(firewallId));
  if (!list) {
    list = [];
    t.set(String(firewallId), list);
  }
  return list;
}

/** The lowest id no firewall holds (variation firewall-ids-reused). */
export function lowestFreeId(held: Map<string, Firewall>): number {
  let id = 1;
  while (held.has(String(id))) id++;
  return id;
}

function firewallsOfInstance(store: Store, instanceId: number): Firewall[] {
  return [...firewalls(store).values()].filter((f) => devicesOf(store, f.id).some((d) => d.entity.id === instanceId));
}

/** When an instance is deleted: its device entries go away (no events). */
export function removeInstanceFromFirewalls(store: Store, instanceId: number): void {
  for (const [key, list] of store.table<FirewallDevice[]>(DEVICES)) {
    const kept = list.filter((d) => d.entity.id !== instanceId);
    if (kept.length !== list.length) store.table<FirewallDevice[]>(DEVICES).set(key, kept);
  }
}

/** When an instance is deleted: no deleted firewall holds it any more (an instance given its id since, ids-reused, is another). */
export function releaseDeletedInstance(store: Store, instanceId: number): void {
  removeInstanceFromFirewalls(store, instanceId);
  store.table(DELETED_HOLDING).delete(String(instanceId));
  store.table(RELEASING).delete(String(instanceId));
}

/** A new device's id: the next, or under ids-reused the lowest no device of any firewall holds; never `avoided`. */
function newDeviceId(store: Store, avoided?: number): number {
  let held: Set<number> | undefined;
  const devices = () => new Set([...store.table<FirewallDevice[]>(DEVICES).values()].flatMap((list) => list.map((d) => d.id)));
  const taken = (n: number) => n === avoided || (held ??= devices()).has(n);
  let id = store.newId('firewall_device', taken);
  while (id === avoided) id = store.newId('firewall_device', taken);
  return id;
}

/** 400 when enabling `fw` on `instanceId` would give that instance a second enabled firewall. */
export function checkSingleEnabled(store: Store, instanceId: number, exceptFirewallId: number | null, field: string | null): void {
  const other =
    firewallsOfInstance(store, instanceId).find((f) => f.id !== exceptFirewallId && f.status === 'enabled')?.id ??
    (faulty(store, 'P3.firewall.delete.frees-instances') || faulty(store, 'P3.firewall.status.disabled-to-enabled~held-after-device-removal')
      ? store.table<number>(DELETED_HOLDING).get(String(instanceId))
      : undefined) ??
    releasingFirewall(store, instanceId);
  if (other !== undefined) {
    fail(`Compute instance ${instanceId} already has the enabled firewall ${other}; an instance can have only one enabled firewall (disable it first).`, field);
  }
}

/** Under the variation firewall-delete-releases-later: the deleted firewall whose rules are still being removed from the instance. */
function releasingFirewall(store: Store, instanceId: number): number | undefined {
  const held = store.table<{ firewallId: number; until: number }>(RELEASING).get(String(instanceId));
  return held && store.now().getTime() < held.until ? held.firewallId : undefined;
}

/**
 * A device as the responses show it: as stored, or under a variation its own id beside the instance's `compute_id`, or
 * the request's own form (the instance's id and type), or that form with the device's own id (no instance shown).
 */
export function deviceView(store: Store, d: FirewallDevice): unknown {
  switch (deviceForm(store)) {
    case 'compute-id':
      return { id: d.id, compute_id: d.entity.id, created: d.created, updated: d.updated };
    case 'typed-own-id':
      return { id: d.id, type: 'compute', compute_id: d.entity.id, created: d.created, updated: d.updated };
    case 'as-request':
      return { id: d.entity.id, type: 'compute', created: d.created, updated: d.updated };
    case 'own-id-only':
      return { id: d.id, type: 'compute', created: d.created, updated: d.updated };
    default:
      return d;
  }
}

/** Which of the device forms the responses show (the first of the variations switched on, as listed here). */
export function deviceForm(store: Store): 'compute-id' | 'typed-own-id' | 'as-request' | 'own-id-only' | 'stored' {
  if (varied(store, 'device-compute-id')) return 'compute-id';
  if (varied(store, 'device-typed-own-id')) return 'typed-own-id';
  if (varied(store, 'device-as-request')) return 'as-request';
  return varied(store, 'device-own-id-only') ? 'own-id-only' : 'stored';
}

export function entityOf(f: Firewall) {
  return { id: f.id, label: f.label, type: 'firewall', url: `/v4/networking/firewalls/${f.id}` };
}

/** A device event: the firewall its entity and the instance its second one, or the other way round under that variation. */
export function deviceEvent(store: Store, action: string, firewall: EventEntity, device: EventEntity) {
  return varied(store, 'firewall-device-events-instance-first')
    ? { action, entity: device, secondary_entity: firewall }
    : { action, entity: firewall, secondary_entity: device };
}

export function newDevice(store: Store, inst: Instance): FirewallDevice {
  const now = store.nowIso();
  const e = instanceEntity(inst);
  // Under device-own-id-only a device never shows its instance's id (it would read as the request's form).
  const id = newDeviceId(store, deviceForm(store) === 'own-id-only' ? inst.id : undefined);
  return { id, entity: { ...e, type: 'compute' }, created: now, updated: now };
}
