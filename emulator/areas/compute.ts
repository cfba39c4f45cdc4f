// Compute instances (document 2): instances, their disks (internal), configuration profiles, backups, boot,
// shutdown, rescue, resize, clone, statistics, transfer, attached volumes, kernels. Volumes and load balancers
// are only reachable through tags and the instance volumes list, so they are seeded and kept here.
import ipaddr from 'ipaddr.js';
import { ApiError, type Area, type RequestContext, type Principal, type Route } from '../core/types.js';
import type { Store, Region, InstanceType } from '../core/store.js';
import {
  asObject, optString, reqString, optInt, reqInt, optBool, optArray, reqObject, optObject, fail, codePoints, isPlainObject,
} from '../core/validate.js';
import { paginate } from '../core/pagination.js';
import { emitEvent } from '../core/events.js';
import { canAccess, grantOwnership, hasGlobalGrant } from '../core/permissions.js';
import { releaseInstanceAddresses } from './ips.js';
import { removeInstanceFromFirewalls } from './firewalls.js';
import { getImage, uploadRegion } from './images.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';
import { conflictStatus } from '../variations/responses.js';

// ---------------------------------------------------------------------------------------------------------------
// Stored objects

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

/** Internal per-instance state that is not part of the response object. */
interface InstanceState {
  id: number;
  lastBootedConfig: number | null;
  /** Interfaces in effect (from creation, then from the last booted profile): VLAN membership follows them. */
  activeInterfaces: Iface[];
  rootPass: string | null;
  /** Incremented on every backups enable/cancel so stale scheduled auto backups do nothing. */
  backupGeneration: number;
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

export interface Iface {
  purpose: 'public' | 'vlan';
  label: string | null;
  ipam_address: string | null;
}

type Slot = { disk_id: number | null; volume_id: number | null } | null;
const SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const;
type SlotName = (typeof SLOTS)[number];
type Devices = Record<SlotName, Slot>;

export interface Config {
  id: number;
  compute_id: number;
  label: string;
  comments: string | null;
  devices: Devices;
  helpers: { devtmpfs_automount: boolean; distro: boolean; modules_dep: boolean; network: boolean; updatedb_disabled: boolean };
  interfaces: Iface[];
  kernel: string;
  memory_limit: number;
  root_device: string;
  run_level: 'default' | 'single' | 'binbash';
  virt_mode: 'paravirt' | 'fullvirt';
  created: string;
  updated: string;
}

interface BackupDisk { label: string; size: number; filesystem: Disk['filesystem'] }
interface BackupConfig { label: string; slots: Partial<Record<SlotName, number>>; kernel: string; run_level: Config['run_level']; virt_mode: Config['virt_mode']; interfaces: Iface[] }

export interface Backup {
  id: number;
  compute_id: number;
  label: string | null;
  type: 'auto' | 'snapshot';
  status: 'successful';
  available: boolean;
  region: string;
  configs: string[];
  disks: BackupDisk[];
  created: string;
  updated: string;
  finished: string;
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

interface Vlan { label: string; region: string; created: string }
interface CloneJob { id: number; source: number; target: number }

const T = {
  instances: 'compute.instances',
  state: 'compute.state',
  disks: 'compute.disks',
  configs: 'compute.configs',
  backups: 'compute.backups',
  vlans: 'compute.vlans',
  clones: 'compute.clones',
  volumes: 'compute.volumes',
  balancers: 'compute.balancers',
} as const;

const instances = (s: Store) => s.table<Instance>(T.instances);
const states = (s: Store) => s.table<InstanceState>(T.state);
const disks = (s: Store) => s.table<Disk>(T.disks);
const configs = (s: Store) => s.table<Config>(T.configs);
const backups = (s: Store) => s.table<Backup>(T.backups);
/** Lower-cased instance label → instance id, so uniqueness checks do not scan every instance. */
const labels = (s: Store) => s.table<number>('compute.labels');

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
function addChild(store: Store, table: ChildTable, c: Child): void {
  store.table<Child>(table).set(String(c.id), c);
  childIndex(store, table, c.compute_id).add(c.id);
}
function removeChild(store: Store, table: ChildTable, c: Child): void {
  store.table<Child>(table).delete(String(c.id));
  childIndex(store, table, c.compute_id).delete(c.id);
}
function childrenOf<C extends Child>(store: Store, table: ChildTable, computeId: number): C[] {
  const all = store.table<C>(table);
  return [...childIndex(store, table, computeId)].map((id) => all.get(String(id))!);
}
const vlans = (s: Store) => s.table<Vlan>(T.vlans);
const clones = (s: Store) => s.table<CloneJob>(T.clones);

// ---------------------------------------------------------------------------------------------------------------
// Exports used by other areas

export function getInstance(store: Store, id: number): Instance | undefined {
  return instances(store).get(String(id));
}
export function listInstances(store: Store): Instance[] {
  return [...instances(store).values()];
}
export function instanceEntity(inst: Instance) {
  return { id: inst.id, label: inst.label, type: 'compute', url: `/v4/compute/instances/${inst.id}` };
}
export function getDisk(store: Store, id: number): Disk | undefined {
  return disks(store).get(String(id));
}
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

/** VLANs of the account with the instances whose interfaces in effect attach them. */
export function listVlans(store: Store): { label: string; region: string; created: string; computes: number[] }[] {
  const members = new Map<string, number[]>();
  for (const st of states(store).values()) {
    const inst = getInstance(store, st.id);
    if (!inst) continue;
    for (const i of st.activeInterfaces) {
      if (i.purpose !== 'vlan' || i.label === null) continue;
      const key = vlanKey(inst.region, i.label);
      const list = members.get(key) ?? [];
      if (!list.includes(inst.id)) list.push(inst.id);
      members.set(key, list);
    }
  }
  return [...vlans(store).entries()].map(([key, v]) => ({
    label: v.label, region: v.region, created: v.created, computes: (members.get(key) ?? []).sort((a, b) => a - b),
  }));
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

// ---------------------------------------------------------------------------------------------------------------
// Shared validation

// Begins and ends with an alphanumeric; only alphanumerics and - _ .; no two of - _ . in a row.
const INSTANCE_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9]))*$/;
/** The label patterns of the faults breaking one label rule each (chars, begin-end, doubled separators). */
const FAULTY_LABELS = {
  'P2.instance.label.chars': /^[^-_.](?:[^-_.]|[-_.](?=[^-_.]))*$/u,
  'P2.instance.label.begin-end-alphanumeric': /^[-_.]?[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9]))*[-_.]?$/,
  'P2.instance.label.no-doubled-separators': /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.]+(?=[A-Za-z0-9]))*$/,
} as const;

function instanceLabel(o: Record<string, unknown>, store: Store, exceptId: number | null): string | undefined {
  const faultyPattern = (Object.keys(FAULTY_LABELS) as (keyof typeof FAULTY_LABELS)[]).find((id) => faulty(store, id));
  const label = optString(o, 'label', {
    min: faulty(store, 'P2.instance.label.min-3') ? 1 : 3,
    max: faulty(store, 'P2.instance.label.max-64') ? 200 : 64,
    pattern: faultyPattern ? FAULTY_LABELS[faultyPattern] : INSTANCE_LABEL,
    patternReason: 'Label must begin and end with a letter or digit and contain only letters, digits, dashes, underscores and periods, with no two dashes, underscores or periods in a row',
  });
  if (label !== undefined && labelTaken(store, label, exceptId)) fail(`Label "${label}" is already used by another instance; choose a unique label`, 'label', conflictStatus(store));
  return label;
}

function labelTaken(store: Store, label: string, exceptId: number | null): boolean {
  const owner = labels(store).get(label.toLowerCase());
  return owner !== undefined && owner !== exceptId;
}

function defaultLabel(store: Store, region: string, id: number): string {
  // Under the variation: a default at the edge of the 3..64 characters, in another format.
  let label = faulty(store, 'P2.instance.label.default-assigned') ? `${region}--${id}` : varied(store, 'default-label-64') ? `instance-${String(id).padStart(55, '0')}` : `${region}-${id}`;
  for (let n = 2; labelTaken(store, label, null); n++) label = `${region}-${id}-${n}`;
  return label;
}

function regionOf(store: Store, o: Record<string, unknown>, key = 'region'): Region {
  const id = reqString(o, key);
  const region = store.regions.find((r) => r.id === id);
  if (!region) fail(`Unknown region "${id}"; use one of ${store.regions.map((r) => r.id).join(', ')}`, key);
  return region;
}

function typeOf(store: Store, o: Record<string, unknown>, key = 'type'): InstanceType {
  const id = reqString(o, key);
  const type = store.instanceTypes.find((t) => t.id === id);
  if (!type) fail(`Unknown instance type "${id}"; use one of ${store.instanceTypes.map((t) => t.id).join(', ')}`, key);
  return type;
}

