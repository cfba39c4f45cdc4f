// Document 3, "Monitoring": client labels unique, deleted clients gone, the public subscriptions, the account's
// plan (`{}` on the free plan, null returns to it, the update returns the subscription) and the grants the plan
// view and update need. The plan is account-wide state: every check that changes it returns it to the free plan.
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { isEmptyObject } from '../../harness/error-bodies.js';
import { deleteSeen, readAfterWrite, untilGone, untilShortlyDone } from '../../harness/consistency.js';
import { showsMade } from '../../harness/resources.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { integerId, sameId } from '../../harness/ids.js';
import { MONITOR_PLAN_LOCK } from '../generic/valid-requests.js';

const fx = useFixtures('part3-monitoring');

type Json = Record<string, unknown>;

const PLANS = ['monitor-3', 'monitor-10', 'monitor-40', 'monitor-100'];
const PLAN = '/v4/monitor/plan';

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
const show = (value: unknown) => JSON.stringify(value)?.slice(0, 200) ?? 'no body';
/**
 * Whether a subscription object is the plan `plan`: its `id`, or where it shows none (that it carries one is inferred,
 * a SHOULD of its schema), a member holding the plan's ID.
 */
const namesPlan = (subscription: unknown, plan: string) => {
  const members = subscription && typeof subscription === 'object' ? (subscription as Json) : {};
  return 'id' in members ? members.id === plan : Object.values(members).includes(plan);
};

/**
 * A new monitoring client (its id the create response's where it shows the label sent, else found by label), tracked
 * for deletion.
 */
async function newClient(c: Check): Promise<{ id: number; label: string }> {
  const label = fx.label('mon', 32);
  const exchange = await c.post('/v4/monitor/clients', { label });
  if (!ok(exchange)) throw new SetupError(`could not create a monitoring client: HTTP ${exchange.status}`);
  const id =
    (bodyOf(exchange).label === label ? integerId(bodyOf(exchange).id) : undefined) ??
    integerId((await fx.find(c, '/v4/monitor/clients', (item) => item.label === label))?.id);
  if (id === undefined) throw new SetupError('created a monitoring client but cannot find its id');
  fx.track('monitor-client', id, label);
  return { id, label };
}

/** Returns the account to the free plan (full-access token). */
async function freePlan(c: Check): Promise<Exchange> {
  const exchange = await c.put(PLAN, { monitor_subscription: null });
  if (!ok(exchange)) throw new SetupError(`could not return the account to the free plan: HTTP ${exchange.status}`);
  return exchange;
}

describe('Monitoring clients', () => {
  check('P3.monitor-client.label.unique', 'a second client cannot take a label in use, by create or by update', async (c) => {
    const [first, second] = [await newClient(c), await newClient(c)];
    const duplicate = await c.post('/v4/monitor/clients', { label: first.label });
    await fx.adopt(c, duplicate, {
      kind: 'monitor-client',
      list: '/v4/monitor/clients',
      match: (item) => item.label === first.label && !sameId(item.id, first.id),
    });
    c.expectRejected('P3.monitor-client.label.unique', duplicate, `POST a client labelled "${first.label}" (in use)`, 'label');
    const renamed = await c.put(`/v4/monitor/clients/${second.id}`, { label: first.label });
    c.expectRejected('P3.monitor-client.label.unique', renamed, `PUT client ${second.id} to the label "${first.label}" of client ${first.id}`, 'label');
    const view = await c.get(`/v4/monitor/clients/${second.id}`);
    c.expect(
      'P3.monitor-client.label.unique',
      bodyOf(view).label === undefined || bodyOf(view).label === second.label,
      `client ${second.id} is labelled "${String(bodyOf(view).label)}" after a rejected rename`,
      view,
    );
    const same = await c.put(`/v4/monitor/clients/${first.id}`, { label: first.label });
    c.expectSuccess('P3.monitor-client.label.unique', same, `PUT client ${first.id} to its own label`);
  });

  check('P3.monitor-client.delete.gone', 'a deleted client can no longer be viewed or listed', async (c) => {
    const client = await newClient(c);
    const deleted = await deleteSeen(c, `/v4/monitor/clients/${client.id}`);
    c.expectSuccess('P3.monitor-client.delete.gone', deleted, `DELETE client ${client.id}`);
    // "all stored data of the client is lost": whether the client is gone when the DELETE answers or once the deletion
    // has run is not shown, so the view and the list are read while a short time passes.
    const made = { kind: 'monitor-client', id: client.id, label: client.label };
    const view = await untilGone(c, `/v4/monitor/clients/${client.id}`, made);
    c.expectGone('P3.monitor-client.delete.gone', view, `GET client ${client.id} after its delete (read while a short time passed)`, made);
    const listed = await untilShortlyDone(
      c,
      () => fx.findOnce(c, '/v4/monitor/clients', (item) => showsMade('monitor-client', item, made)),
      (item) => item === undefined,
    );
    c.expect('P3.monitor-client.delete.gone', listed === undefined, `the deleted client ${client.id} is still listed (read while a short time passed)`);
  });
});

