// The emulator's variations each do what they say (the variation matrix then proves the suite accepts them); those of
// compute instances are in variations-compute.test.ts, images in variations-images.test.ts, managed databases in variations-databases.test.ts, IP addresses in
// variations-networking.test.ts, URLs in variations-urls.test.ts, domain records in variations-records.test.ts.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN } from '../../emulator/server.js';
import { READ_LAG_MS, REPLICA_LAG_MS } from '../../emulator/variations/responses.js';
import { EVENT_LAG_MS } from '../../emulator/core/events.js';
import {
  advanceClock,
  afterLag,
  AUTH,
  got,
  postAccepted,
  describeVariations,
  newCluster,
  newDomain,
  newInstance,
  seenWithinLag,
  serverWith,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

/** A device added to a new firewall labelled `label`, as the answer shows it, and its instance (a new one: its id is not the device's). */
async function addedDevice(server: Server, label: string): Promise<{ device: Json; instanceId: unknown }> {
  const instanceId = (await newInstance(server, `${label}-host`)).id;
  const firewall = await postAccepted(server, '/v4/networking/firewalls', { label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } });
  const added = await request(server)
    .post(`/v4/networking/firewalls/${String(firewall.id)}/devices`)
    .set(AUTH)
    .send({ id: instanceId, type: 'compute' })
    .expect(200);
  return { device: added.body as Json, instanceId };
}

