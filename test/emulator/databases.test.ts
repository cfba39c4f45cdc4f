// Managed databases (document 1): engines, node types, the two cluster projections, create/update/delete
// validation, provisioning time, the required status per operation, backups, restore, credentials, patch, SSL.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import fc from 'fast-check';
import { AUTH, expectError, useEmulator } from './supertest-helpers.js';

const MYSQL = '/v4/databases/mysql/instances';

const emulator = useEmulator();
const { get, post, put, del, token, advance } = emulator;

const valid = (over: Record<string, unknown> = {}) => ({
  label: 'orders-db',
  engine: 'mysql/8.0.30',
  region: 'us-east',
  type: 'g6-dedicated-2',
  ...over,
});

/** The seeded active MySQL cluster. */
async function seededMysql(): Promise<{ id: number; [k: string]: unknown }> {
  const res = await get(MYSQL).expect(200);
  return res.body.data.find((c: { status: string }) => c.status === 'active');
}

async function createActive(over: Record<string, unknown> = {}): Promise<number> {
  const res = await post(MYSQL, valid(over)).expect(200);
  await advance(31 * 60);
  return res.body.id;
}

describe('engines and node types (no authentication)', () => {
  it('lists the seeded engines with the list envelope', async () => {
    const res = await request(emulator.server()).get('/v4/databases/engines').expect(200);
    expect(res.body).toMatchObject({ page: 1, pages: 1, results: 3 });
    expect(res.body.data.map((e: { id: string }) => e.id).sort()).toEqual(['mysql/5.7.39', 'mysql/8.0.30', 'postgresql/13.2']);
    for (const e of res.body.data) expect(e.id).toBe(`${e.engine}/${e.version}`);
  });

  it('views an engine whose id contains a slash, plain or URL-encoded', async () => {
    const plain = await request(emulator.server()).get('/v4/databases/engines/mysql/8.0.30').expect(200);
    expect(plain.body).toEqual({ id: 'mysql/8.0.30', engine: 'mysql', version: '8.0.30' });
    const encoded = await request(emulator.server()).get('/v4/databases/engines/postgresql%2F13.2').expect(200);
    expect(encoded.body.engine).toBe('postgresql');
    expectError(await request(emulator.server()).get('/v4/databases/engines/mysql/9.9.9'), 404, null);
    expectError(await request(emulator.server()).get('/v4/databases/engines/mysql'), 404);
  });

  it('accepts page and page_size on the views but validates them', async () => {
    await request(emulator.server()).get('/v4/databases/engines/mysql/8.0.30?page=2&page_size=25').expect(200);
    expectError(await request(emulator.server()).get('/v4/databases/engines/mysql/8.0.30?page=0'), 400, 'page');
    await request(emulator.server()).get('/v4/databases/types/g6-nanode-1?page_size=100').expect(200);
    expectError(await request(emulator.server()).get('/v4/databases/types/g6-nanode-1?page_size=101'), 400, 'page_size');
  });

  it('paginates lists: page >= 1, page_size 25..100', async () => {
    for (const q of ['page=0', 'page=-1', 'page=x', 'page_size=24', 'page_size=101', 'page_size=1.5']) {
      expectError(await request(emulator.server()).get(`/v4/databases/types?${q}`), 400, q.split('=')[0]!);
    }
    for (const q of ['page=1', 'page_size=25', 'page_size=100']) await request(emulator.server()).get(`/v4/databases/types?${q}`).expect(200);
    const past = await request(emulator.server()).get('/v4/databases/types?page=5&page_size=25').expect(200);
    expect(past.body).toMatchObject({ data: [], page: 5, pages: 1 });
  });

  it('lists node types with per-engine pricing; views one; 404 for an unknown one', async () => {
    const res = await request(emulator.server()).get('/v4/databases/types').expect(200);
    expect(res.body.results).toBeGreaterThanOrEqual(4);
    const t = res.body.data.find((x: { id: string }) => x.id === 'g6-dedicated-2');
    expect(t).toMatchObject({ class: 'dedicated', deprecated: false, disk: 81920, memory: 4096, vcpus: 2 });
    expect(t.engines.mysql).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ quantity: 3, price: expect.objectContaining({ monthly: expect.any(Number), hourly: expect.any(Number) }) }),
      ]),
    );
    expect(res.body.data.some((x: { deprecated: boolean }) => x.deprecated)).toBe(true);
    const one = await request(emulator.server()).get('/v4/databases/types/g6-dedicated-2').expect(200);
    expect(one.body).toEqual(t);
    expectError(await request(emulator.server()).get('/v4/databases/types/g6-nope'), 404, null);
  });
});

