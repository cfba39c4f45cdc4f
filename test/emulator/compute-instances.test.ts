// Emulator self-tests, document 2 "Compute instances": instances (list, view, create, update, delete), interfaces and
// VLANs; the documented behaviour and each rejection.
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, getStore } from '../../emulator/server.js';
import { expectError } from './supertest-helpers.js';
import { listVlans } from '../../emulator/areas/compute/interfaces.js';
import { passwordIsStrong } from '../../emulator/areas/compute/validation.js';
import { bearer, I, STRONG, useCompute } from './compute-helpers.js';

const { emulator, get, post, put, del, token, create, configsOf, diskIds } = useCompute();

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
    const res = await post(I, {
      ...base,
      interfaces: [
        { purpose: 'public', label: '', ipam_address: null },
        { purpose: 'vlan', label: 'backend-1', ipam_address: '10.0.0.1/24' },
      ],
    });
    expect(res.status).toBe(200);
    const vlans = listVlans(getStore(emulator.app));
    expect(vlans).toEqual([expect.objectContaining({ label: 'backend-1', region: 'us-east', computes: [res.body.id] })]);
    expect((await post(I, { ...base, interfaces: [] })).status).toBe(200);
  });

  it('rejects each broken interface rule', async () => {
    const bad = async (interfaces: unknown, field: string, region = 'us-east') => expectError(await post(I, { ...base, region, interfaces }), 400, field);
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
    await bad(
      [
        { purpose: 'vlan', label: 'a' },
        { purpose: 'vlan', label: 'a' },
      ],
      'interfaces.1.label',
    );
    await bad(
      [
        { purpose: 'vlan', label: 'a', ipam_address: '10.0.0.1/24' },
        { purpose: 'vlan', label: 'b', ipam_address: '10.0.0.1/24' },
      ],
      'interfaces.1.ipam_address',
    );
    await bad([{ purpose: 'vlan', label: 'a' }], 'interfaces.0.purpose', 'us-west');
    expect(listVlans(getStore(emulator.app))).toHaveLength(0);
    expect((await post(I, { ...base, interfaces: [{ purpose: 'vlan', label: 'x'.repeat(64) }] })).status).toBe(200);
  });

  it('at most 10 VLANs per region', async () => {
    for (let n = 0; n < 10; n += 2) {
      expect(
        (await post(I, { ...base, interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: `v${n}` }, { purpose: 'vlan', label: `v${n + 1}` }] })).status,
      ).toBe(200);
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
      label: 'renamed-1',
      alerts: { cpu: 100, io: 0, network_in: 5, network_out: 5, transfer_quota: 100 },
      backups: { schedule: { day: 'Monday', window: 'W10' } },
      group: 'grp',
      tags: ['alpha'],
      watchdog_enabled: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      label: 'renamed-1',
      group: 'grp',
      tags: ['alpha'],
      watchdog_enabled: false,
      backups: { schedule: { day: 'Monday', window: 'W10' } },
    });
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

describe('robustness', () => {
  it('garbage bodies on every compute write endpoint never give a 5xx', async () => {
    const inst = await create();
    const [cfg] = await configsOf(inst.id);
    const snap = (await post(`${I}/${inst.id}/backups`, { label: 's' })).body;
    const garbage: unknown[] = [
      [],
      'str',
      42,
      null,
      true,
      { region: {}, type: [], label: { a: 1 } },
      { devices: { sda: [] } },
      { interfaces: [null, 5, 'x'] },
      { compute_id: 1e300 },
      { config_id: -1 },
      { alerts: { cpu: 1e308 } },
      { backups: { schedule: 'x' } },
    ];
    const targets: [string, string][] = [
      ['post', I],
      ['put', `${I}/${inst.id}`],
      ['post', `${I}/${inst.id}/backups`],
      ['post', `${I}/${inst.id}/backups/${snap.id}/restore`],
      ['post', `${I}/${inst.id}/boot`],
      ['post', `${I}/${inst.id}/clone`],
      ['post', `${I}/${inst.id}/configs`],
      ['put', `${I}/${inst.id}/configs/${cfg!.id}`],
      ['post', `${I}/${inst.id}/rescue`],
      ['post', `${I}/${inst.id}/resize`],
    ];
    for (const [method, path] of targets) {
      for (const g of garbage) {
        const res = await request(emulator.server())
          [method as 'post'](path)
          .set(bearer(DEFAULT_TOKEN))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(g));
        expect(res.status, `${method} ${path} ${JSON.stringify(g)}`).toBeLessThan(500);
      }
    }
    // property: random JSON values, and objects made of the documented member names with random values
    const keys = [
      'region',
      'type',
      'label',
      'image',
      'root_pass',
      'backup_id',
      'interfaces',
      'devices',
      'config_id',
      'compute_id',
      'configs',
      'disks',
      'alerts',
      'backups',
      'tags',
      'overwrite',
      'helpers',
      'kernel',
      'virt_mode',
      'run_level',
      'memory_limit',
      'swap_size',
      'booted',
      'private_ip',
      'script_id',
      'script_data',
      'group',
      'watchdog_enabled',
      'allow_auto_disk_resize',
    ];
    const bodies = fc.oneof(fc.jsonValue(), fc.dictionary(fc.constantFrom(...keys), fc.jsonValue(), { maxKeys: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), bodies, async ([method, path], g) => {
        const res = await request(emulator.server())
          [method as 'post'](path)
          .set(bearer(DEFAULT_TOKEN))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(g));
        return res.status < 500;
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
