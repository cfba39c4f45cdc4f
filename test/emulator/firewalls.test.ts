// Firewalls (document 3): labels, rules (ports grammar, addresses, limits), devices, statuses, events.
import { describe, expect, it } from 'vitest';
import { expectError, useEmulator } from './supertest-helpers.js';

const emulator = useEmulator();
const { get, post, put, del, token } = emulator;

const FW = '/v4/networking/firewalls';
const RULES = { inbound_policy: 'DROP', outbound_policy: 'ACCEPT' };
const tcp = (ports: string, extra: object = {}) => ({ action: 'ACCEPT', protocol: 'TCP', ports, addresses: { ipv4: ['0.0.0.0/0'] }, ...extra });
async function instance(): Promise<number> {
  const res = await post('/v4/compute/instances', { region: 'us-east', type: 'g6-nanode-1' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}
const create = (body: object) => post(FW, { label: 'fw-one', rules: RULES, ...body });
async function actions(): Promise<string[]> {
  return (await get('/v4/account/events?page_size=100')).body.data.map((e: { action: string }) => e.action);
}

describe('firewall create / view / list / update / delete', () => {
  it('creates an enabled firewall; the view has no devices; emits firewall_create', async () => {
    const i = await instance();
    const f = await create({ tags: ['prod'], devices: { computes: [i] }, rules: { ...RULES, inbound: [tcp('22')] } }).expect(200);
    expect(f.body).toMatchObject({ label: 'fw-one', status: 'enabled', tags: ['prod'] });
    expect(f.body.rules.inbound[0]).toMatchObject({ ports: '22', protocol: 'TCP', action: 'ACCEPT' });
    const view = await get(`${FW}/${f.body.id}`).expect(200);
    expect(view.body).not.toHaveProperty('devices');
    expect((await get(FW)).body.results).toBe(1);
    const devs = await get(`${FW}/${f.body.id}/devices`).expect(200);
    expect(devs.body.data[0].entity).toMatchObject({ id: i, type: 'compute' });
    expect(await actions()).toContain('firewall_create');
  });
  it('label: required, 3..32, character rules, unique', async () => {
    expectError(await post(FW, { rules: RULES }), 400, 'label');
    await create({ label: 'abc' }).expect(200);
    await create({ label: 'a'.repeat(32) }).expect(200);
    await create({ label: 'a-b_c.d9' }).expect(200);
    expectError(await create({ label: 'ab' }), 400, 'label');
    expectError(await create({ label: 'a'.repeat(33) }), 400, 'label');
    for (const bad of ['-abc', 'abc-', 'a--b', 'a__b', 'a..b', 'a b c', 'ab!c']) expectError(await create({ label: bad }), 400, 'label');
    expectError(await create({ label: 'ABC' }), 400, 'label');
  });
  it('rules and policies are required on create; policy and rule enums', async () => {
    expectError(await post(FW, { label: 'abc' }), 400, 'rules');
    expectError(await create({ rules: { outbound_policy: 'DROP' } }), 400, 'rules.inbound_policy');
    expectError(await create({ rules: { inbound_policy: 'DROP' } }), 400, 'rules.outbound_policy');
    expectError(await create({ rules: { ...RULES, inbound_policy: 'REJECT' } }), 400, 'rules.inbound_policy');
    expectError(await create({ rules: { ...RULES, inbound: [tcp('22', { action: 'ALLOW' })] } }), 400, 'rules.inbound.0.action');
    expectError(await create({ rules: { ...RULES, outbound: [tcp('22', { protocol: 'SCTP' })] } }), 400, 'rules.outbound.0.protocol');
    expectError(await create({ rules: { ...RULES, inbound: [{ action: 'DROP', protocol: 'TCP', ports: '22' }] } }), 400, 'rules.inbound.0.addresses');
    expectError(await create({ rules: { ...RULES, inbound: [{ protocol: 'TCP', ports: '22', addresses: {} }] } }), 400, 'rules.inbound.0.action');
    expectError(await create({ rules: { ...RULES, inbound: 'x' } }), 400, 'rules.inbound');
  });
  it('ports grammar', async () => {
    const ok = ['22', '1', '65535', '80-443', '22,80', '22, 80', '1-2,3-4,5-6,7-8,9-10,11-12,13-14,15'];
    for (const p of ok) await create({ label: `ok${ok.indexOf(p)}x`, rules: { ...RULES, inbound: [tcp(p)] } }).expect(200);
    const bad = ['', '0', '65536', '022', '443-80', '80-80', '22,,80', '22,  80', ' 22', '22 ,80', 'a', '1-2-3', '1-2,3-4,5-6,7-8,9-10,11-12,13-14,15-16'];
    for (const p of bad) expectError(await create({ rules: { ...RULES, inbound: [tcp(p)] } }), 400, 'rules.inbound.0.ports');
    expectError(await create({ rules: { ...RULES, inbound: [{ action: 'ACCEPT', protocol: 'UDP', addresses: {} }] } }), 400, 'rules.inbound.0.ports');
    expectError(
      await create({ rules: { ...RULES, inbound: [{ action: 'ACCEPT', protocol: 'ICMP', ports: '1', addresses: {} }] } }),
      400,
      'rules.inbound.0.ports',
    );
    await create({ label: 'icmp', rules: { ...RULES, inbound: [{ action: 'ACCEPT', protocol: 'ICMP', addresses: {} }] } }).expect(200);
  });
  it('addresses: IP/mask per family, at most 255 across both', async () => {
    const v4 = Array.from({ length: 200 }, (_, n) => `10.0.${n}.0/24`);
    const v6 = Array.from({ length: 55 }, (_, n) => `2001:db8:${n.toString(16)}::/48`);
    await create({ rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv4: v4, ipv6: v6 } })] } }).expect(200);
    expectError(
      await create({ label: 'two', rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv4: v4, ipv6: [...v6, '2001:db8:ffff::/48'] } })] } }),
      400,
      'rules.inbound.0.addresses',
    );
    expectError(
      await create({ label: 'two', rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv4: ['10.0.0.1'] } })] } }),
      400,
      'rules.inbound.0.addresses.ipv4.0',
    );
    expectError(
      await create({ label: 'two', rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv4: ['2001:db8::/32'] } })] } }),
      400,
      'rules.inbound.0.addresses.ipv4.0',
    );
    expectError(
      await create({ label: 'two', rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv6: ['10.0.0.0/8'] } })] } }),
      400,
      'rules.inbound.0.addresses.ipv6.0',
    );
    expectError(
      await create({ label: 'two', rules: { ...RULES, inbound: [tcp('22', { addresses: { ipv4: ['10.0.0.0/33'] } })] } }),
      400,
      'rules.inbound.0.addresses.ipv4.0',
    );
  });
  it('rule label 3..32 and description 1..100', async () => {
    await create({
      rules: { ...RULES, inbound: [tcp('22', { label: 'abc', description: 'd' }), tcp('23', { label: 'l'.repeat(32), description: 'd'.repeat(100) })] },
    }).expect(200);
    expectError(await create({ label: 'bb2', rules: { ...RULES, inbound: [tcp('22', { label: 'ab' })] } }), 400, 'rules.inbound.0.label');
    expectError(await create({ label: 'bb2', rules: { ...RULES, inbound: [tcp('22', { label: 'l'.repeat(33) })] } }), 400, 'rules.inbound.0.label');
    expectError(await create({ label: 'bb2', rules: { ...RULES, inbound: [tcp('22', { description: '' })] } }), 400, 'rules.inbound.0.description');
    expectError(
      await create({ label: 'bb2', rules: { ...RULES, inbound: [tcp('22', { description: 'd'.repeat(101) })] } }),
      400,
      'rules.inbound.0.description',
    );
  });
  it('at most 25 rules across inbound and outbound', async () => {
    const r = (n: number) => Array.from({ length: n }, (_, k) => tcp(String(k + 1)));
    await create({ rules: { ...RULES, inbound: r(20), outbound: r(5) } }).expect(200);
    expectError(await create({ label: 'bb2', rules: { ...RULES, inbound: r(20), outbound: r(6) } }), 400, 'rules');
  });
  it('devices on create: existing instances with read_write; one enabled firewall per instance', async () => {
    const i = await instance();
    expectError(await create({ devices: { computes: [999999] } }), 400, 'devices.computes.0');
    expectError(await create({ devices: { computes: ['x'] } }), 400, 'devices.computes.0');
    expectError(await create({ devices: { computes: [i, i] } }), 400, 'devices.computes.1');
    await create({ devices: { computes: [i] } }).expect(200);
    expectError(await create({ label: 'second', devices: { computes: [i] } }), 400, 'devices.computes.0');
    const ro = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: { compute: { [i]: 'read_only' } } } });
    expectError(await post(FW, { label: 'third', rules: RULES, devices: { computes: [i] } }, ro), 403);
  });
  it('update: label, tags, status transitions and events; deleted refused', async () => {
    const f = (await create({}).expect(200)).body;
    const u = await put(`${FW}/${f.id}`, { label: 'renamed', tags: ['a-tag'], rules: { inbound_policy: 'ACCEPT' } }).expect(200);
    expect(u.body).toMatchObject({ label: 'renamed', tags: ['a-tag'], rules: { inbound_policy: 'DROP' } });
    expectError(await put(`${FW}/${f.id}`, { status: 'deleted' }), 400, 'status');
    expectError(await put(`${FW}/${f.id}`, { status: 'off' }), 400, 'status');
    expect((await put(`${FW}/${f.id}`, { status: 'disabled' }).expect(200)).body.status).toBe('disabled');
    expect((await put(`${FW}/${f.id}`, { status: 'enabled' }).expect(200)).body.status).toBe('enabled');
    expect(await actions()).toEqual(expect.arrayContaining(['firewall_update', 'firewall_disable', 'firewall_enable']));
    await create({ label: 'other' }).expect(200);
    expectError(await put(`${FW}/${f.id}`, { label: 'other' }), 400, 'label');
    expectError(await put(`${FW}/${f.id}`, { label: 'x' }), 400, 'label');
    await put(`${FW}/424242`, {}).expect(404);
  });
  it('enabling while the instance has another enabled firewall → 400', async () => {
    const i = await instance();
    const a = (await create({ label: 'fw-a', devices: { computes: [i] } }).expect(200)).body;
    await put(`${FW}/${a.id}`, { status: 'disabled' }).expect(200);
    const b = (await create({ label: 'fw-b', devices: { computes: [i] } }).expect(200)).body;
    expectError(await put(`${FW}/${a.id}`, { status: 'enabled' }), 400, 'status');
    await put(`${FW}/${b.id}`, { status: 'disabled' }).expect(200);
    await put(`${FW}/${a.id}`, { status: 'enabled' }).expect(200);
  });
  it('delete removes the firewall and emits firewall_delete', async () => {
    const f = (await create({}).expect(200)).body;
    expect((await del(`${FW}/${f.id}`).expect(200)).body).toEqual({});
    await get(`${FW}/${f.id}`).expect(404);
    await get(`${FW}/${f.id}/devices`).expect(404);
    expect(await actions()).toContain('firewall_delete');
  });
});

