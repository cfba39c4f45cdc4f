// The emulator's variations of managed databases (document 1) each do what they say.
import request from 'supertest';
import { expect } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  describeVariations,
  got,
  newCluster,
  postAccepted,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

/** A sender of MySQL cluster creates (label, allow_list) to `server`. */
const clusterWithAllowList = (server: Server) => (label: string, allow_list: string[]) =>
  request(server)
    .post('/v4/databases/mysql/instances')
    .set(AUTH)
    .send({ label, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2', allow_list });

/** A new cluster, active, with a snapshot: its path, the snapshot's id and a reader of its status. */
async function activeWithSnapshot(server: Server, label: string): Promise<{ path: string; backupId: unknown; status: () => Promise<unknown> }> {
  const created = await newCluster(server, label);
  const path = `/v4/databases/mysql/instances/${String(created.id)}`;
  await advanceClock(server, 31 * 60);
  await postAccepted(server, `${path}/backups`, { label: `${label}-snap` });
  const backups = (await request(server).get(`${path}/backups`).set(AUTH).expect(200)).body as { data: Json[] };
  const backupId = backups.data.find((backup) => backup.label === `${label}-snap`)!.id;
  return { path, backupId, status: async () => ((await request(server).get(path).set(AUTH).expect(200)).body as Json).status };
}

const cases: VariationCase[] = [
  [
    'lenient-arrays',
    async (server) => {
      const create = (allow_list: unknown) =>
        request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label: `lenient-${typeof allow_list}`, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2', allow_list });
      expect((await create('10.0.0.0/8').expect(200)).body.allow_list).toEqual(['10.0.0.0/8']);
      expect((await create({ item: '10.0.0.0/8' }).expect(400)).body.errors[0]).toMatchObject({ field: 'allow_list' });
    },
  ],
  [
    'cluster-label-charset',
    async (server) => {
      const create = clusterWithAllowList(server);
      expect((await create('7up-cluster', []).expect(400)).body.errors[0]).toMatchObject({ field: 'label' });
      await create('up7-cluster_a', []).expect(200);
    },
  ],
  [
    'ca-certificate-pem',
    async (server) => {
      const created = await newCluster(server, 'pem-certificate');
      await advanceClock(server, 31 * 60);
      const ssl = (
        await request(server)
          .get(`/v4/databases/mysql/instances/${String(created.id)}/ssl`)
          .set(AUTH)
          .expect(200)
      ).body as Json;
      expect(ssl.ca_certificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
    },
  ],
  [
    'engine-ids-encoded-only',
    async (server) => {
      expect((await request(server).get('/v4/databases/engines/mysql%2F8.0.30').expect(200)).body).toMatchObject({ id: 'mysql/8.0.30' });
      const raw = await request(server).get('/v4/databases/engines/mysql/8.0.30').expect(404);
      expect((raw.body as { errors: Json[] }).errors[0]!.reason).toMatch(/not found/i);
    },
  ],
  [
    'maintenance-window-other-units',
    async (server) => {
      const created = await newCluster(server, 'minutes-window');
      expect(created.updates).toMatchObject({ duration: 180, day_of_week: 0 });
      await advanceClock(server, 31 * 60);
      const update = (updates: Json) =>
        request(server)
          .put(`/v4/databases/mysql/instances/${String(created.id)}`)
          .set(AUTH)
          .send({ updates });
      await update({ duration: 60, day_of_week: 6 }).expect(200);
      expect(((await update({ duration: 3, hour_of_day: 'noon' }).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({
        field: 'updates.duration',
      });
    },
  ],
  [
    'weekly-window-keeps-week',
    async (server) => {
      const created = await newCluster(server, 'weekly-window');
      await advanceClock(server, 31 * 60);
      const update = async (updates: Json) =>
        (
          (
            await request(server)
              .put(`/v4/databases/mysql/instances/${String(created.id)}`)
              .set(AUTH)
              .send({ updates })
              .expect(200)
          ).body as Json
        ).updates;
      expect(await update({ frequency: 'weekly', week_of_month: 3 })).toMatchObject({ frequency: 'weekly', week_of_month: 1 });
      expect(await update({ frequency: 'monthly', week_of_month: 3 })).toMatchObject({ frequency: 'monthly', week_of_month: 3 });
    },
  ],
  [
    'hosts-null-while-provisioning',
    async (server) => {
      const cluster = await newCluster(server, 'hosts-later');
      expect(cluster.hosts).toBeNull();
    },
  ],
  [
    'allow-list-ipv4-only',
    async (server) => {
      const create = clusterWithAllowList(server);
      expect(((await create('v6-list', ['2001:db8::1']).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'allow_list.0' });
      await create('v4-list', ['192.0.2.1']).expect(200);
    },
  ],
  [
    'allow-list-unicast-only',
    async (server) => {
      const create = clusterWithAllowList(server);
      for (const [n, entry] of ['127.0.0.1', '240.1.2.3', '192.0.2.7', '10.0.0.0/7'].entries())
        expect(((await create(`bad-${n}`, [entry]).expect(400)).body as { errors: Json[] }).errors[0], entry).toMatchObject({
          field: 'allow_list.0',
        });
      await create('fine-list', ['10.20.30.7', '45.33.0.0/16']).expect(200);
    },
  ],
  [
    'database-topology-tied',
    async (server) => {
      const create = (label: string, topology: Json) =>
        request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2', ...topology });
      expect((await create('tied-defaults', {}).expect(200)).body).toMatchObject({ cluster_size: 3, replication_type: 'semi_synch' });
      await create('tied-single', { cluster_size: 1, replication_type: 'none' }).expect(200);
      for (const [label, alone] of [
        ['tied-one-node', { cluster_size: 1 }],
        ['tied-no-replica', { replication_type: 'none' }],
      ] as const)
        expect((await create(label, alone).expect(400)).body.errors[0]).toMatchObject({ field: 'replication_type' });
    },
  ],
  [
    'allow-list-rewritten',
    async (server) => {
      const created = await request(server)
        .post('/v4/databases/mysql/instances')
        .set(AUTH)
        .send({
          label: 'rewritten-db',
          engine: 'mysql/8.0.30',
          region: 'us-east',
          type: 'g6-dedicated-2',
          allow_list: ['2600:3c00:0:0:0:0:0:0/32', '2600:3c00::/32', '203.0.113.5', '0:0:0:0:0:0:0:1'],
        })
        .expect(200);
      expect(created.body.allow_list).toEqual(['2600:3c00::/32', '203.0.113.5/32', '::1/128']);
    },
  ],
  [
    'allow-list-updating',
    async (server) => {
      const created = await newCluster(server, 'updating-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await advanceClock(server, 31 * 60);
      expect(
        (
          await request(server)
            .put(path)
            .set(AUTH)
            .send({ allow_list: ['192.0.2.1'] })
            .expect(200)
        ).body,
      ).toMatchObject({ status: 'updating' });
      await request(server).put(path).set(AUTH).send({ label: 'updating-db-2' }).expect(400);
      await advanceClock(server, 60);
      expect((await request(server).get(path).set(AUTH).expect(200)).body).toMatchObject({ status: 'active' });
    },
  ],
  [
    'database-update-updating',
    async (server) => {
      const created = await newCluster(server, 'any-update-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await advanceClock(server, 31 * 60);
      expect((await request(server).put(path).set(AUTH).send({ label: 'any-update-db-2' }).expect(200)).body).toMatchObject({ status: 'updating' });
      await request(server).put(path).set(AUTH).send({ label: 'any-update-db-3' }).expect(400);
      await advanceClock(server, 60);
      expect((await request(server).get(path).set(AUTH).expect(200)).body).toMatchObject({ status: 'active' });
    },
  ],
  [
    'credentials-reset-updating',
    async (server) => {
      const { path, backupId, status } = await activeWithSnapshot(server, 'reset-updating');
      await postAccepted(server, `${path}/credentials/reset`, {});
      expect(await status()).toBe('updating');
      await request(server)
        .post(`${path}/backups/${String(backupId)}/restore`)
        .set(AUTH)
        .expect(400);
      await advanceClock(server, 30);
      expect(await status()).toBe('active');
    },
  ],
  [
    'allow-list-changes-spaced',
    async (server) => {
      const created = await newCluster(server, 'spaced-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      const put = (body: Json) => request(server).put(path).set(AUTH).send(body);
      await advanceClock(server, 31 * 60);
      expect((await put({ allow_list: ['192.0.2.1'] }).expect(200)).body).toMatchObject({ status: 'active', allow_list: ['192.0.2.1/32'] });
      expect((await put({ allow_list: ['192.0.2.2'] }).expect(409)).body).toEqual({ errors: [{ reason: expect.any(String), field: null }] });
      await put({ label: 'spaced-db-2' }).expect(200);
      await advanceClock(server, 59);
      await put({ allow_list: ['192.0.2.2'] }).expect(409);
      await advanceClock(server, 1);
      await put({ allow_list: ['192.0.2.2'] }).expect(200);
      await put({ allow_list: [] }).expect(409);
    },
  ],
  [
    'database-snapshot-one-at-a-time',
    async (server) => {
      const created = await newCluster(server, 'one-snapshot');
      const snapshots = `/v4/databases/mysql/instances/${String(created.id)}/backups`;
      await advanceClock(server, 31 * 60);
      await postAccepted(server, snapshots, { label: 'first-snap' });
      await request(server).post(snapshots).set(AUTH).send({ label: 'second-snap' }).expect(400);
      await advanceClock(server, 5 * 60);
      await postAccepted(server, snapshots, { label: 'second-snap' });
    },
  ],
  [
    'database-restore-queued',
    async (server) => {
      const { path, backupId, status } = await activeWithSnapshot(server, 'queued-restore');
      await advanceClock(server, 10 * 60);
      await request(server)
        .post(`${path}/backups/${String(backupId)}/restore`)
        .set(AUTH)
        .expect(200);
      expect(await status()).toBe('active');
      await advanceClock(server, 2 * 60);
      expect(await status()).toBe('restoring');
    },
  ],
  [
    'patch-takes-hours',
    async (server) => {
      const { path, status } = await activeWithSnapshot(server, 'long-patch');
      await postAccepted(server, `${path}/patch`, {});
      await advanceClock(server, 119 * 60);
      expect(await status()).toBe('updating');
      await advanceClock(server, 60);
      expect(await status()).toBe('active');
    },
  ],
  [
    'database-restore-takes-an-hour',
    async (server) => {
      const { path, backupId, status } = await activeWithSnapshot(server, 'long-restore');
      await postAccepted(server, `${path}/credentials/reset`, {});
      await postAccepted(server, `${path}/backups/${String(backupId)}/restore`, {});
      await advanceClock(server, 59 * 60);
      expect(await status()).toBe('restoring');
      await advanceClock(server, 60);
      expect(await status()).toBe('failed');
    },
  ],
  [
    'failed-cluster-repaired',
    async (server) => {
      const { path, backupId, status } = await activeWithSnapshot(server, 'repaired-db');
      await postAccepted(server, `${path}/credentials/reset`, {});
      await postAccepted(server, `${path}/backups/${String(backupId)}/restore`, {});
      expect(await status()).toBe('failed');
      await advanceClock(server, 29 * 60);
      expect(await status()).toBe('failed');
      await advanceClock(server, 60);
      expect(await status()).toBe('active');
    },
  ],
  [
    'credentials-reset-busy',
    async (server) => {
      const created = await newCluster(server, 'resetting-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      const clock = (seconds: number) => advanceClock(server, seconds);
      await clock(31 * 60);
      await request(server).post(`${path}/credentials/reset`).set(AUTH).send({}).expect(200);
      await request(server).get(`${path}/credentials`).set(AUTH).expect(409);
      await clock(31);
      await request(server).get(`${path}/credentials`).set(AUTH).expect(200);
    },
  ],
  [
    'credentials-reset-spaced',
    async (server) => {
      const created = await newCluster(server, 'spaced-reset-db');
      const reset = `/v4/databases/mysql/instances/${String(created.id)}/credentials/reset`;
      await advanceClock(server, 31 * 60);
      await request(server).post(reset).set(AUTH).send({}).expect(200);
      expect((await request(server).post(reset).set(AUTH).send({}).expect(409)).body).toEqual({ errors: [{ reason: expect.any(String), field: null }] });
      await advanceClock(server, 29);
      await request(server).post(reset).set(AUTH).send({}).expect(409);
      await advanceClock(server, 1);
      await request(server).post(reset).set(AUTH).send({}).expect(200);
    },
  ],
  [
    'database-snapshots-take-minutes',
    async (server) => {
      const created = await newCluster(server, 'snapshot-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      const clock = (seconds: number) => advanceClock(server, seconds);
      await clock(30 * 60);
      await request(server).post(`${path}/backups`).set(AUTH).send({ label: 'taking' }).expect(200);
      const listed = (await request(server).get(`${path}/backups`).set(AUTH).expect(200)).body as { data: Json[] };
      const taken = listed.data.find((backup) => backup.label === 'taking')!;
      const restore = () =>
        request(server)
          .post(`${path}/backups/${String(taken.id)}/restore`)
          .set(AUTH)
          .send({});
      expect(((await restore().expect(400)).body as { errors: Json[] }).errors[0]!.reason).toMatch(/still being taken/);
      await clock(5 * 60);
      await restore().expect(200);
    },
  ],
  [
    'database-snapshots-listed-when-taken',
    async (server) => {
      const created = await newCluster(server, 'listed-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await advanceClock(server, 30 * 60);
      await postAccepted(server, `${path}/backups`, { label: 'taking' });
      const listed = async () => ((await request(server).get(`${path}/backups`).set(AUTH).expect(200)).body as { data: Json[] }).data;
      expect((await listed()).some((backup) => backup.label === 'taking')).toBe(false);
      await advanceClock(server, 5 * 60);
      const taken = (await listed()).find((backup) => backup.label === 'taking')!;
      await request(server)
        .get(`${path}/backups/${String(taken.id)}`)
        .set(AUTH)
        .expect(200);
    },
  ],
  [
    'allow-list-applied-later',
    async (server) => {
      const created = await newCluster(server, 'later-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      const clock = (seconds: number) => advanceClock(server, seconds);
      const shown = async () => ((await request(server).get(path).set(AUTH).expect(200)).body as Json).allow_list;
      await clock(30 * 60);
      await request(server)
        .put(path)
        .set(AUTH)
        .send({ allow_list: ['192.0.2.7'] })
        .expect(200);
      expect(await shown()).toEqual([]);
      await clock(60);
      expect(await shown()).toEqual(['192.0.2.7/32']);
    },
  ],
  [
    'auto-backups-stamped-late',
    async (server) => {
      const clusters = (await request(server).get('/v4/databases/mysql/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const id = String(clusters.data[0]!.id);
      const listed = (await request(server).get(`/v4/databases/mysql/instances/${id}/backups`).set(AUTH).expect(200)).body as { data: Json[] };
      const autos = listed.data.filter((backup) => backup.type === 'auto').map((backup) => String(backup.created));
      expect(autos.length).toBeGreaterThan(0);
      for (const created of autos) expect(created.slice(11, 19)).toBe('00:05:00');
    },
  ],
  [
    'auto-backups-swept-later',
    async (server) => {
      const clusters = (await request(server).get('/v4/databases/mysql/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const path = `/v4/databases/mysql/instances/${String(clusters.data[0]!.id)}/backups`;
      const autos = async () =>
        ((await request(server).get(path).set(AUTH).expect(200)).body as { data: Json[] }).data.filter((backup) => backup.type === 'auto').length;
      const before = await autos();
      const now = new Date(String((await advanceClock(server, 0)).body.now));
      const toMidnight = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
      await advanceClock(server, toMidnight + 60);
      expect(await autos()).toBe(before + 1);
      await advanceClock(server, 6 * 3600);
      expect(await autos()).toBe(before);
    },
  ],
  [
    'auto-backups-swept-at-next-run',
    async (server) => {
      const clusters = (await request(server).get('/v4/databases/mysql/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const path = `/v4/databases/mysql/instances/${String(clusters.data[0]!.id)}/backups`;
      const autos = async () =>
        ((await request(server).get(path).set(AUTH).expect(200)).body as { data: Json[] }).data
          .filter((backup) => backup.type === 'auto')
          .map((backup) => String(backup.created))
          .sort();
      const seeded = await autos();
      // Eight: the one of 00:05 seven days before today's was 6 days 23 hours 55 minutes old at today's run.
      expect(seeded).toHaveLength(8);
      for (const created of seeded) expect(created.slice(11, 19)).toBe('00:05:00');
      expect(Date.parse(seeded.at(-1)!) - Date.parse(seeded[0]!)).toBe(7 * 86_400_000);
      const now = new Date(String((await advanceClock(server, 0)).body.now));
      const toMidnight = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
      // The next run removes the oldest (now 8 days less 5 minutes old) before taking its own: still eight, a day on.
      await advanceClock(server, toMidnight + 60);
      const next = await autos();
      expect(next).toHaveLength(8);
      expect(next).not.toContain(seeded[0]);
      expect(next).toContain(seeded[1]);
    },
  ],
  [
    'single-node-types',
    async (server) => {
      const nanode = (await request(server).get('/v4/databases/types/g6-nanode-1').expect(200)).body as { engines: { mysql: Json[] } };
      expect(nanode.engines.mysql.map((price) => price.quantity)).toEqual([1]);
      const create = (cluster_size: number) =>
        request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label: `nanode-${cluster_size}`, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-nanode-1', cluster_size });
      expect(((await create(3).expect(400)).body as { errors: Json[] }).errors[0]!.field).toBe('cluster_size');
      await create(1).expect(200);
    },
  ],
  [
    'cluster-delete-shows-a-while',
    async (server) => {
      const { path, backupId } = await activeWithSnapshot(server, 'slow-cluster-delete');
      const id = Number(path.split('/').pop());
      const listed = async (list: string) => ((await request(server).get(list).set(AUTH).expect(200)).body as { data: Json[] }).data.map((item) => item.id);
      await request(server).delete(path).set(AUTH).expect(200);
      expect(((await request(server).get(path).set(AUTH).expect(200)).body as Json).status).toBe('active');
      expect(await listed('/v4/databases/mysql/instances')).toContain(id);
      expect(await listed('/v4/databases/instances')).toContain(id);
      await request(server).delete(path).set(AUTH).expect(200);
      await advanceClock(server, 5);
      await request(server).get(path).set(AUTH).expect(404);
      await request(server)
        .get(`${path}/backups/${String(backupId)}`)
        .set(AUTH)
        .expect(404);
      expect(await listed('/v4/databases/mysql/instances')).not.toContain(id);
      expect(await listed('/v4/databases/instances')).not.toContain(id);
    },
  ],
  [
    'window-extra-member-strict',
    async (server) => {
      const created = await newCluster(server, 'strict-window');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      expect(created.updates).toMatchObject({ pending: [] });
      await advanceClock(server, 31 * 60);
      const update = (updates: Json) => request(server).put(path).set(AUTH).send({ updates });
      const shown = created.updates as Json;
      expect(((await update(shown).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'updates.pending' });
      const { pending: _pending, ...documented } = shown;
      expect(((await update({ ...documented, hour_of_day: 5 }).expect(200)).body as Json).updates).toMatchObject({ hour_of_day: 5, pending: [] });
    },
  ],
  [
    'snapshot-keeps-cluster-busy',
    async (server) => {
      const { path } = await activeWithSnapshot(server, 'busy-snapshot');
      for (const action of ['credentials/reset', 'patch']) {
        const refused = await request(server).post(`${path}/${action}`).set(AUTH).send({}).expect(409);
        expect((refused.body as { errors: Json[] }).errors[0]).toMatchObject({ field: null });
      }
      expect(((await request(server).get(path).set(AUTH).expect(200)).body as Json).status).toBe('active');
      await advanceClock(server, 5 * 60);
      await postAccepted(server, `${path}/credentials/reset`, {});
      await postAccepted(server, `${path}/patch`, {});
    },
  ],
  [
    'allow-list-applied-when-provisioned',
    async (server) => {
      const created = await postAccepted(server, '/v4/databases/mysql/instances', {
        label: 'provisioned-db',
        engine: 'mysql/8.0.30',
        region: 'us-east',
        type: 'g6-dedicated-2',
        allow_list: ['192.0.2.7'],
      });
      const view = () => got(server, `/v4/databases/mysql/instances/${String(created.id)}`);
      await advanceClock(server, 10 * 60);
      expect(await view()).toMatchObject({ status: 'provisioning', allow_list: [] });
      await advanceClock(server, 30 * 60);
      expect(await view()).toMatchObject({ status: 'active', allow_list: ['192.0.2.7/32'] });
    },
  ],
  [
    'secondary-snapshot-needs-replicas',
    async (server) => {
      const snapshotOf = async (label: string, shape: Json) => {
        const created = await postAccepted(server, '/v4/databases/mysql/instances', {
          label,
          engine: 'mysql/8.0.30',
          region: 'us-east',
          type: 'g6-dedicated-2',
          ...shape,
        });
        await advanceClock(server, 31 * 60);
        return (body: Json) =>
          request(server)
            .post(`/v4/databases/mysql/instances/${String(created.id)}/backups`)
            .set(AUTH)
            .send(body);
      };
      const single = await snapshotOf('single-node', { cluster_size: 1 });
      expect(((await single({ label: 'to-secondary', target: 'secondary' }).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({
        field: 'target',
      });
      await single({ label: 'to-primary', target: 'primary' }).expect(200);
      const three = await snapshotOf('three-nodes', { cluster_size: 3 });
      await three({ label: 'to-secondary', target: 'secondary' }).expect(200);
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // A deleted cluster's id, and its snapshot's, are given again; the new cluster shows none of the old one's backups.
      const first = await activeWithSnapshot(server, 'first-holder');
      await deleteAccepted(server, first.path);
      const second = await activeWithSnapshot(server, 'second-holder');
      expect(second.path).toBe(first.path);
      expect(((await got(server, `${second.path}/backups`)).data as Json[]).map((backup) => backup.label)).not.toContain('first-holder-snap');
      // (a nightly run the clock passed meanwhile may have taken the id first, and freed a lower one)
      expect(second.backupId as number).toBeLessThanOrEqual(first.backupId as number);
    },
  ],
  [
    'other-engines-own-projection',
    async (server) => {
      const listed = (await got(server, '/v4/databases/instances')).data as Json[];
      const other = listed.find((cluster) => cluster.engine === 'postgresql')!;
      expect(other).toMatchObject({ instance_uri: `/v4/databases/postgresql/clusters/${String(other.id)}`, port: 5432, replication_type: 'synch' });
      expect(other.updates).toMatchObject({ week_of_month: null });
      // MySQL clusters keep the generic projection: their view path, no MySQL-only members.
      const mysql = listed.find((cluster) => cluster.engine === 'mysql')!;
      expect(mysql.instance_uri).toBe(`/v4/databases/mysql/instances/${String(mysql.id)}`);
      expect(mysql).not.toHaveProperty('replication_type');
    },
  ],
];

describeVariations('emulator variations of managed databases', cases);
