// Account (document 1): account view/update limits, cancel, credit card, entity transfers, events, invoices,
// logins, maintenance (beta), notifications, OAuth clients.
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import fc from 'fast-check';
import { AUTH, expectError, useEmulator } from './supertest-helpers.js';

const emulator = useEmulator();
const { get, post, put, del, token, advance } = emulator;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function instanceIds(): Promise<number[]> {
  const res = await get('/v4/compute/instances').expect(200);
  return res.body.data.map((i: { id: number }) => i.id);
}

describe('account view and update', () => {
  it('views the account', async () => {
    const res = await get('/v4/account').expect(200);
    for (const k of [
      'active_promotions',
      'active_since',
      'address_1',
      'address_2',
      'balance',
      'balance_uninvoiced',
      'capabilities',
      'city',
      'company',
      'country',
      'credit_card',
      'email',
      'euuid',
      'first_name',
      'last_name',
      'phone',
      'state',
      'tax_id',
      'zip',
    ]) {
      expect(res.body).toHaveProperty(k);
    }
    expect(res.body.euuid).toMatch(UUID);
    expect(res.body.active_since).toMatch(ISO);
    expect(res.body.credit_card).toEqual({ expiry: expect.any(String), last_four: expect.any(Number) });
    expectError(await get('/v4/account', {}), 401);
    expectError(await get('/v4/account', await token({ scopes: ['events:read_only'] })), 403);
    await get('/v4/account', await token({ scopes: ['account:read_only'] })).expect(200);
    expectError(await put('/v4/account', { city: 'x' }, await token({ scopes: ['account:read_only'] })), 403);
  });

  it('accepts each text field at its max length and rejects max+1', async () => {
    const limits: Record<string, number> = { address_1: 64, address_2: 64, city: 24, company: 128, first_name: 50, last_name: 50, phone: 32, tax_id: 100 };
    for (const [k, max] of Object.entries(limits)) {
      const ok = await put('/v4/account', { [k]: 'a'.repeat(max) }).expect(200);
      expect(ok.body[k]).toBe('a'.repeat(max));
      expectError(await put('/v4/account', { [k]: 'a'.repeat(max + 1) }), 400, k);
      expectError(await put('/v4/account', { [k]: 5 }), 400, k);
    }
    const email = `${'e'.repeat(116)}@example.com`;
    expect(email).toHaveLength(128);
    await put('/v4/account', { email }).expect(200);
    expectError(await put('/v4/account', { email: `e${email}` }), 400, 'email');
    expectError(await put('/v4/account', { email: 'not-an-email' }), 400, 'email');
    await put('/v4/account', { zip: '19103-1234' }).expect(200);
  });

  it('country is a two-letter ISO code; US/CA states are codes', async () => {
    for (const bad of ['USA', 'XX', 'U', '']) expectError(await put('/v4/account', { country: bad }), 400, 'country');
    expect((await put('/v4/account', { country: 'de', state: 'Bayern' }).expect(200)).body).toMatchObject({ country: 'DE', state: 'Bayern' });
    await put('/v4/account', { state: 's'.repeat(24) }).expect(200);
    expectError(await put('/v4/account', { state: 's'.repeat(25) }), 400, 'state');
    expectError(await put('/v4/account', { country: 'US', state: 'Pennsylvania' }), 400, 'state');
    expectError(await put('/v4/account', { country: 'US', state: 'ON' }), 400, 'state');
    for (const st of ['NY', 'AA', 'AE', 'AP', 'DC']) await put('/v4/account', { country: 'US', state: st }).expect(200);
    expectError(await put('/v4/account', { state: 'Texas' }), 400, 'state'); // country now US
    expectError(await put('/v4/account', { country: 'CA', state: 'NY' }), 400, 'state');
    await put('/v4/account', { country: 'CA', state: 'ON' }).expect(200);
    await put('/v4/account', { state: 'QC' }).expect(200);
    // only the country changes: the state on file must suit it too
    await put('/v4/account', { country: 'DE', state: 'Bayern' }).expect(200);
    expectError(await put('/v4/account', { country: 'US' }), 400, 'country');
    expectError(await put('/v4/account', { country: 'CA' }), 400, 'country');
    expect((await get('/v4/account').expect(200)).body).toMatchObject({ country: 'DE', state: 'Bayern' });
    await put('/v4/account', { country: 'US', state: 'NY' }).expect(200);
    await put('/v4/account', { country: 'FR' }).expect(200);
  });

  it('active_promotions, body shape, account_update event', async () => {
    const promo = { description: 'x', expire_dt: '2031-01-01T00:00:00', summary: 's' };
    expect((await put('/v4/account', { active_promotions: [promo] }).expect(200)).body.active_promotions).toMatchObject([promo]);
    // a partial promotion is shown with every member
    const partial = (await put('/v4/account', { active_promotions: [{ summary: 'half' }] }).expect(200)).body.active_promotions[0];
    expect(Object.keys(partial).sort()).toEqual([
      'credit_monthly_cap',
      'credit_remaining',
      'description',
      'expire_dt',
      'image_url',
      'service_type',
      'summary',
      'this_month_credit_remaining',
    ]);
    expect(partial.summary).toBe('half');
    expectError(await put('/v4/account', { active_promotions: 'x' }), 400, 'active_promotions');
    expectError(await put('/v4/account', { active_promotions: [5] }), 400, 'active_promotions.0');
    expectError(await put('/v4/account', { active_promotions: [{ expire_dt: 'tomorrow' }] }), 400, 'active_promotions.0.expire_dt');
    for (const bad of ['2031-13-01T00:00:00', '2031-02-30T00:00:00', '2031-01-01T25:00:00']) {
      expectError(await put('/v4/account', { active_promotions: [{ expire_dt: bad }] }), 400, 'active_promotions.0.expire_dt');
    }
    expectError(await put('/v4/account', []), 400);
    const before = (await get('/v4/account')).body;
    const after = (await put('/v4/account', { balance: 0, euuid: 'x' }).expect(200)).body;
    expect(after.balance).toBe(before.balance);
    expect(after.euuid).toBe(before.euuid);
    const events = (await get('/v4/account/events')).body.data;
    expect(events[0]).toMatchObject({ action: 'account_update', username: 'emulator-user' });
  });
});

