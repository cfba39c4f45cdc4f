// IP addresses (document 3): list, view, rDNS, allocate, assign, share, IPv6 pools and ranges, VLANs.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { AUTH, expectError, useEmulator } from './supertest-helpers.js';

const emulator = useEmulator();
const { get, post, put, del, token } = emulator;

async function instance(extra: object = {}): Promise<{ id: number; ipv4: string[]; ipv6: string }> {
  const res = await post('/v4/compute/instances', { region: 'us-east', type: 'g6-nanode-1', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const slaac = (i: { ipv6: string }) => i.ipv6.replace(/\/128$/, '');

describe('addresses and reverse DNS', () => {
  it('lists public addresses (private excluded) and views any of them', async () => {
    const i = await instance({ private_ip: true });
    const priv = i.ipv4.find((a) => a.startsWith('192.168.'))!;
    const list = await get('/v4/networking/ips').expect(200);
    const addrs = list.body.data.map((a: { address: string }) => a.address);
    expect(addrs).toContain(i.ipv4[0]);
    expect(addrs).not.toContain(priv);
    const v = await get(`/v4/networking/ips/${i.ipv4[0]}`).expect(200);
    expect(v.body).toMatchObject({
      address: i.ipv4[0],
      public: true,
      type: 'ipv4',
      compute_id: i.id,
      rdns: `${i.ipv4[0].replace(/\./g, '-')}.ip.chs-emulator.net`,
    });
    expect((await get(`/v4/networking/ips/${priv}`).expect(200)).body.public).toBe(false);
    await get('/v4/networking/ips/203.0.113.250').expect(404);
    await get('/v4/networking/ips/garbage').expect(404);
  });
  it('rdns needs forward DNS; null resets a public IPv4 to the default', async () => {
    const i = await instance();
    const addr = i.ipv4[0]!;
    expectError(await put(`/v4/networking/ips/${addr}`, { rdns: 'host.example.com' }), 400, 'rdns');
    const d = await post('/v4/domains', { domain: 'example.com', type: 'master', soa_email: 'a@example.com' }).expect(200);
    await post(`/v4/domains/${d.body.id}/records`, { type: 'A', name: 'host', target: addr }).expect(200);
    expect((await put(`/v4/networking/ips/${addr}`, { rdns: 'host.example.com' }).expect(200)).body.rdns).toBe('host.example.com');
    expect((await put(`/v4/networking/ips/${addr}`, { rdns: null }).expect(200)).body.rdns).toBe(`${addr.replace(/\./g, '-')}.ip.chs-emulator.net`);
    expectError(await put(`/v4/networking/ips/${addr}`, {}), 400, 'rdns');
    expectError(await put(`/v4/networking/ips/${addr}`, { rdns: 5 }), 400, 'rdns');
    expectError(await put(`/v4/networking/ips/${addr}`, { rdns: 'not a host' }), 400, 'rdns');
    await post(`/v4/domains/${d.body.id}/records`, { type: 'AAAA', name: 'v6', target: slaac(i) }).expect(200);
    expect((await put(`/v4/networking/ips/${slaac(i)}`, { rdns: 'v6.example.com' }).expect(200)).body.rdns).toBe('v6.example.com');
  });
});

describe('allocate', () => {
  it('requires compute_id, public and type ipv4; public needs the extra-addresses enablement', async () => {
    const i = await instance();
    expectError(await post('/v4/networking/ips', { public: true, type: 'ipv4' }), 400, 'compute_id');
    expectError(await post('/v4/networking/ips', { compute_id: i.id, type: 'ipv4' }), 400, 'public');
    expectError(await post('/v4/networking/ips', { compute_id: i.id, public: true }), 400, 'type');
    expectError(await post('/v4/networking/ips', { compute_id: i.id, public: true, type: 'ipv6' }), 400, 'type');
    expectError(await post('/v4/networking/ips', { compute_id: 999999, public: true, type: 'ipv4' }), 400, 'compute_id');
    expectError(await post('/v4/networking/ips', { compute_id: i.id, public: true, type: 'ipv4' }), 400, 'public');
    await put(`/v4/compute/instances/${i.id}`, { tags: ['extra-ipv4'] }).expect(200);
    const a = await post('/v4/networking/ips', { compute_id: i.id, public: true, type: 'ipv4' }).expect(200);
    expect(a.body).toMatchObject({ public: true, compute_id: i.id, type: 'ipv4' });
    expect((await get(`/v4/compute/instances/${i.id}`)).body.ipv4).toContain(a.body.address);
  });
  it('one private address per instance; needs both scopes', async () => {
    const i = await instance();
    const p = await post('/v4/networking/ips', { compute_id: i.id, public: false, type: 'ipv4' }).expect(200);
    expect(p.body.public).toBe(false);
    expectError(await post('/v4/networking/ips', { compute_id: i.id, public: false, type: 'ipv4' }), 400, 'public');
    const ipsOnly = await token({ scopes: ['ips:read_write'] });
    expectError(await post('/v4/networking/ips', { compute_id: i.id, public: false, type: 'ipv4' }, ipsOnly), 403);
  });
});

describe('assign', () => {
  it('moves addresses when every instance ends with ≥1 public IPv4', async () => {
    const a = await instance();
    const b = await instance();
    await put(`/v4/compute/instances/${a.id}`, { tags: ['extra-ipv4'] }).expect(200);
    const extra = (await post('/v4/networking/ips', { compute_id: a.id, public: true, type: 'ipv4' }).expect(200)).body.address;
    expect((await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: extra, compute_id: b.id }] }).expect(200)).body).toEqual({});
    expect((await get(`/v4/compute/instances/${b.id}`)).body.ipv4).toContain(extra);
    // a swap keeps everyone with one public address
    await post('/v4/networking/ipv4/assign', {
      assignments: [
        { address: a.ipv4[0], compute_id: b.id },
        { address: b.ipv4[0], compute_id: a.id },
      ],
    }).expect(200);
    expect((await get(`/v4/compute/instances/${a.id}`)).body.ipv4).toEqual([b.ipv4[0]]);
  });
  it('refuses an end state without a public IPv4 or with two private ones, changing nothing', async () => {
    const a = await instance();
    const b = await instance({ private_ip: true });
    const c = await instance({ private_ip: true });
    expectError(await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: a.ipv4[0], compute_id: b.id }] }), 400, 'assignments');
    expect((await get(`/v4/compute/instances/${a.id}`)).body.ipv4).toEqual(a.ipv4);
    expectError(await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: c.ipv4[1], compute_id: b.id }] }), 400, 'assignments');
    expect((await get(`/v4/compute/instances/${b.id}`)).body.ipv4).toEqual(b.ipv4);
  });
  it('validates the body, the region and the address kinds', async () => {
    const a = await instance();
    const w = (await post('/v4/compute/instances', { region: 'us-west', type: 'g6-nanode-1' }).expect(200)).body;
    expectError(await post('/v4/networking/ips/assign', { assignments: [], region: 'us-east' }), 400, 'assignments');
    expectError(await post('/v4/networking/ips/assign', { assignments: [{ address: a.ipv4[0], compute_id: a.id }] }), 400, 'region');
    expectError(await post('/v4/networking/ips/assign', { region: 'mars', assignments: [{ address: a.ipv4[0], compute_id: a.id }] }), 400, 'region');
    expectError(await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ compute_id: a.id }] }), 400, 'assignments.0.address');
    expectError(await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: a.ipv4[0] }] }), 400, 'assignments.0.compute_id');
    expectError(
      await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: '198.51.100.77', compute_id: a.id }] }),
      400,
      'assignments.0.address',
    );
    expectError(
      await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: w.ipv4[0], compute_id: a.id }] }),
      400,
      'assignments.0.address',
    );
    expectError(await post('/v4/networking/ipv4/assign', { assignments: [{ address: '2600:3c00::/64', compute_id: a.id }] }), 400, 'assignments.0.address');
    expectError(await post('/v4/networking/ipv4/assign', { assignments: 'x' }), 400, 'assignments');
  });
  it('assigning an IPv6 range re-targets it to the receiver', async () => {
    const a = await instance();
    const b = await instance();
    const r = (await post('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: a.id }).expect(200)).body;
    await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: `${r.range}/64`, compute_id: b.id }] }).expect(200);
    expect((await get(`/v4/networking/ipv6/ranges/${r.range}`).expect(200)).body.route_target).toBe(slaac(b));
    expectError(
      await post('/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: `${r.range}/56`, compute_id: b.id }] }),
      400,
      'assignments.0.address',
    );
  });
});