function intList(o: Record<string, unknown>, key: string, opts: { path?: string } = {}): number[] | undefined {
  const arr = optArray(o, key, opts);
  if (arr === undefined || arr === null) return undefined;
  const field = opts.path ? `${opts.path}.${key}` : key;
  return arr.map((v, i) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail('Must be an integer ID', `${field}.${i}`);
    return v;
  });
}

/**
 * Tags in instance (and domain) bodies: strings of 3..50 characters (the tag label limits), duplicates removed;
 * only unrestricted users may add or modify tags (403 otherwise).
 */
/** Validates a `tags` member. Document 2 reserves instance tags to unrestricted users; other kinds say nothing. */
export function tagList(ctx: RequestContext, o: Record<string, unknown>, opts: { unrestrictedOnly?: boolean } = {}): string[] | undefined {
  const key = 'tags';
  const arr = optArray(o, key);
  if (arr === undefined) return undefined;
  if (opts.unrestrictedOnly && ctx.principal?.restricted) fail('Only unrestricted users may add or modify tags', key, 403);
  const out: string[] = [];
  arr.forEach((v, i) => {
    if (typeof v !== 'string' || codePoints(v) < 3 || codePoints(v) > 50) fail('Each tag must be a string of 3..50 characters', `${key}.${i}`);
    if (!out.includes(v)) out.push(v);
  });
  return out;
}

/**
 * Root password strength (the document's "internally calculated strength score"): at least three of the four
 * character classes lower case, upper case, digit, other.
 */
export function passwordIsStrong(p: string): boolean {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(p)).length >= 3;
}

function rootPass(store: Store, o: Record<string, unknown>, required: boolean): string | undefined {
  const bounds = { min: faulty(store, 'P2.instance-create.root-pass.min-7') ? 1 : 7, max: faulty(store, 'P2.instance-create.root-pass.max-128') ? 256 : 128 };
  const pass = required && !faulty(store, 'P2.instance-create.root-pass.required-with-image') ? reqString(o, 'root_pass', bounds) : optString(o, 'root_pass', bounds);
  if (pass !== undefined && !passwordIsStrong(pass) && !faulty(store, 'P2.instance-create.root-pass.strength')) {
    fail('Root password does not meet the strength requirement: use at least three of lower case letters, upper case letters, digits and symbols', 'root_pass');
  }
  return pass;
}

const VLAN_LABEL = /^[A-Za-z0-9-]*$/;
const vlanKey = (region: string, label: string) => `${region}\u0000${label}`;

function isCidr(s: string): boolean {
  if (!s.includes('/')) return false;
  return ipaddr.IPv4.isValidCIDRFourPartDecimal(s) || ipaddr.IPv6.isValidCIDR(s);
}

/**
 * Interfaces of instance create and of configuration profile create/update. Validates everything first and
 * returns the VLAN labels that do not exist yet in the region; the caller creates them with `createVlans` only
 * once the whole request is valid.
 */
function interfacesOf(store: Store, o: Record<string, unknown>, region: string, key = 'interfaces'): { list: Iface[]; newVlans: string[] } | undefined {
  const arr = faulty(store, 'P2.interfaces.types') && !Array.isArray(o[key]) ? undefined : optArray(o, key, { max: faulty(store, 'P2.interfaces.max-3') ? 8 : 3 });
  if (arr === undefined || arr === null) return undefined;
  const list: Iface[] = [];
  arr.forEach((raw, i) => {
    const path = `${key}.${i}`;
    const item = asObject(raw, path);
    const purpose = (
      (faulty(store, 'P2.interfaces.purpose.required') && item.purpose === undefined) || (faulty(store, 'P2.interfaces.purpose.enum') && typeof item.purpose === 'string' && item.purpose !== 'public')
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
      if (list.some((x) => x.purpose === 'public') && !faulty(store, 'P2.interfaces.public.max-1')) fail('Only one public interface is allowed per instance', `${path}.purpose`);
      list.push({ purpose, label: null, ipam_address: null });
      return;
    }
    const label = faulty(store, 'P2.interfaces.label.required-for-vlan') && item.label == null ? 'default' : reqString(item, 'label', {
      min: faulty(store, 'P2.interfaces.label.min-1') ? 0 : 1,
      max: faulty(store, 'P2.interfaces.label.max-64') ? 128 : 64,
      pattern: faulty(store, 'P2.interfaces.label.chars') ? undefined : VLAN_LABEL,
      patternReason: 'VLAN label must be 1..64 ASCII letters, digits or dashes', path,
    });
    let ipam = optString(item, 'ipam_address', { nullable: true, path }) ?? null;
    if (ipam === '') ipam = null;
    if (ipam !== null && !isCidr(ipam) && !faulty(store, 'P2.interfaces.ipam-address.cidr')) fail('ipam_address must be in CIDR form IP/netmask, e.g. 10.0.0.1/24', `${path}.ipam_address`);
    if (list.some((x) => x.label === label) && !faulty(store, 'P2.interfaces.label.unique')) fail('Interface labels must be unique among the instance\'s interfaces', `${path}.label`);
    if (ipam !== null && list.some((x) => x.ipam_address === ipam) && !faulty(store, 'P2.interfaces.ipam-address.unique')) fail('ipam_address must be unique among the instance\'s interfaces', `${path}.ipam_address`);
    list.push({ purpose, label, ipam_address: ipam });
  });
  const vlanIfaces = list.map((x, i) => ({ x, i })).filter(({ x }) => x.purpose === 'vlan');
  if (vlanIfaces.length === 0) return { list, newVlans: [] };
  const reg = store.regions.find((r) => r.id === region);
  if (!reg?.vlans && !faulty(store, 'P2.interfaces.vlan.capable-regions')) fail(`VLANs are not available in region ${region}`, `${key}.${vlanIfaces[0]!.i}.purpose`);
  const newVlans: string[] = [];
  const limit = faulty(store, 'P2.interfaces.vlan.max-10-per-region') ? 20 : 10;
  let inRegion = 0;
  for (const v of vlans(store).values()) if (v.region === region) inRegion++;
  for (const { x, i } of vlanIfaces) {
    if (vlans(store).has(vlanKey(region, x.label!))) continue;
    newVlans.push(x.label!);
    if (inRegion + newVlans.length > limit) fail(`At most 10 VLANs can exist in region ${region}`, `${key}.${i}.label`);
  }
  return { list, newVlans };
}

function createVlans(store: Store, region: string, labels: string[]): void {
  if (faulty(store, 'P2.interfaces.label.new-creates-vlan')) return;
  for (const label of labels) vlans(store).set(vlanKey(region, label), { label, region, created: store.nowIso() });
}

// ---------------------------------------------------------------------------------------------------------------
// Internal helpers

function stateOf(store: Store, id: number): InstanceState {
  let st = states(store).get(String(id));
  if (!st) {
    st = { id, lastBootedConfig: null, activeInterfaces: [], rootPass: null, backupGeneration: 0 };
    states(store).set(String(id), st);
  }
  return st;
}

const disksOf = (store: Store, id: number) => childrenOf<Disk>(store, T.disks, id);
const configsOf = (store: Store, id: number) => childrenOf<Config>(store, T.configs, id);
const backupsOf = (store: Store, id: number) => childrenOf<Backup>(store, T.backups, id);
const usedDisk = (store: Store, id: number) => disksOf(store, id).reduce((n, d) => n + d.size, 0);

/** An instance is busy while a clone from or to it is in progress (the only long-running action emulated). */
function isBusy(store: Store, id: number): boolean {
  for (const c of clones(store).values()) if (c.source === id || c.target === id) return true;
  return false;
}
function requireIdle(store: Store, inst: Instance): void {
  if (isBusy(store, inst.id)) fail(`Instance ${inst.id} has running or queued actions; wait for them to finish first`, null);
}

function touch(store: Store, inst: Instance): void {
  inst.updated = store.nowIso();
}

function newDisk(store: Store, computeId: number, label: string, size: number, filesystem: Disk['filesystem']): Disk {
  const now = store.nowIso();
  const d: Disk = { id: store.nextId('disk'), compute_id: computeId, label, size, filesystem, status: 'ready', created: now, updated: now };
  addChild(store, T.disks, d);
  return d;
}

const emptyDevices = (): Devices => ({ sda: null, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });

