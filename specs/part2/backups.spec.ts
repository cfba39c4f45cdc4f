// Scenarios of document 2 about instance backups: snapshots, the backup service (enable, cancel, schedule),
// restore, and creating an instance from a backup (backup_id).
import { describe } from 'vitest';
import { check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import { readAfterWrite, untilGone, untilOnClock, untilShortlyDone, untilShortlyDoneSparingly, untilSeen } from '../../harness/consistency.js';
import { viewShowsAnother } from '../../harness/resources.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import {
  diskAllocation,
  instanceWithSwapOver,
  INSTANCES,
  backupGone,
  backupListedGone,
  madeInstance,
  cloneToNew,
  deletedBackupView,
  configsOf,
  deployedProfiles,
  createInstance,
  deleteInstance,
  extraSetting,
  findBackup,
  newInstance,
  onceCopyShows,
  ok,
  rejected,
  restoreOnto,
  snapshot,
  viewInstance,
  type Json,
} from './compute-support.js';
import { sendAtRest } from './instance-power.js';
import { judgeBootedByDefault, newConfig } from './profiles-support.js';
import { enrolledDay, judgeEnrolled, scheduleOf, shownEnrolled, showsEnrolled, untilEnableRan, WEEKDAYS } from './snapshots-support.js';

const fx = useFixtures('part2-backups');

type Check = Parameters<Parameters<typeof check>[2]>[0];

/**
 * An instance deployed from an image with a snapshot of it whose id can be found. Without `extra` it is shared by the
 * checks restoring or deploying that snapshot (nothing snapshots it again, so the snapshot stays).
 */
function snapshotted(c: Check, source?: () => Promise<{ id: number; label: string }>) {
  return source ? makeSnapshotted(c, source) : fx.shared('snapshotted', () => makeSnapshotted(c, () => newInstance(c, fx, { image: true })));
}

async function makeSnapshotted(c: Check, make: () => Promise<{ id: number; label: string }>) {
  const source = await make();
  // A snapshot holds what the instance has when it is taken: its default config and disks, once they show.
  await deployedProfiles(c, source.id);
  const snap = await snapshot(c, fx, source.id);
  c.expectSuccess('P2.backups.snapshot.creates', snap.exchange, 'taking a snapshot');
  if (snap.id === undefined) return c.skip('cannot find the id of the new snapshot (backup responses are not shown)');
  return { source, backupId: snap.id, label: snap.label };
}

/**
 * An instance deployed from the shared snapshot (`snapshotted`) in its region, with the create's defaults (no booted),
 * made once: its create is judged by the same-region check, its booting by the booted-default check.
 */
const backupDeploy = (c: Check) =>
  fx.shared('backupDeploy', async () => {
    const config = c.target.info.config;
    const { backupId } = await snapshotted(c);
    return createInstance(c, fx, { region: config.region, type: config.instanceType, label: fx.label('vm', 64), backup_id: backupId });
  });

/**
 * An empty instance, never snapshotted nor enrolled by the file: the clone source of the backups_enabled check, and the
 * instance under whose path the shared snapshot (of another instance) is sent by the of-its-instance check.
 */
const emptyInstance = (c: Check) => fx.shared('emptyInstance', () => newInstance(c, fx, {}));

/**
 * An instance deployed from an image, without backups enabled, shared in file order by the snapshot checks, then with
 * backups enabled by the enable check and the cancel checks (`enrolledSubject`).
 */
const snapshotSubject = (c: Check) => fx.shared('snapshotSubject', () => newInstance(c, fx, { image: true }));

/**
 * The snapshot checks' instance with backups enabled, once: the enable check follows its schedule, the cancel checks
 * then cancel the service. Nothing cancels it before them (a server may refuse to enable a cancelled service again for
 * a day, or a week: not shown) unless it may be enrolled unseen: one showing itself enrolled (the snapshot checks may
 * have enrolled it: a server may take snapshots of enrolled instances only) is taken as it is; otherwise, as what
 * enabling enrolled backups answers is not shown and a view may not show the enrolment, it is cancelled first,
 * whatever that answers.
 */