const cases: VariationCase[] = [
  [
    'delete-unknown-ok',
    async (server) => {
      const client = await postAccepted(server, '/v4/monitor/clients', { label: 'kept-client' });
      for (const path of ['/v4/monitor/clients/999999937', '/v4/domains/999999937', '/v4/compute/instances/999999937']) {
        expect((await request(server).delete(path).set(AUTH).expect(200)).body).toEqual({});
      }
      await request(server).get('/v4/monitor/clients/999999937').set(AUTH).expect(404);
      await request(server)
        .get(`/v4/monitor/clients/${String(client.id)}`)
        .set(AUTH)
        .expect(200);
    },
  ],
  [
    'bare-token-accepted',
    async (server) => {
      await request(server).get('/v4/account').set({ Authorization: DEFAULT_TOKEN }).expect(200);
      await request(server).get('/v4/account').set({ Authorization: 'Bearer not-a-token' }).expect(401);
    },
  ],
  [
    'scope-forms-only',
    async (server) => {
      const instance = await newInstance(server, 'range-scope');
      const range = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: instance.id });
      const view = async (scope: string) => {
        const minted = await request(server)
          .post('/__control/tokens')
          .send({ scopes: [scope] })
          .expect(200);
        return request(server)
          .get(`/v4/networking/ipv6/ranges/${String(range.range)}`)
          .set({ Authorization: `Bearer ${String(minted.body.token)}` });
      };
      expect((await view('ips:read')).status).toBe(403);
      expect((await view('ips:read_only')).status).toBe(200);
    },
  ],
  [
    'account-closed-on-cancel',
    async (server) => {
      await request(server).get('/v4/account').set(AUTH).expect(200);
      expect((await request(server).post('/v4/account/cancel').set(AUTH).send({}).expect(200)).body).toHaveProperty('survey_link');
      await request(server).get('/v4/account').set(AUTH).expect(401);
      await request(server).get('/v4/databases/engines').expect(200);
    },
  ],
  [
    'card-numbers-processor-checked',
    async (server) => {
      const add = (card_number: string, cvv = '123') =>
        request(server).post('/v4/account/credit-card').set(AUTH).send({ card_number, cvv, expiry_month: 12, expiry_year: 2030 });
      await add('4111111111111111').expect(200);
      await add('378282246310005', '1234').expect(200);
      expect(((await add('4111111111111129').expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'card_number' });
      expect(((await add('378282246310005').expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'cvv' });
    },
  ],
  [
    'read-only-changes-need-read-write',
    async (server) => {
      const event = ((await request(server).get('/v4/account/events').set(AUTH).expect(200)).body as { data: Json[] }).data[0]!;
      const withScope = async (scope: string) => {
        const minted = await request(server)
          .post('/__control/tokens')
          .send({ scopes: [scope] })
          .expect(200);
        return { Authorization: `Bearer ${String(minted.body.token)}` };
      };
      const seen = `/v4/account/events/${String(event.id)}/seen`;
      await request(server)
        .post(seen)
        .set(await withScope('events:read_only'))
        .send({})
        .expect(403);
      await request(server)
        .post(seen)
        .set(await withScope('events:read_write'))
        .send({})
        .expect(200);
      await request(server)
        .get('/v4/account/events')
        .set(await withScope('events:read_only'))
        .expect(200);
    },
  ],
  [
    'enums-any-case',
    async (server) => {
      const firewall = await postAccepted(server, '/v4/networking/firewalls', {
        label: 'any-case',
        rules: { inbound_policy: 'accept', outbound_policy: 'Drop' },
      });
      expect(firewall.rules).toMatchObject({ inbound_policy: 'ACCEPT', outbound_policy: 'DROP' });
      await request(server)
        .post('/v4/networking/firewalls')
        .set(AUTH)
        .send({ label: 'no-case', rules: { inbound_policy: 'ALLOW', outbound_policy: 'DROP' } })
        .expect(400);
    },
  ],
  [
    'empty-update-refused',
    async (server) => {
      const domain = await newDomain(server, 'empty-update.example.com');
      const update = (body: Json) =>
        request(server)
          .put(`/v4/domains/${String(domain.id)}`)
          .set(AUTH)
          .send(body);
      expect(((await update({}).expect(400)).body as { errors: Json[] }).errors[0]!.reason).toMatch(/nothing to update/i);
      await update({ description: 'one field' }).expect(200);
    },
  ],
  [
    'tags-normalised',
    async (server) => {
      const create = (domain: string, tags: string[]) =>
        request(server).post('/v4/domains').set(AUTH).send({ domain, type: 'master', soa_email: 'admin@example.com', tags });
      expect(((await create('tags-stored.example.com', ['Web Tier', 'web tier']).expect(200)).body as Json).tags).toEqual(['web tier']);
      expect(((await create('tags-refused.example.com', ['a/b#c']).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'tags.0' });
    },
  ],
  [
    'subscription-named-by-plan',
    async (server) => {
      const view = (await request(server).get('/v4/monitor/subscriptions/monitor-10').expect(200)).body as Json;
      expect(view).toMatchObject({ monitor_subscription: 'monitor-10' });
      expect(view).not.toHaveProperty('id');
      const put = await request(server).put('/v4/monitor/plan').set(AUTH).send({ monitor_subscription: 'monitor-3' }).expect(200);
      expect(put.body).toMatchObject({ monitor_subscription: 'monitor-3' });
    },
  ],
  [
    'rule-needs-both-lists',
    async (server) => {
      const rules = (addresses: Json) => ({
        inbound_policy: 'DROP',
        outbound_policy: 'ACCEPT',
        inbound: [{ action: 'ACCEPT', protocol: 'TCP', ports: '22', addresses }],
      });
      const create = (label: string, addresses: Json) =>
        request(server)
          .post('/v4/networking/firewalls')
          .set(AUTH)
          .send({ label, rules: rules(addresses) });
      const refused = await create('fw-one-list', { ipv4: ['192.0.2.0/24'] }).expect(400);
      expect((refused.body as { errors: Json[] }).errors[0]).toMatchObject({ field: 'rules.inbound.0.addresses.ipv6' });
      await create('fw-both-lists', { ipv4: ['192.0.2.0/24'], ipv6: [] }).expect(200);
    },
  ],
  [
    'promotions-granted-only',
    async (server) => {
      const onFile = ((await request(server).get('/v4/account').set(AUTH).expect(200)).body as Json).active_promotions as Json[];
      await request(server).put('/v4/account').set(AUTH).send({ active_promotions: onFile }).expect(200);
      const made = [...onFile, { ...onFile[0], description: 'made up' }];
      expect(
        ((await request(server).put('/v4/account').set(AUTH).send({ active_promotions: made }).expect(400)).body as { errors: Json[] }).errors[0],
      ).toMatchObject({
        field: 'active_promotions',
      });
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
      const { id, view, listed } = await seenWithinLag(READ_LAG_MS, async (attempt) => {
        const created = await newDomain(server, `lag-test-${attempt}.example.com`);
        const path = `/v4/domains/${String(created.id)}`;
        return {
          id: created.id,
          view: (await request(server).get(path).set(AUTH)).status,
          listed: ((await request(server).get('/v4/domains').set(AUTH).expect(200)).body as { data: Json[] }).data.map((domain) => domain.id),
        };
      });
      expect(view).toBe(404);
      expect(listed).not.toContain(id);
      await afterLag(READ_LAG_MS);
      await request(server)
        .get(`/v4/domains/${String(id)}`)
        .set(AUTH)
        .expect(200);
    },
  ],
  [
    'replica-reads',
    async (server) => {
      const created = await newDomain(server, 'replica-test.example.com');
      const view = `/v4/domains/${String(created.id)}`;
      const description = async () => ((await request(server).get(view).set(AUTH).expect(200)).body as Json).description;
      // A read repeated within the lag of the one before it, with a write in between, shows the old value (each run
      // after the lag, so that its first read is a fresh one).
      const { attempt, before, shown } = await seenWithinLag(
        REPLICA_LAG_MS,
        async (attempt) => {
          const before = await description();
          await request(server)
            .put(view)
            .set(AUTH)
            .send({ description: `changed ${attempt}` })
            .expect(200);
          return { attempt, before, shown: await description() };
        },
        () => afterLag(REPLICA_LAG_MS),
      );
      expect(shown).toBe(before);
      await afterLag(REPLICA_LAG_MS);
      expect(await description()).toBe(`changed ${attempt}`);
    },
  ],
  [
    'rule-lists-distinct',
    async (server) => {
      const create = (label: string, rule: Json) =>
        request(server)
          .post('/v4/networking/firewalls')
          .set(AUTH)
          .send({ label, rules: { inbound_policy: 'DROP', outbound_policy: 'ACCEPT', inbound: [{ action: 'ACCEPT', protocol: 'TCP', ...rule }] } });
      const v4 = (ipv4: string[]) => ({ addresses: { ipv4 } });
      for (const [label, rule, field] of [
        ['ports-repeated', { ports: '22, 22', ...v4(['192.0.2.0/24']) }, 'rules.inbound.0.ports'],
        ['ports-overlap', { ports: '20-30,25', ...v4(['192.0.2.0/24']) }, 'rules.inbound.0.ports'],
        ['address-twice', { ports: '22', ...v4(['192.0.2.0/24', '192.0.2.0/24']) }, 'rules.inbound.0.addresses.ipv4.1'],
      ] as const)
        expect(((await create(label, rule).expect(400)).body as { errors: Json[] }).errors[0]!.field, label).toBe(field);
      await create('distinct', { ports: '20-30, 31', ...v4(['192.0.2.0/24', '198.51.100.0/24']) }).expect(200);
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
    'route-target-with-prefix',
    async (server) => {
      const instanceId = (await newInstance(server, 'range-host')).id;
      const range = await postAccepted(server, '/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: instanceId });
      expect(range.route_target).toMatch(/^[0-9a-f:]+\/128$/);
      const view = await request(server)
        .get(`/v4/networking/ipv6/ranges/${String(range.range)}`)
        .set(AUTH)
        .expect(200);
      expect((view.body as Json).route_target).toBe(range.route_target);
    },
  ],
  [
    'device-compute-id',
    async (server) => {
      const { device, instanceId } = await addedDevice(server, 'device-form');
      expect(Object.keys(device).sort()).toEqual(['compute_id', 'created', 'id', 'updated']);
      expect(device.compute_id).toBe(instanceId);
    },
  ],
  [
    'device-typed-own-id',
    async (server) => {
      const { device, instanceId } = await addedDevice(server, 'device-typed');
      expect(device).toMatchObject({ type: 'compute', compute_id: instanceId });
      expect(device.id).not.toBe(instanceId);
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
    'events-lag',
    async (server) => {
      const named = async (firewall: Json) =>
        ((await request(server).get('/v4/account/events').set(AUTH).expect(200)).body as { data: Json[] }).data.some(
          (event) => event.action === 'firewall_create' && (event.entity as Json).id === firewall.id,
        );
      const { firewall, shown } = await seenWithinLag(EVENT_LAG_MS, async (attempt) => {
        const firewall = await postAccepted(server, '/v4/networking/firewalls', {
          label: `lagging-events-${attempt}`,
          rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' },
        });
        return { firewall, shown: await named(firewall) };
      });
      expect(shown).toBe(false);
      await afterLag(EVENT_LAG_MS);
      expect(await named(firewall)).toBe(true);
    },
  ],
  [
    'account-lists-page-size-min-50',
    async (server) => {
      const list = (path: string, size: number) => request(server).get(path).query({ page_size: size }).set(AUTH);
      expect((await list('/v4/account/oauth-clients', 25).expect(400)).body.errors[0]).toMatchObject({ field: 'page_size' });
      await list('/v4/account/oauth-clients', 50).expect(200);
      await list('/v4/domains', 25).expect(200);
    },
  ],
  [
    'lenient-scalars',
    async (server) => {
      const domain = await postAccepted(server, '/v4/domains', {
        domain: 'lenient.example',
        type: 'master',
        soa_email: 'hostmaster@example.com',
        ttl_sec: '300',
        description: null,
      });
      expect(domain).toMatchObject({ ttl_sec: 300 });
      const update = (body: Json) =>
        request(server)
          .put(`/v4/domains/${String(domain.id)}`)
          .set(AUTH)
          .send(body);
      expect(((await update({ group: 42 }).expect(200)).body as Json).group).toBe('42');
      expect((await update({ group: ['42'] }).expect(400)).body.errors[0]).toMatchObject({ field: 'group' });
    },
  ],
  [
    'events-need-write-grant',
    async (server) => {
      const firewall = await postAccepted(server, '/v4/networking/firewalls', {
        label: 'event-grants',
        rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' },
      });
      const seesItsEvent = async (grant: 'read_only' | 'read_write') => {
        const grants = { entities: { firewall: { [String(firewall.id)]: grant } } };
        const minted = await request(server)
          .post('/__control/tokens')
          .send({ scopes: '*', restricted: true, username: `events-${grant}`, grants })
          .expect(200);
        const events = await request(server)
          .get('/v4/account/events')
          .set('Authorization', `Bearer ${String(minted.body.token)}`)
          .expect(200);
        return (events.body as { data: Json[] }).data.some((event) => (event.entity as Json | null)?.id === firewall.id);
      };
      expect(await seesItsEvent('read_only')).toBe(false);
      expect(await seesItsEvent('read_write')).toBe(true);
    },
  ],
  [
    'email-any-text',
    async (server) => {
      await request(server).put('/v4/account').set(AUTH).send({ email: 'billing desk' }).expect(200);
      expect((await request(server).get('/v4/account').set(AUTH).expect(200)).body).toMatchObject({ email: 'billing desk' });
    },
  ],
  [
    'remote-addr-behind-proxy',
    async (server) => {
      const domain = await newDomain(server, 'proxy-seen.example');
      const record = await postAccepted(server, `/v4/domains/${String(domain.id)}/records`, { type: 'A', name: 'here', target: '[remote_addr]' });
      expect(record.target).toBe('172.17.0.1');
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
    'icmp-ports-names-protocol',
    async (server) => {
      const icmp = { action: 'DROP', protocol: 'ICMP', ports: '22', addresses: { ipv4: ['0.0.0.0/0'], ipv6: [] } };
      const refused = await request(server)
        .post('/v4/networking/firewalls')
        .set(AUTH)
        .send({ label: 'icmp-named', rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: [icmp] } })
        .expect(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'rules.inbound.0.protocol' });
    },
  ],
  [
    'icmp-ports-shown-empty',
    async (server) => {
      const icmp = { action: 'DROP', protocol: 'ICMP', addresses: { ipv4: ['0.0.0.0/0'], ipv6: [] } };
      const firewall = await postAccepted(server, '/v4/networking/firewalls', {
        label: 'icmp-empty',
        rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: [icmp] },
      });
      const rulesPath = `/v4/networking/firewalls/${String(firewall.id)}/rules`;
      const shown = (await request(server).get(rulesPath).set(AUTH).expect(200)).body as { inbound: Json[] };
      expect(shown.inbound[0]).toMatchObject({ protocol: 'ICMP', ports: '' });
      await request(server)
        .put(rulesPath)
        .set(AUTH)
        .send({ inbound: [{ ...icmp, ports: null }] })
        .expect(200);
      await request(server)
        .put(rulesPath)
        .set(AUTH)
        .send({ inbound: [{ ...icmp, ports: '22' }] })
        .expect(400);
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
    'maintenance-window-whole',
    async (server) => {
      const created = await newCluster(server, 'whole-window-db');
      const path = `/v4/databases/mysql/instances/${String(created.id)}`;
      await advanceClock(server, 31 * 60);
      const update = (updates: Json) => request(server).put(path).set(AUTH).send({ updates });
      expect((await update({ hour_of_day: 5 }).expect(400)).body).toMatchObject({ errors: [{ field: 'updates.frequency' }] });
      await update({ frequency: 'weekly', duration: 3, hour_of_day: 5, day_of_week: 7, week_of_month: 1 }).expect(200);
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
  [
    'non-api-paths-html',
    async (server) => {
      const outside = await request(server).get('/databases/engines').set(AUTH).expect(404);
      expect(outside.headers['content-type']).toMatch(/^text\/html/);
      expect((await request(server).get('/v4/no-such-area').set(AUTH).expect(404)).body.errors).toHaveLength(1);
    },
  ],
  [
    'unknown-tag-empty-list',
    async (server) => {
      expect((await request(server).get('/v4/tags/no-such-tag').set(AUTH).expect(200)).body).toMatchObject({ data: [] });
      // A tag is a resource of its own ("the tag is not created"): deleting one that does not exist is still refused.
      await request(server).delete('/v4/tags/no-such-tag').set(AUTH).expect(404);
    },
  ],
  [
    'existing-tag-created-again',
    async (server) => {
      const domain = await newDomain(server, 'tagged-again.example.com');
      await postAccepted(server, '/v4/tags', { label: 'made-twice' });
      expect(await postAccepted(server, '/v4/tags', { label: 'made-twice', domains: [domain.id] })).toEqual({ label: 'made-twice' });
      expect((await got(server, `/v4/domains/${String(domain.id)}`)).tags).toContain('made-twice');
      // One tag, made once: a single delete removes it.
      await request(server).delete('/v4/tags/made-twice').set(AUTH).expect(200);
      await request(server).get('/v4/tags/made-twice').set(AUTH).expect(404);
    },
  ],
  [
    'tag-removal-runs-a-while',
    async (server) => {
      const domain = await newDomain(server, 'slow-untag.example.com');
      await postAccepted(server, '/v4/tags', { label: 'slow-untag', domains: [domain.id] });
      const tags = async () => (await got(server, `/v4/domains/${String(domain.id)}`)).tags;
      await request(server).delete('/v4/tags/slow-untag').set(AUTH).expect(200);
      expect(await tags()).toContain('slow-untag');
      await advanceClock(server, 60);
      expect(await tags()).not.toContain('slow-untag');
    },
  ],
  [
    'tag-create-runs-a-while',
    async (server) => {
      const domain = await newDomain(server, 'slow-tag.example.com');
      await postAccepted(server, '/v4/tags', { label: 'slow-tag', domains: [domain.id] });
      const tags = async () => (await got(server, `/v4/domains/${String(domain.id)}`)).tags;
      const listed = async () => ((await got(server, '/v4/tags/slow-tag')).data as Json[]).map((item) => item.id);
      expect(await tags()).not.toContain('slow-tag');
      expect(await listed()).toEqual([]);
      await advanceClock(server, 60);
      expect(await tags()).toContain('slow-tag');
      expect(await listed()).toEqual([domain.id]);
    },
  ],
];

describeVariations('emulator variations', cases);

describe('emulator without variations', () => {
  it('refuses a bare token and serves no unversioned path', async () => {
    const server = await serverWith([]);
    await request(server).get('/v4/account').set({ Authorization: DEFAULT_TOKEN }).expect(401);
    await request(server).get('/account').set(AUTH).expect(404);
  });
});