describe('Monitoring subscriptions', () => {
  check('P3.monitor-subscription.list.all-plans', 'the public subscriptions list holds every plan, each viewable without a token', async (c) => {
    const list = await c.get('/v4/monitor/subscriptions', { token: null, query: { page: 1, page_size: 100 } });
    c.expectSuccess('P3.monitor-subscription.list.all-plans', list, 'GET /v4/monitor/subscriptions without a token');
    const data = (bodyOf(list).data as Json[] | undefined) ?? [];
    for (const plan of PLANS) {
      c.expect(
        'P3.monitor-subscription.list.all-plans',
        data.some((item) => namesPlan(item, plan)),
        `the subscriptions list lacks ${plan} (it holds ${show(data)})`,
        list,
      );
      const view = await c.get(`/v4/monitor/subscriptions/${plan}`, { token: null });
      c.expectSuccess('P3.monitor-subscription.list.all-plans', view, `GET /v4/monitor/subscriptions/${plan} without a token`);
      c.expect('P3.monitor-subscription.list.all-plans', namesPlan(view.body, plan), `GET /v4/monitor/subscriptions/${plan} returned ${show(view.body)}`, view);
    }
  });
});

/** A check writing the account-wide plan: it holds the run's plan lock, so no other spec file's write lands meanwhile. */
const planCheck = (rules: string | string[], title: string, body: (c: Check) => Promise<void>) => check(rules, title, body, { exclusive: MONITOR_PLAN_LOCK });

