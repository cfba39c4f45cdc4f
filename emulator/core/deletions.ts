// Deletions that run a while (the variations record-delete-runs-a-while, monitor-client-delete-runs-a-while,
// firewall-delete-runs-a-while, range-delete-runs-a-while): where the documents do not say a resource is gone when its
// DELETE answers, it stays as it was, viewed and listed, for a simulated minute, and what its deletion does (a range
// disconnected, a firewall's rules off its instances) is done then.
import type { Store } from './store.js';
import { varied, type VariationId } from '../variations/index.js';

/** How long a deletion runs under those variations (simulated time). */
const DELETION_RUNS_MS = 60_000;
/** The deletions running: `<variation>:<key>` → true. */
const RUNNING = 'deletions_running';

/** Whether a deletion of `key` runs under `variation` (what it deletes still holds its id: ids-reused). */
export function deletionRuns(store: Store, variation: VariationId, key: string): boolean {
  return store.table<true>(RUNNING).has(`${variation}:${key}`);
}

/**
 * Runs `remove` at once, or, under the variation `variation`, a simulated minute later. False when a deletion of `key`
 * already runs (a DELETE sent again meanwhile): nothing more is scheduled, and the caller answers as to the first
 * DELETE without doing again what that one did (its event).
 */
export function deleteNowOrLater(store: Store, variation: VariationId, key: string, remove: (store: Store) => void): boolean {
  if (!varied(store, variation)) {
    remove(store);
    return true;
  }
  const running = store.table<true>(RUNNING);
  const at = `${variation}:${key}`;
  if (running.has(at)) return false;
  running.set(at, true);
  store.schedule(new Date(store.now().getTime() + DELETION_RUNS_MS), (later) => {
    later.table<true>(RUNNING).delete(at);
    remove(later);
  });
  return true;
}
