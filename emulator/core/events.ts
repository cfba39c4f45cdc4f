// Account events (document 1 "Event", "Events"): areas emit them; the account area lists and marks them.
// Events are kept 90 simulated days, then removed.
import { parseIso, type Store } from './store.js';
import type { Principal } from './types.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';

/** The action value the `event-actions-new` variation adds (document 1: new values may be added). */
const NEW_ACTION = 'audit_record';

export type EventStatus = 'failed' | 'finished' | 'notification' | 'scheduled' | 'started';

export interface EventEntity {
  id: number | string;
  label: string | null;
  type: string;
  url: string;
}

export interface Event {
  action: string;
  created: string;
  duration: number;
  entity: EventEntity;
  id: number;
  message: string | null;
  percent_complete: number | null;
  rate: string | null;
  read: boolean;
  secondary_entity: EventEntity | null;
  seen: boolean;
  status: EventStatus;
  time_remaining: string | null;
  username: string;
}

export const EVENTS_TABLE = 'events';
const EVENT_RETENTION_DAYS = 90;

/** Under the variation events-lag, the wall-clock time (ms) from which an event shows in reads. */
const deliveredAt = new WeakMap<Event, number>();
/** How long (wall-clock ms) an event takes to show in reads under events-lag and events-seen-marks-shown. */
export const EVENT_LAG_MS = 600;
/** How long (wall-clock ms) the audit record of an action takes to show under events-seen-marks-shown. */
const AUDIT_LAG_MS = 2_000;

/** Under ids-reused: how many times its entity's id had been given again when the event was recorded (Store.generationOf). */
const generationAt = new WeakMap<Event, number>();

/**
 * Whether the event's entity is the resource that holds its id now, or one that held it before (variation ids-reused):
 * a grant on the id is a grant on the resource holding it now, so it shows the events of that one only.
 */
export function ofEntityHoldingItsId(store: Store, event: Event): boolean {
  return !varied(store, 'ids-reused') || (generationAt.get(event) ?? 0) === store.generationOf(event.entity.type, String(event.entity.id));
}

/** Each event's time (epoch ms) as last read, with what it was read from: the events list reads every event's time on every request. */
const createdAt = new WeakMap<Event, { created: string; time: number }>();

/** An event's time (epoch ms); parsed again only when `created` was written since (a seed dates its events back). */
export function eventTime(event: Event): number {
  const kept = createdAt.get(event);
  if (kept?.created === event.created) return kept.time;
  const time = parseIso(event.created).getTime();
  createdAt.set(event, { created: event.created, time });
  return time;
}

/** Whether an event shows in reads yet (always, but under the variation events-lag). */
export function eventDelivered(event: Event, now = Date.now()): boolean {
  return (deliveredAt.get(event) ?? 0) <= now;
}

/** Shows every event recorded but not shown yet (under events-seen-marks-shown, once a POST seen has marked the shown ones). */
export function showPendingEvents(store: Store): void {
  for (const e of store.table<Event>(EVENTS_TABLE).values()) deliveredAt.delete(e);
}

export function emitEvent(
  store: Store,
  principal: Principal | null,
  e: {
    action: string;
    entity: EventEntity;
    secondary_entity?: EventEntity | null;
    status?: EventStatus;
    message?: string | null;
  },
): Event {
  // An audit record of the action, taking its id before the action's event and shown later (events-seen-marks-shown).
  const audited = varied(store, 'events-seen-marks-shown') && e.action !== NEW_ACTION;
  if (audited) emitEvent(store, principal, { ...e, action: NEW_ACTION });
  const status = e.status ?? 'finished';
  const created = store.now();
  const event: Event = {
    action: e.action === 'firewall_disable' && faulty(store, 'P1.events.emission~wrong-action') ? 'firewall_update' : e.action,
    created: store.nowIso(created),
    duration: faulty(store, 'P1.event.types') ? ('0' as unknown as number) : 0,
    entity: { ...e.entity },
    id: store.nextId('event'),
    message: e.message ?? null,
    percent_complete: status === 'finished' ? 100 : status === 'started' ? 0 : null,
    rate: null,
    read: false,
    secondary_entity: e.secondary_entity ? { ...e.secondary_entity, ...(varied(store, 'secondary-entity-label-null') ? { label: null } : {}) } : null,
    seen: false,
    status,
    time_remaining: null,
    username: (faulty(store, 'P1.event.username.causing-user') ? undefined : principal?.username) ?? store.defaultUser,
  };
  const table = store.table<Event>(EVENTS_TABLE);
  if (e.action === 'firewall_device_remove' && faulty(store, 'P1.events.emission')) return event;
  table.set(String(event.id), event);
  if (varied(store, 'ids-reused')) generationAt.set(event, store.generationOf(event.entity.type, String(event.entity.id)));
  if (varied(store, 'events-seen-marks-shown')) deliveredAt.set(event, Date.now() + (audited ? EVENT_LAG_MS : AUDIT_LAG_MS));
  else if (varied(store, 'events-lag')) deliveredAt.set(event, Date.now() + EVENT_LAG_MS);
  if (!faulty(store, 'P1.events.window-90-days'))
    store.schedule(new Date(created.getTime() + EVENT_RETENTION_DAYS * 86_400_000), (s) => {
      s.table<Event>(EVENTS_TABLE).delete(String(event.id));
    });
  // A newer action value, recorded right after each documented one (so it is the newest event of the entity).
  if (varied(store, 'event-actions-new') && e.action !== NEW_ACTION) emitEvent(store, principal, { ...e, action: NEW_ACTION });
  return event;
}
