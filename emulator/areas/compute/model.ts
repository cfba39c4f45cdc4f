// The compute area's stored objects and tables: instances (shape in core/entities), their internal state,
// disks, configuration profiles, backups, VLANs, clone jobs, volumes and load balancers, with the small helpers
// every handler file uses.
import type { InstanceType, Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { asObject, fail } from '../../core/validate.js';
import { emitEvent } from '../../core/events.js';
import { canAccess } from '../../core/permissions.js';
import { DISKS_TABLE, getInstance, INSTANCES_TABLE, instanceEntity, stillCreating, type Disk, type Instance } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

export type { Disk, Instance };

/** Internal per-instance state that is not part of the response object. */
interface InstanceState {
  id: number;
  lastBootedConfig: number | null;
  /** Interfaces in effect (from creation, then from the last booted profile): VLAN membership follows them. */
  activeInterfaces: Iface[];
  rootPass: string | null;
  /** Incremented on every backups enable/cancel so stale scheduled auto backups do nothing. */
  backupGeneration: number;
  /** Simulated time (ms) the backup service was last cancelled while enrolled (variation backups-reenabled-after-a-day). */
  backupsCancelledAt?: number;
  /** Simulated time (ms) until which a shutdown still runs (variation shutdown-takes-a-minute). */
  shuttingDownUntil?: number;
  /** Interfaces a new instance takes at its first boot, still to come (variation vlan-joined-at-first-boot). */
  firstBootInterfaces?: Iface[];
}

export interface Iface {
  purpose: 'public' | 'vlan';
  label: string | null;
  ipam_address: string | null;
}

type Slot = { disk_id: number | null; volume_id: number | null } | null;
export const SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const;
export type SlotName = (typeof SLOTS)[number];
export type Devices = Record<SlotName, Slot>;

export interface Config {
  id: number;
  compute_id: number;
  label: string;
  comments: string | null;
  devices: Devices;
  /** Under the variation profile-defaults-null, devtmpfs_automount, root_device, run_level and virt_mode are null when not given. */
  helpers: { devtmpfs_automount: boolean | null; distro: boolean; modules_dep: boolean; network: boolean; updatedb_disabled: boolean };
  interfaces: Iface[];
  kernel: string;
  memory_limit: number;
  root_device: string | null;
  run_level: 'default' | 'single' | 'binbash' | null;
  virt_mode: 'paravirt' | 'fullvirt' | null;
  created: string;
  updated: string;
}

export interface BackupDisk {
  label: string;
  size: number;
  filesystem: Disk['filesystem'];
}
export interface BackupConfig {
  label: string;
  slots: Partial<Record<SlotName, number>>;
  kernel: string;
  run_level: Config['run_level'];
  virt_mode: Config['virt_mode'];
  interfaces: Iface[];
}

export interface Backup {
  id: number;
  compute_id: number;
  label: string | null;
  type: 'auto' | 'snapshot';
  status: 'pending' | 'successful';
  available: boolean;
  region: string;
  configs: string[];
  disks: BackupDisk[];
  created: string;
  updated: string;
  finished: string | null;
}

export interface Volume {
  id: number;
  label: string;
  region: string;
  size: number;
  status: 'creating' | 'active' | 'resizing' | 'contact_support';
  hardware_type: 'hdd' | 'nvme';
  filesystem_path: string;
  compute_id: number | null;
  compute_label: string | null;
  tags: string[];
  created: string;
  updated: string;
}

export interface Balancer {
  id: number;
  label: string;
  region: string;
  hostname: string;
  ipv4: string;
  ipv6: string | null;
  client_conn_throttle: number;
  transfer: { in: number | null; out: number | null; total: number | null };
  tags: string[];
  created: string;
  updated: string;
}

interface Vlan {
  label: string;
  region: string;
  created: string;
}
export interface CloneJob {
  id: number;
  source: number;
  /** null: a new instance the clone makes only when it completes (variation clone-instance-made-on-completion). */
  target: number | null;
}

export const T = {
  instances: INSTANCES_TABLE,
  state: 'compute.state',
  disks: DISKS_TABLE,
  configs: 'compute.configs',
  backups: 'compute.backups',
  vlans: 'compute.vlans',
  clones: 'compute.clones',
  volumes: 'compute.volumes',
  balancers: 'compute.balancers',
} as const;

export const instances = (s: Store) => s.table<Instance>(T.instances);
export const states = (s: Store) => s.table<InstanceState>(T.state);
export const configs = (s: Store) => s.table<Config>(T.configs);
export const backups = (s: Store) => s.table<Backup>(T.backups);
/** Lower-cased instance label → instance id, so uniqueness checks do not scan every instance. */
export const labels = (s: Store) => s.table<number>('compute.labels');

// Disks, profiles and backups belong to one instance; a per-instance index keeps their lookups independent of
// the size of the store.
type ChildTable = typeof T.disks | typeof T.configs | typeof T.backups;
type Child = { id: number; compute_id: number };
function childIndex(store: Store, table: ChildTable, computeId: number): Set<number> {
  const idx = store.table<Set<number>>(`${table}.byInstance`);
  let set = idx.get(String(computeId));
  if (!set) idx.set(String(computeId), (set = new Set()));
  return set;
}
export function addChild(store: Store, table: ChildTable, c: Child): void {
  store.table<Child>(table).set(String(c.id), c);
  childIndex(store, table, c.compute_id).add(c.id);
}
export function removeChild(store: Store, table: ChildTable, c: Child): void {
  store.table<Child>(table).delete(String(c.id));
  childIndex(store, table, c.compute_id).delete(c.id);
}
function childrenOf<C extends Child>(store: Store, table: ChildTable, computeId: number): C[] {
  const all = store.table<C>(table);
  return [...childIndex(store, table, computeId)].map((id) => all.get(String(id))!);
}
export const vlans = (s: Store) => s.table<Vlan>(T.vlans);
/** Deleted instances still attached to their VLANs (fault P3.vlan.detach). */
export const vlanGhosts = (s: Store) => s.table<{ id: number; region: string; interfaces: Iface[] }>('compute.vlan-ghosts');
export const clones = (s: Store) => s.table<CloneJob>(T.clones);

export function listVolumes(store: Store): Volume[] {
  return [...store.table<Volume>(T.volumes).values()];
}
export function getVolume(store: Store, id: number): Volume | undefined {
  return store.table<Volume>(T.volumes).get(String(id));
}
export function listBalancers(store: Store): Balancer[] {
  return [...store.table<Balancer>(T.balancers).values()];
}
export function getBalancer(store: Store, id: number): Balancer | undefined {
  return store.table<Balancer>(T.balancers).get(String(id));
}

/** 404 when absent or invisible to a restricted caller; 403 when visible read-only but read_write is needed. */
export function instanceOr404(ctx: RequestContext, id: string | number, level: 'read_only' | 'read_write'): Instance {
  const key = String(id);
  const inst = /^[0-9]{1,15}$/.test(key) ? instances(ctx.store).get(String(Number(key))) : undefined;
  if (!inst || !canAccess(ctx.principal, 'compute', inst.id, 'read_only')) fail('Not found: no such compute instance', null, 404);
  if (level === 'read_write' && !canAccess(ctx.principal, 'compute', inst.id, 'read_write')) {
    fail('You have read-only access to this compute instance; read_write is required', null, 403);
  }
  return inst;
}

export function stateOf(store: Store, id: number): InstanceState {
  let st = states(store).get(String(id));
  if (!st) {
    st = { id, lastBootedConfig: null, activeInterfaces: [], rootPass: null, backupGeneration: 0 };
    states(store).set(String(id), st);
  }
  return st;
}

export const disksOf = (store: Store, id: number) => childrenOf<Disk>(store, T.disks, id);
export const configsOf = (store: Store, id: number) => childrenOf<Config>(store, T.configs, id);
export const backupsOf = (store: Store, id: number) => childrenOf<Backup>(store, T.backups, id);
export const usedDisk = (store: Store, id: number) => disksOf(store, id).reduce((n, d) => n + d.size, 0);

/**
 * An instance is busy while a clone from or to it is in progress (the only long-running action emulated); under the
 * variation clone-source-free, only while a clone to it is.
 */
function isBusy(store: Store, id: number): boolean {
  const sourceFree = varied(store, 'clone-source-free');
  for (const c of clones(store).values()) if ((c.source === id && !sourceFree) || c.target === id) return true;
  return false;
}
/** Whether the instance has no running or queued action (its own create, a clone from or to it, a shutdown that takes a while). */
export function isIdle(store: Store, inst: Instance): boolean {
  const shuttingDown = (stateOf(store, inst.id).shuttingDownUntil ?? 0) > store.now().getTime();
  return !stillCreating(store, inst) && !isBusy(store, inst.id) && !shuttingDown;
}

export function requireIdle(store: Store, inst: Instance): void {
  if (!isIdle(store, inst)) fail(`Instance ${inst.id} has running or queued actions; wait for them to finish first`, null);
}

/** When a new instance deployed from an image or a backup first boots, under vlan-joined-at-first-boot. */
const FIRST_BOOT_MS = 2 * 60_000;

/**
 * Puts the interfaces of a new running instance in effect: at once, or (variation vlan-joined-at-first-boot) at its
 * first boot, two simulated minutes after its create (provisioning until then), unless a boot or a shutdown came first.
 */
export function activateAtFirstBoot(store: Store, inst: Instance, interfaces: Iface[]): void {
  const st = stateOf(store, inst.id);
  if (!varied(store, 'vlan-joined-at-first-boot')) {
    st.activeInterfaces = interfaces;
    return;
  }
  st.activeInterfaces = [];
  st.firstBootInterfaces = interfaces;
  inst.status = 'provisioning';
  store.schedule(new Date(Date.parse(inst.created) + FIRST_BOOT_MS), (s) => {
    // (an instance deleted meanwhile boots nothing, nor one given its id since: ids-reused)
    if (getInstance(s, inst.id) !== inst) return;
    const booting = stateOf(s, inst.id);
    if (booting.firstBootInterfaces && inst.status === 'provisioning') {
      inst.status = 'running';
      booting.activeInterfaces = booting.firstBootInterfaces;
    }
    delete booting.firstBootInterfaces;
  });
}

/** What is made on an instance at once, or a while later under a variation: that variation and the while. */
const MADE_LATER = {
  // A restore or a deploy from a backup copies before its target shows the copy.
  copy: { variation: 'copies-made-on-completion', ms: 5 * 60_000 },
  // An image deploy provisions before its default layout shows.
  layout: { variation: 'image-layout-when-provisioned', ms: 2 * 60_000 },
} as const;

/**
 * Makes on instance `targetId` what a restore or a deploy from a backup copies (`copy`), or an image deploy's default
 * profile and disks (`layout`): at once, or (under that kind's variation) once the copy or the provisioning completes,
 * if the instance is still there.
 */
export function makeOnInstance(store: Store, kind: keyof typeof MADE_LATER, targetId: number, make: (target: Instance) => void): void {
  // (the instance itself: not one given its id since, under ids-reused)
  const original = getInstance(store, targetId);
  const run = (s: Store) => {
    const target = getInstance(s, targetId);
    if (target && target === original) make(target);
  };
  const { variation, ms } = MADE_LATER[kind];
  if (varied(store, variation)) store.schedule(new Date(store.now().getTime() + ms), run);
  else run(store);
}

export function touch(store: Store, inst: Instance): void {
  inst.updated = store.nowIso();
}

export function emit(ctx: RequestContext, action: string, inst: Instance, secondary?: Instance, status: 'failed' | 'finished' | 'started' = 'finished'): void {
  const entity: Partial<ReturnType<typeof instanceEntity>> = instanceEntity(inst);
  if (faulty(ctx.store, 'P1.event.entity.members~compute')) delete entity.url;
  emitEvent(ctx.store, ctx.principal, {
    action,
    entity: entity as ReturnType<typeof instanceEntity>,
    secondary_entity: secondary ? instanceEntity(secondary) : null,
    status,
  });
}

export function body(ctx: RequestContext): Record<string, unknown> {
  return ctx.body === undefined ? {} : asObject(ctx.body);
}

export function typeById(store: Store, id: string): InstanceType {
  return store.instanceTypes.find((t) => t.id === id) ?? store.instanceTypes[0]!;
}

export const DAY_MS = 86_400_000;

/**
 * Under the variation instance-delete-releases-later, how long a deleted instance's IPv4 addresses stay allocated and
 * its backups usable (simulated time).
 */
export const RELEASE_RUNS_MS = 60_000;
