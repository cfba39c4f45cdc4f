// Document 3, "Monitoring": monitoring clients, the account's monitoring plan and the public subscriptions.
//
// Choices where the document is silent:
// - A client is `{id, label, install_code, api_key, created, updated}`; `label` is optional on create (default
//   `client<id>`), 3..32 chars, unique on the account (case-insensitive). PUT changes the label only; other members
//   are ignored.
// - A restricted user needs the global grant add_monitor to create a client (403 otherwise).
// - A subscription is `{id, label, clients_included, price: {hourly, monthly}}`; the plan update requires the
//   `monitor_subscription` member (null = the free plan).
// - Events: monitorclient_create / monitorclient_update / monitorclient_delete.
import { emitEvent } from '../core/events.js';
import { paginate } from '../core/pagination.js';
import { hasGlobalGrant } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { Area, Principal, RequestContext, Route } from '../core/types.js';
import { asObject, fail, optString, reqString } from '../core/validate.js';
import { route } from '../core/routes.js';
import { deleteNowOrLater } from '../core/deletions.js';
import { faulty } from '../faults/index.js';
import { conflictStatus } from '../variations/responses.js';
import { varied } from '../variations/index.js';

interface MonitorClient {
  id: number;
  label: string;
  install_code: string;
  api_key: string;
  created: string;
  updated: string;
}

interface MonitorSubscription {
  id: string;
  label: string;
  clients_included: number;
  price: { hourly: number; monthly: number };
}

const SUBSCRIPTIONS: readonly MonitorSubscription[] = [
  { id: 'monitor-3', label: 'Monitoring Pro 3 pack', clients_included: 3, price: { hourly: 0.03, monthly: 20 } },
  { id: 'monitor-10', label: 'Monitoring Pro 10 pack', clients_included: 10, price: { hourly: 0.06, monthly: 40 } },
  { id: 'monitor-40', label: 'Monitoring Pro 40 pack', clients_included: 40, price: { hourly: 0.15, monthly: 100 } },
  { id: 'monitor-100', label: 'Monitoring Pro 100 pack', clients_included: 100, price: { hourly: 0.3, monthly: 200 } },
];
const SUBSCRIPTION_IDS = SUBSCRIPTIONS.map((s) => s.id);

const CLIENTS = 'monitor_clients';
const PLAN = 'monitor_plan';

function clients(store: Store): Map<string, MonitorClient> {
  return store.table<MonitorClient>(CLIENTS);
}

function clientOr404(ctx: RequestContext): MonitorClient {
  const raw = ctx.params['clientId']!;
  const c = /^\d{1,15}$/.test(raw) ? clients(ctx.store).get(String(Number(raw))) : undefined;
  if (!c) fail(`Monitoring client ${raw} not found.`, null, 404);
  return c;
}

function readLabel(ctx: RequestContext, o: Record<string, unknown>, selfId?: number): string | undefined {
  const label = optString(o, 'label', {
    min: faulty(ctx.store, 'P3.monitor-client.label.min-3') ? 0 : 3,
    max: faulty(ctx.store, 'P3.monitor-client.label.max-32') ? 64 : 32,
  });
  if (label === undefined) return undefined;
  const lower = label.toLowerCase();
  for (const c of clients(ctx.store).values()) {
    if (c.id !== selfId && c.label.toLowerCase() === lower && !faulty(ctx.store, 'P3.monitor-client.label.unique'))
      fail(`A monitoring client labeled ${label} already exists.`, 'label', conflictStatus(ctx.store));
  }
  return label;
}

function entityOf(c: MonitorClient) {
  return { id: c.id, label: c.label, type: 'monitor_client', url: `/v4/monitor/clients/${c.id}` };
}