function newConfig(store: Store, inst: Instance, fields: Partial<Config> & { label: string }): Config {
  const now = store.nowIso();
  const c: Config = {
    id: store.nextId('config'),
    compute_id: inst.id,
    label: fields.label,
    comments: fields.comments ?? null,
    devices: fields.devices ?? emptyDevices(),
    helpers: fields.helpers ?? { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
    interfaces: fields.interfaces ?? [],
    kernel: fields.kernel ?? DEFAULT_KERNEL,
    memory_limit: fields.memory_limit ?? inst.specs.memory,
    root_device: fields.root_device ?? '/dev/sda',
    run_level: fields.run_level ?? 'default',
    virt_mode: fields.virt_mode ?? 'paravirt',
    created: now,
    updated: now,
  };
  addChild(store, T.configs, c);
  return c;
}

function deleteDisksAndConfigs(store: Store, id: number): void {
  for (const d of disksOf(store, id)) removeChild(store, T.disks, d);
  for (const c of configsOf(store, id)) removeChild(store, T.configs, c);
  stateOf(store, id).lastBootedConfig = null;
}

/** Copies disks (and configs remapped to the copies) onto a target instance. */
function copyLayout(store: Store, target: Instance, diskList: BackupDisk[] | Disk[], configList: BackupConfig[], diskIdMap?: Map<number, number>): void {
  const byIndex: number[] = [];
  for (const d of diskList) {
    const copy = newDisk(store, target.id, d.label, d.size, d.filesystem);
    byIndex.push(copy.id);
    if ('id' in d && diskIdMap) diskIdMap.set(d.id, copy.id);
  }
  for (const c of configList) {
    const devices = emptyDevices();
    for (const [slot, idx] of Object.entries(c.slots) as [SlotName, number][]) {
      const diskId = diskIdMap ? diskIdMap.get(idx) : byIndex[idx];
      if (diskId !== undefined) devices[slot] = { disk_id: diskId, volume_id: null };
    }
    newConfig(store, target, { label: c.label, devices, kernel: c.kernel, run_level: c.run_level, virt_mode: c.virt_mode, interfaces: c.interfaces.map((i) => ({ ...i })) });
  }
}

function snapshotLayout(store: Store, inst: Instance): { disks: BackupDisk[]; configs: BackupConfig[] } {
  const ds = disksOf(store, inst.id);
  const index = new Map(ds.map((d, i) => [d.id, i]));
  return {
    disks: ds.map((d) => ({ label: d.label, size: d.size, filesystem: d.filesystem })),
    configs: configsOf(store, inst.id).map((c) => ({
      label: c.label, kernel: c.kernel, run_level: c.run_level, virt_mode: c.virt_mode, interfaces: c.interfaces.map((i) => ({ ...i })),
      slots: Object.fromEntries(SLOTS.flatMap((s) => {
        const slot = c.devices[s];
        const idx = slot?.disk_id != null ? index.get(slot.disk_id) : undefined;
        return idx === undefined ? [] : [[s, idx]];
      })),
    })),
  };
}

function emit(ctx: RequestContext, action: string, inst: Instance, secondary?: Instance, status: 'finished' | 'started' = 'finished'): void {
  const entity: Partial<ReturnType<typeof instanceEntity>> = instanceEntity(inst);
  if (faulty(ctx.store, 'P1.event.entity.members~compute')) delete entity.url;
  emitEvent(ctx.store, ctx.principal, { action, entity: entity as ReturnType<typeof instanceEntity>, secondary_entity: secondary ? instanceEntity(secondary) : null, status });
}

function body(ctx: RequestContext): Record<string, unknown> {
  return ctx.body === undefined ? {} : asObject(ctx.body);
}

function requireAddComputes(p: Principal | null): void {
  if (!hasGlobalGrant(p, 'add_computes')) fail('You need the add_computes grant to create compute instances', null, 403);
}

/** Builds, stores and returns a new instance object with its state (no disks or configs). */
function makeInstance(
  ctx: RequestContext,
  f: { region: Region; type: InstanceType; label?: string; image: string | null; status: string; group?: string; tags?: string[]; privateIp?: boolean; backupsEnabled?: boolean },
): Instance {
  const { store } = ctx;
  const id = store.nextId('compute');
  const now = store.nowIso();
  const ipv4 = [store.allocateIpv4(f.region.id, true)];
  if (f.image !== null && faulty(store, 'P2.instance.ipv4.one-public-on-create')) ipv4.push(store.allocateIpv4(f.region.id, true));
  if (f.privateIp) ipv4.push(store.allocateIpv4(f.region.id, false));
  const inst: Instance = {
    id,
    label: f.label ?? defaultLabel(store, f.region.id, id),
    region: f.region.id,
    type: f.type.id,
    status: f.status,
    image: faulty(store, 'P2.instance.image.deployed-from') ? null : f.image,
    ipv4,
    ipv6: `${store.slaacFor(id)}/128`,
    group: f.group ?? '',
    hypervisor: 'kvm',
    alerts: { cpu: faulty(store, 'P2.alerts.cpu.default-90-per-core') ? 90 : 90 * f.type.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
    backups: { enabled: false, schedule: { day: null, window: null } },
    specs: { disk: f.type.disk, memory: f.type.memory, vcpus: f.type.vcpus, transfer: f.type.transfer },
    tags: f.tags ?? [],
    created: now,
    updated: now,
    watchdog_enabled: true,
  };
  instances(store).set(String(id), inst);
  labels(store).set(inst.label.toLowerCase(), id);
  stateOf(store, id);
  if (f.backupsEnabled) enableBackups(store, inst);
  grantOwnership(ctx.principal, 'compute', id);
  return inst;
}

function typeById(store: Store, id: string): InstanceType {
  return store.instanceTypes.find((t) => t.id === id) ?? store.instanceTypes[0]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Backups service

const DAY_MS = 86_400_000;

function enableBackups(store: Store, inst: Instance): void {
  if (inst.backups.enabled) return;
  const st = stateOf(store, inst.id);
  st.backupGeneration++;
  inst.backups.enabled = true;
  inst.backups.schedule = { day: faulty(store, 'P2.instance.backups.schedule.day.scheduling-until-chosen') ? null : 'Scheduling', window: 'Scheduling' };
  scheduleAutoBackup(store, inst.id, st.backupGeneration);
}

/** Daily automatic backup while the service stays enabled; the three most recent are kept. */
function scheduleAutoBackup(store: Store, id: number, generation: number): void {
  store.schedule(new Date(store.now().getTime() + DAY_MS), (s) => {
    const inst = getInstance(s, id);
    const st = states(s).get(String(id));
    if (!inst || !st || !inst.backups.enabled || st.backupGeneration !== generation) return;
    storeBackup(s, inst, 'auto', null);
    const autos = backupsOf(s, id).filter((b) => b.type === 'auto');
    for (const old of autos.slice(0, Math.max(0, autos.length - 3))) removeChild(s, T.backups, old);
    scheduleAutoBackup(s, id, generation);
  });
}

function storeBackup(store: Store, inst: Instance, type: Backup['type'], label: string | null): Backup {
  const now = store.nowIso();
  const layout = snapshotLayout(store, inst);
  const b: Backup = {
    id: store.nextId('backup'), compute_id: inst.id, label, type, status: 'successful', available: true, region: inst.region,
    configs: layout.configs.map((c) => c.label), disks: layout.disks, created: now, updated: now, finished: now,
  };
  addChild(store, T.backups, b);
  backupLayouts.set(b, layout.configs);
  return b;
}

// The config layouts of a backup are internal (not in the response object).
const backupLayouts = new WeakMap<Backup, BackupConfig[]>();

function backupOr404(ctx: RequestContext, inst: Instance): Backup {
  const raw = ctx.params.backupId ?? '';
  const b = /^[0-9]{1,15}$/.test(raw) ? backups(ctx.store).get(String(Number(raw))) : undefined;
  if (!b || b.compute_id !== inst.id) fail('Not found: no such backup of this instance', null, 404);
  return b;
}

// ---------------------------------------------------------------------------------------------------------------
// Kernels (seeded, static; IDs without a slash so they fit one path segment)

const DEFAULT_KERNEL = 'chs-latest-64bit';
const KERNELS = [
  { id: 'chs-latest-64bit', label: 'Latest 64 bit (6.8.9-x86_64-chs)', version: '6.8.9', architecture: 'x86_64', kvm: true, pvops: true, deprecated: false, built: '2024-05-01T00:00:00' },
  { id: 'chs-latest-32bit', label: 'Latest 32 bit (6.8.9-x86-chs)', version: '6.8.9', architecture: 'i386', kvm: true, pvops: true, deprecated: false, built: '2024-05-01T00:00:00' },
  { id: 'chs-grub2', label: 'GRUB 2', version: '2.06', architecture: 'x86_64', kvm: true, pvops: false, deprecated: false, built: '2022-08-29T00:00:00' },
  { id: 'chs-direct-disk', label: 'Direct Disk', version: '', architecture: 'x86_64', kvm: true, pvops: false, deprecated: false, built: '2015-05-04T00:00:00' },
  { id: 'chs-6.2.9-x86_64', label: '6.2.9-x86_64-chs', version: '6.2.9', architecture: 'x86_64', kvm: true, pvops: true, deprecated: true, built: '2023-03-30T00:00:00' },
  { id: 'chs-5.15.10-x86', label: '5.15.10-x86-chs', version: '5.15.10', architecture: 'i386', kvm: true, pvops: true, deprecated: true, built: '2021-12-20T00:00:00' },
];

// ---------------------------------------------------------------------------------------------------------------
// Handlers: instances

/** The instance as view and list responses show it: the stored object, unless a fault changes how a field is shown. */
function shown(store: Store, inst: Instance): Instance | Record<string, unknown> {
  if (faulty(store, 'P2.instance.types')) return { ...inst, specs: { ...inst.specs, memory: String(inst.specs.memory) } };
  if (faulty(store, 'P2.instance.hypervisor.enum')) return { ...inst, hypervisor: 'xen' };
  if (faulty(store, 'P2.instance.ipv4.format')) return { ...inst, ipv4: inst.ipv4.map((address) => `${address}/32`) };
  if (faulty(store, 'P2.instance.ipv6.format') && inst.ipv6) return { ...inst, ipv6: `[${inst.ipv6.split('/')[0]}]` };
  return inst;
}

function listHandler(ctx: RequestContext) {
  const visible = listInstances(ctx.store).filter((i) => faulty(ctx.store, 'P2.instances.list.visible') || canAccess(ctx.principal, 'compute', i.id, 'read_only'));
  return paginate(ctx, visible.map((i) => shown(ctx.store, i)));
}

function createHandler(ctx: RequestContext) {
  const { store, principal } = ctx;
  if (!faulty(store, 'P2.instances.create.add-computes')) requireAddComputes(principal);
  const o = asObject(ctx.body ?? {});
  const region = faulty(store, 'P2.instance-create.region.required') && o.region === undefined ? store.regions[0]! : regionOf(store, o);
  const type = faulty(store, 'P2.instance-create.type.required') && o.type === undefined ? store.instanceTypes[0]! : typeOf(store, o);
  const label = instanceLabel(o, store, null);
  const imageId = optString(o, 'image', { nullable: true }) ?? undefined;
  let backupId = optInt(o, 'backup_id', { nullable: true }) ?? undefined;
  if (imageId !== undefined && backupId !== undefined) {
    if (!faulty(store, 'P2.instance-create.image.exclusive-backup-id')) fail('image and backup_id are mutually exclusive; give only one', 'backup_id');
    backupId = undefined;
  }

  let image: ReturnType<typeof getImage>;
  if (imageId !== undefined) {
    image = getImage(store, faulty(store, 'P2.image.id.prefix') && !/^(compute|private)\//.test(imageId) ? 'compute/debian12' : imageId);
    const visible = image && (image.is_public || faulty(store, 'P2.instance-create.image.private-permission') || canAccess(principal, 'image', image.id, 'read_only'));
    if (!image || !visible) fail(`Image "${imageId}" not found`, 'image');
    if (image.status !== 'available' && !faulty(store, 'P2.image.deploy.available-only')) fail(`Image "${imageId}" is ${image.status}; only available images can be deployed`, 'image');
    if (faulty(store, 'P2.images.upload.any-region') && (uploadRegion(image) ?? region.id) !== region.id) fail(`Image "${imageId}" was uploaded to ${uploadRegion(image)}; deploy it there`, 'region');
  }
  let backup: Backup | undefined;
  if (backupId !== undefined) {
    backup = backups(store).get(String(backupId));
    if (!backup || !canAccess(principal, 'compute', backup.compute_id, 'read_only')) fail(`Backup ${backupId} not found`, 'backup_id');
    if (!canAccess(principal, 'compute', backup.compute_id, 'read_write') && !faulty(store, 'P2.instance-create.backup-id.permission')) fail('You need read_write access to the instance of this backup', 'backup_id', 403);
    if (backup.status !== 'successful') fail('The backup did not complete successfully and cannot be restored', 'backup_id');
    if (backup.region !== region.id && !faulty(store, 'P2.instance-create.backup-id.same-region')) fail(`The backup is in region ${backup.region}; create the instance in that region`, 'region');
    const needed = backup.disks.reduce((n, d) => n + d.size, 0);
    if (needed > type.disk && !faulty(store, 'P2.instance-create.backup-id.big-enough')) fail(`Type ${type.id} (${type.disk} MB) is too small for the backup (${needed} MB); choose a larger type`, 'type');
  }
  const pass = rootPass(store, o, imageId !== undefined);
  for (const key of ['authorized_keys', 'authorized_users'] as const) {
    const arr = optArray(o, key);
    arr?.forEach((v, i) => { if (typeof v !== 'string' || v.length === 0) fail('Must be a non-empty string', `${key}.${i}`); });
  }
  const scriptId = optInt(o, 'script_id', { min: 1, nullable: true }) ?? undefined;
  const scriptIgnored = (backupId !== undefined && faulty(store, 'P2.instance-create.script-id.exclusive-backup-id')) || (imageId === undefined && faulty(store, 'P2.instance-create.script-id.requires-image'));
  if (scriptId !== undefined && !scriptIgnored) {
    if (backupId !== undefined) fail('script_id cannot be used with backup_id', 'script_id');
    if (imageId === undefined) fail('script_id needs a compatible image (and root_pass)', 'image');
    if (!image!.is_public && !faulty(store, 'P2.instance-create.script-id.not-private-image')) fail('script_id cannot be used with a private image', 'script_id');
  }
  optObject(o, 'script_data', { nullable: true });
  // swap_size bounds are not shown: 0 up to the type's disk less 1 MB (the main disk needs room).
  const swap = optInt(o, 'swap_size', { min: 0, max: type.disk - 1 }) ?? 512;
  const booted = optBool(o, 'booted');
  const backupsEnabled = optBool(o, 'backups_enabled') ?? false;
  const privateIp = !faulty(store, 'P2.instance-create.private-ip') && (optBool(o, 'private_ip') ?? false);
  const ifaces = interfacesOf(store, o, region.id);
  const group = optString(o, 'group');
  const tags = tagList(ctx, o, { unrestrictedOnly: !faulty(store, 'P2.instance-create.tags-unrestricted') });

  // Everything is valid: from here on nothing fails.
  const deployed = image !== undefined || backup !== undefined;
  const running = deployed && booted !== false;
  const inst = makeInstance(ctx, {
    region, type, label, image: image?.id ?? null, status: running ? 'running' : 'offline', group, tags, privateIp, backupsEnabled,
  });
  if (ifaces) createVlans(store, region.id, ifaces.newVlans);
  const interfaces = ifaces?.list ?? [];
  if (ifaces?.list.length === 0 && faulty(store, 'P2.interfaces.empty-default-public')) inst.ipv4 = inst.ipv4.slice(1);
  const st = stateOf(store, inst.id);
  st.activeInterfaces = faulty(store, 'P2.instance-create.vlan-mode') ? [] : interfaces;
  if (image) {
    const main = newDisk(store, inst.id, `${image.label} Disk`, type.disk - swap, 'ext4');
    const devices = emptyDevices();
    devices.sda = { disk_id: main.id, volume_id: null };
    if (swap > 0) devices.sdb = { disk_id: newDisk(store, inst.id, `${swap} MB Swap Image`, swap, 'swap').id, volume_id: null };
    const cfg = newConfig(store, inst, { label: `My ${image.label} Profile`, devices, interfaces });
    if (running) st.lastBootedConfig = cfg.id;
    st.rootPass = pass ?? null;
  } else if (backup) {
    copyLayout(store, inst, backup.disks, backupLayouts.get(backup) ?? []);
    st.rootPass = stateOf(store, backup.compute_id).rootPass;
    const cfgs = configsOf(store, inst.id);
    if (interfaces.length > 0) for (const c of cfgs) c.interfaces = interfaces.map((i) => ({ ...i }));
    if (running && cfgs[0]) {
      st.lastBootedConfig = cfgs[0].id;
      st.activeInterfaces = cfgs[0].interfaces;
    }
  }
  if (!varied(store, 'instance-events-silent')) emit(ctx, 'compute_create', inst);
  return inst;
}

function viewHandler(ctx: RequestContext) {
  return shown(ctx.store, instanceOr404(ctx, ctx.params.computeId!, 'read_only'));
}

const DAYS = ['Scheduling', 'Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const WINDOWS = ['Scheduling', 'W0', 'W2', 'W4', 'W6', 'W8', 'W10', 'W12', 'W14', 'W16', 'W18', 'W20', 'W22'] as const;

function updateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = faulty(store, 'P2.instance-update.types') && !isPlainObject(ctx.body) ? {} : asObject(ctx.body ?? {});
  const label = instanceLabel(o, store, inst.id);
  const alertsIn = optObject(o, 'alerts');
  const alerts = { ...inst.alerts };
  if (alertsIn) {
    const limits: Record<keyof Instance['alerts'], number> = {
      cpu: 100 * inst.specs.vcpus, io: 1_000_000, network_in: 1_000_000, network_out: 1_000_000, transfer_quota: 100,
    };
    for (const k of Object.keys(limits) as (keyof Instance['alerts'])[]) {
      const v = optInt(alertsIn, k, { min: 0, max: limits[k], path: 'alerts' });
      if (v !== undefined && v !== null) alerts[k] = v;
    }
  }
  const backupsIn = optObject(o, 'backups');
  let schedule: Instance['backups']['schedule'] | undefined;
  if (backupsIn) {
    const sch = optObject(backupsIn, 'schedule', { path: 'backups' });
    if (sch) {
      const day = optString(sch, 'day', { enum: faulty(store, 'P2.instance.backups.schedule.day.enum') ? undefined : DAYS, nullable: true, path: 'backups.schedule' });
      const window = optString(sch, 'window', { enum: faulty(store, 'P2.instance.backups.schedule.window.enum') ? undefined : WINDOWS, nullable: true, path: 'backups.schedule' });
      schedule = {
        day: day === undefined ? inst.backups.schedule.day : day,
        window: window === undefined ? inst.backups.schedule.window : window,
      };
    }
  }
  const group = optString(o, 'group');
  const tags = tagList(ctx, o, { unrestrictedOnly: !faulty(store, 'P2.instances.update.tags-unrestricted') });
  const watchdog = optBool(o, 'watchdog_enabled');

  if (label !== undefined) {
    labels(store).delete(inst.label.toLowerCase());
    labels(store).set(label.toLowerCase(), inst.id);
    inst.label = label;
  }
  inst.alerts = alerts;
  if (schedule) inst.backups.schedule = schedule;
  if (group !== undefined) inst.group = group;
  if (tags !== undefined) inst.tags = tags;
  if (watchdog !== undefined) inst.watchdog_enabled = watchdog;
  touch(store, inst);
  for (const v of listVolumes(store)) if (v.compute_id === inst.id) v.compute_label = inst.label;
  emit(ctx, 'compute_update', inst);
  return inst;
}

function deleteHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (faulty(store, 'P2.instances.delete.gone')) return {};
  releaseInstanceAddresses(store, inst.id);
  removeInstanceFromFirewalls(store, inst.id);
  deleteDisksAndConfigs(store, inst.id);
  for (const b of backupsOf(store, inst.id)) removeChild(store, T.backups, b);
  for (const v of listVolumes(store)) if (v.compute_id === inst.id) { v.compute_id = null; v.compute_label = null; }
  for (const [k, c] of clones(store)) if (c.source === inst.id || c.target === inst.id) clones(store).delete(k);
  states(store).delete(String(inst.id));
  instances(store).delete(String(inst.id));
  labels(store).delete(inst.label.toLowerCase());
  for (const t of [T.disks, T.configs, T.backups]) store.table(`${t}.byInstance`).delete(String(inst.id));
  if (!varied(store, 'instance-events-silent')) emit(ctx, 'compute_delete', inst);
  return {};
}

// ---------------------------------------------------------------------------------------------------------------
// Handlers: backups

function backupsListHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const all = backupsOf(ctx.store, inst.id);
  return {
    automatic: all.filter((b) => b.type === 'auto'),
    snapshot: { current: all.find((b) => b.type === 'snapshot') ?? null, in_progress: null },
  };
}

function snapshotHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = asObject(ctx.body ?? {});
  const label = faulty(store, 'P2.instance-snapshot-create.label.required') && o.label === undefined ? null : reqString(o, 'label', {
    min: faulty(store, 'P2.instance-snapshot-create.label.min-1') ? 0 : 1,
    max: faulty(store, 'P2.instance-snapshot-create.label.max-255') ? 512 : 255,
  });
  if (!faulty(store, 'P2.backups.snapshot.replaces-previous')) for (const b of backupsOf(store, inst.id)) if (b.type === 'snapshot') removeChild(store, T.backups, b);
  const b = storeBackup(store, inst, 'snapshot', label);
  if (faulty(store, 'P2.backups.snapshot.creates')) removeChild(store, T.backups, b);
  emit(ctx, 'compute_snapshot', inst);
  return b;
}

function backupsCancelHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (!faulty(store, 'P2.backups.cancel.deletes-all')) for (const b of backupsOf(store, inst.id)) removeChild(store, T.backups, b);
  stateOf(store, inst.id).backupGeneration++;
  inst.backups = { enabled: false, schedule: { day: null, window: null } };
  touch(store, inst);
  emit(ctx, 'backups_cancel', inst);
  return {};
}

function backupsEnableHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  enableBackups(ctx.store, inst);
  touch(ctx.store, inst);
  emit(ctx, 'backups_enable', inst);
  return {};
}

function backupViewHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  return backupOr404(ctx, inst);
}

function restoreHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const backup = backupOr404(ctx, inst);
  const o = asObject(ctx.body ?? {});
  // The fault restores onto the backup's own instance, overwriting it, when no target is given.
  const ownInstance = faulty(store, 'P2.backup-restore.compute-id.required') && o.compute_id === undefined;
  const targetId = ownInstance ? inst.id : reqInt(o, 'compute_id');
  const overwrite = ownInstance || (optBool(o, 'overwrite') ?? false);
  const target = getInstance(store, targetId);
  if (!target || !canAccess(ctx.principal, 'compute', targetId, 'read_only')) fail(`Instance ${targetId} not found`, 'compute_id');
  if (!canAccess(ctx.principal, 'compute', targetId, 'read_write')) fail('You need read_write access to the target instance', 'compute_id', 403);
  requireIdle(store, target);
  const needed = backup.disks.reduce((n, d) => n + d.size, 0);
  const available = target.specs.disk - (overwrite ? 0 : usedDisk(store, target.id));
  if (needed > available && !faulty(store, 'P2.backups.restore.insufficient-space')) {
    fail(`Insufficient space on instance ${target.id}: the backup needs ${needed} MB and ${available} MB are free; use overwrite or free disk space`, overwrite ? 'compute_id' : 'overwrite');
  }
  if (overwrite && !faulty(store, 'P2.backups.restore.overwrite-true')) deleteDisksAndConfigs(store, target.id);
  copyLayout(store, target, backup.disks, backupLayouts.get(backup) ?? []);
  target.status = 'offline';
  touch(store, target);
  emit(ctx, 'backups_restore', inst, target);
  return {};
}

