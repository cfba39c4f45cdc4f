// Cloning an instance's disks and configuration profiles to a new instance or onto an existing one.
import type { InstanceType, Region, Store } from '../../core/store.js';
import { ApiError, type RequestContext } from '../../core/types.js';
import { fail, optBool, optString, optInt } from '../../core/validate.js';
import { canAccess } from '../../core/permissions.js';
import { getInstance, requireCreated } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { isPrivate4 } from '../ips-model.js';
import { makeInstance, renameInstance } from './instances.js';
import { createVlans, vlanKey, vlansPerRegion } from './interfaces.js';
import { copyLayout, deleteDisksAndConfigs } from './layout.js';
import {
  body,
  clones,
  configsOf,
  disksOf,
  emit,
  instanceOr404,
  isIdle,
  labels,
  requireIdle,
  SLOTS,
  T,
  touch,
  typeById,
  usedDisk,
  vlans,
  type BackupConfig,
  type CloneJob,
  type Disk,
  type Instance,
} from './model.js';
import { instanceLabel, intList, regionOf, requireAddComputes, typeOf } from './validation.js';

const CLONE_MS = 10 * 60_000;
/** How long a clone runs under the variation clones-take-longer. */
const SLOW_CLONE_MS = 45 * 60_000;

export function cloneHandler(ctx: RequestContext) {
  const { store, principal } = ctx;
  const source = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (!faulty(store, 'P2.clone.add-computes')) requireAddComputes(store, principal);
  const o = body(ctx);
  const targetId = optInt(o, 'compute_id', { nullable: true }) ?? undefined;
  let region: Region | undefined;
  let type: InstanceType | undefined;
  let label: string | undefined;
  let backupsEnabled: boolean | undefined;
  if (targetId !== undefined) {
    const ignored = [
      faulty(store, 'P2.instance-clone.region.not-with-compute-id') && 'region',
      faulty(store, 'P2.instance-clone.type.not-with-compute-id') && 'type',
      faulty(store, 'P2.instance-clone.label.new-instance-only') && 'label',
      ...(varied(store, 'clone-extras-ignored') ? ['label', 'backups_enabled'] : []),
    ];
    for (const k of ['region', 'type', 'label', 'backups_enabled']) {
      if (o[k] !== undefined && !ignored.includes(k))
        fail(
          `${k} is only allowed when cloning to a new instance; remove it or omit compute_id`,
          varied(store, 'error-field-names-sent-member') ? 'compute_id' : k,
        );
    }
    // The fault renames the target as an instance update would.
    if (faulty(store, 'P2.instance-clone.label.new-instance-only')) label = instanceLabel(o, store, targetId);
  } else {
    const sourceRegion = store.regions.find((r) => r.id === source.region)!;
    region = faulty(store, 'P2.instance-clone.region.required-for-new') && o.region === undefined ? sourceRegion : regionOf(store, o);
    // The fault checks the region asked for, but makes the clone (and judges its VLANs) in the source's.
    if (faulty(store, 'P2.clone.region.as-requested')) region = sourceRegion;
    type = faulty(store, 'P2.instance-clone.type.required-for-new') && o.type === undefined ? typeById(store, source.type) : typeOf(store, o);
    label =
      instanceLabel(o, store, null) ??
      (faulty(store, 'P2.clone.label.default')
        ? `clone--${source.id}`
        : faulty(store, 'P2.clone.label.default~source-suffixed')
          ? `${source.label}-clone`
          : varied(store, 'clone-label-of-source')
            ? source.label
            : undefined);
    backupsEnabled = optBool(o, 'backups_enabled') === true && !faulty(store, 'P2.instance-clone.backups-enabled.enrols');
  }
  const cfgIds = intList(o, 'configs');
  const diskIds = intList(o, 'disks');
  const group = optString(o, 'group');

  requireCreated(store, source);
  const srcConfigs = configsOf(store, source.id);
  const srcDisks = disksOf(store, source.id);
  let chosenConfigs =
    cfgIds === undefined
      ? srcConfigs
      : cfgIds.map((id, i) => {
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

  const queuesOnBusy = varied(store, 'clone-onto-busy-queued') || varied(store, 'queued-clone-tags-at-once');
  let target: Instance | undefined;
  if (targetId !== undefined) {
    target = getInstance(store, targetId);
    if (!target || !canAccess(principal, 'compute', targetId, 'read_only')) fail(`Instance ${targetId} not found`, 'compute_id');
    if (!canAccess(principal, 'compute', targetId, 'read_write')) fail('You need read_write access to the target instance', 'compute_id', 403);
    if (target.id === source.id) fail('An instance cannot be cloned onto itself', 'compute_id');
    // Under the variations clone-onto-busy-queued and queued-clone-tags-at-once a busy target is accepted: the clone
    // waits for its actions (below).
    if (!faulty(store, 'P2.clone.compute-id.actions-complete') && !queuesOnBusy) requireIdle(store, target);
    const free = target.specs.disk - (varied(store, 'clone-replaces-target-layout') ? 0 : usedDisk(store, target.id));
    if (needed > free && !faulty(store, 'P2.clone.compute-id.enough-resources'))
      fail(`The target instance has ${free} MB free but the clone needs ${needed} MB`, 'compute_id');
  }
  // A VLAN in a region without VLANs: refused, or (variation vlan-clone-fails-later) accepted and failing when the job ends.
  // The fault ~existing-target reads only the body's region, which a clone onto an existing instance does not send.
  const vlanRegionChecked = !(target && faulty(store, 'P2.interfaces.vlan.capable-regions~existing-target'));
  const vlanless =
    usesVlan &&
    vlanRegionChecked &&
    !store.regions.find((r) => r.id === (target?.region ?? region!.id))?.vlans &&
    !faulty(store, 'P2.interfaces.vlan.capable-regions~clone');
  const failsLater = vlanless && varied(store, 'vlan-clone-fails-later');
  if (target) {
    if (vlanless && !failsLater) fail(`VLANs are not available in region ${target.region}`, 'compute_id');
  } else {
    if (needed > type!.disk) fail(`Type ${type!.id} (${type!.disk} MB) is too small for the cloned disks (${needed} MB)`, 'type');
    if (vlanless && !failsLater) fail(`VLANs are not available in region ${region!.id}; the source uses a VLAN`, 'region');
  }
  const targetRegion = target?.region ?? region!.id;
  const vlanLabels = new Set(chosenConfigs.flatMap((c) => c.interfaces.filter((i) => i.purpose === 'vlan').map((i) => i.label!)));
  const newVlans = [...vlanLabels].filter((l) => !vlans(store).has(vlanKey(targetRegion, l)));
  let inRegion = 0;
  for (const v of vlans(store).values()) if (v.region === targetRegion) inRegion++;
  const vlanLimit = vlansPerRegion(store);
  if (inRegion + newVlans.length > vlanLimit)
    fail(`At most ${vlanLimit} VLANs can exist in region ${targetRegion}; the clone would create more`, targetId !== undefined ? 'compute_id' : 'region');
  let running = 0;
  for (const c of clones(store).values()) if (c.source === source.id) running++;
  if (running >= (faulty(store, 'P2.clone.max-5-concurrent') ? 6 : 5)) {
    throw new ApiError(
      faulty(store, 'P1.errors.clone.sixth-concurrent-400') ? 409 : 400,
      'At most 5 clone operations from one source instance may run at the same time; wait for one to finish',
      null,
      true,
    );
  }

  // Valid: the clone runs now, or (variation clone-onto-busy-queued) once a busy target's actions have completed.
  const perform = (onto: Instance | undefined): Instance => {
    const made = onto ?? newTarget();
    if (onto) {
      if (group !== undefined) onto.group = group;
      // (a label another instance took while a queued clone waited is not taken)
      if (label !== undefined && (labels(store).get(label.toLowerCase()) ?? onto.id) === onto.id) renameInstance(store, onto, label);
    }
    runClone(made, onto !== undefined);
    return made;
  };
  const newTarget = () =>
    makeInstance(ctx, {
      region: region!,
      type: type!,
      label,
      image: source.image,
      status: 'provisioning',
      group: group ?? source.group,
      tags: faulty(store, 'P2.clone.tags-copied') ? [] : [...source.tags],
      privateIp: source.ipv4.some(isPrivate4),
      backupsEnabled,
    });
  const layout: BackupConfig[] = chosenConfigs.map((c) => ({
    label: varied(store, 'cloned-profiles-relabelled') ? `${c.label.slice(0, 42)} clone` : c.label,
    kernel: c.kernel,
    run_level: c.run_level,
    virt_mode: c.virt_mode,
    interfaces: c.interfaces,
    slots: Object.fromEntries(SLOTS.flatMap((s) => (c.devices[s]?.disk_id != null ? [[s, c.devices[s]!.disk_id!]] : []))),
  }));
  // A clone that fails later (vlan-clone-fails-later) runs its while, whatever the other variations.
  const instant = !failsLater && ((chosenDisks.size === 0 && varied(store, 'empty-clones-instant')) || varied(store, 'clones-instant'));
  const cloneMs = varied(store, 'clones-take-longer') ? SLOW_CLONE_MS : CLONE_MS;
  const disks = [...chosenDisks.values()];
  /** What the clone makes on its target (a failed one, nothing). */
  const make = (t: Instance, tags: string[]) => {
    if (t.id !== source.id && targetId !== undefined && varied(store, 'clone-replaces-target-layout')) deleteDisksAndConfigs(store, t.id);
    copyLayout(store, t, disks, layout, new Map<number, number>());
    createVlans(store, t.region, newVlans);
    for (const tag of tags) if (!t.tags.includes(tag)) t.tags.push(tag);
    touch(store, t);
  };
  const runClone = (target: Instance, existing: boolean) => {
    const tags = existing && !faulty(store, 'P2.clone.tags-copied') ? [...source.tags] : [];
    // What the clone makes on its target: at once, or (variation copies-made-on-completion) when the job completes.
    const onCompletion = varied(store, 'copies-made-on-completion') || failsLater;
    if (!onCompletion) make(target, tags);
    if (instant) {
      if (onCompletion) make(target, tags);
      if (target.status === 'provisioning') target.status = 'offline';
    } else {
      const job: CloneJob = { id: store.nextId('clone'), source: source.id, target: target.id };
      clones(store).set(String(job.id), job);
      const targetRef = target.id;
      store.schedule(new Date(store.now().getTime() + cloneMs), (s) => {
        if (!s.table<CloneJob>(T.clones).delete(String(job.id))) return;
        // (the target itself: not one given its id since, under ids-reused)
        const t = getInstance(s, targetRef) === target ? target : undefined;
        if (t && failsLater) emit(ctx, 'compute_clone', source, t, 'failed');
        else if (t && onCompletion) make(t, tags);
        if (t && t.status === 'provisioning') {
          t.status = 'offline';
          t.updated = s.nowIso();
        }
      });
    }
  };
  // Under the variation clone-instance-made-on-completion a clone to a new instance answers its job and makes the
  // instance (a clone that fails later, an instance with nothing copied) only when the job completes; a clone whose
  // source is deleted meanwhile makes nothing.
  if (target === undefined && !instant && varied(store, 'clone-instance-made-on-completion')) {
    const job: CloneJob = { id: store.nextId('clone'), source: source.id, target: null };
    clones(store).set(String(job.id), job);
    store.schedule(new Date(store.now().getTime() + cloneMs), (s) => {
      if (!s.table<CloneJob>(T.clones).delete(String(job.id))) return;
      // A label sent and taken by another instance meanwhile: the new instance gets a default one.
      if (typeof o.label === 'string' && labels(s).has(o.label.toLowerCase())) label = undefined;
      const made = newTarget();
      if (failsLater) emit(ctx, 'compute_clone', source, made, 'failed');
      else make(made, []);
      made.status = 'offline';
      made.updated = s.nowIso();
    });
    emit(ctx, 'compute_clone', source, undefined, startedStatus(store));
    return { id: store.nextId('clone-job'), action: 'clone', status: 'queued' };
  }
  // The fault runs a clone onto a busy target at once under those variations too.
  const queued = target !== undefined && queuesOnBusy && !isIdle(store, target) && !faulty(store, 'P2.clone.compute-id.actions-complete');
  // Under the variation queued-clone-tags-at-once the tags of a queued clone are copied as it is accepted.
  if (queued && varied(store, 'queued-clone-tags-at-once') && !faulty(store, 'P2.clone.tags-copied')) {
    for (const tag of source.tags) if (!target!.tags.includes(tag)) target!.tags.push(tag);
    touch(store, target!);
  }
  if (queued) whenIdle(store, target!.id, (t) => perform(t));
  const shown = queued ? target! : perform(target);
  emit(ctx, 'compute_clone', source, shown, startedStatus(store));
  // Under the variation clone-answers-its-job a clone to a new instance answers with a job of its own numbering.
  if (targetId === undefined && varied(store, 'clone-answers-its-job')) return { id: store.nextId('clone-job'), action: 'clone', status: 'queued' };
  return shown;
}

/** The status a clone's event is recorded with as it starts: the fault records one outside the documented enum (hence the cast). */
function startedStatus(store: Store): 'started' {
  return faulty(store, 'P1.event.status.enum~compute-clone') ? ('running' as unknown as 'started') : 'started';
}

/** Runs `then` on the instance once it has no running or queued action (looked at each simulated minute). */
function whenIdle(store: Store, id: number, then: (inst: Instance) => void): void {
  const original = getInstance(store, id);
  const look = (s: Store) => {
    const inst = getInstance(s, id);
    // (deleted meanwhile: and an instance given its id since, under ids-reused, is another one)
    if (!inst || inst !== original) return;
    if (isIdle(s, inst)) then(inst);
    else s.schedule(new Date(s.now().getTime() + 60_000), look);
  };
  store.schedule(new Date(store.now().getTime() + 60_000), look);
}