describe('cancel and credit card', () => {
  it('cancels with a survey link; restricted users cannot', async () => {
    const restricted = await token({ restricted: true, grants: { global: { account_access: 'read_write' } } });
    expectError(await post('/v4/account/cancel', { comments: 'bye' }, restricted), 403);
    expectError(await post('/v4/account/cancel', { comments: 5 }), 400, 'comments');
    const res = await post('/v4/account/cancel', { comments: 'bye' }).expect(200);
    expect(Object.keys(res.body)).toEqual(['survey_link']);
    expect(typeof res.body.survey_link).toBe('string');
    await post('/v4/account/cancel').expect(200);
  });

  it('fails when the card on file cannot be charged and a balance is due', async () => {
    // the declining test card makes the card on file fail
    await post('/v4/account/credit-card', { card_number: '4000000000000002', cvv: '123', expiry_month: 12, expiry_year: 2030 }).expect(200);
    const res = await post('/v4/account/cancel', {});
    expectError(res, 400, null);
    expect(res.body.errors[0].reason).toMatch(/could not charge/i);
    expect(res.body.errors[0].reason).toMatch(/balance/i);
    // a working card fixes it
    await post('/v4/account/credit-card', { card_number: '4111111111111111', cvv: '123', expiry_month: 1, expiry_year: 2031 }).expect(200);
    await post('/v4/account/cancel', {}).expect(200);
  });

  it('validates the credit card body and updates the card on file', async () => {
    const ok = { card_number: '4111111111111111', cvv: '123', expiry_month: 6, expiry_year: 2030 };
    expect((await post('/v4/account/credit-card', ok).expect(200)).body).toEqual({});
    expect((await get('/v4/account')).body.credit_card).toEqual({ expiry: '06/2030', last_four: 1111 });
    expect((await get('/v4/account/events')).body.data[0].action).toBe('credit_card_updated');
    for (const k of Object.keys(ok)) {
      const body: Record<string, unknown> = { ...ok };
      delete body[k];
      expectError(await post('/v4/account/credit-card', body), 400, k);
    }
    const cases: [string, unknown, boolean][] = [
      ['card_number', '1'.repeat(13), false],
      ['card_number', '1'.repeat(14), true],
      ['card_number', '1'.repeat(24), true],
      ['card_number', '1'.repeat(25), false],
      ['card_number', '4111 1111 1111 1111', false],
      ['card_number', '4111-1111-1111-1111', false],
      ['card_number', 4111111111111111, false],
      ['cvv', '12', false],
      ['cvv', '123', true],
      ['cvv', '1234', true],
      ['cvv', '12345', false],
      ['cvv', '12a', false],
      ['expiry_month', 0, false],
      ['expiry_month', 1, true],
      ['expiry_month', 12, true],
      ['expiry_month', 13, false],
      ['expiry_month', '6', false],
      ['expiry_year', 999, false],
      ['expiry_year', 1000, true],
      ['expiry_year', 9999, true],
      ['expiry_year', 10000, false],
      ['expiry_year', 2030.5, false],
    ];
    for (const [k, v, accepted] of cases) {
      const res = await post('/v4/account/credit-card', { ...ok, [k]: v });
      if (accepted) expect(res.status, `${k}=${String(v)}`).toBe(200);
      else expectError(res, 400, k);
    }
    expectError(await post('/v4/account/credit-card'), 400);
  });
});