const enrolledSubject = (c: Check) =>
  fx.shared('enrolledSubject', async () => {
    const { id } = await snapshotSubject(c);
    if (shownEnrolled(await viewInstance(c, id))) return id;
    await c.post(`${INSTANCES}/${id}/backups/cancel`);
    c.expectSuccess('P2.backups.enable.enables', await enableBackups(c, id), 'enabling backups');
    // A request needing the enrolment may be refused until the enable has run (when is not shown).
    await untilEnableRan(c, id);
    return id;
  });

const CANCEL_DELETES = 'P2.backups.cancel.deletes-all';

/**
 * The enrolled instance with a snapshot taken and its service cancelled: the snapshot the cancel deleted, judged by
 * one check, and its permanence (backups enabled again, which a server may refuse for a while) by another.
 */
const cancelledBackups = (c: Check) =>
  fx.shared('cancelledBackups', async () => {
    const id = await enrolledSubject(c);
    const snap = await snapshot(c, fx, id);
    c.expectSuccess(CANCEL_DELETES, snap.exchange, 'taking a snapshot');
    // (a view answering as before the enable, from a replica, may still show no enrolment to cancel: replica-reads
    // seed 285)
    const cancel = await untilShortlyDoneSparingly(
      c,
      () => c.post(`${INSTANCES}/${id}/backups/cancel`),
      (exchange) => !rejected(exchange),
    );
    c.expectSuccess(CANCEL_DELETES, cancel, 'cancelling backups');
    return { id, snap };
  });

/**
 * Enables backups on the instance, whose service was cancelled before: one refused is sent again while the target's
 * clock runs an hour at a time, for a day and an hour at most. When a cancelled backup service may be enabled again is
 * not shown (a server may wait a day, or longer): one still refused then skips the check. (An enable of an instance
 * never enrolled is judged by the generic checks.)
 */
async function enableBackups(c: Check, id: number): Promise<Exchange> {
  const enabled = await untilOnClock(
    c,
    () => c.post(`${INSTANCES}/${id}/backups/enable`),
    (exchange) => !rejected(exchange),
    { stepSeconds: 3600, mostSeconds: 25 * 3600 },
  );
  if (rejected(enabled))
    c.skip(
      `enabling the backups of instance ${id} again was still refused a day after its service was cancelled (HTTP ${enabled.status}): when a cancelled service may be enabled again is not shown`,
    );
  return enabled;
}

/** Follows the schedule of the instance whose backups were just enabled for a day (the enable check). */
async function enabledBackupsShowASchedule(c: Check, id: number): Promise<void> {
  // Whether the enrolment shows when the enable answers or once it has run is not shown: read while a short time passes,
  // as after a create with backups_enabled.
  const schedule = scheduleOf(await untilShortlyDone(c, () => viewInstance(c, id), showsEnrolled));
  c.expect(
    'P2.instance.backups.schedule.day.scheduling-until-chosen',
    enrolledDay(schedule.day),
    `once backups are enabled (read while a short time passed) schedule.day is ${JSON.stringify(schedule.day)} (Scheduling or the chosen weekday expected)`,
  );
  const snap = await snapshot(c, fx, id);
  c.expectSuccess('P2.backups.enable.enables', snap.exchange, 'taking a snapshot of an instance with backups enabled');
  // A day past the first scheduled backup: once a weekday has been chosen it is returned, never Scheduling again.
  await c.advanceClock(25 * 3600);
  const later = scheduleOf(await viewInstance(c, id));
  c.expect(
    'P2.instance.backups.schedule.day.scheduling-until-chosen',
    enrolledDay(later.day),
    `a day after backups were enabled schedule.day is ${JSON.stringify(later.day)}`,
  );
  if (WEEKDAYS.includes(schedule.day as string))
    c.expect(
      'P2.instance.backups.schedule.day.scheduling-until-chosen',
      later.day !== 'Scheduling',
      'schedule.day went back to Scheduling after a weekday was chosen',
    );
}

