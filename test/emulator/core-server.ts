// The core self-tests' server: the emulator with a tiny extra area that exercises the core without depending on
// the API areas, one per test file.
import request from 'supertest';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { paginate } from '../../emulator/core/pagination.js';
import { Reply, type Area } from '../../emulator/core/types.js';
import * as v from '../../emulator/core/validate.js';
import { buildServer, DEFAULT_TOKEN } from '../../emulator/server.js';

export const AUTH = { Authorization: `Bearer ${DEFAULT_TOKEN}` };

export /** A tiny area that exercises the core without depending on the API areas. */
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

/** Builds the server with the test area before the file's tests and closes it after them. */
export function useCoreServer() {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildServer({ extraAreas: [testArea] });
    // Listening from the start (supertest-helpers.ts says why).
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });
  return {
    get app() {
      return app;
    },
    /** A token minted through the control hook. */
    async mint(body: Record<string, unknown>): Promise<string> {
      const res = await request(app.server).post('/__control/tokens').send(body);
      expect(res.status).toBe(200);
      expect(typeof res.body.token).toBe('string');
      return res.body.token as string;
    },
  };
}

/** An error answer with the documented error body and `field` at fault. */
export function expectError(res: request.Response, status: number, field: string | null = null): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(res.body.errors.length).toBeGreaterThan(0);
  expect(typeof res.body.errors[0].reason).toBe('string');
  expect(res.body.errors[0].reason.length).toBeGreaterThan(5);
  expect(res.body.errors[0].field).toBe(field);
}