describe('devices', () => {
  it('add, list, view, remove with events; compute only; no duplicates; one enabled firewall', async () => {
    const i = await instance();
    const f = (await create({}).expect(200)).body;
    const d = await post(`${FW}/${f.id}/devices`, { id: i, type: 'compute' }).expect(200);
    expect(d.body.entity).toMatchObject({ id: i, type: 'compute' });
    expect((await get(`${FW}/${f.id}/devices`)).body.results).toBe(1);
    await get(`${FW}/${f.id}/devices/${d.body.id}`).expect(200);
    expectError(await post(`${FW}/${f.id}/devices`, { id: i, type: 'compute' }), 400, 'id');
    expectError(await post(`${FW}/${f.id}/devices`, { id: i, type: 'volume' }), 400, 'type');
    expectError(await post(`${FW}/${f.id}/devices`, { id: i }), 400, 'type');
    expectError(await post(`${FW}/${f.id}/devices`, { type: 'compute' }), 400, 'id');
    expectError(await post(`${FW}/${f.id}/devices`, { id: 999999, type: 'compute' }), 400, 'id');
    const g = (await create({ label: 'fw-two' }).expect(200)).body;
    expectError(await post(`${FW}/${g.id}/devices`, { id: i, type: 'compute' }), 400, 'id');
    await put(`${FW}/${g.id}`, { status: 'disabled' }).expect(200);
    await post(`${FW}/${g.id}/devices`, { id: i, type: 'compute' }).expect(200);
    expect((await del(`${FW}/${f.id}/devices/${d.body.id}`).expect(200)).body).toEqual({});
    await get(`${FW}/${f.id}/devices/${d.body.id}`).expect(404);
    await del(`${FW}/${f.id}/devices/${d.body.id}`).expect(404);
    expect(await actions()).toEqual(expect.arrayContaining(['firewall_device_add', 'firewall_device_remove']));
  });
  it('deleting an instance removes it from firewalls', async () => {
    const i = await instance();
    const f = (await create({ devices: { computes: [i] } }).expect(200)).body;
    await del(`/v4/compute/instances/${i}`).expect(200);
    expect((await get(`${FW}/${f.id}/devices`)).body.results).toBe(0);
  });
});

