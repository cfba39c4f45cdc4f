// Snapshots of an instance (document 2, "Backups"): taking one where a target may require the instance enrolled in the
// backup service first, and waiting until one can be restored or deployed.
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { onceNotBusy, untilShortlyDone } from '../../harness/consistency.js';

type Json = Record<string, unknown>;

/**
 * Returns once the backup can be restored or deployed: its status is `successful` (the one status the documents name
 * for that; how long a snapshot takes is not shown), or its view shows no status. Meanwhile the target's clock is let
 * run a minute at a time for up to 30 minutes, or real time passes (`untilShortlyDone`); a snapshot still not
 * successful after that is a `skip`.
 */
export async function untilBackupSucceeded(c: Check, computeId: number, backupId: number): Promise<void> {
  const statusOf = async () => ((await c.get(`/v4/compute/instances/${computeId}/backups/${backupId}`)).body as Json | undefined)?.status;
  const usable = (status: unknown) => typeof status !== 'string' || status === 'successful';
  const status = await untilShortlyDone(c, statusOf, usable, 30);
  if (!usable(status)) c.skip(`snapshot ${backupId} still shows status ${String(status)}, not successful (how long a snapshot takes is not shown)`);
}

/**
 * Enrols an instance in the backup service where a request needing it may have been refused and it is not shown
 * enrolled: whether a snapshot, or a backup schedule, needs the instance enrolled is not shown, nor whether an instance
 * shows its enrolment (the documents' instance shows only `backups.schedule`). Whether the request is worth sending
 * again.
 */
export async function enrolInBackups(c: Check, computeId: number): Promise<boolean> {
  const view = (await c.get(`/v4/compute/instances/${computeId}`)).body as Json | undefined;
  if ((view?.backups as Json | undefined)?.enabled === true) return false;
  const enabled = await c.post(`/v4/compute/instances/${computeId}/backups/enable`);
  return enabled.status >= 200 && enabled.status < 300;
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
