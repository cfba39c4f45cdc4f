// References to the entities other areas point at: compute instances and their disks. The compute area owns and
// writes these tables; the account, firewalls, images and ips areas read them through here, so that no area
// imports another one to look an instance or a disk up.
import type { Store } from './store.js';
import type { RequestContext } from './types.js';
import { canAccess } from './permissions.js';
import { fail } from './validate.js';
import { varied } from '../variations/index.js';

export interface Instance {
  id: number;
  label: string;
  region: string;
  type: string;
  status: string;
  image: string | null;
  ipv4: string[];
  ipv6: string | null;
  group: string;
  hypervisor: 'kvm';
  alerts: { cpu: number; io: number; network_in: number; network_out: number; transfer_quota: number };
  backups: { enabled: boolean; schedule: { day: string | null; window: string | null } };
  specs: { disk: number; memory: number; vcpus: number; transfer: number };
  tags: string[];
  created: string;
  updated: string;
  watchdog_enabled: boolean;
}

export interface Disk {
  id: number;
  compute_id: number;
  label: string;
  size: number;
  filesystem: 'ext4' | 'swap' | 'raw';
  status: 'ready';
  created: string;
  updated: string;
}

export const INSTANCES_TABLE = 'compute.instances';
export const DISKS_TABLE = 'compute.disks';

export function getInstance(store: Store, id: number): Instance | undefined {
  return store.table<Instance>(INSTANCES_TABLE).get(String(id));
}

/** Under the variation create-runs-a-while, how long an instance's create runs as an action of its own. */
const CREATE_RUNS_MS = 2 * 60_000;

/** The instances made by an instance create (not by a clone): under create-runs-a-while their create runs a while. */
const CREATED_TABLE = 'compute.created-by-create';

/** Notes an instance made by `POST /v4/compute/instances`, whose create runs as an action under create-runs-a-while. */
export function noteCreated(store: Store, inst: Instance): void {
  if (varied(store, 'create-runs-a-while')) store.table<true>(CREATED_TABLE).set(String(inst.id), true);
}

/** A deleted instance's note goes with it: a later instance given its id (ids-reused) was not made by that create. */
export function forgetCreated(store: Store, id: number): void {
  store.table<true>(CREATED_TABLE).delete(String(id));
}

/**
 * Whether the instance's create still runs as an action (only under create-runs-a-while, and only for an instance its
 * create made: a clone's new instance is made by the clone, whose own time is its variations', clones-instant's none).
 */
export function stillCreating(store: Store, inst: Instance): boolean {
  return (
    varied(store, 'create-runs-a-while') &&
    store.table<true>(CREATED_TABLE).has(String(inst.id)) &&
    store.now().getTime() - Date.parse(inst.created) < CREATE_RUNS_MS
  );
}

/** A snapshot, an image capture or a clone copies the instance's disks: refused while its create still runs. */
export function requireCreated(store: Store, inst: Instance): void {
  if (stillCreating(store, inst)) fail(`Instance ${inst.id} is still being created; wait for it to finish first`, null);
}

export function listInstances(store: Store): Instance[] {
  return [...store.table<Instance>(INSTANCES_TABLE).values()];
}

/** The instance as the `entity` of an event or a firewall device. */
export function instanceEntity(inst: Instance) {
  return { id: inst.id, label: inst.label, type: 'compute', url: `/v4/compute/instances/${inst.id}` };
}

/**
 * The instance named by a body member: 400 on `field` when absent or invisible to a restricted caller, 403 when
 * the caller holds only read_only and `level` is read_write.
 */
export function instanceFromBody(ctx: RequestContext, id: number, field: string, level: 'read_only' | 'read_write' = 'read_write'): Instance {
  const inst = getInstance(ctx.store, id);
  if (!inst || !canAccess(ctx.principal, 'compute', id, 'read_only')) fail(`No compute instance with id ${id}.`, field);
  if (level === 'read_write' && !canAccess(ctx.principal, 'compute', id, 'read_write')) {
    fail(`You need read_write access to compute instance ${id}.`, field, 403);
  }
  return inst;
}

export function getDisk(store: Store, id: number): Disk | undefined {
  return store.table<Disk>(DISKS_TABLE).get(String(id));
}
