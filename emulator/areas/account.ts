// Account (document 1, "Account"): the account object, cancellation, credit card, entity transfers, events,
// invoices, logins, maintenance (beta), notifications and OAuth clients.
//
// Choices where the document says "not shown" (listed in the README too):
// - the card on file fails to be charged after the test card number 4000000000000002 was added; adding any other card makes the card on file chargeable again;
//   cancelling charges the balance (it becomes 0) and answers `{survey_link}`; cancelling again answers the same;
// - account `country` is checked against the ISO 3166-1 alpha-2 list (case-insensitive, stored upper case); a
//   `state` sent for a US or CA address must be a state / province code, and so must the state on file when only
//   the country changes to US or CA (field `country`); `zip` has no format check; members of an
//   `active_promotions` item the update leaves out take empty defaults ('' / '0.00' / now / 'all');
// - credit card: only the documented formats are checked (no expiry-in-the-past check);
// - entity transfers: `computes` needs at least one id, no duplicates, each an existing instance the caller can
//   read_write that is not in another pending transfer; pending → stale at expiry; accepting an incoming pending
//   transfer → `accepted`, `completed` a minute later; only the sender cancels a pending transfer (→ `cancelled`);
//   four incoming transfers (is_sender false) are seeded so accept can be exercised;
// - events: newest first; a restricted user sees events of entities it holds a grant on, its own events, and
//   account-level events when it has the `account_access` grant; read/seen are per account;
// - OAuth clients: the full secret is returned only by create; other responses show `<REDACTED>`; new clients are
//   `active`; redirect_uri must be an absolute http(s) URL;
// - logins older than 90 days are neither listed nor viewable (404); maintenance type `reboot` |
//   `live_migration`, status `pending` | `scheduled`; notification types `maintenance`, `payment_due` (while the
//   balance is not 0) and `notice`, severities `minor` | `major`.
import type { Area, Principal, RequestContext, Route } from '../core/types.js';
import { parseIso, type Store } from '../core/store.js';
import { varied } from '../variations/index.js';
import { asObject, fail, optArray, optBool, optString, reqArray, reqInt, reqObject, reqString } from '../core/validate.js';
import { paginate } from '../core/pagination.js';
import { emitEvent, EVENTS_TABLE, type Event, type EventEntity } from '../core/events.js';
import { canAccess, hasGlobalGrant, type EntityKind } from '../core/permissions.js';
import { getInstance, instanceEntity, listInstances } from '../core/entities.js';
import { intParam } from '../core/routes.js';
import { faulty } from '../faults/index.js';

const DAY_MS = 86_400_000;
const RETENTION_MS = 90 * DAY_MS;
const DECLINING_TEST_CARD = '4000000000000002';

interface Promotion {
  credit_monthly_cap: string;
  credit_remaining: string;
  description: string;
  expire_dt: string;
  image_url: string;
  service_type: string;
  summary: string;
  this_month_credit_remaining: string;
}

interface Account {
  active_promotions: Partial<Promotion>[];
  active_since: string;
  address_1: string;
  address_2: string;
  balance: number;
  balance_uninvoiced: number;
  capabilities: string[];
  city: string;
  company: string;
  country: string;
  credit_card: { expiry: string; last_four: number };
  email: string;
  euuid: string;
  first_name: string;
  last_name: string;
  phone: string;
  state: string;
  tax_id: string;
  zip: string;
}

/** Internal account state that is not part of the account object. */
interface AccountState {
  cardFails: boolean;
  cancelled: boolean;
  seededAt: string;
}

interface Transfer {
  token: string;
  created: string;
  updated: string;
  expiry: string;
  entities: { computes: number[] };
  is_sender: boolean;
  status: 'accepted' | 'cancelled' | 'completed' | 'failed' | 'pending' | 'stale';
}

interface Invoice {
  id: number;
  date: string;
  label: string;
  subtotal: number;
  tax: number;
  total: number;
}

interface InvoiceItem {
  amount: number;
  from: string;
  label: string;
  quantity: number;
  tax: number;
  to: string;
  total: number;
  type: string;
  unit_price: number;
}

interface Login {
  id: number;
  datetime: string;
  ip: string;
  restricted: boolean;
  username: string;
}

interface Maintenance {
  instanceId: number;
  reason: string;
  status: string;
  type: string;
  when: string;
}

interface OAuthClient {
  id: string;
  label: string;
  public: boolean;
  redirect_uri: string;
  secret: string;
  status: 'active' | 'disabled' | 'suspended';
  thumbnail_url: string | null;
}

