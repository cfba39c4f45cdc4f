// An instance's disks and configuration profiles as stored: creating them, copying a layout onto another
// instance (restore, clone), snapshotting it (backups) and validating a device map.
import type { Store } from '../../core/store.js';
import { asObject, fail, optInt } from '../../core/validate.js';
import { getDisk } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { defaultKernel } from './kernels.js';
import {
  addChild,
  configsOf,
  disksOf,
  getVolume,
  removeChild,
  SLOTS,
  stateOf,
  T,
  type BackupConfig,
  type BackupDisk,
  type Config,
  type Devices,
  type Disk,
  type Instance,
  type SlotName,
} from './model.js';

export function newDisk(store: Store, computeId: number, label: string, size: number, filesystem: Disk['filesystem']): Disk {
  const now = store.nowIso();
  const id = store.newId('disk', (n) => store.table(T.disks).has(String(n)));
  const d: Disk = { id, compute_id: computeId, label, size, filesystem, status: 'ready', created: now, updated: now };
  addChild(store, T.disks, d);
  return d;
}

export const emptyDevices = (): Devices => ({ sda: null, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null });

export function newConfig(store: Store, inst: Instance, fields: Partial<Config> & { label: string }): Config {
  const now = store.nowIso();
  const c: Config = {
    id: store.newId('config', (n) => store.table(T.configs).has(String(n))),
    compute_id: inst.id,
    label: fields.label,
    comments: fields.comments ?? null,
    devices: fields.devices ?? emptyDevices(),
    helpers: fields.helpers ?? { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
    interfaces: fields.interfaces ?? [],
    kernel: fields.kernel ?? defaultKernel(store),
    memory_limit: fields.memory_limit ?? inst.specs.memory,
    root_device: fields.root_device === undefined ? '/dev/sda' : fields.root_device,
    run_level: fields.run_level === undefined ? 'default' : fields.run_level,
    virt_mode: fields.virt_mode === undefined ? 'paravirt' : fields.virt_mode,
    created: now,
    updated: now,
  };
  addChild(store, T.configs, c);
  return c;
}

export function deleteDisksAndConfigs(store: Store, id: number): void {
  for (const d of disksOf(store, id)) removeChild(store, T.disks, d);
  for (const c of configsOf(store, id)) removeChild(store, T.configs, c);
  stateOf(store, id).lastBootedConfig = null;
}

/** Copies disks (and configs remapped to the copies) onto a target instance. */
export function copyLayout(store: Store, target: Instance, diskList: BackupDisk[] | Disk[], configList: BackupConfig[], diskIdMap?: Map<number, number>): void {
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
    newConfig(store, target, {
      label: c.label,
      devices,
      kernel: c.kernel,
      run_level: c.run_level,
      virt_mode: c.virt_mode,
      interfaces: c.interfaces.map((i) => ({ ...i })),
    });
  }
}

export function snapshotLayout(store: Store, inst: Instance): { disks: BackupDisk[]; configs: BackupConfig[] } {
  const ds = disksOf(store, inst.id);
  const index = new Map(ds.map((d, i) => [d.id, i]));
  return {
    disks: ds.map((d) => ({ label: d.label, size: d.size, filesystem: d.filesystem })),
    configs: configsOf(store, inst.id).map((c) => ({
      label: c.label,
      kernel: c.kernel,
      run_level: c.run_level,
      virt_mode: c.virt_mode,
      interfaces: c.interfaces.map((i) => ({ ...i })),
      slots: Object.fromEntries(
        SLOTS.flatMap((s) => {
          const slot = c.devices[s];
          const idx = slot?.disk_id != null ? index.get(slot.disk_id) : undefined;
          return idx === undefined ? [] : [[s, idx]];
        }),
      ),
    })),
  };
}

export function devicesOf(store: Store, inst: Instance, raw: Record<string, unknown>, path: string, allowed: readonly SlotName[]): Partial<Devices> {
  const out: Partial<Devices> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = `${path}.${key}`;
    if (!(SLOTS as readonly string[]).includes(key)) fail(`Unknown device slot "${key}"; use sda to sdh`, field);
    const slot = key as SlotName;
    if (!allowed.includes(slot)) fail(`Device slot ${slot} is not available here`, field);
    if (value === null) {
      out[slot] = null;
      continue;
    }
    const obj = asObject(value, field);
    // Under the variation a slot object names disk_id or volume_id ("an object with disk_id … or volume_id …").
    if (varied(store, 'device-slots-strict') && !('disk_id' in obj) && !('volume_id' in obj))
      fail('A device slot object names disk_id or volume_id (or the slot is null)', field);
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
