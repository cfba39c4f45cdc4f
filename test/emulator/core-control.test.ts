// Self-tests of the emulator core over HTTP: pagination, the control hooks, startEmulator and "never a 5xx" on
// garbage bodies.
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { areas } from '../../emulator/areas/index.js';
import { paginate } from '../../emulator/core/pagination.js';
import { canAccess, hasGlobalGrant } from '../../emulator/core/permissions.js';
import type { RequestContext } from '../../emulator/core/types.js';
import { startEmulator } from '../../emulator/index.js';
import { buildServer, DEFAULT_TOKEN, getStore } from '../../emulator/server.js';
import { AUTH, expectError, testArea, useCoreServer } from './core-server.js';

const core = useCoreServer();
const mint = core.mint;

let noControl: FastifyInstance;
beforeAll(async () => {
  noControl = await buildServer({ control: false, extraAreas: [testArea] });
  await noControl.ready();
});
afterAll(async () => {
  await noControl.close();
});

describe('pagination', () => {
  const get = (q: string) => request(core.app.server).get(`/v4/coretest/items${q}`).set(AUTH);

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
    const exact = paginate(
      { query: { page_size: '25' } } as unknown as RequestContext,
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(exact.pages).toBe(2);
  });
});

describe('control hooks', () => {
  it('GET /__control tells the simulated time', async () => {
    const res = await request(core.app.server).get('/__control');
    expect(res.status).toBe(200);
    expect(res.body.control).toBe(true);
    expect(res.body.now).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('tokens: garbage bodies are refused with 400', async () => {
    const post = (body: unknown) =>
      request(core.app.server)
        .post('/__control/tokens')
        .send(body as object);
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
    const p = getStore(core.app).tokens.get(t)!;
    expect(p).toMatchObject({ username: 'restricted-one', restricted: true, scopes: '*' });
    expect(canAccess(p, 'compute', 5, 'read_only')).toBe(true);
    expect(canAccess(p, 'compute', 5, 'read_write')).toBe(false);
    expect(hasGlobalGrant(p, 'add_computes')).toBe(true);
    expect(hasGlobalGrant(p, 'monitor_subscription')).toBe(false);
  });

  it('clock: advances the simulated time and runs due tasks', async () => {
    const before = (await request(core.app.server).get('/__control')).body.now as string;
    const sched = await request(core.app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 3600, name: 'hour' });
    expect(sched.status).toBe(200);
    await request(core.app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 7200, name: 'two-hours' });
    expect((await request(core.app.server).get('/v4/coretest/fired').set(AUTH)).body.fired).not.toContain('hour');
    const adv = await request(core.app.server).post('/__control/clock').send({ advance_seconds: 3601 });
    expect(adv.status).toBe(200);
    expect(Date.parse(`${adv.body.now}Z`) - Date.parse(`${before}Z`)).toBeGreaterThanOrEqual(3600_000);
    const fired = (await request(core.app.server).get('/v4/coretest/fired').set(AUTH)).body.fired;
    expect(fired).toContain('hour');
    expect(fired).not.toContain('two-hours');
  });

  it('clock: bad bodies are refused', async () => {
    const post = (body: unknown) =>
      request(core.app.server)
        .post('/__control/clock')
        .send(body as object);
    expectError(await post({}), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: -1 }), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: '60' }), 400, 'advance_seconds');
    expectError(await post({ advance_seconds: 1e12 }), 400, 'advance_seconds');
    expect((await post({ advance_seconds: 0 })).status).toBe(200);
    expect((await post({ advance_seconds: 0.5 })).status).toBe(200);
  });

  it('reset: back to the seed; minted tokens are forgotten, the default token stays', async () => {
    const t = await mint({ scopes: '*' });
    await request(core.app.server).post('/v4/coretest/schedule').set(AUTH).send({ seconds: 0, name: 'pre-reset' });
    const storeBefore = getStore(core.app);
    const res = await request(core.app.server).post('/__control/reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(getStore(core.app)).not.toBe(storeBefore);
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 401);
    expect((await request(core.app.server).get('/v4/coretest/token').set(AUTH)).status).toBe(200);
    expect((await request(core.app.server).get('/v4/coretest/fired').set(AUTH)).body.fired).toEqual([]);
    expect((await request(core.app.server).get('/v4/coretest/items').set(AUTH)).body.results).toBe(230);
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
        const res = await request(core.app.server).post(path).set(AUTH).set('Content-Type', 'application/json').send(JSON.stringify(body));
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
          const res = await request(core.app.server).post(path).set(AUTH).set('Content-Type', type).send(Buffer.from(bytes));
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
          const res = await request(api.server)
            [method === 'POST' ? 'post' : 'put'](path)
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