const T = {
  account: (s: Store) => s.table<Account>('account.account'),
  state: (s: Store) => s.table<AccountState>('account.state'),
  transfers: (s: Store) => s.table<Transfer>('account.transfers'),
  invoices: (s: Store) => s.table<Invoice>('account.invoices'),
  items: (s: Store) => s.table<InvoiceItem[]>('account.invoice_items'),
  logins: (s: Store) => s.table<Login>('account.logins'),
  maintenance: (s: Store) => s.table<Maintenance>('account.maintenance'),
  clients: (s: Store) => s.table<OAuthClient>('account.oauth_clients'),
  events: (s: Store) => s.table<Event>(EVENTS_TABLE),
};

const account = (s: Store): Account => T.account(s).get('1')!;
const state = (s: Store): AccountState => T.state(s).get('1')!;
const ago = (s: Store, ms: number): string => s.nowIso(new Date(s.now().getTime() - ms));
const ahead = (s: Store, ms: number): string => s.nowIso(new Date(s.now().getTime() + ms));
const within90Days = (s: Store, iso: string): boolean => s.now().getTime() - parseIso(iso).getTime() <= RETENTION_MS;

function uuid(s: Store): string {
  const h = s.randomHex(16).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
  const x = h.join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The account object as responses show it. */
function accountView(s: Store): Account {
  const a = structuredClone(account(s));
  if (faulty(s, 'P1.account.euuid.uuid')) a.euuid = a.euuid.replace(/-/g, '');
  if (faulty(s, 'P1.account.credit-card.last-four.integer')) a.credit_card.last_four = String(a.credit_card.last_four).padStart(4, '0') as unknown as number;
  return a;
}

function accountEntity(s: Store): EventEntity {
  const a = account(s);
  return { id: a.euuid, label: a.company || null, type: 'account', url: '/v4/account' };
}

// ---------------------------------------------------------------------------------------------------- account

/** ISO 3166-1 alpha-2 codes. */
const COUNTRIES = new Set(
  ('AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW').split(' '),
);

/** US states, DC, territories and the military codes AA, AE, AP. */
const US_STATES = new Set(
  ('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR ' +
    'PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM AA AE AP').split(' '),
);
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const TEXT_LIMITS: Record<string, number> = {
  address_1: 64,
  address_2: 64,
  city: 24,
  company: 128,
  first_name: 50,
  last_name: 50,
  phone: 32,
  tax_id: 100,
};

/** An address of the usual syntax: dot-atom local part, host labels of letters, digits and inner hyphens. */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const realDateTime = (v: string): boolean => {
  const t = new Date(`${v}Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 19) === v;
};
const PROMOTION_KEYS = [
  'credit_monthly_cap',
  'credit_remaining',
  'description',
  'expire_dt',
  'image_url',
  'service_type',
  'summary',
  'this_month_credit_remaining',
] as const;

function updateAccount(ctx: RequestContext) {
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  const a = account(ctx.store);
  const changes: Partial<Account> = {};
  for (const [key, max] of Object.entries(TEXT_LIMITS)) {
    const v = optString(o, key, { max: key === 'city' && faulty(ctx.store, 'P1.account.city.max-24') ? 32 : max });
    if (v !== undefined) (changes as Record<string, unknown>)[key] = v;
  }
  // The fault stores the plain text members before the others are validated.
  if (faulty(ctx.store, 'P1.errors.rejected-write-no-effect')) Object.assign(a, changes);
  const email = optString(o, 'email', { max: 128, ...(faulty(ctx.store, 'P1.account.email.format') ? {} : { pattern: EMAIL, patternReason: 'email must be an email address such as jane@example.com.' }) });
  if (email !== undefined) changes.email = email;
  const zip = optString(o, 'zip');
  if (zip !== undefined) changes.zip = zip;
  const country = optString(o, 'country');
  if (country !== undefined) {
    const code = country.toUpperCase();
    if (!COUNTRIES.has(code) && !faulty(ctx.store, 'P1.account.country.iso-3166')) fail(`country must be a two-letter ISO 3166 country code such as US or DE, not ${JSON.stringify(country.slice(0, 32))}.`, 'country');
    changes.country = code;
  }
  const st = optString(o, 'state', { max: 24 });
  // The resulting address is judged: a country changed to US or CA without a state keeps the state on file, which
  // must then be a code of that country too.
  if ((st !== undefined || changes.country !== undefined) && !faulty(ctx.store, 'P1.account.state.us-ca-code')) {
    const where = changes.country ?? a.country;
    const next = st ?? a.state;
    const field = st !== undefined ? 'state' : 'country';
    if (where === 'US' && !US_STATES.has(next)) {
      fail(`For a US address, state must be the two-letter state code (e.g. NY), or AA, AE or AP for military addresses${st === undefined ? `; send one with the country (the state on file is ${JSON.stringify(next.slice(0, 24))})` : ''}.`, field);
    }
    if (where === 'CA' && !CA_PROVINCES.has(next)) {
      fail(`For a Canadian address, state must be the two-letter province code (e.g. ON)${st === undefined ? `; send one with the country (the state on file is ${JSON.stringify(next.slice(0, 24))})` : ''}.`, field);
    }
  }
  if (st !== undefined) changes.state = st;
  const promos = optArray(o, 'active_promotions');
  if (promos !== undefined) {
    changes.active_promotions = promos.map((p, i) => {
      const path = `active_promotions.${i}`;
      const po = asObject(p, path);
      // The account shows every member of a promotion: members the update leaves out take empty defaults.
      const out: Partial<Promotion> = {
        credit_monthly_cap: '0.00',
        credit_remaining: '0.00',
        description: '',
        expire_dt: ctx.store.nowIso(),
        image_url: '',
        service_type: 'all',
        summary: '',
        this_month_credit_remaining: '0.00',
      };
      for (const key of PROMOTION_KEYS) {
        const v =
          key === 'expire_dt'
            ? optString(po, key, { path, pattern: DATE_TIME, patternReason: `${path}.expire_dt must be a date-time like 2030-01-31T00:00:00.` })
            : optString(po, key, { path });
        // the pattern alone lets through dates that do not exist (month 13, February 30, hour 25)
        if (key === 'expire_dt' && v !== undefined && !realDateTime(v)) fail(`${path}.expire_dt must be a date-time like 2030-01-31T00:00:00.`, `${path}.expire_dt`);
        if (v !== undefined) out[key] = v;
      }
      return out;
    });
  }
  Object.assign(a, changes);
  emitEvent(ctx.store, ctx.principal, { action: 'account_update', entity: accountEntity(ctx.store) });
  return accountView(ctx.store);
}

function cancelAccount(ctx: RequestContext) {
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  optString(o, 'comments');
  const a = account(ctx.store);
  const st = state(ctx.store);
  if (a.balance !== 0 && st.cardFails && !faulty(ctx.store, 'P1.account.cancel.charges-balance')) {
    fail(
      `We could not charge the credit card on file for the remaining balance of $${a.balance.toFixed(2)}. ` +
        'Pay the balance first (or add a working card), then cancel the account.',
      faulty(ctx.store, 'P1.errors.reason.cancel-charge-failed') ? 'balance' : null,
    );
  }
  a.balance = 0;
  st.cancelled = true;
  return { survey_link: `https://survey.example.com/account-cancellation?euuid=${a.euuid}` };
}

function addCreditCard(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const digits = /^\d+$/;
  const number = reqString(o, 'card_number', {
    min: 14,
    ...(faulty(ctx.store, 'P1.credit-card.card-number.max-24') ? {} : { max: 24 }),
    pattern: digits,
    patternReason: 'card_number must contain digits only, without spaces or dashes.',
  });
  reqString(o, 'cvv', { min: 3, max: 4, pattern: faulty(ctx.store, 'P1.credit-card.cvv.digits') ? /^/ : digits, patternReason: 'cvv must contain 3 or 4 digits only.' });
  const month = reqInt(o, 'expiry_month', { min: 1, ...(faulty(ctx.store, 'P1.credit-card.expiry-month.max-12') ? {} : { max: 12 }) });
  const year = reqInt(o, 'expiry_year', { min: 1000, max: 9999 });
  if (faulty(ctx.store, 'P1.credit-card.becomes-default')) return {};
  account(ctx.store).credit_card = { expiry: `${String(month).padStart(2, '0')}/${year}`, last_four: Number(number.slice(-4)) };
  state(ctx.store).cardFails = number === DECLINING_TEST_CARD;
  emitEvent(ctx.store, ctx.principal, { action: 'credit_card_updated', entity: accountEntity(ctx.store) });
  return {};
}

// ------------------------------------------------------------------------------------------ entity transfers


function transferView(s: Store, t: Transfer) {
  return { ...t, entities: { computes: [...t.entities.computes] }, ...(faulty(s, 'P1.entity-transfer.is-sender.creator') ? { is_sender: false } : {}) };
}

function addTransfer(s: Store, t: Transfer): void {
  T.transfers(s).set(t.token, t);
  const expiry = parseIso(t.expiry);
  s.schedule(expiry, (st) => {
    if (T.transfers(st).get(t.token) !== t || t.status !== 'pending') return;
    t.status = 'stale';
    t.updated = st.nowIso(expiry);
  });
}

function transferOr404(ctx: RequestContext): Transfer {
  const token = ctx.params['token'] ?? '';
  const t = T.transfers(ctx.store).get(token.toLowerCase());
  if (t === undefined) fail(`Entity transfer ${JSON.stringify(token.slice(0, 64))} was not found.`, null, 404);
  return t;
}

function createTransfer(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const entities = reqObject(o, 'entities');
  const computes = reqArray(entities, 'computes', { min: 1, path: 'entities' });
  const s = ctx.store;
  const inPending = new Set<number>();
  for (const t of T.transfers(s).values()) if (t.status === 'pending' && t.is_sender) t.entities.computes.forEach((id) => inPending.add(id));
  const ids = computes.map((v, i) => {
    const field = `entities.computes.${i}`;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(`${field} must be an integer compute instance id.`, field);
    if (computes.indexOf(v) !== i) fail(`${field}: compute instance ${v} is listed twice.`, field);
    if (getInstance(s, v) === undefined || !canAccess(ctx.principal, 'compute', v, 'read_only')) {
      fail(`${field}: compute instance ${v} does not exist.`, field);
    }
    if (!canAccess(ctx.principal, 'compute', v, 'read_write')) {
      fail(`${field}: you need read_write access to compute instance ${v} to transfer it.`, field, 403);
    }
    if (inPending.has(v)) fail(`${field}: compute instance ${v} is already part of a pending transfer.`, field);
    return v;
  });
  const now = s.now();
  const t: Transfer = {
    token: faulty(s, 'P1.entity-transfer.token.uuid') ? uuid(s).replace(/-/g, '') : uuid(s),
    created: s.nowIso(now),
    updated: s.nowIso(now),
    expiry: s.nowIso(new Date(now.getTime() + (faulty(s, 'P1.entity-transfer.expiry.created-plus-24h') ? 2 : 1) * DAY_MS)),
    entities: { computes: ids },
    is_sender: true,
    status: 'pending',
  };
  addTransfer(s, t);
  return transferView(s, t);
}

function cancelTransfer(ctx: RequestContext) {
  const t = transferOr404(ctx);
  if (!t.is_sender) fail('Only the account that created a transfer can cancel it.');
  if (t.status !== 'pending') fail(`Only a pending transfer can be cancelled; this one is ${t.status}.`);
  t.status = 'cancelled';
  t.updated = ctx.store.nowIso();
  return {};
}

function acceptTransfer(ctx: RequestContext) {
  const t = transferOr404(ctx);
  if (t.is_sender) fail('You cannot accept a transfer your own account created; the receiving account must accept it.');
  if (t.status !== 'pending') fail(`Only a pending transfer can be accepted; this one is ${t.status}.`);
  const s = ctx.store;
  if (faulty(s, 'P1.entity-transfer.accept')) fail('This transfer cannot be accepted now.');
  // Under the variation the transfer shows pending until it completes (what accepted means is not shown).
  const shown = varied(s, 'transfer-accept-pending') ? 'pending' : 'accepted';
  t.status = shown;
  t.updated = s.nowIso();
  const at = new Date(s.now().getTime() + 60_000);
  s.schedule(at, (st) => {
    if (T.transfers(st).get(t.token) !== t || t.status !== shown) return;
    t.status = 'completed';
    t.updated = st.nowIso(at);
  });
  return {};
}

// ---------------------------------------------------------------------------------------------------- events

const KIND_OF_ENTITY: Record<string, EntityKind> = {
  compute: 'compute',
  linode: 'compute',
  domain: 'domain',
  volume: 'volume',
  balancer: 'balancer',
  nodebalancer: 'balancer',
  image: 'image',
  firewall: 'firewall',
  database: 'database',
};

function eventVisible(s: Store, p: Principal | null, e: Event): boolean {
  if (p === null) return false;
  if (!p.restricted || e.username === p.username || faulty(s, 'P1.events.list.by-grants')) return true;
  const kind = KIND_OF_ENTITY[e.entity.type];
  if (kind !== undefined) return canAccess(p, kind, e.entity.id, 'read_only');
  return hasGlobalGrant(p, 'account_access');
}

function visibleEvents(ctx: RequestContext): Event[] {
  const out: Event[] = [];
  const window = !faulty(ctx.store, 'P1.events.window-90-days');
  for (const e of T.events(ctx.store).values()) if ((!window || within90Days(ctx.store, e.created)) && eventVisible(ctx.store, ctx.principal, e)) out.push(e);
  return out.sort((a, b) => b.id - a.id);
}

function eventOr404(ctx: RequestContext): Event {
  const id = intParam(ctx, 'eventId', 'Event');
  const e = T.events(ctx.store).get(String(id));
  if (e === undefined || !within90Days(ctx.store, e.created) || !eventVisible(ctx.store, ctx.principal, e)) fail(`Event ${id} was not found.`, null, 404);
  return e;
}

const eventView = (e: Event) => structuredClone(e);

// ------------------------------------------------------------------------------- maintenance, notifications

function maintenanceView(s: Store, m: Maintenance) {
  const inst = getInstance(s, m.instanceId);
  if (inst === undefined) return undefined;
  return { entity: instanceEntity(inst), reason: m.reason, status: m.status, type: m.type, when: m.when };
}

function visibleMaintenance(ctx: RequestContext) {
  const out = [];
  for (const m of T.maintenance(ctx.store).values()) {
    if (!canAccess(ctx.principal, 'compute', m.instanceId, 'read_only') && !faulty(ctx.store, 'P1.maintenance.list.viewable-entities')) continue;
    const v = maintenanceView(ctx.store, m);
    if (v !== undefined) out.push(v);
  }
  return out;
}

function notifications(ctx: RequestContext) {
  const s = ctx.store;
  const a = account(s);
  const out: unknown[] = [];
  for (const m of visibleMaintenance(ctx)) {
    out.push({
      body: null,
      entity: m.entity,
      label: 'Maintenance Scheduled',
      message: `Compute instance ${m.entity.label} has scheduled ${m.type.replace('_', ' ')} maintenance.`,
      severity: 'major',
      type: 'maintenance',
      until: null,
      when: m.when,
    });
  }
  if (a.balance !== 0) {
    out.push({
      body: null,
      entity: accountEntity(s),
      label: 'Payment due',
      message: `Your account has an outstanding balance of $${a.balance.toFixed(2)}; please make a payment.`,
      severity: 'major',
      type: 'payment_due',
      until: null,
      when: null,
    });
  }
  const seededAt = parseIso(state(s).seededAt).getTime();
  out.push({
    body: 'Network equipment in eu-central is upgraded; brief packet loss is possible.',
    entity: { id: 'eu-central', label: 'eu-central', type: 'region', url: '/v4/regions/eu-central' },
    label: 'Scheduled network upgrade',
    message: 'Scheduled network maintenance in eu-central.',
    severity: 'minor',
    type: 'notice',
    until: s.nowIso(new Date(seededAt + 8 * DAY_MS)),
    when: s.nowIso(new Date(seededAt + 7 * DAY_MS)),
  });
  return out;
}

// ---------------------------------------------------------------------------------------------- OAuth clients

const REDACTED = '<REDACTED>';

function clientView(s: Store, c: OAuthClient, withSecret = false) {
  return { ...c, secret: withSecret ? c.secret : REDACTED, ...(c.thumbnail_url === null && faulty(s, 'P1.oauth-client.thumbnail-url.url-or-null') ? { thumbnail_url: '' } : {}) };
}

function clientOr404(ctx: RequestContext): OAuthClient {
  const id = ctx.params['clientId'] ?? '';
  const c = T.clients(ctx.store).get(id);
  if (c === undefined) fail(`OAuth client ${JSON.stringify(id.slice(0, 64))} was not found.`, null, 404);
  return c;
}

function clientEntity(c: OAuthClient): EventEntity {
  return { id: c.id, label: c.label, type: 'oauth_client', url: `/v4/account/oauth-clients/${c.id}` };
}

function redirectUri(store: Store, o: Record<string, unknown>, required: boolean): string | undefined {
  const v = required ? reqString(o, 'redirect_uri') : optString(o, 'redirect_uri');
  if (v === undefined) return undefined;
  let ok = false;
  try {
    const u = new URL(v);
    ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok && !faulty(store, 'P1.oauth-client.redirect-uri.url')) fail('redirect_uri must be an absolute http or https URL, e.g. https://example.org/oauth/callback.', 'redirect_uri');
  return v;
}

const CLIENT_LABEL = { min: 1, max: 512 } as const;
const clientLabel = (s: Store) => (faulty(s, 'P1.oauth-client.label.max-512') ? { min: 1, max: 1024 } : CLIENT_LABEL);

function newClient(s: Store, label: string, isPublic: boolean, uri: string): OAuthClient {
  const c: OAuthClient = {
    id: s.randomHex(10),
    label,
    public: isPublic,
    redirect_uri: uri,
    secret: s.randomHex(32),
    status: faulty(s, 'P1.oauth-client.status.enum') ? ('enabled' as OAuthClient['status']) : 'active',
    thumbnail_url: null,
  };
  T.clients(s).set(c.id, c);
  return c;
}

function createClient(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const label = reqString(o, 'label', clientLabel(ctx.store));
  const uri = redirectUri(ctx.store, o, true)!;
  const isPublic = optBool(o, 'public') ?? false;
  const c = newClient(ctx.store, label, isPublic, uri);
  emitEvent(ctx.store, ctx.principal, { action: 'oauth_client_create', entity: clientEntity(c) });
  return clientView(ctx.store, c, true);
}

function updateClient(ctx: RequestContext) {
  const c = clientOr404(ctx);
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  const label = optString(o, 'label', clientLabel(ctx.store));
  const isPublic = optBool(o, 'public');
  const uri = redirectUri(ctx.store, o, false);
  if (label !== undefined) c.label = label;
  if (isPublic !== undefined) c.public = isPublic;
  if (uri !== undefined) c.redirect_uri = uri;
  emitEvent(ctx.store, ctx.principal, { action: 'oauth_client_update', entity: clientEntity(c) });
  return clientView(ctx.store, c);
}

function deleteClient(ctx: RequestContext) {
  const c = clientOr404(ctx);
  const s = ctx.store;
  T.clients(s).delete(c.id);
  // Documented: deleting a client invalidates every token issued to it.
  if (!faulty(s, 'P1.oauth-client.delete.invalidates')) for (const [token, p] of s.tokens) if (p.oauthClientId === c.id) s.tokens.delete(token);
  emitEvent(s, ctx.principal, { action: 'oauth_client_delete', entity: clientEntity(c) });
  return {};
}

// ------------------------------------------------------------------------------------------------------- seed

function seed(s: Store): void {
  const now = s.now();
  T.state(s).set('1', { cardFails: false, cancelled: false, seededAt: s.nowIso(now) });
  T.account(s).set('1', {
    active_promotions: [
      {
        credit_monthly_cap: '10.00',
        credit_remaining: '50.00',
        description: 'Receive up to $10 off your services every month for 6 months.',
        expire_dt: ahead(s, 150 * DAY_MS),
        image_url: 'https://www.example.com/promotions/welcome.png',
        service_type: 'all',
        summary: '$10 off your services for 6 months',
        this_month_credit_remaining: '10.00',
      },
    ],
    active_since: ago(s, 400 * DAY_MS),
    address_1: '123 Main Street',
    address_2: 'Suite 101',
    balance: 25.5,
    balance_uninvoiced: 14.75,
    capabilities: ['Compute Instances', 'Block Storage', 'Cloud Firewall', 'Managed Databases', 'NodeBalancers', 'Vlans'],
    city: 'Philadelphia',
    company: 'Example Hosting Co',
    country: 'US',
    credit_card: { expiry: '11/2030', last_four: 1111 },
    email: 'jane.doe@example.com',
    euuid: uuid(s),
    first_name: 'Jane',
    last_name: 'Doe',
    phone: '215-555-1212',
    state: 'PA',
    tax_id: 'ATU99999999',
    zip: '19102',
  });

  // Invoices with items: the last three months.
  for (let m = 3; m >= 1; m--) {
    const id = s.nextId('invoice');
    const date = ago(s, m * 30 * DAY_MS);
    const from = ago(s, (m * 30 + 30) * DAY_MS);
    const items: InvoiceItem[] = [
      { amount: 10, from, label: 'Nanode 1GB - web-1', quantity: 720, tax: 0.8, to: date, total: 10.8, type: 'hourly', unit_price: 0.0075 },
      { amount: 20 * m, from, label: 'Linode 4GB - db-1', quantity: 720, tax: 1.6 * m, to: date, total: 21.6 * m, type: 'hourly', unit_price: 0.03 },
      { amount: 2, from, label: 'Backup Service - web-1', quantity: 1, tax: 0.16, to: date, total: 2.16, type: 'misc', unit_price: 2 },
    ];
    const subtotal = items.reduce((n, i) => n + i.amount, 0);
    const tax = items.reduce((n, i) => n + i.tax, 0);
    T.invoices(s).set(String(id), { id, date, label: 'Invoice', subtotal: round2(subtotal), tax: round2(tax), total: round2(subtotal + tax) });
    T.items(s).set(String(id), items.map((i) => ({ ...i, tax: round2(i.tax), total: round2(i.total) })));
  }

  // Logins: three recent, one older than the 90 days shown.
  const logins: Omit<Login, 'id'>[] = [
    { datetime: ago(s, 120 * DAY_MS), ip: '198.51.100.7', restricted: false, username: s.defaultUser },
    { datetime: ago(s, 30 * DAY_MS), ip: '192.0.2.10', restricted: false, username: s.defaultUser },
    { datetime: ago(s, 5 * DAY_MS), ip: '203.0.113.25', restricted: true, username: 'restricted-user' },
    { datetime: ago(s, 3_600_000), ip: '2001:db8::25', restricted: false, username: s.defaultUser },
  ];
  for (const l of logins) {
    const id = s.nextId('login');
    T.logins(s).set(String(id), { id, ...l });
  }

  newClient(s, 'Example dashboard', false, 'https://dashboard.example.org/oauth/callback');

  // Incoming transfers (from another account) and a completed outgoing one.
  for (const computes of [[90001, 90002], [90003], [90004], [90005]]) {
    addTransfer(s, {
      token: uuid(s),
      created: s.nowIso(now),
      updated: s.nowIso(now),
      expiry: ahead(s, DAY_MS),
      entities: { computes },
      is_sender: false,
      status: 'pending',
    });
  }
  addTransfer(s, {
    token: uuid(s),
    created: ago(s, 20 * DAY_MS),
    updated: ago(s, 20 * DAY_MS - 3_600_000),
    expiry: ago(s, 19 * DAY_MS),
    entities: { computes: [90100] },
    is_sender: true,
    status: 'completed',
  });

  // A few events; the first is older than the 90 days listed.
  const seeded: [string, number][] = [
    ['account_update', 100 * DAY_MS],
    ['payment_submitted', 30 * DAY_MS],
    ['oauth_client_create', 2 * DAY_MS],
    ['account_settings_update', 3_600_000],
  ];
  for (const [action, age] of seeded) {
    const e = emitEvent(s, null, { action, entity: accountEntity(s) });
    e.created = ago(s, age);
  }

  // Maintenance for the first two seeded instances: compute seeds after this area, so this runs before the first
  // request (tasks due now run before every handler).
  s.schedule(now, seedMaintenance);
}

function seedMaintenance(s: Store): void {
  const seededAt = parseIso(state(s).seededAt).getTime();
  const plans = [
    { type: 'reboot', status: 'pending', reason: 'Host security updates require a reboot of this instance.', days: 5 },
    { type: 'live_migration', status: 'scheduled', reason: 'The host of this instance is retired; it is migrated live.', days: 9 },
  ];
  const ids = listInstances(s)
    .map((inst) => inst.id)
    .sort((a, b) => a - b)
    .slice(0, plans.length);
  ids.forEach((id, i) => {
    const p = plans[i]!;
    T.maintenance(s).set(String(id), { instanceId: id, reason: p.reason, status: p.status, type: p.type, when: s.nowIso(new Date(seededAt + p.days * DAY_MS)) });
  });
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

// ----------------------------------------------------------------------------------------------------- routes

const AR = 'account:read_only';
const AW = 'account:read_write';
const ER = 'events:read_only';
const r = (method: Route['method'], path: string, scope: string, handler: Route['handler'], unrestrictedOnly = false): Route => ({
  method,
  path,
  scopes: [scope],
  auth: 'token',
  ...(unrestrictedOnly ? { unrestrictedOnly } : {}),
  handler,
});

export const area: Area = {
  name: 'account',
  seed,
  routes: [
    r('GET', '/v4/account', AR, (ctx) => accountView(ctx.store)),
    r('PUT', '/v4/account', AW, updateAccount),
    r('POST', '/v4/account/cancel', AW, cancelAccount, true),
    r('POST', '/v4/account/credit-card', AW, addCreditCard),
    r('GET', '/v4/account/entity-transfers', AR, (ctx) => paginate(ctx, [...T.transfers(ctx.store).values()].map((t) => transferView(ctx.store, t)))),
    r('POST', '/v4/account/entity-transfers', AW, createTransfer),
    r('GET', '/v4/account/entity-transfers/{token}', AR, (ctx) => {
      const t = transferOr404(ctx);
      return transferView(ctx.store, faulty(ctx.store, 'P1.entity-transfer.token.identifies') ? [...T.transfers(ctx.store).values()].at(-1)! : t);
    }),
    r('DELETE', '/v4/account/entity-transfers/{token}', AW, cancelTransfer),
    r('POST', '/v4/account/entity-transfers/{token}/accept', AW, acceptTransfer),
    r('GET', '/v4/account/events', ER, (ctx) => paginate(ctx, visibleEvents(ctx).map(eventView))),
    r('GET', '/v4/account/events/{eventId}', ER, (ctx) => eventView(eventOr404(ctx))),
    r('POST', '/v4/account/events/{eventId}/read', ER, (ctx) => {
      const one = eventOr404(ctx);
      one.read = true;
      if (faulty(ctx.store, 'P1.events.read.marks-one')) for (const e of T.events(ctx.store).values()) if (e.id <= one.id) e.read = true;
      return {};
    }),
    r('POST', '/v4/account/events/{eventId}/seen', ER, (ctx) => {
      const upTo = eventOr404(ctx);
      if (faulty(ctx.store, 'P1.events.seen.marks-up-to-id')) upTo.seen = true;
      else for (const e of T.events(ctx.store).values()) if (e.id <= upTo.id) e.seen = true;
      return {};
    }),
    r('GET', '/v4/account/invoices', AR, (ctx) => paginate(ctx, [...T.invoices(ctx.store).values()].map((i) => ({ ...i })))),
    r('GET', '/v4/account/invoices/{invoiceId}', AR, (ctx) => ({ ...invoiceOr404(ctx) })),
    r('GET', '/v4/account/invoices/{invoiceId}/items', AR, (ctx) => {
      const inv = invoiceOr404(ctx);
      return paginate(ctx, (T.items(ctx.store).get(String(inv.id)) ?? []).map((i) => ({ ...i })));
    }),
    r(
      'GET',
      '/v4/account/logins',
      AR,
      (ctx) => paginate(ctx, [...T.logins(ctx.store).values()].filter((l) => within90Days(ctx.store, l.datetime) || faulty(ctx.store, 'P1.logins.window-90-days')).map((l) => ({ ...l }))),
      true,
    ),
    r(
      'GET',
      '/v4/account/logins/{loginId}',
      AR,
      (ctx) => {
        const id = intParam(ctx, 'loginId', 'Login');
        const l = T.logins(ctx.store).get(String(id));
        if (l === undefined || (!within90Days(ctx.store, l.datetime) && !faulty(ctx.store, 'P1.logins.window-90-days'))) fail(`Login ${id} was not found.`, null, 404);
        return { ...l, ...(faulty(ctx.store, 'P1.login.ip.ip-address') ? { ip: `${l.ip}:443` } : {}) };
      },
      true,
    ),
    r('GET', '/v4beta/account/maintenance', 'maintenance:read_only', (ctx) => paginate(ctx, visibleMaintenance(ctx))),
    r('GET', '/v4/account/notifications', AR, (ctx) => paginate(ctx, notifications(ctx))),
    r('GET', '/v4/account/oauth-clients', AR, (ctx) => paginate(ctx, [...T.clients(ctx.store).values()].map((c) => clientView(ctx.store, c)))),
    r('POST', '/v4/account/oauth-clients', AW, createClient),
    r('GET', '/v4/account/oauth-clients/{clientId}', AR, (ctx) => clientView(ctx.store, clientOr404(ctx))),
    r('PUT', '/v4/account/oauth-clients/{clientId}', AW, updateClient),
    r('DELETE', '/v4/account/oauth-clients/{clientId}', AW, deleteClient),
  ],
};

function invoiceOr404(ctx: RequestContext): Invoice {
  const id = intParam(ctx, 'invoiceId', 'Invoice');
  const inv = T.invoices(ctx.store).get(String(id));
  if (inv === undefined) fail(`Invoice ${id} was not found.`, null, 404);
  return inv;
}
