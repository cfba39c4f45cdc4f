// The maintenance window (`updates`) of a managed database cluster (document 1, "Managed databases"): its members
// read from an update body, and the default window (the choices of units are listed in index.ts).
import type { Store } from '../../core/store.js';
import { fail, optInt, optObject, optString } from '../../core/validate.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import type { Updates } from './model.js';

const FREQUENCIES = ['weekly', 'monthly'] as const;
const WINDOW_MEMBERS = ['frequency', 'duration', 'hour_of_day', 'day_of_week', 'week_of_month'];

export function readUpdates(store: Store, o: Record<string, unknown>, current: Updates): Updates | undefined {
  const u = optObject(o, 'updates');
  if (u === undefined) return undefined;
  const path = 'updates';
  // Under the variation a member not listed (one the window shows, pending, included) is refused.
  const unlisted = Object.keys(u).find((m) => !WINDOW_MEMBERS.includes(m));
  if (unlisted !== undefined && varied(store, 'window-extra-member-strict')) fail(`A maintenance window has no member ${unlisted}.`, `${path}.${unlisted}`);
  for (const m of WINDOW_MEMBERS)
    if (!(m in u) && varied(store, 'maintenance-window-whole')) fail(`A maintenance window is set whole: ${m} is missing.`, `${path}.${m}`);
  // The fault takes a fractional hour_of_day, rounded down.
  if (typeof u['hour_of_day'] === 'number' && faulty(store, 'P1.database.updates.types')) u['hour_of_day'] = Math.floor(u['hour_of_day']);
  const frequency = optString(u, 'frequency', { enum: FREQUENCIES, nullable: true, path });
  // Under maintenance-window-other-units the duration is in minutes and Sunday is day 0.
  const otherUnits = varied(store, 'maintenance-window-other-units');
  const duration = optInt(u, 'duration', otherUnits ? { min: 30, max: 1440, path } : { min: 1, max: 3, path });
  const hour = optInt(u, 'hour_of_day', { min: 0, max: 23, path });
  const day = optInt(u, 'day_of_week', otherUnits ? { min: 0, max: 6, path } : { min: 1, max: 7, path });
  const week = optInt(u, 'week_of_month', { min: 1, max: 4, path });
  const resulting = frequency === undefined ? current.frequency : frequency;
  // Under the variation a weekly window has no use for week_of_month: the one sent is not kept.
  const weekUnused = resulting === 'weekly' && varied(store, 'weekly-window-keeps-week');
  return {
    frequency: resulting,
    duration: duration ?? current.duration,
    hour_of_day: hour ?? current.hour_of_day,
    day_of_week: day ?? current.day_of_week,
    week_of_month: weekUnused ? current.week_of_month : (week ?? current.week_of_month),
  };
}

/** The window as a cluster shows it: its five members, and under the variation one more (the changes still pending). */
export function shownUpdates(store: Store, updates: Updates) {
  return varied(store, 'window-extra-member-strict') ? { ...updates, pending: [] } : { ...updates };
}

export function defaultUpdates(store: Store): Updates {
  if (varied(store, 'maintenance-window-other-units')) return { frequency: 'weekly', duration: 180, hour_of_day: 20, day_of_week: 0, week_of_month: 1 };
  return { frequency: 'weekly', duration: 3, hour_of_day: 20, day_of_week: 7, week_of_month: 1 };
}
