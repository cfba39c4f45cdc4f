// Instances: list, create (empty, from an image or from a backup), view, update and delete.
import type { InstanceType, Region } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import type { Store } from '../../core/store.js';
import { asObject, fail, isPlainObject, optArray, optBool, optInt, optObject, optString, tagList } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';
import { canAccess, grantOwnership } from '../../core/permissions.js';
import { forgetCreated, getInstance, listInstances, noteCreated } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { deployableImage, uploadRegion } from '../images.js';
import { isPrivate4 } from '../ips-model.js';
import { backupLayouts, enableBackups } from './backups.js';
import { createVlans, interfacesOf } from './interfaces.js';
import { copyLayout, deleteDisksAndConfigs, emptyDevices, newConfig, newDisk } from './layout.js';
import {
  backups,
  backupsOf,
  clones,
  configsOf,
  activateAtFirstBoot,
  emit,
  instanceOr404,
  instances,
  labels,
  makeOnInstance,
  listVolumes,
  RELEASE_RUNS_MS,
  removeChild,
  stateOf,
  states,
  vlanGhosts,
  T,
  requireIdle,
  touch,
  type Backup,
  type Instance,
} from './model.js';
import { defaultLabel, instanceLabel, regionOf, requireAddComputes, rootPass, typeOf } from './validation.js';

/** How long after its create or clone an instance made with backups_enabled is enrolled (variation enrolment-shown-later). */
const ENROLMENT_LATER_MS = 5 * 60_000;

/** How long after its create an instance made with private_ip shows its private address (variation private-ip-when-provisioned). */
const PRIVATE_IP_LATER_MS = 2 * 60_000;

/** The size of an image's disk under the variation image-disk-image-sized (MB). */
const IMAGE_DISK_MB = 2500;

/** Builds, stores and returns a new instance object with its state (no disks or configs). */
export function makeInstance(
  ctx: RequestContext,
  f: {
    region: Region;
    type: InstanceType;
    label?: string;
    image: string | null;
    status: string;
    group?: string;
    tags?: string[];
    privateIp?: boolean;
    backupsEnabled?: boolean;
  },
): Instance {
  const { store } = ctx;
  const id = store.newId('compute', (n) => instances(store).has(String(n)));
  const now = store.nowIso();
  const ipv4 = [store.allocateIpv4(f.region.id, true)];
  if (f.image !== null && faulty(store, 'P2.instance.ipv4.one-public-on-create')) ipv4.push(store.allocateIpv4(f.region.id, true));
  // Shown at once, or (variation private-ip-when-provisioned) once the instance is provisioned (below).
  const privateLater = f.privateIp === true && varied(store, 'private-ip-when-provisioned');
  if (f.privateIp && !privateLater) ipv4.push(store.allocateIpv4(f.region.id, false));
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
    alerts: {
      cpu: faulty(store, 'P2.alerts.cpu.default-90-per-core') ? 90 : 90 * f.type.vcpus,
      io: 10000,
      network_in: 10,
      network_out: 10,
      transfer_quota: 80,
    },
    backups: { enabled: false, schedule: { day: null, window: null } },
    specs: { disk: f.type.disk, memory: f.type.memory, vcpus: f.type.vcpus, transfer: f.type.transfer },
    tags: f.tags ?? [],
    created: now,
    updated: now,
    watchdog_enabled: true,
  };
  instances(store).set(String(id), inst);
  labels(store).set(inst.label.toLowerCase(), id);
  // (a fresh state: one a task of a deleted instance of this id left is not taken over, under ids-reused)
  states(store).delete(String(id));
  stateOf(store, id);
  if (f.backupsEnabled || varied(store, 'backups-account-wide')) {
    // Enrolled at once, or (variation enrolment-shown-later) a while later, unless the service was changed meanwhile.
    if (!varied(store, 'enrolment-shown-later')) enableBackups(store, inst);
    else {
      const generation = stateOf(store, id).backupGeneration;
      store.schedule(new Date(store.now().getTime() + ENROLMENT_LATER_MS), (s) => {
        if (getInstance(s, id) === inst && stateOf(s, id).backupGeneration === generation) enableBackups(s, inst);
      });
    }
  }
  if (privateLater) {
    const region = f.region.id;
    store.schedule(new Date(store.now().getTime() + PRIVATE_IP_LATER_MS), (s) => {
      // (one allocated meanwhile through the IP endpoints stands: an instance holds at most one)
      if (getInstance(s, id) === inst && !inst.ipv4.some(isPrivate4)) inst.ipv4.push(s.allocateIpv4(region, false));
    });
  }
  grantOwnership(ctx.principal, 'compute', id);
  return inst;
}