// ---------------------------------------------------------------------------------------------------------------
// Handlers: power, rescue, resize, clone

function bootHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = faulty(store, 'P2.instance-boot.types') && !isPlainObject(ctx.body) ? {} : body(ctx);
  const configId = optInt(o, 'config_id', { nullable: true }) ?? undefined;
  requireIdle(store, inst);
  if (inst.status === 'running' && varied(store, 'boot-running-refused')) fail('The instance is already running; shut it down before booting it again', null);
  const st = stateOf(store, inst.id);
  const list = configsOf(store, inst.id);
  let cfg: Config | undefined;
  if (configId !== undefined) {
    cfg = list.find((c) => c.id === configId);
    if (!cfg) fail(`Configuration profile ${configId} does not belong to this instance`, 'config_id');
  } else if (list.length === 1 && !faulty(store, 'P2.boot.only-profile')) {
    cfg = list[0];
  } else if (list.length === 0) {
    fail('The instance has no configuration profile to boot; create one first', null);
  } else {
    cfg = faulty(store, 'P2.boot.last-booted') && list.length > 1 ? undefined : list.find((c) => c.id === st.lastBootedConfig);
    if (!cfg && faulty(store, 'P2.boot.ambiguous-error')) cfg = list[0];
    if (!cfg) fail('The instance has several configuration profiles and none was booted last; give config_id', 'config_id');
  }
  st.lastBootedConfig = cfg.id;
  st.activeInterfaces = cfg.interfaces.map((i) => ({ ...i }));
  inst.status = 'running';
  touch(store, inst);
  emit(ctx, 'compute_boot', inst);
  return {};
}

function shutdownHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  requireIdle(ctx.store, inst);
  inst.status = 'offline';
  touch(ctx.store, inst);
  emit(ctx, 'compute_shutdown', inst);
  return {};
}

function rescueHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = body(ctx);
  const devs = optObject(o, 'devices');
  if (devs) {
    const sdhAllowed = faulty(store, 'P2.instance-rescue.devices.sdh-reserved');
    if ('sdh' in devs && !sdhAllowed) fail('sdh is reserved in rescue mode; use sda to sdg', 'devices.sdh');
    devicesOf(store, inst, devs, 'devices', sdhAllowed ? SLOTS : ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg']);
  }
  requireIdle(store, inst);
  inst.status = 'running';
  touch(store, inst);
  emit(ctx, 'compute_boot', inst);
  return {};
}

function resizeHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = asObject(ctx.body ?? {});
  const type = faulty(store, 'P2.instance-resize.type.required') && o.type === undefined ? typeById(store, inst.type) : typeOf(store, o);
  const autoResize = optBool(o, 'allow_auto_disk_resize') ?? true;
  if (!faulty(store, 'P2.resize.no-running-actions')) requireIdle(store, inst);
  if (store.pastDueBalance) fail('The account has an outstanding balance; pay it before resizing', null);
  const used = usedDisk(store, inst.id);
  if (used > type.disk && !faulty(store, 'P2.resize.disk-allocation')) {
    fail(`The instance's disks use ${used} MB but type ${type.id} allows ${type.disk} MB; delete or shrink disks first`, 'type');
  }
  const oldDisk = inst.specs.disk;
  inst.type = type.id;
  inst.specs = { disk: type.disk, memory: type.memory, vcpus: type.vcpus, transfer: type.transfer };
  inst.alerts.cpu = Math.min(inst.alerts.cpu, 100 * type.vcpus);
  if (autoResize && type.disk > oldDisk) {
    // Grow the single non-swap disk when the layout is the default one (one data disk plus optional swap).
    const data = disksOf(store, inst.id).filter((d) => d.filesystem !== 'swap');
    if (data.length === 1) data[0]!.size += type.disk - used;
  }
  if (faulty(store, 'P2.instance.region.migration-only')) inst.region = store.regions[(store.regions.findIndex((r) => r.id === inst.region) + 1) % store.regions.length]!.id;
  touch(store, inst);
  emit(ctx, 'compute_resize', inst);
  return {};
}

