// The checks that come last in specs/part1/databases.spec.ts, declared there by `lateChecks` (a module of that spec
// file, not a spec file: its checks share the file's fixtures and their plan keys name it): the restoring and updating
// statuses (the restore check, last before them, leaves its cluster restoring), the updates, the automatic backups
// (they move the clock past midnight), restricted users (a wrongly accepted request may change the cluster) and the
// failed status (the file's active cluster is failed once every other check is done with it).
import { describe } from 'vitest';
import { CLOCK_LOCK, check, type Check } from '../../harness/check.js';
import { describeExchange, namesField } from '../../harness/error-bodies.js';
import { onceNotBusy, readAfterWrite, untilGone, untilOnClock, waitOutWindow } from '../../harness/consistency.js';
import { showsMade } from '../../harness/resources.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { EVERY_GLOBAL_GRANT } from '../../harness/control-hooks.js';
import { timeOf } from '../../harness/lists.js';
import {
  AUTO_STAMP_LEEWAY,
  DAY_MS,
  DB,
  GENERIC,
  MINUTE,
  autos,
  backupsOf,
  type clusterHelpers,
  documentedWindow,
  isObject,
  ok,
  readInStatus,
  rejected,
  statusOf,
  untilAllowListApplied,
  updateOnceSettled,
  view,
  viewAfterWrite,
  waitForStatus,
  windowAnHourOn,
  windowWith,
  type Json,
} from './databases-support.js';

/**
 * A request the cluster's status decides (document 1, Managed database status), with its rule; `deletes`: one that
 * leaves no cluster to send it again to.
 */
type StatusBound = [rule: string, what: string, send: (c: Check, id: number, backupId: number) => Promise<Exchange>, deletes?: 'deletes'];

/** The cluster's status, as one read shows it (none when the view is refused: a cluster deleted). */
async function shownStatus(c: Check, id: number): Promise<string | undefined> {
  const exchange = await c.get(`${DB}/${id}`);
  return ok(exchange) && isObject(exchange.body) && typeof exchange.body.status === 'string' ? exchange.body.status : undefined;
}

/**
 * Sends each request while the cluster shows `state` (`restoring`, `updating`), and judges only one sent with the
 * cluster in `state` before and after it: a state that ended in between is not misjudged (transitions are not shown).
 * A refusal needs no read after it; an accepted request fails its rule when the cluster still shows `state` once a
 * lagging replica has caught up, and shows it again on a second try. Transitions not shown, any request accepted by an
 * active cluster may put it in `state` itself (a patch in `updating`, a restore in `restoring`; an update or a
 * credentials reset may too), so an acceptance between two reads showing `state` is sure only where the state cannot
 * have ended unseen: each request is sent holding the run's clock from the read before to the read after, where the run
 * drives the target's clock (another spec file's advance could end the state: a correct cluster failed so under load);
 * and an acceptance is sent again once the consistency window has passed (a lagging read may have shown the state after
 * it ended; real time may have ended it on a target without the clock hook): only a second acceptance, after a fresh
 * read showing `state`, fails the rule. A delete accepted leaves nothing to send again to: its acceptance fails the rule
 * at once only where the run drives the clock and reads show every write at once (no consistency window: a read lagging
 * a state that ended in real time would show it still); elsewhere only when the cluster is still shown in `state`,
 * twice. Stops once the cluster shows another state. Returns how many were judged.
 */
async function refusedWhileIn(c: Check, id: number, backupId: number, state: string, requests: readonly StatusBound[]): Promise<number> {
  let judged = 0;
  for (const [rule, what, send, deletes] of requests) {
    /** One try; `again`: after an acceptance that may have put the cluster in `state` itself. */
    const judgeOne = async (again: boolean): Promise<'state left' | 'refused' | 'accepted' | 'accepted in state'> => {
      if (again) await waitOutWindow(c);
      if ((await shownStatus(c, id)) !== state) return 'state left';
      const exchange = await send(c, id, backupId);
      if (rejected(exchange)) return 'refused';
      c.expect(rule, ok(exchange), `${what} on a ${state} cluster got ${describeExchange(exchange)}`, exchange);
      const after = await readAfterWrite(
        c,
        () => shownStatus(c, id),
        (status) => status !== state,
      );
      if (after === undefined && deletes && c.target.control && c.target.info.config.consistencyWindowMs === 0)
        c.fail(rule, `${what} was accepted (${describeExchange(exchange)}) on a cluster shown ${state} just before it, the run's clock held`, exchange);
      if (after !== state) return 'accepted';
      if (again) c.fail(rule, `${what} was accepted (${describeExchange(exchange)}) while the cluster was ${state}, before and after it, twice`, exchange);
      return 'accepted in state';
    };
    let outcome = await c.holdingClock(() => judgeOne(false));
    if (outcome === 'accepted in state') outcome = await c.holdingClock(() => judgeOne(true));
    if (outcome === 'state left') break;
    if (outcome === 'refused') judged++;
  }
  return judged;
}