/** The status words shown under the variation instance-status-other-words. */
const OTHER_STATUS_WORDS: Record<string, string> = { offline: 'stopped', running: 'started' };

/**
 * The instance as every response shows it: `backups` as the documents show it (schedule only), and its status in other
 * words, under those variations.
 */
function enrolmentShown(store: Store, inst: Instance): Instance | Record<string, unknown> {
  const view = varied(store, 'backups-enrolment-not-shown') ? { ...inst, backups: { schedule: inst.backups.schedule } } : inst;
  return varied(store, 'instance-status-other-words') ? { ...view, status: OTHER_STATUS_WORDS[inst.status] ?? inst.status } : view;
}

/** The member alerts-extra-member-strict shows beyond the five documented ones (and refuses in an update). */
const EXTRA_ALERT = 'cpu_window';

/**
 * The instance as view and list responses show it: the stored object, unless a fault changes how a field is shown; under
 * the variations, with a sixth alerts member (alerts-extra-member-strict) and without its null members
 * (instance-null-members-omitted).
 */
function shown(store: Store, inst: Instance): Instance | Record<string, unknown> {
  const stored = storedShown(store, inst);
  const extraAlert = varied(store, 'alerts-extra-member-strict');
  const nullsOmitted = varied(store, 'instance-null-members-omitted');
  if (!extraAlert && !nullsOmitted) return stored;
  let view: Record<string, unknown> = extraAlert ? { ...stored, alerts: { ...inst.alerts, [EXTRA_ALERT]: 120 } } : { ...stored };
  if (nullsOmitted) view = Object.fromEntries(Object.entries(view).filter(([, value]) => value !== null));
  return view;
}

/** The stored instance as shown: backups as backups-enrolment-not-shown shows them, and a fault's field on top of that. */
function storedShown(store: Store, inst: Instance): Instance | Record<string, unknown> {
  const view = enrolmentShown(store, inst);
  if (faulty(store, 'P2.instance.types')) return { ...view, specs: { ...inst.specs, memory: String(inst.specs.memory) } };
  if (faulty(store, 'P2.instance.hypervisor.enum')) return { ...view, hypervisor: 'xen' };
  if (faulty(store, 'P2.instance.ipv4.format')) return { ...view, ipv4: inst.ipv4.map((address) => `${address}/32`) };
  if (faulty(store, 'P2.instance.ipv6.format') && inst.ipv6) return { ...view, ipv6: `[${inst.ipv6.split('/')[0]}]` };
  return view;
}

export function listHandler(ctx: RequestContext) {
  // (the fault ~any-grant shows every instance to a user holding a grant on any one)
  const anyGrant = faulty(ctx.store, 'P2.instances.list.visible~any-grant') && Object.keys(ctx.principal?.grants.entities.compute ?? {}).length > 0;
  const visible = listInstances(ctx.store).filter(
    (i) => faulty(ctx.store, 'P2.instances.list.visible') || anyGrant || canAccess(ctx.principal, 'compute', i.id, 'read_only'),
  );
  return paginate(
    ctx,
    visible.map((i) => shown(ctx.store, i)),
  );
}

