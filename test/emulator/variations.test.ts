// The emulator's variations each do what they say (the variation matrix then proves the suite accepts them).
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, DEFAULT_TOKEN } from '../../emulator/server.js';
import { READ_LAG_MS } from '../../emulator/variations/responses.js';
import { EVENT_LAG_MS } from '../../emulator/core/events.js';

const AUTH = { Authorization: `Bearer ${DEFAULT_TOKEN}` };
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serverWith(variations: string[]) {
  app = await buildServer({ variations });
  await app.ready();
  return app.server;
}

type Json = Record<string, unknown>;

const cases: Array<[string, (server: Awaited<ReturnType<typeof serverWith>>) => Promise<void>]> = [
  [
    'bare-token-accepted',
    async (server) => {
      await request(server).get('/v4/account').set({ Authorization: DEFAULT_TOKEN }).expect(200);
      await request(server).get('/v4/account').set({ Authorization: 'Bearer not-a-token' }).expect(401);
    },
  ],
  [
    'unversioned-paths-served',
    async (server) => {
      await request(server).get('/account').set(AUTH).expect(200);
    },
  ],
  [
    'datetime-zone-suffix',
    async (server) => {
      const account = (await request(server).get('/v4/account').set(AUTH).expect(200)).body as Json;
      expect(String(account.active_since)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    },
  ],
  [
    'extra-members',
    async (server) => {
      const types = (await request(server).get('/v4/databases/types').set(AUTH).expect(200)).body as { data: Json[] };
      const engines = types.data.find((type) => type.engines)?.engines as Json;
      expect(types.data[0]).toHaveProperty('vendor_note');
      expect(engines).not.toHaveProperty('vendor_note');
    },
  ],
  [
    'reads-lag-creates',
    async (server) => {
      const created = await request(server)
        .post('/v4/domains')
        .set(AUTH)
        .send({ domain: 'lag-test.example.com', type: 'master', soa_email: 'hostmaster@example.com' })
        .expect(200);
      const view = `/v4/domains/${created.body.id}`;
      await request(server).get(view).set(AUTH).expect(404);
      const listed = (await request(server).get('/v4/domains').set(AUTH).expect(200)).body as { data: Json[] };
      expect(listed.data.map((domain) => domain.id)).not.toContain(created.body.id);
      await new Promise((resolve) => setTimeout(resolve, READ_LAG_MS + 50));
      await request(server).get(view).set(AUTH).expect(200);
    },
  ],
  [
    'database-topology-tied',
    async (server) => {
      const create = (label: string, topology: Json) =>
        request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label, engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2', ...topology });
      expect((await create('tied-defaults', {}).expect(200)).body).toMatchObject({ cluster_size: 3, replication_type: 'semi_synch' });
      await create('tied-single', { cluster_size: 1, replication_type: 'none' }).expect(200);
      for (const [label, alone] of [
        ['tied-one-node', { cluster_size: 1 }],
        ['tied-no-replica', { replication_type: 'none' }],
      ] as const)
        expect((await create(label, alone).expect(400)).body.errors[0]).toMatchObject({ field: 'replication_type' });
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
    'allow-list-rewritten',
    async (server) => {
      const created = await request(server)
        .post('/v4/databases/mysql/instances')
        .set(AUTH)
        .send({
          label: 'rewritten-db',
          engine: 'mysql/8.0.30',
          region: 'us-east',
          type: 'g6-dedicated-2',
          allow_list: ['2600:3c00:0:0:0:0:0:0/32', '2600:3c00::/32', '203.0.113.5', '0:0:0:0:0:0:0:1'],
        })
        .expect(200);
      expect(created.body.allow_list).toEqual(['2600:3c00::/32', '203.0.113.5/32', '::1/128']);
    },
  ],
  [
    'auto-resize-shrinks',
    async (server) => {
      const deployed = async (label: string) =>
        (
          await request(server)
            .post('/v4/compute/instances')
            .set(AUTH)
            .send({ label, region: 'us-east', type: 'g6-standard-2', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6' })
            .expect(200)
        ).body as Json;
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
    'duplicates-name-first',
    async (server) => {
      const vlan = { purpose: 'vlan', label: 'same-vlan' };
      const refused = await request(server)
        .post('/v4/compute/instances')
        .set(AUTH)
        .send({ label: 'clashing-vlans', region: 'us-east', type: 'g6-standard-1', interfaces: [vlan, vlan] })
        .expect(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'interfaces.0.label' });
    },
  ],
  [
    'assign-region-in-items',
    async (server) => {
      const instances = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const holder = instances.data.find((instance) => instance.region === 'us-east' && (instance.ipv4 as string[]).length)!;
      const unchanged = [{ address: (holder.ipv4 as string[])[0], compute_id: holder.id }];
      const assign = (body: Json) => request(server).post('/v4/networking/ips/assign').set(AUTH).send(body);
      expect((await assign({ region: 'us-east', assignments: unchanged }).expect(400)).body.errors[0]).toMatchObject({ field: 'region' });
      await assign({ assignments: unchanged.map((item) => ({ ...item, region: 'us-east' })) }).expect(200);
    },
  ],
  [
    'rescue-running-refused',
    async (server) => {
      const deployed = async (label: string, booted: boolean) =>
        (
          await request(server)
            .post('/v4/compute/instances')
            .set(AUTH)
            .send({ label, region: 'us-east', type: 'g6-standard-1', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6', booted })
            .expect(200)
        ).body as Json;
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
    'device-compute-id',
    async (server) => {
      const instances = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const firewall = (
        await request(server)
          .post('/v4/networking/firewalls')
          .set(AUTH)
          .send({ label: 'device-form', rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } })
          .expect(200)
      ).body as Json;
      const added = await request(server)
        .post(`/v4/networking/firewalls/${String(firewall.id)}/devices`)
        .set(AUTH)
        .send({ id: instances.data[0]!.id, type: 'compute' })
        .expect(200);
      expect(Object.keys(added.body as Json).sort()).toEqual(['compute_id', 'created', 'id', 'updated']);
      expect((added.body as Json).compute_id).toBe(instances.data[0]!.id);
    },
  ],
  [
    'snapshots-take-minutes',
    async (server) => {
      const instances = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const source = instances.data.find((instance) => instance.image)!;
      const snap = (
        await request(server)
          .post(`/v4/compute/instances/${String(source.id)}/backups`)
          .set(AUTH)
          .send({ label: 'slow' })
          .expect(200)
      ).body as Json;
      const view = () =>
        request(server)
          .get(`/v4/compute/instances/${String(source.id)}/backups/${String(snap.id)}`)
          .set(AUTH)
          .expect(200);
      expect((await view()).body).toMatchObject({ status: 'pending', available: false });
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/backups/${String(snap.id)}/restore`)
        .set(AUTH)
        .send({ compute_id: source.id, overwrite: true })
        .expect(400);
      await request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: 300 }).expect(200);
      expect((await view()).body).toMatchObject({ status: 'successful', available: true });
    },
  ],
  [
    'allow-list-updating',
    async (server) => {
      const created = (
        await request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label: 'updating-db', engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2' })
          .expect(200)
      ).body as Json;
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await request(server)
        .post('/__control/clock')
        .set(AUTH)
        .send({ advance_seconds: 31 * 60 })
        .expect(200);
      expect(
        (
          await request(server)
            .put(path)
            .set(AUTH)
            .send({ allow_list: ['192.0.2.1'] })
            .expect(200)
        ).body,
      ).toMatchObject({ status: 'updating' });
      await request(server).put(path).set(AUTH).send({ label: 'updating-db-2' }).expect(400);
      await request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: 60 }).expect(200);
      expect((await request(server).get(path).set(AUTH).expect(200)).body).toMatchObject({ status: 'active' });
    },
  ],
  [
    'record-type-fixed',
    async (server) => {
      const domain = (
        await request(server)
          .post('/v4/domains')
          .set(AUTH)
          .send({ domain: 'record-type.example.com', type: 'master', soa_email: 'hostmaster@example.com' })
          .expect(200)
      ).body as Json;
      const records = `/v4/domains/${String(domain.id)}/records`;
      const record = (await request(server).post(records).set(AUTH).send({ type: 'A', name: 'www', target: '192.0.2.10' }).expect(200)).body as Json;
      const update = (body: Json) =>
        request(server)
          .put(`${records}/${String(record.id)}`)
          .set(AUTH)
          .send(body);
      expect((await update({ type: 'TXT', target: 'text' }).expect(400)).body).toMatchObject({ errors: [{ field: 'type' }] });
      await update({ type: 'A', target: '192.0.2.11' }).expect(200);
    },
  ],
  [
    'import-transfer-first',
    async (server) => {
      const importing = (body: Json) => request(server).post('/v4/domains/import').set(AUTH).send(body);
      const refused = await importing({ domain: 'bad_name-.example.com', remote_nameserver: 'ns1.example.net' }).expect(400);
      expect(refused.body).toMatchObject({ errors: [{ field: 'remote_nameserver' }] });
      expect((await importing({ remote_nameserver: 'ns1.example.net' }).expect(400)).body).toMatchObject({ errors: [{ field: 'domain' }] });
    },
  ],
  [
    'image-disk-image-sized',
    async (server) => {
      const deploy = (body: Json) =>
        request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ region: 'us-east', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6', ...body });
      const larger = (await deploy({ label: 'image-sized', type: 'g6-standard-2' }).expect(200)).body as Json;
      // 2,500 + 512 MB in use: the instance fits the smaller type
      await request(server)
        .post(`/v4/compute/instances/${String(larger.id)}/resize`)
        .set(AUTH)
        .send({ type: 'g6-standard-1', allow_auto_disk_resize: false })
        .expect(200);
      expect((await deploy({ label: 'no-room', type: 'g6-standard-1', swap_size: 49_000 }).expect(400)).body).toMatchObject({
        errors: [{ field: 'swap_size' }],
      });
    },
  ],
  [
    'zip-by-country',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      // the zip on file (19102) is not a Canadian postal code
      expect((await update({ country: 'CA', state: 'ON' }).expect(400)).body).toMatchObject({ errors: [{ field: 'zip' }] });
      await update({ country: 'CA', state: 'ON', zip: 'K1A 0B1' }).expect(200);
      await update({ country: 'US', state: 'PA', zip: '19102' }).expect(200);
    },
  ],
  [
    'redirect-uri-https',
    async (server) => {
      const create = (redirect_uri: string) => request(server).post('/v4/account/oauth-clients').set(AUTH).send({ label: 'https-only', redirect_uri });
      expect((await create('http://example.com/cb').expect(400)).body).toMatchObject({ errors: [{ field: 'redirect_uri' }] });
      await create('https://example.com/cb').expect(200);
    },
  ],
  [
    'clones-take-longer',
    async (server) => {
      const source = (
        await request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ label: 'slow-clone', region: 'us-east', type: 'g6-standard-1', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6' })
          .expect(200)
      ).body as Json;
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/clone`)
        .set(AUTH)
        .send({ region: 'us-east', type: 'g6-standard-1' })
        .expect(200);
      const shutdown = () =>
        request(server)
          .post(`/v4/compute/instances/${String(source.id)}/shutdown`)
          .set(AUTH)
          .send({});
      await request(server)
        .post('/__control/clock')
        .set(AUTH)
        .send({ advance_seconds: 11 * 60 })
        .expect(200);
      await shutdown().expect(400);
      await request(server)
        .post('/__control/clock')
        .set(AUTH)
        .send({ advance_seconds: 35 * 60 })
        .expect(200);
      await shutdown().expect(200);
    },
  ],
  [
    'image-uploads-slow',
    async (server) => {
      const upload = async (label: string) =>
        (await request(server).post('/v4/images/upload').set(AUTH).send({ label, region: 'us-east' }).expect(200)).body as Json;
      const status = async (image: Json) =>
        (
          (
            await request(server)
              .get(`/v4/images/${encodeURIComponent(String(image.id))}`)
              .set(AUTH)
          ).body as Json
        ).status;
      const clock = (seconds: number) => request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: seconds }).expect(200);
      const sent = await upload('slow-processing');
      const waiting = await upload('never-sent');
      await request(server)
        .put(new URL(String(sent.upload_to)).pathname)
        .set('Content-Type', 'application/octet-stream')
        .send(gzipSync(Buffer.from('disk')))
        .expect(200);
      expect(await status(sent)).toBe('pending_upload');
      await clock(20 * 60);
      expect(await status(sent)).toBe('available');
      // swept at the first whole hour after its 24 hours
      await clock(24 * 3600 - 20 * 60 + 3600);
      await request(server)
        .get(`/v4/images/${encodeURIComponent(String(waiting.id))}`)
        .set(AUTH)
        .expect(404);
    },
  ],
  [
    'create-runs-a-while',
    async (server) => {
      const instance = (
        await request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ label: 'still-creating', region: 'us-east', type: 'g6-standard-1', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6' })
          .expect(200)
      ).body as Json;
      const path = `/v4/compute/instances/${String(instance.id)}`;
      const shutdown = () => request(server).post(`${path}/shutdown`).set(AUTH).send({});
      const snapshot = () => request(server).post(`${path}/backups`).set(AUTH).send({ label: 'while-creating' });
      const clone = () => request(server).post(`${path}/clone`).set(AUTH).send({ region: 'us-east', type: 'g6-standard-1', label: 'clone-of-new' });
      const configs = (await request(server).get(`${path}/configs`).set(AUTH).expect(200)).body as { data: Json[] };
      const diskId = ((configs.data[0]!.devices as Json).sda as Json).disk_id;
      const capture = () => request(server).post('/v4/images').set(AUTH).send({ disk_id: diskId, label: 'capture-of-new' });
      for (const action of [shutdown, snapshot, clone, capture]) await action().expect(400);
      await request(server)
        .post('/__control/clock')
        .set(AUTH)
        .send({ advance_seconds: 2 * 60 })
        .expect(200);
      // The clone last: the instance is busy while it runs.
      for (const action of [shutdown, snapshot, capture, clone]) await action().expect(200);
    },
  ],
  [
    'snapshot-needs-backups',
    async (server) => {
      const instance = (
        await request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ label: 'not-enrolled', region: 'us-east', type: 'g6-standard-1', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6' })
          .expect(200)
      ).body as Json;
      const path = `/v4/compute/instances/${String(instance.id)}/backups`;
      await request(server).post(path).set(AUTH).send({ label: 'refused' }).expect(400);
      await request(server).post(`${path}/enable`).set(AUTH).send({}).expect(200);
      await request(server).post(path).set(AUTH).send({ label: 'taken' }).expect(200);
    },
  ],
  [
    'events-lag',
    async (server) => {
      const firewall = (
        await request(server)
          .post('/v4/networking/firewalls')
          .set(AUTH)
          .send({ label: 'lagging-events', rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } })
          .expect(200)
      ).body as Json;
      const named = async () =>
        ((await request(server).get('/v4/account/events').set(AUTH).expect(200)).body as { data: Json[] }).data.some(
          (event) => event.action === 'firewall_create' && (event.entity as Json).id === firewall.id,
        );
      expect(await named()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, EVENT_LAG_MS + 50));
      expect(await named()).toBe(true);
    },
  ],
  [
    'account-text-not-blank',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ first_name: '' }).expect(400)).body).toMatchObject({ errors: [{ field: 'first_name' }] });
      await update({ address_2: '' }).expect(200);
    },
  ],
  [
    'credentials-reset-busy',
    async (server) => {
      const created = (
        await request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label: 'resetting-db', engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2' })
          .expect(200)
      ).body as Json;
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      const clock = (seconds: number) => request(server).post('/__control/clock').set(AUTH).send({ advance_seconds: seconds }).expect(200);
      await clock(31 * 60);
      await request(server).post(`${path}/credentials/reset`).set(AUTH).send({}).expect(200);
      await request(server).get(`${path}/credentials`).set(AUTH).expect(409);
      await clock(31);
      await request(server).get(`${path}/credentials`).set(AUTH).expect(200);
    },
  ],
  [
    'dns-strict',
    async (server) => {
      const domain = (
        await request(server)
          .post('/v4/domains')
          .set(AUTH)
          .send({ domain: 'strict-dns.example.com', type: 'master', soa_email: 'hostmaster@example.com' })
          .expect(200)
      ).body as Json;
      const add = (body: Json) =>
        request(server)
          .post(`/v4/domains/${String(domain.id)}/records`)
          .set(AUTH)
          .send(body);
      await add({ type: 'CNAME', name: 'www', target: 'host' }).expect(400);
      await add({ type: 'CNAME', name: 'www', target: 'host.example.net' }).expect(200);
      await add({ type: 'MX', name: '', target: 'mail.example.net', priority: 10 }).expect(400);
      await add({ type: 'SRV', service: 'a-very-long-service', protocol: 'tcp', target: 'sip.example.net', priority: 1, weight: 1, port: 5060 }).expect(400);
      await add({ type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sipserver', priority: 1, weight: 1, port: 5060 }).expect(200);
    },
  ],
  [
    'rule-label-charset',
    async (server) => {
      const rule = (label: string) => ({ action: 'ACCEPT', protocol: 'TCP', ports: '22', addresses: { ipv4: ['192.0.2.0/24'] }, label });
      const create = (label: string, ruleLabel: string) =>
        request(server)
          .post('/v4/networking/firewalls')
          .set(AUTH)
          .send({ label, rules: { inbound_policy: 'DROP', outbound_policy: 'ACCEPT', inbound: [rule(ruleLabel)] } });
      expect((await create('rule-labels-1', 'ssh from office').expect(400)).body).toMatchObject({ errors: [{ field: 'rules.inbound.0.label' }] });
      await create('rule-labels-2', 'ssh-office').expect(200);
    },
  ],
  [
    'record-names-absolute',
    async (server) => {
      const domain = (
        await request(server)
          .post('/v4/domains')
          .set(AUTH)
          .send({ domain: 'absolute.example.com', type: 'master', soa_email: 'hostmaster@example.com' })
          .expect(200)
      ).body as Json;
      const record = (
        await request(server)
          .post(`/v4/domains/${String(domain.id)}/records`)
          .set(AUTH)
          .send({ type: 'CNAME', name: 'www', target: 'host.example.net' })
          .expect(200)
      ).body as Json;
      expect(record).toMatchObject({ name: 'www.absolute.example.com', target: 'host.example.net.' });
    },
  ],
  [
    'maintenance-window-whole',
    async (server) => {
      const created = (
        await request(server)
          .post('/v4/databases/mysql/instances')
          .set(AUTH)
          .send({ label: 'whole-window-db', engine: 'mysql/8.0.30', region: 'us-east', type: 'g6-dedicated-2' })
          .expect(200)
      ).body as Json;
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await request(server)
        .post('/__control/clock')
        .set(AUTH)
        .send({ advance_seconds: 31 * 60 })
        .expect(200);
      const update = (updates: Json) => request(server).put(path).set(AUTH).send({ updates });
      expect((await update({ hour_of_day: 5 }).expect(400)).body).toMatchObject({ errors: [{ field: 'updates.frequency' }] });
      await update({ frequency: 'weekly', duration: 3, hour_of_day: 5, day_of_week: 7, week_of_month: 1 }).expect(200);
    },
  ],
  [
    'image-ids-raw-only',
    async (server) => {
      await request(server).get('/v4/images/compute/debian12').set(AUTH).expect(200);
      const encoded = await request(server).get('/v4/images/compute%2Fdebian12').set(AUTH).expect(404);
      expect((encoded.body as { errors: Json[] }).errors[0]!.reason).toMatch(/not found/i);
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
    'event-actions-new',
    async (server) => {
      await request(server)
        .post('/v4/domains')
        .set(AUTH)
        .send({ domain: 'events-test.example.com', type: 'master', soa_email: 'hostmaster@example.com' })
        .expect(200);
      const events = (await request(server).get('/v4/account/events').set(AUTH).expect(200)).body as { data: Json[] };
      expect(events.data.map((event) => event.action)).toEqual(expect.arrayContaining(['dns_zone_create', 'audit_record']));
    },
  ],
];

describe('emulator variations', () => {
  it.each(cases)('%s', async (id, scenario) => {
    await scenario(await serverWith([id]));
  });

  it('without a variation: a bare token is refused and an unversioned path is not served', async () => {
    const server = await serverWith([]);
    await request(server).get('/v4/account').set({ Authorization: DEFAULT_TOKEN }).expect(401);
    await request(server).get('/account').set(AUTH).expect(404);
  });
});
