// The emulator's variations of domains and their records (document 3) each do what they say.
import request from 'supertest';
import { expect, it } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  describeVariations,
  got,
  newDomain,
  newInstance,
  postAccepted,
  recordsOf,
  serverWith,
  type Json,
  type VariationCase,
} from './variation-server.js';

const cases: VariationCase[] = [
  [
    'record-type-ignored-on-update',
    async (server) => {
      const domain = await newDomain(server, 'type-ignored.example.com');
      const record = await postAccepted(server, `/v4/domains/${String(domain.id)}/records`, { type: 'A', name: 'www', target: '192.0.2.10' });
      const path = `/v4/domains/${String(domain.id)}/records/${String(record.id)}`;
      await request(server).put(path).set(AUTH).send({ type: 'SPF', target: '192.0.2.11' }).expect(200);
      expect((await got(server, path)).type).toBe('A');
      expect((await request(server).put(path).set(AUTH).send({ type: 'TXT', target: 'text' }).expect(400)).body.errors[0]).toMatchObject({ field: 'target' });
    },
  ],
  [
    'domain-clone-answers-empty',
    async (server) => {
      const source = await newDomain(server, 'clone-source.example.com');
      expect(await postAccepted(server, `/v4/domains/${String(source.id)}/clone`, { domain: 'clone-copy.example.com' })).toEqual({});
      const listed = ((await got(server, '/v4/domains')).data as Json[]).filter((domain) => domain.domain === 'clone-copy.example.com');
      expect(listed).toHaveLength(1);
    },
  ],
  [
    'error-field-names-sent-member',
    async (server) => {
      const create = await request(server).post('/v4/domains').set(AUTH).send({ domain: 'clash.example.com', type: 'master' }).expect(400);
      expect(create.body.errors[0]).toMatchObject({ field: 'type' });
    },
  ],
  [
    'zone-file-after-first-render',
    async (server) => {
      const domain = await newDomain(server, 'rendered-later.example.com');
      const zoneFile = () =>
        request(server)
          .get(`/v4/domains/${String(domain.id)}/zone-file`)
          .set(AUTH);
      await zoneFile().expect(404);
      await advanceClock(server, 2 * 60);
      expect(((await zoneFile().expect(200)).body as Json).zone_file).toBeInstanceOf(Array);
    },
  ],
  [
    'empty-name-is-apex',
    async (server) => {
      const record = await recordsOf(server, 'apex-names.example.com');
      await record({ type: 'A', name: '', target: '192.0.2.7' }).expect(200);
      await record({ type: 'CNAME', name: '', target: 'www.example.org' }).expect(400);
    },
  ],
  [
    'record-type-fixed',
    async (server) => {
      const domain = await newDomain(server, 'record-type.example.com');
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
    'domain-ips-unicast-only',
    async (server) => {
      const create = (name: string, ip: string) =>
        request(server)
          .post('/v4/domains')
          .set(AUTH)
          .send({ domain: name, type: 'slave', master_ips: [ip] });
      for (const [name, ip] of [
        ['loopback-master.example', '127.0.0.1'],
        ['documentation-master.example', '192.0.2.53'],
        ['class-e-master.example', '240.1.2.3'],
      ])
        expect((await create(name, ip).expect(400)).body.errors[0], ip).toMatchObject({ field: 'master_ips.0' });
      await create('public-master.example', '198.41.0.4').expect(200);
    },
  ],
  [
    'record-targets-host-addresses',
    async (server) => {
      const domain = await newDomain(server, 'record-targets.example.com');
      const create = (type: string, target: string) =>
        request(server)
          .post(`/v4/domains/${String(domain.id)}/records`)
          .set(AUTH)
          .send({ type, name: 'host', target });
      for (const [type, target] of [
        ['A', '0.0.0.0'],
        ['A', '224.0.0.1'],
        ['A', '240.1.2.3'],
        ['AAAA', '::'],
        ['AAAA', 'ff02::1'],
      ])
        expect((await create(type!, target!).expect(400)).body.errors[0], target).toMatchObject({ field: 'target' });
      await create('A', '198.51.100.7').expect(200);
      await create('AAAA', '2600:3c00::1').expect(200);
    },
  ],
  [
    'slave-soa-email-empty',
    async (server) => {
      const create = (body: Json) => request(server).post('/v4/domains').set(AUTH).send(body);
      await create({ domain: 'slave-soa.example', type: 'slave', master_ips: ['192.0.2.53'], soa_email: '' }).expect(200);
      expect((await create({ domain: 'master-soa.example', type: 'master', soa_email: '' }).expect(400)).body.errors[0]).toMatchObject({ field: 'soa_email' });
    },
  ],
  [
    'srv-protocol-tcp-udp-only',
    async (server) => {
      const send = await recordsOf(server, 'srv-protocols.example');
      const srv = (protocol: string | null) => ({ type: 'SRV', service: 'sip', protocol, target: 'sip.example.net', priority: 1, weight: 1, port: 5060 });
      expect((await send(srv('tls')).expect(400)).body.errors[0]).toMatchObject({ field: 'protocol' });
      await send(srv('udp')).expect(200);
      await send(srv(null)).expect(200);
    },
  ],
  [
    'identical-records-refused',
    async (server) => {
      const send = await recordsOf(server, 'identical.example');
      await send({ type: 'NS', name: 'sub', target: 'ns1.example.net' }).expect(200);
      expect((await send({ type: 'NS', name: 'SUB', target: 'ns1.example.net.', ttl_sec: 300 }).expect(400)).body.errors[0]).toMatchObject({ field: 'target' });
      await send({ type: 'NS', name: 'sub', target: 'ns2.example.net' }).expect(200);
    },
  ],
  [
    'dns-strict',
    async (server) => {
      const add = await recordsOf(server, 'strict-dns.example.com');
      await add({ type: 'CNAME', name: 'www', target: 'host' }).expect(400);
      await add({ type: 'CNAME', name: 'www', target: 'host.example.net' }).expect(200);
      await add({ type: 'MX', name: '', target: 'mail.example.net', priority: 10 }).expect(400);
      await add({ type: 'SRV', service: 'a-very-long-service', protocol: 'tcp', target: 'sip.example.net', priority: 1, weight: 1, port: 5060 }).expect(400);
      await add({ type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sipserver', priority: 1, weight: 1, port: 5060 }).expect(200);
    },
  ],
  [
    'record-names-absolute',
    async (server) => {
      const record = (await (await recordsOf(server, 'absolute.example.com'))({ type: 'CNAME', name: 'www', target: 'host.example.net' }).expect(200))
        .body as Json;
      expect(record).toMatchObject({ name: 'www.absolute.example.com', target: 'host.example.net.' });
    },
  ],
  [
    'domain-unset-members-null',
    async (server) => {
      const slave = await postAccepted(server, '/v4/domains', { domain: 'null-members.example.com', type: 'slave', master_ips: ['198.41.0.4'] });
      expect(await got(server, `/v4/domains/${String(slave.id)}`)).toMatchObject({ description: null, group: null, soa_email: null });
    },
  ],
  [
    'deleted-view-gone-410',
    async (server) => {
      const domain = await newDomain(server, 'gone-later.example.com');
      const path = `/v4/domains/${String(domain.id)}`;
      const record = await postAccepted(server, `${path}/records`, { type: 'A', name: 'www', target: '192.0.2.1' });
      await request(server).get('/v4/domains/987654').set(AUTH).expect(404);
      await request(server).delete(path).set(AUTH).expect(200);
      const gone = await request(server).get(path).set(AUTH).expect(410);
      expect((gone.body as { errors: Json[] }).errors[0]!.reason).toEqual(expect.any(String));
      await request(server)
        .get(`${path}/records/${String(record.id)}`)
        .set(AUTH)
        .expect(410);
      await request(server).delete(path).set(AUTH).expect(404);
      await request(server).get('/v4/domains/987654').set(AUTH).expect(404);
    },
  ],
  [
    'not-found-403',
    async (server) => {
      const refused = await request(server).get('/v4/domains/987654').set(AUTH).expect(403);
      expect((refused.body as { errors: Json[] }).errors[0]!.reason).toEqual(expect.any(String));
      await request(server).get('/v4/account/invoices/999999937').set(AUTH).expect(403);
      const domain = await newDomain(server, 'forbidden-later.example.com');
      const path = `/v4/domains/${String(domain.id)}`;
      await request(server).delete(path).set(AUTH).expect(200);
      await request(server).get(path).set(AUTH).expect(403);
      await request(server).delete(path).set(AUTH).expect(403);
      // A path that is no endpoint, and a request without a token, answer as before.
      await request(server).get('/v4/no-such-collection').set(AUTH).expect(404);
      await request(server).get('/v4/domains/987654').expect(401);
    },
  ],
  [
    'domain-delete-runs-a-while',
    async (server) => {
      const domain = await newDomain(server, 'deleted-later.example.com');
      const path = `/v4/domains/${String(domain.id)}`;
      const record = await postAccepted(server, `${path}/records`, { type: 'A', name: 'www', target: '192.0.2.1' });
      const listed = async () => ((await got(server, '/v4/domains')).data as Json[]).map((item) => item.id);
      const recordIds = async () => ((await got(server, `${path}/records`)).data as Json[]).map((item) => item.id);
      await request(server).delete(path).set(AUTH).expect(200);
      expect((await got(server, path)).domain).toBe('deleted-later.example.com');
      expect(await listed()).toContain(domain.id);
      expect(await recordIds()).toContain(record.id);
      await got(server, `${path}/records/${String(record.id)}`);
      // its name is still taken meanwhile; a DELETE sent again answers as the first
      await request(server).post('/v4/domains').set(AUTH).send({ domain: 'deleted-later.example.com', type: 'master', soa_email: 'a@example.com' }).expect(400);
      await request(server).delete(path).set(AUTH).expect(200);
      await advanceClock(server, 60);
      await request(server).get(path).set(AUTH).expect(404);
      await request(server)
        .get(`${path}/records/${String(record.id)}`)
        .set(AUTH)
        .expect(404);
      expect(await listed()).not.toContain(domain.id);
      await newDomain(server, 'deleted-later.example.com');
    },
  ],
  [
    'domain-list-summary',
    async (server) => {
      const domain = await newDomain(server, 'summarised.example.com');
      const item = ((await got(server, '/v4/domains')).data as Json[]).find((listed) => listed.id === domain.id);
      expect(item).toEqual({ id: domain.id, domain: 'summarised.example.com', type: 'master', status: 'active', tags: [] });
      expect(await got(server, `/v4/domains/${String(domain.id)}`)).toMatchObject({ soa_email: 'hostmaster@example.com', master_ips: [], ttl_sec: 0 });
    },
  ],
  [
    'tagged-objects-summary',
    async (server) => {
      const instance = await newInstance(server, 'tagged-summary');
      const domain = await newDomain(server, 'tagged-summary.example.com');
      await postAccepted(server, '/v4/tags', { label: 'summarised', computes: [instance.id], domains: [domain.id] });
      const items = (await got(server, '/v4/tags/summarised')).data as Json[];
      expect(items).toContainEqual({ id: instance.id, label: 'tagged-summary', region: 'us-east', status: instance.status, tags: ['summarised'] });
      expect(items).toContainEqual({ id: domain.id, domain: 'tagged-summary.example.com', type: 'master', status: 'active', tags: ['summarised'] });
      expect(items).toHaveLength(2);
      // the views show them whole
      expect(await got(server, `/v4/compute/instances/${String(instance.id)}`)).toMatchObject({ specs: expect.any(Object), tags: ['summarised'] });
      expect(await got(server, `/v4/domains/${String(domain.id)}`)).toMatchObject({ soa_email: 'hostmaster@example.com', tags: ['summarised'] });
    },
  ],
  [
    'domain-names-absolute',
    async (server) => {
      const domain = await newDomain(server, 'absolute-shown.example.com');
      expect(domain.domain).toBe('absolute-shown.example.com.');
      const path = `/v4/domains/${String(domain.id)}`;
      expect((await got(server, path)).domain).toBe('absolute-shown.example.com.');
      expect(((await got(server, '/v4/domains')).data as Json[]).find((item) => item.id === domain.id)?.domain).toBe('absolute-shown.example.com.');
      // a name given absolute is the same name
      await request(server)
        .post('/v4/domains')
        .set(AUTH)
        .send({ domain: 'absolute-shown.example.com.', type: 'master', soa_email: 'a@example.com' })
        .expect(400);
      const renamed = (await request(server).put(path).set(AUTH).send({ domain: 'renamed.example.com.' }).expect(200)).body as Json;
      expect(renamed.domain).toBe('renamed.example.com.');
      const clone = await postAccepted(server, `${path}/clone`, { domain: 'cloned.example.com' });
      expect(clone.domain).toBe('cloned.example.com.');
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // Domains, records and monitoring clients take deleted ids again; a new domain has none of the old one's records or zone.
      const first = await newDomain(server, 'first-holder.example.com');
      const path = `/v4/domains/${String(first.id)}`;
      const record = await postAccepted(server, `${path}/records`, { type: 'TXT', name: 'old', target: 'first-zone' });
      await request(server).put(path).set(AUTH).send({ status: 'disabled' }).expect(200);
      await deleteAccepted(server, path);
      const second = await newDomain(server, 'second-holder.example.com');
      expect(second).toMatchObject({ id: first.id, domain: 'second-holder.example.com', status: 'active' });
      expect((await got(server, `${path}/records`)).data).toEqual([]);
      const zone = ((await got(server, `${path}/zone-file`)).zone_file as string[]).join('\n');
      expect([zone.includes('second-holder.example.com'), zone.includes('first')]).toEqual([true, false]);
      expect((await postAccepted(server, `${path}/records`, { type: 'TXT', name: 'new', target: 'second-zone' })).id).toBe(record.id);
      await newDomain(server, 'first-holder.example.com');
      const client = await postAccepted(server, '/v4/monitor/clients', { label: 'first-client' });
      await deleteAccepted(server, `/v4/monitor/clients/${String(client.id)}`);
      expect(await postAccepted(server, '/v4/monitor/clients', {})).toMatchObject({ id: client.id, label: `client${String(client.id)}` });
    },
  ],
];

describeVariations('emulator variations of domains and records', cases);

it('ids-reused with record-delete-runs-a-while: a record id is not given again while its deletion runs', async () => {
  const server = await serverWith(['ids-reused', 'record-delete-runs-a-while']);
  const first = await newDomain(server, 'running-delete.example.com');
  const records = `/v4/domains/${String(first.id)}/records`;
  const record = await postAccepted(server, records, { type: 'TXT', name: 'going', target: 'later' });
  await deleteAccepted(server, `${records}/${String(record.id)}`);
  await deleteAccepted(server, `/v4/domains/${String(first.id)}`);
  expect((await newDomain(server, 'after-delete.example.com')).id).toBe(first.id);
  const kept = await postAccepted(server, records, { type: 'TXT', name: 'kept', target: 'new' });
  expect(kept.id).not.toBe(record.id);
  await advanceClock(server, 60);
  expect(((await got(server, records)).data as Json[]).map((item) => item.id)).toEqual([kept.id]);
  expect((await postAccepted(server, records, { type: 'TXT', name: 'after', target: 'run' })).id).toBe(record.id);
});