export function createHandler(ctx: RequestContext) {
  const { store, principal } = ctx;
  if (!faulty(store, 'P2.instances.create.add-computes')) requireAddComputes(store, principal);
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

  let image: ReturnType<typeof deployableImage>;
  if (imageId !== undefined) {
    image = deployableImage(store, faulty(store, 'P2.image.id.prefix') && !/^(compute|private)\//.test(imageId) ? 'compute/debian12' : imageId);
    // The fault ~read-write-refused takes read_only on a private image and refuses read_write.
    const writeRefused = (id: string) =>
      faulty(store, 'P2.instance-create.image.private-permission~read-write-refused') &&
      principal?.restricted === true &&
      canAccess(principal, 'image', id, 'read_write');
    const visible =
      image &&
      (image.is_public ||
        faulty(store, 'P2.instance-create.image.private-permission') ||
        // (the fault ~any-image takes a grant on any image for one on this one)
        (faulty(store, 'P2.instance-create.image.private-permission~any-image') && Object.keys(principal?.grants.entities.image ?? {}).length > 0) ||
        (canAccess(principal, 'image', image.id, 'read_only') && !writeRefused(image.id)));
    if (!image || !visible) fail(`Image "${imageId}" not found`, 'image');
    if (image.status !== 'available' && !faulty(store, 'P2.image.deploy.available-only'))
      fail(`Image "${imageId}" is ${image.status}; only available images can be deployed`, 'image');
    if (faulty(store, 'P2.images.upload.any-region') && (uploadRegion(image) ?? region.id) !== region.id)
      fail(`Image "${imageId}" was uploaded to ${uploadRegion(image)}; deploy it there`, 'region');
  }
  let backup: Backup | undefined;
  if (backupId !== undefined) {
    backup = backups(store).get(String(backupId));
    if (!backup || !canAccess(principal, 'compute', backup.compute_id, 'read_only')) fail(`Backup ${backupId} not found`, 'backup_id');
    if (!canAccess(principal, 'compute', backup.compute_id, 'read_write') && !faulty(store, 'P2.instance-create.backup-id.permission'))
      fail('You need read_write access to the instance of this backup', 'backup_id', 403);
    if (backup.status !== 'successful') fail('The backup did not complete successfully and cannot be restored', 'backup_id');
    if (backup.region !== region.id && !faulty(store, 'P2.instance-create.backup-id.same-region'))
      fail(`The backup is in region ${backup.region}; create the instance in that region`, 'region');
    const needed = backup.disks.reduce((n, d) => n + d.size, 0);
    if (needed > type.disk && !faulty(store, 'P2.instance-create.backup-id.big-enough'))
      fail(`Type ${type.id} (${type.disk} MB) is too small for the backup (${needed} MB); choose a larger type`, 'type');
  }
  const pass = rootPass(store, o, imageId !== undefined);
  for (const key of ['authorized_keys', 'authorized_users'] as const) {
    const arr = optArray(o, key);
    arr?.forEach((v, i) => {
      if (typeof v !== 'string' || v.length === 0) fail('Must be a non-empty string', `${key}.${i}`);
    });
  }
  const scriptId = optInt(o, 'script_id', { min: 1, nullable: true }) ?? undefined;
  const scriptIgnored =
    (backupId !== undefined && faulty(store, 'P2.instance-create.script-id.exclusive-backup-id')) ||
    (imageId === undefined && faulty(store, 'P2.instance-create.script-id.requires-image'));
  if (scriptId !== undefined && !scriptIgnored) {
    if (backupId !== undefined) fail('script_id cannot be used with backup_id', 'script_id');
    if (imageId === undefined) fail('script_id needs a compatible image (and root_pass)', 'image');
    if (!image!.is_public && !faulty(store, 'P2.instance-create.script-id.not-private-image'))
      fail('script_id cannot be used with a private image', 'script_id');
  }
  const scriptData = optObject(o, 'script_data', { nullable: true });
  if (scriptData && scriptId === undefined && varied(store, 'script-data-needs-script'))
    fail('script_data is the input of a deployment script: give script_id', 'script_data');
  // swap_size bounds are not shown: 0 up to the type's disk less 1 MB (the main disk needs room).
  const swap = optInt(o, 'swap_size', { min: 0, max: type.disk - 1 }) ?? 512;
  if (imageId !== undefined && varied(store, 'image-disk-image-sized') && swap > type.disk - IMAGE_DISK_MB)
    fail(`A swap disk of ${swap} MB leaves no room for the image's ${IMAGE_DISK_MB} MB on type ${type.id}.`, 'swap_size');
  const booted = optBool(o, 'booted');
  if (booted === true && imageId === undefined && backupId === undefined && varied(store, 'empty-boot-refused'))
    fail('An instance created without an image or a backup has nothing to boot: leave booted out or set it to false.', 'booted');
  const backupsEnabled = (optBool(o, 'backups_enabled') ?? false) && !faulty(store, 'P2.instance-create.backups-enabled.enrols');
  const privateIp = !faulty(store, 'P2.instance-create.private-ip') && (optBool(o, 'private_ip') ?? false);
  const ifaces = interfacesOf(store, o, region.id);
  if (ifaces && imageId === undefined && varied(store, 'interfaces-need-image'))
    fail('interfaces can only be given with an image; add them to a configuration profile afterwards', 'interfaces');
  const group = optString(o, 'group');
  const tags = tagList(ctx, o, { unrestrictedOnly: !faulty(store, 'P2.instance-create.tags-unrestricted') });

  // Everything is valid: from here on nothing fails.
  const deployed = image !== undefined || backup !== undefined;
  const offlineByDefault =
    faulty(store, 'P2.instance-create.booted.default-true~default-offline') ||
    (backup !== undefined && faulty(store, 'P2.instance-create.booted.default-true~backup-offline'));
  // The faults boot an image deploy (default-true), or a backup deploy (~backup-booted), whatever booted says.
  const bootedAnyway =
    (image !== undefined && faulty(store, 'P2.instance-create.booted.default-true')) ||
    (backup !== undefined && faulty(store, 'P2.instance-create.booted.default-true~backup-booted'));
  const running = deployed && ((offlineByDefault ? booted === true : booted !== false) || bootedAnyway);
  const inst = makeInstance(ctx, {
    region,
    type,
    label,
    image: image?.id ?? null,
    status: running ? 'running' : 'offline',
    group,
    tags: faulty(store, 'P2.instance-create.tags-shown') ? [] : tags,
    privateIp,
    backupsEnabled,
  });
  noteCreated(store, inst);
  if (ifaces && !faulty(store, 'P3.vlan.list-account')) createVlans(store, region.id, ifaces.newVlans);
  const interfaces = ifaces?.list ?? [];
  if (ifaces?.list.length === 0 && faulty(store, 'P2.interfaces.empty-default-public')) inst.ipv4 = inst.ipv4.slice(1);
  const st = stateOf(store, inst.id);
  const vlanMode = faulty(store, 'P2.instance-create.vlan-mode') ? [] : interfaces;
  if (running) activateAtFirstBoot(store, inst, vlanMode);
  else st.activeInterfaces = vlanMode;
  if (image) {
    st.rootPass = pass ?? null;
    // The default layout: made at once, or (variation image-layout-when-provisioned) once the deploy is provisioned.
    makeOnInstance(store, 'layout', inst.id, (onto) => {
      // The image's disk fills what the swap disk leaves, or (a variation) holds only the image.
      const mainSize = varied(store, 'image-disk-image-sized') ? IMAGE_DISK_MB : type.disk - swap;
      const main = newDisk(store, onto.id, `${image.label} Disk`, mainSize, 'ext4');
      const devices = emptyDevices();
      devices.sda = { disk_id: main.id, volume_id: null };
      const swapDisk = swap > 0 ? newDisk(store, onto.id, `${swap} MB Swap Image`, swap, 'swap') : undefined;
      if (swapDisk && !faulty(store, 'P2.instance-create.image.two-disks')) devices.sdb = { disk_id: swapDisk.id, volume_id: null };
      const cfg = newConfig(store, onto, { label: `My ${image.label} Profile`, devices, interfaces });
      if (faulty(store, 'P2.instance-create.image.default-config')) newConfig(store, onto, { label: 'Recovery Profile', devices: { ...devices } });
      if (running) st.lastBootedConfig = cfg.id;
    });
  } else if (backup) {
    const layouts = faulty(store, 'P2.instance-create.backup-id.copies-config') ? [] : (backupLayouts.get(backup) ?? []);
    st.rootPass = stateOf(store, backup.compute_id).rootPass;
    makeOnInstance(store, 'copy', inst.id, (onto) => {
      copyLayout(store, onto, backup.disks, layouts);
      const cfgs = configsOf(store, onto.id);
      if (interfaces.length > 0) for (const c of cfgs) c.interfaces = interfaces.map((i) => ({ ...i }));
      if (running && cfgs[0]) {
        st.lastBootedConfig = cfgs[0].id;
        activateAtFirstBoot(store, onto, cfgs[0].interfaces);
      }
    });
  } else if (faulty(store, 'P2.instance-create.empty.no-configs')) {
    newConfig(store, inst, { label: 'My Profile', interfaces });
  }
  if (!varied(store, 'instance-events-silent')) emit(ctx, 'compute_create', inst);
  if (varied(store, 'instance-create-answers-summary')) return { id: inst.id, label: inst.label, status: inst.status };
  return enrolmentShown(store, inst);
}

export function viewHandler(ctx: RequestContext) {
  return shown(ctx.store, instanceOr404(ctx, ctx.params.computeId!, 'read_only'));
}

const DAYS = ['Scheduling', 'Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const WINDOWS = ['Scheduling', 'W0', 'W2', 'W4', 'W6', 'W8', 'W10', 'W12', 'W14', 'W16', 'W18', 'W20', 'W22'] as const;

export function updateHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = faulty(store, 'P2.instance-update.types') && !isPlainObject(ctx.body) ? {} : asObject(ctx.body ?? {});
  const label = instanceLabel(o, store, inst.id);
  const alertsIn = optObject(o, 'alerts');
  const alerts = { ...inst.alerts };
  if (alertsIn) {
    if (varied(store, 'alerts-extra-member-strict'))
      for (const k of Object.keys(alertsIn))
        if (!Object.hasOwn(inst.alerts, k)) fail(`alerts has no member ${k}: name only cpu, io, network_in, network_out and transfer_quota`, `alerts.${k}`);
    const limits: Record<keyof Instance['alerts'], number> = {
      cpu: 100 * inst.specs.vcpus,
      io: 1_000_000,
      network_in: 1_000_000,
      network_out: 1_000_000,
      transfer_quota: 100,
    };
    for (const k of Object.keys(limits) as (keyof Instance['alerts'])[]) {
      const v = optInt(alertsIn, k, { min: 0, max: limits[k], path: 'alerts' });
      // Under the variation alerts-whole an update's alerts name all five thresholds.
      if (v === undefined && varied(store, 'alerts-whole')) fail(`alerts must name every threshold: ${k} is missing`, `alerts.${k}`);
      if (v !== undefined && v !== null) alerts[k] = v;
    }
  }
  const backupsIn = optObject(o, 'backups');
  let schedule: Instance['backups']['schedule'] | undefined;
  if (backupsIn) {
    const sch = optObject(backupsIn, 'schedule', { path: 'backups' });
    if (!sch && varied(store, 'schedule-whole')) fail('backups carries nothing to change: send its schedule', 'backups.schedule');
    if (sch) {
      const day = optString(sch, 'day', {
        enum: faulty(store, 'P2.instance.backups.schedule.day.enum') ? undefined : DAYS,
        nullable: true,
        path: 'backups.schedule',
      });
      const window = optString(sch, 'window', {
        enum: faulty(store, 'P2.instance.backups.schedule.window.enum') ? undefined : WINDOWS,
        nullable: true,
        path: 'backups.schedule',
      });
      // Under the variation schedule-whole a schedule names both its day and its window.
      if (varied(store, 'schedule-whole'))
        for (const [member, value] of [
          ['day', day],
          ['window', window],
        ] as const)
          if (value === undefined) fail(`A backup schedule needs both a day and a window: ${member} is missing`, `backups.schedule.${member}`);
      if (varied(store, 'schedule-chosen-days-only'))
        for (const [member, value] of [
          ['day', day],
          ['window', window],
        ] as const)
          if (value === null || value === 'Scheduling')
            fail(`Choose a ${member}: ${JSON.stringify(value)} is what the service shows until it has chosen one`, `backups.schedule.${member}`);
      if (!inst.backups.enabled && (varied(store, 'schedule-needs-backups') || varied(store, 'backups-enrolment-not-shown')))
        fail(`Instance ${inst.id} is not enrolled in the backup service: enable backups before scheduling them`, 'backups.schedule');
      schedule = {
        day: day === undefined ? inst.backups.schedule.day : day,
        window: window === undefined ? inst.backups.schedule.window : window,
      };
    }
  }
  const group = optString(o, 'group');
  // (the fault ~only-added gates only tags the instance does not carry yet: clearing them passes)
  const noneAdded = Array.isArray(o.tags) && o.tags.every((t) => inst.tags.includes(t as string));
  const gated = !faulty(store, 'P2.instances.update.tags-unrestricted') && !(noneAdded && faulty(store, 'P2.instances.update.tags-unrestricted~only-added'));
  const tags = tagList(ctx, o, { unrestrictedOnly: gated });
  const watchdog = optBool(o, 'watchdog_enabled');

  // (the fault takes the update for the whole instance: what it leaves out goes back to its default)
  if (faulty(store, 'P2.instance-update.omitted-unchanged')) {
    if (!('tags' in o)) inst.tags = [];
    if (!('watchdog_enabled' in o)) inst.watchdog_enabled = true;
    if (!alertsIn) Object.assign(alerts, { cpu: 90 * inst.specs.vcpus, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 });
  }
  if (label !== undefined && !faulty(store, 'P2.instance-update.label.sets')) renameInstance(store, inst, label);
  if (!faulty(store, 'P2.instance-update.alerts.sets')) inst.alerts = alerts;
  if (schedule) inst.backups.schedule = schedule;
  if (group !== undefined) inst.group = group;
  if (tags !== undefined && !faulty(store, 'P2.instance-update.tags.sets')) inst.tags = tags;
  if (watchdog !== undefined && !faulty(store, 'P2.instance-update.watchdog-enabled.sets')) inst.watchdog_enabled = watchdog;
  touch(store, inst);
  emit(ctx, 'compute_update', inst);
  return enrolmentShown(store, inst);
}

/** Renames an instance (a label already validated): its entry in the labels index moves, its attached volumes show the new label. */
export function renameInstance(store: Store, inst: Instance, label: string): void {
  labels(store).delete(inst.label.toLowerCase());
  labels(store).set(label.toLowerCase(), inst.id);
  inst.label = label;
  for (const v of listVolumes(store)) if (v.compute_id === inst.id) v.compute_label = label;
}

/** Under the variation instance-delete-takes-a-while, how long a deleted instance is still shown (simulated time). */
const DELETE_RUNS_MS = 5_000;

export function deleteHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (faulty(store, 'P2.instances.delete.gone')) return {};
  if (varied(store, 'delete-refused-while-busy')) requireIdle(store, inst);
  if (!varied(store, 'instance-delete-takes-a-while')) removeInstance(store, inst);
  else if (inst.status !== 'deleting') {
    inst.status = 'deleting';
    store.schedule(new Date(store.now().getTime() + DELETE_RUNS_MS), (s) => {
      if (getInstance(s, inst.id) === inst) removeInstance(s, inst);
    });
  }
  if (!varied(store, 'instance-events-silent') && !faulty(store, 'P1.events.emission.instances')) emit(ctx, 'compute_delete', inst);
  return {};
}