describe('rules endpoint', () => {
  it('GET returns the rules; PUT replaces only the directions given', async () => {
    const f = (await create({ rules: { ...RULES, inbound: [tcp('22')], outbound: [tcp('443')] } }).expect(200)).body;
    expect((await get(`${FW}/${f.id}/rules`).expect(200)).body.inbound).toHaveLength(1);
    const u = await put(`${FW}/${f.id}/rules`, { inbound: [tcp('80'), tcp('81')] }).expect(200);
    expect(u.body.inbound.map((r: { ports: string }) => r.ports)).toEqual(['80', '81']);
    expect(u.body.outbound[0].ports).toBe('443');
    expect(u.body).toMatchObject({ inbound_policy: 'DROP', outbound_policy: 'ACCEPT' });
    const p = await put(`${FW}/${f.id}/rules`, { outbound_policy: 'DROP', outbound: [] }).expect(200);
    expect(p.body).toMatchObject({ outbound_policy: 'DROP', outbound: [] });
    expect(p.body.inbound).toHaveLength(2);
    expectError(await put(`${FW}/${f.id}/rules`, { inbound: Array.from({ length: 26 }, () => tcp('1')) }), 400, null);
    expectError(await put(`${FW}/${f.id}/rules`, { inbound: [tcp('0')] }), 400, 'inbound.0.ports');
    expectError(await put(`${FW}/${f.id}/rules`, { inbound_policy: 'x' }), 400, 'inbound_policy');
    await get(`${FW}/999/rules`).expect(404);
  });
  it('scopes: read_only cannot write; restricted users need firewall grants', async () => {
    const f = (await create({}).expect(200)).body;
    const ro = await token({ scopes: ['firewall:read_only'] });
    await get(`${FW}/${f.id}/rules`, ro).expect(200);
    expectError(await put(`${FW}/${f.id}/rules`, {}, ro), 403);
    const r = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: { firewall: { [f.id]: 'read_only' } } } });
    await get(`${FW}/${f.id}`, r).expect(200);
    expectError(await del(`${FW}/${f.id}`, r), 403);
    const none = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: {} } });
    await get(`${FW}/${f.id}`, none).expect(404);
  });
});