describe('Snapshots', () => {
  check('P2.backups.snapshot.creates', 'a snapshot appears in the backups of the instance', async (c) => {
    const { id } = await snapshotSubject(c);
    const snap = await snapshot(c, fx, id);
    c.expectSuccess('P2.backups.snapshot.creates', snap.exchange, 'taking a snapshot');
    c.expect('P2.backups.snapshot.creates', (await findBackup(c, id, snap)) !== undefined, `the snapshot "${snap.label}" is not in the instance's backups`);
    if (snap.id !== undefined)
      c.expectSuccess('P2.backups.snapshot.creates', await readAfterWrite(c, () => c.get(`${INSTANCES}/${id}/backups/${snap.id}`), ok), 'viewing the snapshot');
  });

  check('P2.backups.snapshot.replaces-previous', 'a new snapshot deletes the previous one', async (c) => {
    const { id } = await snapshotSubject(c);
    const first = await snapshot(c, fx, id);
    c.expectSuccess('P2.backups.snapshot.replaces-previous', first.exchange, 'taking the first snapshot');
    const second = await snapshot(c, fx, id);
    c.expectSuccess('P2.backups.snapshot.replaces-previous', second.exchange, 'taking the second snapshot');
    c.expect(
      'P2.backups.snapshot.replaces-previous',
      (await findBackup(c, id, second)) !== undefined,
      `the new snapshot "${second.label}" is not in the backups`,
    );
    // Told by its label, or by its id unless the second took it again (ids given again are not excluded): a list
    // without labels then tells nothing, and the view below judges it.
    const givenAgain = first.id !== undefined && first.id === second.id;
    const previous = { label: first.label, id: givenAgain ? undefined : first.id };
    const gone = givenAgain ? await backupListedGone(c, id, previous) : await backupGone(c, id, previous);
    if (gone !== undefined)
      c.expect('P2.backups.snapshot.replaces-previous', gone, `the previous snapshot "${first.label}" is still in the backups after a new one was taken`);
    // (a view showing the second snapshot under the first one's id: the id given again)
    if (first.id !== undefined) {
      const made = { kind: 'backup', id: first.id, label: first.label };
      c.expectGone('P2.backups.snapshot.replaces-previous', await deletedBackupView(c, id, made), 'viewing the replaced snapshot', made);
    }
  });
});

describe('Backup service', () => {
  check(
    ['P2.backups.enable.enables', 'P2.instance.backups.schedule.day.scheduling-until-chosen'],
    'enabled backups show a schedule: Scheduling until a day is chosen',
    async (c) => {
      await enabledBackupsShowASchedule(c, await enrolledSubject(c));
    },
  );

  check(CANCEL_DELETES, 'cancelling backups deletes every existing backup', async (c) => {
    const { id, snap } = await cancelledBackups(c);
    c.expect(CANCEL_DELETES, await backupGone(c, id, snap), `the snapshot "${snap.label}" is still in the backups after cancelling`);
    if (snap.id !== undefined) {
      const made = { kind: 'backup', id: snap.id, label: snap.label };
      c.expectGone(CANCEL_DELETES, await deletedBackupView(c, id, made), 'viewing a backup after cancelling', made);
    }
  });

  check(CANCEL_DELETES, 'a backup a cancel deleted is not back once backups are enabled again (deleted permanently)', async (c) => {
    const { id, snap } = await cancelledBackups(c);
    c.expectSuccess(CANCEL_DELETES, await enableBackups(c, id), 'enabling backups again');
    c.expect(CANCEL_DELETES, await backupGone(c, id, snap), 'the cancelled snapshot is back after enabling backups again (deletion is permanent)');
  });
});

describe('Create and clone body: backups_enabled', () => {
  // The clone's source is an empty instance, not enrolled: whether a clone takes its source's enrolment is not shown.
  // A create's is judged by compute.spec's update check, on the instance it creates anyway (the budget of a run on an
  // account).
  check('P2.instance-clone.backups-enabled.enrols', 'backups_enabled true enrols the clone to a new instance in the backup service', async (c) => {
    const source = await emptyInstance(c);
    const clone = await cloneToNew(c, fx, source.id, { backups_enabled: true });
    c.expectSuccess('P2.instance-clone.backups-enabled.enrols', clone.exchange, 'cloning an instance to a new instance with backups_enabled true');
    // The new instance, and what the clone makes on it, may show only once the clone completes (as its enrolment may).
    const id = await madeInstance(c, fx, clone);
    const cloned = await onceCopyShows(c, () => viewInstance(c, id), showsEnrolled);
    if (!judgeEnrolled(c, 'P2.instance-clone.backups-enabled.enrols', cloned, 'a clone to a new instance made with backups_enabled true'))
      c.skip('the clone shows no enrolment to judge: no backups.schedule.day (judged by P2.instance.fields), or none yet without the clock hook');
  });
});

