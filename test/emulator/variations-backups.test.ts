// The emulator's variations of an instance's backups and of its update body (document 2) each do what they say.
import request from 'supertest';
import { expect, it } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  describeVariations,
  got,
  newInstance,
  postAccepted,
  serverWith,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

/** A sender of updates of the instance `id` to `server`. */
const updateOf = (server: Server, id: unknown) => (body: Json) =>
  request(server)
    .put(`/v4/compute/instances/${String(id)}`)
    .set(AUTH)
    .send(body);

/** A variation refusing to enable a cancelled backup service again for `hours` of simulated time. */
const reenabledAfter = (hours: number) => async (server: Server) => {
  const instance = await newInstance(server, 'backups-cooldown');
  const backups = (action: string) =>
    request(server)
      .post(`/v4/compute/instances/${String(instance.id)}/backups/${action}`)
      .set(AUTH)
      .send({});
  await backups('enable').expect(200);
  await backups('cancel').expect(200);
  await backups('enable').expect(400);
  await advanceClock(server, hours * 3600 - 1);
  await backups('enable').expect(400);
  await advanceClock(server, 1);
  await backups('enable').expect(200);
};

const cases: VariationCase[] = [
  [
    'schedule-whole',
    async (server) => {
      const instance = await newInstance(server, 'whole-schedule');
      const update = (backups: Json) => updateOf(server, instance.id)({ backups });
      expect((await update({ schedule: { day: 'Monday' } }).expect(400)).body.errors[0]).toMatchObject({ field: 'backups.schedule.window' });
      expect((await update({}).expect(400)).body.errors[0]).toMatchObject({ field: 'backups.schedule' });
      await update({ schedule: { day: 'Monday', window: 'W4' } }).expect(200);
    },
  ],
  [
    'alerts-whole',
    async (server) => {
      const instance = await newInstance(server, 'whole-alerts');
      const update = (alerts: Json) => updateOf(server, instance.id)({ alerts });
      expect((await update({ cpu: 0 }).expect(400)).body.errors[0]).toMatchObject({ field: 'alerts.io' });
      await update({ cpu: 0, io: 0, network_in: 0, network_out: 0, transfer_quota: 0 }).expect(200);
    },
  ],
  [
    'alerts-extra-member-strict',
    async (server) => {
      const { id } = await newInstance(server, 'alerts-strict');
      const alerts = (await got(server, `/v4/compute/instances/${String(id)}`)).alerts as Json;
      expect(Object.keys(alerts)).toEqual(['cpu', 'io', 'network_in', 'network_out', 'transfer_quota', 'cpu_window']);
      const update = (body: Json) => updateOf(server, id)({ alerts: body });
      expect((await update({ ...alerts, cpu: 0 }).expect(400)).body.errors[0]).toMatchObject({ field: 'alerts.cpu_window' });
      await update({ cpu: 0, io: 0 }).expect(200);
    },
  ],
  ['backups-reenabled-after-a-day', reenabledAfter(24)],
  ['backups-reenabled-after-a-week', reenabledAfter(7 * 24)],
  [
    'backup-deletions-run-a-while',
    async (server) => {
      const instance = await newInstance(server, 'slow-backup-deletes');
      const path = `/v4/compute/instances/${String(instance.id)}/backups`;
      await advanceClock(server, 10 * 60);
      const first = await postAccepted(server, path, { label: 'first-snap' });
      await postAccepted(server, path, { label: 'second-snap' });
      await request(server)
        .get(`${path}/${String(first.id)}`)
        .set(AUTH)
        .expect(200);
      await advanceClock(server, 60);
      await request(server)
        .get(`${path}/${String(first.id)}`)
        .set(AUTH)
        .expect(404);
    },
  ],
  [
    'snapshots-take-minutes',
    async (server) => {
      const instances = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const source = instances.data.find((instance) => instance.image)!;
      const snap = (
        await request(server)
          .post(`/v4/compute/instances/${String(source.id)}/backups`)
          .set(AUTH)
          .send({ label: 'slow' })
          .expect(200)
      ).body as Json;
      const view = () =>
        request(server)
          .get(`/v4/compute/instances/${String(source.id)}/backups/${String(snap.id)}`)
          .set(AUTH)
          .expect(200);
      expect((await view()).body).toMatchObject({ status: 'pending', available: false });
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/backups/${String(snap.id)}/restore`)
        .set(AUTH)
        .send({ compute_id: source.id, overwrite: true })
        .expect(400);
      await advanceClock(server, 300);
      expect((await view()).body).toMatchObject({ status: 'successful', available: true });
    },
  ],
  [
    'snapshot-needs-backups',
    async (server) => {
      const instance = await newInstance(server, 'not-enrolled');
      const path = `/v4/compute/instances/${String(instance.id)}/backups`;
      await request(server).post(path).set(AUTH).send({ label: 'refused' }).expect(400);
      await request(server).post(`${path}/enable`).set(AUTH).send({}).expect(200);
      await request(server).post(path).set(AUTH).send({ label: 'taken' }).expect(200);
    },
  ],
  [
    'schedule-chosen-days-only',
    async (server) => {
      const instance = await newInstance(server, 'schedule-chosen');
      const update = (schedule: Json) => updateOf(server, instance.id)({ backups: { schedule } });
      expect(((await update({ day: 'Scheduling' }).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'backups.schedule.day' });
      await update({ day: 'Monday', window: 'W10' }).expect(200);
    },
  ],
  [
    'schedule-needs-backups',
    async (server) => {
      const path = `/v4/compute/instances/${String((await newInstance(server, 'not-enrolled-2')).id)}`;
      const schedule = () =>
        request(server)
          .put(path)
          .set(AUTH)
          .send({ backups: { schedule: { day: 'Monday', window: 'W2' } } });
      expect(((await schedule().expect(400)).body as { errors: Json[] }).errors[0]!.field).toBe('backups.schedule');
      await request(server).put(path).set(AUTH).send({ watchdog_enabled: false }).expect(200);
      await request(server).post(`${path}/backups/enable`).set(AUTH).send({}).expect(200);
      await schedule().expect(200);
    },
  ],
  [
    'restore-needs-offline',
    async (server) => {
      const create = async (label: string) => await newInstance(server, label);
      const [source, target] = [await create('restore-source'), await create('restore-target')];
      const backups = `/v4/compute/instances/${String(source.id)}/backups`;
      await request(server).post(`${backups}/enable`).set(AUTH).send({}).expect(200);
      await request(server).post(backups).set(AUTH).send({ label: 'to-restore' }).expect(200);
      const listed = (await request(server).get(backups).set(AUTH).expect(200)).body as { snapshot: { current: Json } };
      const snapshot = listed.snapshot.current;
      const restore = () =>
        request(server)
          .post(`${backups}/${String(snapshot.id)}/restore`)
          .set(AUTH)
          .send({ compute_id: target.id, overwrite: true });
      expect(((await restore().expect(400)).body as { errors: Json[] }).errors[0]!.field).toBe('compute_id');
      await request(server)
        .post(`/v4/compute/instances/${String(target.id)}/shutdown`)
        .set(AUTH)
        .send({})
        .expect(200);
      await restore().expect(200);
    },
  ],
  [
    'instance-delete-releases-later',
    async (server) => {
      const instance = await newInstance(server, 'releases-later');
      const path = `/v4/compute/instances/${String(instance.id)}`;
      const snapshot = await postAccepted(server, `${path}/backups`, { label: 'outlives-its-instance' });
      const addresses = instance.ipv4 as string[];
      const held = async () => ((await got(server, '/v4/networking/ips')).data as Json[]).filter((ip) => addresses.includes(ip.address as string));
      const fromBackup = (label: string) =>
        request(server).post('/v4/compute/instances').set(AUTH).send({ label, region: 'us-east', type: 'g6-standard-1', backup_id: snapshot.id });
      expect(addresses.length).toBeGreaterThan(0);
      await request(server).delete(path).set(AUTH).expect(200);
      await request(server).get(path).set(AUTH).expect(404);
      expect(await held()).toHaveLength(addresses.length);
      await fromBackup('from-a-deleting-backup').expect(200);
      await advanceClock(server, 60);
      expect(await held()).toEqual([]);
      expect(((await fromBackup('from-a-deleted-backup').expect(400)).body as { errors: Json[] }).errors[0]!.field).toBe('backup_id');
    },
  ],
  [
    'instance-snapshots-listed-when-taken',
    async (server) => {
      const instance = await newInstance(server, 'hidden-snapshot');
      const path = `/v4/compute/instances/${String(instance.id)}/backups`;
      const snap = await postAccepted(server, path, { label: 'hidden' });
      expect(snap).toMatchObject({ label: 'hidden', status: 'pending' });
      const listed = async () => JSON.stringify(await got(server, path)).includes('"hidden"');
      const view = () =>
        request(server)
          .get(`${path}/${String(snap.id)}`)
          .set(AUTH);
      expect(await listed()).toBe(false);
      await view().expect(404);
      await request(server)
        .post(`${path}/${String(snap.id)}/restore`)
        .set(AUTH)
        .send({ compute_id: instance.id, overwrite: true })
        .expect(404);
      await advanceClock(server, 299);
      await view().expect(404);
      await advanceClock(server, 1);
      expect(await listed()).toBe(true);
      expect((await view().expect(200)).body).toMatchObject({ status: 'successful' });
    },
  ],
  [
    'enrolment-shown-later',
    async (server) => {
      const dayOf = async (id: unknown) => (((await got(server, `/v4/compute/instances/${String(id)}`)).backups as Json).schedule as Json).day;
      const created = await postAccepted(server, '/v4/compute/instances', {
        label: 'enrols-later',
        region: 'us-east',
        type: 'g6-standard-1',
        backups_enabled: true,
      });
      const clone = await postAccepted(server, `/v4/compute/instances/${String(created.id)}/clone`, {
        label: 'clone-enrols-later',
        region: 'us-east',
        type: 'g6-standard-1',
        backups_enabled: true,
      });
      expect(await dayOf(created.id)).toBeNull();
      expect(await dayOf(clone.id)).toBeNull();
      await advanceClock(server, 299);
      expect(await dayOf(created.id)).toBeNull();
      await advanceClock(server, 1);
      expect(await dayOf(created.id)).toBe('Scheduling');
      // The clone's own five minutes: it was asked for later, at the same simulated instant.
      expect(await dayOf(clone.id)).toBe('Scheduling');
      // A service cancelled meanwhile stays cancelled.
      const other = await postAccepted(server, '/v4/compute/instances', {
        label: 'cancelled-first',
        region: 'us-east',
        type: 'g6-standard-1',
        backups_enabled: true,
      });
      await request(server)
        .post(`/v4/compute/instances/${String(other.id)}/backups/cancel`)
        .set(AUTH)
        .send({});
      await advanceClock(server, 300);
      expect(await dayOf(other.id)).toBeNull();
    },
  ],
  [
    'enable-runs-a-while',
    async (server) => {
      const dayOf = async (id: unknown) => ((await got(server, `/v4/compute/instances/${String(id)}`)).backups as { schedule: Json }).schedule.day;
      const enable = (id: unknown) => postAccepted(server, `/v4/compute/instances/${String(id)}/backups/enable`, {});
      const instance = await newInstance(server, 'enable-later');
      await enable(instance.id);
      expect(await dayOf(instance.id)).toBeNull();
      await advanceClock(server, 59);
      expect(await dayOf(instance.id)).toBeNull();
      await advanceClock(server, 1);
      expect(await dayOf(instance.id)).toBe('Scheduling');
      // A service cancelled meanwhile stays cancelled.
      const other = await newInstance(server, 'enable-cancelled');
      await enable(other.id);
      await postAccepted(server, `/v4/compute/instances/${String(other.id)}/backups/cancel`, {});
      await advanceClock(server, 60);
      expect(await dayOf(other.id)).toBeNull();
    },
  ],
  [
    'backups-account-wide',
    async (server) => {
      const dayOf = async (id: unknown) => ((await got(server, `/v4/compute/instances/${String(id)}`)).backups as { schedule: Json }).schedule.day;
      const path = (id: unknown, action: string) => `/v4/compute/instances/${String(id)}/backups/${action}`;
      const instance = await newInstance(server, 'enrolled-account-wide');
      const clone = await postAccepted(server, `/v4/compute/instances/${String(instance.id)}/clone`, {
        label: 'clone-account-wide',
        region: 'us-east',
        type: 'g6-standard-1',
      });
      expect(await dayOf(instance.id)).toBe('Scheduling');
      expect(await dayOf(clone.id)).toBe('Scheduling');
      await request(server).post(path(instance.id, 'enable')).set(AUTH).send({}).expect(400);
      await postAccepted(server, path(instance.id, 'cancel'), {});
      expect(await dayOf(instance.id)).toBeNull();
      await postAccepted(server, path(instance.id, 'enable'), {});
      expect(await dayOf(instance.id)).toBe('Scheduling');
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // A deleted backup's id is given again; a backup of a deleted instance is none of the instance given its id.
      const first = await newInstance(server, 'backups-first');
      const path = `/v4/compute/instances/${String(first.id)}`;
      const snapshot = await postAccepted(server, `${path}/backups`, { label: 'first-snapshot' });
      await postAccepted(server, `${path}/backups/cancel`, {});
      expect((await postAccepted(server, `${path}/backups`, { label: 'again' })).id).toBe(snapshot.id);
      await deleteAccepted(server, path);
      expect((await newInstance(server, 'backups-second')).id).toBe(first.id);
      await request(server)
        .get(`${path}/backups/${String(snapshot.id)}`)
        .set(AUTH)
        .expect(404);
      expect(await got(server, `${path}/backups`)).toMatchObject({ automatic: [], snapshot: { current: null } });
      expect((await postAccepted(server, `${path}/backups`, { label: 'second-snapshot' })).id).toBe(snapshot.id);
    },
  ],
];

describeVariations('emulator variations of instance backups', cases);

it('ids-reused with instance-delete-releases-later: the id is given again once the backups and addresses are released', async () => {
  const server = await serverWith(['ids-reused', 'instance-delete-releases-later']);
  const first = await newInstance(server, 'releasing');
  const path = `/v4/compute/instances/${String(first.id)}`;
  const snapshot = await postAccepted(server, `${path}/backups`, { label: 'releasing-snapshot' });
  await deleteAccepted(server, path);
  expect((await newInstance(server, 'during-release')).id).not.toBe(first.id);
  await advanceClock(server, 60);
  const after = await newInstance(server, 'after-release');
  expect(after.id).toBe(first.id);
  await request(server)
    .get(`${path}/backups/${String(snapshot.id)}`)
    .set(AUTH)
    .expect(404);
  const listed = ((await got(server, '/v4/networking/ips')).data as Json[]).filter((ip) => ip.compute_id === first.id && ip.type === 'ipv4');
  expect(listed.map((ip) => ip.address)).toEqual(after.ipv4);
});