describe('share', () => {
  it('shares addresses of the region; an empty array clears', async () => {
    const a = await instance();
    const b = await instance();
    expect((await post('/v4/networking/ipv4/share', { compute_id: b.id, ips: [a.ipv4[0]] }).expect(200)).body).toEqual({});
    await post('/v4beta/networking/ips/share', { compute_id: b.id, ips: [] }).expect(200);
    expectError(await post('/v4/networking/ipv4/share', { compute_id: b.id }), 400, 'ips');
    expectError(await post('/v4/networking/ipv4/share', { ips: [] }), 400, 'compute_id');
    expectError(await post('/v4/networking/ipv4/share', { compute_id: b.id, ips: [b.ipv4[0]] }), 400, 'ips.0');
    expectError(await post('/v4/networking/ipv4/share', { compute_id: b.id, ips: ['198.51.100.9'] }), 400, 'ips.0');
    const w = (await post('/v4/compute/instances', { region: 'us-west', type: 'g6-nanode-1' }).expect(200)).body;
    expectError(await post('/v4/networking/ipv4/share', { compute_id: b.id, ips: [w.ipv4[0]] }), 400, 'ips.0');
  });
  it('shared ranges (beta share, sharing regions only) cannot be deleted until unshared', async () => {
    const a = await instance();
    const b = await instance();
    const r = (await post('/v4/networking/ipv6/ranges', { prefix_length: 56, compute_id: a.id }).expect(200)).body;
    expectError(await post('/v4/networking/ipv4/share', { compute_id: b.id, ips: [r.range] }), 400, 'ips.0');
    await post('/v4beta/networking/ips/share', { compute_id: b.id, ips: [r.range] }).expect(200);
    expectError(await del(`/v4/networking/ipv6/ranges/${r.range}`), 400);
    await post('/v4beta/networking/ips/share', { compute_id: b.id, ips: [] }).expect(200);
    expect((await del(`/v4/networking/ipv6/ranges/${r.range}`).expect(200)).body).toEqual({});
    await get(`/v4/networking/ipv6/ranges/${r.range}`).expect(404);
    const e1 = (await post('/v4/compute/instances', { region: 'eu-central', type: 'g6-nanode-1' }).expect(200)).body;
    const e2 = (await post('/v4/compute/instances', { region: 'eu-central', type: 'g6-nanode-1' }).expect(200)).body;
    const er = (await post('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: e1.id }).expect(200)).body;
    expectError(await post('/v4beta/networking/ips/share', { compute_id: e2.id, ips: [er.range] }), 400, 'ips.0');
  });
});

describe('IPv6 pools, ranges and VLANs', () => {
  it('lists pools', async () => {
    const pools = await get('/v4/networking/ipv6/pools').expect(200);
    expect(pools.body.results).toBeGreaterThan(0);
    await get('/v4/networking/ipv6/pools?page=0').expect(400);
  });
  it('creates ranges: prefix 56|64, exactly one of compute_id and route_target, one per region', async () => {
    const a = await instance();
    expectError(await post('/v4/networking/ipv6/ranges', { compute_id: a.id }), 400, 'prefix_length');
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 48, compute_id: a.id }), 400, 'prefix_length');
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 64 }), 400);
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: a.id, route_target: slaac(a) }), 400);
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 64, route_target: `${slaac(a)}/128` }), 400, 'route_target');
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 64, route_target: '2001:db8::1' }), 400, 'route_target');
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 64, route_target: 'nope' }), 400, 'route_target');
    const r = await post('/v4/networking/ipv6/ranges', { prefix_length: 64, route_target: slaac(a) }).expect(200);
    expect(r.body).toMatchObject({ prefix_length: 64, region: 'us-east', route_target: slaac(a) });
    const b = await instance();
    expectError(await post('/v4/networking/ipv6/ranges', { prefix_length: 56, compute_id: b.id }), 400, 'compute_id');
    expect((await get('/v4/networking/ipv6/ranges').expect(200)).body.results).toBe(1);
    const read = await token({ scopes: ['ips:read_only'] });
    await get(`/v4/networking/ipv6/ranges/${r.body.range}`, read).expect(200);
    expectError(await del(`/v4/networking/ipv6/ranges/${r.body.range}`, read), 403);
    await get('/v4/networking/ipv6/ranges/2001:db8::').expect(404);
  });
  it('lists VLANs (beta) with compute:read_only', async () => {
    const res = await get('/v4beta/networking/vlans').expect(200);
    expect(res.body).toMatchObject({ page: 1 });
    expectError(await get('/v4beta/networking/vlans', await token({ scopes: ['ips:read_only'] })), 403);
  });
  it('deleting an instance releases its ranges', async () => {
    const a = await instance();
    await post('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: a.id }).expect(200);
    await del(`/v4/compute/instances/${a.id}`).expect(200);
    expect((await get('/v4/networking/ipv6/ranges')).body.results).toBe(0);
  });
});