describe('entity transfers', () => {
  it('creates a pending transfer that expires after 24 hours and then is stale', async () => {
    const [id] = await instanceIds();
    const res = await post('/v4/account/entity-transfers', { entities: { computes: [id] } }).expect(200);
    const t = res.body;
    expect(t).toMatchObject({ entities: { computes: [id] }, is_sender: true, status: 'pending' });
    expect(t.token).toMatch(UUID);
    expect(new Date(`${t.expiry}Z`).getTime() - new Date(`${t.created}Z`).getTime()).toBe(86_400_000);
    expect((await get(`/v4/account/entity-transfers/${t.token}`).expect(200)).body).toEqual(t);
    const list = (await get('/v4/account/entity-transfers').expect(200)).body;
    expect(list.data.some((x: { token: string }) => x.token === t.token)).toBe(true);
    expect(list.data.some((x: { is_sender: boolean }) => !x.is_sender)).toBe(true);
    await advance(86_400 - 10);
    expect((await get(`/v4/account/entity-transfers/${t.token}`)).body.status).toBe('pending');
    await advance(20);
    expect((await get(`/v4/account/entity-transfers/${t.token}`)).body.status).toBe('stale');
    expectError(await del(`/v4/account/entity-transfers/${t.token}`), 400);
  });

  it('validates entities.computes', async () => {
    const [id] = await instanceIds();
    expectError(await post('/v4/account/entity-transfers', {}), 400, 'entities');
    expectError(await post('/v4/account/entity-transfers', { entities: [] }), 400, 'entities');
    expectError(await post('/v4/account/entity-transfers', { entities: {} }), 400, 'entities.computes');
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [] } }), 400, 'entities.computes');
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: ['1'] } }), 400, 'entities.computes.0');
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [id, 987654] } }), 400, 'entities.computes.1');
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [id, id] } }), 400, 'entities.computes.1');
    await post('/v4/account/entity-transfers', { entities: { computes: [id] } }).expect(200);
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [id] } }), 400, 'entities.computes.0');
  });

  it('restricted users need read_write on each instance', async () => {
    const [id] = await instanceIds();
    const none = await token({ restricted: true });
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [id] } }, none), 400, 'entities.computes.0');
    const ro = await token({ restricted: true, grants: { entities: { compute: { [id!]: 'read_only' } } } });
    expectError(await post('/v4/account/entity-transfers', { entities: { computes: [id] } }, ro), 403, 'entities.computes.0');
    const rw = await token({ restricted: true, grants: { entities: { compute: { [id!]: 'read_write' } } } });
    await post('/v4/account/entity-transfers', { entities: { computes: [id] } }, rw).expect(200);
  });

  it('accept: not your own, only pending; cancel: only your own pending', async () => {
    const [id] = await instanceIds();
    const own = (await post('/v4/account/entity-transfers', { entities: { computes: [id] } })).body;
    const accepted = await post(`/v4/account/entity-transfers/${own.token}/accept`);
    expectError(accepted, 400, null);
    expect(accepted.body.errors[0].reason).toMatch(/own/);
    const incoming = (await get('/v4/account/entity-transfers')).body.data.filter(
      (t: { is_sender: boolean; status: string }) => !t.is_sender && t.status === 'pending',
    );
    expect(incoming.length).toBeGreaterThanOrEqual(2);
    expectError(await del(`/v4/account/entity-transfers/${incoming[0].token}`), 400);
    expect((await post(`/v4/account/entity-transfers/${incoming[0].token}/accept`).expect(200)).body).toEqual({});
    expect((await get(`/v4/account/entity-transfers/${incoming[0].token}`)).body.status).toBe('accepted');
    expectError(await post(`/v4/account/entity-transfers/${incoming[0].token}/accept`), 400);
    await advance(61);
    expect((await get(`/v4/account/entity-transfers/${incoming[0].token}`)).body.status).toBe('completed');

    expect((await del(`/v4/account/entity-transfers/${own.token}`).expect(200)).body).toEqual({});
    expect((await get(`/v4/account/entity-transfers/${own.token}`)).body.status).toBe('cancelled');
    expectError(await del(`/v4/account/entity-transfers/${own.token}`), 400);
    // a cancelled transfer frees its instances
    await post('/v4/account/entity-transfers', { entities: { computes: [id] } }).expect(200);

    await advance(86_400);
    expectError(await post(`/v4/account/entity-transfers/${incoming[1].token}/accept`), 400);
    for (const bad of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expectError(await get(`/v4/account/entity-transfers/${bad}`), 404);
      expectError(await del(`/v4/account/entity-transfers/${bad}`), 404);
      expectError(await post(`/v4/account/entity-transfers/${bad}/accept`), 404);
    }
  });
});

