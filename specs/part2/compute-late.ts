// The checks that come last in specs/part2/compute.spec.ts, declared there by `lateChecks` (a module of that spec
// file, not a spec file: its checks share the file's fixtures and their plan keys name it): an instance's statistics
// and transfer by month, the year bounds, volumes, kernels, path ids, and the events of instance operations.
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { onceNotBusy, readAfterWrite } from '../../harness/consistency.js';
import { rulesOfSchema } from '../../harness/contract.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { bodyOf, cloneToNew, INSTANCES, listAll, newInstance, ok, type Json } from './compute-support.js';

export function lateChecks(fx: Fixtures): void {
  /**
   * The file's instance and the target's current month, from the `created` date-time of the event a new firewall
   * records (simulated time may run ahead of the instance; a firewall costs nothing, an instance would).
   */
  async function targetMonth(c: Check): Promise<{ id: number; year: number; month: number }> {
    const { id } = await fx.instance(c);
    // An instance with no history yet may have no statistics (not shown either way): once it has, both views are judged.
    await onceNotBusy(c, () => c.get(`${INSTANCES}/${id}/stats`));
    const firewall = await fx.newFirewall(c);
    const event = await fx.find(
      c,
      '/v4/account/events',
      (item) => item.action === 'firewall_create' && String((item.entity as Json | undefined)?.id) === String(firewall.id),
    );
    const created = event?.created;
    const date = typeof created === 'string' ? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(created) ? created : `${created}Z`) : new Date(NaN);
    if (Number.isNaN(date.getTime())) return c.skip("no firewall_create event with a created date-time tells the target's current month");
    return { id, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
  }

  const plusMonths = (year: number, month: number, n: number) => {
    const index = year * 12 + (month - 1) + n;
    return { year: Math.floor(index / 12), month: (index % 12) + 1 };
  };

  for (const kind of ['stats', 'transfer'] as const) {
    describe(`${kind === 'stats' ? 'Statistics' : 'Transfer'} by year and month`, () => {
      const path = (id: number, year: number | string, month: number | string) => `${INSTANCES}/${id}/${kind}/${year}/${month}`;

      // Month 1 and month 12 of a year the view accepts: for transfer any year from 2000 on (last year), for statistics
      // only a month every reading accepts, the current or the previous one ("past month or current month", and the
      // lowest year accepted is not shown); otherwise only the refusal is judged.
      const acceptedMonthOf = (now: { year: number; month: number }, month: number) => {
        if (kind === 'transfer') return { year: now.year - 1, month };
        const previous = plusMonths(now.year, now.month, -1);
        return [now, previous].find((candidate) => candidate.month === month);
      };
      for (const [rule, refused, edge] of [
        [`P2.${kind}.month.min-1`, 0, 1],
        [`P2.${kind}.month.max-12`, 13, 12],
      ] as const)
        check(rule, `month ${refused} is rejected, month ${edge} accepted`, async (c) => {
          const now = await targetMonth(c);
          c.expectRejected(rule, await c.get(path(now.id, now.year - 1, refused)), `${kind} for month ${refused}`);
          const accepted = acceptedMonthOf(now, edge);
          if (accepted) c.expectSuccess(rule, await c.get(path(now.id, accepted.year, accepted.month)), `${kind} for ${accepted.year}/${accepted.month}`);
        });

      check(`P2.${kind}.past-or-current`, 'the current and past months are accepted, a future month rejected', async (c) => {
        const rule = `P2.${kind}.past-or-current`;
        const now = await targetMonth(c);
        c.expectSuccess(rule, await c.get(path(now.id, now.year, now.month)), `${kind} for the current month ${now.year}/${now.month}`);
        const past = plusMonths(now.year, now.month, -1);
        c.expectSuccess(rule, await c.get(path(now.id, past.year, past.month)), `${kind} for the previous month ${past.year}/${past.month}`);
        // Two months ahead: simulated time may cross a month boundary while the check runs.
        const future = plusMonths(now.year, now.month, 2);
        c.expectRejected(rule, await c.get(path(now.id, future.year, future.month)), `${kind} for the future month ${future.year}/${future.month}`);
        c.expectRejected(rule, await c.get(path(now.id, now.year + 1, now.month)), `${kind} for the same month next year`);
      });
    });
  }

  describe('Transfer year bounds', () => {
    check('P2.transfer.year.min-2000', 'year 1999 is rejected, 2000 accepted', async (c) => {
      const { id } = await fx.instance(c);
      c.expectRejected('P2.transfer.year.min-2000', await c.get(`${INSTANCES}/${id}/transfer/1999/12`), 'transfer for 1999/12');
      c.expectRejected('P2.transfer.year.min-2000', await c.get(`${INSTANCES}/${id}/transfer/1000/6`), 'transfer for 1000/6');
      c.expectSuccess('P2.transfer.year.min-2000', await c.get(`${INSTANCES}/${id}/transfer/2000/1`), 'transfer for 2000/1');
    });

    check('P2.transfer.year.max-2037', 'a year after 2037 is rejected', async (c) => {
      const { id } = await fx.instance(c);
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
    /** The newest events naming the instance as entity or secondary entity (newest first; a few pages at most). */
    async function eventsNaming(c: Check, id: number): Promise<Json[]> {
      const names = (entity: unknown) => typeof entity === 'object' && entity !== null && String((entity as Json).id) === String(id);
      const found: Json[] = [];
      for (let page = 1; page <= 5; page++) {
        const body = bodyOf(await c.get('/v4/account/events', { query: { page, page_size: 100 } }));
        if (!Array.isArray(body.data)) break;
        found.push(...(body.data as Json[]).filter((event) => names(event.entity) || names(event.secondary_entity)));
        if (page >= (typeof body.pages === 'number' ? body.pages : 1)) break;
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
      const before = (await eventsNaming(c, id)).length;
      c.expectSuccess(rule, await c.delete(`${INSTANCES}/${id}`), 'deleting the instance');
      c.expect(
        rule,
        (
          await readAfterWrite(
            c,
            () => eventsNaming(c, id),
            (events) => events.length > before,
          )
        ).length > before,
        `deleting instance ${id} recorded no new event naming it`,
      );
    });

    // The events list and view responses are judged against the documented event shape by the named checks (the
    // operations themselves are judged by their own checks).
    check(rulesOfSchema('resources/event'), 'the events recorded by instance operations have the documented shape', async (c) => {
      const source = await newInstance(c, fx, { image: true });
      await c.post(`${INSTANCES}/${source.id}/shutdown`);
      await c.post(`${INSTANCES}/${source.id}/boot`);
      await cloneToNew(c, fx, source.id);
      const events = await eventsNaming(c, source.id);
      if (!events.length) c.skip(`the operations on instance ${source.id} recorded no event naming it (judged by P1.events.emission.instances)`);
      for (const event of events.slice(0, 5)) if (typeof event.id === 'number') await c.get(`/v4/account/events/${event.id}`);
    });
  });
}
