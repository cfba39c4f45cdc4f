// Entity transfers: create, view, cancel and accept; pending transfers go stale at expiry.
import { parseIso, type Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, reqArray, reqObject } from '../../core/validate.js';
import { canAccess } from '../../core/permissions.js';
import { getInstance, type Instance } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { DAY_MS, T, uuid, type Transfer } from './model.js';

/** The instances a transfer this account sent names, as they were: one deleted since, and one given its id since (ids-reused), is not in it. */
const named = new WeakMap<Transfer, (Instance | undefined)[]>();

/** Whether the `i`th instance the transfer names is still the one it named (always, for a transfer not recorded here). */
const stillNamed = (s: Store, t: Transfer, i: number) => named.get(t)?.[i] === getInstance(s, t.entities.computes[i]!) || !named.has(t);

export function transferView(s: Store, t: Transfer) {
  return { ...t, entities: { computes: [...t.entities.computes] }, ...(faulty(s, 'P1.entity-transfer.is-sender.creator') ? { is_sender: false } : {}) };
}

/** Transfers the fault cancelled in their view alone: the list shows them as they were. */
const cancelledInViewOnly = new WeakSet<Transfer>();

/** The transfer as its view shows it. */
export const transferShown = (s: Store, t: Transfer) => ({ ...transferView(s, t), ...(cancelledInViewOnly.has(t) ? { status: 'cancelled' } : {}) });

/**
 * Whether a transfer is pending and not expired. Under `expired-transfer-shown-pending` an expired transfer keeps
 * showing pending (it does not go stale) but is expired all the same: it cannot be accepted.
 */
function livePending(s: Store, t: Transfer): boolean {
  return t.status === 'pending' && parseIso(t.expiry).getTime() > s.now().getTime();
}

/** A new transfer's token, and its expiry when made at `made` (ms): the same for the ones this account makes and receives. */
export const newToken = (s: Store): string => (faulty(s, 'P1.entity-transfer.token.uuid') ? uuid(s).replace(/-/g, '') : uuid(s));
export const expiryOf = (s: Store, made: number): string =>
  s.nowIso(new Date(made + (faulty(s, 'P1.entity-transfer.expiry.created-plus-24h') ? 2 : 1) * DAY_MS));

export function addTransfer(s: Store, t: Transfer): void {
  T.transfers(s).set(t.token, t);
  const expiry = parseIso(t.expiry);
  s.schedule(expiry, (st) => {
    if (T.transfers(st).get(t.token) !== t || t.status !== 'pending' || varied(st, 'expired-transfer-shown-pending')) return;
    // (one accepted, still shown pending under `transfer-accept-once`, completes instead)
    if (varied(st, 'transfer-accept-once') && T.accepted(st).has(t.token)) return;
    t.status = 'stale';
    t.updated = st.nowIso(expiry);
  });
}

/**
 * Other accounts keep a transfer to this one pending: when the ones seeded have expired (other checks advance the
 * simulated clock by days) or been accepted, another arrives, of instances of theirs (ids this account has none of).
 */
export function keepIncomingPending(s: Store): void {
  // Under `transfer-accept-once` two arrive, sent a minute apart, only when none is left to accept (an accepted one
  // still shown pending is not): an accepted one stays the newest meanwhile.
  const once = varied(s, 'transfer-accept-once');
  const pending = [...T.transfers(s).values()].filter((t) => !t.is_sender && livePending(s, t) && !(once && T.accepted(s).has(t.token))).length;
  for (let arriving = once && pending ? 2 : pending; arriving < 2; arriving++) {
    const now = new Date(s.now().getTime() - (once ? (1 - arriving) * 60_000 : 0));
    addTransfer(s, {
      token: newToken(s),
      created: s.nowIso(now),
      updated: s.nowIso(now),
      expiry: expiryOf(s, now.getTime()),
      entities: { computes: [90_200 + s.nextId('incoming-transfer')] },
      is_sender: false,
      status: 'pending',
    });
  }
}

export function transferOr404(ctx: RequestContext): Transfer {
  const token = ctx.params['token'] ?? '';
  const t = T.transfers(ctx.store).get(token.toLowerCase());
  if (t === undefined) fail(`Entity transfer ${JSON.stringify(token.slice(0, 64))} was not found.`, null, 404);
  return t;
}

export function createTransfer(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const entities = reqObject(o, 'entities');
  const computes = reqArray(entities, 'computes', { min: 1, path: 'entities' });
  const s = ctx.store;
  const inPending = new Set<number>();
  for (const t of T.transfers(s).values())
    if (livePending(s, t) && t.is_sender) t.entities.computes.forEach((id, i) => stillNamed(s, t, i) && inPending.add(id));
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
    token: newToken(s),
    created: s.nowIso(now),
    updated: s.nowIso(now),
    expiry: expiryOf(s, now.getTime()),
    entities: { computes: ids },
    is_sender: true,
    status: 'pending',
  };
  named.set(
    t,
    ids.map((id) => getInstance(s, id)),
  );
  addTransfer(s, t);
  return transferView(s, t);
}

export function cancelTransfer(ctx: RequestContext) {
  const t = transferOr404(ctx);
  if (!t.is_sender) fail('Only the account that created a transfer can cancel it.');
  if (t.status !== 'pending') fail(`Only a pending transfer can be cancelled; this one is ${t.status}.`);
  if (faulty(ctx.store, 'P1.entity-transfer.delete.cancels')) return {};
  if (faulty(ctx.store, 'P1.entity-transfer.delete.cancels~view-only')) {
    cancelledInViewOnly.add(t);
    return {};
  }
  t.status = 'cancelled';
  t.updated = ctx.store.nowIso();
  return {};
}

export function acceptTransfer(ctx: RequestContext) {
  const t = transferOr404(ctx);
  if (t.is_sender) fail('You cannot accept a transfer your own account created; the receiving account must accept it.');
  // The fault takes an expired transfer: stale, or (under expired-transfer-shown-pending) still shown pending.
  const expired = t.status === 'stale' || (t.status === 'pending' && !livePending(ctx.store, t));
  const expiredAccepted = expired && faulty(ctx.store, 'P1.entity-transfer.expired.accept-rejected');
  if (t.status !== 'pending' && !expiredAccepted) fail(`Only a pending transfer can be accepted; this one is ${t.status}.`);
  if (!livePending(ctx.store, t) && !expiredAccepted) fail(`This transfer expired at ${t.expiry}; it can no longer be accepted.`);
  const s = ctx.store;
  // Under `transfer-accept-once` an accepted transfer still shown pending is not accepted again.
  const once = varied(s, 'transfer-accept-once');
  if (once && T.accepted(s).has(t.token)) fail('This transfer has already been accepted.');
  if (faulty(s, 'P1.entity-transfer.accept')) fail('This transfer cannot be accepted now.');
  // Under the variations the transfer shows pending until it completes (what accepted means is not shown).
  const shown = varied(s, 'transfer-accept-pending') || once ? 'pending' : 'accepted';
  T.accepted(s).set(t.token, true);
  t.status = shown;
  t.updated = s.nowIso();
  // (completed a minute later; under `transfer-accept-once` at its expiry, when the day it is open for has passed)
  const at = once ? parseIso(t.expiry) : new Date(s.now().getTime() + 60_000);
  s.schedule(at, (st) => {
    if (T.transfers(st).get(t.token) !== t || t.status !== shown) return;
    t.status = 'completed';
    t.updated = st.nowIso(at);
  });
  return {};
}
