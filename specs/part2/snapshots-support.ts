// Snapshots of an instance (document 2, "Backups"): taking one where a target may require the instance enrolled in the
// backup service first, and waiting until one can be restored or deployed.
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { onTarget } from '../../harness/target-key.js';
import { viewShowsAnother } from '../../harness/resources.js';
import { letShortlyRun, notShownInTime, onceNotBusy, readAfterWrite, skipUnlessShownInTime, untilShortlyDone } from '../../harness/consistency.js';

type Json = Record<string, unknown>;

/**
 * A read of a snapshot just taken, until `done` holds: within the consistency window (a replica's lag is waited out
 * without letting the target's clock run), then while the clock runs a minute at a time for up to 30 minutes, or real
 * time passes (`untilShortlyDone`): how long a snapshot takes, and whether it is listed and viewable before it is
 * taken, are not shown. A read that `shows` the snapshot, only not done (its view answering with status pending), lags
 * behind no write: the window is not waited out for it (under snapshots-take-minutes, 3 s in vain a snapshot). Returns
 * the last value read.
 */
export async function onceSnapshotShows<T>(c: Check, read: () => Promise<T>, done: (value: T) => boolean, shows: (value: T) => boolean = done): Promise<T> {
  const first = await readAfterWrite(c, read, (value) => done(value) || shows(value), { slowChange: true });
  return done(first) ? first : untilShortlyDone(c, read, done, 30);
}

/**
 * Returns once the backup can be restored or deployed: its view answers (2xx) with status `successful` (the one status
 * the documents name for that; how long a snapshot takes is not shown), or with no status. A refused view is not such
 * a backup: a snapshot may be viewable only once it is taken (when it first shows is not shown either). Meanwhile the
 * target's clock is let run a minute at a time for up to 30 minutes, or real time passes (`onceSnapshotShows`); a
 * snapshot still showing another status after that is a `skip`, one still refused is left for the check's own reads to
 * judge (a snapshot never shown is what P2.backups.snapshot.creates looks for), or, without the clock hook, a `skip`
 * too (`skipUnlessShownInTime`). A view showing another label than the snapshot's `label` is another backup that had
 * the id (ids may be given again: a read lagging behind its deletion answers it), not this one shown.
 */
export async function untilBackupSucceeded(c: Check, computeId: number, backupId: number, label: string): Promise<void> {
  const view = () => c.get(`/v4/compute/instances/${computeId}/backups/${backupId}`);
  const statusOf = (exchange: Exchange) => (exchange.body as Json | undefined)?.status;
  const another = (exchange: Exchange) => viewShowsAnother(exchange, { kind: 'backup', label });
  const shown = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300 && !another(exchange);
  const usable = (exchange: Exchange) => shown(exchange) && (typeof statusOf(exchange) !== 'string' || statusOf(exchange) === 'successful');
  const last = await onceSnapshotShows(c, view, usable, shown);
  skipUnlessShownInTime(
    c,
    shown(last),
    `snapshot ${backupId} is not viewable yet (HTTP ${last.status}${another(last) ? ", showing another backup's label" : ''})`,
  );
  if (shown(last) && !usable(last))
    c.skip(`snapshot ${backupId} still shows status ${String(statusOf(last))}, not successful (how long a snapshot takes is not shown)`);
}

/**
 * Enrols an instance in the backup service where a request needing it may have been refused and it is not shown
 * enrolled: whether a snapshot, or a backup schedule, needs the instance enrolled is not shown, nor whether an instance
 * shows its enrolment (the documents' instance shows only `backups.schedule`). Whether the request is worth sending
 * again.
 */
export async function enrolInBackups(c: Check, computeId: number): Promise<boolean> {
  if ((await enrolmentShown(c, computeId)) === true) return false;
  const enabled = await c.post(`/v4/compute/instances/${computeId}/backups/enable`);
  if (enabled.status < 200 || enabled.status >= 300) return false;
  await untilEnableRan(c, computeId);
  return true;
}

/**
 * Cancels the backup service of an instance that shows itself enrolled (`backups.enabled`, or a schedule day): one may
 * be enrolled from its create ("always treated true if the account-wide setting is true"), and an enable of an enrolled
 * instance is not covered. True when a cancel was accepted.
 */
export async function unenrolFromBackups(c: Check, computeId: number): Promise<boolean> {
  if (!shownEnrolled((await c.get(`/v4/compute/instances/${computeId}`)).body)) return false;
  const cancelled = await c.post(`/v4/compute/instances/${computeId}/backups/cancel`);
  if (cancelled.status < 200 || cancelled.status >= 300) return false;
  unenrolled.add(onTarget(c, computeId));
  return true;
}

/** The instances (by target) `unenrolFromBackups` cancelled the service of. */
const unenrolled = new Set<string>();