describe('access', () => {
  it('needs a token, the databases scope and an unrestricted user on every cluster endpoint', async () => {
    expectError(await request(emulator.server()).get('/v4/databases/instances'), 401);
    expectError(await get(MYSQL, { Authorization: 'Bearer nope' }), 401);
    const ro = await token({ scopes: ['databases:read_only'] });
    await get(MYSQL, ro).expect(200);
    await get('/v4/databases/instances', ro).expect(200);
    expectError(await post(MYSQL, valid(), ro), 403);
    const c = await seededMysql();
    // Backups list and view name read_write as their scope.
    expectError(await get(`${MYSQL}/${c.id}/backups`, ro), 403);
    await get(`${MYSQL}/${c.id}/credentials`, ro).expect(200);
    const other = await token({ scopes: ['account:read_write'] });
    expectError(await get(MYSQL, other), 403);

    const restricted = await token({ scopes: '*', restricted: true, grants: { entities: { database: { [c.id]: 'read_write' } } } });
    const paths: [string, string][] = [
      ['GET', '/v4/databases/instances'],
      ['GET', MYSQL],
      ['POST', MYSQL],
      ['GET', `${MYSQL}/${c.id}`],
      ['PUT', `${MYSQL}/${c.id}`],
      ['DELETE', `${MYSQL}/${c.id}`],
      ['GET', `${MYSQL}/${c.id}/backups`],
      ['POST', `${MYSQL}/${c.id}/backups`],
      ['GET', `${MYSQL}/${c.id}/backups/1`],
      ['POST', `${MYSQL}/${c.id}/backups/1/restore`],
      ['GET', `${MYSQL}/${c.id}/credentials`],
      ['POST', `${MYSQL}/${c.id}/credentials/reset`],
      ['POST', `${MYSQL}/${c.id}/patch`],
      ['GET', `${MYSQL}/${c.id}/ssl`],
    ];
    for (const [method, path] of paths) {
      const res = await request(emulator.server())[method.toLowerCase() as 'get'](path).set(restricted).send({});
      expectError(res, 403);
    }
    // Engines and node types stay open to everybody.
    await get('/v4/databases/engines', restricted).expect(200);
  });
});

