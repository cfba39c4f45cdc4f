// Monitoring (document 3): clients, the plan and its grants, public subscriptions.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { expectError, useEmulator } from './supertest-helpers.js';

const emulator = useEmulator();
const { get, post, put, del, token } = emulator;

describe('monitoring clients', () => {
  it('create returns install_code and api_key; list, view, update label, delete', async () => {
    const c = await post('/v4/monitor/clients', { label: 'web' }).expect(200);
    expect(c.body).toMatchObject({ label: 'web', install_code: expect.any(String), api_key: expect.any(String) });
    const list = await get('/v4/monitor/clients').expect(200);
    expect(list.body).toMatchObject({ results: 1, page: 1, pages: 1 });
    await get(`/v4/monitor/clients/${c.body.id}`).expect(200);
    const u = await put(`/v4/monitor/clients/${c.body.id}`, { label: 'web2', api_key: 'ignored' }).expect(200);
    expect(u.body).toMatchObject({ label: 'web2', api_key: c.body.api_key });
    expect((await del(`/v4/monitor/clients/${c.body.id}`).expect(200)).body).toEqual({});
    await get(`/v4/monitor/clients/${c.body.id}`).expect(404);
    await put(`/v4/monitor/clients/${c.body.id}`, { label: 'abc' }).expect(404);
    await del('/v4/monitor/clients/abc').expect(404);
    const dflt = await post('/v4/monitor/clients', {}).expect(200);
    expect(dflt.body.label.length).toBeGreaterThanOrEqual(3);
    const actions = (await get('/v4/account/events')).body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['monitorclient_create', 'monitorclient_update', 'monitorclient_delete']));
  });
  it('label 3..32 and unique', async () => {
    await post('/v4/monitor/clients', { label: 'abc' }).expect(200);
    await post('/v4/monitor/clients', { label: 'x'.repeat(32) }).expect(200);
    expectError(await post('/v4/monitor/clients', { label: 'ab' }), 400, 'label');
    expectError(await post('/v4/monitor/clients', { label: 'x'.repeat(33) }), 400, 'label');
    expectError(await post('/v4/monitor/clients', { label: 12345 }), 400, 'label');
    expectError(await post('/v4/monitor/clients', { label: 'ABC' }), 400, 'label');
    const c = await post('/v4/monitor/clients', { label: 'other' }).expect(200);
    expectError(await put(`/v4/monitor/clients/${c.body.id}`, { label: 'abc' }), 400, 'label');
    expectError(await put(`/v4/monitor/clients/${c.body.id}`, { label: 'ab' }), 400, 'label');
    await put(`/v4/monitor/clients/${c.body.id}`, { label: 'other' }).expect(200);
  });
  it('scopes and the add_monitor grant', async () => {
    const ro = await token({ scopes: ['monitor:read_only'] });
    await get('/v4/monitor/clients', ro).expect(200);
    expectError(await post('/v4/monitor/clients', { label: 'abc' }, ro), 403);
    const restricted = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: {} } });
    expectError(await post('/v4/monitor/clients', { label: 'abc' }, restricted), 403);
    const adder = await token({ restricted: true, scopes: '*', grants: { global: { add_monitor: true }, entities: {} } });
    await post('/v4/monitor/clients', { label: 'abc' }, adder).expect(200);
  });
});

describe('monitoring plan', () => {
  it('free plan is {}; update to a subscription and back with null', async () => {
    expect((await get('/v4/monitor/plan').expect(200)).body).toEqual({});
    const up = await put('/v4/monitor/plan', { monitor_subscription: 'monitor-10' }).expect(200);
    expect(up.body.id).toBe('monitor-10');
    expect((await get('/v4/monitor/plan').expect(200)).body.id).toBe('monitor-10');
    expect((await put('/v4/monitor/plan', { monitor_subscription: null }).expect(200)).body).toEqual({});
    expect((await get('/v4/monitor/plan').expect(200)).body).toEqual({});
  });
  it('rejects unknown ids and a missing member', async () => {
    expectError(await put('/v4/monitor/plan', { monitor_subscription: 'monitor-5' }), 400, 'monitor_subscription');
    expectError(await put('/v4/monitor/plan', {}), 400, 'monitor_subscription');
    expectError(await put('/v4/monitor/plan', { monitor_subscription: 3 }), 400, 'monitor_subscription');
  });
  it('view needs account_access, monitor_subscription or add_monitor; update needs monitor_subscription', async () => {
    const g = (global: object) => token({ restricted: true, scopes: '*', grants: { global, entities: {} } });
    expectError(await get('/v4/monitor/plan', await g({})), 403);
    expectError(await get('/v4/monitor/plan', await g({ account_access: null })), 403);
    for (const global of [{ account_access: 'read_only' }, { account_access: 'read_write' }, { monitor_subscription: true }, { add_monitor: true }]) {
      await get('/v4/monitor/plan', await g(global)).expect(200);
    }
    expectError(await put('/v4/monitor/plan', { monitor_subscription: 'monitor-3' }, await g({ add_monitor: true })), 403);
    await put('/v4/monitor/plan', { monitor_subscription: 'monitor-3' }, await g({ monitor_subscription: true })).expect(200);
    expectError(await put('/v4/monitor/plan', { monitor_subscription: null }, await token({ scopes: ['monitor:read_only'] })), 403);
  });
});

describe('subscriptions (public)', () => {
  it('lists the four plans without a token; views one; 404 for others', async () => {
    const list = await request(emulator.server()).get('/v4/monitor/subscriptions').expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual(['monitor-3', 'monitor-10', 'monitor-40', 'monitor-100']);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 4 });
    const one = await request(emulator.server()).get('/v4/monitor/subscriptions/monitor-40').expect(200);
    expect(one.body.id).toBe('monitor-40');
    await request(emulator.server()).get('/v4/monitor/subscriptions/monitor-7').expect(404);
    await request(emulator.server()).get('/v4/monitor/subscriptions?page_size=24').expect(400);
  });
});