describe('Restore', () => {
  check('P2.backups.restore.overwrite-true', "restore with overwrite true deletes the target's configs first", async (c) => {
    const { source, backupId } = await snapshotted(c);
    const target = await newInstance(c, fx, { image: true });
    // The target's own default profile shown first: the restore then meets the target as provisioned. (How many profiles
    // the target shows after the restore is not shown: "`true` deletes all disks and configs on the target first" is
    // judged on the profile the check added; the count failed a run where the target's default profile showed only
    // after the restore, under image-layout-when-provisioned.)
    await deployedProfiles(c, target.id);
    const extra = await newConfig(c, target.id);
    // Seen before the restore: a view answering 404 after it is the restore's doing, not a read lagging the create.
    const extraPath = `${INSTANCES}/${target.id}/configs/${extra.id}`;
    await untilSeen(c, [extraPath]);
    const restore = await restoreOnto(c, source.id, backupId, { compute_id: target.id, overwrite: true });
    c.expectSuccess('P2.backups.restore.overwrite-true', restore, 'restoring with overwrite true');
    const extraView = () => c.get(extraPath, { gone: true });
    // (a restored profile shown under its id: the id given again)
    const made = { kind: 'config', label: extra.label };
    c.expectGone(
      'P2.backups.restore.overwrite-true',
      await onceCopyShows(c, extraView, (view) => rejected(view) || viewShowsAnother(view, made)),
      'viewing a profile the target had before the overwriting restore',
      made,
    );
  });

  check(
    ['P2.backups.restore.insufficient-space', 'P2.backups.restore.overwrite-true'],
    'restore without overwrite onto a full target is an insufficient-space error; with overwrite true it is restored',
    async (c) => {
      // Each swap disk takes over half the allocation, however big the image's disk is (not shown): the two do not fit.
      const roomy = await newInstance(c, fx, {});
      const half = Math.floor((await diskAllocation(c, roomy.id)) / 2);
      const { source, backupId } = await snapshotted(c, () => instanceWithSwapOver(c, fx, half));
      const target = await instanceWithSwapOver(c, fx, half);
      const before = (await configsOf(c, target.id)).map((item) => item.id).sort();
      // Sent once the target is idle and offline, as the control's empty target is: not refused for running or busy.
      const refused = await sendAtRest(c, [target.id], () =>
        c.post(`${INSTANCES}/${source.id}/backups/${backupId}/restore`, { compute_id: target.id, overwrite: false }),
      );
      c.expectRejected(
        'P2.backups.restore.insufficient-space',
        refused,
        `restoring without overwrite a backup with a swap disk over ${half} MB onto an instance of the same type with another`,
      );
      const after = (await configsOf(c, target.id)).map((item) => item.id).sort();
      c.expect('P2.backups.restore.insufficient-space', JSON.stringify(after) === JSON.stringify(before), "the refused restore changed the target's profiles");
      c.expectSuccess(
        'P2.backups.restore.insufficient-space',
        await restoreOnto(c, source.id, backupId, { compute_id: roomy.id, overwrite: false }),
        'restoring without overwrite onto an instance of the same type without disks',
      );
      // "`true` deletes all disks and configs on the target first": the full target has room then.
      c.expectSuccess(
        'P2.backups.restore.overwrite-true',
        await restoreOnto(c, source.id, backupId, { compute_id: target.id, overwrite: true }),
        'restoring with overwrite true onto the instance without room for the backup beside its disks',
      );
    },
  );
});

