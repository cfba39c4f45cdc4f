// The backup service of an instance: daily automatic backups, snapshots, cancel, enable, view and restore.
import type { Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, optBool, reqInt, reqString } from '../../core/validate.js';
import { canAccess } from '../../core/permissions.js';
import { getInstance, requireCreated } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { copyLayout, deleteDisksAndConfigs, snapshotLayout } from './layout.js';
import {
  addChild,
  backups,
  backupsOf,
  DAY_MS,
  emit,
  instanceOr404,
  removeChild,
  requireIdle,
  stateOf,
  states,
  T,
  touch,
  makeOnInstance,
  usedDisk,
  type Backup,
  type BackupConfig,
  type Instance,
} from './model.js';

/** How long after it is accepted a backups/enable enrols the instance under the variation enable-runs-a-while. */
const ENABLE_MS = 60_000;

export function enableBackups(store: Store, inst: Instance): void {
  if (inst.backups.enabled) return;
  const st = stateOf(store, inst.id);
  st.backupGeneration++;
  inst.backups.enabled = true;
  inst.backups.schedule = { day: faulty(store, 'P2.instance.backups.schedule.day.scheduling-until-chosen') ? null : 'Scheduling', window: 'Scheduling' };
  scheduleAutoBackup(store, inst, st.backupGeneration);
}

/** Daily automatic backup while the service stays enabled; the three most recent are kept. */
function scheduleAutoBackup(store: Store, inst: Instance, generation: number): void {
  const { id } = inst;
  store.schedule(new Date(store.now().getTime() + DAY_MS), (s) => {
    const st = states(s).get(String(id));
    // (the instance itself: not one given its id since, under ids-reused)
    if (getInstance(s, id) !== inst || !st || !inst.backups.enabled || st.backupGeneration !== generation) return;
    storeBackup(s, inst, 'auto', null);
    const autos = backupsOf(s, id).filter((b) => b.type === 'auto');
    for (const old of autos.slice(0, Math.max(0, autos.length - 3))) removeChild(s, T.backups, old);
    scheduleAutoBackup(s, inst, generation);
  });
}

/** Minutes a snapshot takes under the snapshots-take-minutes and instance-snapshots-listed-when-taken variations (pending until then). */
const SNAPSHOT_MINUTES = 5;

function storeBackup(store: Store, inst: Instance, type: Backup['type'], label: string | null): Backup {
  const now = store.nowIso();
  const layout = snapshotLayout(store, inst);
  const pending = type === 'snapshot' && (varied(store, 'snapshots-take-minutes') || varied(store, 'instance-snapshots-listed-when-taken'));
  const b: Backup = {
    id: store.newId('backup', (n) => backups(store).has(String(n))),
    compute_id: inst.id,
    label,
    type,
    status: pending ? 'pending' : 'successful',
    available: !pending,
    region: inst.region,
    configs: layout.configs.map((c) => c.label),
    disks: layout.disks,
    created: now,
    updated: now,
    finished: pending ? null : now,
  };
  if (pending)
    store.schedule(new Date(store.now().getTime() + SNAPSHOT_MINUTES * 60_000), (s) => {
      Object.assign(b, { status: 'successful', available: true, updated: s.nowIso(), finished: s.nowIso() });
    });
  addChild(store, T.backups, b);
  backupLayouts.set(b, layout.configs);
  return b;
}

// The config layouts of a backup are internal (not in the response object).
export const backupLayouts = new WeakMap<Backup, BackupConfig[]>();

/** Whether a backup shows in reads yet: under instance-snapshots-listed-when-taken a snapshot shows once it is taken. */
function shows(store: Store, b: Backup): boolean {
  return b.status === 'successful' || !varied(store, 'instance-snapshots-listed-when-taken');
}

/** The backup `{backupId}` of `inst`; `ofAny` (faults P2.backups.of-its-instance): of any instance. */
function backupOr404(ctx: RequestContext, inst: Instance, ofAny = false): Backup {
  const raw = ctx.params.backupId ?? '';
  const b = /^[0-9]{1,15}$/.test(raw) ? backups(ctx.store).get(String(Number(raw))) : undefined;
  if (!b || (b.compute_id !== inst.id && !ofAny) || !shows(ctx.store, b)) fail('Not found: no such backup of this instance', null, 404);
  return b;
}

export function backupsListHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const withoutLabel = ({ label, ...rest }: Backup) => rest;
  // (under the variation backups-listed-without-label, each without its label)
  const all = backupsOf(ctx.store, inst.id)
    .filter((b) => shows(ctx.store, b))
    .map((b) => (varied(ctx.store, 'backups-listed-without-label') ? withoutLabel(b) : b));
  return {
    automatic: all.filter((b) => b.type === 'auto'),
    // The newest: one a new snapshot replaced may still be being deleted (variation backup-deletions-run-a-while).
    snapshot: { current: all.filter((b) => b.type === 'snapshot').at(-1) ?? null, in_progress: null },
  };
}

/** A backup deleted by a cancel or a new snapshot: at once, or (variation backup-deletions-run-a-while) a simulated minute later. */
function deleteBackup(store: Store, b: Backup): void {
  if (!varied(store, 'backup-deletions-run-a-while')) return removeChild(store, T.backups, b);
  store.schedule(new Date(store.now().getTime() + 60_000), (s) => {
    if (backups(s).get(String(b.id)) === b) removeChild(s, T.backups, b);
  });
}