/** An install code looks like a GUID; formed from the seeded random source. */
function guid(store: Store): string {
  const h = store.randomHex(16).toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The plan view needs account_access (read_only or read_write), monitor_subscription or add_monitor. */
function canViewPlan(store: Store, p: Principal | null): boolean {
  const grants = faulty(store, 'P3.monitor-plan.view.grants')
    ? ['account_access', 'monitor_subscription']
    : ['account_access', 'monitor_subscription', 'add_monitor'];
  return grants.some((g) => hasGlobalGrant(p, g));
}

function planBody(store: Store): Record<string, unknown> {
  const id = store.table<string>(PLAN).get('subscription');
  const sub = SUBSCRIPTIONS.find((s) => s.id === id);
  if (sub) return shownSubscription(store, sub);
  return faulty(store, 'P3.monitor-plan.free-is-empty') ? { id: 'free', label: 'Free', clients_included: 0 } : {};
}

/** A subscription as shown: with its `id`, or under the variation named by `monitor_subscription` instead. */
function shownSubscription(store: Store, sub: MonitorSubscription): Record<string, unknown> {
  if (!varied(store, 'subscription-named-by-plan')) return { ...structuredClone(sub) };
  const { id, ...rest } = structuredClone(sub);
  return { monitor_subscription: id, ...rest };
}

const R = ['monitor:read_only'];
const W = ['monitor:read_write'];

const routes: Route[] = [
  route('GET', '/v4/monitor/clients', R, (ctx) => paginate(ctx, [...clients(ctx.store).values()])),
  route('POST', '/v4/monitor/clients', W, (ctx) => {
    if (!hasGlobalGrant(ctx.principal, 'add_monitor')) fail('Creating a monitoring client needs the global grant add_monitor.', null, 403);
    const o = asObject(ctx.body ?? {});
    const label = readLabel(ctx, o);
    const id = ctx.store.newId('monitor_client', (n) => clients(ctx.store).has(String(n)));
    const now = ctx.store.nowIso();
    const c: MonitorClient = {
      id,
      label: label ?? uniqueDefaultLabel(ctx.store, id),
      install_code: guid(ctx.store),
      api_key: guid(ctx.store),
      created: now,
      updated: now,
    };
    clients(ctx.store).set(String(id), c);
    emitEvent(ctx.store, ctx.principal, { action: 'monitorclient_create', entity: entityOf(c) });
    if (faulty(ctx.store, 'P3.monitor-client.create.returns-install-code')) {
      const { install_code: _code, ...shown } = c;
      return shown;
    }
    return c;
  }),
  route('GET', '/v4/monitor/clients/{clientId}', R, (ctx) => clientOr404(ctx)),
  route('PUT', '/v4/monitor/clients/{clientId}', W, (ctx) => {
    const c = clientOr404(ctx);
    const label = readLabel(ctx, asObject(ctx.body ?? {}), c.id);
    if (label !== undefined && label !== c.label && !faulty(ctx.store, 'P3.monitor-client.update.reflected')) {
      c.label = label;
      c.updated = ctx.store.nowIso();
      emitEvent(ctx.store, ctx.principal, { action: 'monitorclient_update', entity: entityOf(c) });
    }
    return c;
  }),
  route('DELETE', '/v4/monitor/clients/{clientId}', W, (ctx) => {
    const c = clientOr404(ctx);
    // Gone at once, or (variation monitor-client-delete-runs-a-while) a simulated minute later.
    const remove = (store: Store) => {
      if (!faulty(store, 'P3.monitor-client.delete.gone') && clients(store).get(String(c.id)) === c) clients(store).delete(String(c.id));
    };
    if (!deleteNowOrLater(ctx.store, 'monitor-client-delete-runs-a-while', String(c.id), remove)) return {};
    emitEvent(ctx.store, ctx.principal, { action: 'monitorclient_delete', entity: entityOf(c) });
    return {};
  }),
  route('GET', '/v4/monitor/plan', R, (ctx) => {
    if (!canViewPlan(ctx.store, ctx.principal)) {
      fail('Viewing the monitoring plan needs the global grant account_access, monitor_subscription or add_monitor.', null, 403);
    }
    const set = ctx.store.table<string>(PLAN).get('subscription');
    const other = SUBSCRIPTIONS.find((s) => set !== undefined && s.id !== set);
    if (other && faulty(ctx.store, 'P3.monitor-plan.subscription-or-empty~view-other-plan')) return shownSubscription(ctx.store, other);
    return planBody(ctx.store);
  }),
  route('PUT', '/v4/monitor/plan', W, (ctx) => {
    const byAccountAccess = faulty(ctx.store, 'P3.monitor-plan.update.grants') && hasGlobalGrant(ctx.principal, 'account_access');
    const backToFree = faulty(ctx.store, 'P3.monitor-plan.update.grants~back-to-free') && asObject(ctx.body ?? {})['monitor_subscription'] === null;
    if (!hasGlobalGrant(ctx.principal, 'monitor_subscription') && !byAccountAccess && !backToFree) {
      const named = asObject(ctx.body ?? {})['monitor_subscription'];
      if (faulty(ctx.store, 'P3.monitor-plan.update.grants~refused-still-changes') && SUBSCRIPTION_IDS.some((id) => id === named))
        ctx.store.table<string>(PLAN).set('subscription', named as string);
      fail('Changing the monitoring plan needs the global grant monitor_subscription.', null, 403);
    }
    const o = asObject(ctx.body ?? {});
    const id = reqString(
      o,
      'monitor_subscription',
      faulty(ctx.store, 'P3.monitor-plan.subscription.enum') ? { nullable: true } : { enum: SUBSCRIPTION_IDS, nullable: true },
    );
    if (id === null && !faulty(ctx.store, 'P3.monitor-plan.update.null-means-free')) ctx.store.table<string>(PLAN).delete('subscription');
    else if (id !== null) ctx.store.table<string>(PLAN).set('subscription', id);
    return faulty(ctx.store, 'P3.monitor-plan.update.returns-subscription') ? {} : planBody(ctx.store);
  }),
  route(
    'GET',
    '/v4/monitor/subscriptions',
    [],
    (ctx) =>
      paginate(
        ctx,
        SUBSCRIPTIONS.map((s) => shownSubscription(ctx.store, s)),
      ),
    'none',
  ),
  route(
    'GET',
    '/v4/monitor/subscriptions/{subscriptionId}',
    [],
    (ctx) => {
      const sub = SUBSCRIPTIONS.find((s) => s.id === ctx.params['subscriptionId']);
      if (!sub) fail(`Monitoring subscription ${ctx.params['subscriptionId']} not found.`, null, 404);
      return shownSubscription(ctx.store, sub);
    },
    'none',
  ),
];

function uniqueDefaultLabel(store: Store, id: number): string {
  let label = `client${id}`;
  const taken = new Set([...clients(store).values()].map((c) => c.label.toLowerCase()));
  for (let n = 2; taken.has(label.toLowerCase()); n++) label = `client${id}-${n}`;
  return label;
}

export const area: Area = { name: 'monitor', routes };
