// Emulator self-tests, document 2 "Compute instances": backups, boot, shutdown, rescue, configuration profiles,
// resize, clone, statistics, transfer, volumes and kernels; the documented behaviour and each rejection.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOKEN, getStore } from '../../emulator/server.js';
import { expectError } from './supertest-helpers.js';
import { bearer, I, useCompute } from './compute-helpers.js';

const { emulator, get, post, put, del, token, advance, create, configsOf, diskIds } = useCompute();

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

  it("a boot puts the profile's interfaces in effect: a VLAN it does not name is detached (document 3)", async () => {
    const onVlan = async (label: string) =>
      ((await get('/v4beta/networking/vlans')).body.data as Record<string, any>[]).find((v) => v.label === label)?.computes;
    const inst = await create({ booted: false });
    const [first] = await configsOf(inst.id);
    const profile = `${I}/${inst.id}/configs/${first!.id}`;
    const rebootOn = async (configId: number) => {
      expect((await post(`${I}/${inst.id}/shutdown`)).status).toBe(200);
      expect((await post(`${I}/${inst.id}/boot`, { config_id: configId })).status).toBe(200);
    };
    expect((await put(profile, { interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'detach-a' }] })).status).toBe(200);
    expect((await post(`${I}/${inst.id}/boot`, { config_id: first!.id })).status).toBe(200);
    expect(await onVlan('detach-a')).toEqual([inst.id]);
    // the interface removed from the active profile: detached at the reboot, not before
    expect((await put(profile, { interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'detach-b' }] })).status).toBe(200);
    expect(await onVlan('detach-a')).toEqual([inst.id]);
    await rebootOn(first!.id);
    expect([await onVlan('detach-a'), await onVlan('detach-b')]).toEqual([[], [inst.id]]);
    // another profile without it
    const other = (await post(`${I}/${inst.id}/configs`, { label: 'no-vlan', devices: first!.devices, interfaces: [] })).body;
    await rebootOn(other.id);
    expect(await onVlan('detach-b')).toEqual([]);
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
      label: 'custom',
      kernel: 'chs-latest-64bit',
      root_device: '/dev/sda',
      run_level: 'default',
      virt_mode: 'paravirt',
      memory_limit: 1024,
      helpers: { devtmpfs_automount: false },
      interfaces: [],
      comments: null,
    });
    expect(res.body.devices.sda).toEqual({ disk_id: disk, volume_id: null });
    expect(res.body.devices.sdc).toBeNull();
    const path = `${I}/${inst.id}/configs/${res.body.id}`;
    expect((await get(path)).body).toEqual(res.body);
    const up = await put(path, {
      comments: 'c',
      helpers: { network: false },
      run_level: 'single',
      virt_mode: 'fullvirt',
      root_device: '/dev/sdb',
      kernel: 'chs-grub2',
      memory_limit: 512,
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      label: 'custom',
      comments: 'c',
      run_level: 'single',
      virt_mode: 'fullvirt',
      root_device: '/dev/sdb',
      kernel: 'chs-grub2',
      memory_limit: 512,
    });
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
    const fullvirt = await post(path, { label: 'fv', devices: { sdd: { disk_id: disk }, sde: null }, virt_mode: 'fullvirt' });
    expect(fullvirt.status).toBe(200);
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
    // an update of a fullvirt profile (not sending virt_mode) cannot map sde to sdh either
    expectError(await put(`${path}/${fullvirt.body.id}`, { devices: { sdf: { disk_id: disk } } }), 400, 'devices.sdf');
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
    const results = await Promise.all(Array.from({ length: 6 }, () => post(`${I}/${src.id}/clone`, { region: 'us-east', type: 'g6-nanode-1' })));
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
