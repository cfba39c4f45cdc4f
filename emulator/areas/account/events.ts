// The account's events as the events endpoints show them: newest first, within 90 days, by the caller's grants.
import type { Principal, RequestContext } from '../../core/types.js';
import type { Store } from '../../core/store.js';
import { fail } from '../../core/validate.js';
import { eventDelivered, eventTime, ofEntityHoldingItsId, type Event } from '../../core/events.js';
import { canAccess, hasGlobalGrant, type EntityKind } from '../../core/permissions.js';
import { paginate, type Page } from '../../core/pagination.js';
import { intParam } from '../../core/routes.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { oldestShownOf, T } from './model.js';

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
  if (kind !== undefined)
    return canAccess(p, kind, e.entity.id, varied(s, 'events-need-write-grant') ? 'read_write' : 'read_only') && ofEntityHoldingItsId(s, e);
  return hasGlobalGrant(p, 'account_access');
}

const oldestOf = (s: Store): number => (faulty(s, 'P1.events.window-90-days') ? -Infinity : oldestShownOf(s));

/**
 * The caller's events, newest first (oldest first under `windowed-items-at-edge` and `long-history`), each within the
 * 90 days: the table holds them in the order of their ids, but an event's time need not grow with its id (the seed's
 * edge event under `windowed-items-at-edge`, one another area's seed made first).
 */
function visibleEvents(ctx: RequestContext, { anyGrants = false } = {}): Event[] {
  const out: Event[] = [];
  const oldest = oldestOf(ctx.store);
  const now = Date.now();
  for (const e of T.events(ctx.store).values())
    if (eventTime(e) >= oldest && eventDelivered(e, now) && (anyGrants || eventVisible(ctx.store, ctx.principal, e))) out.push(e);
  // Oldest first under `windowed-items-at-edge` and `long-history` (the order of a list's items is not shown).
  return varied(ctx.store, 'windowed-items-at-edge') || varied(ctx.store, 'long-history') ? out : out.reverse();
}

/**
 * One page of the caller's events. The fault counts and cuts the page from every event a restricted user's grants
 * might show, then drops those they do not show from the page already cut.
 */
export function eventsPage(ctx: RequestContext): Page<Event> {
  if (!ctx.principal?.restricted || !faulty(ctx.store, 'P1.conventions.list.pages-total~events-grants')) return paginate(ctx, visibleEvents(ctx), eventView);
  const page = paginate(ctx, visibleEvents(ctx, { anyGrants: true }));
  return { ...page, data: page.data.filter((e) => eventVisible(ctx.store, ctx.principal, e)).map(eventView) };
}

export function eventOr404(ctx: RequestContext): Event {
  const id = intParam(ctx, 'eventId', 'Event');
  const e = T.events(ctx.store).get(String(id));
  if (ctx.principal?.restricted && faulty(ctx.store, 'P1.account.serves.get-account-events-id~restricted'))
    fail('Only unrestricted users may view an event.', null, 403);
  if (e === undefined || eventTime(e) < oldestOf(ctx.store) || !eventDelivered(e) || !eventVisible(ctx.store, ctx.principal, e))
    fail(`Event ${id} was not found.`, null, 404);
  return e;
}

/** A copy of the event (its members are flat but for the two entities): structuredClone costs several times more. */
const eventView = (e: Event): Event => ({ ...e, entity: { ...e.entity }, secondary_entity: e.secondary_entity && { ...e.secondary_entity } });

/** Events the fault marked read in their view alone: the list shows them as they were. */
const readInViewOnly = new WeakSet<Event>();

/** POST read: the event is read (the fault keeps that in its view alone). */
export function markRead(s: Store, e: Event): void {
  if (faulty(s, 'P1.events.read.marks-one~view-only')) readInViewOnly.add(e);
  else e.read = true;
}

/** The event as its view shows it. */
export const eventShown = (s: Store, e: Event): Event => (readInViewOnly.has(e) ? { ...eventView(e), read: true } : eventView(e));