const CLONE_MS = 10 * 60_000;

function cloneHandler(ctx: RequestContext) {
  const { store, principal } = ctx;
  const source = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (!faulty(store, 'P2.clone.add-computes')) requireAddComputes(principal);
  const o = body(ctx);
  const targetId = optInt(o, 'compute_id', { nullable: true }) ?? undefined;
  let region: Region | undefined;
  let type: InstanceType | undefined;
  let label: string | undefined;
  let backupsEnabled: boolean | undefined;
  if (targetId !== undefined) {
    const ignored = [
      faulty(store, 'P2.instance-clone.region.not-with-compute-id') && 'region', faulty(store, 'P2.instance-clone.type.not-with-compute-id') && 'type',
      faulty(store, 'P2.instance-clone.label.new-instance-only') && 'label',
      ...(varied(store, 'clone-extras-ignored') ? ['label', 'backups_enabled'] : []),
    ];
    for (const k of ['region', 'type', 'label', 'backups_enabled']) {
      if (o[k] !== undefined && !ignored.includes(k)) fail(`${k} is only allowed when cloning to a new instance; remove it or omit compute_id`, k);
    }
  } else {
    region = faulty(store, 'P2.instance-clone.region.required-for-new') && o.region === undefined ? store.regions.find((r) => r.id === source.region)! : regionOf(store, o);
    type = faulty(store, 'P2.instance-clone.type.required-for-new') && o.type === undefined ? typeById(store, source.type) : typeOf(store, o);
    label = instanceLabel(o, store, null) ?? (faulty(store, 'P2.clone.label.default') ? `clone--${source.id}` : varied(store, 'clone-label-of-source') ? source.label : undefined);
    backupsEnabled = optBool(o, 'backups_enabled');
  }
  const cfgIds = intList(o, 'configs');
  const diskIds = intList(o, 'disks');
  const group = optString(o, 'group');

  const srcConfigs = configsOf(store, source.id);
  const srcDisks = disksOf(store, source.id);
  let chosenConfigs = cfgIds === undefined ? srcConfigs : cfgIds.map((id, i) => {
    const c = srcConfigs.find((x) => x.id === id);
    if (!c) fail(`Configuration profile ${id} does not belong to the source instance`, `configs.${i}`);
    return c;
  });
  if (cfgIds === undefined && faulty(store, 'P2.clone.configs.absent-all')) chosenConfigs = srcConfigs.slice(0, 1);
  if (cfgIds?.length === 0 && faulty(store, 'P2.clone.configs.empty-none')) chosenConfigs = srcConfigs;
  if (cfgIds?.length && faulty(store, 'P2.clone.configs.listed')) chosenConfigs = srcConfigs;
  const chosenDisks = new Map<number, Disk>();
  for (const c of chosenConfigs) {
    for (const s of SLOTS) {
      const d = c.devices[s]?.disk_id;
      const disk = d != null ? srcDisks.find((x) => x.id === d) : undefined;
      if (disk) chosenDisks.set(disk.id, disk);
    }
  }
  (diskIds ?? []).forEach((id, i) => {
    const d = srcDisks.find((x) => x.id === id);
    if (!d) fail(`Disk ${id} does not belong to the source instance`, `disks.${i}`);
    chosenDisks.set(d.id, d);
  });
  const needed = [...chosenDisks.values()].reduce((n, d) => n + d.size, 0);
  const usesVlan = chosenConfigs.some((c) => c.interfaces.some((i) => i.purpose === 'vlan'));

  let target: Instance | undefined;
  if (targetId !== undefined) {
    target = getInstance(store, targetId);
    if (!target || !canAccess(principal, 'compute', targetId, 'read_only')) fail(`Instance ${targetId} not found`, 'compute_id');
    if (!canAccess(principal, 'compute', targetId, 'read_write')) fail('You need read_write access to the target instance', 'compute_id', 403);
    if (target.id === source.id) fail('An instance cannot be cloned onto itself', 'compute_id');
    if (!faulty(store, 'P2.clone.compute-id.actions-complete')) requireIdle(store, target);
    const free = target.specs.disk - usedDisk(store, target.id);
    if (needed > free && !faulty(store, 'P2.clone.compute-id.enough-resources')) fail(`The target instance has ${free} MB free but the clone needs ${needed} MB`, 'compute_id');
    if (usesVlan && !store.regions.find((r) => r.id === target!.region)?.vlans) fail(`VLANs are not available in region ${target.region}`, 'compute_id');
  } else {
    if (needed > type!.disk) fail(`Type ${type!.id} (${type!.disk} MB) is too small for the cloned disks (${needed} MB)`, 'type');
    if (usesVlan && !region!.vlans) fail(`VLANs are not available in region ${region!.id}; the source uses a VLAN`, 'region');
  }
  const targetRegion = target?.region ?? region!.id;
  const vlanLabels = new Set(chosenConfigs.flatMap((c) => c.interfaces.filter((i) => i.purpose === 'vlan').map((i) => i.label!)));
  const newVlans = [...vlanLabels].filter((l) => !vlans(store).has(vlanKey(targetRegion, l)));
  let inRegion = 0;
  for (const v of vlans(store).values()) if (v.region === targetRegion) inRegion++;
  if (inRegion + newVlans.length > 10) fail(`At most 10 VLANs can exist in region ${targetRegion}; the clone would create more`, targetId !== undefined ? 'compute_id' : 'region');
  let running = 0;
  for (const c of clones(store).values()) if (c.source === source.id) running++;
  if (running >= (faulty(store, 'P2.clone.max-5-concurrent') ? 6 : 5)) {
    throw new ApiError(faulty(store, 'P1.errors.clone.sixth-concurrent-400') ? 409 : 400, 'At most 5 clone operations from one source instance may run at the same time; wait for one to finish', null, true);
  }

  // Valid: perform the clone.
  if (!target) {
    target = makeInstance(ctx, {
      region: region!, type: type!, label, image: source.image, status: 'provisioning', group: group ?? source.group,
      tags: faulty(store, 'P2.clone.tags-copied') ? [] : [...source.tags], privateIp: source.ipv4.length > 1, backupsEnabled,
    });
  } else {
    if (group !== undefined) target.group = group;
    if (faulty(store, 'P2.instance-clone.label.new-instance-only') && typeof o.label === 'string') target.label = o.label;
    if (!faulty(store, 'P2.clone.tags-copied')) for (const t of source.tags) if (!target.tags.includes(t)) target.tags.push(t);
  }
  const map = new Map<number, number>();
  const layout: BackupConfig[] = chosenConfigs.map((c) => ({
    label: c.label, kernel: c.kernel, run_level: c.run_level, virt_mode: c.virt_mode, interfaces: c.interfaces,
    slots: Object.fromEntries(SLOTS.flatMap((s) => (c.devices[s]?.disk_id != null ? [[s, c.devices[s]!.disk_id!]] : []))),
  }));
  copyLayout(store, target, [...chosenDisks.values()], layout, map);
  createVlans(store, target.region, newVlans);
  touch(store, target);
  const job: CloneJob = { id: store.nextId('clone'), source: source.id, target: target.id };
  clones(store).set(String(job.id), job);
  const targetRef = target.id;
  store.schedule(new Date(store.now().getTime() + CLONE_MS), (s) => {
    if (!s.table<CloneJob>(T.clones).delete(String(job.id))) return;
    const t = getInstance(s, targetRef);
    if (t && t.status === 'provisioning') { t.status = 'offline'; t.updated = s.nowIso(); }
  });
  // The fault records a status outside the documented enum (hence the cast).
  emit(ctx, 'compute_clone', source, target, faulty(store, 'P1.event.status.enum~compute-clone') ? ('running' as unknown as 'started') : 'started');
  return target;
}

// ---------------------------------------------------------------------------------------------------------------
// Handlers: configuration profiles