describe('events', () => {
  it('lists the last 90 days newest first, views one, 404 for unknown and older ones', async () => {
    const res = await get('/v4/account/events').expect(200);
    const ids = res.body.data.map((e: { id: number }) => e.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
    const e = res.body.data[0];
    for (const k of [
      'action',
      'created',
      'duration',
      'entity',
      'id',
      'message',
      'percent_complete',
      'rate',
      'read',
      'secondary_entity',
      'seen',
      'status',
      'time_remaining',
      'username',
    ]) {
      expect(e).toHaveProperty(k);
    }
    expect((await get(`/v4/account/events/${e.id}`).expect(200)).body).toEqual(e);
    expectError(await get('/v4/account/events/999999'), 404);
    expectError(await get('/v4/account/events/abc'), 404);
    // the seeded event older than 90 days is not listed nor viewable
    const hidden = [1, 2, 3, 4, 5].find((n) => !ids.includes(n))!;
    expectError(await get(`/v4/account/events/${hidden}`), 404);
    // events fall out of the list after 90 days
    const monthOld = res.body.data.find((x: { action: string }) => x.action === 'payment_submitted');
    await advance(59 * 86_400);
    await get(`/v4/account/events/${monthOld.id}`).expect(200);
    await advance(2 * 86_400);
    const later = (await get('/v4/account/events')).body.data.map((x: { id: number }) => x.id);
    expect(later).not.toContain(monthOld.id);
    expectError(await get(`/v4/account/events/${monthOld.id}`), 404);
  });

  it('read marks one event; seen marks every event up to and including the id', async () => {
    const list = (await get('/v4/account/events')).body.data as { id: number }[];
    const [newest, middle, oldest] = [list[0]!, list[1]!, list[list.length - 1]!];
    expect((await post(`/v4/account/events/${middle.id}/read`).expect(200)).body).toEqual({});
    const after = (await get('/v4/account/events')).body.data as { id: number; read: boolean; seen: boolean }[];
    expect(after.filter((x) => x.read).map((x) => x.id)).toEqual([middle.id]);
    expect((await post(`/v4/account/events/${middle.id}/seen`).expect(200)).body).toEqual({});
    const seen = (await get('/v4/account/events')).body.data as { id: number; seen: boolean }[];
    for (const x of seen) expect(x.seen).toBe(x.id <= middle.id);
    expect(seen.find((x) => x.id === oldest.id)!.seen).toBe(true);
    expect(seen.find((x) => x.id === newest.id)!.seen).toBe(false);
    expectError(await post('/v4/account/events/999999/read'), 404);
    expectError(await post('/v4/account/events/999999/seen'), 404);
  });

  it('needs events:read_only; restricted users see what their grants allow', async () => {
    expectError(await get('/v4/account/events', await token({ scopes: ['account:read_write'] })), 403);
    const ro = await token({ scopes: ['events:read_only'] });
    await get('/v4/account/events', ro).expect(200);
    const id = (await get('/v4/account/events')).body.data[0].id;
    await post(`/v4/account/events/${id}/read`, undefined, ro).expect(200);
    const bare = await token({ restricted: true, username: 'someone-else' });
    expect((await get('/v4/account/events', bare).expect(200)).body.results).toBe(0);
    expectError(await get(`/v4/account/events/${id}`, bare), 404);
    const withAccount = await token({ restricted: true, username: 'someone-else', grants: { global: { account_access: 'read_only' } } });
    expect((await get('/v4/account/events', withAccount)).body.results).toBeGreaterThan(0);
  });
});

describe('invoices, logins, maintenance, notifications', () => {
  it('invoices and their items', async () => {
    const list = (await get('/v4/account/invoices').expect(200)).body;
    expect(list.results).toBeGreaterThanOrEqual(1);
    const inv = list.data[0];
    expect(Object.keys(inv).sort()).toEqual(['date', 'id', 'label', 'subtotal', 'tax', 'total']);
    expect((await get(`/v4/account/invoices/${inv.id}`).expect(200)).body).toEqual(inv);
    const items = (await get(`/v4/account/invoices/${inv.id}/items`).expect(200)).body;
    expect(items.results).toBeGreaterThan(0);
    expect(Object.keys(items.data[0]).sort()).toEqual(['amount', 'from', 'label', 'quantity', 'tax', 'to', 'total', 'type', 'unit_price']);
    expectError(await get('/v4/account/invoices/999999'), 404);
    expectError(await get('/v4/account/invoices/x/items'), 404);
    expectError(await get('/v4/account/invoices?page_size=24'), 400, 'page_size');
    expectError(await get(`/v4/account/invoices/${inv.id}/items?page=0`), 400, 'page');
  });

  it('logins of the last 90 days, unrestricted users only', async () => {
    const list = (await get('/v4/account/logins').expect(200)).body;
    expect(list.results).toBe(3);
    const l = list.data[0];
    expect(Object.keys(l).sort()).toEqual(['datetime', 'id', 'ip', 'restricted', 'username']);
    expect((await get(`/v4/account/logins/${l.id}`).expect(200)).body).toEqual(l);
    const old = [1, 2, 3, 4].find((n) => !list.data.some((x: { id: number }) => x.id === n))!;
    expectError(await get(`/v4/account/logins/${old}`), 404);
    expectError(await get('/v4/account/logins/0'), 404);
    const restricted = await token({ restricted: true, grants: { global: { account_access: 'read_write' } } });
    expectError(await get('/v4/account/logins', restricted), 403);
    expectError(await get(`/v4/account/logins/${l.id}`, restricted), 403);
  });

  it('maintenance (beta) for instances the caller may view', async () => {
    expectError(await get('/v4/account/maintenance'), 404);
    const list = (await get('/v4beta/account/maintenance').expect(200)).body;
    expect(list.results).toBeGreaterThan(0);
    const m = list.data[0];
    expect(Object.keys(m).sort()).toEqual(['entity', 'reason', 'status', 'type', 'when']);
    expect(m.entity.type).toBe('compute');
    expectError(await get('/v4beta/account/maintenance', await token({ scopes: ['account:read_write'] })), 403);
    await get('/v4beta/account/maintenance', await token({ scopes: ['maintenance:read_only'] })).expect(200);
    const bare = await token({ restricted: true });
    expect((await get('/v4beta/account/maintenance', bare)).body.results).toBe(0);
    const granted = await token({ restricted: true, grants: { entities: { compute: { [m.entity.id]: 'read_only' } } } });
    expect((await get('/v4beta/account/maintenance', granted)).body.results).toBe(1);
  });

  it('notifications; payment_due disappears once the balance is paid', async () => {
    const list = (await get('/v4/account/notifications').expect(200)).body;
    const types = list.data.map((n: { type: string }) => n.type);
    expect(types).toContain('payment_due');
    for (const n of list.data) expect(Object.keys(n).sort()).toEqual(['body', 'entity', 'label', 'message', 'severity', 'type', 'until', 'when']);
    await post('/v4/account/cancel', {}).expect(200);
    const after = (await get('/v4/account/notifications')).body.data.map((n: { type: string }) => n.type);
    expect(after).not.toContain('payment_due');
  });
});

describe('OAuth clients', () => {
  it('creates (full secret once), lists and views (redacted), updates, deletes', async () => {
    const res = await post('/v4/account/oauth-clients', { label: 'My app', redirect_uri: 'https://app.example.org/cb' }).expect(200);
    const c = res.body;
    expect(c).toMatchObject({ label: 'My app', redirect_uri: 'https://app.example.org/cb', public: false, status: 'active', thumbnail_url: null });
    expect(c.secret).not.toBe('<REDACTED>');
    const viewed = (await get(`/v4/account/oauth-clients/${c.id}`).expect(200)).body;
    expect(viewed).toEqual({ ...c, secret: '<REDACTED>' });
    const list = (await get('/v4/account/oauth-clients').expect(200)).body;
    expect(list.data.map((x: { id: string }) => x.id)).toContain(c.id);
    const upd = (await put(`/v4/account/oauth-clients/${c.id}`, { label: 'Renamed', public: true, redirect_uri: 'http://localhost:8080/cb' }).expect(200)).body;
    expect(upd).toMatchObject({ label: 'Renamed', public: true, redirect_uri: 'http://localhost:8080/cb' });
    await put(`/v4/account/oauth-clients/${c.id}`, {}).expect(200);
    expect((await del(`/v4/account/oauth-clients/${c.id}`).expect(200)).body).toEqual({});
    expectError(await get(`/v4/account/oauth-clients/${c.id}`), 404);
    expectError(await put(`/v4/account/oauth-clients/${c.id}`, { label: 'x' }), 404);
    expectError(await del(`/v4/account/oauth-clients/${c.id}`), 404);
    const actions = (await get('/v4/account/events')).body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['oauth_client_create', 'oauth_client_update', 'oauth_client_delete']));
  });

  it('validates label 1..512, redirect_uri URL, public boolean', async () => {
    const ok = { label: 'x', redirect_uri: 'https://example.org/cb' };
    await post('/v4/account/oauth-clients', ok).expect(200);
    await post('/v4/account/oauth-clients', { ...ok, label: 'l'.repeat(512), public: true }).expect(200);
    expectError(await post('/v4/account/oauth-clients', { ...ok, label: '' }), 400, 'label');
    expectError(await post('/v4/account/oauth-clients', { ...ok, label: 'l'.repeat(513) }), 400, 'label');
    expectError(await post('/v4/account/oauth-clients', { redirect_uri: ok.redirect_uri }), 400, 'label');
    expectError(await post('/v4/account/oauth-clients', { label: 'x' }), 400, 'redirect_uri');
    for (const bad of ['not a url', '/relative/cb', 'ftp://example.org/cb', 42]) {
      expectError(await post('/v4/account/oauth-clients', { ...ok, redirect_uri: bad }), 400, 'redirect_uri');
    }
    expectError(await post('/v4/account/oauth-clients', { ...ok, public: 'yes' }), 400, 'public');
    expectError(await post('/v4/account/oauth-clients', [ok]), 400);
    const id = (await get('/v4/account/oauth-clients')).body.data[0].id;
    expectError(await put(`/v4/account/oauth-clients/${id}`, { label: '' }), 400, 'label');
    expectError(await put(`/v4/account/oauth-clients/${id}`, { label: 'l'.repeat(513) }), 400, 'label');
    expectError(await put(`/v4/account/oauth-clients/${id}`, { redirect_uri: 'nope' }), 400, 'redirect_uri');
    expectError(await put(`/v4/account/oauth-clients/${id}`, { public: null }), 400, 'public');
  });

  it('deleting a client invalidates the tokens issued to it', async () => {
    const c = (await post('/v4/account/oauth-clients', { label: 'app', redirect_uri: 'https://example.org/cb' })).body;
    const issued = await token({ scopes: ['account:read_only'], oauth_client_id: c.id });
    const other = await token({ scopes: ['account:read_only'] });
    await get('/v4/account', issued).expect(200);
    await del(`/v4/account/oauth-clients/${c.id}`).expect(200);
    expectError(await get('/v4/account', issued), 401);
    await get('/v4/account', other).expect(200);
  });
});

