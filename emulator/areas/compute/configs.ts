// Configuration profiles of an instance: list, create, view, update, delete.
import type { Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, optBool, optInt, optObject, optString, reqObject, reqString } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { createVlans, interfacesOf } from './interfaces.js';
import { kernelsOf } from './kernels.js';
import { devicesOf, emptyDevices, newConfig } from './layout.js';
import {
  configs,
  configsOf,
  emit,
  instanceOr404,
  removeChild,
  requireIdle,
  SLOTS,
  stateOf,
  T,
  type Config,
  type Devices,
  type Instance,
  type SlotName,
} from './model.js';

/** How long a profile's deletion runs under the variation profile-delete-runs-a-while. */
const PROFILE_DELETE_MS = 60_000;

const FULLVIRT_FORBIDDEN: SlotName[] = ['sde', 'sdf', 'sdg', 'sdh'];
const HELPERS = ['devtmpfs_automount', 'distro', 'modules_dep', 'network', 'updatedb_disabled'] as const;

/** Validates a configuration profile body (create when `existing` is undefined) and returns the merged profile fields. */
function configFields(ctx: RequestContext, inst: Instance, existing?: Config) {
  const { store } = ctx;
  const o = asObject(ctx.body ?? {});
  const create = existing === undefined;
  const labelBounds = { min: faulty(store, 'P2.config.label.min-1') ? 0 : 1, max: faulty(store, 'P2.config.label.max-48') ? 96 : 48 };
  const label =
    create && !faulty(store, 'P2.config-create.label.required')
      ? reqString(o, 'label', labelBounds)
      : (optString(o, 'label', labelBounds) ?? (create ? 'Profile' : undefined));
  const devRaw =
    faulty(store, 'P2.device-map.types') && typeof o.devices === 'string'
      ? {}
      : create && !faulty(store, 'P2.config-create.devices.required')
        ? reqObject(o, 'devices')
        : optObject(o, 'devices');
  if (!create && o.label === undefined && faulty(store, 'P2.config.update.nothing-required')) fail('label is required', 'label');
  const comments = optString(o, 'comments', { nullable: true });
  const helpersIn = optObject(o, 'helpers');
  // Under the variation profile-defaults-null a member with a documented default shows null while not given.
  const unsetShowsNull = varied(store, 'profile-defaults-null');
  const devtmpfs = unsetShowsNull ? null : faulty(store, 'P2.config.helpers.devtmpfs-default');
  const helpers = { ...(existing?.helpers ?? { devtmpfs_automount: devtmpfs, distro: true, modules_dep: true, network: true, updatedb_disabled: true }) };
  if (helpersIn)
    for (const h of HELPERS) {
      const v = optBool(helpersIn, h, { path: 'helpers' });
      // Under the variation helpers-whole a body's helpers name every helper without a documented default.
      if (v === undefined && h !== 'devtmpfs_automount' && varied(store, 'helpers-whole'))
        fail(`helpers must name every helper: ${h} is missing`, `helpers.${h}`);
      if (v !== undefined) helpers[h] = v;
    }
  const otherProfiles = configsOf(store, inst.id).filter((config) => config.id !== existing?.id);
  const ifaces = interfacesOf(
    store,
    o,
    inst.region,
    'interfaces',
    otherProfiles.flatMap((config) => config.interfaces),
    existing !== undefined,
  );
  const kernel = optString(o, 'kernel');
  if (kernel !== undefined && !faulty(store, 'P2.config.kernel.known') && !kernelsOf(store).some((k) => k.id === kernel))
    fail(`Unknown kernel "${kernel}"; see GET /v4/compute/kernels`, 'kernel');
  const memoryLimit = optInt(o, 'memory_limit', { min: 0, max: inst.specs.memory });
  // Under the variation a root_device of another type is as invalid as a bad path: the default.
  const rootRaw =
    varied(store, 'root-device-any-invalid') && o.root_device !== undefined && typeof o.root_device !== 'string' ? '' : optString(o, 'root_device');
  // The document: default /dev/sda when absent or invalid (an invalid device is not an error).
  const validRoot = rootRaw === undefined || /^\/dev\/sd[a-h]$/.test(rootRaw);
  if (!validRoot && faulty(store, 'P2.config.root-device.default-sda'))
    fail(`root_device "${rootRaw}" is not a device path /dev/sda to /dev/sdh`, 'root_device');
  const rootDevice = rootRaw === undefined ? undefined : validRoot ? rootRaw : unsetShowsNull ? null : '/dev/sda';
  const runLevel = optString(o, 'run_level', { enum: faulty(store, 'P2.config.run-level.enum') ? undefined : ['default', 'single', 'binbash'] }) as
    Config['run_level'] | undefined;
  const virtIn = optString(o, 'virt_mode', { enum: faulty(store, 'P2.config.virt-mode.enum') ? undefined : ['paravirt', 'fullvirt'] });
  const virtMode = (virtIn === undefined || virtIn === 'fullvirt' ? virtIn : 'paravirt') as Config['virt_mode'] | undefined;
  const devices: Devices = { ...(existing?.devices ?? emptyDevices()) };
  if (devRaw) {
    // On update the device map given replaces the profile's map.
    Object.assign(devices, emptyDevices(), devicesOf(store, inst, devRaw, 'devices', SLOTS));
  }
  const slotsUnchecked = faulty(store, 'P2.config.devices.fullvirt-sda-to-sdd') || (existing && faulty(store, 'P2.config.devices.fullvirt-sda-to-sdd~update'));
  // The slots are checked against the mode given, else the profile's, else the default: a profile showing none (null
  // under profile-defaults-null) has the default, paravirt (fullvirt under the fault P2.config.virt-mode.default).
  const defaultMode = faulty(store, 'P2.config.virt-mode.default') ? 'fullvirt' : 'paravirt';
  if ((virtMode ?? existing?.virt_mode ?? defaultMode) === 'fullvirt' && !slotsUnchecked) {
    // Under the variation an unavailable slot may not be named at all, not even as null.
    const forbidden = faulty(store, 'P2.config.devices.fullvirt-sda-to-sdd~off-by-one') ? FULLVIRT_FORBIDDEN.slice(1) : FULLVIRT_FORBIDDEN;
    if (varied(store, 'device-slots-strict'))
      for (const s of forbidden) if (devRaw && s in devRaw) fail(`Device slot ${s} is unavailable in fullvirt mode; use sda to sdd`, `devices.${s}`);
    for (const s of forbidden) {
      // Under the variation error-field-names-sent-member a body sending fullvirt is faulted for its virt_mode.
      const slotAtFault = devRaw && s in devRaw && !(virtIn === 'fullvirt' && varied(store, 'error-field-names-sent-member'));
      if (devices[s] !== null) fail(`Device slot ${s} is unavailable in fullvirt mode; use sda to sdd`, slotAtFault ? `devices.${s}` : 'virt_mode');
    }
  }
  return {
    label,
    comments,
    helpers,
    devices,
    newVlans: ifaces?.newVlans ?? [],
    interfaces: ifaces?.list,
    kernel,
    memory_limit: memoryLimit,
    root_device: rootDevice,
    run_level: runLevel,
    virt_mode: virtMode,
  };
}

