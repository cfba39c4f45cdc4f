// A fault still shows when the emulator carries a variation touching the same behaviour: the variation is an allowed
// choice, the fault a divergence, and `npm run mutation -- --under` runs every fault under variations. A variation
// that replaced the faulty code path would hide the fault from the suite for a reason that is the emulator's alone.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  advanceClock,
  AUTH,
  got,
  type Json,
  newInstance,
  postAccepted,
  recordsOf,
  sdaDiskOf,
  serverWith,
  weakPasswordError,
  type Server,
} from './variation-server.js';

type FaultUnderVariation = [variation: string, fault: string, shows: (server: Server) => Promise<void>];

const cases: FaultUnderVariation[] = [
  [
    'firewall-deleted-listed',
    'P3.firewall.status.delete-removes',
    async (server) => {
      const firewall = await postAccepted(server, '/v4/networking/firewalls', {
        label: 'fw-kept',
        rules: { inbound_policy: 'DROP', outbound_policy: 'ACCEPT' },
      });
      await request(server)
        .delete(`/v4/networking/firewalls/${String(firewall.id)}`)
        .set(AUTH)
        .expect(200);
      expect((await got(server, `/v4/networking/firewalls/${String(firewall.id)}`)).status).toBe('enabled');
    },
  ],
  [
    'capture-available-at-once',
    'P2.image.status.creating-to-available',
    async (server) => {
      const instance = await newInstance(server, 'capture-source');
      await advanceClock(server, 600);
      const image = await postAccepted(server, '/v4/images', { disk_id: await sdaDiskOf(server, instance.id), label: 'captured' });
      await advanceClock(server, 24 * 3600);
      expect((await got(server, `/v4/images/${encodeURIComponent(String(image.id))}`)).status).toBe('creating');
    },
  ],
  [
    'assign-region-in-items',
    'P3.ips-assign.region.required',
    async (server) => {
      const instances = (await got(server, '/v4/compute/instances')).data as Json[];
      const holder = instances.find((instance) => (instance.ipv4 as string[]).length)!;
      const unchanged = [{ address: (holder.ipv4 as string[])[0], compute_id: holder.id }];
      await request(server).post('/v4/networking/ips/assign').set(AUTH).send({ assignments: unchanged }).expect(200);
    },
  ],
  [
    'ipam-private-hosts',
    'P2.interfaces.ipam-address.cidr',
    async (server) => {
      const interfaces = [{ purpose: 'public' }, { purpose: 'vlan', label: 'ipam-form', ipam_address: '10.0.0.1' }];
      await request(server).post('/v4/compute/instances').set(AUTH).send({ region: 'us-east', type: 'g6-nanode-1', interfaces }).expect(200);
    },
  ],
  [
    'record-names-absolute',
    'P3.record.srv.target.subdomain-combined~zone',
    async (server) => {
      const add = await recordsOf(server, 'own-name.example.com');
      const record = (await add({ type: 'SRV', service: 'sip', protocol: 'tcp', target: 'sipserver', priority: 1, weight: 1, port: 5060 }).expect(200))
        .body as Json;
      expect(record.target).toBe('sipserver.');
    },
  ],
  [
    'absent-target-empty',
    'P3.record.mx.null-name-empty',
    async (server) => {
      const add = await recordsOf(server, 'named-null-mx.example.com');
      await add({ type: 'MX', name: 'mail', target: '', priority: 0 }).expect(200);
    },
  ],
  [
    'vlan-region-checked-first',
    'P2.interfaces.vlan.capable-regions',
    async (server) => {
      await newInstance(server, 'vlan-in-us-west', 'g6-standard-1', { region: 'us-west', interfaces: [{ purpose: 'vlan', label: 'no-vlans-here' }] });
    },
  ],
  [
    'expired-transfer-shown-pending',
    'P1.entity-transfer.expired.accept-rejected',
    async (server) => {
      const [first] = ((await got(server, '/v4/account/entity-transfers')).data as Json[]).filter((t) => t.is_sender === false);
      await advanceClock(server, 25 * 3600);
      await request(server)
        .post(`/v4/account/entity-transfers/${String(first!.token)}/accept`)
        .set(AUTH)
        .expect(200);
    },
  ],
  ...(
    [
      ['P2.instance.types', (view: Json) => expect(typeof (view.specs as Json).memory).toBe('string')],
      ['P2.instance.hypervisor.enum', (view: Json) => expect(view.hypervisor).toBe('xen')],
      ['P2.instance.ipv4.format', (view: Json) => expect((view.ipv4 as string[])[0]).toMatch(/\/32$/)],
      ['P2.instance.ipv6.format', (view: Json) => expect(view.ipv6).toMatch(/^\[.*\]$/)],
    ] as const
  ).map(([fault, judge]): FaultUnderVariation => [
    'backups-enrolment-not-shown',
    fault,
    async (server) => {
      const instance = await newInstance(server, 'shown-with-fault');
      const view = await got(server, `/v4/compute/instances/${String(instance.id)}`);
      expect(view.backups).toEqual({ schedule: expect.anything() as unknown });
      judge(view);
    },
  ]),
  [
    'image-ids-raw-only',
    'P2.images.scope.put-images-id',
    async (server) => {
      const image = await postAccepted(server, '/v4/images/upload', { label: 'raw-scope', region: 'us-east' });
      const minted = await request(server)
        .post('/__control/tokens')
        .send({ scopes: ['images:read_only'] })
        .expect(200);
      await request(server)
        .put(`/v4/images/${String(image.id)}`)
        .set({ Authorization: `Bearer ${String(minted.body.token)}` })
        .send({ description: 'read-only token' })
        .expect(200);
    },
  ],
  [
    'mx-priority-makes-ordinary',
    'P3.record.mx.null-priority-zero',
    async (server) => {
      const create = await recordsOf(server, 'null-mx-priority.example.com');
      await create({ type: 'MX', name: '', target: '', priority: 10 }).expect(200);
    },
  ],
  [
    'queued-clone-tags-at-once',
    'P2.clone.compute-id.actions-complete',
    async (server) => {
      const source = await newInstance(server, 'at-once-source');
      const profile = await postAccepted(server, `/v4/compute/instances/${String(source.id)}/configs`, { label: 'at-once-profile', devices: {} });
      const busy = await newInstance(server, 'at-once-target');
      await postAccepted(server, `/v4/compute/instances/${String(busy.id)}/clone`, { region: 'us-east', type: 'g6-standard-1' });
      await postAccepted(server, `/v4/compute/instances/${String(source.id)}/clone`, { compute_id: busy.id, configs: [profile.id] });
      const profiles = (await got(server, `/v4/compute/instances/${String(busy.id)}/configs`)).data as Json[];
      expect(profiles.map((item) => item.label)).toContain('at-once-profile');
    },
  ],
  [
    'page-past-last-refused',
    'P1.pagination.consistent',
    async (server) => {
      // One page more than there are: the page it claims past the last is refused, the claim still shows.
      const list = (page: number) => request(server).get('/v4/domains').query({ page, page_size: 25 }).set(AUTH);
      const first = (await list(1).expect(200)).body as Json;
      expect(first.pages).toBe(Math.max(1, Math.ceil(Number(first.results) / 25)) + 1);
      await list(Number(first.pages)).expect(404);
    },
  ],
  [
    'weak-password-worded-complexity',
    'P1.errors.reason.weak-password',
    async (server) => {
      expect(await weakPasswordError(server)).toMatchObject({ field: 'root_pass', reason: 'root_pass is invalid.' });
    },
  ],
];

describe('emulator faults under variations of the same behaviour', () => {
  it.each(cases)('%s keeps %s', async (variation, fault, shows) => {
    await shows(await serverWith([variation], [fault]));
  });
});