describe('Backups under another instance', () => {
  // Backup ids may be numbered per instance (not shown), and an enrolled instance gets backups of its own (the account-
  // wide setting enrols every instance): the empty instance may hold one under the snapshot's id, which its view would
  // rightly show and a restore of it onto itself (an empty instance's backup holds nothing) would change nothing.
  check('P2.backups.of-its-instance', "a backup of another instance is neither shown nor restored under an instance's path", async (c) => {
    const rule = 'P2.backups.of-its-instance';
    const { source, backupId, label } = await snapshotted(c);
    const { id } = await emptyInstance(c);
    const under = `${INSTANCES}/${id}/backups/${backupId}`;
    const view = await c.get(under);
    if (!ok(view) || (view.body as Json | undefined)?.label === label)
      c.expectRejected(rule, view, `GET ${under}, the snapshot "${label}" of instance ${source.id}`);
    const before = (await configsOf(c, id)).map((item) => item.id).sort();
    const unchanged = (profiles: Json[]) => JSON.stringify(profiles.map((item) => item.id).sort()) === JSON.stringify(before);
    // At rest: a restore onto a busy or running target may be refused for that, and one accepted is judged by its copy.
    const restore = await sendAtRest(c, [id], () => c.post(`${under}/restore`, { compute_id: id, overwrite: false }));
    const after = ok(restore)
      ? await onceCopyShows(
          c,
          () => configsOf(c, id),
          (profiles) => !unchanged(profiles),
        )
      : await configsOf(c, id);
    c.expect(
      rule,
      unchanged(after),
      `POST ${under}/restore onto instance ${id} (HTTP ${restore.status}) changed its profiles: a backup of instance ${source.id} was restored`,
      restore,
    );
  });
});

