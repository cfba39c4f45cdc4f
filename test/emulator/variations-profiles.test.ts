// The emulator's variation of profile writes refused while the instance is busy does what it says, alone and with the
// variations that make an instance busy a while (the other compute variations: variations-compute.test.ts).
import request from 'supertest';
import { expect, it } from 'vitest';
import {
  advanceClock,
  AUTH,
  postAccepted,
  describeVariations,
  newInstance,
  serverWith,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

const cases: VariationCase[] = [
  [
    'profile-writes-refused-while-busy',
    async (server) => {
      const source = await newInstance(server, 'profile-busy');
      const writes = profileWrites(
        server,
        source.id,
        (await postAccepted(server, `/v4/compute/instances/${String(source.id)}/configs`, { label: 'kept', devices: {} })).id,
      );
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      for (const write of writes) await busyRefusal(write());
      // A body at fault is still refused for its member.
      expect((await profileWrites(server, source.id, 0)[0]!({}).expect(400)).body.errors[0]).toMatchObject({ field: 'label' });
      await advanceClock(server, 10 * 60);
      for (const write of writes) await write().expect(200);
    },
  ],
];

/** Create, update and delete of a profile of instance `id` (the one numbered `configId` for the last two). */
function profileWrites(server: Server, id: unknown, configId: unknown): ((body?: Json) => request.Test)[] {
  const path = `/v4/compute/instances/${String(id)}/configs`;
  return [
    (body = { label: 'while-busy', devices: {} }) => request(server).post(path).set(AUTH).send(body),
    (body = { comments: 'while busy' }) =>
      request(server)
        .put(`${path}/${String(configId)}`)
        .set(AUTH)
        .send(body),
    () =>
      request(server)
        .delete(`${path}/${String(configId)}`)
        .set(AUTH),
  ];
}

/** A refusal for a busy instance: a 400 naming no field. */
async function busyRefusal(test: request.Test): Promise<void> {
  const error = ((await test.expect(400)).body as { errors: Json[] }).errors[0]!;
  expect(error.field ?? undefined).toBeUndefined();
  expect(error.reason).toMatch(/running or queued actions/);
}

describeVariations('emulator variations: profile writes of a busy instance', cases);

it('profile-writes-refused-while-busy with create-runs-a-while and shutdown-takes-a-minute: refused while either runs', async () => {
  const server = await serverWith(['profile-writes-refused-while-busy', 'create-runs-a-while', 'shutdown-takes-a-minute']);
  const instance = await newInstance(server, 'profile-creating');
  const path = `/v4/compute/instances/${String(instance.id)}`;
  const [create] = profileWrites(server, instance.id, 0);
  await busyRefusal(create!());
  await advanceClock(server, 2 * 60);
  const writes = profileWrites(server, instance.id, (await create!().expect(200)).body.id);
  await request(server).post(`${path}/shutdown`).set(AUTH).send({}).expect(200);
  for (const write of writes) await busyRefusal(write());
  await advanceClock(server, 60);
  for (const write of writes) await write().expect(200);
});
