// Document 1, "Entity transfer (deprecated)", its status and limits: a new transfer is pending and is the sender's,
// the token addresses it, DELETE cancels it, accept accepts an incoming one, and a transfer expires 24 hours after
// creation. Incoming transfers come only from another account: checks that need one skip when the target has none.
import { describe } from 'vitest';
import { CLOCK_LOCK, check, type Check } from '../../harness/check.js';
import { acceptedTransfers, noteAcceptedTransfer } from '../../harness/accepted-transfers.js';
import { readAfterWrite } from '../../harness/consistency.js';
import { listItems, presentOf, timeOf } from '../../harness/lists.js';
import { useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part1-entity-transfers');

const HOUR_MS = 3_600_000;
const LIST = '/v4/account/entity-transfers';

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
const at = (token: string) => `${LIST}/${encodeURIComponent(token)}`;

/**
 * A new transfer of `instance`, one the file lends (the create response is the transfer object): the check's
 * transfers are cancelled when it ends, so the next check can transfer the instance again.
 */
async function newTransfer(c: Check, rule: string, instance: { id: number }): Promise<{ token: string; computes: number[]; created: Exchange }> {
  const created = await c.post(LIST, { entities: { computes: [instance.id] } });
  c.expectSuccess(rule, created, 'POST /v4/account/entity-transfers');
  const token = bodyOf(created).token;
  if (typeof token !== 'string') c.fail('P1.entity-transfer.fields', 'the create response carries no token', created);
  fx.track('entity-transfer', token);
  return { token, computes: [instance.id], created };
}

async function transfer(c: Check, token: string): Promise<{ exchange: Exchange; body: Json }> {
  const exchange = await c.get(at(token));
  return { exchange, body: bodyOf(exchange) };
}

/** Incoming transfers (another account's, with a token), the one expiring first first: the order of the list is not shown. */
const byExpiry = (items: Json[]) =>
  items
    .filter((item) => item.is_sender === false && typeof item.token === 'string' && timeOf(item.expiry) !== undefined)
    .sort((a, b) => timeOf(a.expiry)! - timeOf(b.expiry)!);

const sameIds = (value: unknown, ids: number[]) => Array.isArray(value) && value.length === ids.length && ids.every((id) => value.includes(id));

describe('Entity transfer create, view and cancel', () => {
  check(
    // A valid create with a full-access token judges that the endpoint serves one (on a budget, its generic check may not run).
    ['P1.entity-transfer.create.pending', 'P1.entity-transfer.is-sender.creator', 'P1.account.serves.post-account-entity-transfers'],
    'a new transfer is pending, is_sender true, and holds the requested instances',
    (c) =>
      fx.withLentInstances(c, 1, async ([instance]) => {
        const { token, computes, created } = await newTransfer(c, 'P1.account.serves.post-account-entity-transfers', instance);
        const body = bodyOf(created);
        c.expect('P1.entity-transfer.create.pending', body.status === 'pending', `a new transfer has status ${JSON.stringify(body.status)}`, created);
        c.expect(
          'P1.entity-transfer.create.pending',
          sameIds((body.entities as Json | undefined)?.computes, computes),
          `a new transfer holds ${JSON.stringify(body.entities)}, requested computes ${JSON.stringify(computes)}`,
          created,
        );
        c.expect(
          'P1.entity-transfer.is-sender.creator',
          body.is_sender === true,
          `the create response shows is_sender ${JSON.stringify(body.is_sender)} to the account that created it`,
          created,
        );
        const view = await transfer(c, token);
        c.expect(
          'P1.entity-transfer.is-sender.creator',
          view.body.is_sender === true,
          `the view shows is_sender ${JSON.stringify(view.body.is_sender)} to the account that created it`,
          view.exchange,
        );
        // Searched from both ends of the list (a new transfer is first or last in either order, however long the history).
        const listed = await fx.find(c, LIST, (item) => item.token === token);
        c.expect(
          'P1.entity-transfer.is-sender.creator',
          listed?.is_sender === true,
          `the list shows the new transfer with is_sender ${JSON.stringify(listed?.is_sender)}`,
        );
      }),
  );

  check('P1.entity-transfer.expiry.created-plus-24h', 'expiry is created plus 24 hours', (c) =>
    fx.withLentInstances(c, 1, async ([instance]) => {
      const rule = 'P1.entity-transfer.expiry.created-plus-24h';
      const { token, created } = await newTransfer(c, rule, instance);
      for (const exchange of [created, (await transfer(c, token)).exchange]) {
        const body = bodyOf(exchange);
        const [start, end] = [timeOf(body.created), timeOf(body.expiry)];
        c.expect(
          rule,
          start !== undefined && end !== undefined && Math.abs(end - start - 24 * HOUR_MS) <= 1000,
          `expiry ${String(body.expiry)} is not 24 hours after created ${String(body.created)}`,
          exchange,
        );
      }
    }),
  );

  check(
    ['P1.entity-transfer.token.identifies', 'P1.entity-transfer.delete.cancels', 'P1.account.serves.delete-account-entity-transfers-id'],
    'the token addresses one transfer: view shows it, DELETE cancels it and no other',
    (c) =>
      fx.withLentInstances(c, 2, async ([first, second]) => {
        const one = await newTransfer(c, 'P1.entity-transfer.token.identifies', first);
        const two = await newTransfer(c, 'P1.entity-transfer.token.identifies', second);
        const shown = new Map<string, unknown>();
        for (const made of [one, two]) {
          const view = await transfer(c, made.token);
          shown.set(made.token, view.body.status);
          c.expectSuccess('P1.entity-transfer.token.identifies', view.exchange, 'GET the transfer by its token');
          c.expect(
            'P1.entity-transfer.token.identifies',
            view.body.token === made.token && sameIds((view.body.entities as Json | undefined)?.computes, made.computes),
            `GET by token ${made.token} shows transfer ${JSON.stringify(view.body.token)} of ${JSON.stringify(view.body.entities)}`,
            view.exchange,
          );
        }
        c.expectSuccess('P1.account.serves.delete-account-entity-transfers-id', await c.delete(at(one.token)), 'DELETE the transfer by its token');
        const other = await transfer(c, two.token);
        // Its status as shown before the DELETE (what a new transfer shows is inferred only): the DELETE left it alone.
        c.expect(
          'P1.entity-transfer.token.identifies',
          other.body.status === shown.get(two.token),
          `DELETE of transfer ${one.token} changed transfer ${two.token} from ${JSON.stringify(shown.get(two.token))} to ${JSON.stringify(other.body.status)}`,
          other.exchange,
        );
        // Cancelled: shown as `cancelled`, or gone (status meanings are not shown; a refused view is a removed transfer).
        const isCancelled = ({ exchange, body }: { exchange: Exchange; body: Json }) =>
          (exchange.status >= 400 && exchange.status < 500) || (ok(exchange) && body.status === 'cancelled');
        const cancelled = await readAfterWrite(c, () => transfer(c, one.token), isCancelled);
        c.expect(
          'P1.entity-transfer.delete.cancels',
          isCancelled(cancelled),
          `after DELETE the transfer answers ${cancelled.exchange.status} with status ${JSON.stringify(cancelled.body.status)}`,
          cancelled.exchange,
        );
        // The list shows the cancel too: the transfer is gone from it or no longer pending.
        const pending = (item: Json | undefined) => item?.status === 'pending';
        const listed = await readAfterWrite(
          c,
          () => fx.find(c, LIST, (item) => item.token === one.token),
          (item) => !pending(item),
        );
        c.expect('P1.entity-transfer.delete.cancels', !pending(listed), `after DELETE the transfers list still shows transfer ${one.token} pending`);
      }),
    // Another spec file letting a day pass would make the second transfer stale under the check.
    { exclusive: CLOCK_LOCK },
  );
});

describe('Entity transfer accept and expiry', () => {
  // Incoming transfers expire: accept one before the expiry check lets the clock run.
  check(
    'P1.entity-transfer.accept',
    'accept accepts the incoming pending transfer its token names',
    async (c) => {
      c.needsDestructive('accepting a transfer cannot be undone');
      // The one with the most time left: it cannot expire while the check runs. One past its expiry may still show
      // pending (what an expired transfer shows is not shown): only one expiring after the target's present is taken.
      const present = await presentOf(c);
      // Nor one any spec file of the run accepted: what an accepted transfer shows is not shown (it may go on showing
      // pending), and a second accept of it may be refused.
      const accepted = acceptedTransfers(c.target.info.config);
      // Any incoming one will do: a list longer than the page cap is read on its ends (`ends`), where new ones are.
      const chosen = byExpiry((await listItems(c, LIST, undefined, { ends: true })).filter((item) => item.status === 'pending'))
        .filter((item) => timeOf(item.expiry)! > present && !accepted.has(item.token as string))
        .at(-1);
      if (!chosen) return c.skip('needs a pending transfer from another account, not accepted by the run, to accept');
      const token = chosen.token as string;
      const accept = await c.post(`${at(token)}/accept`);
      if (ok(accept)) noteAcceptedTransfer(c.target.info.config, token);
      // What status an accepted transfer shows is not shown (status meanings and transitions are not): only that the
      // accept succeeds is judged.
      else {
        if (acceptedTransfers(c.target.info.config).has(token)) c.skip('another spec file of the run accepted the transfer meanwhile');
        const after = await transfer(c, token);
        if (ok(after.exchange) && after.body.status !== 'pending')
          c.skip(`the transfer is ${String(after.body.status)} now: another spec file may have accepted it meanwhile`);
      }
      c.expectSuccess('P1.entity-transfer.accept', accept, 'POST accept of a pending incoming transfer');
    },
    // The generic accepts of specs/generic hold the same lock: neither picks a transfer the other is accepting.
    { exclusive: CLOCK_LOCK },
  );

  // What status an expired transfer shows is not shown (status meanings and transitions are not): only that it can no
  // longer be accepted is judged. The expiry itself is judged by the check above.
  check('P1.entity-transfer.expired.accept-rejected', 'an incoming transfer past its expiry (24 hours after creation) cannot be accepted', async (c) => {
    c.needsDestructive('accepting a transfer cannot be undone');
    // The incoming transfer expiring first, of those the run did not accept (one may go on showing pending): the
    // advance passes its expiry.
    const accepted = acceptedTransfers(c.target.info.config);
    const old = byExpiry(
      (await listItems(c, LIST, undefined, { ends: true })).filter(
        (item) => (item.status === 'pending' || item.status === 'stale') && !accepted.has(item.token as string),
      ),
    )[0];
    if (!old) return c.skip('needs a transfer from another account to try to accept');
    if (!c.target.control || c.target.info.controlUrl !== c.target.info.baseUrl) return c.skip('needs the simulated time of the control hooks at the base URL');
    const present = timeOf(bodyOf(await c.get('/__control', { token: null })).now);
    if (present === undefined) return c.skip('needs the simulated time of the control hooks');
    await c.advanceClock(Math.max(1, Math.ceil((timeOf(old.expiry)! - present) / 1000) + 1));
    // Accepted by another check before it expired (a valid accept takes a pending one): nothing to judge with it.
    const before = await transfer(c, old.token as string);
    if (before.body.status === 'accepted' || before.body.status === 'completed')
      return c.skip(`the incoming transfer was ${String(before.body.status)} before it expired (another check accepts pending ones)`);
    const accept = await c.post(`${at(old.token as string)}/accept`);
    c.expectRejected('P1.entity-transfer.expired.accept-rejected', accept, 'accept of a transfer more than 24 hours old');
    const after = await transfer(c, old.token as string);
    c.expect(
      'P1.entity-transfer.expired.accept-rejected',
      after.body.status !== 'accepted' && after.body.status !== 'completed',
      `the expired transfer shows status ${JSON.stringify(after.body.status)} after the refused accept`,
      after.exchange,
    );
  });
});
