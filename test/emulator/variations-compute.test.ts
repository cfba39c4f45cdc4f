// The emulator's variations of compute instances each do what they say (those of their backups: variations-backups.test.ts; of images: variations-images.test.ts; of clones and copies: variations-clones.test.ts; of profile writes of a busy instance: variations-profiles.test.ts).
import request from 'supertest';
import { expect } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  got,
  postAccepted,
  describeVariations,
  newInstance,
  sdaDiskOf,
  weakPasswordError,
  type Json,
  type VariationCase,
} from './variation-server.js';

const cases: VariationCase[] = [
  [
    'profile-delete-needs-offline',
    async (server) => {
      const instance = await newInstance(server, 'profile-delete');
      const instancePath = `/v4/compute/instances/${String(instance.id)}`;
      const [booted] = (await got(server, `${instancePath}/configs`)).data as Json[];
      await postAccepted(server, `${instancePath}/configs`, { label: 'second', devices: {} });
      await request(server).post(`${instancePath}/boot`).set(AUTH).send({ config_id: booted!.id }).expect(200);
      await request(server)
        .delete(`${instancePath}/configs/${String(booted!.id)}`)
        .set(AUTH)
        .expect(400);
      await request(server).post(`${instancePath}/shutdown`).set(AUTH).send({}).expect(200);
      await request(server)
        .delete(`${instancePath}/configs/${String(booted!.id)}`)
        .set(AUTH)
        .expect(200);
    },
  ],
  [
    'helpers-whole',
    async (server) => {
      const instance = await newInstance(server, 'helpers-whole');
      const profile = (helpers: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/configs`)
          .set(AUTH)
          .send({ label: 'helpers', devices: {}, helpers });
      expect((await profile({ network: false }).expect(400)).body.errors[0]).toMatchObject({ field: 'helpers.distro' });
      await profile({ distro: true, modules_dep: true, network: false, updatedb_disabled: true }).expect(200);
    },
  ],
  [
    'error-field-names-sent-member',
    async (server) => {
      const source = await newInstance(server, 'clash-source');
      const target = await newInstance(server, 'clash-target');
      const clone = await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/clone`)
        .set(AUTH)
        .send({ compute_id: target.id, region: 'us-east' })
        .expect(400);
      expect(clone.body.errors[0]).toMatchObject({ field: 'compute_id' });
      const profile = await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/configs`)
        .set(AUTH)
        .send({ label: 'fullvirt-sde', virt_mode: 'fullvirt', devices: { sde: { disk_id: await sdaDiskOf(server, source.id) } } })
        .expect(400);
      expect(profile.body.errors[0]).toMatchObject({ field: 'virt_mode' });
    },
  ],
  [
    'weak-password-worded-otherwise',
    async (server) => {
      expect(await weakPasswordError(server)).toMatchObject({ field: 'root_pass', reason: expect.stringMatching(/too weak/) });
    },
  ],
  [
    'weak-password-worded-complexity',
    async (server) => {
      expect(await weakPasswordError(server)).toMatchObject({ field: 'root_pass', reason: 'Password does not meet the complexity requirements.' });
    },
  ],
  [
    'resize-refused-while-balance-owed',
    async (server) => {
      expect((await got(server, '/v4/account')).balance).toBeGreaterThan(0);
      const instance = await newInstance(server, 'owes-balance');
      const refused = await request(server)
        .post(`/v4/compute/instances/${String(instance.id)}/resize`)
        .set(AUTH)
        .send({ type: 'g6-standard-2' })
        .expect(400);
      expect(refused.body.errors[0]).toMatchObject({ field: null, reason: expect.stringMatching(/outstanding balance/) });
      expect((await got(server, `/v4/compute/instances/${String(instance.id)}`)).type).toBe('g6-standard-1');
    },
  ],
  [
    'shutdown-takes-a-minute',
    async (server) => {
      const instance = await newInstance(server, 'slow-shutdown');
      const action = (name: string) =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/${name}`)
          .set(AUTH)
          .send({});
      await action('shutdown').expect(200);
      await action('boot').expect(400);
      await advanceClock(server, 61);
      await action('boot').expect(200);
    },
  ],
  [
    'balancer-hostname-regional',
    async (server) => {
      const tagged = (await request(server).get('/v4/tags/seed').set(AUTH).expect(200)).body as { data: Json[] };
      const balancers = tagged.data.filter((item) => typeof item.hostname === 'string');
      expect(new Set(balancers.map((balancer) => balancer.region)).size).toBe(2);
      for (const balancer of balancers) expect(balancer.hostname).toMatch(new RegExp(`\\.${String(balancer.region)}\\.lb\\.chs-emulator\\.example$`));
    },
  ],
  [
    'empty-boot-refused',
    async (server) => {
      const create = (label: string, extra: Json) =>
        request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ label, region: 'us-east', type: 'g6-standard-1', ...extra });
      expect((await create('empty-booted', { booted: true }).expect(400)).body.errors[0]).toMatchObject({ field: 'booted' });
      await create('empty-offline', { booted: false }).expect(200);
      await create('image-booted', { booted: true, image: 'compute/debian12', root_pass: 'Correct-Horse-42!' }).expect(200);
    },
  ],
  [
    'interfaces-need-image',
    async (server) => {
      const create = (label: string, extra: Json) =>
        request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ label, region: 'us-east', type: 'g6-standard-1', interfaces: [{ purpose: 'public' }], ...extra });
      expect((await create('empty-with-interfaces', {}).expect(400)).body.errors[0]).toMatchObject({ field: 'interfaces' });
      await create('image-with-interfaces', { image: 'compute/debian12', root_pass: 'Correct-Horse-42!' }).expect(200);
    },
  ],
  [
    'auto-resize-shrinks',
    async (server) => {
      const deployed = async (label: string) => await newInstance(server, label, 'g6-standard-2');
      const [kept, shrunk] = [await deployed('resize-kept'), await deployed('resize-shrunk')];
      const resize = (instance: Json, body: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/resize`)
          .set(AUTH)
          .send(body);
      expect((await resize(kept, { type: 'g6-standard-1', allow_auto_disk_resize: false }).expect(400)).body.errors[0]).toMatchObject({ field: 'type' });
      await resize(shrunk, { type: 'g6-standard-1' }).expect(200);
    },
  ],
  [
    'rescue-running-refused',
    async (server) => {
      const deployed = async (label: string, booted: boolean) =>
        await postAccepted(server, '/v4/compute/instances', {
          label,
          region: 'us-east',
          type: 'g6-standard-1',
          image: 'compute/debian12',
          root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6',
          booted,
        });
      const rescue = (instance: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/rescue`)
          .set(AUTH)
          .send({});
      await rescue(await deployed('rescue-running', true)).expect(400);
      await rescue(await deployed('rescue-offline', false)).expect(200);
    },
  ],
  [
    'rescue-devices-required',
    async (server) => {
      const instance = await postAccepted(server, '/v4/compute/instances', { label: 'rescue-devices', region: 'us-east', type: 'g6-standard-1' });
      const rescue = (body: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/rescue`)
          .set(AUTH)
          .send(body);
      expect((await rescue({}).expect(400)).body.errors[0]).toMatchObject({ field: 'devices' });
      await rescue({ devices: {} }).expect(200);
    },
  ],
  [
    'create-runs-a-while',
    async (server) => {
      const instance = await newInstance(server, 'still-creating');
      const path = `/v4/compute/instances/${String(instance.id)}`;
      const shutdown = () => request(server).post(`${path}/shutdown`).set(AUTH).send({});
      const snapshot = () => request(server).post(`${path}/backups`).set(AUTH).send({ label: 'while-creating' });
      const clone = () => request(server).post(`${path}/clone`).set(AUTH).send({ region: 'us-east', type: 'g6-standard-1', label: 'clone-of-new' });
      const configs = (await request(server).get(`${path}/configs`).set(AUTH).expect(200)).body as { data: Json[] };
      const diskId = ((configs.data[0]!.devices as Json).sda as Json).disk_id;
      const capture = () => request(server).post('/v4/images').set(AUTH).send({ disk_id: diskId, label: 'capture-of-new' });
      for (const action of [shutdown, snapshot, clone, capture]) await action().expect(400);
      await advanceClock(server, 2 * 60);
      // The clone last: the instance is busy while it runs.
      for (const action of [shutdown, snapshot, capture, clone]) await action().expect(200);
    },
  ],
  [
    'delete-refused-while-busy',
    async (server) => {
      const source = await newInstance(server, 'busy-source');
      const clone = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      const remove = (id: unknown) =>
        request(server)
          .delete(`/v4/compute/instances/${String(id)}`)
          .set(AUTH);
      for (const id of [source.id, clone.id]) expect((await remove(id).expect(400)).body.errors[0].reason).toMatch(/running or queued actions/);
      await advanceClock(server, 10 * 60);
      for (const id of [source.id, clone.id]) await remove(id).expect(200);
    },
  ],
  [
    'instance-delete-takes-a-while',
    async (server) => {
      const instance = await newInstance(server, 'slow-delete');
      const path = `/v4/compute/instances/${String(instance.id)}`;
      await request(server).delete(path).set(AUTH).expect(200);
      expect((await got(server, path)).status).toBe('deleting');
      expect(((await got(server, '/v4/compute/instances')).data as Json[]).map((item) => item.id)).toContain(instance.id);
      await advanceClock(server, 5);
      await request(server).get(path).set(AUTH).expect(404);
    },
  ],
  [
    'vlan-joined-at-first-boot',
    async (server) => {
      const instance = await newInstance(server, 'first-boot', 'g6-standard-1', {
        interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'joins-late' }],
      });
      const members = async () => ((await got(server, '/v4beta/networking/vlans')).data as Json[]).find((vlan) => vlan.label === 'joins-late')?.computes;
      expect(instance.status).toBe('provisioning');
      expect(await members()).toEqual([]);
      await advanceClock(server, 2 * 60);
      expect(await members()).toEqual([instance.id]);
      expect((await got(server, `/v4/compute/instances/${String(instance.id)}`)).status).toBe('running');
    },
  ],
  [
    'held-boot-not-last',
    async (server) => {
      const empty = await postAccepted(server, '/v4/compute/instances', { label: 'held-boots', region: 'us-east', type: 'g6-standard-1' });
      const path = `/v4/compute/instances/${String(empty.id)}`;
      const held = await postAccepted(server, `${path}/configs`, { label: 'no-devices', devices: {} });
      await postAccepted(server, `${path}/configs`, { label: 'another', devices: {} });
      await request(server).post(`${path}/boot`).set(AUTH).send({ config_id: held.id }).expect(200);
      expect(((await request(server).post(`${path}/boot`).set(AUTH).send({}).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({
        field: 'config_id',
      });
    },
  ],
  [
    'usage-from-creation',
    async (server) => {
      const instance = await newInstance(server, 'new-this-month');
      const now = new Date((await request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: 0 }).expect(200)).body.now as string);
      const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
      for (const kind of ['stats', 'transfer']) {
        const path = `/v4/compute/instances/${String(instance.id)}/${kind}`;
        await request(server).get(`${path}/${year}/${month}`).set(AUTH).expect(200);
        expect(
          (
            (
              await request(server)
                .get(`${path}/${year - 1}/${month}`)
                .set(AUTH)
                .expect(400)
            ).body as { errors: Json[] }
          ).errors[0],
        ).toMatchObject({
          field: 'month',
        });
      }
    },
  ],
  [
    'script-data-needs-script',
    async (server) => {
      const refused = await request(server)
        .post('/v4/compute/instances')
        .set(AUTH)
        .send({
          label: 'data-no-script',
          region: 'us-east',
          type: 'g6-standard-1',
          image: 'compute/debian12',
          root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6',
          script_data: { a: 1 },
        })
        .expect(400);
      expect((refused.body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'script_data' });
    },
  ],
  [
    'labels-unicode-alphanumerics',
    async (server) => {
      const seeded = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      expect(seeded.data.map((instance) => instance.label)).toContain('seed-wéb-1');
      await newInstance(server, 'café-münchen');
      await request(server)
        .post('/v4/networking/firewalls')
        .set(AUTH)
        .send({ label: 'fw-größe', rules: { inbound_policy: 'DROP', outbound_policy: 'ACCEPT' } })
        .expect(200);
      await request(server).post('/v4/compute/instances').set(AUTH).send({ label: 'no spaces', region: 'us-east', type: 'g6-standard-1' }).expect(400);
    },
  ],
  [
    'root-device-any-invalid',
    async (server) => {
      const instance = await newInstance(server, 'root-device-typed');
      const profile = await postAccepted(server, `/v4/compute/instances/${String(instance.id)}/configs`, { label: 'typed-root', devices: {}, root_device: 42 });
      expect(profile.root_device).toBe('/dev/sda');
    },
  ],
  [
    'kernel-ids-slashed-raw-only',
    async (server) => {
      const listed = (await request(server).get('/v4/compute/kernels').expect(200)).body as { data: Json[] };
      const id = String(listed.data[0]!.id);
      expect(id).toContain('/');
      expect(((await request(server).get(`/v4/compute/kernels/${id}`).expect(200)).body as Json).id).toBe(id);
      await request(server)
        .get(`/v4/compute/kernels/${encodeURIComponent(id)}`)
        .expect(404);
      const instance = await newInstance(server, 'slashed-kernel');
      const configs = (
        await request(server)
          .get(`/v4/compute/instances/${String(instance.id)}/configs`)
          .set(AUTH)
          .expect(200)
      ).body as { data: Json[] };
      expect(configs.data[0]!.kernel).toContain('/');
    },
  ],
  [
    'shutdown-offline-refused',
    async (server) => {
      const instance = await newInstance(server, 'never-booted', 'g6-standard-1', { booted: false });
      const shutdown = () =>
        request(server)
          .post(`/v4/compute/instances/${String(instance.id)}/shutdown`)
          .set(AUTH)
          .send({});
      expect(((await shutdown().expect(400)).body as { errors: Json[] }).errors[0]!.reason).toMatch(/already offline/);
    },
  ],
  [
    'ipam-private-hosts',
    async (server) => {
      const create = (ipam_address: string) =>
        request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ region: 'us-east', type: 'g6-nanode-1', interfaces: [{ purpose: 'public' }, { purpose: 'vlan', label: 'ipam-vlan', ipam_address }] });
      for (const refused of ['10.0.0.0/24', '10.0.0.255/24', '8.8.8.8/24', '0.0.0.0/0', '10.0.0.1/31'])
        expect(((await create(refused).expect(400)).body as { errors: Json[] }).errors[0]!.field, refused).toBe('interfaces.1.ipam_address');
      await create('10.0.0.1/24').expect(200);
    },
  ],
  [
    'stats-after-a-while',
    async (server) => {
      const young = await newInstance(server, 'young');
      const stats = () =>
        request(server)
          .get(`/v4/compute/instances/${String(young.id)}/stats`)
          .set(AUTH);
      expect(((await stats().expect(400)).body as { errors: Json[] }).errors[0]!.reason).toMatch(/not available yet/);
      await advanceClock(server, 5 * 60);
      await stats().expect(200);
    },
  ],
  [
    'password-score-long',
    async (server) => {
      const create = (root_pass: string) =>
        request(server).post('/v4/compute/instances').set(AUTH).send({ region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass });
      const short = await create('Conf0rmance!Pass').expect(400);
      expect((short.body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'root_pass', reason: expect.stringMatching(/strength requirement/) });
      await create('q7#Vx9!mZ2@rT5$kW8%nB3&hJ6').expect(200);
    },
  ],
  [
    'password-length-policy',
    async (server) => {
      const create = (root_pass: string) =>
        request(server).post('/v4/compute/instances').set(AUTH).send({ region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass });
      await create('aaaaaaaaaa').expect(200);
      await create('aB3defg').expect(200);
      const short = await create('aaaaaaa').expect(400);
      expect((short.body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'root_pass', reason: expect.stringMatching(/strength requirement/) });
    },
  ],
  [
    'interface-labels-unique-per-instance',
    async (server) => {
      const [first, second] = (await Promise.all(['vlan-a', 'vlan-b'].map((label) => newInstance(server, label)))) as Json[];
      const profile = (id: unknown, label: string, vlan: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(id)}/configs`)
          .set(AUTH)
          .send({ label, devices: {}, interfaces: [{ purpose: 'vlan', ...vlan }] });
      await profile(first!.id, 'one', { label: 'shared-vlan', ipam_address: '10.0.0.1/24' }).expect(200);
      expect((await profile(first!.id, 'two', { label: 'shared-vlan' }).expect(400)).body.errors[0]).toMatchObject({ field: 'interfaces.0.label' });
      expect((await profile(first!.id, 'three', { label: 'other-vlan', ipam_address: '10.0.0.1/24' }).expect(400)).body.errors[0]).toMatchObject({
        field: 'interfaces.0.ipam_address',
      });
      await profile(second!.id, 'on-another', { label: 'shared-vlan', ipam_address: '10.0.0.1/24' }).expect(200);
    },
  ],
  [
    'vlan-region-checked-first',
    async (server) => {
      const { id } = await newInstance(server, 'no-vlans-here', 'g6-standard-1', { region: 'us-west' });
      const interfaces = [{ purpose: 'public' }, { purpose: 'vlan', label: 'bad_label' }];
      const refused = await request(server)
        .post(`/v4/compute/instances/${String(id)}/configs`)
        .set(AUTH)
        .send({ label: 'vlan', devices: {}, interfaces });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'interfaces.1.purpose' });
    },
  ],
  [
    'device-slots-strict',
    async (server) => {
      const { id } = await newInstance(server, 'strict-slots');
      const profile = (label: string, extra: Json) =>
        request(server)
          .post(`/v4/compute/instances/${String(id)}/configs`)
          .set(AUTH)
          .send({ label, ...extra });
      expect((await profile('empty-slot', { devices: { sdb: {} } }).expect(400)).body.errors[0]).toMatchObject({ field: 'devices.sdb' });
      expect((await profile('named-sde', { virt_mode: 'fullvirt', devices: { sde: null } }).expect(400)).body.errors[0]).toMatchObject({
        field: 'devices.sde',
      });
      await profile('fine', { virt_mode: 'fullvirt', devices: { sdb: { disk_id: null }, sdc: null } }).expect(200);
    },
  ],
  [
    'usage-previous-month-only',
    async (server) => {
      const { id } = await newInstance(server, 'usage-months');
      const now = new Date((await got(server, '/__control')).now as string);
      const monthsBack = (n: number) => {
        const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1));
        return `${at.getUTCFullYear()}/${at.getUTCMonth() + 1}`;
      };
      for (const kind of ['stats', 'transfer']) {
        await request(server)
          .get(`/v4/compute/instances/${String(id)}/${kind}/${monthsBack(1)}`)
          .set(AUTH)
          .expect(200);
        const older = await request(server)
          .get(`/v4/compute/instances/${String(id)}/${kind}/${monthsBack(2)}`)
          .set(AUTH)
          .expect(400);
        expect(older.body.errors[0]).toMatchObject({ field: 'month' });
      }
    },
  ],
  [
    'image-layout-when-provisioned',
    async (server) => {
      const { id } = await newInstance(server, 'provisioned-later');
      const profiles = async () => (await got(server, `/v4/compute/instances/${String(id)}/configs`)).data as Json[];
      expect(await profiles()).toEqual([]);
      await advanceClock(server, 60);
      expect(await profiles()).toEqual([]);
      await advanceClock(server, 60);
      const [profile, ...others] = await profiles();
      expect(others).toEqual([]);
      const devices = profile!.devices as Record<string, Json | null>;
      expect(['sda', 'sdb'].map((slot) => typeof devices[slot]?.disk_id)).toEqual(['number', 'number']);
      // Deployed running: a boot without config_id finds its default profile booted last.
      await postAccepted(server, `/v4/compute/instances/${String(id)}/configs`, { label: 'second', devices: {} });
      await request(server)
        .post(`/v4/compute/instances/${String(id)}/shutdown`)
        .set(AUTH)
        .send({})
        .expect(200);
      await request(server)
        .post(`/v4/compute/instances/${String(id)}/boot`)
        .set(AUTH)
        .send({})
        .expect(200);
    },
  ],
  [
    'default-label-unicode',
    async (server) => {
      const made = await postAccepted(server, '/v4/compute/instances', { region: 'us-east', type: 'g6-standard-1' });
      expect(made.label).toBe(`nœud-${String(made.id)}`);
      const clone = await request(server)
        .post(`/v4/compute/instances/${String(made.id)}/clone`)
        .set(AUTH)
        .send({ region: 'us-east', type: 'g6-standard-1' })
        .expect(200);
      expect((await got(server, `/v4/compute/instances/${String(clone.body.id)}`)).label).toBe(`nœud-${String(clone.body.id)}`);
      await newInstance(server, 'café-münchen');
    },
  ],
  [
    'instance-null-members-omitted',
    async (server) => {
      const empty = await postAccepted(server, '/v4/compute/instances', { label: 'no-image', region: 'us-east', type: 'g6-standard-1' });
      const view = await got(server, `/v4/compute/instances/${String(empty.id)}`);
      expect(view).not.toHaveProperty('image');
      expect(view).toHaveProperty('label', 'no-image');
      const listed = ((await got(server, '/v4/compute/instances')).data as Json[]).find((instance) => instance.id === empty.id);
      expect(listed).not.toHaveProperty('image');
      const deployed = await newInstance(server, 'with-image');
      expect(await got(server, `/v4/compute/instances/${String(deployed.id)}`)).toHaveProperty('image', 'compute/debian12');
    },
  ],
  [
    'transfer-after-a-while',
    async (server) => {
      const young = await newInstance(server, 'young-transfer');
      const now = new Date();
      const paths = ['transfer', `transfer/${now.getUTCFullYear()}/${now.getUTCMonth() + 1}`].map(
        (tail) => `/v4/compute/instances/${String(young.id)}/${tail}`,
      );
      const reasonOf = async (path: string) => ((await request(server).get(path).set(AUTH).expect(400)).body as { errors: Json[] }).errors[0]!.reason;
      for (const path of paths) expect(await reasonOf(path)).toMatch(/not available yet/);
      await advanceClock(server, 5 * 60);
      for (const path of paths) await got(server, path);
    },
  ],
  [
    'private-ip-when-provisioned',
    async (server) => {
      const made = await newInstance(server, 'private-later', 'g6-standard-1', { private_ip: true });
      const ipv4 = async () => (await got(server, `/v4/compute/instances/${String(made.id)}`)).ipv4 as string[];
      expect(made.ipv4).toHaveLength(1);
      expect(await ipv4()).toHaveLength(1);
      await advanceClock(server, 119);
      expect(await ipv4()).toHaveLength(1);
      await advanceClock(server, 1);
      const shown = await ipv4();
      expect(shown).toHaveLength(2);
      expect(shown[1]).toMatch(/^192\.168\./);
      // One allocated meanwhile through the IP endpoints stands.
      const other = await newInstance(server, 'private-first', 'g6-standard-1', { private_ip: true });
      await postAccepted(server, '/v4/networking/ips', { type: 'ipv4', public: false, compute_id: other.id });
      await advanceClock(server, 120);
      expect(((await got(server, `/v4/compute/instances/${String(other.id)}`)).ipv4 as string[]).filter((a) => a.startsWith('192.168.'))).toHaveLength(1);
    },
  ],
  [
    'profile-delete-runs-a-while',
    async (server) => {
      const made = await newInstance(server, 'profile-later');
      const profile = await postAccepted(server, `/v4/compute/instances/${String(made.id)}/configs`, { label: 'going', devices: {} });
      const path = `/v4/compute/instances/${String(made.id)}/configs/${String(profile.id)}`;
      await request(server).delete(path).set(AUTH).expect(200);
      await got(server, path);
      await advanceClock(server, 59);
      expect(((await got(server, `/v4/compute/instances/${String(made.id)}/configs`)).data as Json[]).some((c) => c.id === profile.id)).toBe(true);
      await advanceClock(server, 1);
      await request(server).get(path).set(AUTH).expect(404);
      expect(((await got(server, `/v4/compute/instances/${String(made.id)}/configs`)).data as Json[]).some((c) => c.id === profile.id)).toBe(false);
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // A deleted instance's id, profile ids and disk ids are given again; the new instance starts clean.
      const first = await newInstance(server, 'first-holder', 'g6-standard-1', { tags: ['first-tag'], backups_enabled: true });
      const path = `/v4/compute/instances/${String(first.id)}`;
      // (the disks show as the devices of the profiles)
      const layout = async () => ((await got(server, `${path}/configs`)).data as Json[]).map((c) => [c.id, Object.values(c.devices as Json)]);
      const before = await layout();
      await postAccepted(server, `${path}/backups`, { label: 'first-snapshot' });
      await deleteAccepted(server, path);
      const second = await newInstance(server, 'second-holder');
      expect(second).toMatchObject({ id: first.id, label: 'second-holder', tags: [], backups: { enabled: false } });
      expect(await layout()).toEqual(before);
      expect(await got(server, `${path}/backups`)).toMatchObject({ automatic: [], snapshot: { current: null } });
      await request(server).get('/v4/tags/first-tag').set(AUTH).expect(404);
      // Another new instance takes the next id no instance holds.
      expect((await newInstance(server, 'third-holder')).id).toBe((first.id as number) + 1);
    },
  ],
];

describeVariations('emulator variations: compute instances and images', cases);
