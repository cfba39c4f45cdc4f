// The checks that come last in specs/part2/compute.spec.ts, declared there by `lateChecks` (a module of that spec
// file, not a spec file: its checks share the file's fixtures and their plan keys name it): an instance's statistics
// and transfer by month, the year bounds, volumes, kernels, path ids, and the events of instance operations.
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { onceNotBusy, readAfterWrite, skipUnlessShownInTime, waitOutWindow } from '../../harness/consistency.js';
import { rulesOfSchema } from '../../harness/contract.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { monthOf } from '../../harness/lists.js';
import { timeOf } from '../../harness/date-times.js';
import { readPage } from '../../harness/pages.js';
import { bodyOf, cloneToNew, createdMonth, deleteInstance, INSTANCES, listAll, newInstance, ok, type Json } from './compute-support.js';

export function lateChecks(fx: Fixtures): void {
  type Month = { year: number; month: number };
  const plusMonths = ({ year, month }: Month, n: number): Month => {
    const index = year * 12 + (month - 1) + n;
    return { year: Math.floor(index / 12), month: (index % 12) + 1 };
  };
  const before = (a: Month, b: Month) => a.year * 12 + a.month < b.year * 12 + b.month;

  /**
   * The file's instance, once it answers its statistics or its transfer (`kind`, what the check judges): an instance
   * with no history yet may have neither (not shown either way), and a refusal for that would stand for the one a check
   * judges (still refused where no more time can pass, `skipUnlessShownInTime`, the check skips).
   */
  async function withUsage(c: Check, kind: 'stats' | 'transfer'): Promise<number> {
    const { id } = await fx.instance(c);
    const answer = await onceNotBusy(c, () => c.get(`${INSTANCES}/${id}/${kind}`), { untimed: true });
    skipUnlessShownInTime(c, ok(answer), `instance ${id} still refuses its ${kind} (HTTP ${answer.status}), perhaps having no history yet`);
    return id;
  }

  /**
   * The file's instance (`withUsage` of `kind`), the month it was created in (undefined where its view shows no `created`) and
   * the target's current month, from the `created` date-time of the event a new firewall records (simulated time may
   * run ahead of the instance; a firewall costs nothing, an instance would).
   */
  async function targetMonth(c: Check, kind: 'stats' | 'transfer'): Promise<Month & { id: number; at?: number; createdIn?: Month }> {
    const id = await withUsage(c, kind);
    const createdIn = await createdMonth(c, id);
    const firewall = await fx.newFirewall(c);
    const event = await fx.find(
      c,
      '/v4/account/events',
      (item) => item.action === 'firewall_create' && String((item.entity as Json | undefined)?.id) === String(firewall.id),
    );
    const now = monthOf(event?.created);
    if (!now) return c.skip("no firewall_create event with a created date-time tells the target's current month");
    const at = timeOf(event?.created);
    return { id, ...now, ...(at !== undefined ? { at } : {}), ...(createdIn ? { createdIn } : {}) };
  }

  const usagePath = (kind: 'stats' | 'transfer', id: number, year: number | string, month: number | string) => `${INSTANCES}/${id}/${kind}/${year}/${month}`;

  /**
   * Judges that `kind` answers each of `months` (all past or current and within bounds). Whether months before the
   * instance existed are answered is not shown: those are judged only on a target that answers the month before the
   * instance's own (it then has no reason to refuse an earlier one), and months older than the previous one only on a
   * target that answers the month two back ("past month" may be read as the previous one only, as for statistics); on
   * one that refuses they are left unjudged (skip), so this comes last in a check.
   */
  async function expectAnswered(c: Check, rule: string, kind: 'stats' | 'transfer', now: Awaited<ReturnType<typeof targetMonth>>, months: Month[]) {
    const existed = (month: Month) => now.createdIn !== undefined && !before(month, now.createdIn);
    const get = (month: Month) => c.get(usagePath(kind, now.id, month.year, month.month));
    for (const month of months.filter(existed)) c.expectSuccess(rule, await get(month), `${kind} for ${month.year}/${month.month}`);
    const earlier = months.filter((month) => !existed(month));
    if (!earlier.length) return;
    const previous = plusMonths(now, -1);
    const probes = [plusMonths(now.createdIn ?? now, -1), ...(earlier.some((month) => before(month, previous)) ? [plusMonths(now, -2)] : [])];
    for (const probe of probes) {
      const answered = await get(probe);
      if (!ok(answered))
        return c.skip(
          `the target refuses ${kind} for ${probe.year}/${probe.month}, before instance ${now.id} existed or before the previous month (HTTP ${answered.status}; whether such months are answered is not shown)`,
        );
    }
    for (const month of earlier)
      c.expectSuccess(rule, await get(month), `${kind} for ${month.year}/${month.month} (the target answers months before the instance existed)`);
  }

  // A month before the instance existed may be refused (`expectAnswered`): its acceptance is a check of its own, so
  // that the refusals of the same rule stay judged on a target that refuses it.
  for (const kind of ['stats', 'transfer'] as const) {
    describe(`${kind === 'stats' ? 'Statistics' : 'Transfer'} by year and month`, () => {
      const path = (id: number, year: number | string, month: number | string) => usagePath(kind, id, year, month);

      for (const [rule, refused, edge] of [
        [`P2.${kind}.month.min-1`, 0, 1],
        [`P2.${kind}.month.max-12`, 13, 12],
      ] as const) {
        // Statistics: the lowest year accepted is not shown, and "past month" may be read as the previous one only:
        // month 1 or 12 is judged accepted only when it is the current or the previous month.
        const statsEdge = (now: Month) => [now, plusMonths(now, -1)].find((candidate) => candidate.month === edge);
        check(rule, `month ${refused} is rejected${kind === 'stats' ? ` (and month ${edge} accepted when current or previous)` : ''}`, async (c) => {
          const now = await targetMonth(c, kind);
          c.expectRejected(rule, await c.get(path(now.id, now.year - 1, refused)), `${kind} for month ${refused}`);
          const accepted = kind === 'stats' ? statsEdge(now) : undefined;
          if (accepted) await expectAnswered(c, rule, kind, now, [accepted]);
        });
        if (kind === 'transfer')
          check(rule, `month ${edge} of last year is accepted`, async (c) => {
            const now = await targetMonth(c, kind);
            await expectAnswered(c, rule, kind, now, [{ year: now.year - 1, month: edge }]);
          });
      }

      const rule = `P2.${kind}.past-or-current`;
      check(rule, 'the current month is accepted, a future month rejected', async (c) => {
        const now = await targetMonth(c, kind);
        c.expectSuccess(rule, await c.get(path(now.id, now.year, now.month)), `${kind} for the current month ${now.year}/${now.month}`);
        // Two months ahead: simulated time may cross a month boundary while the check runs.
        const future = plusMonths(now, 2);
        c.expectRejected(rule, await c.get(path(now.id, future.year, future.month)), `${kind} for the future month ${future.year}/${future.month}`);
        c.expectRejected(rule, await c.get(path(now.id, now.year + 1, now.month)), `${kind} for the same month next year`);
        // The next month too (a month counted from 0 somewhere), unless the target's month ends within the hour.
        const next = plusMonths(now, 1);
        if (now.at !== undefined && Date.UTC(next.year, next.month - 1) - now.at > 3_600_000)
          c.expectRejected(rule, await c.get(path(now.id, next.year, next.month)), `${kind} for the next month ${next.year}/${next.month}`);
      });
      check(rule, 'the previous month is accepted', async (c) => {
        const now = await targetMonth(c, kind);
        await expectAnswered(c, rule, kind, now, [plusMonths(now, -1)]);
      });
    });
  }

  describe('Transfer year bounds', () => {
    check('P2.transfer.year.min-2000', 'a year before 2000 is rejected', async (c) => {
      const id = await withUsage(c, 'transfer');
      c.expectRejected('P2.transfer.year.min-2000', await c.get(usagePath('transfer', id, 1999, 12)), 'transfer for 1999/12');
      c.expectRejected('P2.transfer.year.min-2000', await c.get(usagePath('transfer', id, 1000, 6)), 'transfer for 1000/6');
    });

    check('P2.transfer.year.min-2000', 'year 2000 is accepted', async (c) => {
      await expectAnswered(c, 'P2.transfer.year.min-2000', 'transfer', await targetMonth(c, 'transfer'), [{ year: 2000, month: 1 }]);
    });

    check('P2.transfer.year.max-2037', 'a year after 2037 is rejected', async (c) => {
      const id = await withUsage(c, 'transfer');
      for (const year of [2038, 9999])
        c.expectRejected('P2.transfer.year.max-2037', await c.get(`${INSTANCES}/${id}/transfer/${year}/1`), `transfer for ${year}/1`);
    });
  });

  describe('Volumes, kernels, path parameters', () => {
    check('P2.volumes.attached', 'the volumes list of an instance holds only volumes attached to it', async (c) => {
      const { id } = await newInstance(c, fx, {});
      const fresh = await readAfterWrite(c, () => c.get(`${INSTANCES}/${id}/volumes`), ok);
      c.expectSuccess('P2.volumes.attached', fresh, 'the volumes list of a new instance');
      const data = bodyOf(fresh).data;
      c.expect(
        'P2.volumes.attached',
        Array.isArray(data) && data.length === 0,
        `a new instance (no volume attached) lists ${Array.isArray(data) ? data.length : 'no'} volumes`,
        fresh,
      );
      for (const instance of (await listAll(c, INSTANCES)).slice(0, 20)) {
        for (const volume of await listAll(c, `${INSTANCES}/${String(instance.id)}/volumes`)) {
          if (!('compute_id' in volume)) continue;
          c.expect(
            'P2.volumes.attached',
            volume.compute_id === instance.id,
            `the volumes list of instance ${String(instance.id)} holds volume ${String(volume.id)} attached to ${JSON.stringify(volume.compute_id)}`,
          );
        }
      }
    });

    check('P2.kernels.view', 'every kernel listed can be viewed by its id', async (c) => {
      const kernels = await listAll(c, '/v4/compute/kernels');
      if (!kernels.length) return c.skip('the target lists no kernels');
      for (const kernel of kernels.slice(0, 25)) {
        if (typeof kernel.id !== 'string') continue;
        const view = await c.get(c.target.kernelPath(kernel.id));
        c.expectSuccess('P2.kernels.view', view, `viewing kernel ${kernel.id}`);
        const shown = bodyOf(view).id;
        c.expect('P2.kernels.view', shown === undefined || shown === kernel.id, `viewing kernel ${kernel.id} returned kernel ${JSON.stringify(shown)}`, view);
      }
    });

    check('P2.path.integer-ids', 'non-integer path ids are rejected', async (c) => {
      const { id } = await fx.instance(c);
      const paths = [
        `${INSTANCES}/abc`,
        `${INSTANCES}/1.5`,
        `${INSTANCES}/${id}/backups/abc`,
        `${INSTANCES}/${id}/configs/abc`,
        `${INSTANCES}/${id}/configs/1.5`,
        `${INSTANCES}/${id}/stats/abcd/1`,
        `${INSTANCES}/${id}/stats/2020/ab`,
        `${INSTANCES}/${id}/transfer/20x0/1`,
        `${INSTANCES}/${id}/transfer/2020/1.5`,
      ];
      for (const path of paths) c.expectRejected('P2.path.integer-ids', await c.get(path), `GET ${path}`);
    });
  });

  describe('Events of instance operations', () => {
    const EVENTS = '/v4/account/events';
    /** Whether an event's entity (or secondary entity) is the one of id `id`. */
    const names = (entity: unknown, id: number) => typeof entity === 'object' && entity !== null && String((entity as Json).id) === String(id);

    /**
     * The recent events naming the instance as entity or secondary entity: the first and the last five pages (the
     * order of the events list is not shown: newest first or last), at a page size the list takes (`readPage`).
     */
    async function eventsNaming(c: Check, id: number): Promise<Json[]> {
      const found: Json[] = [];
      const first = bodyOf(await readPage(c, EVENTS, 1));
      const pages = typeof first.pages === 'number' ? first.pages : 1;
      const ends = new Set([...Array.from({ length: 5 }, (_, i) => i + 1), ...Array.from({ length: 5 }, (_, i) => pages - i)]);
      for (const page of [...ends].filter((page) => page >= 1 && page <= pages)) {
        const body = page === 1 ? first : bodyOf(await readPage(c, EVENTS, page));
        if (Array.isArray(body.data)) found.push(...(body.data as Json[]).filter((event) => names(event.entity, id) || names(event.secondary_entity, id)));
      }
      return found;
    }

    // Which operations emit which actions is not shown beyond the firewall ones: an inferred rule (a warning at most).
    check('P1.events.emission.instances', 'creating and deleting an instance are recorded as events naming the instance', async (c) => {
      const rule = 'P1.events.emission.instances';
      const { id } = await newInstance(c, fx, {});
      c.expect(
        rule,
        (
          await readAfterWrite(
            c,
            () => eventsNaming(c, id),
            (events) => events.length > 0,
          )
        ).length > 0,
        `creating instance ${id} recorded no event naming it (entity.id ${id})`,
      );
      // Told by event ids, not by a count: other files' events may meanwhile push the create's past the pages read. Read
      // once the window has passed: an event of the create shown later would pass for the delete's (under
      // events-seen-marks-shown, its audit record did).
      await waitOutWindow(c);
      const before = new Set((await eventsNaming(c, id)).map((event) => String(event.id)));
      const isNew = (events: Json[]) => events.some((event) => !before.has(String(event.id)));
      c.expectSuccess(rule, await deleteInstance(c, id), 'deleting the instance');
      c.expect(rule, isNew(await readAfterWrite(c, () => eventsNaming(c, id), isNew)), `deleting instance ${id} recorded no new event naming it`);
    });

    // The events list and view responses are judged against the documented event shape by the named checks (the
    // operations themselves are judged by their own checks).
    check(rulesOfSchema('resources/event'), 'the events recorded by instance operations have the documented shape', async (c) => {
      const source = await newInstance(c, fx, { image: true });
      await c.post(`${INSTANCES}/${source.id}/shutdown`);
      await c.post(`${INSTANCES}/${source.id}/boot`);
      const clone = await cloneToNew(c, fx, source.id);
      // When an event first shows is not shown (a service may record them a while after the action): the events are
      // read until the last operation's shows, the clone's naming the new instance too ("present for events that
      // involve a second entity"), or, its id unknown, any; within the consistency window, then judged as they are.
      const cloneId = clone.id;
      const cloneShown = (events: Json[]) =>
        cloneId === undefined ? events.length > 0 : events.some((event) => names(event.entity, cloneId) || names(event.secondary_entity, cloneId));
      const events = await readAfterWrite(c, () => eventsNaming(c, source.id), cloneShown);
      if (!events.length) c.skip(`the operations on instance ${source.id} recorded no event naming it (judged by P1.events.emission.instances)`);
      for (const event of events.slice(0, 5)) if (typeof event.id === 'number') await c.get(`/v4/account/events/${event.id}`);
    });
  });
}