describe('robustness', () => {
  it('random bodies on the write endpoints never give a 5xx', async () => {
    const [id] = await instanceIds();
    const client = (await get('/v4/account/oauth-clients')).body.data[0].id;
    const paths: ['post' | 'put', string][] = [
      ['put', '/v4/account'],
      ['post', '/v4/account/cancel'],
      ['post', '/v4/account/credit-card'],
      ['post', '/v4/account/entity-transfers'],
      ['post', '/v4/account/oauth-clients'],
      ['put', `/v4/account/oauth-clients/${client}`],
    ];
    const shaped = fc.oneof(
      fc.anything({ maxDepth: 3 }),
      fc.record({ entities: fc.oneof(fc.anything(), fc.record({ computes: fc.array(fc.oneof(fc.constant(id), fc.integer(), fc.double(), fc.string())) })) }),
      fc.record({ label: fc.string(), redirect_uri: fc.oneof(fc.webUrl(), fc.string()), public: fc.anything() }, { requiredKeys: [] }),
      fc.record(
        { country: fc.string({ maxLength: 3 }), state: fc.string({ maxLength: 30 }), email: fc.oneof(fc.emailAddress(), fc.string()) },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), shaped, async ([method, path], body) => {
        const res = await request(emulator.server())
          [method](path)
          .set(AUTH)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body) ?? 'null');
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
  });
});