describe('Create instance body: backup_id', () => {
  check('P2.instance-create.backup-id.same-region', "an instance from a backup must be in the backup's region", async (c) => {
    const config = c.target.info.config;
    const other = extraSetting(c, 'OTHER_REGION');
    const { backupId } = await snapshotted(c);
    const refused = await createInstance(c, fx, { region: other, type: config.instanceType, label: fx.label('vm', 64), backup_id: backupId });
    c.expectRejected('P2.instance-create.backup-id.same-region', refused.exchange, `creating an instance in ${other} from a backup made in ${config.region}`);
    const accepted = await backupDeploy(c);
    c.expectSuccess('P2.instance-create.backup-id.same-region', accepted.exchange, `creating an instance in ${config.region} from a backup made there`);
  });

  // Instance status values are not shown: that an instance deployed from a backup by default booted is told by the
  // boot rules, as for one deployed from an image (compute.spec). The shared snapshot holds its source's one profile.
  check('P2.instance-create.booted.default-true', 'an instance deployed from a backup without booted booted its profile', async (c) => {
    const { exchange, id } = await backupDeploy(c);
    // A refused deploy is the same-region check's finding.
    if (id === undefined) throw new SetupError(`could not create an instance from the shared snapshot: ${describeExchange(exchange)}`);
    // What a deploy from a backup copies may show only once the copy completes.
    const profiles = await onceCopyShows(
      c,
      () => configsOf(c, id),
      (listed) => listed.length === 1,
    );
    if (profiles.length !== 1)
      return c.skip(
        `the instance deployed from a backup of an instance with one profile lists ${profiles.length} (judged by P2.instance-create.backup-id.copies-config)`,
      );
    await judgeBootedByDefault(c, id, 'a backup');
  });

  // Deployed with booted false it booted nothing: its copied profile is its own, never booted (the source's boots are
  // not the new instance's), so with a second profile a boot without config_id has no last booted profile to use, as
  // for an image deploy (configs.spec).
  check('P2.instance-create.booted.default-true', 'an instance deployed from a backup with booted false booted no profile', async (c) => {
    const config = c.target.info.config;
    const { backupId } = await snapshotted(c);
    const body = { region: config.region, type: config.instanceType, label: fx.label('vm', 64), backup_id: backupId, booted: false };
    const { exchange, id } = await createInstance(c, fx, body);
    if (id === undefined) throw new SetupError(`could not create an instance from the shared snapshot with booted false: ${describeExchange(exchange)}`);
    if (
      (
        await onceCopyShows(
          c,
          () => configsOf(c, id),
          (listed) => listed.length === 1,
        )
      ).length !== 1
    )
      return c.skip(
        'the instance deployed from a backup of an instance with one profile does not list one (judged by P2.instance-create.backup-id.copies-config)',
      );
    await newConfig(c, id);
    // Sent at rest: while the deploy still runs (how long is not shown), a refusal would be for a busy instance.
    c.expectRejected(
      'P2.instance-create.booted.default-true',
      await sendAtRest(c, [id], () => c.post(`${INSTANCES}/${id}/boot`, {})),
      'booting without config_id an instance deployed from a backup with booted false (at rest), after a second profile was added',
    );
  });

  // The source is this check's own: once its backup has been deployed it is deleted, and its backup with it.
  check(
    ['P2.instance-create.backup-id.big-enough', 'P2.instance-create.backup-id.copies-config', 'P2.instances.delete.deletes-backups'],
    "an instance from a backup must be big enough for it and gets the source's profiles; the backup goes with the source",
    async (c) => {
      const config = c.target.info.config;
      // The source's swap disk alone exceeds the smaller type's allocation, however big its image's disk is (not shown).
      const smaller = await diskAllocation(c, (await snapshotted(c)).source.id);
      const { source, backupId } = await snapshotted(c, () => instanceWithSwapOver(c, fx, smaller, { type: config.largerInstanceType }));
      const refused = await createInstance(c, fx, { region: config.region, type: config.instanceType, label: fx.label('vm', 64), backup_id: backupId });
      c.expectRejected(
        'P2.instance-create.backup-id.big-enough',
        refused.exchange,
        `creating a ${config.instanceType} (${smaller} MB) from the backup of a ${config.largerInstanceType} with a swap disk over ${smaller} MB`,
      );
      const body = () => ({ region: config.region, type: config.largerInstanceType, label: fx.label('vm', 64), backup_id: backupId });
      const accepted = await createInstance(c, fx, body());
      c.expectSuccess('P2.instance-create.backup-id.big-enough', accepted.exchange, `creating a ${config.largerInstanceType} from the same backup`);
      // Nothing changed the source's profiles since its snapshot: the profiles its backup holds are the ones it lists.
      const sourceProfiles = (await configsOf(c, source.id)).length;
      const allCopied = (profiles: Json[]) => profiles.length === sourceProfiles;
      const copied = await onceCopyShows(c, () => configsOf(c, accepted.id!), allCopied);
      c.expect(
        'P2.instance-create.backup-id.copies-config',
        copied.length === sourceProfiles,
        `an instance created from a backup of an instance with ${sourceProfiles} profiles lists ${copied.length}`,
      );
      c.expectSuccess('P2.instances.delete.deletes-backups', await deleteInstance(c, source.id), 'deleting the backed-up instance');
      await untilGone(c, `${INSTANCES}/${source.id}`);
      // When the deleted instance's backups are deleted is not shown: a create from one is sent again while a short time
      // passes until it is refused, sparingly (each accepted one made an instance, tracked by createInstance).
      const fromDeleted = await untilShortlyDoneSparingly(
        c,
        async () => (await createInstance(c, fx, body())).exchange,
        (exchange) => !ok(exchange),
      );
      c.expectRejected('P2.instances.delete.deletes-backups', fromDeleted, `creating an instance from backup ${backupId} of the deleted instance ${source.id}`);
    },
  );

  check('P2.instance-create.backup-id.permission', 'creating from a backup needs read_write on its instance', async (c) => {
    const config = c.target.info.config;
    const { source, backupId } = await snapshotted(c);
    const body = () => ({ region: config.region, type: config.instanceType, label: fx.label('vm', 64), backup_id: backupId });
    const readOnly = await c.principal({
      scopes: '*',
      restricted: true,
      grants: { global: { add_computes: true }, entities: { compute: { [String(source.id)]: 'read_only' } } },
    });
    c.expectRejected(
      'P2.instance-create.backup-id.permission',
      (await createInstance(c, fx, body(), { token: readOnly })).exchange,
      'creating from a backup with read_only on its instance',
    );
    const readWrite = await c.principal({
      scopes: '*',
      restricted: true,
      grants: { global: { add_computes: true }, entities: { compute: { [String(source.id)]: 'read_write' } } },
    });
    c.expectSuccess(
      'P2.instance-create.backup-id.permission',
      (await createInstance(c, fx, body(), { token: readWrite })).exchange,
      'creating from a backup with read_write on its instance',
    );
  });
});
