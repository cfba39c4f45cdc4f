// Emulator self-tests, document 2 "Compute instances": every endpoint, the documented behaviour and each rejection.
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOKEN, getStore } from '../../emulator/server.js';
import { expectError, useEmulator, withTokens } from './supertest-helpers.js';
import { listVlans } from '../../emulator/areas/compute/interfaces.js';
import { passwordIsStrong } from '../../emulator/areas/compute/validation.js';

const STRONG = 'Str0ng!Pass';
const I = '/v4/compute/instances';

const emulator = useEmulator();
const { get, post, put, del, token } = withTokens(emulator);
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

async function advance(seconds: number): Promise<void> {
  expect((await post('/__control/clock', { advance_seconds: seconds })).status).toBe(200);
}

async function create(body: object = {}, tok = DEFAULT_TOKEN): Promise<Record<string, any>> {
  const res = await post(I, { region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass: STRONG, ...body }, tok);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const configsOf = async (id: number) => (await get(`${I}/${id}/configs`)).body.data as Record<string, any>[];
const diskIds = async (id: number) => {
  const cfgs = await configsOf(id);
  return cfgs.flatMap((c) => Object.values(c.devices).filter(Boolean).map((d: any) => d.disk_id)).filter((x) => x != null) as number[];
};

describe('instances list and view', () => {
  it('lists the seeded instance, paginated with bounds', async () => {
    const res = await get(I);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pages: 1, results: 1 });
    expect(res.body.data[0].label).toBe('seed-web-1');
    expect((await get(`${I}?page_size=25`)).status).toBe(200);
    expect((await get(`${I}?page_size=100`)).status).toBe(200);
    expectError(await get(`${I}?page_size=24`), 400, 'page_size');
    expectError(await get(`${I}?page_size=101`), 400, 'page_size');
    expectError(await get(`${I}?page=0`), 400, 'page');
  });

  it('views an instance; unknown or malformed ids are 404', async () => {
    const inst = await create();
    const res = await get(`${I}/${inst.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(inst);
    expectError(await get(`${I}/99999`), 404, null);
    expectError(await get(`${I}/abc`), 404, null);
  });

  it('restricted users see only granted instances; read_only cannot write', async () => {
    const inst = await create();
    const none = await token({ restricted: true });
    expect((await get(I, none)).body.results).toBe(0);
    expectError(await get(`${I}/${inst.id}`, none), 404);
    const ro = await token({ restricted: true, grants: { entities: { compute: { [inst.id]: 'read_only' } } } });
    expect((await get(I, ro)).body.results).toBe(1);
    expect((await get(`${I}/${inst.id}`, ro)).status).toBe(200);
    expectError(await put(`${I}/${inst.id}`, { label: 'new-label' }, ro), 403);
    expectError(await del(`${I}/${inst.id}`, ro), 403);
  });

  it('needs the compute scopes', async () => {
    const t = await token({ scopes: ['compute:read_only'] });
    expect((await get(I, t)).status).toBe(200);
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1' }, t), 403);
    expectError(await request(emulator.server()).get(I), 401);
  });
});

describe('instance create', () => {
  it('from an image: running, one public IPv4, SLAAC IPv6, default label, specs, alerts, two disks', async () => {
    const inst = await create({ type: 'g6-standard-2' });
    expect(inst.status).toBe('running');
    expect(inst.ipv4).toHaveLength(1);
    expect(inst.ipv6).toMatch(/^2600:3c00::f03c:91ff:fe/);
    expect(inst.label).toBe(`us-east-${inst.id}`);
    expect(inst.hypervisor).toBe('kvm');
    expect(inst.image).toBe('compute/debian12');
    expect(inst.specs).toEqual({ disk: 81920, memory: 4096, vcpus: 2, transfer: 4000 });
    expect(inst.alerts.cpu).toBe(180);
    expect(inst.backups.schedule).toHaveProperty('day');
    expect(inst.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const cfgs = await configsOf(inst.id);
    expect(cfgs).toHaveLength(1);
    expect(cfgs[0]!.devices.sda.disk_id).toBeTypeOf('number');
    expect(cfgs[0]!.devices.sdb.disk_id).toBeTypeOf('number');
    // the only profile is the booted one
    expect((await post(`${I}/${inst.id}/boot`, {})).status).toBe(200);
  });

  it('swap_size 0 gives a single disk; booted false stays offline; private_ip adds a private address', async () => {
    const a = await create({ swap_size: 0, booted: false, private_ip: true });
    expect(a.status).toBe('offline');
    expect(a.ipv4).toHaveLength(2);
    expect(a.ipv4[1]).toMatch(/^192\.168\./);
    expect(await diskIds(a.id)).toHaveLength(1);
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass: STRONG, swap_size: -1 }), 400, 'swap_size');
  });

  it('without image or backup: offline with no profiles, even with booted true', async () => {
    const res = await post(I, { region: 'us-west', type: 'g6-nanode-1', booted: true });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('offline');
    expect(res.body.image).toBeNull();
    expect(await configsOf(res.body.id)).toHaveLength(0);
    expectError(await post(`${I}/${res.body.id}/boot`, {}), 400, null);
  });

  it('requires region and type, and known ones', async () => {
    expectError(await post(I, { type: 'g6-nanode-1' }), 400, 'region');
    expectError(await post(I, { region: 'mars-1', type: 'g6-nanode-1' }), 400, 'region');
    expectError(await post(I, { region: 'us-east' }), 400, 'type');
    expectError(await post(I, { region: 'us-east', type: 'g1-huge' }), 400, 'type');
    expectError(await post(I, [1, 2]), 400, null);
    expectError(await post(I, { region: 5, type: 'g6-nanode-1' }), 400, 'region');
  });

  it('root_pass: required with an image, 7..128 chars, strength requirement', async () => {
    const base = { region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12' };
    expectError(await post(I, base), 400, 'root_pass');
    expectError(await post(I, { ...base, root_pass: 'Ab1!xyz'.slice(0, 6) }), 400, 'root_pass');
    expect((await post(I, { ...base, root_pass: 'Ab1!xyz' })).status).toBe(200);
    expect((await post(I, { ...base, root_pass: 'Ab1!'.padEnd(128, 'x') })).status).toBe(200);
    expectError(await post(I, { ...base, root_pass: 'Ab1!'.padEnd(129, 'x') }), 400, 'root_pass');
    expectError(await post(I, { ...base, root_pass: 'aaaaaaaaaa' }), 400, 'root_pass', /does not meet the strength requirement/);
    expect(passwordIsStrong('abcdefG1')).toBe(true);
    expect(passwordIsStrong('abcdefgh1')).toBe(false);
  });

  it('image: must exist, be available, be visible; exclusive with backup_id', async () => {
    const base = { region: 'us-east', type: 'g6-nanode-1', root_pass: STRONG };
    expectError(await post(I, { ...base, image: 'compute/nope' }), 400, 'image');
    expectError(await post(I, { ...base, image: 'compute/debian12', backup_id: 1 }), 400, 'backup_id');
    const up = await post('/v4/images/upload', { label: 'pending', region: 'us-east' });
    expectError(await post(I, { ...base, image: up.body.id }), 400, 'image', /available/);
    // the seeded private image deploys for the account, not for a restricted user without a grant
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    expect((await post(I, { ...base, image: priv.id })).status).toBe(200);
    const r = await token({ restricted: true, grants: { global: { add_computes: true } } });
    expectError(await post(I, { ...base, image: priv.id }, r), 400, 'image');
  });

  it('script_id: needs an image, not with a backup or a private image', async () => {
    const base = { region: 'us-east', type: 'g6-nanode-1', root_pass: STRONG };
    expect((await post(I, { ...base, image: 'compute/debian12', script_id: 7, script_data: { a: 1 } })).status).toBe(200);
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1', script_id: 7 }), 400, 'image');
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    expectError(await post(I, { ...base, image: priv.id, script_id: 7 }), 400, 'script_id');
    expectError(await post(I, { ...base, image: 'compute/debian12', script_id: 7, script_data: 'x' }), 400, 'script_data');
    expectError(await post(I, { ...base, image: 'compute/debian12', authorized_keys: [5] }), 400, 'authorized_keys.0');
    expectError(await post(I, { ...base, image: 'compute/debian12', authorized_users: 'bob' }), 400, 'authorized_users');
  });

  it('label rules: 3..64, alphanumeric ends, allowed characters, no doubled separators, unique', async () => {
    const ok = async (label: string) => expect((await post(I, { region: 'us-east', type: 'g6-nanode-1', label })).status).toBe(200);
    const bad = async (label: unknown) => expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1', label }), 400, 'label');
    await ok('abc');
    await ok('a'.repeat(64));
    await ok('a_b.c-d9');
    await bad('ab');
    await bad('b'.repeat(65));
    await bad('-abc');
    await bad('abc.');
    await bad('a--b');
    await bad('a-_b');
    await bad('a b c');
    await bad('abc'); // taken
    await bad(42);
  });

  it('needs add_computes; tags only for unrestricted users', async () => {
    const noGrant = await token({ restricted: true });
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1' }, noGrant), 403);
    const grant = await token({ restricted: true, grants: { global: { add_computes: true } } });
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1', tags: ['web'] }, grant), 403, 'tags');
    const made = await post(I, { region: 'us-east', type: 'g6-nanode-1' }, grant);
    expect(made.status).toBe(200);
    // the creator gets read_write on what it created
    expect((await put(`${I}/${made.body.id}`, { group: 'g' }, grant)).status).toBe(200);
    const tagged = await create({ tags: ['web', 'web', 'prod'] });
    expect(tagged.tags).toEqual(['web', 'prod']);
    expectError(await post(I, { region: 'us-east', type: 'g6-nanode-1', tags: ['ab'] }), 400, 'tags.0');
  });

  it('from a backup: same region, big enough type, read_write on the source, copies disks and configs', async () => {
    const src = await create({ type: 'g6-standard-1' });
    const snap = await post(`${I}/${src.id}/backups`, { label: 'snap' });
    expect(snap.status).toBe(200);
    const base = { region: 'us-east', type: 'g6-standard-1', backup_id: snap.body.id };
    expectError(await post(I, { ...base, region: 'us-west' }), 400, 'region');
    expectError(await post(I, { ...base, type: 'g6-nanode-1' }), 400, 'type');
    expectError(await post(I, { ...base, backup_id: 999999 }), 400, 'backup_id');
    const ro = await token({ restricted: true, grants: { global: { add_computes: true }, entities: { compute: { [src.id]: 'read_only' } } } });
    expectError(await post(I, base, ro), 403, 'backup_id');
    const res = await post(I, base);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('running');
    const cfgs = await configsOf(res.body.id);
    expect(cfgs.map((c) => c.label)).toEqual((await configsOf(src.id)).map((c) => c.label));
    expect(await diskIds(res.body.id)).toHaveLength(2);
  });
});

describe('interfaces and VLANs', () => {
  const base = { region: 'us-east', type: 'g6-nanode-1' };
  it('accepts public + VLAN interfaces and lists the VLAN with its instance', async () => {
    const res = await post(I, { ...base, interfaces: [{ purpose: 'public', label: '', ipam_address: null }, { purpose: 'vlan', label: 'backend-1', ipam_address: '10.0.0.1/24' }] });
    expect(res.status).toBe(200);
    const vlans = listVlans(getStore(emulator.app));
    expect(vlans).toEqual([expect.objectContaining({ label: 'backend-1', region: 'us-east', computes: [res.body.id] })]);
    expect((await post(I, { ...base, interfaces: [] })).status).toBe(200);
  });

  it('rejects each broken interface rule', async () => {
    const bad = async (interfaces: unknown, field: string, region = 'us-east') =>
      expectError(await post(I, { ...base, region, interfaces }), 400, field);
    await bad([{ purpose: 'public' }, { purpose: 'vlan', label: 'a' }, { purpose: 'vlan', label: 'b' }, { purpose: 'vlan', label: 'c' }], 'interfaces');
    await bad([{ purpose: 'private' }], 'interfaces.0.purpose');
    await bad([{}], 'interfaces.0.purpose');
    await bad(['public'], 'interfaces.0');
    await bad([{ purpose: 'public' }, { purpose: 'public' }], 'interfaces.1.purpose');
    await bad([{ purpose: 'vlan' }], 'interfaces.0.label');
    await bad([{ purpose: 'vlan', label: '' }], 'interfaces.0.label');
    await bad([{ purpose: 'vlan', label: 'x'.repeat(65) }], 'interfaces.0.label');
    await bad([{ purpose: 'vlan', label: 'under_score' }], 'interfaces.0.label');
    await bad([{ purpose: 'public', label: 'x' }], 'interfaces.0.label');
    await bad([{ purpose: 'public', ipam_address: '10.0.0.1/24' }], 'interfaces.0.ipam_address');
    await bad([{ purpose: 'vlan', label: 'a', ipam_address: '10.0.0.1' }], 'interfaces.0.ipam_address');
    await bad([{ purpose: 'vlan', label: 'a', ipam_address: 'nonsense/24' }], 'interfaces.0.ipam_address');
    await bad([{ purpose: 'vlan', label: 'a' }, { purpose: 'vlan', label: 'a' }], 'interfaces.1.label');
    await bad([{ purpose: 'vlan', label: 'a', ipam_address: '10.0.0.1/24' }, { purpose: 'vlan', label: 'b', ipam_address: '10.0.0.1/24' }], 'interfaces.1.ipam_address');
    await bad([{ purpose: 'vlan', label: 'a' }], 'interfaces.0.purpose', 'us-west');
    expect(listVlans(getStore(emulator.app))).toHaveLength(0);
    expect((await post(I, { ...base, interfaces: [{ purpose: 'vlan', label: 'x'.repeat(64) }] })).status).toBe(200);
  });

  it('at most 10 VLANs per region', async () => {
    for (let n = 0; n < 10; n += 2) {
      expect((await post(I, { ...base, interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: `v${n}` }, { purpose: 'vlan', label: `v${n + 1}` }] })).status).toBe(200);
    }
    expectError(await post(I, { ...base, interfaces: [{ purpose: 'vlan', label: 'v10' }] }), 400, 'interfaces.0.label');
    // an existing VLAN can still be joined, and another region has its own 10
    expect((await post(I, { ...base, interfaces: [{ purpose: 'vlan', label: 'v3' }] })).status).toBe(200);
    expect((await post(I, { ...base, region: 'eu-central', interfaces: [{ purpose: 'vlan', label: 'v10' }] })).status).toBe(200);
    expect(listVlans(getStore(emulator.app)).find((v) => v.label === 'v3')!.computes).toHaveLength(2);
  });

  it('VLAN membership follows the booted profile and instance deletion', async () => {
    const inst = await create({ interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'net-a' }] });
    const cfg = await post(`${I}/${inst.id}/configs`, { label: 'b', devices: {}, interfaces: [{ purpose: 'vlan', label: 'net-b' }] });
    expect(cfg.status).toBe(200);
    const vl = () => Object.fromEntries(listVlans(getStore(emulator.app)).map((v) => [v.label, v.computes]));
    expect(vl()).toEqual({ 'net-a': [inst.id], 'net-b': [] });
    expect((await post(`${I}/${inst.id}/boot`, { config_id: cfg.body.id })).status).toBe(200);
    expect(vl()).toEqual({ 'net-a': [], 'net-b': [inst.id] });
    expect((await del(`${I}/${inst.id}`)).status).toBe(200);
    expect(vl()).toEqual({ 'net-a': [], 'net-b': [] });
  });
});

describe('instance update and delete', () => {
  it('updates label, alerts, backups schedule, group, tags, watchdog', async () => {
    const inst = await create();
    const res = await put(`${I}/${inst.id}`, {
      label: 'renamed-1', alerts: { cpu: 100, io: 0, network_in: 5, network_out: 5, transfer_quota: 100 },
      backups: { schedule: { day: 'Monday', window: 'W10' } }, group: 'grp', tags: ['alpha'], watchdog_enabled: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: 'renamed-1', group: 'grp', tags: ['alpha'], watchdog_enabled: false, backups: { schedule: { day: 'Monday', window: 'W10' } } });
    expect(res.body.alerts).toEqual({ cpu: 100, io: 0, network_in: 5, network_out: 5, transfer_quota: 100 });
    expect((await put(`${I}/${inst.id}`, {})).status).toBe(200);
    expect((await put(`${I}/${inst.id}`, { label: 'renamed-1' })).status).toBe(200); // its own label
  });

  it('rejects invalid update members', async () => {
    const inst = await create(); // nanode: 1 vcpu → cpu 0..100
    const bad = async (body: unknown, field: string | null) => expectError(await put(`${I}/${inst.id}`, body), 400, field);
    await bad({ alerts: { cpu: 101 } }, 'alerts.cpu');
    await bad({ alerts: { cpu: -1 } }, 'alerts.cpu');
    await bad({ alerts: { transfer_quota: 101 } }, 'alerts.transfer_quota');
    await bad({ alerts: { io: 1.5 } }, 'alerts.io');
    await bad({ alerts: 'x' }, 'alerts');
    await bad({ backups: { schedule: { day: 'Someday' } } }, 'backups.schedule.day');
    await bad({ backups: { schedule: { window: 'W1' } } }, 'backups.schedule.window');
    await bad({ label: 'x' }, 'label');
    await bad({ label: 'seed-web-1' }, 'label');
    await bad({ watchdog_enabled: 'yes' }, 'watchdog_enabled');
    await bad({ tags: 'web' }, 'tags');
    await bad(['x'], null);
    const r = await token({ restricted: true, grants: { entities: { compute: { [inst.id]: 'read_write' } } } });
    expectError(await put(`${I}/${inst.id}`, { tags: ['abc'] }, r), 403, 'tags');
  });

  it('delete removes the instance, its profiles and backups, and detaches volumes', async () => {
    const seeded = (await get(I)).body.data[0];
    expect((await get(`${I}/${seeded.id}/volumes`)).body.results).toBe(1);
    const snap = await post(`${I}/${seeded.id}/backups`, { label: 's' });
    expect((await del(`${I}/${seeded.id}`)).status).toBe(200);
    expectError(await get(`${I}/${seeded.id}`), 404);
    expectError(await get(`${I}/${seeded.id}/configs`), 404);
    expectError(await post(I, { region: 'us-east', type: 'g6-standard-2', backup_id: snap.body.id }), 400, 'backup_id');
    const { listVolumes } = await import('../../emulator/areas/compute/model.js');
    expect(listVolumes(getStore(emulator.app)).every((v) => v.compute_id === null)).toBe(true);
    expectError(await del(`${I}/${seeded.id}`), 404);
  });
});

describe('backups', () => {
  it('enable, snapshot (replaces the previous), view, automatic daily backups, cancel deletes all', async () => {
    const inst = await create();
    expect((await get(`${I}/${inst.id}/backups`)).body).toEqual({ automatic: [], snapshot: { current: null, in_progress: null } });
    expect((await post(`${I}/${inst.id}/backups/enable`)).status).toBe(200);
    expect((await get(`${I}/${inst.id}`)).body.backups.enabled).toBe(true);
    const s1 = await post(`${I}/${inst.id}/backups`, { label: 'first' });
    expect(s1.status).toBe(200);
    expect(s1.body).toMatchObject({ type: 'snapshot', label: 'first', status: 'successful' });
    expect((await get(`${I}/${inst.id}/backups/${s1.body.id}`)).body.id).toBe(s1.body.id);
    const s2 = await post(`${I}/${inst.id}/backups`, { label: 'second' });
    expectError(await get(`${I}/${inst.id}/backups/${s1.body.id}`), 404);
    expect((await get(`${I}/${inst.id}/backups`)).body.snapshot.current.id).toBe(s2.body.id);
    await advance(86_400 + 1);
    expect((await get(`${I}/${inst.id}/backups`)).body.automatic).toHaveLength(1);
    expect((await post(`${I}/${inst.id}/backups/cancel`)).status).toBe(200);
    expect((await get(`${I}/${inst.id}/backups`)).body).toEqual({ automatic: [], snapshot: { current: null, in_progress: null } });
    expectError(await get(`${I}/${inst.id}/backups/${s2.body.id}`), 404);
    expect((await get(`${I}/${inst.id}`)).body.backups.enabled).toBe(false);
    await advance(86_400 * 2);
    expect((await get(`${I}/${inst.id}/backups`)).body.automatic).toHaveLength(0);
  });

  it('snapshot label is required, 1..255 chars', async () => {
    const inst = await create();
    expectError(await post(`${I}/${inst.id}/backups`, {}), 400, 'label');
    expectError(await post(`${I}/${inst.id}/backups`, { label: '' }), 400, 'label');
    expectError(await post(`${I}/${inst.id}/backups`, { label: 'x'.repeat(256) }), 400, 'label');
    expect((await post(`${I}/${inst.id}/backups`, { label: 'x' })).status).toBe(200);
    expect((await post(`${I}/${inst.id}/backups`, { label: 'x'.repeat(255) })).status).toBe(200);
    expectError(await get(`${I}/${inst.id}/backups/abc`), 404);
    expectError(await get(`${I}/${inst.id}/backups/999999`), 404);
  });

  it('backups of another instance are not found under this one', async () => {
    const a = await create();
    const b = await create();
    const s = await post(`${I}/${a.id}/backups`, { label: 'a' });
    expectError(await get(`${I}/${b.id}/backups/${s.body.id}`), 404);
    expectError(await post(`${I}/${b.id}/backups/${s.body.id}/restore`, { compute_id: b.id }), 404);
  });

  it('restore: compute_id required; overwrite replaces disks and configs; insufficient space without overwrite', async () => {
    const src = await create();
    await post(`${I}/${src.id}/configs`, { label: 'second', devices: {} });
    const snap = (await post(`${I}/${src.id}/backups`, { label: 's' })).body;
    const target = await create();
    const path = `${I}/${src.id}/backups/${snap.id}/restore`;
    expectError(await post(path, {}), 400, 'compute_id');
    expectError(await post(path, { compute_id: 'x' }), 400, 'compute_id');
    expectError(await post(path, { compute_id: 999999 }), 400, 'compute_id');
    expectError(await post(path, { compute_id: target.id, overwrite: 'yes' }), 400, 'overwrite');
    expectError(await post(path, { compute_id: target.id }), 400, 'overwrite', /insufficient space/i);
    expectError(await post(path, { compute_id: target.id, overwrite: false }), 400, undefined, /insufficient space/i);
    const before = await diskIds(target.id);
    expect((await post(path, { compute_id: target.id, overwrite: true })).status).toBe(200);
    const cfgs = await configsOf(target.id);
    expect(cfgs.map((c) => c.label)).toEqual(['My Debian 12 Profile', 'second']);
    const after = await diskIds(target.id);
    expect(after.some((d) => before.includes(d))).toBe(false);
    // an empty target with room takes the backup without overwrite
    const empty = (await post(I, { region: 'us-east', type: 'g6-nanode-1' })).body;
    expect((await post(path, { compute_id: empty.id })).status).toBe(200);
    expect(await configsOf(empty.id)).toHaveLength(2);
  });
});

describe('boot, shutdown, rescue', () => {
  it('boot rules: the only profile, the last booted, an error when several and none booted', async () => {
    const inst = await create({ booted: false });
    const [first] = await configsOf(inst.id);
    expect((await post(`${I}/${inst.id}/boot`)).status).toBe(200);
    expect((await get(`${I}/${inst.id}`)).body.status).toBe('running');
    const second = (await post(`${I}/${inst.id}/configs`, { label: 'two', devices: {} })).body;
    expect((await post(`${I}/${inst.id}/boot`)).status).toBe(200); // last booted: first
    expect((await post(`${I}/${inst.id}/boot`, { config_id: second.id })).status).toBe(200);
    expect((await del(`${I}/${inst.id}/configs/${second.id}`)).status).toBe(200);
    const third = (await post(`${I}/${inst.id}/configs`, { label: 'three', devices: {} })).body;
    expectError(await post(`${I}/${inst.id}/boot`, {}), 400, 'config_id'); // last booted was deleted
    expectError(await post(`${I}/${inst.id}/boot`, { config_id: 999999 }), 400, 'config_id');
    expectError(await post(`${I}/${inst.id}/boot`, { config_id: 'x' }), 400, 'config_id');
    expect((await post(`${I}/${inst.id}/boot`, { config_id: third.id })).status).toBe(200);
    expect((await post(`${I}/${inst.id}/boot`, {})).status).toBe(200);
    expect(first).toBeDefined();
    // never booted with several profiles
    const fresh = await create({ booted: false });
    await post(`${I}/${fresh.id}/configs`, { label: 'other', devices: {} });
    expectError(await post(`${I}/${fresh.id}/boot`), 400, 'config_id');
  });

  it('shutdown makes the instance offline', async () => {
    const inst = await create();
    expect((await post(`${I}/${inst.id}/shutdown`)).status).toBe(200);
    expect((await get(`${I}/${inst.id}`)).body.status).toBe('offline');
    expectError(await post(`${I}/999999/shutdown`), 404);
  });

  it('rescue takes sda..sdg; sdh is reserved', async () => {
    const inst = await create();
    const [disk] = await diskIds(inst.id);
    expect((await post(`${I}/${inst.id}/rescue`, { devices: { sda: { disk_id: disk }, sdg: null } })).status).toBe(200);
    expect((await post(`${I}/${inst.id}/rescue`, {})).status).toBe(200);
    expectError(await post(`${I}/${inst.id}/rescue`, { devices: { sdh: { disk_id: disk } } }), 400, 'devices.sdh', /reserved/);
    expectError(await post(`${I}/${inst.id}/rescue`, { devices: { sdh: null } }), 400, 'devices.sdh');
    expectError(await post(`${I}/${inst.id}/rescue`, { devices: { sda: { disk_id: 999999 } } }), 400, 'devices.sda.disk_id');
    expectError(await post(`${I}/${inst.id}/rescue`, { devices: 'sda' }), 400, 'devices');
  });
});

describe('configuration profiles', () => {
  it('create with defaults, view, update, list, delete', async () => {
    const inst = await create();
    const [disk] = await diskIds(inst.id);
    const res = await post(`${I}/${inst.id}/configs`, { label: 'custom', devices: { sda: { disk_id: disk }, sdc: { volume_id: null, disk_id: null } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      label: 'custom', kernel: 'chs-latest-64bit', root_device: '/dev/sda', run_level: 'default', virt_mode: 'paravirt',
      memory_limit: 1024, helpers: { devtmpfs_automount: false }, interfaces: [], comments: null,
    });
    expect(res.body.devices.sda).toEqual({ disk_id: disk, volume_id: null });
    expect(res.body.devices.sdc).toBeNull();
    const path = `${I}/${inst.id}/configs/${res.body.id}`;
    expect((await get(path)).body).toEqual(res.body);
    const up = await put(path, { comments: 'c', helpers: { network: false }, run_level: 'single', virt_mode: 'fullvirt', root_device: '/dev/sdb', kernel: 'chs-grub2', memory_limit: 512 });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ label: 'custom', comments: 'c', run_level: 'single', virt_mode: 'fullvirt', root_device: '/dev/sdb', kernel: 'chs-grub2', memory_limit: 512 });
    expect(up.body.helpers.network).toBe(false);
    expect((await put(path, {})).status).toBe(200);
    expect((await put(path, { root_device: 'bogus' })).body.root_device).toBe('/dev/sda');
    const list = await get(`${I}/${inst.id}/configs?page_size=25`);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 2 });
    expectError(await get(`${I}/${inst.id}/configs?page_size=101`), 400, 'page_size');
    expect((await del(path)).status).toBe(200);
    expectError(await get(path), 404);
    expectError(await del(path), 404);
    expectError(await put(path, {}), 404);
  });

  it('rejects invalid profile bodies', async () => {
    const inst = await create();
    const other = await create();
    const [otherDisk] = await diskIds(other.id);
    const [disk] = await diskIds(inst.id);
    const path = `${I}/${inst.id}/configs`;
    const bad = async (body: unknown, field: string | null) => expectError(await post(path, body), 400, field);
    await bad({ devices: {} }, 'label');
    await bad({ label: '', devices: {} }, 'label');
    await bad({ label: 'x'.repeat(49), devices: {} }, 'label');
    await bad({ label: 'x' }, 'devices');
    await bad({ label: 'x', devices: [] }, 'devices');
    await bad({ label: 'x', devices: { sdz: null } }, 'devices.sdz');
    await bad({ label: 'x', devices: { sda: 5 } }, 'devices.sda');
    await bad({ label: 'x', devices: { sda: { disk_id: disk, volume_id: 1 } } }, 'devices.sda');
    await bad({ label: 'x', devices: { sda: { disk_id: otherDisk } } }, 'devices.sda.disk_id');
    await bad({ label: 'x', devices: { sda: { volume_id: 999999 } } }, 'devices.sda.volume_id');
    await bad({ label: 'x', devices: { sde: { disk_id: disk } }, virt_mode: 'fullvirt' }, 'devices.sde');
    await bad({ label: 'x', devices: { sdh: { disk_id: disk } }, virt_mode: 'fullvirt' }, 'devices.sdh');
    await bad({ label: 'x', devices: {}, virt_mode: 'hvm' }, 'virt_mode');
    await bad({ label: 'x', devices: {}, run_level: 'multi' }, 'run_level');
    await bad({ label: 'x', devices: {}, kernel: 'chs-none' }, 'kernel');
    await bad({ label: 'x', devices: {}, memory_limit: 1025 }, 'memory_limit');
    await bad({ label: 'x', devices: {}, memory_limit: -1 }, 'memory_limit');
    await bad({ label: 'x', devices: {}, helpers: { distro: 'yes' } }, 'helpers.distro');
    await bad({ label: 'x', devices: {}, comments: 5 }, 'comments');
    await bad({ label: 'x', devices: {}, interfaces: [{ purpose: 'vlan' }] }, 'interfaces.0.label');
    await bad('x', null);
    // bounds accepted
    expect((await post(path, { label: 'x', devices: {}, memory_limit: 0 })).status).toBe(200);
    expect((await post(path, { label: 'x'.repeat(48), devices: { sdd: { disk_id: disk }, sde: { disk_id: disk } }, virt_mode: 'paravirt' })).status).toBe(200);
    expect((await post(path, { label: 'fv', devices: { sdd: { disk_id: disk }, sde: null }, virt_mode: 'fullvirt' })).status).toBe(200);
    // a seeded volume of the same region, unattached
    const { listVolumes } = await import('../../emulator/areas/compute/model.js');
    const vol = listVolumes(getStore(emulator.app)).find((v) => v.region === 'us-east' && v.compute_id === null)!;
    expect((await post(path, { label: 'vol', devices: { sdb: { volume_id: vol.id } } })).status).toBe(200);
    const attached = listVolumes(getStore(emulator.app)).find((v) => v.compute_id !== null)!;
    await bad({ label: 'x', devices: { sdb: { volume_id: attached.id } } }, 'devices.sdb.volume_id');
    // switching a profile with sde to fullvirt is refused
    const withSde = (await configsOf(inst.id)).find((c) => c.devices.sde)!;
    expectError(await put(`${path}/${withSde.id}`, { virt_mode: 'fullvirt' }), 400, 'virt_mode');
    expectError(await put(`${path}/${withSde.id}`, { label: 'x'.repeat(49) }), 400, 'label');
    expectError(await get(`${path}/abc`), 404);
  });
});

describe('resize', () => {
  it('changes type and specs, growing the data disk; validates the type', async () => {
    const inst = await create();
    const path = `${I}/${inst.id}/resize`;
    expectError(await post(path, {}), 400, 'type');
    expectError(await post(path, { type: 'g9-none' }), 400, 'type');
    expectError(await post(path, { type: 'g6-standard-1', allow_auto_disk_resize: 'no' }), 400, 'allow_auto_disk_resize');
    expect((await post(path, { type: 'g6-standard-1' })).status).toBe(200);
    const after = (await get(`${I}/${inst.id}`)).body;
    expect(after.type).toBe('g6-standard-1');
    expect(after.specs.disk).toBe(51200);
    // disks now fill the bigger type, so a downsize is refused
    expectError(await post(path, { type: 'g6-nanode-1' }), 400, 'type', /delete or shrink/);
  });

  it('without auto disk resize a later downsize fits', async () => {
    const inst = await create();
    expect((await post(`${I}/${inst.id}/resize`, { type: 'g6-standard-1', allow_auto_disk_resize: false })).status).toBe(200);
    expect((await post(`${I}/${inst.id}/resize`, { type: 'g6-nanode-1' })).status).toBe(200);
  });

  it('refused with a past-due balance and during running actions', async () => {
    const pastDue = await buildServer();
    await pastDue.ready();
    getStore(pastDue).pastDueBalance = true;
    const seeded = (await request(pastDue.server).get(I).set(bearer(DEFAULT_TOKEN))).body.data[0];
    const res = await request(pastDue.server).post(`${I}/${seeded.id}/resize`).set(bearer(DEFAULT_TOKEN)).send({ type: 'g6-standard-4' });
    expectError(res, 400, null, /outstanding balance/);
    await pastDue.close();
    const inst = await create();
    expect((await post(`${I}/${inst.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })).status).toBe(200);
    expectError(await post(`${I}/${inst.id}/resize`, { type: 'g6-standard-1' }), 400, null, /running or queued/);
    expectError(await post(`${I}/${inst.id}/shutdown`), 400, null, /running or queued/);
    await advance(601);
    expect((await post(`${I}/${inst.id}/resize`, { type: 'g6-standard-1' })).status).toBe(200);
  });
});