describe('projections', () => {
  it('the generic list has instance_uri and every engine; the MySQL projection has port, replication_type, ssl_connection, updates', async () => {
    const generic = await get('/v4/databases/instances').expect(200);
    expect(generic.body.data.map((c: { engine: string }) => c.engine).sort()).toEqual(['mysql', 'postgresql']);
    for (const c of generic.body.data) {
      expect(c.instance_uri).toBe(`/v4/databases/${c.engine}/instances/${c.id}`);
      for (const k of ['port', 'replication_type', 'ssl_connection', 'updates']) expect(c).not.toHaveProperty(k);
      for (const k of [
        'allow_list',
        'cluster_size',
        'created',
        'encrypted',
        'engine',
        'hosts',
        'id',
        'label',
        'region',
        'status',
        'type',
        'updated',
        'version',
      ]) {
        expect(c).toHaveProperty(k);
      }
    }
    const mysql = await get(MYSQL).expect(200);
    expect(mysql.body.results).toBe(1);
    const c = mysql.body.data[0];
    expect(c).not.toHaveProperty('instance_uri');
    expect(c).toMatchObject({ engine: 'mysql', port: 3306, ssl_connection: true, replication_type: 'semi_synch' });
    expect(Object.keys(c.updates).sort()).toEqual(['day_of_week', 'duration', 'frequency', 'hour_of_day', 'week_of_month']);
    const one = await get(`${MYSQL}/${c.id}`).expect(200);
    expect(one.body).toEqual(c);
    expect(one.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('404 for an unknown, non-integer or non-MySQL cluster id', async () => {
    expectError(await get(`${MYSQL}/999999`), 404, null);
    expectError(await get(`${MYSQL}/abc`), 404);
    const pg = (await get('/v4/databases/instances')).body.data.find((c: { engine: string }) => c.engine === 'postgresql');
    expectError(await get(`${MYSQL}/${pg.id}`), 404);
  });
});

describe('create', () => {
  it('creates a provisioning cluster with defaults, no hosts yet, /32 on single addresses', async () => {
    const res = await post(MYSQL, valid({ allow_list: ['203.0.113.1', '192.0.2.0/24', '2001:db8::/32'] })).expect(200);
    expect(res.body).toMatchObject({
      label: 'orders-db',
      engine: 'mysql',
      version: '8.0.30',
      region: 'us-east',
      type: 'g6-dedicated-2',
      status: 'provisioning',
      cluster_size: 1,
      encrypted: false,
      ssl_connection: false,
      replication_type: 'none',
      hosts: { primary: null, secondary: null },
      allow_list: ['203.0.113.1/32', '192.0.2.0/24', '2001:db8::/32'],
      updates: { frequency: 'weekly', duration: 3, hour_of_day: 20, day_of_week: 7 },
    });
    expect(res.body).not.toHaveProperty('instance_uri');
    const ha = await post(MYSQL, valid({ label: 'ha-db', cluster_size: 3, encrypted: true, ssl_connection: true })).expect(200);
    expect(ha.body).toMatchObject({ cluster_size: 3, replication_type: 'semi_synch', encrypted: true, ssl_connection: true, allow_list: [] });
    for (const rt of ['none', 'asynch', 'semi_synch']) {
      await post(MYSQL, valid({ label: `rt-${rt}`, replication_type: rt })).expect(200);
    }
  });

  it('label: 3..32 characters, unique', async () => {
    expectError(await post(MYSQL, valid({ label: 'ab' })), 400, 'label');
    expectError(await post(MYSQL, valid({ label: 'x'.repeat(33) })), 400, 'label');
    await post(MYSQL, valid({ label: 'abc' })).expect(200);
    await post(MYSQL, valid({ label: 'y'.repeat(32) })).expect(200);
    expectError(await post(MYSQL, valid({ label: 'abc' })), 400, 'label');
    expectError(await post(MYSQL, valid({ label: 'seed-mysql-primary' })), 400, 'label');
    expectError(await post(MYSQL, valid({ label: 42 })), 400, 'label');
  });

  it('required members, engine, region, type', async () => {
    for (const k of ['label', 'engine', 'region', 'type']) {
      const body: Record<string, unknown> = valid();
      delete body[k];
      expectError(await post(MYSQL, body), 400, k);
    }
    expectError(await post(MYSQL, valid({ engine: 'mysql' })), 400, 'engine');
    expectError(await post(MYSQL, valid({ engine: 'mysql/1.0.0' })), 400, 'engine');
    expectError(await post(MYSQL, valid({ engine: 'postgresql/13.2' })), 400, 'engine');
    await post(MYSQL, valid({ engine: 'mysql/5.7.39' })).expect(200);
    expectError(await post(MYSQL, valid({ region: 'mars-1' })), 400, 'region');
    expectError(await post(MYSQL, valid({ type: 'g6-nope' })), 400, 'type');
    expectError(await post(MYSQL, valid({ type: 'g5-dedicated-legacy-2' })), 400, 'type');
  });

  it('cluster_size 1 or 3, replication_type enum, booleans', async () => {
    for (const n of [0, 2, 4, '3', 1.5]) expectError(await post(MYSQL, valid({ cluster_size: n })), 400, 'cluster_size');
    await post(MYSQL, valid({ label: 'one-node', cluster_size: 1 })).expect(200);
    await post(MYSQL, valid({ label: 'three-node', cluster_size: 3 })).expect(200);
    expectError(await post(MYSQL, valid({ replication_type: 'sync' })), 400, 'replication_type');
    expectError(await post(MYSQL, valid({ encrypted: 'yes' })), 400, 'encrypted');
    expectError(await post(MYSQL, valid({ ssl_connection: 1 })), 400, 'ssl_connection');
  });

  it('allow_list items are IP addresses or CIDR ranges', async () => {
    expectError(await post(MYSQL, valid({ allow_list: '10.0.0.1' })), 400, 'allow_list');
    expectError(await post(MYSQL, valid({ allow_list: ['10.0.0.1', 5] })), 400, 'allow_list.1');
    for (const bad of ['10.0.0', '10.0.0.256', '10.0.0.0/33', '10.0.0.0/', 'fe80::/129', 'host.example', '0x0a.0.0.1', '10.1', '']) {
      expectError(await post(MYSQL, valid({ allow_list: ['192.0.2.1', bad] })), 400, 'allow_list.1');
    }
    const res = await post(MYSQL, valid({ allow_list: ['10.0.0.0/0', '10.0.0.0/32', '::1'] })).expect(200);
    expect(res.body.allow_list).toEqual(['10.0.0.0/0', '10.0.0.0/32', '::1/128']);
  });

  it('rejects a body that is not an object', async () => {
    for (const body of [[], 'x', 5, null]) expectError(await post(MYSQL, JSON.stringify(body), { ...AUTH, 'Content-Type': 'application/json' }), 400);
    expectError(await post(MYSQL), 400);
  });
});

describe('provisioning and required status', () => {
  it('stays provisioning for 15..30 simulated minutes, then is active with hosts', async () => {
    const res = await post(MYSQL, valid()).expect(200);
    const id = res.body.id;
    await advance(15 * 60 - 5);
    expect((await get(`${MYSQL}/${id}`)).body.status).toBe('provisioning');
    await advance(15 * 60 + 10);
    const after = await get(`${MYSQL}/${id}`).expect(200);
    expect(after.body.status).toBe('active');
    expect(typeof after.body.hosts.primary).toBe('string');
    expect(typeof after.body.hosts.secondary).toBe('string');
  });

  it('refuses every status-bound operation while provisioning', async () => {
    const id = (await post(MYSQL, valid())).body.id;
    const base = `${MYSQL}/${id}`;
    expectError(await put(base, { label: 'renamed' }), 400, null);
    expectError(await post(`${base}/backups`, { label: 'snap' }), 400, null);
    expectError(await post(`${base}/backups/1/restore`), 400, null);
    expectError(await get(`${base}/credentials`), 400, null);
    expectError(await post(`${base}/credentials/reset`), 400, null);
    expectError(await post(`${base}/patch`), 400, null);
    expectError(await get(`${base}/ssl`), 400, null);
    expectError(await get(`${base}/backups`), 400, null);
    expectError(await get(`${base}/backups/1`), 400, null);
    expectError(await del(base), 400, null);
  });
});

describe('update', () => {
  it('changes label, replaces allow_list, merges updates', async () => {
    const c = await seededMysql();
    const res = await put(`${MYSQL}/${c.id}`, {
      label: 'renamed-db',
      allow_list: ['198.51.100.7'],
      updates: { hour_of_day: 3, frequency: 'monthly', week_of_month: 2 },
    }).expect(200);
    expect(res.body).toMatchObject({
      label: 'renamed-db',
      allow_list: ['198.51.100.7/32'],
      updates: { hour_of_day: 3, frequency: 'monthly', week_of_month: 2, duration: 3, day_of_week: 7 },
    });
    const empty = await put(`${MYSQL}/${c.id}`, { allow_list: [] }).expect(200);
    expect(empty.body.allow_list).toEqual([]);
    const nul = await put(`${MYSQL}/${c.id}`, { updates: { frequency: null } }).expect(200);
    expect(nul.body.updates.frequency).toBeNull();
    await put(`${MYSQL}/${c.id}`, {}).expect(200);
  });

  it('validates every member', async () => {
    const c = await seededMysql();
    const p = `${MYSQL}/${c.id}`;
    expectError(await put(p, { label: 'ab' }), 400, 'label');
    expectError(await put(p, { label: 'z'.repeat(33) }), 400, 'label');
    await put(p, { label: 'abc' }).expect(200);
    await put(p, { label: 'abc' }).expect(200); // its own label is not a clash
    await post(MYSQL, valid({ label: 'taken-label' })).expect(200);
    expectError(await put(p, { label: 'taken-label' }), 400, 'label');
    expectError(await put(p, { allow_list: ['nope'] }), 400, 'allow_list.0');
    expectError(await put(p, { updates: 'weekly' }), 400, 'updates');
    expectError(await put(p, { updates: { frequency: 'daily' } }), 400, 'updates.frequency');
    expectError(await put(p, { updates: { frequency: 7 } }), 400, 'updates.frequency');
    const bounds: [string, number, number][] = [
      ['duration', 1, 3],
      ['hour_of_day', 0, 23],
      ['day_of_week', 1, 7],
      ['week_of_month', 1, 4],
    ];
    for (const [k, min, max] of bounds) {
      expectError(await put(p, { updates: { [k]: min - 1 } }), 400, `updates.${k}`);
      expectError(await put(p, { updates: { [k]: max + 1 } }), 400, `updates.${k}`);
      expectError(await put(p, { updates: { [k]: String(min) } }), 400, `updates.${k}`);
      await put(p, { updates: { [k]: min } }).expect(200);
      await put(p, { updates: { [k]: max } }).expect(200);
    }
    expectError(await put(p, []), 400);
  });
});

describe('delete', () => {
  it('deletes an active cluster and its backups', async () => {
    const c = await seededMysql();
    expect(await del(`${MYSQL}/${c.id}`).expect(200)).toHaveProperty('body', {});
    expectError(await get(`${MYSQL}/${c.id}`), 404);
    expectError(await del(`${MYSQL}/${c.id}`), 404);
  });

  it('refuses restoring/updating clusters and accepts failed ones', async () => {
    const c = await seededMysql();
    const backups = (await get(`${MYSQL}/${c.id}/backups`)).body.data;
    await post(`${MYSQL}/${c.id}/backups/${backups[0].id}/restore`).expect(200);
    expect((await get(`${MYSQL}/${c.id}`)).body.status).toBe('restoring');
    expectError(await del(`${MYSQL}/${c.id}`), 400, null);
    const single = await createActive({ label: 'single-node' });
    await post(`${MYSQL}/${single}/patch`).expect(200);
    expect((await get(`${MYSQL}/${single}`)).body.status).toBe('updating');
    expectError(await del(`${MYSQL}/${single}`), 400);
    // failed is deletable
    const other = await createActive({ label: 'to-fail' });
    await post(`${MYSQL}/${other}/credentials/reset`).expect(200);
    await post(`${MYSQL}/${other}/backups`, { label: 'snap-1' }).expect(200);
    const b = (await get(`${MYSQL}/${other}/backups`)).body.data[0];
    await post(`${MYSQL}/${other}/backups/${b.id}/restore`).expect(200);
    expect((await get(`${MYSQL}/${other}`)).body.status).toBe('failed');
    await del(`${MYSQL}/${other}`).expect(200);
  });
});

describe('backups', () => {
  it('lists the seeded backups, views one, 404 for unknown or foreign backups', async () => {
    const c = await seededMysql();
    const list = await get(`${MYSQL}/${c.id}/backups`).expect(200);
    expect(list.body.results).toBeGreaterThanOrEqual(2);
    const types = new Set(list.body.data.map((b: { type: string }) => b.type));
    expect(types).toEqual(new Set(['auto', 'snapshot']));
    const b = list.body.data[0];
    expect(Object.keys(b).sort()).toEqual(['created', 'id', 'label', 'type']);
    expect((await get(`${MYSQL}/${c.id}/backups/${b.id}`).expect(200)).body).toEqual(b);
    expectError(await get(`${MYSQL}/${c.id}/backups/999999`), 404);
    expectError(await get(`${MYSQL}/${c.id}/backups/x`), 404);
    const other = await createActive();
    expectError(await get(`${MYSQL}/${other}/backups/${b.id}`), 404);
  });

  it('snapshot create: label 3..64 required, target primary|secondary', async () => {
    const c = await seededMysql();
    const p = `${MYSQL}/${c.id}/backups`;
    expectError(await post(p, {}), 400, 'label');
    expectError(await post(p, { label: 'ab' }), 400, 'label');
    expectError(await post(p, { label: 'a'.repeat(65) }), 400, 'label');
    expectError(await post(p, { label: 'abc', target: 'tertiary' }), 400, 'target');
    expectError(await post(p, []), 400);
    expect((await post(p, { label: 'abc' }).expect(200)).body).toEqual({});
    await post(p, { label: 'a'.repeat(64), target: 'secondary' }).expect(200);
    await post(p, { label: 'prim', target: 'primary' }).expect(200);
    const list = (await get(p)).body.data;
    expect(list.filter((b: { type: string; label: string }) => b.type === 'snapshot' && ['abc', 'prim', 'a'.repeat(64)].includes(b.label))).toHaveLength(3);
  });

  it('takes an auto backup every day at 00:00 UTC and keeps each 7 days', async () => {
    const id = await createActive({ label: 'nightly' });
    const nowRes = await request(emulator.server()).get('/__control').expect(200);
    const now = new Date(`${nowRes.body.now}Z`);
    const midnight = new Date(now);
    midnight.setUTCHours(24, 0, 0, 0);
    await advance((midnight.getTime() - now.getTime()) / 1000 + 1);
    const midnightIso = midnight.toISOString().slice(0, 19);
    let autos = (await get(`${MYSQL}/${id}/backups`)).body.data.filter((b: { type: string }) => b.type === 'auto');
    expect(autos.filter((b: { created: string }) => b.created === midnightIso)).toHaveLength(1);
    expect(autos.every((b: { created: string }) => b.created.endsWith('T00:00:00'))).toBe(true);
    await advance(9 * 86400);
    autos = (await get(`${MYSQL}/${id}/backups`)).body.data.filter((b: { type: string }) => b.type === 'auto');
    expect(autos).toHaveLength(7);
    const seeded = await seededMysql();
    const seededAutos = (await get(`${MYSQL}/${seeded.id}/backups`)).body.data.filter((b: { type: string }) => b.type === 'auto');
    expect(seededAutos).toHaveLength(7);
  });

  it('restore: active → restoring → active; after a credentials reset the cluster fails', async () => {
    const c = await seededMysql();
    // The newest backup: the test's hour may cross midnight, when the oldest daily backup (kept 7 days) goes.
    const backups = (await get(`${MYSQL}/${c.id}/backups`)).body.data as Array<{ id: number; created: string }>;
    const b = [...backups].sort((x, y) => y.created.localeCompare(x.created))[0]!;
    expectError(await post(`${MYSQL}/${c.id}/backups/999999/restore`), 404);
    expect((await post(`${MYSQL}/${c.id}/backups/${b.id}/restore`).expect(200)).body).toEqual({});
    expect((await get(`${MYSQL}/${c.id}`)).body.status).toBe('restoring');
    // backups stay listable while restoring; status-bound operations do not
    await get(`${MYSQL}/${c.id}/backups`).expect(200);
    expectError(await get(`${MYSQL}/${c.id}/credentials`), 400);
    await advance(11 * 60);
    expect((await get(`${MYSQL}/${c.id}`)).body.status).toBe('active');

    await post(`${MYSQL}/${c.id}/credentials/reset`).expect(200);
    await post(`${MYSQL}/${c.id}/backups/${b.id}/restore`).expect(200);
    expect((await get(`${MYSQL}/${c.id}`)).body.status).toBe('failed');
    await advance(3600);
    expect((await get(`${MYSQL}/${c.id}`)).body.status).toBe('failed');
    expectError(await put(`${MYSQL}/${c.id}`, { label: 'again' }), 400);
    await get(`${MYSQL}/${c.id}/backups/${b.id}`).expect(200);
  });
});

describe('credentials, patch, SSL', () => {
  it('credentials view and reset (a new random password)', async () => {
    const c = await seededMysql();
    const before = (await get(`${MYSQL}/${c.id}/credentials`).expect(200)).body;
    expect(Object.keys(before).sort()).toEqual(['password', 'username']);
    expect(before.password.length).toBeGreaterThanOrEqual(16);
    expect((await post(`${MYSQL}/${c.id}/credentials/reset`).expect(200)).body).toEqual({});
    const after = (await get(`${MYSQL}/${c.id}/credentials`).expect(200)).body;
    expect(after.username).toBe(before.username);
    expect(after.password).not.toBe(before.password);
    expectError(await get(`${MYSQL}/424242/credentials`), 404);
  });

  it('patch: a single-node cluster is updating for a while; a high-availability one stays active', async () => {
    const seeded = await seededMysql();
    expect((await post(`${MYSQL}/${seeded.id}/patch`).expect(200)).body).toEqual({});
    expect((await get(`${MYSQL}/${seeded.id}`)).body.status).toBe('active');
    const single = await createActive({ label: 'single' });
    await post(`${MYSQL}/${single}/patch`).expect(200);
    expect((await get(`${MYSQL}/${single}`)).body.status).toBe('updating');
    expectError(await post(`${MYSQL}/${single}/patch`), 400);
    await advance(11 * 60);
    expect((await get(`${MYSQL}/${single}`)).body.status).toBe('active');
  });

  it('ssl: a base64-encoded CA certificate', async () => {
    const c = await seededMysql();
    const res = await get(`${MYSQL}/${c.id}/ssl`).expect(200);
    const pem = Buffer.from(res.body.ca_certificate, 'base64').toString();
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
  });
});

describe('robustness', () => {
  it('random bodies on the write endpoints never give a 5xx', async () => {
    const c = await seededMysql();
    const paths: ['post' | 'put', string][] = [
      ['post', MYSQL],
      ['put', `${MYSQL}/${c.id}`],
      ['post', `${MYSQL}/${c.id}/backups`],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.anything({ maxDepth: 3 }), async ([method, path], body) => {
        const res = await request(emulator.server())
          [method](path)
          .set(AUTH)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body) ?? 'null');
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    const mixed = fc.record(
      {
        label: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        engine: fc.oneof(fc.constantFrom('mysql/8.0.30', 'mysql/x', 'postgresql/13.2'), fc.string()),
        region: fc.constantFrom('us-east', 'nowhere', 3),
        type: fc.constantFrom('g6-nanode-1', 'x'),
        allow_list: fc.oneof(fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string())), fc.anything()),
        updates: fc.anything({ maxDepth: 2 }),
        cluster_size: fc.oneof(fc.integer(), fc.double()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(mixed, async (body) => {
        const res = await post(MYSQL, body);
        expect(res.status).toBeLessThan(500);
        const upd = await put(`${MYSQL}/${c.id}`, body);
        expect(upd.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
