// Power and placement actions on an instance: boot, shut down, rescue, resize.
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, isPlainObject, optBool, optInt, optObject, reqObject } from '../../core/validate.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { devicesOf } from './layout.js';
import { body, configsOf, disksOf, emit, instanceOr404, requireIdle, SLOTS, stateOf, touch, typeById, usedDisk, type Config } from './model.js';
import { typeOf } from './validation.js';

export function bootHandler(ctx: RequestContext) {
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
    cfg = list.find((c) => c.id === configId) ?? (faulty(store, 'P2.boot.config-id') ? list[0] : undefined);
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
  // Under the variation a boot of a profile with no device holds: accepted, and nothing booted.
  if (varied(store, 'held-boot-not-last') && !Object.values(cfg.devices).some((device) => device !== null)) return {};
  // The interfaces of the profile booted are the ones in effect: VLANs it does not name are detached (document 3).
  const kept = faulty(store, st.lastBootedConfig === cfg.id ? 'P3.vlan.detach~reboot' : 'P3.vlan.detach~boot')
    ? st.activeInterfaces.filter((i) => i.purpose === 'vlan' && !cfg.interfaces.some((n) => n.purpose === 'vlan' && n.label === i.label))
    : [];
  st.lastBootedConfig = cfg.id;
  st.activeInterfaces = [...cfg.interfaces.map((i) => ({ ...i })), ...kept];
  delete st.firstBootInterfaces;
  inst.status = 'running';
  touch(store, inst);
  emit(ctx, 'compute_boot', inst);
  return {};
}

export function shutdownHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  requireIdle(ctx.store, inst);
  if (inst.status === 'offline' && varied(ctx.store, 'shutdown-offline-refused')) fail('The instance is already offline', null);
  inst.status = 'offline';
  // Under the variation the shutdown runs a simulated minute, the instance busy meanwhile.
  if (varied(ctx.store, 'shutdown-takes-a-minute')) stateOf(ctx.store, inst.id).shuttingDownUntil = ctx.store.now().getTime() + 60_000;
  touch(ctx.store, inst);
  emit(ctx, 'compute_shutdown', inst);
  return {};
}

export function rescueHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = body(ctx);
  // Under the variation rescue-devices-required a body without devices is refused.
  const devs = varied(store, 'rescue-devices-required') ? reqObject(o, 'devices') : optObject(o, 'devices');
  if (devs) {
    const sdhAllowed = faulty(store, 'P2.instance-rescue.devices.sdh-reserved');
    if ('sdh' in devs && !sdhAllowed) fail('sdh is reserved in rescue mode; use sda to sdg', 'devices.sdh');
    devicesOf(store, inst, devs, 'devices', sdhAllowed ? SLOTS : ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg']);
  }
  requireIdle(store, inst);
  if (inst.status === 'running' && varied(store, 'rescue-running-refused')) fail('The instance is running; shut it down before rescuing it', null);
  inst.status = 'running';
  // (the fault has the rescue boot as a boot of no profile: none is the last booted then)
  if (faulty(store, 'P2.boot.last-booted~rescue')) stateOf(store, inst.id).lastBootedConfig = null;
  touch(store, inst);
  emit(ctx, 'compute_boot', inst);
  return {};
}

export function resizeHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = asObject(ctx.body ?? {});
  const type = faulty(store, 'P2.instance-resize.type.required') && o.type === undefined ? typeById(store, inst.type) : typeOf(store, o);
  const autoResize = optBool(o, 'allow_auto_disk_resize') ?? true;
  if (!faulty(store, 'P2.resize.no-running-actions')) requireIdle(store, inst);
  if (store.pastDueBalance || balanceOwed(store)) fail('The account has an outstanding balance; pay it before resizing', null);
  let used = usedDisk(store, inst.id);
  // Under the variation an automatic disk resize also shrinks the single data disk of the default layout to fit.
  const data = disksOf(store, inst.id).filter((d) => d.filesystem !== 'swap');
  if (autoResize && used > type.disk && data.length === 1 && varied(store, 'auto-resize-shrinks') && used - data[0]!.size < type.disk) {
    data[0]!.size -= used - type.disk;
    used = type.disk;
  }
  // (the fault ~equal-refused takes disks filling the new type's allocation exactly for too many: >= for >)
  const over = faulty(store, 'P2.resize.disk-allocation~equal-refused') ? used >= type.disk && used > 0 : used > type.disk;
  if (over && !faulty(store, 'P2.resize.disk-allocation')) {
    fail(`The instance's disks use ${used} MB but type ${type.id} allows ${type.disk} MB; delete or shrink disks first`, 'type');
  }
  const oldDisk = inst.specs.disk;
  inst.type = type.id;
  inst.specs = { disk: type.disk, memory: type.memory, vcpus: type.vcpus, transfer: type.transfer };
  inst.alerts.cpu = Math.min(inst.alerts.cpu, 100 * type.vcpus);
  if (autoResize && type.disk > oldDisk) {
    // Grow the single non-swap disk when the layout is the default one (one data disk plus optional swap).
    if (data.length === 1) data[0]!.size += type.disk - used;
  }
  if (faulty(store, 'P2.instance.region.migration-only'))
    inst.region = store.regions[(store.regions.findIndex((r) => r.id === inst.region) + 1) % store.regions.length]!.id;
  touch(store, inst);
  emit(ctx, 'compute_resize', inst);
  return {};
}

/** Under resize-refused-while-balance-owed any balance the account shows above 0 is outstanding (read from the account area's table). */
function balanceOwed(store: RequestContext['store']): boolean {
  if (!varied(store, 'resize-refused-while-balance-owed')) return false;
  return (store.table<{ balance?: number }>('account.account').get('1')?.balance ?? 0) > 0;
}
