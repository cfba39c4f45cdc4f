// Domains and records (document 3): field limits, time rounding, per-type record rules, null MX, SRV, clone,
// import, zone file, platform-wide uniqueness, restricted users.
import { beforeEach, describe, expect, it } from 'vitest';
import request from 'supertest';
import { AUTH, expectError, useEmulator } from './supertest-helpers.js';

const emulator = useEmulator();
const { get, post, put, del, token } = emulator;
const MASTER = { domain: 'example.com', type: 'master', soa_email: 'admin@example.com' };
async function domain(extra: object = {}): Promise<number> {
  const res = await post('/v4/domains', { ...MASTER, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}
const record = (id: number, body: object) => post(`/v4/domains/${id}/records`, body);

describe('domain create / view / list / update / delete', () => {
  it('creates an active master domain, lists and views it', async () => {
    const id = await domain({ description: 'd', group: 'g', tags: ['web', 'web'] });
    const view = await get(`/v4/domains/${id}`).expect(200);
    expect(view.body).toMatchObject({ id, domain: 'example.com', type: 'master', status: 'active', tags: ['web'], axfr_ips: [], master_ips: [] });
    expect(view.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const list = await get('/v4/domains').expect(200);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 1 });
    expect(list.body.data[0].id).toBe(id);
  });
  it('requires domain and type, enforces type and status enums', async () => {
    expectError(await post('/v4/domains', { type: 'master', soa_email: 'a@b.co' }), 400, 'domain');
    expectError(await post('/v4/domains', { domain: 'a.com' }), 400, 'type');
    expectError(await post('/v4/domains', { ...MASTER, type: 'primary' }), 400, 'type');
    expectError(await post('/v4/domains', { ...MASTER, status: 'edit_mode' }), 400, 'status');
    expectError(await post('/v4/domains', [1, 2]), 400, null);
    expectError(await request(emulator.server()).post('/v4/domains').set(AUTH).set('Content-Type', 'application/json').send('"x"'), 400);
  });
  it('soa_email required for master, master_ips for slave', async () => {
    expectError(await post('/v4/domains', { domain: 'a.com', type: 'master' }), 400, 'soa_email');
    expectError(await post('/v4/domains', { ...MASTER, soa_email: 'not-an-email' }), 400, 'soa_email');
    expectError(await post('/v4/domains', { domain: 'a.com', type: 'slave' }), 400, 'master_ips');
    expectError(await post('/v4/domains', { domain: 'a.com', type: 'slave', master_ips: [] }), 400, 'master_ips');
    expectError(await post('/v4/domains', { domain: 'a.com', type: 'slave', master_ips: ['nope'] }), 400, 'master_ips.0');
    const ok = await post('/v4/domains', { domain: 'a.com', type: 'slave', master_ips: ['192.0.2.1'] }).expect(200);
    expect(ok.body.soa_email).toBe('');
    expectError(await post('/v4/domains', { ...MASTER, domain: 'b.com', axfr_ips: ['1.2.3'] }), 400, 'axfr_ips.0');
  });
  it('domain name: 1..255, labels ≤ 63, RFC 1035 characters, unique across the platform', async () => {
    const l63 = 'a'.repeat(63);
    await post('/v4/domains', { ...MASTER, domain: `${l63}.com` }).expect(200);
    expectError(await post('/v4/domains', { ...MASTER, domain: `a${l63}.com` }), 400, 'domain');
    const name255 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}`;
    expect(name255.length).toBe(255);
    await post('/v4/domains', { ...MASTER, domain: name255 }).expect(200);
    expectError(await post('/v4/domains', { ...MASTER, domain: `${name255}x` }), 400, 'domain');
    expectError(await post('/v4/domains', { ...MASTER, domain: '' }), 400, 'domain');
    for (const bad of ['ex_ample.com', '-a.com', 'a-.com', 'a..com', 'com', 'a.com.', 'ex ample.com']) {
      expectError(await post('/v4/domains', { ...MASTER, domain: bad }), 400, 'domain');
    }
    await post('/v4/domains', MASTER).expect(200);
    expectError(await post('/v4/domains', { ...MASTER, domain: 'EXAMPLE.com' }), 400, 'domain');
    // owned by another account: never listed, still taken
    expectError(await post('/v4/domains', { ...MASTER, domain: 'taken-by-another-account.example' }), 400, 'domain');
    const list = await get('/v4/domains');
    expect(list.body.data.map((d: { domain: string }) => d.domain)).not.toContain('taken-by-another-account.example');
  });
  it('description 1..255 and group 1..50', async () => {
    await post('/v4/domains', { ...MASTER, domain: 'a.com', description: 'x'.repeat(255), group: 'g'.repeat(50) }).expect(200);
    expectError(await post('/v4/domains', { ...MASTER, description: '' }), 400, 'description');
    expectError(await post('/v4/domains', { ...MASTER, description: 'x'.repeat(256) }), 400, 'description');
    expectError(await post('/v4/domains', { ...MASTER, group: '' }), 400, 'group');
    expectError(await post('/v4/domains', { ...MASTER, group: 'g'.repeat(51) }), 400, 'group');
    await post('/v4/domains', { ...MASTER, domain: 'b.com', description: 'x', group: 'g' }).expect(200);
  });
  it('time values round up; 0 is kept (the default); above 2419200 and negative rejected', async () => {
    const res = await post('/v4/domains', { ...MASTER, expire_sec: 1, refresh_sec: 300, retry_sec: 3601, ttl_sec: 2419200 }).expect(200);
    expect(res.body).toMatchObject({ expire_sec: 300, refresh_sec: 300, retry_sec: 7200, ttl_sec: 2419200 });
    const zero = await put(`/v4/domains/${res.body.id}`, { ttl_sec: 0, expire_sec: 1209599 }).expect(200);
    expect(zero.body).toMatchObject({ ttl_sec: 0, expire_sec: 1209600 });
    expectError(await put(`/v4/domains/${res.body.id}`, { ttl_sec: 2419201 }), 400, 'ttl_sec');
    expectError(await put(`/v4/domains/${res.body.id}`, { retry_sec: -1 }), 400, 'retry_sec');
    expectError(await put(`/v4/domains/${res.body.id}`, { refresh_sec: 1.5 }), 400, 'refresh_sec');
    const zone = await get(`/v4/domains/${res.body.id}/zone-file`).expect(200);
    expect(zone.body.zone_file.join('\n')).toContain('$TTL 86400');
  });
  it('update: none required, uniqueness excludes itself, cross-member rules on the result', async () => {
    const id = await domain();
    await put(`/v4/domains/${id}`, {}).expect(200);
    await put(`/v4/domains/${id}`, { domain: 'example.com', description: 'new' }).expect(200);
    await post('/v4/domains', { ...MASTER, domain: 'other.com' }).expect(200);
    expectError(await put(`/v4/domains/${id}`, { domain: 'other.com' }), 400, 'domain');
    expectError(await put(`/v4/domains/${id}`, { type: 'slave' }), 400, 'master_ips');
    const s = await put(`/v4/domains/${id}`, { type: 'slave', master_ips: ['192.0.2.7'] }).expect(200);
    expect(s.body.type).toBe('slave');
    await put('/v4/domains/999', {}).expect(404);
    await get('/v4/domains/abc').expect(404);
  });
  it('delete removes the domain and its records', async () => {
    const id = await domain();
    await record(id, { type: 'A', name: 'www', target: '192.0.2.1' }).expect(200);
    expect((await del(`/v4/domains/${id}`).expect(200)).body).toEqual({});
    await get(`/v4/domains/${id}`).expect(404);
    await get(`/v4/domains/${id}/records`).expect(404);
    await del(`/v4/domains/${id}`).expect(404);
    await post('/v4/domains', MASTER).expect(200); // the name is free again
  });
  it('status: active ↔ disabled; the zone file is that of the last rendered zone', async () => {
    const id = await domain();
    await record(id, { type: 'A', name: 'www', target: '192.0.2.1' }).expect(200);
    await put(`/v4/domains/${id}`, { status: 'disabled' }).expect(200);
    await record(id, { type: 'A', name: 'api', target: '192.0.2.2' }).expect(200);
    const zone = (await get(`/v4/domains/${id}/zone-file`).expect(200)).body.zone_file.join('\n');
    expect(zone).toContain('192.0.2.1');
    expect(zone).not.toContain('192.0.2.2');
    await put(`/v4/domains/${id}`, { status: 'active' }).expect(200);
    const zone2 = (await get(`/v4/domains/example.com/zone-file`).expect(200)).body.zone_file.join('\n');
    expect(zone2).toContain('192.0.2.2');
    const never = await post('/v4/domains', { ...MASTER, domain: 'off.com', status: 'disabled' }).expect(200);
    expect((await get(`/v4/domains/${never.body.id}/zone-file`).expect(200)).body.zone_file).toEqual([]);
    await get('/v4/domains/nope.example/zone-file').expect(404);
  });
  it('events for zone operations', async () => {
    const id = await domain();
    await put(`/v4/domains/${id}`, { description: 'x' }).expect(200);
    const ev = await get('/v4/account/events').expect(200);
    const actions = ev.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['dns_zone_create', 'dns_zone_update']));
  });
});

describe('clone and import', () => {
  it('clones a domain with its records, by id or by name', async () => {
    const id = await domain({ ttl_sec: 300 });
    await record(id, { type: 'A', name: 'www', target: '192.0.2.1' }).expect(200);
    const c = await post(`/v4/domains/${id}/clone`, { domain: 'copy.com' }).expect(200);
    expect(c.body).toMatchObject({ domain: 'copy.com', ttl_sec: 300, type: 'master' });
    expect(c.body.id).not.toBe(id);
    const recs = await get(`/v4/domains/${c.body.id}/records`).expect(200);
    expect(recs.body.data).toHaveLength(1);
    expect(recs.body.data[0]).toMatchObject({ type: 'A', name: 'www', target: '192.0.2.1' });
    await post('/v4/domains/example.com/clone', { domain: 'copy2.com' }).expect(200);
    expectError(await post(`/v4/domains/${id}/clone`, { domain: 'copy.com' }), 400, 'domain');
    expectError(await post(`/v4/domains/${id}/clone`, {}), 400, 'domain');
    expectError(await post(`/v4/domains/${id}/clone`, { domain: 'x'.repeat(256) }), 400, 'domain');
    expectError(await post(`/v4/domains/${id}/clone`, { domain: '' }), 400, 'domain');
    await post('/v4/domains/424242/clone', { domain: 'z.com' }).expect(404);
  });
  it('imports a zone; both members required; a refusing nameserver → 400', async () => {
    const res = await post('/v4/domains/import', { domain: 'imported.com', remote_nameserver: 'ns1.remote.net' }).expect(200);
    expect(res.body).toMatchObject({ domain: 'imported.com', type: 'master', status: 'active' });
    expectError(await post('/v4/domains/import', { remote_nameserver: 'ns1.remote.net' }), 400, 'domain');
    expectError(await post('/v4/domains/import', { domain: 'i2.com' }), 400, 'remote_nameserver');
    expectError(await post('/v4/domains/import', { domain: 'imported.com', remote_nameserver: '198.51.100.1' }), 400, 'domain');
    expectError(await post('/v4/domains/import', { domain: 'i3.com', remote_nameserver: '192.0.2.53' }), 400, 'remote_nameserver');
    expectError(await post('/v4/domains/import', { domain: 'i3.com', remote_nameserver: 'bad name' }), 400, 'remote_nameserver');
  });
});

describe('records', () => {
  let id: number;
  beforeEach(async () => {
    id = await domain();
  });
  it('CRUD with defaults and a 404 for unknown ids', async () => {
    const r = await record(id, { type: 'A', name: 'www', target: '192.0.2.1' }).expect(200);
    expect(r.body).toMatchObject({ type: 'A', name: 'www', target: '192.0.2.1', ttl_sec: 86400, priority: null, weight: null, port: null });
    await get(`/v4/domains/${id}/records/${r.body.id}`).expect(200);
    const u = await put(`/v4/domains/${id}/records/${r.body.id}`, { target: '192.0.2.9' }).expect(200);
    expect(u.body.target).toBe('192.0.2.9');
    expect((await get(`/v4/domains/${id}/records`)).body.results).toBe(1);
    await del(`/v4/domains/${id}/records/${r.body.id}`).expect(200);
    await get(`/v4/domains/${id}/records/${r.body.id}`).expect(404);
    await get(`/v4/domains/${id}/records/x`).expect(404);
    await del(`/v4/domains/${id}/records/777`).expect(404);
  });
  it('type required and enumerated; PTR only through reverse DNS', async () => {
    expectError(await record(id, { name: 'a', target: '192.0.2.1' }), 400, 'type');
    expectError(await record(id, { type: 'SPF', target: 'x' }), 400, 'type');
    expectError(await record(id, { type: 'PTR', name: 'x', target: 'h.example.com' }), 400, 'type');
  });
  it('name 1..100', async () => {
    await record(id, { type: 'TXT', name: 'n'.repeat(100), target: 'v' }).expect(200);
    await record(id, { type: 'TXT', name: 'n', target: 'v' }).expect(200);
    expectError(await record(id, { type: 'TXT', name: 'n'.repeat(101), target: 'v' }), 400, 'name');
    expectError(await record(id, { type: 'TXT', name: '', target: 'v' }), 400, 'name');
    expectError(await record(id, { type: 'A', name: 'bad name', target: '192.0.2.1' }), 400, 'name');
  });
  it('ttl_sec rounds to the nearest valid value, ties up', async () => {
    const cases: [number, number][] = [
      [0, 300],
      [301, 300],
      [1950, 3600],
      [1949, 300],
      [5400, 7200],
      [3601, 3600],
      [9999999, 2419200],
    ];
    for (const [given, want] of cases) {
      const r = await record(id, { type: 'TXT', name: `t${given}`, target: 'v', ttl_sec: given }).expect(200);
      expect(r.body.ttl_sec, String(given)).toBe(want);
    }
    expectError(await record(id, { type: 'TXT', name: 't', target: 'v', ttl_sec: -1 }), 400, 'ttl_sec');
    expectError(await record(id, { type: 'TXT', name: 't', target: 'v', ttl_sec: '300' }), 400, 'ttl_sec');
  });
  it('A / AAAA targets, [remote_addr], no trailing period', async () => {
    const ra = await record(id, { type: 'A', name: 'me', target: '[remote_addr]' }).expect(200);
    expect(ra.body.target).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expectError(await record(id, { type: 'A', name: 'a', target: '2001:db8::1' }), 400, 'target');
    expectError(await record(id, { type: 'A', name: 'a' }), 400, 'target');
    expectError(await record(id, { type: 'A', name: 'a', target: '192.0.2.1.' }), 400, 'target');
    await record(id, { type: 'AAAA', name: 'a', target: '2001:db8::1' }).expect(200);
    expectError(await record(id, { type: 'AAAA', name: 'a', target: '192.0.2.1' }), 400, 'target');
    expectError(await record(id, { type: 'AAAA', name: 'a', target: '[remote_addr]' }), 400, 'target');
  });
  it('NS / CNAME / MX targets are domains (trailing period accepted); CNAME names unique', async () => {
    await record(id, { type: 'NS', target: 'ns1.other.net.' }).expect(200);
    expectError(await record(id, { type: 'NS', target: 'not a domain' }), 400, 'target');
    expectError(await record(id, { type: 'NS' }), 400, 'target');
    await record(id, { type: 'CNAME', name: 'www', target: 'example.com.' }).expect(200);
    expectError(await record(id, { type: 'CNAME', name: 'WWW', target: 'example.com' }), 400, 'name');
    expectError(await record(id, { type: 'CNAME', target: 'example.com' }), 400, 'name');
    expectError(await record(id, { type: 'CNAME', name: 'c', target: '192.0.2.1!' }), 400, 'target');
    const mx = await record(id, { type: 'MX', name: 'mail', target: 'mx.example.com.' }).expect(200);
    expect(mx.body.priority).toBe(0);
  });
  it('priority 0..255 only for MX and SRV', async () => {
    await record(id, { type: 'MX', target: 'mx.example.com', priority: 255 }).expect(200);
    await record(id, { type: 'MX', target: 'mx2.example.com', priority: 0 }).expect(200);
    expectError(await record(id, { type: 'MX', target: 'mx.example.com', priority: 256 }), 400, 'priority');
    expectError(await record(id, { type: 'MX', target: 'mx.example.com', priority: -1 }), 400, 'priority');
    expectError(await record(id, { type: 'A', target: '192.0.2.1', priority: 1 }), 400, 'priority');
    expectError(await record(id, { type: 'TXT', target: 'v', weight: 1 }), 400, 'weight');
    expectError(await record(id, { type: 'A', target: '192.0.2.1', tag: 'issue' }), 400, 'tag');
  });
  it('null MX: only without other MX records, blocks new MX, priority 0', async () => {
    const mx = await record(id, { type: 'MX', target: 'mx.example.com' }).expect(200);
    expectError(await record(id, { type: 'MX', name: '', target: '' }), 400, 'target');
    await del(`/v4/domains/${id}/records/${mx.body.id}`).expect(200);
    expectError(await record(id, { type: 'MX', name: '', target: '', priority: 5 }), 400, 'priority');
    expectError(await record(id, { type: 'MX', name: 'mail', target: '' }), 400, 'target');
    const nul = await record(id, { type: 'MX', name: '', target: '' }).expect(200);
    expect(nul.body).toMatchObject({ name: '', target: '', priority: 0 });
    expectError(await record(id, { type: 'MX', target: 'mx.example.com' }), 400, 'type');
    await put(`/v4/domains/${id}/records/${nul.body.id}`, { ttl_sec: 300 }).expect(200);
  });
  it('SRV: service, weight, port, priority, target required; underscores and suffix', async () => {
    const srv = { type: 'SRV', service: 'sip', protocol: 'tcp', priority: 10, weight: 5, port: 5060, target: 'sipserver' };
    const r = await record(id, srv).expect(200);
    expect(r.body).toMatchObject({ service: '_sip.', protocol: '_tcp', name: '_sip._tcp', target: 'sipserver.example.com' });
    const fq = await record(id, { ...srv, target: 'sip.other.net' }).expect(200);
    expect(fq.body.target).toBe('sip.other.net');
    for (const k of ['service', 'weight', 'port', 'priority', 'target'] as const) {
      const body: Record<string, unknown> = { ...srv };
      delete body[k];
      expectError(await record(id, body), 400, k);
    }
    await record(id, { ...srv, weight: 65535, port: 65535, priority: 0 }).expect(200);
    await record(id, { ...srv, weight: 0, port: 0 }).expect(200);
    expectError(await record(id, { ...srv, weight: 65536 }), 400, 'weight');
    expectError(await record(id, { ...srv, port: 65536 }), 400, 'port');
    expectError(await record(id, { ...srv, port: -1 }), 400, 'port');
    expectError(await record(id, { ...srv, service: 'bad service' }), 400, 'service');
    const same = await put(`/v4/domains/${id}/records/${r.body.id}`, { service: r.body.service }).expect(200);
    expect(same.body.service).toBe('_sip.');
    expectError(await record(id, { type: 'TXT', target: 'v', service: 'x' }), 400, 'service');
  });
  it('CAA: tag required enum; issue targets are domains, iodef URLs', async () => {
    await record(id, { type: 'CAA', tag: 'issue', target: 'ca.example.net' }).expect(200);
    await record(id, { type: 'CAA', name: '', tag: 'issuewild', target: 'ca.example.net' }).expect(200);
    await record(id, { type: 'CAA', tag: 'iodef', target: 'mailto:sec@example.com' }).expect(200);
    await record(id, { type: 'CAA', tag: 'iodef', target: 'https://example.com/report' }).expect(200);
    expectError(await record(id, { type: 'CAA', target: 'ca.example.net' }), 400, 'tag');
    expectError(await record(id, { type: 'CAA', tag: 'nope', target: 'ca.example.net' }), 400, 'tag');
    expectError(await record(id, { type: 'CAA', tag: 'issue', target: 'ca.example.net.' }), 400, 'target');
    expectError(await record(id, { type: 'CAA', tag: 'iodef', target: 'ftp://x' }), 400, 'target');
  });
  it('TXT target required; update can change the type', async () => {
    expectError(await record(id, { type: 'TXT', name: 'x' }), 400, 'target');
    const r = await record(id, { type: 'MX', target: 'mx.example.com', priority: 3 }).expect(200);
    const u = await put(`/v4/domains/${id}/records/${r.body.id}`, { type: 'TXT', target: 'hello' }).expect(200);
    expect(u.body).toMatchObject({ type: 'TXT', priority: null, target: 'hello' });
    expectError(await put(`/v4/domains/${id}/records/${r.body.id}`, { name: 'x'.repeat(101) }), 400, 'name');
  });
});

describe('scopes and restricted users', () => {
  it('read_only scope cannot write; restricted users see only granted domains', async () => {
    const ro = await token({ scopes: ['domains:read_only'] });
    await get('/v4/domains', ro).expect(200);
    expectError(await post('/v4/domains', MASTER, ro), 403);
    await request(emulator.server()).get('/v4/domains').expect(401);
    const id = await domain();
    const r = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: { domain: { [id]: 'read_only' } } } });
    await get(`/v4/domains/${id}`, r).expect(200);
    expectError(await put(`/v4/domains/${id}`, {}, r), 403);
    const none = await token({ restricted: true, scopes: '*', grants: { global: {}, entities: {} } });
    await get(`/v4/domains/${id}`, none).expect(404);
    expect((await get('/v4/domains', none)).body.results).toBe(0);
    const own = await post('/v4/domains', { ...MASTER, domain: 'mine.com' }, none).expect(200);
    await put(`/v4/domains/${own.body.id}`, { description: 'ok' }, none).expect(200);
  });
});
