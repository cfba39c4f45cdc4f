// The emulator's variations of domain records each do what they say (see variations.test.ts).
import request from 'supertest';
import { expect } from 'vitest';
import { advanceClock, AUTH, describeVariations, got, newDomain, postAccepted, recordsOf, type Json, type VariationCase } from './variation-server.js';

const SRV = { type: 'SRV', target: 'sip.example.com', priority: 10, weight: 5, port: 5060, service: 'sip', protocol: 'udp' };

const cases: VariationCase[] = [
  [
    'srv-name-refused',
    async (server) => {
      const create = await recordsOf(server, 'srv-name.example.com');
      expect((await create({ ...SRV, name: 'voice' }).expect(400)).body.errors[0]).toMatchObject({ field: 'name' });
      await create(SRV).expect(200);
    },
  ],
  [
    'absent-target-empty',
    async (server) => {
      const create = await recordsOf(server, 'absent-target.example.com');
      expect((await create({ type: 'MX', name: 'mail', priority: 10 }).expect(400)).body.errors[0]).toMatchObject({ field: 'name' });
      await create({ type: 'MX', name: 'mail', priority: 10, target: 'mx.example.com' }).expect(200);
    },
  ],
  [
    'absent-target-empty-priority-first',
    async (server) => {
      const create = await recordsOf(server, 'absent-target-priority.example.com');
      expect((await create({ type: 'MX', name: 'mail', priority: 10 }).expect(400)).body.errors[0]).toMatchObject({ field: 'priority' });
      expect((await create({ type: 'MX', name: 'mail', priority: 0 }).expect(400)).body.errors[0]).toMatchObject({ field: 'name' });
      expect((await create({ type: 'MX', name: 'mail' }).expect(400)).body.errors[0]).toMatchObject({ field: 'name' });
      await create({ type: 'MX', name: 'mail', priority: 10, target: 'mx.example.com' }).expect(200);
    },
  ],
  [
    'record-targets-underscore',
    async (server) => {
      const create = await recordsOf(server, 'underscore-target.example.com');
      await create({ type: 'CNAME', name: 'report', target: '_dmarc.example.org' }).expect(200);
      await create({ type: 'CNAME', name: 'other', target: 'bad!name.example.org' }).expect(400);
    },
  ],
  [
    'srv-target-shown-as-given',
    async (server) => {
      const domain = await newDomain(server, 'srv-as-given.example.com');
      const records = `/v4/domains/${String(domain.id)}/records`;
      const record = await postAccepted(server, records, { ...SRV, target: 'sipserver' });
      expect((await got(server, `${records}/${String(record.id)}`)).target).toBe('sipserver');
      const zone = (await got(server, `/v4/domains/${String(domain.id)}/zone-file`)).zone_file as string[];
      expect(zone.some((line) => line.includes('SRV') && line.endsWith(' sipserver.srv-as-given.example.com.'))).toBe(true);
    },
  ],
  [
    'srv-parts-composed-in-zone',
    async (server) => {
      const domain = await newDomain(server, 'srv-in-zone.example.com');
      const records = `/v4/domains/${String(domain.id)}/records`;
      const record = await postAccepted(server, records, { ...SRV, protocol: 'tcp' });
      expect(record).toMatchObject({ name: null, service: 'sip', protocol: 'tcp' });
      expect(await got(server, `${records}/${String(record.id)}`)).toMatchObject({ name: null, service: 'sip', protocol: 'tcp' });
      expect(((await got(server, records)).data as Json[])[0]).toMatchObject({ name: null, service: 'sip', protocol: 'tcp' });
      const zone = (await got(server, `/v4/domains/${String(domain.id)}/zone-file`)).zone_file as string[];
      expect(zone.some((line) => line.startsWith('_sip._tcp.srv-in-zone.example.com.\t') && line.includes('SRV'))).toBe(true);
    },
  ],
  [
    'record-missing-member-names-type',
    async (server) => {
      const record = await recordsOf(server, 'missing-members.example.com');
      const named = async (body: Json) => ((await record(body).expect(400)).body as { errors: Json[] }).errors[0]!.field;
      for (const member of ['priority', 'weight', 'port', 'service'] as const) {
        const { [member]: _left, ...body } = SRV;
        expect(await named(body)).toBe('type');
      }
      expect(await named({ type: 'CAA', name: 'certs', target: 'ca.example.net' })).toBe('type');
      expect(await named({ type: 'CNAME', target: 'www.example.net' })).toBe('type');
      // a missing target, and a member sent empty, are named as before
      expect(await named({ type: 'CNAME', name: 'alias' })).toBe('target');
      expect(await named({ type: 'CNAME', name: '', target: 'www.example.net' })).toBe('name');
    },
  ],
  [
    'record-targets-global-unicast',
    async (server) => {
      const create = await recordsOf(server, 'unicast-targets.example.com');
      for (const [type, target] of [
        ['A', '192.0.2.10'],
        ['A', '10.0.0.1'],
        ['A', '127.0.0.1'],
        ['AAAA', '2001:db8::10'],
        ['AAAA', 'fe80::1'],
      ])
        expect((await create({ type, name: 'host', target }).expect(400)).body.errors[0], target).toMatchObject({ field: 'target' });
      await create({ type: 'A', name: 'host', target: '45.64.0.10' }).expect(200);
      await create({ type: 'AAAA', name: 'host', target: '2600:3c00::10' }).expect(200);
    },
  ],
  [
    'mx-priority-makes-ordinary',
    async (server) => {
      const create = await recordsOf(server, 'mx-ordinary.example.com');
      for (const priority of [1, 10, 255])
        expect((await create({ type: 'MX', name: '', target: '', priority }).expect(400)).body.errors[0]).toMatchObject({ field: 'name' });
      await create({ type: 'MX', name: '', target: '', priority: 0 }).expect(200);
    },
  ],
  [
    'record-create-answers-event',
    async (server) => {
      const domain = await newDomain(server, 'record-answers-event.example.com');
      const records = `/v4/domains/${String(domain.id)}/records`;
      const answer = await postAccepted(server, records, { type: 'TXT', name: 'evented', target: 'conformance' });
      expect(answer).toMatchObject({ action: 'dns_record_create', entity: { id: domain.id } });
      expect(answer).not.toHaveProperty('type');
      const [record] = (await got(server, records)).data as Json[];
      expect(record).toMatchObject({ type: 'TXT', name: 'evented' });
      expect(answer.id).toBe((await got(server, `/v4/account/events/${String(answer.id)}`)).id);
    },
  ],
  [
    'record-delete-runs-a-while',
    async (server) => {
      const domain = await newDomain(server, 'record-deleted-later.example.com');
      const records = `/v4/domains/${String(domain.id)}/records`;
      const record = await postAccepted(server, records, { type: 'TXT', name: 'gone', target: 'later' });
      const path = `${records}/${String(record.id)}`;
      const listed = async () => ((await got(server, records)).data as Json[]).map((item) => item.id);
      await request(server).delete(path).set(AUTH).expect(200);
      expect((await got(server, path)).name).toBe('gone');
      expect(await listed()).toContain(record.id);
      // a DELETE sent again meanwhile answers as the first
      await request(server).delete(path).set(AUTH).expect(200);
      await advanceClock(server, 60);
      await request(server).get(path).set(AUTH).expect(404);
      expect(await listed()).not.toContain(record.id);
    },
  ],
];

describeVariations('emulator variations: domain records', cases);