describe('Monitoring plan', () => {
  planCheck('P3.monitor-plan.free-is-empty', 'the plan view returns {} on the free plan', async (c) => {
    await freePlan(c);
    const view = await readAfterWrite(
      c,
      () => c.get(PLAN),
      (read) => ok(read) && isEmptyObject(read.body),
    );
    c.expectSuccess('P3.monitor-plan.free-is-empty', view, 'GET the plan on the free plan');
    c.expect('P3.monitor-plan.free-is-empty', isEmptyObject(view.body), `the plan view on the free plan returned ${show(view.body)}, not {}`, view);
  });

  planCheck(
    ['P3.monitor-plan.update.returns-subscription', 'P3.monitor-plan.subscription-or-empty'],
    'a plan update returns the subscription chosen, and the plan view then shows it',
    async (c) => {
      try {
        for (const plan of ['monitor-10', 'monitor-40']) {
          const put = await c.put(PLAN, { monitor_subscription: plan });
          c.expectSuccess('P3.monitor-plan.update.returns-subscription', put, `PUT the plan to ${plan}`);
          c.expect('P3.monitor-plan.update.returns-subscription', namesPlan(put.body, plan), `the plan update to ${plan} returned ${show(put.body)}`, put);
          // "the subscription object": the account's, the plan just set (read within the consistency window while a
          // replica may still show the plan before)
          const view = await readAfterWrite(
            c,
            () => c.get(PLAN),
            (read) => ok(read) && namesPlan(read.body, plan),
          );
          c.expectSuccess('P3.monitor-plan.subscription-or-empty', view, `GET the plan after the update to ${plan}`);
          c.expect(
            'P3.monitor-plan.subscription-or-empty',
            namesPlan(view.body, plan),
            `after the update to ${plan} the plan view returned ${show(view.body)}`,
            view,
          );
        }
      } finally {
        await c.put(PLAN, { monitor_subscription: null });
      }
    },
  );

  planCheck(
    ['P3.monitor-plan.update.null-means-free', 'P3.monitor-plan.free-is-empty'],
    'a plan update with null returns {} and the account to the free plan',
    async (c) => {
      // the subscription is read from the plan view: what the update answers is another rule's
      const paid = await c.put(PLAN, { monitor_subscription: 'monitor-3' });
      const subscribed = await readAfterWrite(
        c,
        () => c.get(PLAN),
        (view) => ok(view) && !isEmptyObject(view.body),
      );
      if (!ok(paid) || !ok(subscribed) || isEmptyObject(subscribed.body))
        throw new SetupError(`could not subscribe to monitor-3: HTTP ${paid.status}, the plan view shows ${show(subscribed.body)}`);
      const put = await c.put(PLAN, { monitor_subscription: null });
      c.expectSuccess('P3.monitor-plan.update.null-means-free', put, 'PUT the plan to null');
      c.expect('P3.monitor-plan.update.null-means-free', isEmptyObject(put.body), `the plan update to null returned ${show(put.body)}, not {}`, put);
      const view = await readAfterWrite(
        c,
        () => c.get(PLAN),
        (read) => isEmptyObject(read.body),
      );
      c.expect(
        'P3.monitor-plan.update.null-means-free',
        isEmptyObject(view.body),
        `after an update to null the plan view returns ${show(view.body)}, not {}`,
        view,
      );
    },
  );

  check('P3.monitor-plan.view.grants', 'the plan view needs account_access, monitor_subscription or add_monitor', async (c) => {
    const none = await c.principal({ scopes: '*', restricted: true, grants: { global: {} } });
    const refused = await c.get(PLAN, { token: none });
    c.expectRejected('P3.monitor-plan.view.grants', refused, 'GET the plan as a restricted user without global grants');
    const grants: Array<[string, Record<string, unknown>]> = [
      ['account_access read_only', { account_access: 'read_only' }],
      ['account_access read_write', { account_access: 'read_write' }],
      ['monitor_subscription', { monitor_subscription: true }],
      ['add_monitor', { add_monitor: true }],
    ];
    for (const [name, global] of grants) {
      const token = await c.principal({ scopes: '*', restricted: true, grants: { global } });
      const view = await c.get(PLAN, { token });
      c.expectSuccess('P3.monitor-plan.view.grants', view, `GET the plan as a restricted user with ${name}`);
    }
  });

  planCheck('P3.monitor-plan.update.grants', 'the plan update needs the monitor_subscription grant, to a plan or back to free', async (c) => {
    const rule = 'P3.monitor-plan.update.grants';
    try {
      await freePlan(c);
      // "needs" names a grant without which the update is refused; account_access read_write beside it keeps a server that
      // also asks for that (a billing change) from refusing the allowed principal.
      const allowed = await c.principal({ scopes: '*', restricted: true, grants: { global: { monitor_subscription: true, account_access: 'read_write' } } });
      const withAllowed = 'as a restricted user with monitor_subscription and account_access read_write';
      c.expectSuccess(rule, await c.put(PLAN, { monitor_subscription: 'monitor-3' }, { token: allowed }), `PUT the plan to monitor-3 ${withAllowed}`);
      const candidates: Array<[string, Record<string, unknown>]> = [
        ['no global grant', {}],
        ['account_access read_write and add_monitor but not monitor_subscription', { account_access: 'read_write', add_monitor: true }],
      ];
      for (const [name, global] of candidates) {
        const token = await c.principal({ scopes: '*', restricted: true, grants: { global } });
        // To another plan, and back to free (a server may gate only the subscribing): each refused, the plan as it was.
        for (const plan of ['monitor-100', null]) {
          const put = await c.put(PLAN, { monitor_subscription: plan }, { token });
          c.expectRejected(rule, put, `PUT the plan to ${String(plan)} as a restricted user with ${name}`);
          // The plan named as namesPlan reads it (a server may name it in a member other than id); read within the
          // consistency window while it names another: a replica may still show a plan from before.
          const view = await readAfterWrite(
            c,
            () => c.get(PLAN),
            (read) => namesPlan(read.body, 'monitor-3'),
          );
          c.expect(
            rule,
            namesPlan(view.body, 'monitor-3'),
            `a rejected plan update to ${String(plan)} by a restricted user with ${name} changed the plan from monitor-3`,
            view,
          );
        }
      }
      c.expectSuccess(rule, await c.put(PLAN, { monitor_subscription: null }, { token: allowed }), `PUT the plan to null ${withAllowed}`);
    } finally {
      await c.put(PLAN, { monitor_subscription: null });
    }
  });
});
