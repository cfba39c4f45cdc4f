// The checks that come last in specs/part1/databases.spec.ts, declared there by `lateChecks` (a module of that spec
// file, not a spec file: its checks share the file's fixtures and their plan keys name it): the automatic backups
// (they move the clock past midnight), restricted users (a wrongly accepted request may change the cluster) and the
// failed status (the file's active cluster is failed once every other check is done with it).
import { describe } from 'vitest';
import { check, describe as describeExchange, type Check } from '../../harness/check.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { timeOf } from '../../harness/lists.js';
import { DAY_MS, DB, GENERIC, MINUTE, autos, backupsOf, type clusterHelpers, ok, statusOf, type Json } from './databases-support.js';

export function lateChecks(fx: Fixtures, helpers: ReturnType<typeof clusterHelpers>): void {
  const { mysqlEngines, nodeType, activeCluster, failedCluster, failed, clusterSnapshot, pastMidnight } = helpers;

  // ------------------------------------------------------------------ automatic backups (clock)

  describe('Managed database automatic backups', () => {
    check(['P1.database.backups.daily', 'P1.database-backup.auto.midnight-utc'], 'an active cluster gets an automatic backup at 00:00 UTC', async (c) => {
      const { id, midnight } = await pastMidnight(c);
      let times = autos(await backupsOf(c, id));
      if (!times.length) {
        // None at 00:00: the rest of that day tells a backup made at another hour from none at all.
        await c.advanceClock(DAY_MS / 1000 - 2 * MINUTE);
        times = autos(await backupsOf(c, id));
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
        times.includes(midnight),
        `no auto backup created at ${new Date(midnight).toISOString()} (auto backups: ${times.map((t) => new Date(t).toISOString()).join(', ')})`,
      );
      for (const t of times)
        c.expect(
          'P1.database-backup.auto.midnight-utc',
          t % DAY_MS < MINUTE * 1000,
          `an auto backup was created at ${new Date(t).toISOString()}, not at 00:00 UTC`,
        );
    });

    check(
      ['P1.database-backup.auto.midnight-utc', 'P1.database-backup.auto.retained-7-days'],
      'auto backups are whole days apart and each is kept 7 days',
      async (c) => {
        await pastMidnight(c);
        let judged = 0;
        const list = await c.get(DB);
        for (const cluster of ((list.body as { data?: Json[] } | undefined)?.data ?? []).filter(
          (item) => typeof item.id === 'number' && item.status !== 'provisioning',
        )) {
          const times = autos(await backupsOf(c, cluster.id as number));
          if (times.length < 2) continue;
          judged++;
          for (let i = 1; i < times.length; i++) {
            const gap = times[i]! - times[i - 1]!;
            c.expect(
              'P1.database-backup.auto.midnight-utc',
              gap > 0 && gap % DAY_MS === 0,
              `auto backups of cluster ${String(cluster.id)} at ${new Date(times[i - 1]!).toISOString()} and ${new Date(times[i]!).toISOString()} are not a whole number of 24-hour periods apart`,
            );
          }
          const newest = times.at(-1)!;
          const oldest = times[0]!;
          c.expect(
            'P1.database-backup.auto.retained-7-days',
            newest - oldest < 7 * DAY_MS,
            `cluster ${String(cluster.id)} still lists an auto backup of ${new Date(oldest).toISOString()}, 7 days or more before its newest (${new Date(newest).toISOString()})`,
          );
          const created = timeOf(cluster.created);
          if (created !== undefined && created <= newest - 7 * DAY_MS) {
            c.expect(
              'P1.database-backup.auto.retained-7-days',
              oldest <= newest - 6 * DAY_MS,
              `cluster ${String(cluster.id)} (created ${String(cluster.created)}) keeps auto backups only back to ${new Date(oldest).toISOString()}, less than 7 days`,
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
        const token = await c.principal({ scopes: ['databases:read_only', 'databases:read_write'], restricted: true });
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
          [`PUT ${DB}/{id}`, () => c.put(`${DB}/${id}`, {}, { token })],
          [`POST ${DB}/{id}/credentials/reset`, () => c.post(`${DB}/${id}/credentials/reset`, undefined, { token })],
          [`POST ${DB}/{id}/patch`, () => c.post(`${DB}/${id}/patch`, undefined, { token })],
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

    const refusedWhenFailed: Array<[string, string, (c: Check, id: number, backupId: number) => Promise<Exchange>]> = [
      ['P1.database.status.update-requires-active', 'PUT (label)', (c, id) => c.put(`${DB}/${id}`, { label: fx.label('db', 32) })],
      [
        'P1.database.status.snapshot-create-requires-active',
        'POST backups (snapshot)',
        (c, id) => c.post(`${DB}/${id}/backups`, { label: fx.label('snap', 64) }),
      ],
      ['P1.database.status.restore-requires-active', 'POST restore', (c, id, backupId) => c.post(`${DB}/${id}/backups/${backupId}/restore`)],
      ['P1.database.status.credentials-view-requires-active', 'GET credentials', (c, id) => c.get(`${DB}/${id}/credentials`)],
      ['P1.database.status.credentials-reset-requires-active', 'POST credentials/reset', (c, id) => c.post(`${DB}/${id}/credentials/reset`)],
      ['P1.database.status.patch-requires-active', 'POST patch', (c, id) => c.post(`${DB}/${id}/patch`)],
      ['P1.database.status.ssl-view-requires-active', 'GET ssl', (c, id) => c.get(`${DB}/${id}/ssl`)],
    ];
    for (const [rule, what, op] of refusedWhenFailed) {
      check(rule, `${what} is refused on a failed cluster`, async (c) => {
        const { id, backupId } = await failed(c);
        c.expectRejected(rule, await op(c, id, backupId), `${what} on a failed cluster`);
        c.expect(rule, (await statusOf(c, id)) === 'failed', 'the failed cluster changed status after a refused request');
      });
    }

    check(
      ['P1.database.status.backups-list-not-provisioning', 'P1.database.status.backup-view-not-provisioning'],
      'the backups of a failed cluster are listed and viewed',
      async (c) => {
        const { id, backupId } = await failed(c);
        c.expectSuccess('P1.database.status.backups-list-not-provisioning', await c.get(`${DB}/${id}/backups`), 'GET backups of a failed cluster');
        c.expectSuccess('P1.database.status.backup-view-not-provisioning', await c.get(`${DB}/${id}/backups/${backupId}`), 'GET backup of a failed cluster');
      },
    );

    check(['P1.database.status.delete-requires-active-failed-degraded', 'P1.database.delete.removes'], 'a failed cluster can be deleted', async (c) => {
      const { id } = await failed(c);
      c.expectSuccess('P1.database.status.delete-requires-active-failed-degraded', await c.delete(`${DB}/${id}`), 'DELETE of a failed cluster');
      c.expect('P1.database.delete.removes', await fx.gone(c, DB, (item) => item.id === id), 'the deleted cluster is still in the MySQL list');
    });
  });
}