describe('clone', () => {
  it('to a new instance: region and type required, label rules, tags copied, provisioning for 10 minutes', async () => {
    const src = await create({ tags: ['web'] });
    const path = `${I}/${src.id}/clone`;
    expectError(await post(path, { type: 'g6-nanode-1' }), 400, 'region');
    expectError(await post(path, { region: 'us-east' }), 400, 'type');
    expectError(await post(path, { region: 'us-east', type: 'g6-nanode-1', label: 'x' }), 400, 'label');
    expectError(await post(path, { region: 'us-east', type: 'g6-nanode-1', configs: [999999] }), 400, 'configs.0');
    expectError(await post(path, { region: 'us-east', type: 'g6-nanode-1', disks: ['a'] }), 400, 'disks.0');
    const res = await post(path, { region: 'us-west', type: 'g6-nanode-1', label: 'the-clone', group: 'g' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: 'the-clone', region: 'us-west', tags: ['web'], status: 'provisioning', group: 'g' });
    expect(await configsOf(res.body.id)).toHaveLength(1);
    expect(await diskIds(res.body.id)).toHaveLength(2);
    await advance(601);
    expect((await get(`${I}/${res.body.id}`)).body.status).toBe('offline');
    const dflt = await post(path, { region: 'us-east', type: 'g6-nanode-1' });
    expect(dflt.body.label).toBe(`us-east-${dflt.body.id}`);
  });

  it('configs and disks select what is cloned', async () => {
    const src = await create();
    const disks = await diskIds(src.id);
    const path = `${I}/${src.id}/clone`;
    const none = await post(path, { region: 'us-east', type: 'g6-nanode-1', configs: [] });
    expect(await configsOf(none.body.id)).toHaveLength(0);
    const extra = await post(path, { region: 'us-east', type: 'g6-nanode-1', configs: [], disks: [disks[0]] });
    expect(extra.status).toBe(200);
    expectError(await post(path, { region: 'us-east', type: 'g6-nanode-1', disks: [999999] }), 400, 'disks.0');
  });

  it('to an existing instance: region, type, label not allowed; needs room', async () => {
    const src = await create();
    const target = (await post(I, { region: 'us-east', type: 'g6-standard-1' })).body;
    const full = await create();
    const path = `${I}/${src.id}/clone`;
    expectError(await post(path, { compute_id: target.id, region: 'us-east' }), 400, 'region');
    expectError(await post(path, { compute_id: target.id, type: 'g6-nanode-1' }), 400, 'type');
    expectError(await post(path, { compute_id: target.id, label: 'abc' }), 400, 'label');
    expectError(await post(path, { compute_id: 999999 }), 400, 'compute_id');
    expectError(await post(path, { compute_id: src.id }), 400, 'compute_id');
    expectError(await post(path, { compute_id: full.id }), 400, 'compute_id');
    const res = await post(path, { compute_id: target.id });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(target.id);
    expect(await configsOf(target.id)).toHaveLength(1);
  });

  it('needs add_computes', async () => {
    const src = await create();
    const t = await token({ restricted: true, grants: { entities: { compute: { [src.id]: 'read_write' } } } });
    expectError(await post(`${I}/${src.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' }, t), 403);
  });

  it('at most 5 concurrent clones per source: of 6 parallel requests exactly 5 succeed, the sixth is HTTP 400', async () => {
    const src = await create();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post(`${I}/${src.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(1);
    expectError(refused[0]!, 400);
    // another source is not limited by this one; after 10 simulated minutes the slots free up
    const other = await create();
    expect((await post(`${I}/${other.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })).status).toBe(200);
    await advance(600);
    expect((await post(`${I}/${src.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })).status).toBe(200);
  });

  it('a VLAN source cannot be cloned to a region without VLANs', async () => {
    const src = await create({ interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'priv' }] });
    expectError(await post(`${I}/${src.id}/clone`, { region: 'us-west', type: 'g6-nanode-1' }), 400, 'region');
    expect((await post(`${I}/${src.id}/clone`, { region: 'eu-central', type: 'g6-nanode-1' })).status).toBe(200);
  });
});

describe('statistics, transfer, volumes, kernels', () => {
  it('stats for the past 24 hours and per month with bounds', async () => {
    const inst = await create();
    const s = await get(`${I}/${inst.id}/stats`);
    expect(s.status).toBe(200);
    expect(s.body.cpu.length).toBeGreaterThan(0);
    expect(s.body).toHaveProperty('io');
    expect(s.body).toHaveProperty('netv4');
    expect(s.body).toHaveProperty('netv6');
    const now = new Date(`${(await request(emulator.server()).get('/__control')).body.now}Z`);
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth() + 1;
    const path = (yy: unknown, mm: unknown) => `${I}/${inst.id}/stats/${yy}/${mm}`;
    expect((await get(path(y, m))).status).toBe(200);
    expect((await get(path(y - 1, 1))).status).toBe(200);
    expect((await get(path(y - 1, 12))).status).toBe(200);
    expectError(await get(path(y, 0)), 400, 'month');
    expectError(await get(path(y, 13)), 400, 'month');
    expectError(await get(path(y + 1, 1)), 400);
    expectError(await get(path(y, 'x')), 400, 'month');
    expectError(await get(path('x', 1)), 400, 'year');
    expectError(await get(path(1999, 1)), 400, 'year');
    expectError(await get(`${I}/999999/stats`), 404);
  });

  it('transfer for the current month and per month: year 2000..2037, month 1..12, past or current', async () => {
    const inst = await create();
    const t = await get(`${I}/${inst.id}/transfer`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ quota: 1000, billable: 0 });
    expect(t.body.used).toBeTypeOf('number');
    const path = (yy: unknown, mm: unknown) => `${I}/${inst.id}/transfer/${yy}/${mm}`;
    const ok = await get(path(2000, 1));
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(['bytes_in', 'bytes_out', 'bytes_total']);
    expectError(await get(path(1999, 12)), 400, 'year');
    expectError(await get(path(2038, 1)), 400, 'year');
    expectError(await get(path(2000, 0)), 400, 'month');
    expectError(await get(path(2000, 13)), 400, 'month');
    expect((await get(path(2000, 12))).status).toBe(200);
    // move the simulated clock into December 2037: the maximum becomes reachable
    const now = new Date(`${(await request(emulator.server()).get('/__control')).body.now}Z`);
    await advance(Math.ceil((Date.UTC(2037, 11, 15) - now.getTime()) / 1000));
    expect((await get(path(2037, 12))).status).toBe(200);
    expectError(await get(path(2038, 1)), 400, 'year');
  });

  it('volumes attached to an instance, paginated', async () => {
    const seeded = (await get(I)).body.data[0];
    const res = await get(`${I}/${seeded.id}/volumes`);
    expect(res.status).toBe(200);
    expect(res.body.results).toBe(1);
    expect(res.body.data[0]).toMatchObject({ compute_id: seeded.id, compute_label: 'seed-web-1', status: 'active' });
    expectError(await get(`${I}/${seeded.id}/volumes?page=0`), 400, 'page');
    const inst = await create();
    expect((await get(`${I}/${inst.id}/volumes`)).body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });

  it('kernels: no authentication, paginated list and view', async () => {
    const list = await request(emulator.server()).get('/v4/compute/kernels');
    expect(list.status).toBe(200);
    expect(list.body.results).toBeGreaterThan(1);
    const k = list.body.data[0];
    expect((await request(emulator.server()).get(`/v4/compute/kernels/${k.id}`)).body).toEqual(k);
    expectError(await request(emulator.server()).get('/v4/compute/kernels/none-such'), 404);
    expectError(await request(emulator.server()).get('/v4/compute/kernels?page_size=24'), 400, 'page_size');
  });
});

describe('robustness', () => {
  it('garbage bodies on every compute write endpoint never give a 5xx', async () => {
    const inst = await create();
    const [cfg] = await configsOf(inst.id);
    const snap = (await post(`${I}/${inst.id}/backups`, { label: 's' })).body;
    const garbage: unknown[] = [[], 'str', 42, null, true, { region: {}, type: [], label: { a: 1 } }, { devices: { sda: [] } },
      { interfaces: [null, 5, 'x'] }, { compute_id: 1e300 }, { config_id: -1 }, { alerts: { cpu: 1e308 } }, { backups: { schedule: 'x' } }];
    const targets: [string, string][] = [
      ['post', I], ['put', `${I}/${inst.id}`], ['post', `${I}/${inst.id}/backups`], ['post', `${I}/${inst.id}/backups/${snap.id}/restore`],
      ['post', `${I}/${inst.id}/boot`], ['post', `${I}/${inst.id}/clone`], ['post', `${I}/${inst.id}/configs`],
      ['put', `${I}/${inst.id}/configs/${cfg!.id}`], ['post', `${I}/${inst.id}/rescue`], ['post', `${I}/${inst.id}/resize`],
    ];
    for (const [method, path] of targets) {
      for (const g of garbage) {
        const res = await request(emulator.server())[method as 'post'](path).set(bearer(DEFAULT_TOKEN)).set('Content-Type', 'application/json').send(JSON.stringify(g));
        expect(res.status, `${method} ${path} ${JSON.stringify(g)}`).toBeLessThan(500);
      }
    }
    // property: random JSON values, and objects made of the documented member names with random values
    const keys = ['region', 'type', 'label', 'image', 'root_pass', 'backup_id', 'interfaces', 'devices', 'config_id', 'compute_id',
      'configs', 'disks', 'alerts', 'backups', 'tags', 'overwrite', 'helpers', 'kernel', 'virt_mode', 'run_level', 'memory_limit',
      'swap_size', 'booted', 'private_ip', 'script_id', 'script_data', 'group', 'watchdog_enabled', 'allow_auto_disk_resize'];
    const bodies = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...keys), fc.jsonValue(), { maxKeys: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), bodies, async ([method, path], g) => {
        const res = await request(emulator.server())[method as 'post'](path).set(bearer(DEFAULT_TOKEN)).set('Content-Type', 'application/json').send(JSON.stringify(g));
        return res.status < 500;
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