/** The instance of a path under `/v4/compute/instances/{computeId}/`. */
export const instanceOfPath = (path: string) => Number(/\/instances\/(\d+)\//.exec(path)?.[1]);

/** Why an enable of the instance may be refused, where `unenrolFromBackups` cancelled its service: it may wait for the cancel. */
export const unenrolledMomentsAgo = (c: Check, computeId: number) =>
  unenrolled.has(onTarget(c, computeId)) ? 'its service was cancelled moments before (the instance was enrolled from its create)' : undefined;

/** `backups.enabled` as the instance view shows it (the documents' instance shows no such member: undefined then). */
const enrolmentShown = async (c: Check, computeId: number) =>
  ((await c.get(`/v4/compute/instances/${computeId}`)).body as { backups?: Json } | undefined)?.backups?.enabled;

/**
 * After an accepted enable: it may enrol the instance only once it has run (when is not shown), and a request needing
 * the enrolment (a snapshot, a cancel of the service), sent at once, would be refused for it. Waited for while the
 * instance shows itself not enrolled; where it does not show its enrolment (the documents show `backups` with its
 * schedule only), a short time is let run.
 */
export async function untilEnableRan(c: Check, computeId: number): Promise<void> {
  if (
    (await untilShortlyDone(
      c,
      () => enrolmentShown(c, computeId),
      (shown) => shown !== false,
    )) === undefined
  )
    await letShortlyRun(c);
}

/**
 * POSTs a snapshot of an instance. Where it is refused, the instance is enrolled in the backup service if it was not,
 * and the snapshot sent again while refused: the instance may still be busy with its own create (`onceNotBusy`).
 */
export async function postSnapshot(c: Check, computeId: number, label: string): Promise<Exchange> {
  const send = () => c.post(`/v4/compute/instances/${computeId}/backups`, { label });
  const first = await send();
  if (first.status < 400 || first.status >= 500) return first;
  await enrolInBackups(c, computeId);
  return onceNotBusy(c, send);
}

/** The instances of each spec file already made to take a backup schedule. */
const scheduling = new WeakMap<Fixtures, Map<number, Promise<void>>>();

/**
 * Makes sure the instance takes a backup schedule in an update: where a schedule (the one it shows, else Sunday W0)
 * is refused, the instance is enrolled in the backup service (`enrolInBackups`). Once per instance and spec file.
 */
export function schedulable(c: Check, fx: Fixtures, computeId: number): Promise<void> {
  let made = scheduling.get(fx);
  if (!made) scheduling.set(fx, (made = new Map()));
  let done = made.get(computeId);
  if (!done) made.set(computeId, (done = makeSchedulable(c, computeId)));
  return done;
}

async function makeSchedulable(c: Check, computeId: number): Promise<void> {
  const path = `/v4/compute/instances/${computeId}`;
  const shown = (((await c.get(path)).body as Json | undefined)?.backups as Json | undefined)?.schedule as Json | undefined;
  const schedule = { day: typeof shown?.day === 'string' ? shown.day : 'Sunday', window: typeof shown?.window === 'string' ? shown.window : 'W0' };
  const probe = await c.put(path, { backups: { schedule } });
  if (probe.status >= 400 && probe.status < 500) await enrolInBackups(c, computeId);
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** backups.schedule as an instance view shows it ({} where it shows none). */
export const scheduleOf = (view: Json) => ((view.backups as Json | undefined)?.schedule ?? {}) as Json;

/**
 * Whether an instance view shows the instance enrolled in the backup service, read as after backups are enabled:
 * schedule.day `Scheduling` (returned until a day is automatically chosen) or the weekday chosen. Only that way round:
 * what an instance not enrolled shows is not shown (the documents' instance shows no enrolment member).
 */
export const enrolledDay = (day: unknown) => day === 'Scheduling' || WEEKDAYS.includes(day as string);
export const showsEnrolled = (view: Json) => enrolledDay(scheduleOf(view).day);

/** Whether an instance view shows the instance enrolled: `backups.enabled` true, or a schedule day. */
export const shownEnrolled = (view: unknown) =>
  !!view && typeof view === 'object' && (((view as Json).backups as Json | undefined)?.enabled === true || showsEnrolled(view as Json));

/**
 * Judges `rule` on the view of an instance made with backups_enabled true (`made`: how, for the messages): enrolled in
 * the backup service, it shows a schedule day as one whose backups were enabled does (`showsEnrolled`). False, judging
 * nothing, where the view shows no backups.schedule.day (that a view shows every member is only inferred:
 * P2.instance.fields), and, without the clock hook, where it shows none enrolled yet (when the enrolment shows is not
 * shown, and no more time can pass than a check waits).
 */
export function judgeEnrolled(c: Check, rule: string, view: Json, made: string): boolean {
  const schedule = scheduleOf(view);
  if (!('day' in schedule) || (!showsEnrolled(view) && notShownInTime(c))) return false;
  c.expect(
    rule,
    showsEnrolled(view),
    `${made} shows backups.schedule.day ${JSON.stringify(schedule.day)} (enrolled in the backup service: Scheduling or a weekday expected)`,
  );
  return true;
}
