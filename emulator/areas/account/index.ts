// Account (document 1, "Account"): the account object, cancellation, credit card, entity transfers, events,
// invoices, logins, maintenance (beta), notifications and OAuth clients.
//
// Choices where the document says "not shown":
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
//   four incoming transfers (is_sender false) are seeded so accept can be exercised, and whenever fewer than two
//   incoming ones are pending (expired by the simulated clock, or accepted) another account sends one more;
// - events: newest first; a restricted user sees events of entities it holds a grant on, its own events, and
//   account-level events when it has the `account_access` grant; read/seen are per account;
// - OAuth clients: the full secret is returned only by create; other responses show `<REDACTED>`; new clients are
//   `active`; redirect_uri must be an absolute http(s) URL;
// - logins older than 90 days are neither listed nor viewable (404); maintenance type `reboot` |
//   `live_migration`, status `pending` | `scheduled`; notification types `maintenance`, `payment_due` (while the
//   balance is not 0) and `notice`, severities `minor` | `major`.
import { Reply, type Area, type Route } from '../../core/types.js';
import { fail } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';
import { intParam } from '../../core/routes.js';
import { faulty } from '../../faults/index.js';
import { parseIso } from '../../core/store.js';
import { varied } from '../../variations/index.js';
import { eventDelivered, showPendingEvents } from '../../core/events.js';
import { addCreditCard, cancelAccount, updateAccount } from './account-object.js';
import { eventOr404, eventShown, eventsPage, markRead } from './events.js';
import { accountView, invoiceOr404, T, within90DaysOf } from './model.js';
import { forgetMaintenance, maintenancePage, notifications } from './notices.js';
import { clientOr404, clientView, createClient, deleteClient, updateClient } from './oauth-clients.js';
import { seed } from './seed.js';
import { acceptTransfer, cancelTransfer, createTransfer, keepIncomingPending, transferOr404, transferShown, transferView } from './transfers.js';

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
  listen: (store) => store.listen('instance-deleted', ({ instanceId }) => forgetMaintenance(store, instanceId)),
  routes: [
    r('GET', '/v4/account', AR, (ctx) => accountView(ctx.store)),
    r('PUT', '/v4/account', AW, updateAccount),
    r('POST', '/v4/account/cancel', AW, cancelAccount, true),
    r('POST', '/v4/account/credit-card', AW, addCreditCard),
    r('GET', '/v4/account/entity-transfers', AR, (ctx) => {
      keepIncomingPending(ctx.store);
      // Oldest first (newest first under `transfer-accept-once`); each transfer copied for its page only (an account
      // may hold thousands: `long-history`).
      const all = [...T.transfers(ctx.store).values()];
      if (varied(ctx.store, 'transfer-accept-once')) all.reverse().sort((a, b) => parseIso(b.created).getTime() - parseIso(a.created).getTime());
      return paginate(ctx, all, (t) => transferView(ctx.store, t));
    }),
    r('POST', '/v4/account/entity-transfers', AW, createTransfer),
    r('GET', '/v4/account/entity-transfers/{token}', AR, (ctx) => {
      const t = transferOr404(ctx);
      return transferShown(ctx.store, faulty(ctx.store, 'P1.entity-transfer.token.identifies') ? [...T.transfers(ctx.store).values()].at(-1)! : t);
    }),
    r('DELETE', '/v4/account/entity-transfers/{token}', AW, cancelTransfer),
    r('POST', '/v4/account/entity-transfers/{token}/accept', AW, acceptTransfer),
    r('GET', '/v4/account/events', ER, eventsPage),
    r('GET', '/v4/account/events/{eventId}', ER, (ctx) => eventShown(ctx.store, eventOr404(ctx))),
    r('POST', '/v4/account/events/{eventId}/read', ER, (ctx) => {
      const one = eventOr404(ctx);
      markRead(ctx.store, one);
      if (faulty(ctx.store, 'P1.events.read.marks-one')) for (const e of T.events(ctx.store).values()) if (e.id <= one.id) e.read = true;
      return {};
    }),
    r('POST', '/v4/account/events/{eventId}/seen', ER, (ctx) => {
      const upTo = eventOr404(ctx);
      // Under events-seen-marks-shown the events shown by now are marked, and those recorded meanwhile show after it
      // unseen, lower ids too.
      const shownOnly = varied(ctx.store, 'events-seen-marks-shown');
      const now = Date.now();
      // (the fault ~one-more marks the event after the one given too: an off-by-one)
      const next = () => Math.min(...[...T.events(ctx.store).values()].map((e) => e.id).filter((id) => id > upTo.id));
      const last = faulty(ctx.store, 'P1.events.seen.later-unseen~one-more') ? next() : upTo.id;
      if (faulty(ctx.store, 'P1.events.seen.marks-up-to-id')) upTo.seen = true;
      else
        for (const e of T.events(ctx.store).values())
          if ((e.id <= last && (!shownOnly || eventDelivered(e, now))) || faulty(ctx.store, 'P1.events.seen.later-unseen')) e.seen = true;
      if (shownOnly) showPendingEvents(ctx.store);
      return {};
    }),
    r('GET', '/v4/account/invoices', AR, (ctx) =>
      paginate(
        ctx,
        [...T.invoices(ctx.store).values()].map((i) => ({ ...i })),
      ),
    ),
    r('GET', '/v4/account/invoices/{invoiceId}', AR, (ctx) => ({ ...invoiceOr404(ctx) })),
    r('GET', '/v4/account/invoices/{invoiceId}/items', AR, (ctx) => {
      const inv = invoiceOr404(ctx);
      return paginate(
        ctx,
        (T.items(ctx.store).get(String(inv.id)) ?? []).map((i) => ({ ...i })),
      );
    }),
    r(
      'GET',
      '/v4/account/logins',
      AR,
      (ctx) =>
        paginate(
          ctx,
          [...T.logins(ctx.store).values()]
            .filter((l) => within90DaysOf(ctx.store)(l.datetime) || faulty(ctx.store, 'P1.logins.window-90-days'))
            .map((l) => ({ ...l })),
        ),
      true,
    ),
    r(
      'GET',
      '/v4/account/logins/{loginId}',
      AR,
      (ctx) => {
        const id = intParam(ctx, 'loginId', 'Login');
        const l = T.logins(ctx.store).get(String(id));
        if (l === undefined || (!within90DaysOf(ctx.store)(l.datetime) && !faulty(ctx.store, 'P1.logins.window-90-days')))
          fail(`Login ${id} was not found.`, null, 404);
        return l;
      },
      true,
    ),
    r('GET', '/v4beta/account/maintenance', 'maintenance:read_only', maintenancePage),
    r('GET', '/v4/account/notifications', AR, (ctx) => {
      const page = paginate(ctx, notifications(ctx));
      // The fault labels the JSON text as plain text.
      return faulty(ctx.store, 'P1.conventions.json-bodies') ? new Reply(200, JSON.stringify(page), { 'content-type': 'text/plain; charset=utf-8' }) : page;
    }),
    r('GET', '/v4/account/oauth-clients', AR, (ctx) =>
      paginate(
        ctx,
        [...T.clients(ctx.store).values()].map((c) => clientView(ctx.store, c)),
      ),
    ),
    r('POST', '/v4/account/oauth-clients', AW, createClient),
    r('GET', '/v4/account/oauth-clients/{clientId}', AR, (ctx) => clientView(ctx.store, clientOr404(ctx))),
    r('PUT', '/v4/account/oauth-clients/{clientId}', AW, updateClient),
    r('DELETE', '/v4/account/oauth-clients/{clientId}', AW, deleteClient),
  ],
};
