// The emulator's variations of the account each do what they say (see variations.test.ts).
import request from 'supertest';
import { expect } from 'vitest';
import { EVENT_LAG_MS } from '../../emulator/core/events.js';
import {
  advanceClock,
  afterLag,
  AUTH,
  deleteAccepted,
  describeVariations,
  got,
  mintedAuth,
  newInstance,
  postAccepted,
  type Server,
  seenWithinLag,
  type Json,
  type VariationCase,
} from './variation-server.js';

/** Makes `count` OAuth clients labelled `prefix-n` (the account then lists one more: the seeded one). */
async function oauthClients(server: Server, count: number, prefix: string): Promise<void> {
  for (let made = 0; made < count; made++)
    await postAccepted(server, '/v4/account/oauth-clients', { label: `${prefix}-${made}`, redirect_uri: 'https://example.com/cb' });
}

/** Page 1 of a list at `size` (the list's default without one). */
const page = async (server: Server, path: string, size?: number) =>
  (
    await request(server)
      .get(path)
      .query(size ? { page_size: size } : {})
      .set(AUTH)
      .expect(200)
  ).body as Json;

const cases: VariationCase[] = [
  [
    'account-lists-page-size-clamped',
    async (server) => {
      await oauthClients(server, 60, 'clamped');
      expect(await page(server, '/v4/account/oauth-clients', 10)).toMatchObject({ pages: 2, results: 61 });
      expect(((await page(server, '/v4/account/oauth-clients', 10)).data as Json[]).length).toBe(50);
      expect(((await page(server, '/v4/account/oauth-clients', 75)).data as Json[]).length).toBe(61);
      await request(server).get('/v4/domains').query({ page_size: 10 }).set(AUTH).expect(400);
    },
  ],
  [
    'account-lists-page-size-capped-20',
    async (server) => {
      await oauthClients(server, 30, 'capped');
      const clients = '/v4/account/oauth-clients';
      expect(await page(server, clients, 100)).toMatchObject({ pages: 2, results: 31 });
      expect(((await page(server, clients, 100)).data as Json[]).length).toBe(20);
      expect(((await page(server, clients, 5)).data as Json[]).length).toBe(5);
      expect(((await page(server, clients)).data as Json[]).length).toBe(20);
      await request(server).get('/v4/domains').query({ page_size: 10 }).set(AUTH).expect(400);
    },
  ],
  [
    'account-closed-410',
    async (server) => {
      await request(server).get('/v4/account').set(AUTH).expect(200);
      expect((await request(server).post('/v4/account/cancel').set(AUTH).send({}).expect(200)).body).toHaveProperty('survey_link');
      const gone = await request(server).get('/v4/account').set(AUTH).expect(410);
      expect((gone.body as { errors: Json[] }).errors[0]!.reason).toEqual(expect.any(String));
      await request(server).get('/v4/account/invoices').set(AUTH).expect(410);
      // An unknown token is still unknown, and what takes no token is still served.
      await request(server).get('/v4/account').set('Authorization', 'Bearer no-such-token').expect(401);
      await request(server).get('/v4/databases/engines').expect(200);
    },
  ],
  [
    'phone-and-tax-id-checked',
    async (server) => {
      const put = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      for (const phone of ['+44 20 7946 0958', '(215) 555-0199', '']) await put({ phone }).expect(200);
      for (const tax_id of ['DE123456789', '12-3456789', '']) await put({ tax_id }).expect(200);
      for (const [member, value] of [
        ['phone', '5'.repeat(32)],
        ['phone', '5555'],
        ['phone', 'call me'],
        ['tax_id', 'T'.repeat(100)],
        ['tax_id', 'T1'],
        ['tax_id', 'DE 1234_5678'],
      ]) {
        const refused = await put({ [member!]: value }).expect(400);
        expect((refused.body as { errors: Json[] }).errors[0]).toMatchObject({ field: member });
      }
    },
  ],
  [
    'account-without-card',
    async (server) => {
      expect((await got(server, '/v4/account')).credit_card).toEqual({ expiry: null, last_four: null });
      await request(server)
        .post('/v4/account/credit-card')
        .set(AUTH)
        .send({ card_number: '4111111111111111', cvv: '123', expiry_month: 3, expiry_year: 2031 })
        .expect(200);
      expect(((await got(server, '/v4/account')).credit_card as Json).last_four).toBe(1111);
    },
  ],
  [
    'account-without-address',
    async (server) => {
      expect(await got(server, '/v4/account')).toMatchObject({ address_1: '', city: '', country: '', state: '', zip: '', phone: '', tax_id: '' });
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      await update({ country: 'DE', zip: '10115' }).expect(200);
      await update({ country: '' }).expect(200);
      expect((await got(server, '/v4/account')).country).toBe('');
      expect((await update({ country: 'XX' }).expect(400)).body.errors[0]).toMatchObject({ field: 'country' });
    },
  ],
  [
    'zip-by-state',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ country: 'US', state: 'AE', zip: '10001' }).expect(400)).body.errors[0]).toMatchObject({ field: 'zip' });
      await update({ country: 'US', state: 'AE', zip: '09012' }).expect(200);
      expect((await update({ country: 'CA', state: 'AB', zip: 'K1A 0B1' }).expect(400)).body.errors[0]).toMatchObject({ field: 'zip' });
      await update({ country: 'CA', state: 'ON', zip: 'K1A 0B1' }).expect(200);
      // Elsewhere a province is free text: any zip goes with it.
      await update({ country: 'DE', state: 'Bavaria', zip: '10115' }).expect(200);
    },
  ],
  [
    'windowed-items-at-edge',
    async (server) => {
      const first = async (path: string) => ((await got(server, path)).data as Json[])[0]!;
      const [event, login] = [await first('/v4/account/events'), await first('/v4/account/logins')];
      const DAY = 86_400_000;
      const age = async (at: unknown) => Date.parse(`${String((await got(server, '/__control')).now)}Z`) - Date.parse(`${String(at)}Z`);
      for (const at of [event.created, login.datetime]) expect(await age(at)).toBeGreaterThan(89 * DAY);
      await request(server)
        .get(`/v4/account/events/${String(event.id)}`)
        .set(AUTH)
        .expect(200);
      await request(server)
        .get(`/v4/account/logins/${String(login.id)}`)
        .set(AUTH)
        .expect(200);
      await advanceClock(server, 3600);
      await request(server)
        .get(`/v4/account/events/${String(event.id)}`)
        .set(AUTH)
        .expect(404);
      await request(server)
        .get(`/v4/account/logins/${String(login.id)}`)
        .set(AUTH)
        .expect(404);
      expect(((await got(server, '/v4/account/events')).data as Json[]).map((e) => e.id)).not.toContain(event.id);
      expect(((await got(server, '/v4/account/logins')).data as Json[]).map((l) => l.id)).not.toContain(login.id);
    },
  ],
  [
    'military-state-needs-military-city',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ country: 'US', state: 'AE', zip: '09012' }).expect(400)).body.errors[0]).toMatchObject({ field: 'state' });
      await update({ country: 'US', state: 'AE', city: 'apo', zip: '09012' }).expect(200);
      expect((await update({ city: 'Philadelphia' }).expect(400)).body.errors[0]).toMatchObject({ field: 'city' });
      await update({ city: 'FPO' }).expect(200);
      await update({ country: 'US', state: 'PA', city: 'Philadelphia', zip: '19102' }).expect(200);
      await update({ country: 'US', state: 'NY', zip: '10001' }).expect(200);
    },
  ],
  [
    'promotion-members-strict',
    async (server) => {
      const promotions = (await got(server, '/v4/account')).active_promotions as Json[];
      expect(promotions[0]).toMatchObject({ promotion_id: 'promo-1' });
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ active_promotions: promotions }).expect(400)).body.errors[0]).toMatchObject({ field: 'active_promotions.0.promotion_id' });
      const { promotion_id: _id, ...documented } = promotions[0]!;
      await update({ active_promotions: [documented] }).expect(200);
    },
  ],
  [
    'expired-transfer-shown-pending',
    async (server) => {
      const incoming = async () => ((await got(server, '/v4/account/entity-transfers')).data as Json[]).filter((t) => t.is_sender === false);
      const [first] = await incoming();
      await advanceClock(server, 25 * 3600);
      const again = await incoming();
      expect(again.find((t) => t.token === first!.token)).toMatchObject({ status: 'pending' });
      expect(
        (
          await request(server)
            .post(`/v4/account/entity-transfers/${String(first!.token)}/accept`)
            .set(AUTH)
            .expect(400)
        ).body.errors[0].reason,
      ).toMatch(/expired/);
      // Others keep coming, unexpired: they can be accepted.
      const now = Date.parse(`${String((await got(server, '/__control')).now)}Z`);
      const fresh = again.find((t) => t.status === 'pending' && Date.parse(`${String(t.expiry)}Z`) > now);
      await request(server)
        .post(`/v4/account/entity-transfers/${String(fresh!.token)}/accept`)
        .set(AUTH)
        .expect(200);
    },
  ],
  [
    'account-country-without-state',
    async (server) => {
      expect(await got(server, '/v4/account')).toMatchObject({ country: 'US', state: '' });
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      await update({ country: 'US', zip: '19102' }).expect(200);
      await update({ country: 'CA', state: '', zip: 'K1A 0B1' }).expect(200);
      expect((await update({ country: 'US', state: 'Calif', zip: '90001' }).expect(400)).body.errors[0]).toMatchObject({ field: 'state' });
      await update({ country: 'US', state: 'NY', zip: '10001' }).expect(200);
    },
  ],
  [
    'oauth-client-delete-shows-a-while',
    async (server) => {
      const c = await postAccepted(server, '/v4/account/oauth-clients', { label: 'app', redirect_uri: 'https://example.com/cb' });
      const minted = await request(server)
        .post('/__control/tokens')
        .send({ scopes: ['account:read_only'], oauth_client_id: c.id })
        .expect(200);
      const bearer = { Authorization: `Bearer ${String(minted.body.token)}` };
      await request(server)
        .delete(`/v4/account/oauth-clients/${String(c.id)}`)
        .set(AUTH)
        .expect(200);
      expect(await got(server, `/v4/account/oauth-clients/${String(c.id)}`)).toMatchObject({ status: 'active' });
      await request(server).get('/v4/account').set(bearer).expect(200);
      await advanceClock(server, 5);
      await request(server)
        .get(`/v4/account/oauth-clients/${String(c.id)}`)
        .set(AUTH)
        .expect(404);
      expect((await request(server).get('/v4/account').set(bearer)).status).toBe(401);
    },
  ],
  [
    'long-history',
    async (server) => {
      const page = async (path: string, n: number) => got(server, `${path}?page=${n}&page_size=100`);
      const last = async (path: string) => {
        const pages = (await page(path, 1)).pages as number;
        return ((await page(path, pages)).data as Json[]).at(-1)!;
      };
      const transfers = await page('/v4/account/entity-transfers', 1);
      expect(transfers.pages).toBeGreaterThan(50);
      expect(transfers.results).toBeGreaterThanOrEqual(5200);
      expect((transfers.data as Json[]).filter((t) => t.status === 'cancelled' && t.is_sender === true).length).toBeGreaterThan(90);
      const events = await page('/v4/account/events', 1);
      expect(events.pages).toBeGreaterThan(50);
      const first = (events.data as Json[])[0]!;
      expect(Date.parse(`${String(first.created)}Z`)).toBeLessThan(Date.parse(`${String((await last('/v4/account/events')).created)}Z`));
      // What is made now is listed last in both.
      const instance = await newInstance(server, 'long-history-1');
      const made = await postAccepted(server, '/v4/account/entity-transfers', { entities: { computes: [instance.id] } });
      expect((await last('/v4/account/entity-transfers')).token).toBe(made.token);
      const firewall = await postAccepted(server, '/v4/networking/firewalls', {
        label: 'long-history-fw',
        rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' },
      });
      expect(await last('/v4/account/events')).toMatchObject({ action: 'firewall_create', entity: { id: firewall.id } });
    },
  ],
  [
    'state-of-other-country-names-country',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ country: 'CA', state: 'NY', zip: 'K1A 0B1' }).expect(400)).body.errors[0]).toMatchObject({ field: 'country' });
      expect((await update({ country: 'US', state: 'ON', zip: '10001' }).expect(400)).body.errors[0]).toMatchObject({ field: 'country' });
      // A code of no country is still the state's fault.
      expect((await update({ country: 'CA', state: 'XX', zip: 'K1A 0B1' }).expect(400)).body.errors[0]).toMatchObject({ field: 'state' });
    },
  ],
  [
    'province-checked',
    async (server) => {
      const update = (body: Json) => request(server).put('/v4/account').set(AUTH).send(body);
      expect((await update({ country: 'DE', state: 'SSSS', zip: '10115' }).expect(400)).body.errors[0]).toMatchObject({ field: 'state' });
      await update({ country: 'DE', state: 'Berlin', zip: '10115' }).expect(200);
      await update({ country: 'DE', state: 'bayern', zip: '80331' }).expect(200);
      await update({ country: 'SE', state: 'Västra Götaland', zip: '411 03' }).expect(200);
      await update({ country: 'SE', state: 'Vastra Gotaland County', zip: '411 03' }).expect(200);
      // The state on file does not follow a move: a country given without one is judged with it.
      expect((await update({ country: 'FR', zip: '75001' }).expect(400)).body.errors[0]).toMatchObject({ field: 'country' });
      // A country without a list takes any state; US and CA keep their codes.
      await update({ country: 'IE', state: 'Anything', zip: 'D02 X285' }).expect(200);
      await update({ country: 'US', state: 'NY', zip: '10001' }).expect(200);
    },
  ],
  [
    'windowed-items-swept-daily',
    async (server) => {
      const DAY = 86_400_000;
      const timeOf = (at: unknown) => Date.parse(`${String(at)}Z`);
      const now = async () => timeOf((await got(server, '/__control')).now);
      const oldest = async (path: string, member: string) =>
        ((await got(server, path)).data as Json[]).reduce((a, b) => (timeOf(a[member]) <= timeOf(b[member]) ? a : b));
      // To 02:00 UTC: the sweep at 00:00 left what was within 90 days then, and that is listed and viewable.
      await advanceClock(server, Math.round((DAY - ((await now()) % DAY) + 2 * 3_600_000) / 1000));
      const lists: Array<[string, string]> = [
        ['/v4/account/events', 'created'],
        ['/v4/account/logins', 'datetime'],
      ];
      const before: Json[] = [];
      for (const [path, member] of lists) {
        const item = await oldest(path, member);
        const age = (await now()) - timeOf(item[member]);
        expect(age).toBeGreaterThan(90 * DAY);
        expect(age).toBeLessThan(91 * DAY);
        await request(server)
          .get(`${path}/${String(item.id)}`)
          .set(AUTH)
          .expect(200);
        before.push(item);
      }
      // A day later the next sweep has removed it; the next oldest is past 90 days in turn.
      await advanceClock(server, 24 * 3600);
      for (const [i, [path, member]] of lists.entries()) {
        const gone = before[i]!;
        await request(server)
          .get(`${path}/${String(gone.id)}`)
          .set(AUTH)
          .expect(404);
        const item = await oldest(path, member);
        expect(item.id).not.toBe(gone.id);
        expect((await now()) - timeOf(item[member])).toBeGreaterThan(90 * DAY);
      }
    },
  ],
  [
    'maintenance-outlives-instance',
    async (server) => {
      const listed = async () => (await got(server, '/v4beta/account/maintenance')).data as Json[];
      const [gone, ...others] = await listed();
      expect(gone).toMatchObject({ status: 'completed', type: 'reboot', entity: { type: 'compute' } });
      const entity = gone!.entity as Json;
      await request(server)
        .get(`/v4/compute/instances/${String(entity.id)}`)
        .set(AUTH)
        .expect(404);
      expect(entity.url).toBe(`/v4/compute/instances/${String(entity.id)}`);
      // A completed maintenance is resolved: no notification of it.
      const notified = ((await got(server, '/v4/account/notifications')).data as Json[]).map((n) => (n.entity as Json).id);
      expect(notified).not.toContain(entity.id);
      // No instance made later takes its id.
      expect((await newInstance(server, 'after-the-retired-one')).id).not.toBe(entity.id);
      // An instance deleted keeps its maintenance listed, its entity as it was.
      const kept = others[0]!.entity as Json;
      await request(server)
        .delete(`/v4/compute/instances/${String(kept.id)}`)
        .set(AUTH)
        .expect(200);
      await advanceClock(server, 3600);
      await request(server)
        .get(`/v4/compute/instances/${String(kept.id)}`)
        .set(AUTH)
        .expect(404);
      expect((await listed()).map((m) => m.entity)).toContainEqual(kept);
    },
  ],
  [
    'invoices-monthly',
    async (server) => {
      const before = await got(server, '/v4/account');
      const invoices = async () => (await got(server, '/v4/account/invoices')).data as Json[];
      const count = (await invoices()).length;
      const now = Date.parse(`${String((await got(server, '/__control')).now)}Z`);
      const start = new Date(now);
      const monthStart = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
      // A minute short of the month start nothing is issued; an hour after it, one invoice.
      await advanceClock(server, Math.round((monthStart - now) / 1000) - 60);
      expect(await invoices()).toHaveLength(count);
      expect((await got(server, '/v4/account')).balance).toBe(before.balance);
      await advanceClock(server, 3660);
      const after = await invoices();
      expect(after).toHaveLength(count + 1);
      const issued = after.at(-1)!;
      expect(issued).toMatchObject({ subtotal: before.balance_uninvoiced, tax: 0, total: before.balance_uninvoiced });
      expect(Date.parse(`${String(issued.date)}Z`)).toBe(monthStart);
      const items = (await got(server, `/v4/account/invoices/${String(issued.id)}/items`)).data as Json[];
      expect(items).toHaveLength(1);
      const account = await got(server, '/v4/account');
      expect(account.balance).toBeCloseTo((before.balance as number) + (before.balance_uninvoiced as number), 2);
      expect(account.balance_uninvoiced).toBe(before.balance_uninvoiced);
      // Forty days on, at least one more month start has passed.
      await advanceClock(server, 40 * 86_400);
      expect((await invoices()).length).toBeGreaterThanOrEqual(count + 2);
    },
  ],
  [
    'events-seen-marks-shown',
    async (server) => {
      const eventsOf = async (firewall: Json) =>
        ((await got(server, '/v4/account/events')).data as Json[]).filter((event) => (event.entity as Json).id === firewall.id);
      const { firewall, early } = await seenWithinLag(EVENT_LAG_MS, async (attempt) => {
        const firewall = await postAccepted(server, '/v4/networking/firewalls', {
          label: `seen-when-shown-${attempt}`,
          rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' },
        });
        return { firewall, early: await eventsOf(firewall) };
      });
      const ofFirewall = () => eventsOf(firewall);
      expect(early).toEqual([]);
      await afterLag(EVENT_LAG_MS);
      // The action's event shows; its audit record took the id before it and is not recorded yet.
      const [created] = await ofFirewall();
      expect(created).toMatchObject({ action: 'firewall_create', seen: false });
      await request(server)
        .post(`/v4/account/events/${String(created!.id)}/seen`)
        .set(AUTH)
        .expect(200);
      const after = await ofFirewall();
      expect(after.map((event) => [event.action, event.seen])).toEqual([
        ['firewall_create', true],
        ['audit_record', false],
      ]);
      expect(after[1]!.id).toBe((created!.id as number) - 1);
    },
  ],
  [
    'transfer-accept-once',
    async (server) => {
      const listed = async () => (await got(server, '/v4/account/entity-transfers')).data as Json[];
      const incoming = (await listed()).filter((t) => t.is_sender === false);
      // Newest first, a minute apart: the first listed expires last.
      const expiries = incoming.map((t) => Date.parse(`${String(t.expiry)}Z`));
      expect(expiries).toEqual([...expiries].sort((a, b) => b - a));
      expect(expiries[0]! - expiries[1]!).toBe(60_000);
      const accept = (token: unknown) =>
        request(server)
          .post(`/v4/account/entity-transfers/${String(token)}/accept`)
          .set(AUTH);
      const [newest] = incoming;
      await accept(newest!.token).expect(200);
      // Still shown pending, and not accepted a second time.
      expect((await got(server, `/v4/account/entity-transfers/${String(newest!.token)}`)).status).toBe('pending');
      expect((await accept(newest!.token).expect(400)).body.errors[0].reason).toMatch(/already been accepted/);
      for (const t of incoming.slice(1)) await accept(t.token).expect(200);
      // None left to accept: two more arrive, a minute apart, listed first.
      const seeded = new Set(incoming.map((t) => t.token));
      const arrived = (await listed()).filter((t) => t.is_sender === false && !seeded.has(t.token));
      expect(arrived.map((t) => t.status)).toEqual(['pending', 'pending']);
      expect(Date.parse(`${String(arrived[0]!.expiry)}Z`) - Date.parse(`${String(arrived[1]!.expiry)}Z`)).toBe(60_000);
      expect(((await listed())[0] as Json).token).toBe(arrived[0]!.token);
      // Completed at its expiry.
      await advanceClock(server, 3600);
      expect((await got(server, `/v4/account/entity-transfers/${String(newest!.token)}`)).status).toBe('pending');
      await advanceClock(server, 24 * 3600);
      expect((await got(server, `/v4/account/entity-transfers/${String(newest!.token)}`)).status).toBe('completed');
    },
  ],
  [
    'account-lists-page-size-max-20',
    async (server) => {
      const list = (path: string, query: Json) => request(server).get(path).query(query).set(AUTH);
      expect((await list('/v4/account/oauth-clients', { page_size: 25 }).expect(400)).body.errors[0]).toMatchObject({ field: 'page_size' });
      await list('/v4/account/oauth-clients', { page_size: 1 }).expect(200);
      await list('/v4/databases/engines', { page_size: 20 }).expect(200);
      expect((await list('/v4/databases/types/g6-nanode-1', { page: 1, page_size: 25 }).expect(400)).body.errors[0]).toMatchObject({ field: 'page_size' });
      await list('/v4/databases/types/g6-nanode-1', { page: 1, page_size: 10 }).expect(200);
      await list('/v4/domains', { page_size: 25 }).expect(200);
    },
  ],
  [
    'page-past-last-refused',
    async (server) => {
      const list = (path: string, query: Json) => request(server).get(path).query(query).set(AUTH);
      const { pages } = (await list('/v4/account/events', { page_size: 25 }).expect(200)).body as Json;
      await list('/v4/account/events', { page: pages, page_size: 25 }).expect(200);
      expect((await list('/v4/account/events', { page: Number(pages) + 1, page_size: 25 }).expect(404)).body.errors[0]).toMatchObject({ field: 'page' });
      // An empty list still answers its page 1; a view that accepts page and page_size has no pages to be past.
      await list('/v4/domains', { page: 1 }).expect(200);
      await list('/v4/domains', { page: 2 }).expect(404);
      await list('/v4/databases/types/g6-nanode-1', { page: 2 }).expect(200);
    },
  ],
  [
    'ids-reused',
    async (server) => {
      // A grant on a deleted instance's id grants nothing of the instance given its id, and a grant on that one shows none
      // of the deleted one's events; a transfer naming the deleted one does not hold the new one.
      const grant = (id: unknown, username: string) =>
        mintedAuth(server, { restricted: true, username, grants: { entities: { compute: { [String(id)]: 'read_write' } } } });
      const first = await newInstance(server, 'first-holder');
      const path = `/v4/compute/instances/${String(first.id)}`;
      const granted = await grant(first.id, 'granted');
      await request(server).get(path).set(granted).expect(200);
      await postAccepted(server, '/v4/account/entity-transfers', { entities: { computes: [first.id] } });
      await deleteAccepted(server, path);
      const second = await newInstance(server, 'second-holder');
      expect(second.id).toBe(first.id);
      await request(server).get(path).set(granted).expect(404);
      const events = (
        (
          await request(server)
            .get('/v4/account/events')
            .set(await grant(second.id, 'owner'))
            .expect(200)
        ).body as { data: Json[] }
      ).data;
      expect(events.filter((event) => (event.entity as Json).id === first.id).map((event) => (event.entity as Json).label)).toEqual(['second-holder']);
      await postAccepted(server, '/v4/account/entity-transfers', { entities: { computes: [second.id] } });
      // The seeded instance's maintenance goes with it: the instance given its id has none.
      const maintained = async () => ((await got(server, '/v4beta/account/maintenance')).data as Json[]).map((m) => (m.entity as Json).id);
      const seeded = (await maintained())[0];
      await deleteAccepted(server, `/v4/compute/instances/${String(seeded)}`);
      expect((await newInstance(server, 'seed-successor')).id).toBe(seeded);
      expect(await maintained()).not.toContain(seeded);
    },
  ],
];

describeVariations('emulator variations: the account', cases);
