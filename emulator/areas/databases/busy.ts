// What keeps a managed database cluster busy under the variations (document 1, "Managed databases": a snapshot "takes
// several minutes", a credentials reset "takes several seconds"; what a cluster refuses meanwhile is not shown).
import type { Store } from '../../core/store.js';
import { fail } from '../../core/validate.js';
import { varied } from '../../variations/index.js';
import type { Cluster } from './model.js';

/** Under the variation snapshot-keeps-cluster-busy: when (store time, ms) a snapshot of a cluster was last asked for. */
const lastSnapshot = new WeakMap<Cluster, number>();
const SNAPSHOT_BUSY_MS = 5 * 60_000;
/** Under the variation credentials-reset-busy: until when (store time, ms) a cluster's credentials view is refused. */
const resetting = new WeakMap<Cluster, number>();
/** Under the variation credentials-reset-spaced: when (store time, ms) a cluster's credentials were last reset. */
const lastReset = new WeakMap<Cluster, number>();
const RESET_RUNS_MS = 30_000;

export function noteSnapshot(store: Store, c: Cluster): void {
  lastSnapshot.set(c, store.now().getTime());
}

/** Under the variation snapshot-keeps-cluster-busy, refuses `action` while a snapshot of the cluster is being taken. */
export function requireNoSnapshotRunning(store: Store, c: Cluster, action: string): void {
  if (varied(store, 'snapshot-keeps-cluster-busy') && store.now().getTime() < (lastSnapshot.get(c) ?? -Infinity) + SNAPSHOT_BUSY_MS)
    fail(`Cannot ${action}: a snapshot of database cluster ${c.id} is being taken. Retry once it is complete.`, null, 409);
}

/** Under the variation credentials-reset-busy, refuses the credentials view while a reset runs. */
export function requireNotResetting(store: Store, c: Cluster): void {
  if (store.now().getTime() < (resetting.get(c) ?? 0)) fail('The credentials are being reset; try again shortly.', null, 409);
}

/** Refuses a reset under credentials-reset-spaced within 30 seconds of the last, else notes it (and under credentials-reset-busy, runs it). */
export function startReset(store: Store, c: Cluster): void {
  if (varied(store, 'credentials-reset-spaced') && store.now().getTime() < (lastReset.get(c) ?? -Infinity) + RESET_RUNS_MS)
    fail('The credentials were reset less than 30 seconds ago; reset them again shortly.', null, 409);
  lastReset.set(c, store.now().getTime());
  if (varied(store, 'credentials-reset-busy')) resetting.set(c, store.now().getTime() + RESET_RUNS_MS);
}
