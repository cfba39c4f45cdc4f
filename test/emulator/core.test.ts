// Self-tests of the emulator core: auth and scopes, body handling and error bodies, pagination, control hooks,
// the schedule queue, validation helpers, permissions, events, and "never a 5xx" on garbage bodies.
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { areas } from '../../emulator/areas/index.js';
import { EVENTS_TABLE, emitEvent, type Event } from '../../emulator/core/events.js';
import { paginate } from '../../emulator/core/pagination.js';
import { canAccess, grantOwnership, hasGlobalGrant } from '../../emulator/core/permissions.js';
import { Store } from '../../emulator/core/store.js';
import { ApiError, Reply, type Area, type Principal, type RequestContext } from '../../emulator/core/types.js';
import * as v from '../../emulator/core/validate.js';
import { startEmulator } from '../../emulator/index.js';
import { buildServer, DEFAULT_TOKEN, getStore } from '../../emulator/server.js';

const AUTH = { Authorization: `Bearer ${DEFAULT_TOKEN}` };

/** A tiny area that exercises the core without depending on the API areas. */
const testArea: Area = {
  name: 'coretest',
  seed: (store) => {
    const items = store.table<{ id: number }>('coretest-items');
    for (let i = 0; i < 230; i++) {
      const id = store.nextId('coretest-item');
      items.set(String(id), { id });
    }
  },
  routes: [
    { method: 'GET', path: '/v4/coretest/none', auth: 'none', scopes: [], handler: (c) => ({ principal: c.principal?.username ?? null }) },
    { method: 'GET', path: '/v4/coretest/token', auth: 'token', scopes: ['domains:read_only'], handler: (c) => ({ user: c.principal!.username }) },
    { method: 'POST', path: '/v4/coretest/write', auth: 'token', scopes: ['domains:read_write'], handler: (c) => ({ body: c.body ?? null }) },
    { method: 'POST', path: '/v4/coretest/multi', auth: 'token', scopes: ['images:read_write', 'compute:read_only'], handler: () => ({}) },
    { method: 'GET', path: '/v4/coretest/ips-read', auth: 'token', scopes: ['ips:read'], handler: () => ({}) },
    {
      method: 'GET',
      path: '/v4/coretest/optional',
      auth: 'optional',
      scopes: ['images:read_only'],
      handler: (c) => ({ authenticated: c.principal !== null }),
    },
    { method: 'GET', path: '/v4/coretest/unrestricted', auth: 'token', scopes: ['databases:read_only'], unrestrictedOnly: true, handler: () => ({}) },
    { method: 'GET', path: '/v4/coretest/notshown', auth: 'not-shown', scopes: [], handler: () => ({}) },
    {
      method: 'GET',
      path: '/v4/coretest/items',
      auth: 'token',
      scopes: [],
      handler: (c) => paginate(c, [...c.store.table<{ id: number }>('coretest-items').values()]),
    },
    {
      method: 'POST',
      path: '/v4/coretest/validate',
      auth: 'token',
      scopes: [],
      handler: (c) => {
        const o = v.asObject(c.body ?? {});
        const label = v.reqString(o, 'label', { min: 3, max: 32 });
        const rules = v.optArray(o, 'rules', { max: 2 }) ?? [];
        rules.forEach((r, i) => {
          const rule = v.asObject(r, `rules.${i}`);
          v.reqInt(rule, 'port', { min: 1, max: 65535, path: `rules.${i}` });
        });
        return { label, rules: rules.length };
      },
    },
    { method: 'GET', path: '/v4/coretest/engines/{engineId}', auth: 'none', scopes: [], handler: (c) => ({ engineId: c.params['engineId'] }) },
    { method: 'GET', path: '/v4/coretest/things/{thingId}', auth: 'none', scopes: [], handler: (c) => ({ thingId: c.params['thingId'] }) },
    {
      method: 'PUT',
      path: '/__upload/{id}',
      auth: 'none',
      scopes: [],
      handler: (c) => ({ id: c.params['id'], bytes: Buffer.isBuffer(c.body) ? c.body.length : null }),
    },
    {
      method: 'GET',
      path: '/v4/coretest/crash',
      auth: 'none',
      scopes: [],
      handler: () => {
        throw new Error('boom (expected by the core test)');
      },
    },
    { method: 'GET', path: '/v4/coretest/reply', auth: 'none', scopes: [], handler: () => new Reply(202, { accepted: true }, { 'x-test': 'yes' }) },
    { method: 'DELETE', path: '/v4/coretest/nothing', auth: 'none', scopes: [], handler: () => undefined },
    {
      method: 'GET',
      path: '/v4/coretest/ctx',
      auth: 'none',
      scopes: [],
      handler: (c) => ({ remote: c.remoteAddress, baseUrl: c.baseUrl, query: c.query, route: c.route }),
    },
    {
      method: 'POST',
      path: '/v4/coretest/schedule',
      auth: 'token',
      scopes: [],
      handler: (c) => {
        const o = v.asObject(c.body);
        const seconds = v.reqInt(o, 'seconds', { min: 0 });
        const name = v.reqString(o, 'name');
        c.store.schedule(new Date(c.store.now().getTime() + seconds * 1000), (s) => {
          s.table<string>('coretest-fired').set(name, s.nowIso());
        });
        return {};
      },
    },
    {
      method: 'GET',
      path: '/v4/coretest/fired',
      auth: 'token',
      scopes: [],
      handler: (c) => ({ fired: [...c.store.table<string>('coretest-fired').keys()] }),
    },
  ],
};

