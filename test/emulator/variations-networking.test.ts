// The emulator's variations of IP addresses (assignment, reverse DNS) and firewalls each do what they say (see variations.test.ts);
// also the ids of firewalls, their devices, domain records and monitoring clients shown as strings.
import request from 'supertest';
import { expect, it } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  describeVariations,
  got,
  mintedAuth,
  newDomain,
  newInstance,
  postAccepted,
  serverWith,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

const FIREWALLS = '/v4/networking/firewalls';
const OPEN = { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' };

/** POST instance `id` to firewall `firewallId`'s devices. */
const addDevice = (server: Server, firewallId: unknown, id: unknown) =>
  request(server)
    .post(`${FIREWALLS}/${String(firewallId)}/devices`)
    .set(AUTH)
    .send({ id, type: 'compute' });

const cases: VariationCase[] = [
  [
    'not-shown-ids-as-strings',
    async (server) => {
      const instance = await newInstance(server, 'ids-as-strings-host');
      const firewall = await postAccepted(server, FIREWALLS, { label: 'ids-as-strings', rules: OPEN });
      const device = (await addDevice(server, firewall.id, instance.id).expect(200)).body as Json;
      const domain = await newDomain(server, 'ids-as-strings.example.com');
      const record = await postAccepted(server, `/v4/domains/${String(domain.id)}/records`, { type: 'A', name: 'www', target: '192.0.2.1' });
      const client = await postAccepted(server, '/v4/monitor/clients', { label: 'ids-as-strings' });
      const [listed] = (await got(server, FIREWALLS)).data as [Json];
      for (const id of [firewall.id, listed.id, device.id, record.id, client.id]) expect(id).toMatch(/^\d+$/);
      // The paths still take the integer; the ids of other kinds, and a device's instance, stay numbers.
      const view = await got(server, `${FIREWALLS}/${String(firewall.id)}/devices/${String(device.id)}`);
      expect(view.id).toBe(device.id);
      expect([(view.entity as Json).id, instance.id, domain.id].map((id) => typeof id)).toEqual(['number', 'number', 'number']);
      expect((await got(server, `/v4/monitor/clients/${String(client.id)}`)).id).toBe(client.id);
    },
  ],
  [
    'extra-ipv4-checked-first',
    async (server) => {
      const { id } = await newInstance(server, 'not-enabled');
      const allocate = (type: string) => request(server).post('/v4/networking/ips').set(AUTH).send({ compute_id: id, public: true, type });
      expect((await allocate('ipv6').expect(400)).body.errors[0]).toMatchObject({ field: 'public' });
    },
  ],
  [
    'range-limit-checked-first',
    async (server) => {
      const { id } = await newInstance(server, 'range-holder', 'g6-standard-1', { region: 'ap-south' });
      await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: id });
      const second = await request(server).post('/v4/networking/ipv6/ranges').set(AUTH).send({ prefix_length: 48, compute_id: id }).expect(400);
      expect(second.body.errors[0]).toMatchObject({ field: 'compute_id' });
    },
  ],
  [
    'range-create-answers-empty',
    async (server) => {
      const { id } = await newInstance(server, 'range-holder', 'g6-standard-1', { region: 'ap-south' });
      expect(await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: id })).toEqual({});
      const listed = ((await got(server, '/v4/networking/ipv6/ranges')).data as Json[]).filter((range) => range.region === 'ap-south');
      expect(listed).toHaveLength(1);
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
    'ipv4-assign-assignments-only',
    async (server) => {
      const instances = (await request(server).get('/v4/compute/instances').set(AUTH).expect(200)).body as { data: Json[] };
      const holder = instances.data.find((instance) => (instance.ipv4 as string[]).length)!;
      const unchanged = [{ address: (holder.ipv4 as string[])[0], compute_id: holder.id }];
      const assign = (body: Json) => request(server).post('/v4/networking/ipv4/assign').set(AUTH).send(body);
      expect((await assign({ region: holder.region, assignments: unchanged }).expect(400)).body.errors[0]).toMatchObject({ field: 'region' });
      expect((await assign({ assignments: unchanged.map((item) => ({ ...item, region: holder.region })) }).expect(400)).body.errors[0]).toMatchObject({
        field: 'assignments.0.region',
      });
      await assign({ assignments: unchanged }).expect(200);
    },
  ],
  [
    'address-moves-unrestricted-only',
    async (server) => {
      const holder = await newInstance(server, 'moves-holder');
      const address = (holder.ipv4 as string[])[0]!;
      const grants = { entities: { compute: { [String(holder.id)]: 'read_write' } } };
      const restricted = await mintedAuth(server, { scopes: '*', restricted: true, username: 'moves-restricted', grants });
      const assign = { region: 'us-east', assignments: [{ address, compute_id: holder.id }] };
      await request(server).post('/v4/networking/ipv4/assign').set(restricted).send(assign).expect(403);
      await request(server).post('/v4/networking/ipv4/share').set(restricted).send({ compute_id: holder.id, ips: [] }).expect(403);
      await request(server).post('/v4/networking/ipv4/assign').set(AUTH).send(assign).expect(200);
    },
  ],
  [
    'assign-no-op-refused',
    async (server) => {
      const [a, b] = (await Promise.all(['no-op-a', 'no-op-b'].map((label) => newInstance(server, label)))) as Json[];
      const [pa, pb] = [a!, b!].map((instance) => (instance.ipv4 as string[])[0]!);
      const assign = (assignments: Json[]) => request(server).post('/v4/networking/ips/assign').set(AUTH).send({ region: 'us-east', assignments });
      expect((await assign([{ address: pa, compute_id: a!.id }]).expect(400)).body.errors[0]).toMatchObject({ field: 'assignments' });
      await assign([
        { address: pa, compute_id: b!.id },
        { address: pb, compute_id: a!.id },
      ]).expect(200);
      expect((await got(server, `/v4/compute/instances/${String(a!.id)}`)).ipv4).toEqual([pb]);
    },
  ],
  [
    'assign-items-first',
    async (server) => {
      const holder = (await newInstance(server, 'items-first')) as Json;
      const assign = (body: Json) => request(server).post('/v4/networking/ips/assign').set(AUTH).send(body);
      expect((await assign({ assignments: [] }).expect(400)).body.errors[0]).toMatchObject({ field: 'assignments' });
      const unknown = { address: '45.33.255.254', compute_id: holder.id };
      expect((await assign({ assignments: [{ address: (holder.ipv4 as string[])[0] }, unknown] }).expect(400)).body.errors[0]).toMatchObject({
        field: 'assignments.1.address',
      });
    },
  ],
  [
    'rdns-default-null',
    async (server) => {
      const holder = (await newInstance(server, 'rdns-null')) as Json;
      const path = `/v4/networking/ips/${(holder.ipv4 as string[])[0]!}`;
      expect((await got(server, path)).rdns).toBeNull();
      await request(server).put(path).set(AUTH).send({ rdns: null }).expect(200);
      expect((await got(server, path)).rdns).toBeNull();
    },
  ],
  [
    'firewall-rule-unset-members-null',
    async (server) => {
      const rule = { action: 'ACCEPT', protocol: 'TCP', ports: '22', addresses: { ipv4: ['192.0.2.0/24'] } };
      const rules = { inbound_policy: 'DROP', outbound_policy: 'ACCEPT', inbound: [rule, { ...rule, label: 'ssh-in' }], outbound: [] };
      const firewall = await postAccepted(server, '/v4/networking/firewalls', { label: 'null-members', rules });
      const [bare, labelled] = (await got(server, `/v4/networking/firewalls/${String(firewall.id)}/rules`)).inbound as Json[];
      expect(bare).toMatchObject({ description: null, label: null });
      expect(labelled).toMatchObject({ description: null, label: 'ssh-in' });
    },
  ],
  [
    'tcp-ports-names-protocol',
    async (server) => {
      const rule = { action: 'ACCEPT', addresses: { ipv4: ['192.0.2.0/24'] } };
      const firewall = await postAccepted(server, FIREWALLS, { label: 'ports-needed', rules: OPEN });
      const put = (outbound: Json[]) =>
        request(server)
          .put(`${FIREWALLS}/${String(firewall.id)}/rules`)
          .set(AUTH)
          .send({ outbound });
      for (const protocol of ['TCP', 'UDP'])
        expect((await put([{ ...rule, protocol }]).expect(400)).body.errors[0]).toMatchObject({ field: 'outbound.0.protocol' });
      expect((await put([{ ...rule, protocol: 'TCP', ports: '0' }]).expect(400)).body.errors[0]).toMatchObject({ field: 'outbound.0.ports' });
      await put([{ ...rule, protocol: 'ICMP' }]).expect(200);
    },
  ],
  [
    'firewall-state-event-on-create',
    async (server) => {
      const firewall = await postAccepted(server, FIREWALLS, { label: 'state-event', rules: OPEN });
      const naming = ((await got(server, '/v4/account/events?page_size=100')).data as Json[]).filter((event) => (event.entity as Json).id === firewall.id);
      expect(naming.map((event) => event.action).sort()).toEqual(['firewall_create', 'firewall_enable']);
    },
  ],
  [
    'rule-addresses-routable-only',
    async (server) => {
      const firewall = await postAccepted(server, FIREWALLS, { label: 'routable', rules: OPEN });
      const put = (ipv4: string[], ipv6: string[] = []) =>
        request(server)
          .put(`${FIREWALLS}/${String(firewall.id)}/rules`)
          .set(AUTH)
          .send({ inbound: [{ action: 'ACCEPT', protocol: 'TCP', ports: '22', addresses: { ipv4, ipv6 } }] });
      await put(['45.79.0.0/16', '0.0.0.0/0', '10.0.0.0/8'], ['2600:3c00::/32', '::/0']).expect(200);
      for (const [ipv4, ipv6, field] of [
        [['45.79.0.0/16', '192.0.2.0/24'], [], 'inbound.0.addresses.ipv4.1'],
        [['224.0.0.0/4'], [], 'inbound.0.addresses.ipv4.0'],
        [['127.0.0.1/32'], [], 'inbound.0.addresses.ipv4.0'],
        [[], ['2001:db8::/32'], 'inbound.0.addresses.ipv6.0'],
        [[], ['ff02::1/128'], 'inbound.0.addresses.ipv6.0'],
      ] as Array<[string[], string[], string]>)
        expect((await put(ipv4, ipv6).expect(400)).body.errors[0]).toMatchObject({ field });
    },
  ],
  [
    'firewall-delete-releases-later',
    async (server) => {
      const { id } = await newInstance(server, 'released-later');
      const first = await postAccepted(server, FIREWALLS, { label: 'deleted-first', rules: OPEN, devices: { computes: [id] } });
      const second = await postAccepted(server, FIREWALLS, { label: 'enabled-second', rules: OPEN });
      await request(server)
        .delete(`${FIREWALLS}/${String(first.id)}`)
        .set(AUTH)
        .expect(200);
      const add = () => addDevice(server, second.id, id);
      expect((await add().expect(400)).body.errors[0]).toMatchObject({ field: 'id' });
      await advanceClock(server, 61);
      await add().expect(200);
    },
  ],
  [
    'device-add-answers-firewall',
    async (server) => {
      const { id } = await newInstance(server, 'answered-firewall');
      const firewall = await postAccepted(server, FIREWALLS, { label: 'answers-itself', rules: OPEN });
      const added = await postAccepted(server, `${FIREWALLS}/${String(firewall.id)}/devices`, { id, type: 'compute' });
      expect(added).toMatchObject({ id: firewall.id, label: 'answers-itself' });
      const devices = (await got(server, `${FIREWALLS}/${String(firewall.id)}/devices`)).data as Json[];
      expect(devices.map((device) => (device.entity as Json).id)).toEqual([id]);
    },
  ],
  [
    'device-as-request',
    async (server) => {
      const { id } = await newInstance(server, 'request-form');
      const firewall = await postAccepted(server, FIREWALLS, { label: 'request-form', rules: OPEN });
      const devices = `${FIREWALLS}/${String(firewall.id)}/devices`;
      expect(await postAccepted(server, devices, { id, type: 'compute' })).toEqual({
        id,
        type: 'compute',
        created: expect.any(String),
        updated: expect.any(String),
      });
      expect(((await got(server, devices)).data as Json[]).map((device) => [device.id, device.type])).toEqual([[id, 'compute']]);
      expect(await got(server, `${devices}/${String(id)}`)).toMatchObject({ id, type: 'compute' });
      await request(server)
        .delete(`${devices}/${String(id)}`)
        .set(AUTH)
        .expect(200);
      expect((await got(server, devices)).data).toEqual([]);
    },
  ],
  [
    'device-own-id-only',
    async (server) => {
      const { id } = await newInstance(server, 'own-id-only');
      const firewall = await postAccepted(server, FIREWALLS, { label: 'own-id-only', rules: OPEN });
      const devices = `${FIREWALLS}/${String(firewall.id)}/devices`;
      const added = await postAccepted(server, devices, { id, type: 'compute' });
      expect(added).toEqual({ id: expect.any(Number), type: 'compute', created: expect.any(String), updated: expect.any(String) });
      expect(added.id).not.toBe(id);
      expect((await got(server, devices)).data).toEqual([added]);
      expect(await got(server, `${devices}/${String(added.id)}`)).toEqual(added);
      await request(server)
        .get(`${devices}/${String(id)}`)
        .set(AUTH)
        .expect(404);
      await request(server)
        .delete(`${devices}/${String(added.id)}`)
        .set(AUTH)
        .expect(200);
      expect((await got(server, devices)).data).toEqual([]);
    },
  ],
  [
    'range-release-later',
    async (server) => {
      const [p, q] = await Promise.all(['held-p', 'held-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'ap-south' })));
      const create = (id: unknown) => request(server).post('/v4/networking/ipv6/ranges').set(AUTH).send({ prefix_length: 64, compute_id: id });
      const { range } = (await create(p!.id).expect(200)).body as Json;
      await request(server)
        .delete(`/v4/networking/ipv6/ranges/${String(range)}`)
        .set(AUTH)
        .expect(200);
      await request(server)
        .get(`/v4/networking/ipv6/ranges/${String(range)}`)
        .set(AUTH)
        .expect(404);
      expect(((await got(server, '/v4/networking/ipv6/ranges')).data as Json[]).filter((item) => item.region === 'ap-south')).toEqual([]);
      expect(((await create(q!.id).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'compute_id' });
      await advanceClock(server, 60);
      await create(q!.id).expect(200);
    },
  ],
  [
    'assign-runs-a-while',
    async (server) => {
      const [a, b] = (await Promise.all(['later-a', 'later-b'].map((label) => newInstance(server, label)))) as Json[];
      const [pa, pb] = [a!, b!].map((instance) => (instance.ipv4 as string[])[0]!);
      const ipv4Of = async (instance: Json) => (await got(server, `/v4/compute/instances/${String(instance.id)}`)).ipv4;
      await postAccepted(server, '/v4/networking/ips/assign', {
        region: 'us-east',
        assignments: [
          { address: pa, compute_id: b!.id },
          { address: pb, compute_id: a!.id },
        ],
      });
      expect([await ipv4Of(a!), await ipv4Of(b!)]).toEqual([[pa], [pb]]);
      await advanceClock(server, 60);
      expect([await ipv4Of(a!), await ipv4Of(b!)]).toEqual([[pb], [pa]]);
      // A range re-targeted a minute later too.
      const [p, q] = await Promise.all(['later-p', 'later-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'ap-south' })));
      const { range } = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: p!.id });
      const routeTarget = async () => (await got(server, `/v4/networking/ipv6/ranges/${String(range)}`)).route_target;
      const before = await routeTarget();
      await postAccepted(server, '/v4/networking/ips/assign', { region: 'ap-south', assignments: [{ address: `${String(range)}/64`, compute_id: q!.id }] });
      expect(await routeTarget()).toBe(before);
      await advanceClock(server, 60);
      expect(await routeTarget()).toBe(String(q!.ipv6).split('/')[0]);
    },
  ],
  [
    'ip-allocate-answers-instance-ips',
    async (server) => {
      const { id } = await newInstance(server, 'allocate-answers-all');
      const answer = await postAccepted(server, '/v4/networking/ips', { compute_id: id, public: false, type: 'ipv4' });
      const { ipv4 } = await got(server, `/v4/compute/instances/${String(id)}`);
      const [publicOne, privateOne] = ipv4 as string[];
      expect(answer).toMatchObject({ ipv4: { public: [{ address: publicOne }], private: [{ address: privateOne, public: false }] } });
      expect(answer).not.toHaveProperty('address');
    },
  ],
  [
    'ranges-without-region',
    async (server) => {
      const [p, q] = await Promise.all(['regionless-p', 'regionless-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'ap-south' })));
      const created = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: p!.id });
      expect(created).toHaveProperty('range');
      expect(created).not.toHaveProperty('region');
      expect(await got(server, `/v4/networking/ipv6/ranges/${String(created.range)}`)).not.toHaveProperty('region');
      for (const item of (await got(server, '/v4/networking/ipv6/ranges')).data as Json[]) expect(item).not.toHaveProperty('region');
      // Still one range per region.
      await request(server).post('/v4/networking/ipv6/ranges').set(AUTH).send({ prefix_length: 64, compute_id: q!.id }).expect(400);
    },
  ],
  [
    'ranges-without-route-target',
    async (server) => {
      const { id } = await newInstance(server, 'untargeted', 'g6-standard-1', { region: 'ap-south' });
      const created = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: id });
      expect(created).toHaveProperty('range');
      expect(created).not.toHaveProperty('route_target');
      expect(await got(server, `/v4/networking/ipv6/ranges/${String(created.range)}`)).not.toHaveProperty('route_target');
      for (const item of (await got(server, '/v4/networking/ipv6/ranges')).data as Json[]) expect(item).not.toHaveProperty('route_target');
    },
  ],
  [
    'share-runs-a-while',
    async (server) => {
      const [p, q] = await Promise.all(['sharing-p', 'sharing-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'us-west' })));
      const ranges = '/v4/networking/ipv6/ranges';
      const remove = (range: unknown) =>
        request(server)
          .delete(`${ranges}/${String(range)}`)
          .set(AUTH);
      // Shared a minute later: a DELETE sent meanwhile is accepted.
      const early = await postAccepted(server, ranges, { prefix_length: 64, compute_id: p!.id });
      await postAccepted(server, '/v4beta/networking/ips/share', { compute_id: q!.id, ips: [early.range] });
      await remove(early.range).expect(200);
      await advanceClock(server, 60);
      // Once the share has run, the range is refused; unshared a minute later too.
      const { range } = await postAccepted(server, ranges, { prefix_length: 64, compute_id: p!.id });
      await postAccepted(server, '/v4beta/networking/ips/share', { compute_id: q!.id, ips: [range] });
      await advanceClock(server, 60);
      await remove(range).expect(400);
      await postAccepted(server, '/v4beta/networking/ips/share', { compute_id: q!.id, ips: [] });
      await remove(range).expect(400);
      await advanceClock(server, 60);
      await remove(range).expect(200);
    },
  ],
  [
    'ip-allocate-runs-a-while',
    async (server) => {
      const { id, ipv4 } = await newInstance(server, 'allocated-later');
      const allocate = () => request(server).post('/v4/networking/ips').set(AUTH).send({ compute_id: id, public: false, type: 'ipv4' });
      const { address } = (await allocate().expect(200)).body as Json;
      const shown = async () => (await got(server, `/v4/compute/instances/${String(id)}`)).ipv4;
      expect(await shown()).toEqual(ipv4);
      // the private address being allocated counts: a second one is refused meanwhile
      expect((await allocate().expect(400)).body.errors[0]).toMatchObject({ field: 'public' });
      await advanceClock(server, 60);
      expect(await shown()).toEqual([...(ipv4 as string[]), address]);
    },
  ],
  [
    'range-delete-runs-a-while',
    async (server) => {
      const [p, q] = await Promise.all(['deleting-p', 'deleting-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'ap-south' })));
      const ranges = '/v4/networking/ipv6/ranges';
      const { range } = await postAccepted(server, ranges, { prefix_length: 64, compute_id: p!.id });
      const listed = async () => ((await got(server, ranges)).data as Json[]).map((item) => item.range);
      await request(server)
        .delete(`${ranges}/${String(range)}`)
        .set(AUTH)
        .expect(200);
      expect(await got(server, `${ranges}/${String(range)}`)).toMatchObject({ route_target: String(p!.ipv6).split('/')[0] });
      expect(await listed()).toContain(range);
      // the region's one range is still held meanwhile
      await request(server).post(ranges).set(AUTH).send({ prefix_length: 64, compute_id: q!.id }).expect(400);
      await advanceClock(server, 60);
      await request(server)
        .get(`${ranges}/${String(range)}`)
        .set(AUTH)
        .expect(404);
      expect(await listed()).not.toContain(range);
      await postAccepted(server, ranges, { prefix_length: 64, compute_id: q!.id });
    },
  ],
  [
    'firewall-delete-runs-a-while',
    async (server) => {
      const { id } = await newInstance(server, 'deleted-later');
      const first = await postAccepted(server, FIREWALLS, { label: 'deleting-first', rules: OPEN, devices: { computes: [id] } });
      const second = await postAccepted(server, FIREWALLS, { label: 'enabled-after', rules: OPEN });
      const path = `${FIREWALLS}/${String(first.id)}`;
      const listed = async () => ((await got(server, FIREWALLS)).data as Json[]).map((item) => item.id);
      await request(server).delete(path).set(AUTH).expect(200);
      expect(await got(server, path)).toMatchObject({ status: first.status });
      expect(await listed()).toContain(first.id);
      const add = () => addDevice(server, second.id, id);
      expect((await add().expect(400)).body.errors[0]).toMatchObject({ field: 'id' });
      await advanceClock(server, 60);
      await request(server).get(path).set(AUTH).expect(404);
      expect(await listed()).not.toContain(first.id);
      await add().expect(200);
    },
  ],
  [
    'monitor-client-delete-runs-a-while',
    async (server) => {
      const client = await postAccepted(server, '/v4/monitor/clients', { label: 'deleted-later' });
      const path = `/v4/monitor/clients/${String(client.id)}`;
      const listed = async () => ((await got(server, '/v4/monitor/clients')).data as Json[]).map((item) => item.id);
      await request(server).delete(path).set(AUTH).expect(200);
      expect((await got(server, path)).label).toBe('deleted-later');
      expect(await listed()).toContain(client.id);
      await advanceClock(server, 60);
      await request(server).get(path).set(AUTH).expect(404);
      expect(await listed()).not.toContain(client.id);
    },
  ],
  [
    'private-ipv4-shared-space',
    async (server) => {
      const made = await newInstance(server, 'shared-space', 'g6-standard-1', { private_ip: true });
      const [pub, priv] = made.ipv4 as string[];
      expect(priv).toMatch(/^100\.64\.(12[89]|1[3-9]\d|2\d\d)\./);
      const listed = ((await got(server, '/v4/networking/ips')).data as Json[]).map((item) => item.address);
      expect(listed).toContain(pub);
      expect(listed).not.toContain(priv);
      expect(await got(server, `/v4/networking/ips/${String(priv)}`)).toMatchObject({ public: false, rdns: null });
      // POST ips with public false gives one too, and a second one is refused (at most one per instance).
      const other = await newInstance(server, 'shared-space-2');
      await postAccepted(server, '/v4/networking/ips', { type: 'ipv4', public: false, compute_id: other.id });
      const shown = (await got(server, `/v4/compute/instances/${String(other.id)}`)).ipv4 as string[];
      expect(shown.filter((a) => a.startsWith('100.64.'))).toHaveLength(1);
      await request(server).post('/v4/networking/ips').set(AUTH).send({ type: 'ipv4', public: false, compute_id: other.id }).expect(400);
    },
  ],
  [
    'firewall-ids-reused',
    async (server) => {
      const first = await postAccepted(server, FIREWALLS, { label: 'first-holder', rules: OPEN });
      await request(server)
        .delete(`${FIREWALLS}/${String(first.id)}`)
        .set(AUTH)
        .expect(200);
      const second = await postAccepted(server, FIREWALLS, { label: 'second-holder', rules: OPEN });
      expect(second.id).toBe(first.id);
      // The deleted firewall's events still name the id, under its own label.
      const events = (await got(server, '/v4/account/events?page_size=100')).data as Json[];
      const deleted = events.find((event) => event.action === 'firewall_delete' && (event.entity as Json).id === first.id);
      expect(deleted?.entity).toMatchObject({ id: first.id, label: 'first-holder' });
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // Firewalls, their devices and instances take deleted ids again, and start clean.
      const host = await newInstance(server, 'first-host');
      const first = await postAccepted(server, FIREWALLS, { label: 'first-holder', rules: OPEN, devices: { computes: [host.id] } });
      const devicesOf = async (firewall: Json) => (await got(server, `${FIREWALLS}/${String(firewall.id)}/devices`)).data as Json[];
      const [device] = await devicesOf(first);
      await deleteAccepted(server, `/v4/compute/instances/${String(host.id)}`);
      const successor = await newInstance(server, 'second-host');
      expect(successor.id).toBe(host.id);
      expect(await devicesOf(first)).toEqual([]);
      expect((await addDevice(server, first.id, successor.id).expect(200)).body).toMatchObject({ id: device!.id, entity: { label: 'second-host' } });
      await deleteAccepted(server, `${FIREWALLS}/${String(first.id)}`);
      const second = await postAccepted(server, FIREWALLS, { label: 'second-holder', rules: OPEN });
      expect(second.id).toBe(first.id);
      expect(await devicesOf(second)).toEqual([]);
      // The instance is no enabled firewall's device any more: a new one takes it.
      await addDevice(server, second.id, successor.id).expect(200);
    },
  ],
];

describeVariations('emulator variations: IP addresses and firewalls', cases);

it('ids-reused with firewall-delete-releases-later: an instance given a deleted instance id is not held by a deleted firewall', async () => {
  const server = await serverWith(['ids-reused', 'firewall-delete-releases-later']);
  const host = await newInstance(server, 'held-host');
  const deleted = await postAccepted(server, FIREWALLS, { label: 'deleted-holder', rules: OPEN, devices: { computes: [host.id] } });
  await deleteAccepted(server, `${FIREWALLS}/${String(deleted.id)}`);
  await deleteAccepted(server, `/v4/compute/instances/${String(host.id)}`);
  const successor = await newInstance(server, 'free-host');
  expect(successor.id).toBe(host.id);
  const other = await postAccepted(server, FIREWALLS, { label: 'enabled-other', rules: OPEN });
  await addDevice(server, other.id, successor.id).expect(200);
});

it('ids-reused with assign-runs-a-while: an assignment to a deleted instance does not go to the instance given its id', async () => {
  const server = await serverWith(['ids-reused', 'assign-runs-a-while']);
  const [giver, receiver] = await Promise.all(['giver', 'receiver'].map((label) => newInstance(server, label, 'g6-standard-1', { tags: ['extra-ipv4'] })));
  const extra = await postAccepted(server, '/v4/networking/ips', { type: 'ipv4', public: true, compute_id: giver!.id });
  await postAccepted(server, '/v4/networking/ips/assign', { region: 'us-east', assignments: [{ address: extra.address, compute_id: receiver!.id }] });
  await deleteAccepted(server, `/v4/compute/instances/${String(receiver!.id)}`);
  const successor = await newInstance(server, 'successor');
  expect(successor.id).toBe(receiver!.id);
  await advanceClock(server, 60);
  expect((await got(server, `/v4/compute/instances/${String(successor.id)}`)).ipv4).toEqual(successor.ipv4);
  expect((await got(server, `/v4/compute/instances/${String(giver!.id)}`)).ipv4).toContain(extra.address);
});

// A fault of the immediate assignment holds once a delayed one has run too: run under the variation, it still shows.
it('assign-runs-a-while keeps the assignment faults: a previous holder keeps its address, a range stays where it was', async () => {
  const server = await serverWith(['assign-runs-a-while'], ['P3.assign.previous-holder-loses', 'P3.assign.ipv6-retarget']);
  const [a, b] = (await Promise.all(['faulty-a', 'faulty-b'].map((label) => newInstance(server, label)))) as Json[];
  const [pa, pb] = [a!, b!].map((instance) => (instance.ipv4 as string[])[0]!);
  const ipv4Of = async (instance: Json) => ((await got(server, `/v4/compute/instances/${String(instance.id)}`)).ipv4 as string[]).slice().sort();
  await postAccepted(server, '/v4/networking/ips/assign', {
    region: 'us-east',
    assignments: [
      { address: pa, compute_id: b!.id },
      { address: pb, compute_id: a!.id },
    ],
  });
  await advanceClock(server, 60);
  expect([await ipv4Of(a!), await ipv4Of(b!)]).toEqual([[pa, pb].sort(), [pa, pb].sort()]);
  const [p, q] = await Promise.all(['faulty-p', 'faulty-q'].map((label) => newInstance(server, label, 'g6-standard-1', { region: 'ap-south' })));
  const { range } = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: p!.id });
  const routeTarget = async () => (await got(server, `/v4/networking/ipv6/ranges/${String(range)}`)).route_target;
  const before = await routeTarget();
  await postAccepted(server, '/v4/networking/ips/assign', { region: 'ap-south', assignments: [{ address: `${String(range)}/64`, compute_id: q!.id }] });
  await advanceClock(server, 60);
  expect(await routeTarget()).toBe(before);
});

it('device-as-request with another device form: the device is found by the id the responses show (the other form, listed first)', async () => {
  const server = await serverWith(['device-typed-own-id', 'device-as-request']);
  const { id } = await newInstance(server, 'two-forms');
  const firewall = await postAccepted(server, FIREWALLS, { label: 'two-forms', rules: OPEN });
  const devices = `${FIREWALLS}/${String(firewall.id)}/devices`;
  const added = await postAccepted(server, devices, { id, type: 'compute' });
  expect(added).toMatchObject({ type: 'compute', compute_id: id });
  expect(await got(server, `${devices}/${String(added.id)}`)).toMatchObject({ id: added.id, compute_id: id });
});

it('ids-reused with ip-allocate-runs-a-while: an allocation to a deleted instance neither shows on nor counts for the instance given its id', async () => {
  const server = await serverWith(['ids-reused', 'ip-allocate-runs-a-while']);
  const first = await newInstance(server, 'allocating');
  const allocated = await postAccepted(server, '/v4/networking/ips', { type: 'ipv4', public: false, compute_id: first.id });
  await deleteAccepted(server, `/v4/compute/instances/${String(first.id)}`);
  const successor = await newInstance(server, 'successor');
  expect(successor.id).toBe(first.id);
  // (not refused as a second private address)
  await postAccepted(server, '/v4/networking/ips', { type: 'ipv4', public: false, compute_id: successor.id });
  await advanceClock(server, 60);
  const ipv4 = (await got(server, `/v4/compute/instances/${String(successor.id)}`)).ipv4 as string[];
  expect([ipv4.length, ipv4.includes(allocated.address as string)]).toEqual([2, false]);
});
