// The account area's seed: the account, invoices, logins, an OAuth client, transfers, events and maintenance.
import { parseIso, type Store } from '../../core/store.js';
import { emitEvent } from '../../core/events.js';
import { instanceEntity, listInstances } from '../../core/entities.js';
import { accountEntity, ago, ahead, DAY_MS, lastMidnightOf, state, T, uuid, type InvoiceItem, type Login } from './model.js';
import { newClient } from './oauth-clients.js';
import { addTransfer, expiryOf, newToken } from './transfers.js';
import { scheduleMonthlyInvoices } from './invoicing.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

export function seed(s: Store): void {
  const now = s.now();
  // An account never given an address shows its address members as "" (`account-without-address`).
  const address = (value: string) => (varied(s, 'account-without-address') ? '' : value);
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
    address_1: address('123 Main Street'),
    address_2: address('Suite 101'),
    balance: 25.5,
    balance_uninvoiced: 14.75,
    capabilities: ['Compute Instances', 'Block Storage', 'Cloud Firewall', 'Managed Databases', 'NodeBalancers', 'Vlans'],
    city: address('Philadelphia'),
    company: address('Example Hosting Co'),
    country: address('US'),
    credit_card: varied(s, 'account-without-card') ? { expiry: null, last_four: null } : { expiry: '11/2030', last_four: 1111 },
    email: 'jane.doe@example.com',
    euuid: faulty(s, 'P1.account.euuid.uuid') ? uuid(s).replace(/-/g, '') : uuid(s),
    first_name: 'Jane',
    last_name: 'Doe',
    phone: address('215-555-1212'),
    // (country US but no state under `account-country-without-state`)
    state: varied(s, 'account-country-without-state') ? '' : address('PA'),
    tax_id: address('ATU99999999'),
    zip: address('19102'),
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
    T.items(s).set(
      String(id),
      items.map((i) => ({ ...i, tax: round2(i.tax), total: round2(i.total) })),
    );
  }

  // Logins: three recent, one older than the 90 days shown; under `windowed-items-at-edge` one more, first, an hour
  // short of the window's edge.
  const EDGE_MS = 90 * DAY_MS - 3_600_000;
  const edge = varied(s, 'windowed-items-at-edge');
  const logins: Omit<Login, 'id'>[] = [
    ...(edge ? [{ datetime: ago(s, EDGE_MS), ip: '198.51.100.90', restricted: false, username: s.defaultUser }] : []),
    { datetime: ago(s, 120 * DAY_MS), ip: '198.51.100.7', restricted: false, username: s.defaultUser },
    { datetime: ago(s, 30 * DAY_MS), ip: '192.0.2.10', restricted: false, username: s.defaultUser },
    { datetime: ago(s, 5 * DAY_MS), ip: '203.0.113.25', restricted: true, username: 'restricted-user' },
    { datetime: ago(s, 3_600_000), ip: '2001:db8::25', restricted: false, username: s.defaultUser },
  ];
  // Under `windowed-items-swept-daily` (items past 90 days removed at each 00:00 UTC) one more, after the oldest, a
  // minute after each of the SWEPT_DAILY_DAYS midnights from 90 days before the last one: whenever the clock has moved
  // past 00:01 UTC, and for that many days of clock moves, the oldest still listed is past 90 days.
  logins.splice(1, 0, ...sweptDailyTimes(s).map((datetime) => ({ datetime, ip: '198.51.100.91', restricted: false, username: s.defaultUser })));
  for (const l of logins) {
    const id = s.nextId('login');
    // (an IPv6 address with its port is bracketed: 2001:db8::25:443 would be another address)
    const ip = !faulty(s, 'P1.login.ip.ip-address') ? l.ip : l.ip.includes(':') ? `[${l.ip}]:443` : `${l.ip}:443`;
    T.logins(s).set(String(id), { id, ...l, ip });
  }

  newClient(s, 'Example dashboard', false, 'https://dashboard.example.org/oauth/callback');

  // Incoming transfers (from another account) and a completed outgoing one; under `transfer-accept-once` made a
  // minute apart, the last one made three minutes ago (so the last expires last).
  const apart = varied(s, 'transfer-accept-once') ? 60_000 : 0;
  for (const [i, computes] of [[90001, 90002], [90003], [90004], [90005]].entries()) {
    const made = now.getTime() - (3 - i) * apart;
    addTransfer(s, {
      token: newToken(s),
      created: s.nowIso(new Date(made)),
      updated: s.nowIso(new Date(made)),
      expiry: expiryOf(s, made),
      entities: { computes },
      is_sender: false,
      status: 'pending',
    });
  }
  const sent = now.getTime() - 20 * DAY_MS;
  addTransfer(s, {
    token: newToken(s),
    created: s.nowIso(new Date(sent)),
    updated: s.nowIso(new Date(sent + 3_600_000)),
    expiry: expiryOf(s, sent),
    entities: { computes: [90100] },
    is_sender: true,
    status: 'completed',
  });

  // A few events; the first is older than the 90 days listed (and, under `windowed-items-swept-daily`, one after it at
  // each of the logins' times).
  const seeded: [string, number][] = [
    ['account_update', 100 * DAY_MS],
    ...sweptDailyTimes(s).map((at): [string, number] => ['account_update', now.getTime() - parseIso(at).getTime()]),
    ...(edge ? [['account_update', EDGE_MS] as [string, number]] : []),
    ['payment_submitted', 30 * DAY_MS],
    ['oauth_client_create', 2 * DAY_MS],
    ['account_settings_update', 3_600_000],
  ];
  for (const [action, age] of seeded) {
    const e = emitEvent(s, null, { action, entity: accountEntity(s) });
    e.created = ago(s, age);
  }

  if (varied(s, 'long-history')) seedLongHistory(s);
  if (varied(s, 'invoices-monthly')) scheduleMonthlyInvoices(s);

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
  // Under `maintenance-outlives-instance`, first, the completed reboot of an instance deleted since (an instance id
  // taken from the ones instances get, so none ever has it), 10 days old.
  if (varied(s, 'maintenance-outlives-instance')) {
    const id = s.nextId('compute');
    T.maintenance(s).set(String(id), {
      instanceId: id,
      reason: 'Host security updates required a reboot of this instance.',
      status: 'completed',
      type: 'reboot',
      when: s.nowIso(new Date(seededAt - 10 * DAY_MS)),
      entity: { id, label: `retired-${id}`, type: 'compute', url: `/v4/compute/instances/${id}` },
      gone: true,
    });
  }
  const instances = listInstances(s)
    .sort((a, b) => a.id - b.id)
    .slice(0, plans.length);
  instances.forEach((inst, i) => {
    const p = plans[i]!;
    T.maintenance(s).set(String(inst.id), {
      instanceId: inst.id,
      reason: p.reason,
      status: p.status,
      type: p.type,
      when: s.nowIso(new Date(seededAt + p.days * DAY_MS)),
      entity: instanceEntity(inst),
    });
  });
}

