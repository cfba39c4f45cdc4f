// The backups of managed database clusters (document 1, "Managed database backup"): the nightly automatic backups at
// 00:00 UTC, kept 7 days, and the snapshots a cluster's POST adds.
import { parseIso, type Store } from '../../core/store.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { backups, clusters, type Backup } from './model.js';

export const DAY_MS = 86_400_000;
const BACKUP_RETENTION_MS = 7 * DAY_MS;

export function addBackup(store: Store, clusterId: number, type: Backup['type'], label: string, created: string): Backup {
  const b: Backup = { id: store.newId('database_backup', (n) => backups(store).has(String(n))), clusterId, type, label, created };
  backups(store).set(String(b.id), b);
  return b;
}

export function nextMidnight(after: Date): Date {
  const d = new Date(after.getTime());
  d.setUTCHours(0, 0, 0, 0);
  return new Date(d.getTime() + DAY_MS);
}

/** When the automatic backup of midnight `at` is stamped: at once, or under the variation 5 minutes later (when complete). */
export const stampOf = (store: Store, at: Date) =>
  store.nowIso(varied(store, 'auto-backups-stamped-late') || varied(store, 'auto-backups-swept-at-next-run') ? new Date(at.getTime() + 5 * 60_000) : at);

/** When the automatic backups 7 days older than the one of midnight `at` go: with it, or under the variation at 06:00. */
const SWEEP_DELAY_MS = 6 * 3_600_000;

/** Daily at 00:00 UTC: one `auto` backup per cluster that has finished provisioning; autos older than 7 days go. */
export function dailyBackups(store: Store, at: Date): void {
  const created = stampOf(store, at);
  // Under the variation the job first removes the autos 7 days old or more at its start, then takes the new one.
  const sweptFirst = varied(store, 'auto-backups-swept-at-next-run');
  if (sweptFirst) expireAutoBackups(store, store.nowIso(at));
  for (const c of clusters(store).values()) {
    if (c.status !== 'provisioning' && !faulty(store, 'P1.database.backups.daily')) addBackup(store, c.id, 'auto', `auto-${created.slice(0, 10)}`, created);
  }
  if (varied(store, 'auto-backups-swept-later')) store.schedule(new Date(at.getTime() + SWEEP_DELAY_MS), (s) => expireAutoBackups(s, created));
  else if (!sweptFirst) expireAutoBackups(store, created);
  // The store runs tasks in time order, so a clock jump over several midnights interleaves them correctly.
  const next = new Date(at.getTime() + DAY_MS);
  store.schedule(next, (s) => dailyBackups(s, next));
}

/** Removes the automatic backups made 7 days or more before `newest`. */
function expireAutoBackups(store: Store, newest: string): void {
  if (faulty(store, 'P1.database-backup.auto.retained-7-days')) return;
  for (const [key, b] of backups(store))
    if (b.type === 'auto' && parseIso(newest).getTime() - parseIso(b.created).getTime() >= BACKUP_RETENTION_MS) backups(store).delete(key);
}