function devicesOf(store: Store, inst: Instance, raw: Record<string, unknown>, path: string, allowed: readonly SlotName[]): Partial<Devices> {
  const out: Partial<Devices> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = `${path}.${key}`;
    if (!(SLOTS as readonly string[]).includes(key)) fail(`Unknown device slot "${key}"; use sda to sdh`, field);
    const slot = key as SlotName;
    if (!allowed.includes(slot)) fail(`Device slot ${slot} is not available here`, field);
    if (value === null) { out[slot] = null; continue; }
    const obj = asObject(value, field);
    const diskId = optInt(obj, 'disk_id', { nullable: true, path: field }) ?? null;
    let volumeId = optInt(obj, 'volume_id', { nullable: true, path: field }) ?? null;
    if (diskId !== null && volumeId !== null) {
      if (!faulty(store, 'P2.device-map.slot.one-type')) fail('A device slot holds either disk_id or volume_id, not both', field);
      volumeId = null;
    }
    if (diskId !== null) {
      const d = getDisk(store, diskId);
      if (!d || d.compute_id !== inst.id) fail(`Disk ${diskId} does not belong to this instance`, `${field}.disk_id`);
    }
    if (volumeId !== null) {
      const v = getVolume(store, volumeId);
      if (!v) fail(`Volume ${volumeId} not found`, `${field}.volume_id`);
      if (v.region !== inst.region) fail(`Volume ${volumeId} is in region ${v.region}, not ${inst.region}`, `${field}.volume_id`);
      if (v.compute_id !== null && v.compute_id !== inst.id) fail(`Volume ${volumeId} is attached to another instance`, `${field}.volume_id`);
    }
    out[slot] = diskId === null && volumeId === null ? null : { disk_id: diskId, volume_id: volumeId };
  }
  return out;
}

const FULLVIRT_FORBIDDEN: SlotName[] = ['sde', 'sdf', 'sdg', 'sdh'];
const HELPERS = ['devtmpfs_automount', 'distro', 'modules_dep', 'network', 'updatedb_disabled'] as const;

/** Validates a configuration profile body (create when `existing` is undefined) and returns the merged profile fields. */
function configFields(ctx: RequestContext, inst: Instance, existing?: Config) {
  const { store } = ctx;
  const o = asObject(ctx.body ?? {});
  const create = existing === undefined;
  const labelBounds = { min: faulty(store, 'P2.config.label.min-1') ? 0 : 1, max: faulty(store, 'P2.config.label.max-48') ? 96 : 48 };
  const label = create && !faulty(store, 'P2.config-create.label.required') ? reqString(o, 'label', labelBounds) : optString(o, 'label', labelBounds) ?? (create ? 'Profile' : undefined);
  const devRaw = faulty(store, 'P2.device-map.types') && typeof o.devices === 'string'
    ? {}
    : create && !faulty(store, 'P2.config-create.devices.required') ? reqObject(o, 'devices') : optObject(o, 'devices');
  if (!create && Object.keys(o).length === 0 && faulty(store, 'P2.config.update.nothing-required')) fail('Give at least one field to update', null);
  const comments = optString(o, 'comments', { nullable: true });
  const helpersIn = optObject(o, 'helpers');
  const helpers = { ...(existing?.helpers ?? { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true }) };
  if (helpersIn) for (const h of HELPERS) { const v = optBool(helpersIn, h, { path: 'helpers' }); if (v !== undefined) helpers[h] = v; }
  const ifaces = interfacesOf(store, o, inst.region);
  const kernel = optString(o, 'kernel');
  if (kernel !== undefined && !KERNELS.some((k) => k.id === kernel)) fail(`Unknown kernel "${kernel}"; see GET /v4/compute/kernels`, 'kernel');
  const memoryLimit = optInt(o, 'memory_limit', { min: 0, max: inst.specs.memory });
  const rootRaw = optString(o, 'root_device');
  // The document: default /dev/sda when absent or invalid (an invalid device is not an error).
  const rootDevice = rootRaw === undefined ? undefined : /^\/dev\/sd[a-h]$/.test(rootRaw) ? rootRaw : '/dev/sda';
  const runLevel = optString(o, 'run_level', { enum: faulty(store, 'P2.config.run-level.enum') ? undefined : ['default', 'single', 'binbash'] }) as Config['run_level'] | undefined;
  const virtIn = optString(o, 'virt_mode', { enum: faulty(store, 'P2.config.virt-mode.enum') ? undefined : ['paravirt', 'fullvirt'] });
  const virtMode = (virtIn === undefined || virtIn === 'fullvirt' ? virtIn : 'paravirt') as Config['virt_mode'] | undefined;
  const devices: Devices = { ...(existing?.devices ?? emptyDevices()) };
  if (devRaw) {
    // On update the device map given replaces the profile's map.
    Object.assign(devices, emptyDevices(), devicesOf(store, inst, devRaw, 'devices', SLOTS));
  }
  if ((virtMode ?? existing?.virt_mode) === 'fullvirt' && !faulty(store, 'P2.config.devices.fullvirt-sda-to-sdd')) {
    for (const s of FULLVIRT_FORBIDDEN) {
      if (devices[s] !== null) fail(`Device slot ${s} is unavailable in fullvirt mode; use sda to sdd`, devRaw && s in devRaw ? `devices.${s}` : 'virt_mode');
    }
  }
  return {
    label, comments, helpers, devices, newVlans: ifaces?.newVlans ?? [], interfaces: ifaces?.list,
    kernel, memory_limit: memoryLimit, root_device: rootDevice, run_level: runLevel, virt_mode: virtMode,
  };
}

function configOr404(ctx: RequestContext, inst: Instance): Config {
  const raw = ctx.params.configId ?? '';
  const c = /^[0-9]{1,15}$/.test(raw) ? configs(ctx.store).get(String(Number(raw))) : undefined;
  if (!c || c.compute_id !== inst.id) fail('Not found: no such configuration profile on this instance', null, 404);
  return c;
}

function configsListHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  return paginate(ctx, configsOf(ctx.store, inst.id));
}

function configCreateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const f = configFields(ctx, inst);
  createVlans(store, inst.region, f.newVlans);
  const c = newConfig(store, inst, {
    label: f.label!, comments: f.comments ?? null, helpers: f.helpers, devices: f.devices, interfaces: f.interfaces,
    kernel: f.kernel, memory_limit: f.memory_limit ?? undefined, root_device: f.root_device, run_level: f.run_level, virt_mode: f.virt_mode,
  });
  emit(ctx, 'compute_config_create', inst);
  return c;
}

function configViewHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  return configOr404(ctx, inst);
}

function configUpdateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const c = configOr404(ctx, inst);
  const f = configFields(ctx, inst, c);
  createVlans(store, inst.region, f.newVlans);
  if (f.label !== undefined) c.label = f.label;
  if (f.comments !== undefined) c.comments = f.comments;
  c.helpers = f.helpers;
  c.devices = f.devices;
  if (f.interfaces !== undefined) {
    c.interfaces = faulty(store, 'P2.interfaces.update-redefines-all')
      ? [...f.interfaces, ...c.interfaces.filter((old) => !f.interfaces!.some((i) => i.purpose === old.purpose && i.label === old.label))].slice(0, 3)
      : f.interfaces;
  }
  if (f.kernel !== undefined) c.kernel = f.kernel;
  if (f.memory_limit !== undefined && f.memory_limit !== null) c.memory_limit = f.memory_limit;
  if (f.root_device !== undefined) c.root_device = f.root_device;
  if (f.run_level !== undefined) c.run_level = f.run_level;
  if (f.virt_mode !== undefined) c.virt_mode = f.virt_mode;
  c.updated = store.nowIso();
  emit(ctx, 'compute_config_update', inst);
  return c;
}

function configDeleteHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const c = configOr404(ctx, inst);
  removeChild(store, T.configs, c);
  const st = stateOf(store, inst.id);
  if (st.lastBootedConfig === c.id) st.lastBootedConfig = null;
  emit(ctx, 'compute_config_delete', inst);
  return {};
}

// ---------------------------------------------------------------------------------------------------------------
// Handlers: statistics, transfer, volumes, kernels

/**
 * Validates `{year}/{month}` of the statistics or transfer view: integers, month 1..12, not after the current
 * (simulated) month, year within bounds.
 */
function yearMonth(ctx: RequestContext, kind: 'stats' | 'transfer', minYear: number, maxYear: number): { year: number; month: number } {
  const { store } = ctx;
  const y = ctx.params.year ?? '';
  const m = ctx.params.month ?? '';
  if (!/^[0-9]{1,6}$/.test(y)) fail('year must be an integer', 'year');
  if (!/^[0-9]{1,6}$/.test(m)) fail('month must be an integer', 'month');
  const year = Number(y);
  const month = Number(m);
  const lowestYear = kind === 'transfer' && faulty(store, 'P2.transfer.year.min-2000') ? 1970 : minYear;
  if (year < lowestYear || year > maxYear) fail(`year must be between ${minYear} and ${maxYear}`, 'year');
  if (month < 1 && !faulty(store, kind === 'stats' ? 'P2.stats.month.min-1' : 'P2.transfer.month.min-1')) fail('month must be between 1 and 12', 'month');
  if (month > 12 && !faulty(store, kind === 'stats' ? 'P2.stats.month.max-12' : 'P2.transfer.month.max-12')) fail('month must be between 1 and 12', 'month');
  const now = store.now();
  const cy = now.getUTCFullYear();
  const cm = now.getUTCMonth() + 1;
  const future = year > cy || (year === cy && month > cm);
  if (future && !faulty(store, kind === 'stats' ? 'P2.stats.past-or-current' : 'P2.transfer.past-or-current')) fail('Only the current month or a past month can be requested', 'month');
  return { year, month };
}