/**
 * Sends each request while the cluster shows `state`, each expected to succeed there (allowed "in any status except
 * provisioning", which a cluster once active never shows again): judged only when the cluster showed `state` just
 * before it. Stops once the cluster shows another state. Returns how many were judged. Sent once the consistency window
 * has passed, holding the run's clock: an answer read just after the change that brought `state` may answer as before
 * it, served then too (under replica-reads, backups refused while updating passed).
 */
async function servedWhileIn(c: Check, id: number, backupId: number, state: string, requests: readonly StatusBound[]): Promise<number> {
  return c.holdingClock(async () => {
    await waitOutWindow(c);
    let judged = 0;
    for (const [rule, what, send] of requests) {
      if ((await shownStatus(c, id)) !== state) break;
      c.expectSuccess(rule, await send(c, id, backupId), `${what} while the cluster is ${state} (allowed in any status except provisioning)`);
      judged++;
    }
    return judged;
  });
}

export function lateChecks(fx: Fixtures, helpers: ReturnType<typeof clusterHelpers>): void {
  const { mysqlEngines, nodeType, activeCluster, failedCluster, failed, restoredCluster, clusterSnapshot, pastMidnight, editable, mustCreate } = helpers;

  /** What needs the cluster `active`, each request as the status checks send it. */
  const needsActive: StatusBound[] = [
    ['P1.database.status.update-requires-active', 'PUT (label)', (c, id) => c.put(`${DB}/${id}`, { label: fx.label('db', 32) })],
    ['P1.database.status.update-requires-active', 'PUT (allow_list)', (c, id) => c.put(`${DB}/${id}`, { allow_list: ['10.60.70.0/28'] })],
    ['P1.database.status.update-requires-active', 'PUT (updates)', async (c, id) => c.put(`${DB}/${id}`, { updates: await windowAnHourOn(c, id) })],
    [
      'P1.database.status.snapshot-create-requires-active',
      'POST backups (snapshot)',
      (c, id) => c.post(`${DB}/${id}/backups`, { label: fx.label('snap', 64) }),
    ],
    ['P1.database.status.restore-requires-active', 'POST restore', (c, id, backupId) => c.post(`${DB}/${id}/backups/${backupId}/restore`)],
    ['P1.database.status.credentials-view-requires-active', 'GET credentials', (c, id) => readInStatus(c, `${DB}/${id}/credentials`, rejected)],
    ['P1.database.status.credentials-reset-requires-active', 'POST credentials/reset', (c, id) => c.post(`${DB}/${id}/credentials/reset`)],
    ['P1.database.status.patch-requires-active', 'POST patch', (c, id) => c.post(`${DB}/${id}/patch`)],
    ['P1.database.status.ssl-view-requires-active', 'GET ssl', (c, id) => readInStatus(c, `${DB}/${id}/ssl`, rejected)],
  ];
  /** What a cluster allows in any status except provisioning: its backups, listed and viewed. */
  const notProvisioning: StatusBound[] = [
    ['P1.database.status.backups-list-not-provisioning', 'GET backups', (c, id) => c.get(`${DB}/${id}/backups`)],
    ['P1.database.status.backup-view-not-provisioning', 'GET backup', (c, id, backupId) => c.get(`${DB}/${id}/backups/${backupId}`)],
  ];
  /** A delete needs the cluster `active`, `failed` or `degraded`. */
  const deleteRequest: StatusBound = ['P1.database.status.delete-requires-active-failed-degraded', 'DELETE', (c, id) => c.delete(`${DB}/${id}`), 'deletes'];

  // ------------------------------------------------------------------ required status: restoring, updating

  // First of the late checks: the restore check, just before, left its cluster restoring.
  describe('Managed database status: restoring and updating', () => {
    const requests = [...needsActive, deleteRequest];
    check(
      [...new Set([...requests, ...notProvisioning].map(([rule]) => rule))],
      'what needs an active cluster is refused while it is restoring, and while a patch updates it; its backups are listed and viewed meanwhile',
      async (c) => {
        const { id, backupId, restore } = await restoredCluster(c);
        if (!ok(restore)) c.skip(`the restore was refused (${describeExchange(restore)}): judged by P1.database.status.restore-requires-active`);
        const seen: string[] = [];
        // A restore may wait its turn with the cluster active (not shown): a few simulated minutes.
        const restoring = await untilOnClock(
          c,
          () => statusOf(c, id),
          (status) => status !== 'active',
          { stepSeconds: MINUTE, mostSeconds: 5 * MINUTE },
        );
        seen.push(`${String(restoring)} after the restore`);
        // The backups first: reads that change nothing, judged while the state is surely there.
        const whileIn = async (state: string) =>
          (await servedWhileIn(c, id, backupId, state, notProvisioning)) + (await refusedWhileIn(c, id, backupId, state, requests));
        let judged = restoring === 'restoring' ? await whileIn('restoring') : 0;
        // Then a patch once the restore has run (how long it runs is not shown): "single-node clusters have downtime",
        // and what a server shows meanwhile is not shown (a cluster of three nodes may stay active: this one has one node,
        // asked for explicitly, restoredCluster).
        const before = (await shownStatus(c, id)) === undefined ? undefined : await waitForStatus(c, id, ['active'], 90);
        if (before === 'active') {
          // The clock held from the patch to the read of its state: another file's advance could end it in between.
          const { patch, during } = await c.holdingClock(async () => {
            const patch = await onceNotBusy(c, () => c.post(`${DB}/${id}/patch`));
            const read = () =>
              readAfterWrite(
                c,
                () => statusOf(c, id),
                (status) => status !== 'active',
              );
            return { patch, during: ok(patch) ? await read() : undefined };
          });
          seen.push(ok(patch) ? `${String(during)} after a patch` : `active, its patch refused (${describeExchange(patch)})`);
          if (during === 'updating') judged += await whileIn('updating');
        } else seen.push(`${String(before)} once the restore had run`);
        if (!judged) c.skip(`the cluster was not restoring or updating when a request was sent: it showed ${seen.join(', ')}`);
      },
    );
  });

  // ------------------------------------------------------------------ update

  describe('Managed database update', () => {
    check(
      ['P1.database.status.update-requires-active', 'P1.database.update.reflected'],
      'an update of an active cluster shows the label and allow_list sent',
      async (c) => {
        const { id } = await editable(c);
        const label = fx.label('db', 32);
        const put = await c.put(`${DB}/${id}`, { label, allow_list: ['10.50.60.0/28', '10.20.30.44'] });
        c.expectSuccess('P1.database.status.update-requires-active', put, 'PUT of an active cluster');
        const expected = ['10.50.60.0/28', '10.20.30.44/32'];
        const same = (shown: unknown) =>
          Array.isArray(shown) && shown.length === 2 && expected.every((item) => shown.includes(item) || shown.includes(item.replace(/\/32$/, '')));
        // The response's allow_list is not judged: a change "takes a short time", and what is shown meanwhile is not shown.
        const body = put.body as Json | undefined;
        if (isObject(body) && 'label' in body)
          c.expect('P1.database.update.reflected', body.label === label, `the update response shows label ${JSON.stringify(body.label)}`, put);
        const { exchange, cluster } = await viewAfterWrite(c, id, (shown) => shown?.label === label && same(shown?.allow_list));
        c.expect(
          'P1.database.update.reflected',
          cluster?.label === label && same(cluster?.allow_list),
          `after the update the cluster shows label ${JSON.stringify(cluster?.label)} allow_list ${JSON.stringify(cluster?.allow_list)}`,
          exchange,
        );
        await untilAllowListApplied(c, id);
      },
    );

    // The allowed values and units of the members are not shown: each integer member is moved to a nearby small value
    // (hour_of_day by one, the others between 1 and 2), frequency is sent back as shown. A window the target takes must
    // read back as sent, except week_of_month in a weekly window (what it means there is not shown: a server may keep
    // its own). A window refused whole may hold a value outside the target's units (a duration in minutes, say): the
    // members are then moved one at a time, each one step from the value shown, hour_of_day first (every reading has
    // hours 0 to 23), and each window taken is judged; a member whose move is refused is not.
    check('P1.database.update.reflected', 'an update of the maintenance window (updates) shows every member sent', async (c) => {
      const rule = 'P1.database.update.reflected';
      const { id } = await editable(c);
      const current = (await view(c, id)).cluster?.updates;
      if (!isObject(current)) throw new SetupError('the cluster shows no updates object');
      /** Sends the window; one taken must show each member sent, in the response (when it shows one) and in the view. */
      const sendWindow = async (sent: Json): Promise<Exchange> => {
        const put = await c.put(`${DB}/${id}`, { updates: sent });
        if (rejected(put)) return put;
        c.expectSuccess(rule, put, `PUT updates ${JSON.stringify(sent)}`);
        const judged = Object.entries(sent).filter(([member]) => member !== 'week_of_month' || sent.frequency !== 'weekly');
        const showsSent = (shown: unknown) => isObject(shown) && judged.every(([member, value]) => shown[member] === value);
        const returned = (put.body as Json | undefined)?.updates;
        if (returned !== undefined)
          c.expect(rule, showsSent(returned), `the update response shows updates ${JSON.stringify(returned)}, sent ${JSON.stringify(sent)}`, put);
        const { exchange, cluster } = await viewAfterWrite(c, id, (shown) => showsSent(shown?.updates));
        c.expect(
          rule,
          showsSent(cluster?.updates),
          `after the update the cluster shows updates ${JSON.stringify(cluster?.updates)}, sent ${JSON.stringify(sent)}`,
          exchange,
        );
        return put;
      };
      const other = (value: unknown) => (value === 1 ? 2 : 1);
      const nextHour = (value: unknown) => (typeof value === 'number' ? (value + 1) % 24 : 12);
      const step = (value: number) => (value > 1 ? value - 1 : value + 1);
      const whole: Json = {
        frequency: current.frequency ?? null,
        duration: other(current.duration),
        hour_of_day: nextHour(current.hour_of_day),
        day_of_week: other(current.day_of_week),
        week_of_month: other(current.week_of_month),
      };
      const put = await sendWindow(whole);
      if (!rejected(put)) return;
      const refused = [`${JSON.stringify(whole)} (${describeExchange(put)})`];
      let window: Json = { ...documentedWindow(current), frequency: current.frequency ?? null };
      let taken = 0;
      for (const member of ['hour_of_day', 'day_of_week', 'duration', 'week_of_month']) {
        const value = window[member];
        if (member === 'week_of_month' && window.frequency === 'weekly') continue;
        if (member !== 'hour_of_day' && typeof value !== 'number') continue;
        const moved = { ...window, [member]: member === 'hour_of_day' ? nextHour(value) : step(value as number) };
        const one = await sendWindow(moved);
        if (rejected(one)) refused.push(`${member} ${JSON.stringify(moved[member])} (${describeExchange(one)})`);
        else [window, taken] = [moved, taken + 1];
      }
      if (!taken) c.skip(`the target refused every maintenance window sent (allowed values and units are not shown): ${refused.join('; ')}`);
    });

    check('P1.database.allow-list.update-replaces', 'allow_list of an update replaces every entry', async (c) => {
      const { id } = await editable(c);
      const putList = (allow_list: string[]) => updateOnceSettled(c, id, { allow_list });
      const firstList = ['10.20.30.1', '10.40.0.0/16'];
      const first = await putList(firstList);
      if (!ok(first)) throw new SetupError(`could not set allow_list: ${describeExchange(first)}`);
      await untilAllowListApplied(c, id, firstList);
      const second = await putList(['10.50.60.9']);
      c.expectSuccess('P1.database.allow-list.update-replaces', second, 'the second allow_list update');
      await untilAllowListApplied(c, id, ['10.50.60.9']);
      const replaced = (list: unknown) =>
        Array.isArray(list) && list.length === 1 && list.every((entry) => ['10.50.60.9/32', '10.50.60.9'].includes(String(entry)));
      const { exchange, cluster } = await viewAfterWrite(c, id, (shown) => replaced(shown?.allow_list));
      const list = cluster?.allow_list;
      c.expect(
        'P1.database.allow-list.update-replaces',
        replaced(list),
        `after updating allow_list to ["10.50.60.9"] the cluster shows ${JSON.stringify(list)}`,
        exchange,
      );
      const cleared = await putList([]);
      c.expectSuccess('P1.database.allow-list.update-replaces', cleared, 'an update to an empty allow_list');
      await untilAllowListApplied(c, id, []);
      const empty = await viewAfterWrite(c, id, (shown) => Array.isArray(shown?.allow_list) && shown.allow_list.length === 0);
      c.expect(
        'P1.database.allow-list.update-replaces',
        Array.isArray(empty.cluster?.allow_list) && empty.cluster.allow_list.length === 0,
        `after updating allow_list to [] the cluster shows ${JSON.stringify(empty.cluster?.allow_list)}`,
        empty.exchange,
      );
    });

    // Not an update with no member at all: whether one is accepted is not shown.
    check('P1.database-update.all-optional', 'an update with any non-empty subset of label, allow_list and updates is accepted', async (c) => {
      const { id } = await editable(c);
      const current = (await view(c, id)).cluster;
      if (!isObject(current?.updates)) throw new SetupError('the cluster shows no updates object to send back');
      const members = ['label', 'allow_list', 'updates'] as const;
      // Each allow_list differs from the one before (empty after a list, one address after empty): a read showing it is
      // then known to come after the update (untilAllowListApplied).
      let lastList = current.allow_list;
      for (let mask = 1; mask < 1 << members.length; mask++) {
        const body: Json = {};
        if (mask & 1) body.label = fx.label('db', 32);
        if (mask & 2) lastList = body.allow_list = Array.isArray(lastList) && lastList.length === 0 ? [`10.20.30.${10 + mask}`] : [];
        if (mask & 4) body.updates = documentedWindow(current.updates);
        // The cluster may still be applying the last allow list ("changes take a short time").
        const put = await updateOnceSettled(c, id, body);
        c.expectSuccess('P1.database-update.all-optional', put, `PUT with ${Object.keys(body).join(', ')}`);
        if ('allow_list' in body) await untilAllowListApplied(c, id, body.allow_list);
      }
    });

    check('P1.database.label.unique', 'renaming a cluster to a label in use is refused', async (c) => {
      const { id } = await editable(c);
      const other = await mustCreate(c);
      const put = await c.put(`${DB}/${id}`, { label: other.label });
      c.expectRejected('P1.database.label.unique', put, `PUT label "${other.label}" (the label of cluster ${other.id})`, 'label');
      const { cluster } = await view(c, id);
      c.expect('P1.database.label.unique', cluster?.label !== other.label, 'the cluster took the label in use after a refused rename');
    });

    // Its own label is in use by no other cluster: sent back with an allow_list nothing else sends (a real change;
    // whether an update changing nothing is taken is not shown), it is taken. A refusal naming label is judged at once.
    check('P1.database.label.unique', "an update sending back the cluster's own label is accepted", async (c) => {
      const { id } = await editable(c);
      const { cluster } = await view(c, id);
      if (typeof cluster?.label !== 'string') throw new SetupError('the cluster shows no label');
      const [label, allow_list] = [cluster.label, ['10.71.81.0/28']];
      const put = await onceNotBusy(c, () => c.put(`${DB}/${id}`, { label, allow_list }), { refusedFor: (e) => namesField(e, 'label') === true });
      c.expectSuccess('P1.database.label.unique', put, `PUT label "${label}" (its own) with a new allow_list`);
      await untilAllowListApplied(c, id, allow_list);
    });

    check('P1.errors.field.dot-path', 'an error about a nested member names its dot-separated path', async (c) => {
      const { id } = await editable(c);
      const put = await c.put(`${DB}/${id}`, { updates: await windowWith(c, id, 'hour_of_day', 'twenty') });
      c.expectRejected('P1.errors.field.dot-path', put, 'PUT updates.hour_of_day "twenty" (an integer member)');
      for (const error of ((put.body as Json | undefined)?.errors as Json[] | undefined) ?? []) {
        const field = error?.field;
        if (typeof field !== 'string' || field === '' || field === 'updates') continue;
        c.expect(
          'P1.errors.field.dot-path',
          field === 'updates.hour_of_day',
          `the error names field "${field}", not the dot-separated path "updates.hour_of_day"`,
          put,
        );
      }
      const list = await c.put(`${DB}/${id}`, { allow_list: ['10.20.30.1', 'not-an-address'] });
      c.expectRejected('P1.errors.field.dot-path', list, 'PUT allow_list with a bad second item');
      for (const error of ((list.body as Json | undefined)?.errors as Json[] | undefined) ?? []) {
        const field = error?.field;
        if (typeof field !== 'string' || field === '' || field === 'allow_list') continue;
        c.expect(
          'P1.errors.field.dot-path',
          field === 'allow_list.1' || field === 'allow_list[1]',
          `the error names field "${field}", not the path "allow_list.1" of the bad item`,
          list,
        );
      }
    });
  });

  // ------------------------------------------------------------------ automatic backups (clock)

  describe('Managed database automatic backups', () => {
    check(['P1.database.backups.daily', 'P1.database-backup.auto.midnight-utc'], 'an active cluster gets an automatic backup at 00:00 UTC', async (c) => {
      const { id, midnight } = await pastMidnight(c);
      // Read after the clock moved: a replica may still answer as before.
      const autoTimes = () =>
        readAfterWrite(
          c,
          async () => autos(await backupsOf(c, id)),
          (times) => times.some((t) => t >= midnight),
        );
      let times = await autoTimes();
      if (!times.length) {
        // None at 00:00: the rest of that day tells a backup made at another hour from none at all.
        await c.advanceClock(DAY_MS / 1000 - AUTO_STAMP_LEEWAY - 3 * MINUTE);
        times = await autoTimes();
        const late = times.find((t) => t > midnight && t < midnight + DAY_MS);
        if (late !== undefined)
          c.fail(
            'P1.database-backup.auto.midnight-utc',
            `no auto backup at ${new Date(midnight).toISOString()}; the first one was made at ${new Date(late).toISOString()}, not at 00:00 UTC`,
          );
      }
      c.expect(
        'P1.database.backups.daily',
        times.length > 0,
        `no auto backup after the cluster was active across 00:00 UTC of ${new Date(midnight).toISOString()}`,
      );
      c.expect(
        'P1.database-backup.auto.midnight-utc',
        times.some((t) => t >= midnight && t - midnight < AUTO_STAMP_LEEWAY * 1000),
        `no auto backup created within ${AUTO_STAMP_LEEWAY / MINUTE} minutes of ${new Date(midnight).toISOString()} (auto backups: ${times.map((t) => new Date(t).toISOString()).join(', ')})`,
      );
      for (const t of times)
        c.expect(
          'P1.database-backup.auto.midnight-utc',
          t % DAY_MS < AUTO_STAMP_LEEWAY * 1000,
          `an auto backup was created at ${new Date(t).toISOString()}, not at 00:00 UTC`,
        );
    });

    check(
      ['P1.database-backup.auto.midnight-utc', 'P1.database-backup.auto.retained-7-days'],
      'auto backups are whole days apart and each is kept 7 days',
      async (c) => {
        const { midnight } = await pastMidnight(c);
        let judged = 0;
        const expiring: { id: number; oldest: number; newest: number }[] = [];
        const list = await c.get(DB);
        for (const cluster of ((list.body as { data?: Json[] } | undefined)?.data ?? []).filter(
          (item) => typeof item.id === 'number' && item.status !== 'provisioning',
        )) {
          const times = autos(await backupsOf(c, cluster.id as number));
          if (times.length < 2) continue;
          judged++;
          // Whole days apart, each stamped within the leeway of its midnight.
          for (let i = 1; i < times.length; i++) {
            const gap = times[i]! - times[i - 1]!;
            const days = Math.round(gap / DAY_MS);
            c.expect(
              'P1.database-backup.auto.midnight-utc',
              days >= 1 && Math.abs(gap - days * DAY_MS) < AUTO_STAMP_LEEWAY * 1000,
              `auto backups of cluster ${String(cluster.id)} at ${new Date(times[i - 1]!).toISOString()} and ${new Date(times[i]!).toISOString()} are not a whole number of 24-hour periods apart`,
            );
          }
          const newest = times.at(-1)!;
          const oldest = times[0]!;
          if (newest - oldest > 7 * DAY_MS - AUTO_STAMP_LEEWAY * 1000) expiring.push({ id: cluster.id as number, oldest, newest });
          const created = timeOf(cluster.created);
          if (created !== undefined && created <= newest - 7 * DAY_MS) {
            c.expect(
              'P1.database-backup.auto.retained-7-days',
              oldest <= newest - 6 * DAY_MS,
              `cluster ${String(cluster.id)} (created ${String(cluster.created)}) keeps auto backups only back to ${new Date(oldest).toISOString()}, less than 7 days`,
            );
          }
        }
        if (expiring.length) {
          // A backup 7 days older than the newest may still be listed until the service removes it (when is not shown):
          // a daily job may remove only the backups 7 days old at its start, so one stamped a few minutes after its
          // midnight stays until the run of the next midnight after its 7 days, which may take the stamp leeway too.
          const dueOf = (oldest: number) => (Math.floor((oldest + 7 * DAY_MS) / DAY_MS) + 1) * DAY_MS + (AUTO_STAMP_LEEWAY + MINUTE) * 1000;
          const due = Math.max(...expiring.map(({ oldest }) => dueOf(oldest)));
          // The clock stands at least where pastMidnight ran it, and at the newest backup's stamp less the leeway.
          const now = Math.max(midnight + (AUTO_STAMP_LEEWAY + MINUTE) * 1000, ...expiring.map(({ newest }) => newest - AUTO_STAMP_LEEWAY * 1000));
          if (due > now) await c.advanceClock(Math.ceil((due - now) / 1000));
          for (const { id, oldest } of expiring) {
            const later = await readAfterWrite(
              c,
              async () => autos(await backupsOf(c, id)),
              (listed) => !listed.includes(oldest),
              { afterClock: true },
            );
            c.expect(
              'P1.database-backup.auto.retained-7-days',
              !later.includes(oldest),
              `cluster ${String(id)} still lists an auto backup of ${new Date(oldest).toISOString()} at ${new Date(dueOf(oldest)).toISOString()}, past the first daily run (00:00 UTC) after it was 7 days old and the ${AUTO_STAMP_LEEWAY / MINUTE} minutes that run may take`,
            );
          }
        }
        if (!judged) c.skip('no cluster of the target has two automatic backups yet');
      },
    );
  });

  // ------------------------------------------------------------------ restricted users (last: a wrongly accepted request may change the cluster)

  describe('Managed databases and restricted users', () => {
    check(
      'P1.database.unrestricted-regardless-of-scopes',
      'a restricted user holding the databases scopes is refused on every MySQL endpoint and the generic list',
      async (c) => {
        // (every global grant too: the documents name none that opens the databases to a restricted user)
        const token = await c.principal({ scopes: ['databases:read_only', 'databases:read_write'], restricted: true, grants: { global: EVERY_GLOBAL_GRANT } });
        const { id } = await activeCluster(c);
        const { id: backupId } = await clusterSnapshot(c);
        const requests: Array<[string, () => Promise<Exchange>]> = [
          [`GET ${GENERIC}`, () => c.get(GENERIC, { token })],
          [`GET ${DB}`, () => c.get(DB, { token })],
          [`GET ${DB}/{id}`, () => c.get(`${DB}/${id}`, { token })],
          [`GET ${DB}/{id}/backups`, () => c.get(`${DB}/${id}/backups`, { token })],
          [`GET ${DB}/{id}/backups/{backupId}`, () => c.get(`${DB}/${id}/backups/${backupId}`, { token })],
          [`GET ${DB}/{id}/credentials`, () => c.get(`${DB}/${id}/credentials`, { token })],
          [`GET ${DB}/{id}/ssl`, () => c.get(`${DB}/${id}/ssl`, { token })],
          [
            `POST ${DB}`,
            async () => {
              const label = fx.label('db', 32);
              const exchange = await c.post(
                DB,
                { label, engine: (await mysqlEngines(c))[0]!.id, type: await nodeType(c), region: c.target.info.config.region },
                { token },
              );
              await fx.adopt(c, exchange, { kind: 'database', list: DB, match: (item) => item.label === label });
              return exchange;
            },
          ],
          [`POST ${DB}/{id}/backups`, () => c.post(`${DB}/${id}/backups`, { label: fx.label('snap', 64) }, { token })],
          // A new label, an update every reading takes from an unrestricted user: an empty body some refuse whoever
          // sends it, which hid a server letting restricted users update. Sent again while refused as for a busy
          // cluster (an earlier update's change may still be applied; a correct server's 401/403 is taken at once).
          // The active cluster's label is the update checks' to change (nothing reads it): one wrongly accepted here
          // disturbs no other check, and the clean-up deletes by id. A reset and a patch likewise: a server may refuse
          // them while the snapshot just taken runs (what a cluster refuses meanwhile is not shown), which passed for
          // the refusal of the user (under snapshot-keeps-cluster-busy).
          [`PUT ${DB}/{id}`, () => onceNotBusy(c, () => c.put(`${DB}/${id}`, { label: fx.label('db', 32) }, { token }))],
          [`POST ${DB}/{id}/credentials/reset`, () => onceNotBusy(c, () => c.post(`${DB}/${id}/credentials/reset`, undefined, { token }))],
          [`POST ${DB}/{id}/patch`, () => onceNotBusy(c, () => c.post(`${DB}/${id}/patch`, undefined, { token }))],
          [`POST ${DB}/{id}/backups/{backupId}/restore`, () => c.post(`${DB}/${id}/backups/${backupId}/restore`, undefined, { token })],
          [`DELETE ${DB}/{id}`, () => c.delete(`${DB}/${id}`, { token })],
        ];
        for (const [what, send] of requests)
          c.expectRejected(
            'P1.database.unrestricted-regardless-of-scopes',
            await send(),
            `${what} as a restricted user holding databases:read_only and databases:read_write`,
          );
      },
    );
  });

  describe('Managed database status: failed', () => {
    check('P1.database.restore.after-reset-fails', 'a restore after a credentials reset leaves the cluster failed', async (c) => {
      const result = await failedCluster(c);
      if (!ok(result.reset)) throw new SetupError(`could not reset the credentials: ${describeExchange(result.reset)}`);
      c.expectSuccess('P1.database.restore.after-reset-fails', result.restore, 'POST restore after a credentials reset');
      c.expect(
        'P1.database.restore.after-reset-fails',
        result.status === 'failed',
        `after a credentials reset and a restore the cluster is ${JSON.stringify(result.status)}, not failed`,
      );
    });

    // Each holds the clock: a failed cluster may be repaired as simulated time passes (its transitions are not shown).
    const heldClock = { exclusive: CLOCK_LOCK };
    for (const [rule, what, op] of needsActive) {
      check(
        rule,
        `${what} is refused on a failed cluster`,
        async (c) => {
          const { id, backupId } = await failed(c);
          c.expectRejected(rule, await op(c, id, backupId), `${what} on a failed cluster`);
          c.expect(rule, (await statusOf(c, id)) === 'failed', 'the failed cluster changed status after a refused request');
        },
        heldClock,
      );
    }

    check(
      ['P1.database.status.backups-list-not-provisioning', 'P1.database.status.backup-view-not-provisioning'],
      'the backups of a failed cluster are listed and viewed',
      async (c) => {
        const { id, backupId } = await failed(c);
        c.expectSuccess('P1.database.status.backups-list-not-provisioning', await c.get(`${DB}/${id}/backups`), 'GET backups of a failed cluster');
        c.expectSuccess('P1.database.status.backup-view-not-provisioning', await c.get(`${DB}/${id}/backups/${backupId}`), 'GET backup of a failed cluster');
      },
      heldClock,
    );

    check(
      ['P1.database.status.delete-requires-active-failed-degraded', 'P1.database.delete.removes'],
      'a failed cluster can be deleted',
      async (c) => {
        const { id, label } = await failed(c);
        const made = { kind: 'database', id, label };
        c.expectSuccess('P1.database.status.delete-requires-active-failed-degraded', await c.delete(`${DB}/${id}`), 'DELETE of a failed cluster');
        // The deletion may run a while (not shown): its view is read while a short time passes, then the list.
        c.expectGone('P1.database.delete.removes', await untilGone(c, `${DB}/${id}`, made), 'GET of the deleted cluster', made);
        c.expect(
          'P1.database.delete.removes',
          await fx.gone(c, DB, (item) => showsMade('database', item, made)),
          'the deleted cluster is still in the MySQL list',
        );
      },
      heldClock,
    );
  });
}
