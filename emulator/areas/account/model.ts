// The account area's stored objects (account, transfers, invoices, logins, maintenance, OAuth clients) and the
// helpers its other files share.
import { parseIso, type Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { fail } from '../../core/validate.js';
import { EVENTS_TABLE, type Event, type EventEntity } from '../../core/events.js';
import { intParam } from '../../core/routes.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

export const DAY_MS = 86_400_000;
const RETENTION_MS = 90 * DAY_MS;
export const DECLINING_TEST_CARD = '4000000000000002';

/**
 * The card numbers a card processor's test mode knows (variation card-numbers-processor-checked): the networks'
 * published test numbers; any other is declined when the card is added. Written apart from the suite's own list of
 * them (arbitraries/part1.ts): the two meet only over HTTP.
 */
export const PROCESSOR_TEST_CARDS: ReadonlySet<string> = new Set([
  DECLINING_TEST_CARD,
  '4111111111111111',
  '4012888888881881',
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '5105105105105100',
  '5200828282828210',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '30569309025904',
  '38520000023237',
  '36227206271667',
  '3530111333300000',
  '3566002020360505',
]);

export interface Promotion {
  credit_monthly_cap: string;
  credit_remaining: string;
  description: string;
  expire_dt: string;
  image_url: string;
  service_type: string;
  summary: string;
  this_month_credit_remaining: string;
}

export interface Account {
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
  /** Members null while no card is on file (`account-without-card`). */
  credit_card: { expiry: string | null; last_four: number | null };
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

export interface Transfer {
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

export interface InvoiceItem {
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

export interface Login {
  id: number;
  datetime: string;
  ip: string;
  restricted: boolean;
  username: string;
}

export interface Maintenance {
  instanceId: number;
  reason: string;
  status: string;
  type: string;
  when: string;
  /** The instance as an entity when the record was made: shown once the instance is gone (`maintenance-outlives-instance`). */
  entity?: EventEntity;
  /** The instance is gone: an instance given its id since (ids-reused) is another one. */
  gone?: true;
}

export interface OAuthClient {
  id: string;
  label: string;
  public: boolean;
  redirect_uri: string;
  secret: string;
  status: 'active' | 'disabled' | 'suspended';
  thumbnail_url: string | null;
}

export const T = {
  account: (s: Store) => s.table<Account>('account.account'),
  state: (s: Store) => s.table<AccountState>('account.state'),
  transfers: (s: Store) => s.table<Transfer>('account.transfers'),
  /** The incoming transfers accepted (by token): under `transfer-accept-once` one may still show pending. */
  accepted: (s: Store) => s.table<true>('account.transfers_accepted'),
  invoices: (s: Store) => s.table<Invoice>('account.invoices'),
  items: (s: Store) => s.table<InvoiceItem[]>('account.invoice_items'),
  logins: (s: Store) => s.table<Login>('account.logins'),
  maintenance: (s: Store) => s.table<Maintenance>('account.maintenance'),
  clients: (s: Store) => s.table<OAuthClient>('account.oauth_clients'),
  events: (s: Store) => s.table<Event>(EVENTS_TABLE),
};

export const account = (s: Store): Account => T.account(s).get('1')!;
export const state = (s: Store): AccountState => T.state(s).get('1')!;
/** The last 00:00 UTC at or before `ms` (epoch milliseconds). */
export const lastMidnightOf = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
export const ago = (s: Store, ms: number): string => s.nowIso(new Date(s.now().getTime() - ms));
export const ahead = (s: Store, ms: number): string => s.nowIso(new Date(s.now().getTime() + ms));
/**
 * The earliest time (epoch ms) within the 90 days before the store's clock as it reads now; under
 * `windowed-items-swept-daily`, within the 90 days before the last 00:00 UTC (items past 90 days are removed once a
 * day, then: until that sweep they still show).
 */
export function oldestShownOf(s: Store): number {
  const now = s.now().getTime();
  return (varied(s, 'windowed-items-swept-daily') ? lastMidnightOf(now) : now) - RETENTION_MS;
}

/** Whether a time (ISO, no zone) is within the 90 days shown (`oldestShownOf`). */
export function within90DaysOf(s: Store): (iso: string) => boolean {
  const oldest = oldestShownOf(s);
  return (iso) => parseIso(iso).getTime() >= oldest;
}

export function uuid(s: Store): string {
  const h = s.randomHex(16).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16]!, 16) & 3]!;
  const x = h.join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The account object as responses show it. */
export function accountView(s: Store): Account {
  const a = structuredClone(account(s));
  if (faulty(s, 'P1.conventions.date-time')) a.active_since = a.active_since.slice(0, 10);
  if (faulty(s, 'P1.account.credit-card.last-four.integer')) a.credit_card.last_four = String(a.credit_card.last_four).padStart(4, '0') as unknown as number;
  // Each promotion shows the service's own id of it under `promotion-members-strict`.
  if (varied(s, 'promotion-members-strict')) a.active_promotions = a.active_promotions.map((p, i) => ({ promotion_id: `promo-${i + 1}`, ...p }));
  return a;
}

export function accountEntity(s: Store): EventEntity {
  const a = account(s);
  return { id: a.euuid, label: a.company || null, type: 'account', url: '/v4/account' };
}

export function invoiceOr404(ctx: RequestContext): Invoice {
  const id = intParam(ctx, 'invoiceId', 'Invoice');
  const inv = T.invoices(ctx.store).get(String(id));
  if (inv === undefined) fail(`Invoice ${id} was not found.`, null, 404);
  return inv;
}