export function snapshotHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const o = asObject(ctx.body ?? {});
  const label =
    faulty(store, 'P2.instance-snapshot-create.label.required') && o.label === undefined
      ? null
      : reqString(o, 'label', {
          min: faulty(store, 'P2.instance-snapshot-create.label.min-1') ? 0 : 1,
          max: faulty(store, 'P2.instance-snapshot-create.label.max-255') ? 512 : 255,
        });
  requireCreated(store, inst);
  if (!inst.backups.enabled && (varied(store, 'snapshot-needs-backups') || varied(store, 'backups-enrolment-not-shown')))
    fail(`Instance ${inst.id} is not enrolled in the backup service: enable backups before taking a snapshot.`, null);
  if (!faulty(store, 'P2.backups.snapshot.replaces-previous')) for (const b of backupsOf(store, inst.id)) if (b.type === 'snapshot') deleteBackup(store, b);
  const b = storeBackup(store, inst, 'snapshot', label);
  if (faulty(store, 'P2.backups.snapshot.creates')) removeChild(store, T.backups, b);
  emit(ctx, 'compute_snapshot', inst);
  return b;
}

export function backupsCancelHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (!inst.backups.enabled && varied(store, 'backup-service-changes-only'))
    fail(`Instance ${inst.id} is not enrolled in the backup service: there is nothing to cancel.`, null);
  if (!faulty(store, 'P2.backups.cancel.deletes-all')) for (const b of backupsOf(store, inst.id)) deleteBackup(store, b);
  const st = stateOf(store, inst.id);
  st.backupGeneration++;
  if (inst.backups.enabled) st.backupsCancelledAt = store.now().getTime();
  inst.backups = { enabled: false, schedule: { day: null, window: null } };
  touch(store, inst);
  emit(ctx, 'backups_cancel', inst);
  return {};
}

export function backupsEnableHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  if (inst.backups.enabled && (varied(ctx.store, 'backup-service-changes-only') || varied(ctx.store, 'backups-account-wide')))
    fail(`Instance ${inst.id} is already enrolled in the backup service.`, null);
  const cancelledAt = stateOf(ctx.store, inst.id).backupsCancelledAt;
  const cooldown = varied(ctx.store, 'backups-reenabled-after-a-week') ? 7 * DAY_MS : varied(ctx.store, 'backups-reenabled-after-a-day') ? DAY_MS : 0;
  if (cancelledAt !== undefined && ctx.store.now().getTime() - cancelledAt < cooldown)
    fail(`The backup service of instance ${inst.id} was cancelled less than ${cooldown / 3_600_000} hours ago: it can be enabled again after that.`, null);
  // Enrolled at once, or (variation enable-runs-a-while) a simulated minute later, unless the service is cancelled meanwhile.
  if (!varied(ctx.store, 'enable-runs-a-while')) enableBackups(ctx.store, inst);
  else {
    const { id } = inst;
    const generation = stateOf(ctx.store, id).backupGeneration;
    ctx.store.schedule(new Date(ctx.store.now().getTime() + ENABLE_MS), (s) => {
      if (getInstance(s, id) === inst && stateOf(s, id).backupGeneration === generation) enableBackups(s, inst);
    });
  }
  touch(ctx.store, inst);
  emit(ctx, 'backups_enable', inst);
  return {};
}

export function backupViewHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  return backupOr404(ctx, inst, faulty(ctx.store, 'P2.backups.of-its-instance'));
}

export function restoreHandler(ctx: RequestContext) {
  const { store } = ctx;
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_write');
  const backup = backupOr404(ctx, inst, faulty(store, 'P2.backups.of-its-instance~restore'));
  if (backup.status !== 'successful') fail('The backup has not completed yet and cannot be restored', null);
  const o = asObject(ctx.body ?? {});
  // The fault restores onto the backup's own instance, overwriting it, when no target is given.
  const ownInstance = faulty(store, 'P2.backup-restore.compute-id.required') && o.compute_id === undefined;
  const targetId = ownInstance ? inst.id : reqInt(o, 'compute_id');
  const overwrite = ownInstance || (optBool(o, 'overwrite') ?? false);
  const target = getInstance(store, targetId);
  if (!target || !canAccess(ctx.principal, 'compute', targetId, 'read_only')) fail(`Instance ${targetId} not found`, 'compute_id');
  if (!canAccess(ctx.principal, 'compute', targetId, 'read_write')) fail('You need read_write access to the target instance', 'compute_id', 403);
  requireIdle(store, target);
  if (target.status === 'running' && varied(store, 'restore-needs-offline'))
    fail(`Instance ${target.id} is running: shut it down before restoring onto it`, 'compute_id');
  const needed = backup.disks.reduce((n, d) => n + d.size, 0);
  const spaceFirst = faulty(store, 'P2.backups.restore.overwrite-true~space-first');
  const available = target.specs.disk - (overwrite && !spaceFirst ? 0 : usedDisk(store, target.id));
  if (needed > available && !faulty(store, 'P2.backups.restore.insufficient-space')) {
    fail(
      `Insufficient space on instance ${target.id}: the backup needs ${needed} MB and ${available} MB are free; use overwrite or free disk space`,
      overwrite ? 'compute_id' : 'overwrite',
    );
  }
  const deleteFirst = overwrite && !faulty(store, 'P2.backups.restore.overwrite-true');
  makeOnInstance(store, 'copy', target.id, (onto) => {
    if (deleteFirst) deleteDisksAndConfigs(store, onto.id);
    copyLayout(store, onto, backup.disks, backupLayouts.get(backup) ?? []);
    onto.status = 'offline';
    touch(store, onto);
  });
  emit(ctx, 'backups_restore', inst, target);
  return {};
}
