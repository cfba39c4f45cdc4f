// The emulator's variations of instance clones and the copies of backups, restores and clones (when they run, what they answer) each do what they say (see variations.test.ts).
import request from 'supertest';
import { expect } from 'vitest';
import { advanceClock, AUTH, got, postAccepted, describeVariations, newInstance, type Json, type VariationCase } from './variation-server.js';

const cases: VariationCase[] = [
  [
    'clones-instant',
    async (server) => {
      const source = await newInstance(server, 'instant-source');
      const clone = (body: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(source.id)}/clone`)
          .set(AUTH)
          .send(body);
      const made: Json[] = [];
      for (let n = 0; n < 6; n++) made.push((await clone({ region: 'us-east', type: 'g6-standard-1', label: `instant-${n}` }).expect(200)).body as Json);
      await clone({ compute_id: made[0]!.id, configs: [] }).expect(200);
    },
  ],
  [
    'clone-replaces-target-layout',
    async (server) => {
      const source = await newInstance(server, 'replacing-source');
      const target = await newInstance(server, 'replaced-target');
      const labels = async (id: unknown) => ((await got(server, `/v4/compute/instances/${String(id)}/configs`)).data as Json[]).map((profile) => profile.label);
      await postAccepted(server, `/v4/compute/instances/${String(target.id)}/configs`, { label: 'target-only', devices: {} });
      // The target's disks fill its allocation: the clone fits only because it replaces them.
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { compute_id: target.id });
      expect(await labels(target.id)).toEqual(await labels(source.id));
    },
  ],
  [
    'cloned-profiles-relabelled',
    async (server) => {
      const source = await newInstance(server, 'relabelling-source');
      const labels = async (id: unknown) => ((await got(server, `/v4/compute/instances/${String(id)}/configs`)).data as Json[]).map((profile) => profile.label);
      const [sourceLabel] = await labels(source.id);
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { region: 'us-east', type: 'g6-standard-1', label: 'relabelled-clone' });
      const clone = ((await got(server, '/v4/compute/instances')).data as Json[]).find((instance) => instance.label === 'relabelled-clone')!;
      expect(await labels(clone.id)).toEqual([`${String(sourceLabel).slice(0, 42)} clone`]);
    },
  ],
  [
    'clone-answers-its-job',
    async (server) => {
      const source = await newInstance(server, 'job-source');
      const answer = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, {
        region: 'us-east',
        type: 'g6-standard-1',
        label: 'job-clone',
      });
      expect(answer).toMatchObject({ action: 'clone', status: 'queued' });
      expect(answer.label).toBeUndefined();
      const listed = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      expect(listed.data.some((instance) => instance.label === 'job-clone')).toBe(true);
    },
  ],
  [
    'clone-instance-made-on-completion',
    async (server) => {
      const source = await newInstance(server, 'later-source', 'g6-standard-1', { tags: ['later-tag'] });
      await advanceClock(server, 5 * 60);
      const body = { region: 'us-east', type: 'g6-standard-1', label: 'later-clone' };
      const answer = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, body);
      expect(answer).toMatchObject({ action: 'clone', status: 'queued' });
      expect(answer.label).toBeUndefined();
      const clone = async () => ((await got(server, '/v4/compute/instances')).data as Json[]).find((instance) => instance.label === 'later-clone');
      expect(await clone()).toBeUndefined();
      // The source is busy with its clone meanwhile.
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/resize`)
        .set(AUTH)
        .send({ type: 'g6-standard-2' })
        .expect(400);
      await advanceClock(server, 9 * 60);
      expect(await clone()).toBeUndefined();
      await advanceClock(server, 60);
      const made = (await clone())!;
      expect(made).toMatchObject({ status: 'offline', tags: ['later-tag'] });
      expect(made.id).not.toBe(answer.id);
      expect(((await got(server, `/v4/compute/instances/${String(made.id)}/configs`)).data as Json[]).length).toBe(1);
    },
  ],
  [
    'clone-onto-busy-queued',
    async (server) => {
      const source = await newInstance(server, 'queued-source', 'g6-standard-1', { tags: ['queued-tag'] });
      const busy = await newInstance(server, 'queued-target');
      await postAccepted(server, `/v4/compute/instances/${String(busy.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { compute_id: busy.id, configs: [] });
      const tags = async () =>
        (
          (
            await request(server)
              .get(`/v4/compute/instances/${String(busy.id)}`)
              .set(AUTH)
              .expect(200)
          ).body as Json
        ).tags;
      expect(await tags()).not.toContain('queued-tag');
      await advanceClock(server, 10 * 60);
      await advanceClock(server, 2 * 60);
      expect(await tags()).toContain('queued-tag');
    },
  ],
  [
    'queued-clone-tags-at-once',
    async (server) => {
      const source = await newInstance(server, 'at-once-source', 'g6-standard-1', { tags: ['at-once-tag'] });
      const profile = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/configs`, { label: 'at-once-profile', devices: {} });
      const busy = await newInstance(server, 'at-once-target');
      await postAccepted(server, `/v4/compute/instances/${String(busy.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { compute_id: busy.id, configs: [profile.id] });
      const profiles = async () => ((await got(server, `/v4/compute/instances/${String(busy.id)}/configs`)).data as Json[]).map((item) => item.label);
      // The tags at once; the profile once the target's own clone has completed.
      expect((await got(server, `/v4/compute/instances/${String(busy.id)}`)).tags).toContain('at-once-tag');
      expect(await profiles()).not.toContain('at-once-profile');
      await advanceClock(server, 10 * 60);
      await advanceClock(server, 2 * 60);
      expect(await profiles()).toContain('at-once-profile');
    },
  ],
  [
    'vlan-clone-fails-later',
    async (server) => {
      const source = await newInstance(server, 'vlan-source', 'g6-standard-1', {
        interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'later-vlan' }],
      });
      await advanceClock(server, 5 * 60);
      const clone = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, {
        region: 'us-west',
        type: 'g6-standard-1',
        label: 'vlan-clone',
      });
      await advanceClock(server, 60 * 60);
      expect(JSON.stringify(await got(server, `/v4/compute/instances/${String(clone.id)}/configs`))).not.toContain('later-vlan');
      const events = (await got(server, '/v4/account/events')).data as Json[];
      expect(events.some((event) => event.action === 'compute_clone' && event.status === 'failed')).toBe(true);
    },
  ],
  [
    'copies-made-on-completion',
    async (server) => {
      const profileCount = async (id: unknown) =>
        (
          (
            await request(server)
              .get(`/v4/compute/instances/${String(id)}/configs`)
              .set(AUTH)
              .expect(200)
          ).body as { data: Json[] }
        ).data.length;
      const source = await newInstance(server, 'copy-source');
      const clone = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      expect(await profileCount(clone.id)).toBe(0);
      await advanceClock(server, 10 * 60);
      expect(await profileCount(clone.id)).toBe(1);
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/backups`)
        .set(AUTH)
        .send({ label: 'copy-snap' })
        .expect(200);
      await advanceClock(server, 60 * 60);
      const backups = (
        await request(server)
          .get(`/v4/compute/instances/${String(source.id)}/backups`)
          .set(AUTH)
          .expect(200)
      ).body as { snapshot: Json };
      const snapshot = (backups.snapshot.current ?? backups.snapshot.in_progress) as Json;
      const deployed = await postAccepted(server, '/v4/compute/instances', {
        label: 'copy-deployed',
        region: 'us-east',
        type: 'g6-standard-1',
        backup_id: snapshot.id,
      });
      expect(await profileCount(deployed.id)).toBe(0);
      await advanceClock(server, 5 * 60);
      expect(await profileCount(deployed.id)).toBe(1);
    },
  ],
  [
    'clones-take-longer',
    async (server) => {
      const source = await newInstance(server, 'slow-clone');
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/clone`)
        .set(AUTH)
        .send({ region: 'us-east', type: 'g6-standard-1' })
        .expect(200);
      const shutdown = () =>
        request(server)
          .post(`/v4/compute/instances/${String(source.id)}/shutdown`)
          .set(AUTH)
          .send({});
      await advanceClock(server, 11 * 60);
      await shutdown().expect(400);
      await advanceClock(server, 35 * 60);
      await shutdown().expect(200);
    },
  ],
  [
    'empty-clones-instant',
    async (server) => {
      const empty = await postAccepted(server, '/v4/compute/instances', { label: 'clone-of-nothing', region: 'us-east', type: 'g6-standard-1' });
      for (let n = 1; n <= 6; n++)
        await postAccepted(server, `/v4/compute/instances/${String(empty.id)}/clone`, { label: `nothing-${n}`, region: 'us-east', type: 'g6-standard-1' });
      const deployed = await newInstance(server, 'clone-of-disks');
      const clone = (n: number) =>
        request(server)
          .post(`/v4/compute/instances/${String(deployed.id)}/clone`)
          .set(AUTH)
          .send({ label: `disks-${n}`, region: 'us-east', type: 'g6-standard-1' });
      for (let n = 1; n <= 5; n++) await clone(n).expect(200);
      await clone(6).expect(400);
    },
  ],
  [
    'clone-source-free',
    async (server) => {
      const source = await newInstance(server, 'free-source');
      const target = await postAccepted(server, '/v4/compute/instances', { label: 'busy-target', region: 'us-east', type: 'g6-standard-1' });
      const act = (id: unknown, action: string, body: Json = {}) =>
        request(server)
          .post(`/v4/compute/instances/${String(id)}/${action}`)
          .set(AUTH)
          .send(body);
      await act(source.id, 'clone', { compute_id: target.id }).expect(200);
      // The source of the running clone takes a resize; its target is busy until the clone completes.
      await act(source.id, 'resize', { type: 'g6-standard-2' }).expect(200);
      await act(target.id, 'resize', { type: 'g6-standard-2' }).expect(400);
      await advanceClock(server, 10 * 60);
      await act(target.id, 'resize', { type: 'g6-standard-2' }).expect(200);
    },
  ],
];

describeVariations('emulator variations: clones and copies', cases);