function configOr404(ctx: RequestContext, inst: Instance): Config {
  const raw = ctx.params.configId ?? '';
  const c = /^[0-9]{1,15}$/.test(raw) ? configs(ctx.store).get(String(Number(raw))) : undefined;
  if (!c || c.compute_id !== inst.id) fail('Not found: no such configuration profile on this instance', null, 404);
  return c;
}

/**
 * Under the variation profile-writes-refused-while-busy a profile is created, updated or deleted only while its instance
 * has no running or queued action (a 400 naming no field, after the body's own checks).
 */
function refuseWhileBusy(store: Store, inst: Instance): void {
  if (varied(store, 'profile-writes-refused-while-busy')) requireIdle(store, inst);
}

export function configsListHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const profiles = configsOf(ctx.store, inst.id);
  // Under the variation profile-list-summaries an item is a summary of the profile (the view shows it whole).
  return paginate(ctx, varied(ctx.store, 'profile-list-summaries') ? profiles.map(({ id, label }) => ({ id, label })) : profiles);
}

export function configCreateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const f = configFields(ctx, inst);
  const unsetOr = <T>(value: T) => (varied(store, 'profile-defaults-null') ? null : value);
  refuseWhileBusy(store, inst);
  if (!faulty(store, 'P3.vlan.created-through-interfaces')) createVlans(store, inst.region, f.newVlans);
  const c = newConfig(store, inst, {
    label: f.label!,
    comments: f.comments ?? null,
    helpers: f.helpers,
    devices: f.devices,
    interfaces: f.interfaces,
    kernel: f.kernel,
    memory_limit: f.memory_limit ?? undefined,
    root_device: f.root_device ?? unsetOr(undefined),
    run_level: f.run_level ?? unsetOr(faulty(store, 'P2.config.run-level.default') ? 'single' : undefined),
    virt_mode: f.virt_mode ?? unsetOr(faulty(store, 'P2.config.virt-mode.default') ? 'fullvirt' : undefined),
  });
  emit(ctx, 'compute_config_create', inst);
  return c;
}

export function configViewHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  return configOr404(ctx, inst);
}

export function configUpdateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const c = configOr404(ctx, inst);
  const f = configFields(ctx, inst, c);
  refuseWhileBusy(store, inst);
  if (!faulty(store, 'P3.vlan.created-through-interfaces')) createVlans(store, inst.region, f.newVlans);
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

export function configDeleteHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const c = configOr404(ctx, inst);
  if (faulty(store, 'P2.config.listed')) return {};
  refuseWhileBusy(store, inst);
  // Under the variation profile-delete-needs-offline the profile a running instance booted last is kept until it is shut down.
  if (varied(store, 'profile-delete-needs-offline') && inst.status === 'running' && stateOf(store, inst.id).lastBootedConfig === c.id)
    fail(`Instance ${inst.id} is running profile ${c.id}: shut it down before deleting the profile`, null);
  // Gone at once, or (variation profile-delete-runs-a-while) a simulated minute later, if still there.
  const remove = (s: Store) => {
    if (configs(s).get(String(c.id)) !== c) return;
    removeChild(s, T.configs, c);
    const st = stateOf(s, c.compute_id);
    if (st.lastBootedConfig === c.id) st.lastBootedConfig = null;
  };
  if (varied(store, 'profile-delete-runs-a-while')) store.schedule(new Date(store.now().getTime() + PROFILE_DELETE_MS), remove);
  else remove(store);
  emit(ctx, 'compute_config_delete', inst);
  return {};
}