describe('garbage bodies on every document-3 write endpoint never give a 5xx', () => {
  it('random JSON values', async () => {
    const fc = (await import('fast-check')).default;
    const d = (await post('/v4/domains', { domain: 'fuzz.com', type: 'master', soa_email: 'a@fuzz.com' }).expect(200)).body.id;
    const rec = (await post(`/v4/domains/${d}/records`, { type: 'TXT', name: 'x', target: 'y' }).expect(200)).body.id;
    const fw = (await post('/v4/networking/firewalls', { label: 'fuzz', rules: { inbound_policy: 'DROP', outbound_policy: 'DROP' } }).expect(200)).body.id;
    const mc = (await post('/v4/monitor/clients', { label: 'fuzz' }).expect(200)).body.id;
    const targets: [string, string][] = [
      ['post', '/v4/domains'],
      ['post', '/v4/domains/import'],
      ['put', `/v4/domains/${d}`],
      ['post', `/v4/domains/${d}/clone`],
      ['post', `/v4/domains/${d}/records`],
      ['put', `/v4/domains/${d}/records/${rec}`],
      ['post', '/v4/monitor/clients'],
      ['put', `/v4/monitor/clients/${mc}`],
      ['put', '/v4/monitor/plan'],
      ['post', '/v4/networking/firewalls'],
      ['put', `/v4/networking/firewalls/${fw}`],
      ['post', `/v4/networking/firewalls/${fw}/devices`],
      ['put', `/v4/networking/firewalls/${fw}/rules`],
      ['post', '/v4/networking/ips'],
      ['post', '/v4/networking/ips/assign'],
      ['post', '/v4beta/networking/ips/share'],
      ['put', '/v4/networking/ips/45.33.0.1'],
      ['post', '/v4/networking/ipv4/assign'],
      ['post', '/v4/networking/ipv4/share'],
      ['post', '/v4/networking/ipv6/ranges'],
    ];
    const keys = [
      'domain',
      'type',
      'target',
      'name',
      'ttl_sec',
      'rules',
      'inbound',
      'inbound_policy',
      'outbound_policy',
      'label',
      'ports',
      'addresses',
      'ipv4',
      'devices',
      'computes',
      'id',
      'compute_id',
      'public',
      'assignments',
      'address',
      'region',
      'ips',
      'prefix_length',
      'route_target',
      'rdns',
      'monitor_subscription',
      'priority',
      'service',
      'protocol',
      'tag',
      'status',
      'tags',
      'master_ips',
      'soa_email',
    ];
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...keys), tie('v'), { maxKeys: 5 }),
      ),
    })).v;
    const body = fc.oneof(value, fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 8 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async ([method, path], b) => {
        const res = await request(emulator.server())[method as 'post' | 'put'](path).set(AUTH).set('Content-Type', 'application/json').send(JSON.stringify(b));
        expect(res.status, `${method} ${path} ${JSON.stringify(b)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }),
      { numRuns: 400, seed: 42 },
    );
  });
});