/** Deterministic series of [timestamp ms, value] points, one per hour. */
function series(from: number, to: number, seed: number, scale: number): [number, number][] {
  const out: [number, number][] = [];
  const step = 3_600_000;
  for (let t = Math.ceil(from / step) * step, i = 0; t <= to; t += step, i++) {
    out.push([t, Math.round(((Math.sin(seed + i / 3) + 1) * scale) * 100) / 100]);
  }
  return out;
}

function statsBody(inst: Instance, from: number, to: number) {
  const s = inst.status === 'running' ? 1 : 0;
  const mk = (k: number, scale: number) => series(from, to, inst.id * 7 + k, scale * s);
  return {
    title: `${inst.label} (${inst.id})`,
    cpu: mk(1, 5),
    io: { io: mk(2, 3), swap: mk(3, 0.2) },
    netv4: { in: mk(4, 800), out: mk(5, 400), private_in: mk(6, 20), private_out: mk(7, 20) },
    netv6: { in: mk(8, 200), out: mk(9, 100), private_in: mk(10, 0), private_out: mk(11, 0) },
  };
}

function statsHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const to = ctx.store.now().getTime();
  return statsBody(inst, to - DAY_MS, to);
}

// Lowest year of the statistics view is not shown: the same 2000..2037 as transfer statistics.
function statsMonthHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const { year, month } = yearMonth(ctx, 'stats', 2000, 2037);
  const now = ctx.store.now();
  const current = year === now.getUTCFullYear() && month === now.getUTCMonth() + 1;
  const from = current ? now.getTime() - 30 * DAY_MS : Date.UTC(year, month - 1, 1);
  const to = current ? now.getTime() : Date.UTC(year, month, 1) - 1;
  return statsBody(inst, from, to);
}

function transferUsed(inst: Instance, year: number, month: number): number {
  if (inst.status !== 'running') return 0;
  return ((inst.id * 7919 + year * 13 + month * 31) % 1000) * 1_048_576;
}

function transferHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const now = ctx.store.now();
  return { used: transferUsed(inst, now.getUTCFullYear(), now.getUTCMonth() + 1), quota: inst.specs.transfer, billable: 0 };
}

function transferMonthHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const { year, month } = yearMonth(ctx, 'transfer', 2000, 2037);
  const total = transferUsed(inst, year, month);
  const bytesIn = Math.floor(total / 2);
  return { bytes_in: bytesIn, bytes_out: total - bytesIn, bytes_total: total };
}

function volumesHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const attached = (v: Volume) => v.compute_id === inst.id || (v.compute_id === null && v.region === inst.region && faulty(ctx.store, 'P2.volumes.attached'));
  return paginate(ctx, listVolumes(ctx.store).filter((v) => attached(v) && canAccess(ctx.principal, 'volume', v.id, 'read_only')));
}

function kernelsHandler(ctx: RequestContext) {
  return paginate(ctx, KERNELS);
}

function kernelViewHandler(ctx: RequestContext) {
  const k = KERNELS.find((x) => x.id === ctx.params.kernelId);
  if (!k) fail('Not found: no such kernel', null, 404);
  return k;
}

// ---------------------------------------------------------------------------------------------------------------
// Seed

function seed(store: Store): void {
  const now = store.nowIso();
  const seedCtx = { store, principal: null } as unknown as RequestContext;
  const region = store.regions[0]!;
  const type = typeById(store, 'g6-standard-1');
  const inst = makeInstance(seedCtx, { region, type, label: 'seed-web-1', image: 'compute/debian12', status: 'running', tags: ['seed'] });
  const main = newDisk(store, inst.id, 'Debian 12 Disk', type.disk - 512, 'ext4');
  const swap = newDisk(store, inst.id, '512 MB Swap Image', 512, 'swap');
  const devices = emptyDevices();
  devices.sda = { disk_id: main.id, volume_id: null };
  devices.sdb = { disk_id: swap.id, volume_id: null };
  const cfg = newConfig(store, inst, { label: 'My Debian 12 Profile', devices });
  stateOf(store, inst.id).lastBootedConfig = cfg.id;

  const volumes = store.table<Volume>(T.volumes);
  const vol = (label: string, regionId: string, size: number, attached: Instance | null, tags: string[]) => {
    const v: Volume = {
      id: store.nextId('volume'), label, region: regionId, size, status: faulty(store, 'P2.volume.status.enum') ? 'ready' as Volume['status'] : 'active',
      hardware_type: faulty(store, 'P2.volume.hardware-type.enum') ? 'ssd' as Volume['hardware_type'] : 'nvme',
      filesystem_path: `/dev/disk/by-id/scsi-0CHS_Volume_${label}`, compute_id: attached?.id ?? null,
      compute_label: attached?.label ?? null, tags, created: now, updated: now,
    };
    if (faulty(store, 'P2.volume.types')) Object.assign(v, { size: String(size) });
    volumes.set(String(v.id), v);
  };
  vol('seed-data-1', region.id, 20, inst, ['seed']);
  vol('seed-data-2', region.id, 40, null, []);
  vol('seed-archive', store.regions[1]?.id ?? region.id, 100, null, ['seed']);

  const balancers = store.table<Balancer>(T.balancers);
  const lb = (label: string, regionId: string, tags: string[]) => {
    const ipv4 = store.allocateIpv4(regionId, true);
    const b: Balancer = {
      id: store.nextId('balancer'), label, region: regionId, ipv4, ipv6: faulty(store, 'P2.load-balancer.ipv6.format') ? ipv4 : null,
      hostname: `${faulty(store, 'P2.load-balancer.hostname.ip-prefix') ? label : ipv4.replace(/\./g, '-')}.lb.chs-emulator.example`,
      client_conn_throttle: faulty(store, 'P2.load-balancer.client-conn-throttle.max-20') ? 25 : 0,
      transfer: { in: null, out: null, total: null }, tags, created: now, updated: now,
    };
    balancers.set(String(b.id), b);
  };
  lb('seed-lb-1', region.id, ['seed']);
  lb('seed-lb-2', store.regions[1]?.id ?? region.id, []);
}

// ---------------------------------------------------------------------------------------------------------------

const I = '/v4/compute/instances/{computeId}';
const rw = ['compute:read_write'];
const ro = ['compute:read_only'];
const r = (method: Route['method'], path: string, scopes: string[], handler: Route['handler'], auth: Route['auth'] = 'token'): Route => ({ method, path, scopes, auth, handler });

export const area: Area = {
  name: 'compute',
  seed,
  routes: [
    r('GET', '/v4/compute/instances', ro, listHandler),
    r('POST', '/v4/compute/instances', rw, createHandler),
    r('GET', I, ro, viewHandler),
    r('PUT', I, rw, updateHandler),
    r('DELETE', I, rw, deleteHandler),
    r('GET', `${I}/backups`, ro, backupsListHandler),
    r('POST', `${I}/backups`, rw, snapshotHandler),
    r('POST', `${I}/backups/cancel`, rw, backupsCancelHandler),
    r('POST', `${I}/backups/enable`, rw, backupsEnableHandler),
    r('GET', `${I}/backups/{backupId}`, ro, backupViewHandler),
    r('POST', `${I}/backups/{backupId}/restore`, rw, restoreHandler),
    r('POST', `${I}/boot`, rw, bootHandler),
    r('POST', `${I}/clone`, rw, cloneHandler),
    r('GET', `${I}/configs`, ro, configsListHandler),
    r('POST', `${I}/configs`, rw, configCreateHandler),
    r('GET', `${I}/configs/{configId}`, ro, configViewHandler),
    r('PUT', `${I}/configs/{configId}`, rw, configUpdateHandler),
    r('DELETE', `${I}/configs/{configId}`, rw, configDeleteHandler),
    r('POST', `${I}/rescue`, rw, rescueHandler),
    r('POST', `${I}/resize`, rw, resizeHandler),
    r('POST', `${I}/shutdown`, rw, shutdownHandler),
    r('GET', `${I}/stats`, ro, statsHandler),
    r('GET', `${I}/stats/{year}/{month}`, ro, statsMonthHandler),
    r('GET', `${I}/transfer`, ro, transferHandler),
    r('GET', `${I}/transfer/{year}/{month}`, ro, transferMonthHandler),
    r('GET', `${I}/volumes`, ro, volumesHandler),
    r('GET', '/v4/compute/kernels', [], kernelsHandler, 'none'),
    r('GET', '/v4/compute/kernels/{kernelId}', [], kernelViewHandler, 'none'),
  ],
};