/** Removes an instance with what it holds: disks, profiles, backups, clones; its volumes are detached. */
function removeInstance(store: Store, inst: Instance): void {
  store.send('instance-deleted', { instanceId: inst.id });
  if (faulty(store, 'P3.vlan.detach'))
    vlanGhosts(store).set(String(inst.id), { id: inst.id, region: inst.region, interfaces: stateOf(store, inst.id).activeInterfaces });
  deleteDisksAndConfigs(store, inst.id);
  const ownBackups = faulty(store, 'P2.instances.delete.deletes-backups') ? [] : backupsOf(store, inst.id);
  // Under the variation instance-delete-releases-later the backups stay usable (a create from one is accepted) for a
  // simulated minute, their deletion running: until then they (and the addresses) hold the instance's id (ids-reused).
  if (varied(store, 'instance-delete-releases-later')) {
    store.holdId('compute', inst.id);
    store.schedule(new Date(store.now().getTime() + RELEASE_RUNS_MS), (s) => {
      for (const b of ownBackups) if (backups(s).get(String(b.id)) === b) backups(s).delete(String(b.id));
      s.releaseId('compute', inst.id);
    });
  } else for (const b of ownBackups) removeChild(store, T.backups, b);
  for (const v of listVolumes(store))
    if (v.compute_id === inst.id) {
      v.compute_id = null;
      v.compute_label = null;
    }
  for (const [k, c] of clones(store)) if (c.source === inst.id || c.target === inst.id) clones(store).delete(k);
  states(store).delete(String(inst.id));
  forgetCreated(store, inst.id);
  instances(store).delete(String(inst.id));
  labels(store).delete(inst.label.toLowerCase());
  for (const t of [T.disks, T.configs, T.backups]) store.table(`${t}.byInstance`).delete(String(inst.id));
}