let app: FastifyInstance;
let noControl: FastifyInstance;

beforeAll(async () => {
  app = await buildServer({ extraAreas: [testArea] });
  await app.ready();
  noControl = await buildServer({ control: false, extraAreas: [testArea] });
  await noControl.ready();
});

afterAll(async () => {
  await app.close();
  await noControl.close();
});

async function mint(body: Record<string, unknown>): Promise<string> {
  const res = await request(app.server).post('/__control/tokens').send(body);
  expect(res.status).toBe(200);
  expect(typeof res.body.token).toBe('string');
  return res.body.token as string;
}

function expectError(res: request.Response, status: number, field: string | null = null): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.errors.length).toBeGreaterThan(0);
  expect(typeof res.body.errors[0].reason).toBe('string');
  expect(res.body.errors[0].reason.length).toBeGreaterThan(5);
  expect(res.body.errors[0].field).toBe(field);
}

describe('authentication', () => {
  it('auth none answers without a token', async () => {
    const res = await request(app.server).get('/v4/coretest/none');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ principal: null });
  });

  it('a token route rejects a missing token with 401', async () => {
    expectError(await request(app.server).get('/v4/coretest/token'), 401);
  });

  it('rejects an unknown token and a malformed header with 401', async () => {
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', 'Bearer nope'), 401);
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', DEFAULT_TOKEN), 401);
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', 'Basic abc'), 401);
  });

  it('accepts the default token with any scheme capitalisation', async () => {
    const res = await request(app.server).get('/v4/coretest/token').set('Authorization', `bearer ${DEFAULT_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'emulator-user' });
  });

  it('not-shown auth needs a token', async () => {
    expectError(await request(app.server).get('/v4/coretest/notshown'), 401);
    expect((await request(app.server).get('/v4/coretest/notshown').set(AUTH)).status).toBe(200);
  });

  it('optional auth: no token → anonymous; a valid token → authenticated; an unknown token → 401', async () => {
    expect((await request(app.server).get('/v4/coretest/optional')).body).toEqual({ authenticated: false });
    expect((await request(app.server).get('/v4/coretest/optional').set(AUTH)).body).toEqual({ authenticated: true });
    expectError(await request(app.server).get('/v4/coretest/optional').set('Authorization', 'Bearer unknown'), 401);
  });

  it('optional auth with a token still checks its scopes', async () => {
    const t = await mint({ scopes: ['domains:read_only'] });
    expectError(await request(app.server).get('/v4/coretest/optional').set('Authorization', `Bearer ${t}`), 403);
  });
});

describe('scopes', () => {
  it('a missing scope gives 403', async () => {
    const t = await mint({ scopes: ['compute:read_write'] });
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 403);
  });

  it('read_only does not allow a read_write operation', async () => {
    const t = await mint({ scopes: ['domains:read_only'] });
    expect((await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    expectError(await request(app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${t}`).send({}), 403);
  });

  it('read_write covers read_only', async () => {
    const t = await mint({ scopes: ['domains:read_write'] });
    expect((await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    expect((await request(app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${t}`).send({})).status).toBe(200);
  });

  it('an operation naming several scopes needs all of them', async () => {
    const onlyImages = await mint({ scopes: ['images:read_write'] });
    const onlyCompute = await mint({ scopes: ['compute:read_write'] });
    const both = await mint({ scopes: ['images:read_write', 'compute:read_only'] });
    const bothRw = await mint({ scopes: ['images:read_write', 'compute:read_write'] });
    const imagesRo = await mint({ scopes: ['images:read_only', 'compute:read_write'] });
    const post = (t: string) => request(app.server).post('/v4/coretest/multi').set('Authorization', `Bearer ${t}`).send({});
    expectError(await post(onlyImages), 403);
    expectError(await post(onlyCompute), 403);
    expectError(await post(imagesRo), 403);
    expect((await post(both)).status).toBe(200);
    expect((await post(bothRw)).status).toBe(200);
  });

  it('ips:read is satisfied by ips:read_only and ips:read_write, not by another area', async () => {
    const get = (t: string) => request(app.server).get('/v4/coretest/ips-read').set('Authorization', `Bearer ${t}`);
    expect((await get(await mint({ scopes: ['ips:read_only'] }))).status).toBe(200);
    expect((await get(await mint({ scopes: ['ips:read_write'] }))).status).toBe(200);
    expectError(await get(await mint({ scopes: ['compute:read_write'] })), 403);
    expectError(await get(await mint({ scopes: [] })), 403);
  });

  it('unrestricted-only routes refuse a restricted user whatever the scopes', async () => {
    const restricted = await mint({ scopes: '*', restricted: true });
    const unrestricted = await mint({ scopes: ['databases:read_only'] });
    expectError(await request(app.server).get('/v4/coretest/unrestricted').set('Authorization', `Bearer ${restricted}`), 403);
    expect((await request(app.server).get('/v4/coretest/unrestricted').set('Authorization', `Bearer ${unrestricted}`)).status).toBe(200);
  });

  it('a token removed from the registry (deleted OAuth client) is refused', async () => {
    const t = await mint({ scopes: '*', oauth_client_id: 'client-1' });
    expect(getStore(app).tokens.get(t)?.oauthClientId).toBe('client-1');
    expect((await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    getStore(app).tokens.delete(t);
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 401);
  });
});

describe('bodies and error bodies', () => {
  it('accepts JSON with a charset', async () => {
    const res = await request(app.server)
      .post('/v4/coretest/write')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('{"a":[1,2]}');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { a: [1, 2] } });
  });

  it('a missing body reaches the handler as undefined', async () => {
    const res = await request(app.server).post('/v4/coretest/write').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
    const empty = await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send('');
    expect(empty.body).toEqual({ body: null });
  });

  it('malformed JSON → 400 error body', async () => {
    for (const text of ['{', '{"a":}', 'nul', "{'a':1}", '[1,]']) {
      const res = await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(text);
      expectError(res, 400);
      expect(res.body.errors[0].reason).toMatch(/Malformed JSON/);
    }
  });

  it('prototype poisoning keys are refused with 400', async () => {
    const res = await request(app.server)
      .post('/v4/coretest/write')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{"__proto__":{"admin":true}}');
    expectError(res, 400);
  });

  it('a non-JSON content type with a body → 415; also with no content type', async () => {
    expectError(await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'text/plain').send('hello'), 415);
    expectError(
      await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/x-www-form-urlencoded').send('a=1'),
      415,
    );
    expectError(await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/jsonx').send('{}'), 415);
  });

  it('a non-JSON content type with an empty body is accepted as no body', async () => {
    const res = await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'text/plain').send('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
  });

  it('an oversized JSON body → 413 error body', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 10) });
    expectError(await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(big), 413);
  });

  it('a body of almost 1 MB is accepted', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(1024 * 1024 - 100) });
    const res = await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
  });

  it('unknown path and unknown method → 404 error body', async () => {
    expectError(await request(app.server).get('/v4/does-not-exist').set(AUTH), 404);
    expectError(await request(app.server).put('/v4/coretest/none').set(AUTH).send({}), 404);
    expectError(await request(app.server).get('/').set(AUTH), 404);
  });

  it('a handler exception answers 500 with the error body (never a crash)', async () => {
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expectError(await request(app.server).get('/v4/coretest/crash'), 500);
    } finally {
      process.stderr.write = write;
    }
    expect((await request(app.server).get('/v4/coretest/none')).status).toBe(200);
  });

  it('Reply sets status and headers; undefined answers {}', async () => {
    const r = await request(app.server).get('/v4/coretest/reply');
    expect(r.status).toBe(202);
    expect(r.headers['x-test']).toBe('yes');
    expect(r.body).toEqual({ accepted: true });
    const d = await request(app.server).delete('/v4/coretest/nothing');
    expect(d.status).toBe(200);
    expect(d.body).toEqual({});
  });

  it('validation errors carry the dot path of the member', async () => {
    const post = (body: unknown) => request(app.server).post('/v4/coretest/validate').set(AUTH).send(body as object);
    expectError(await post({}), 400, 'label');
    expectError(await post({ label: 'ab' }), 400, 'label');
    expect((await post({ label: 'abc' })).status).toBe(200);
    expect((await post({ label: 'a'.repeat(32) })).status).toBe(200);
    expectError(await post({ label: 'a'.repeat(33) }), 400, 'label');
    expectError(await post({ label: 42 }), 400, 'label');
    expectError(await post({ label: 'abc', rules: [{ port: 1 }, { port: 0 }] }), 400, 'rules.1.port');
    expectError(await post({ label: 'abc', rules: [{ port: 65536 }] }), 400, 'rules.0.port');
    expectError(await post({ label: 'abc', rules: ['x'] }), 400, 'rules.0');
    expectError(await post({ label: 'abc', rules: [{}, {}, {}] }), 400, 'rules');
    expectError(await post([1, 2]), 400, null);
    expect((await post({ label: 'abc', rules: [{ port: 1 }, { port: 65535 }] })).body).toEqual({ label: 'abc', rules: 2 });
  });

  it('the engine id wildcard takes a slash, plain or URL-encoded', async () => {
    expect((await request(app.server).get('/v4/coretest/engines/mysql/8.0.30')).body).toEqual({ engineId: 'mysql/8.0.30' });
    expect((await request(app.server).get('/v4/coretest/engines/mysql%2F8.0.30')).body).toEqual({ engineId: 'mysql/8.0.30' });
  });

  it('path parameters are URL-decoded', async () => {
    expect((await request(app.server).get('/v4/coretest/things/a%20b')).body).toEqual({ thingId: 'a b' });
  });

  it('the context carries the caller address, base URL and query', async () => {
    const res = await request(app.server).get('/v4/coretest/ctx?page=2&page=3&x=y');
    expect(res.body.remote).toBe('127.0.0.1');
    expect(res.body.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(res.body.query).toEqual({ page: '2', x: 'y' });
    expect(res.body.route).toBe('/v4/coretest/ctx');
  });

  it('upload routes take application/octet-stream as a Buffer and refuse JSON', async () => {
    const data = Buffer.from([0x1f, 0x8b, 1, 2, 3]);
    const ok = await request(app.server).put('/__upload/7').set('Content-Type', 'application/octet-stream').send(data);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: '7', bytes: 5 });
    const big = await request(app.server)
      .put('/__upload/7')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(2 * 1024 * 1024, 1));
    expect(big.body).toEqual({ id: '7', bytes: 2 * 1024 * 1024 });
    expectError(await request(app.server).put('/__upload/7').send({ a: 1 }), 415);
    expectError(await request(app.server).put('/__upload/7').set('Content-Type', 'text/plain').send('abc'), 415);
  });

  it('octet-stream on a JSON route → 415', async () => {
    expectError(
      await request(app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/octet-stream').send(Buffer.from('{}')),
      415,
    );
  });
});

describe('pagination', () => {
  const get = (q: string) => request(app.server).get(`/v4/coretest/items${q}`).set(AUTH);

  it('defaults: page 1, page_size 100', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(res.body.page).toBe(1);
    expect(res.body.pages).toBe(3);
    expect(res.body.results).toBe(230);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[0]).toEqual({ id: 1 });
  });

  it('page arithmetic', async () => {
    const last = await get('?page=3');
    expect(last.body.data).toHaveLength(30);
    expect(last.body.data[0]).toEqual({ id: 201 });
    const p25 = await get('?page=10&page_size=25');
    expect(p25.body).toMatchObject({ page: 10, pages: 10, results: 230 });
    expect(p25.body.data).toHaveLength(5);
    const past = await get('?page=11&page_size=25');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], page: 11, pages: 10, results: 230 });
  });

  it('bounds: page >= 1, page_size 25..100', async () => {
    expectError(await get('?page=0'), 400, 'page');
    expectError(await get('?page=-1'), 400, 'page');
    expectError(await get('?page=abc'), 400, 'page');
    expectError(await get('?page=1.5'), 400, 'page');
    expectError(await get('?page='), 400, 'page');
    expectError(await get('?page=99999999999999999999'), 400, 'page');
    expectError(await get('?page_size=24'), 400, 'page_size');
    expectError(await get('?page_size=101'), 400, 'page_size');
    expectError(await get('?page_size=x'), 400, 'page_size');
    expect((await get('?page_size=25')).body.data).toHaveLength(25);
    expect((await get('?page_size=100')).body.data).toHaveLength(100);
    expect((await get('?page=1')).status).toBe(200);
  });

  it('an empty collection has one page', () => {
    const ctx = { query: {} } as unknown as RequestContext;
    expect(paginate(ctx, [])).toEqual({ data: [], page: 1, pages: 1, results: 0 });
    const exact = paginate({ query: { page_size: '25' } } as unknown as RequestContext, Array.from({ length: 50 }, (_, i) => i));
    expect(exact.pages).toBe(2);
  });
});

describe('control hooks', () => {
  it('GET /__control tells the simulated time', async () => {
    const res = await request(app.server).get('/__control');
    expect(res.status).toBe(200);
    expect(res.body.control).toBe(true);
    expect(res.body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('tokens: garbage bodies are refused with 400', async () => {
    const post = (body: unknown) => request(app.server).post('/__control/tokens').send(body as object);
    expectError(await post([]), 400);
    expectError(await post({ scopes: 'all' }), 400, 'scopes');
    expectError(await post({ scopes: ['nope'] }), 400, 'scopes.0');
    expectError(await post({ scopes: ['domains:read_only', 3] }), 400, 'scopes.1');
    expectError(await post({ restricted: 'yes' }), 400, 'restricted');
    expectError(await post({ grants: [] }), 400, 'grants');
    expectError(await post({ grants: { global: 1 } }), 400, 'grants.global');
    expectError(await post({ grants: { global: { add_computes: 5 } } }), 400, 'grants.global.add_computes');
    expectError(await post({ grants: { entities: { planet: {} } } }), 400, 'grants.entities.planet');
    expectError(await post({ grants: { entities: { compute: { 1: 'admin' } } } }), 400, 'grants.entities.compute.1');
    expectError(await post({ username: '' }), 400, 'username');
  });

  it('tokens: a restricted user with grants', async () => {
    const t = await mint({
      scopes: '*',
      restricted: true,
      username: 'restricted-one',
      grants: { global: { add_computes: true }, entities: { compute: { 5: 'read_only' } } },
    });
    const p = getStore(app).tokens.get(t)!;
    expect(p).toMatchObject({ username: 'restricted-one', restricted: true, scopes: '*' });
    expect(canAccess(p, 'compute', 5, 'read_only')).toBe(true);
    expect(canAccess(p, 'compute', 5, 'read_write')).toBe(false);
    expect(hasGlobalGrant(p, 'add_computes')).toBe(true);
    expect(hasGlobalGrant(p, 'monitor_subscription')).toBe(false);
  });

  it('clock: advances the simulated time and runs due tasks', async () => {
    const before = (await request(app.server).get('/__control')).body.now as string;
    const sched = await request(app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 3600, name: 'hour' });
    expect(sched.status).toBe(200);
    await request(app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 7200, name: 'two-hours' });
    expect((await request(app.server).get('/v4/coretest/fired').set(AUTH)).body.fired).not.toContain('hour');
    const adv = await request(app.server).post('/__control/clock').send({ advance_seconds: 3601 });
    expect(adv.status).toBe(200);
    expect(Date.parse(`${adv.body.now}Z`) - Date.parse(`${before}Z`)).toBeGreaterThanOrEqual(3600_000);
    const fired = (await request(app.server).get('/v4/coretest/fired').set(AUTH)).body.fired;
    expect(fired).toContain('hour');
    expect(fired).not.toContain('two-hours');
  });

  it('clock: bad bodies are refused', async () => {
    const post = (body: unknown) => request(app.server).post('/__control/clock').send(body as object);
    expectError(await post({}), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: -1 }), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: '60' }), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: 1e12 }), 400, 'advance_seconds');
    expect((await post({ advance_seconds: 0 })).status).toBe(200);
    expect((await post({ advance_seconds: 0.5 })).status).toBe(200);
  });

  it('reset: back to the seed; minted tokens are forgotten, the default token stays', async () => {
    const t = await mint({ scopes: '*' });
    await request(app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 0, name: 'pre-reset' });
    const storeBefore = getStore(app);
    const res = await request(app.server).post('/__control/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(getStore(app)).not.toBe(storeBefore);
    expectError(await request(app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 401);
    expect((await request(app.server).get('/v4/coretest/token').set(AUTH)).status).toBe(200);
    expect((await request(app.server).get('/v4/coretest/fired').set(AUTH)).body.fired).toEqual([]);
    expect((await request(app.server).get('/v4/coretest/items').set(AUTH)).body.results).toBe(230);
  });

  it('control: false serves no control hooks', async () => {
    expectError(await request(noControl.server).get('/__control'), 404);
    expectError(await request(noControl.server).post('/__control/tokens').send({}), 404);
    expectError(await request(noControl.server).post('/__control/clock').send({ advance_seconds: 1 }), 404);
    expectError(await request(noControl.server).post('/__control/reset'), 404);
    expect((await request(noControl.server).get('/v4/coretest/token').set(AUTH)).status).toBe(200);
  });

  it('a custom default token replaces DEFAULT_TOKEN', async () => {
    const custom = await buildServer({ token: 'my-token', extraAreas: [testArea] });
    await custom.ready();
    try {
      expect((await request(custom.server).get('/v4/coretest/token').set('Authorization', 'Bearer my-token')).status).toBe(200);
      expectError(await request(custom.server).get('/v4/coretest/token').set(AUTH), 401);
    } finally {
      await custom.close();
    }
  });
});

describe('store', () => {
  it('the schedule queue runs tasks in time order, then insertion order, and only when due', () => {
    const store = new Store();
    const ran: number[] = [];
    const t0 = store.now().getTime();
    store.schedule(new Date(t0 + 3000), () => ran.push(3));
    store.schedule(new Date(t0 + 1000), () => ran.push(1));
    store.schedule(new Date(t0 + 2000), () => ran.push(21));
    store.schedule(new Date(t0 + 2000), () => ran.push(22));
    store.schedule(new Date(t0 - 1000), () => ran.push(0));
    store.runDue();
    expect(ran).toEqual([0]);
    store.advance(2.5);
    expect(ran).toEqual([0, 1, 21, 22]);
    store.advance(10);
    expect(ran).toEqual([0, 1, 21, 22, 3]);
    expect(store.pendingTasks).toBe(0);
  });

  it('a task may schedule another; a failing task does not stop the queue', () => {
    const store = new Store();
    const ran: string[] = [];
    const t0 = store.now().getTime();
    store.schedule(new Date(t0 + 1000), (s) => {
      ran.push('a');
      s.schedule(new Date(t0 + 1500), () => ran.push('b'));
      s.schedule(new Date(t0 + 5000), () => ran.push('late'));
    });
    store.schedule(new Date(t0 + 1200), () => {
      throw new Error('task failure (expected by the test)');
    });
    store.schedule(new Date(t0 + 1300), () => ran.push('c'));
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      store.advance(2);
    } finally {
      process.stderr.write = write;
    }
    expect(ran).toEqual(['a', 'c', 'b']);
    expect(store.pendingTasks).toBe(1);
  });

  it('100 000 scheduled tasks run in order, quickly', () => {
    const store = new Store();
    const t0 = store.now().getTime();
    const rnd = store.random.bind(store);
    let last = -Infinity;
    let ordered = true;
    let count = 0;
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) {
      const at = t0 + 1000 + Math.floor(rnd() * 1_000_000);
      store.schedule(new Date(at), () => {
        if (at < last) ordered = false;
        last = at;
        count++;
      });
    }
    store.advance(2000);
    expect(count).toBe(100_000);
    expect(ordered).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('ids increase per kind; random is seeded and deterministic', () => {
    const a = new Store();
    const b = new Store();
    expect([a.nextId('x'), a.nextId('x'), a.nextId('y')]).toEqual([1, 2, 1]);
    const ra = [a.random(), a.random(), a.randomHex(8)];
    const rb = [b.random(), b.random(), b.randomHex(8)];
    expect(ra).toEqual(rb);
    expect(ra[0]).toBeGreaterThanOrEqual(0);
    expect(ra[0]).toBeLessThan(1);
    expect(ra[2]).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tables are created lazily and shared by name', () => {
    const s = new Store();
    s.table<number>('t').set('1', 5);
    expect(s.table<number>('t').get('1')).toBe(5);
    expect(s.table('other').size).toBe(0);
  });

  it('nowIso has no zone and follows the simulated clock', () => {
    const s = new Store();
    expect(s.nowIso(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)))).toBe('2024-01-02T03:04:05');
    const before = s.now().getTime();
    s.advance(86400);
    expect(s.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    expect(s.nowIso()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('IPv4 addresses are unique, valid, public or private as asked', () => {
    const s = new Store();
    const seen = new Set<string>();
    for (const region of s.regions.map((r) => r.id)) {
      for (let i = 0; i < 600; i++) {
        for (const isPublic of [true, false]) {
          const ip = s.allocateIpv4(region, isPublic);
          expect(seen.has(ip)).toBe(false);
          seen.add(ip);
          const parsed = ipaddr.IPv4.parse(ip);
          expect(ipaddr.IPv4.isValidFourPartDecimal(ip)).toBe(true);
          const octets = parsed.octets;
          expect(octets[3]).not.toBe(0);
          expect(octets[3]).not.toBe(255);
          if (isPublic) expect(parsed.range()).toBe('unicast');
          else expect(parsed.match(ipaddr.IPv4.parseCIDR('192.168.128.0/17'))).toBe(true);
        }
      }
    }
  });

  it('SLAAC addresses are valid IPv6, distinct per instance', () => {
    const s = new Store();
    const a = s.slaacFor(1);
    const b = s.slaacFor(0x12345);
    expect(a).toBe('2600:3c00::f03c:91ff:fe00:1');
    expect(b).toBe('2600:3c00::f03c:91ff:fe01:2345');
    expect(ipaddr.IPv6.isValid(a)).toBe(true);
    expect(ipaddr.parse(b).toString()).toBe(b);
  });

  it('regions and instance types are seeded as agreed', () => {
    const s = new Store();
    expect(s.regions).toEqual([
      { id: 'us-east', vlans: true, ipv6RangeSharing: true },
      { id: 'us-west', vlans: false, ipv6RangeSharing: true },
      { id: 'eu-central', vlans: true, ipv6RangeSharing: false },
      { id: 'ap-south', vlans: false, ipv6RangeSharing: false },
    ]);
    expect(s.instanceTypes.map((t) => t.id)).toEqual(['g6-nanode-1', 'g6-standard-1', 'g6-standard-2', 'g6-standard-4']);
    expect(s.instanceTypes[0]).toEqual({ id: 'g6-nanode-1', disk: 25600, memory: 1024, vcpus: 1, transfer: 1000 });
    expect(s.defaultUser).toBe('emulator-user');
    expect(s.tokens.get(DEFAULT_TOKEN)).toMatchObject({ scopes: '*', restricted: false, username: 'emulator-user' });
  });

  it('faults are exposed read-only', () => {
    expect(new Store({ faults: ['some-fault'] }).faults.has('some-fault')).toBe(true);
  });
});

describe('events', () => {
  it('emitEvent stores an event with increasing ids and drops it after 90 days', () => {
    const s = new Store();
    const p: Principal = { token: 't', username: 'alice', scopes: '*', restricted: false, grants: { global: {}, entities: {} } };
    const e1 = emitEvent(s, p, { action: 'firewall_create', entity: { id: 1, label: 'fw', type: 'firewall', url: '/v4/networking/firewalls/1' } });
    const e2 = emitEvent(s, null, {
      action: 'firewall_device_add',
      entity: { id: 1, label: 'fw', type: 'firewall', url: '/v4/networking/firewalls/1' },
      secondary_entity: { id: 9, label: 'vm', type: 'compute', url: '/v4/compute/instances/9' },
      status: 'notification',
      message: 'hello',
    });
    expect(e2.id).toBeGreaterThan(e1.id);
    expect(e1).toMatchObject({ action: 'firewall_create', status: 'finished', read: false, seen: false, username: 'alice' });
    expect(e1.secondary_entity).toBeNull();
    expect(e1.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(e2).toMatchObject({ username: 'emulator-user', status: 'notification', message: 'hello' });
    expect(e2.secondary_entity?.id).toBe(9);
    expect(Object.keys(e1).sort()).toEqual(
      ['action', 'created', 'duration', 'entity', 'id', 'message', 'percent_complete', 'rate', 'read', 'secondary_entity', 'seen', 'status', 'time_remaining', 'username'],
    );
    const table = s.table<Event>(EVENTS_TABLE);
    expect(table.size).toBe(2);
    s.advance(89 * 86400);
    expect(table.size).toBe(2);
    s.advance(1 * 86400 + 1);
    expect(table.size).toBe(0);
  });
});

describe('permissions', () => {
  const restricted: Principal = {
    token: 'r',
    username: 'r',
    scopes: '*',
    restricted: true,
    grants: { global: { account_access: 'read_only', add_monitor: false }, entities: { domain: { '3': 'read_write' } } },
  };
  const full: Principal = { token: 'f', username: 'f', scopes: '*', restricted: false, grants: { global: {}, entities: {} } };

  it('unrestricted users can access everything; null principals nothing', () => {
    expect(canAccess(full, 'database', 77, 'read_write')).toBe(true);
    expect(hasGlobalGrant(full, 'add_computes')).toBe(true);
    expect(canAccess(null, 'compute', 1, 'read_only')).toBe(false);
    expect(hasGlobalGrant(null, 'add_computes')).toBe(false);
  });

  it('restricted users need per-entity grants; read_write satisfies read_only', () => {
    expect(canAccess(restricted, 'domain', 3, 'read_only')).toBe(true);
    expect(canAccess(restricted, 'domain', '3', 'read_write')).toBe(true);
    expect(canAccess(restricted, 'domain', 4, 'read_only')).toBe(false);
    expect(canAccess(restricted, 'compute', 3, 'read_only')).toBe(false);
    expect(hasGlobalGrant(restricted, 'account_access')).toBe(true);
    expect(hasGlobalGrant(restricted, 'add_monitor')).toBe(false);
    expect(hasGlobalGrant(restricted, 'add_computes')).toBe(false);
  });

  it('grantOwnership gives a restricted creator read_write; unrestricted users are untouched', () => {
    const p: Principal = { ...restricted, grants: { global: {}, entities: {} } };
    grantOwnership(p, 'firewall', 12);
    expect(canAccess(p, 'firewall', 12, 'read_write')).toBe(true);
    grantOwnership(full, 'firewall', 12);
    expect(full.grants.entities).toEqual({});
  });
});

describe('validation helpers', () => {
  const o = { s: 'abc', n: 5, b: true, a: [1, 2], obj: { x: 1 }, nul: null, f: 1.5, big: 2 ** 60 };
  const fieldOf = (fn: () => unknown): string | null => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toBe(400);
      return (e as ApiError).field;
    }
    throw new Error('expected a validation error');
  };

  it('strings: bounds inclusive, enum, pattern, nullable, required', () => {
    expect(v.optString(o, 's', { min: 3, max: 3 })).toBe('abc');
    expect(v.optString(o, 'missing')).toBeUndefined();
    expect(v.optString(o, 'nul', { nullable: true })).toBeNull();
    expect(fieldOf(() => v.optString(o, 'nul'))).toBe('nul');
    expect(fieldOf(() => v.optString(o, 's', { min: 4 }))).toBe('s');
    expect(fieldOf(() => v.optString(o, 's', { max: 2, path: 'p.0' }))).toBe('p.0.s');
    expect(fieldOf(() => v.optString(o, 's', { enum: ['x'] }))).toBe('s');
    expect(fieldOf(() => v.optString(o, 's', { pattern: /^\d+$/, patternReason: 'digits only' }))).toBe('s');
    expect(fieldOf(() => v.reqString(o, 'missing'))).toBe('missing');
    expect(fieldOf(() => v.reqString(o, 'n'))).toBe('n');
    expect(v.optString({ e: '😀😀😀' }, 'e', { max: 3 })).toBe('😀😀😀');
  });

  it('integers: type, safe range, bounds, enum', () => {
    expect(v.reqInt(o, 'n', { min: 5, max: 5 })).toBe(5);
    expect(fieldOf(() => v.reqInt(o, 'n', { min: 6 }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'n', { max: 4 }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'n', { enum: [1, 3] }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'f'))).toBe('f');
    expect(fieldOf(() => v.reqInt(o, 'big'))).toBe('big');
    expect(fieldOf(() => v.reqInt(o, 's'))).toBe('s');
    expect(v.optInt(o, 'nul', { nullable: true })).toBeNull();
  });

  it('booleans, arrays and objects', () => {
    expect(v.reqBool(o, 'b')).toBe(true);
    expect(fieldOf(() => v.reqBool(o, 'n'))).toBe('n');
    expect(v.reqArray(o, 'a', { min: 2, max: 2 })).toEqual([1, 2]);
    expect(fieldOf(() => v.reqArray(o, 'a', { max: 1 }))).toBe('a');
    expect(fieldOf(() => v.reqArray(o, 'a', { min: 3 }))).toBe('a');
    expect(fieldOf(() => v.reqArray(o, 'obj'))).toBe('obj');
    expect(v.reqObject(o, 'obj')).toEqual({ x: 1 });
    expect(fieldOf(() => v.reqObject(o, 'a'))).toBe('a');
    expect(fieldOf(() => v.asObject('x', 'body.x'))).toBe('body.x');
    expect(fieldOf(() => v.fail('nope', 'f'))).toBe('f');
    expect(() => v.fail('gone', null, 404)).toThrow(ApiError);
  });

  it('own members only (no prototype lookups)', () => {
    expect(v.optString({}, 'toString')).toBeUndefined();
    expect(fieldOf(() => v.reqString({}, 'constructor'))).toBe('constructor');
  });
});

describe('never a 5xx on garbage', () => {
  const garbage = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom('label', 'scopes', 'grants', 'restricted', 'advance_seconds', 'rules', 'seconds', 'name', 'region', 'type'), fc.jsonValue()),
  );

  it('control and core routes answer < 500 for random JSON bodies', async () => {
    const targets: [string, string][] = [
      ['post', '/__control/tokens'],
      ['post', '/__control/clock'],
      ['post', '/v4/coretest/validate'],
      ['post', '/v4/coretest/schedule'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), garbage, async ([, path], body) => {
        const res = await request(app.server).post(path).set(AUTH).set('Content-Type', 'application/json').send(JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(Array.isArray(res.body.errors)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('random bytes with random content types answer < 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/__control/tokens', '/v4/coretest/write', '/v4/coretest/validate'),
        fc.oneof(
          fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', 'application/json; charset=latin1', 'multipart/form-data'),
          fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,40}$/),
        ),
        fc.uint8Array({ maxLength: 200 }),
        async (path, type, bytes) => {
          const res = await request(app.server).post(path).set(AUTH).set('Content-Type', type).send(Buffer.from(bytes));
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('every write route of the API areas answers < 500 for random JSON bodies', async () => {
    const writes = areas
      .flatMap((a) => a.routes)
      .filter((r) => r.method === 'POST' || r.method === 'PUT')
      .map((r) => `${r.method} ${r.path}`);
    if (writes.length === 0) return;
    const api = await buildServer({});
    await api.ready();
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...writes), garbage, async (route, body) => {
          const [method, template] = route.split(' ') as [string, string];
          const path = template.replace(/\{[^}]+\}/g, '1');
          const res = await request(api.server)[method === 'POST' ? 'post' : 'put'](path)
            .set(AUTH)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body));
          if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status} to ${JSON.stringify(body)}: ${res.text}`);
        }),
        { numRuns: Math.min(400, writes.length * 10) },
      );
    } finally {
      await api.close();
    }
  });
});

describe('startEmulator', () => {
  it('listens on a free port and closes', async () => {
    const em = await startEmulator({ port: 0 });
    try {
      expect(em.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(em.token).toBe(DEFAULT_TOKEN);
      const res = await fetch(`${em.url}/__control`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { control: boolean }).control).toBe(true);
    } finally {
      await em.close();
    }
  });
});

describe('router errors', () => {
  it('a path with broken percent-encoding → 400 error body', async () => {
    expectError(await request(app.server).get('/v4/coretest/things/%E0%A4%A'), 400);
  });
});

describe('order of checks', () => {
  it('authentication comes before body parsing', async () => {
    expectError(await request(app.server).post('/v4/coretest/write').set('Content-Type', 'application/json').send('{'), 401);
    expectError(await request(app.server).post('/v4/coretest/write').set('Content-Type', 'text/plain').send('x'), 401);
    const ro = await mint({ scopes: ['domains:read_only'] });
    expectError(
      await request(app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${ro}`).set('Content-Type', 'application/json').send('{'),
      403,
    );
  });
});
