// What the emulator's variation self-tests share: a fresh server per case, carrying the variations asked for.
import type { FastifyInstance } from 'fastify';
import request from 'supertest';
import { afterEach, describe, it } from 'vitest';
import { buildServer, DEFAULT_TOKEN } from '../../emulator/server.js';

export const AUTH = { Authorization: `Bearer ${DEFAULT_TOKEN}` };
export type Json = Record<string, unknown>;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

export async function serverWith(variations: string[], faults: string[] = []) {
  app = await buildServer({ variations, faults });
  // Listening from the start (supertest-helpers.ts says why).
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
}

export type Server = Awaited<ReturnType<typeof serverWith>>;

/** POSTs `body` to `path`, expecting it accepted; the body of the answer. */
export async function postAccepted(server: Server, path: string, body: Json): Promise<Json> {
  return (await request(server).post(path).set(AUTH).send(body).expect(200)).body as Json;
}

/** DELETEs `path`, expecting it accepted. */
export const deleteAccepted = (server: Server, path: string) => request(server).delete(path).set(AUTH).expect(200);

/** The Authorization header of a new token minted through the control hooks with `body` (scopes, restricted, grants, …). */
export async function mintedAuth(server: Server, body: Json): Promise<{ Authorization: string }> {
  const minted = await request(server).post('/__control/tokens').send(body).expect(200);
  return { Authorization: `Bearer ${String((minted.body as Json).token)}` };
}

/** A new instance deployed from the public image, of `type`, with a strong root password. */
export const newInstance = (server: Server, label: string, type = 'g6-standard-1', extra: Json = {}) =>
  postAccepted(server, '/v4/compute/instances', {
    label,
    region: 'us-east',
    type,
    image: 'compute/debian12',
    root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6',
    ...extra,
  });

/** A new MySQL cluster (provisioning). */
export const newCluster = (server: Server, label: string) =>
  postAccepted(server, '/v4/databases/mysql/instances', { label, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2' });

/** A new master domain named `name`. */
export const newDomain = (server: Server, name: string) =>
  postAccepted(server, '/v4/domains', { domain: name, type: 'master', soa_email: 'hostmaster@example.com' });

/** A sender of record creates to a new master domain named `name`. */
export async function recordsOf(server: Server, name: string): Promise<(body: Json) => request.Test> {
  const domain = await newDomain(server, name);
  return (body) =>
    request(server)
      .post(`/v4/domains/${String(domain.id)}/records`)
      .set(AUTH)
      .send(body);
}

/** The body of a GET the server answers 200. */
/** The error an instance create with the weak root password "password" is refused with (a 400). */
export const weakPasswordError = async (server: Server): Promise<Json> =>
  (
    (
      await request(server)
        .post('/v4/compute/instances')
        .set(AUTH)
        .send({ label: 'weak-pass', region: 'us-east', type: 'g6-standard-1', image: 'compute/debian12', root_pass: 'password' })
        .expect(400)
    ).body as { errors: Json[] }
  ).errors[0]!;

export const got = async (server: Server, path: string): Promise<Json> => (await request(server).get(path).set(AUTH).expect(200)).body as Json;

/** The disk in slot sda of the instance's first configuration profile. */
export const sdaDiskOf = async (server: Server, instanceId: unknown): Promise<unknown> =>
  ((((await got(server, `/v4/compute/instances/${String(instanceId)}/configs`)).data as Json[])[0]!.devices as Json).sda as Json).disk_id;

/** Lets `seconds` of simulated time pass. */
export const advanceClock = (server: Server, seconds: number) =>
  request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: seconds }).expect(200);

/**
 * What `observe` saw in its first run that ended within `lagMs` of its start (at most ten runs, each after `prepare`):
 * what it read then it read within a lag of that length, while a run a loaded machine made longer proves nothing
 * either way.
 */
export async function seenWithinLag<T>(lagMs: number, observe: (attempt: number) => Promise<T>, prepare?: () => Promise<unknown>): Promise<T> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    await prepare?.();
    const started = performance.now();
    const seen = await observe(attempt);
    if (performance.now() - started < lagMs) return seen;
  }
  throw new Error(`no run of the observation ended within ${lagMs} ms in ten: the machine is too loaded to observe the lag`);
}

/** Waits until a lag of `lagMs` has passed. */
export const afterLag = (lagMs: number) => new Promise((resolve) => setTimeout(resolve, lagMs + 50));

export type VariationCase = [string, (server: Awaited<ReturnType<typeof serverWith>>) => Promise<void>];

/** One test per case: the server carries that variation alone. */
export function describeVariations(title: string, cases: VariationCase[]): void {
  describe(title, () => {
    it.each(cases)('%s', async (id, scenario) => {
      await scenario(await serverWith([id]));
    });
  });
}