/** How many cancelled transfers, and how many events, an account with a long history starts with (`long-history`). */
const LONG_HISTORY_ITEMS = 5200;
const LONG_HISTORY_DAYS = 60;

/**
 * Under `long-history`: LONG_HISTORY_ITEMS outgoing transfers, each cancelled an hour after it was made, and as many
 * events, spread over the last 60 days (well within the 90 days while other files let the clock run days), oldest
 * first: 53 pages of 100 each, more than a walk of 50 pages reads. The transfers are written to the table without an
 * expiry task (cancelled, they never go stale), of instances ids this account has none of.
 */
function seedLongHistory(s: Store): void {
  const step = (LONG_HISTORY_DAYS * DAY_MS) / LONG_HISTORY_ITEMS;
  for (let i = 0; i < LONG_HISTORY_ITEMS; i++) {
    const made = s.now().getTime() - (LONG_HISTORY_DAYS * DAY_MS - i * step);
    const token = newToken(s);
    T.transfers(s).set(token, {
      token,
      created: s.nowIso(new Date(made)),
      updated: s.nowIso(new Date(made + 3_600_000)),
      expiry: expiryOf(s, made),
      entities: { computes: [80_000 + i] },
      is_sender: true,
      status: 'cancelled',
    });
  }
  for (let i = 0; i < LONG_HISTORY_ITEMS; i++) {
    const e = emitEvent(s, null, { action: i % 2 ? 'account_settings_update' : 'account_update', entity: accountEntity(s) });
    e.created = ago(s, LONG_HISTORY_DAYS * DAY_MS - i * step);
  }
}

/** For how many days of clock moves the account keeps an item past 90 days and not yet swept (`windowed-items-swept-daily`). */
const SWEPT_DAILY_DAYS = 14;

/**
 * Under `windowed-items-swept-daily`, a minute past each of the SWEPT_DAILY_DAYS midnights (00:00 UTC) from 90 days
 * before the last one, oldest first; none otherwise.
 */
function sweptDailyTimes(s: Store): string[] {
  if (!varied(s, 'windowed-items-swept-daily')) return [];
  const first = lastMidnightOf(s.now().getTime()) - 90 * DAY_MS + 60_000;
  return Array.from({ length: SWEPT_DAILY_DAYS }, (_, day) => s.nowIso(new Date(first + day * DAY_MS)));
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
