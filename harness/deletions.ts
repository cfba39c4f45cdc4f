// Deleting what a spec file made (or a check lending a shared resource), entry by entry of its cleanup ledger, newest
// first, each delete confirmed by a read of the resource's own path.
import { CLOCK_LOCK } from './check.js';
import type { CleanupLedger, LedgerEntry } from './cleanup.js';
import { noteDeleted } from './consistency.js';
import { deleteThenConfirm, deletionRunsMs } from './resources.js';
import { target } from './target.js';

/** How long a cleanup waits for another check's hold on the clock before leaving a deletion still running as it is (ms). */
const CLOCK_LOCK_WAIT_MS = 20_000;

/**
 * Deletes the ledger's pending entries (since `mark`, or all); returns the ones still there. With the clock hook, a
 * deletion that may still run (an instance: `deletionRunsMs`) is given a minute of the target's clock and deleted again;
 * without the hook its confirming read waited that long in real time instead.
 */
export async function deletePending(ledger: CleanupLedger, mark?: number): Promise<LedgerEntry[]> {
  const remaining = await deleteEntries(ledger, mark);
  if (!target().control || !remaining.some((entry) => deletionRunsMs(entry.kind) > 0)) return remaining;
  // Held like a check's advance: a check judging what an advance would change under it is not disturbed.
  const release = await target().lock(CLOCK_LOCK).take(CLOCK_LOCK_WAIT_MS);
  if (!release) return remaining;
  try {
    await target().advanceClock(60);
  } finally {
    release();
  }
  return deleteEntries(ledger, mark);
}

/**
 * Deletes pending entries (since `mark`, or all); returns the ones that could not be deleted. What is still there
 * after the deletes confirmed at once is deleted again one at a time (a DELETE refused while a dependant it waited
 * for was still going). A database has no dependant: one refused (it provisions) is not asked again at once.
 */
async function deleteEntries(ledger: CleanupLedger, mark?: number): Promise<LedgerEntry[]> {
  const left = await deleteEach(ledger, mark === undefined ? ledger.pending() : ledger.pendingSince(mark));
  const remaining: LedgerEntry[] = [];
  // Their deletions had their time to run in the first round: one still running is not waited for again.
  for (const entry of left) remaining.push(...(entry.kind === 'database' ? [entry] : await deleteEach(ledger, [entry], false)));
  return remaining;
}

/**
 * Deletes each entry (newest first, one DELETE after another), marking it deleted once a read confirms it is gone;
 * returns the ones still there. `letRun`: without the clock hook, a deletion that may run a while is waited for. The reads confirming the deletes run at once: on a target whose reads lag, each
 * waits out its own lag instead of one after another.
 */
export async function deleteEach(ledger: CleanupLedger, entries: LedgerEntry[], letRun = true): Promise<LedgerEntry[]> {
  const { http, token, info, control } = target();
  const confirmations: Array<Promise<LedgerEntry | null>> = [];
  for (const entry of entries) {
    // Cleanup runs even after the run budget is spent: what the run made is removed whenever it can be.
    const confirm = await deleteThenConfirm({
      http,
      token,
      kind: entry.kind,
      path: entry.deletePath,
      windowMs: info.config.consistencyWindowMs,
      runsMs: control || !letRun ? 0 : deletionRunsMs(entry.kind),
      ignoreRunBudget: true,
    });
    confirmations.push(
      confirm().then((outcome) => {
        if (outcome !== 'deleted' && outcome !== 'gone') return entry;
        ledger.markDeleted(entry.deletePath);
        noteDeleted(entry.deletePath);
        return null;
      }),
    );
  }
  return (await Promise.all(confirmations)).filter((entry): entry is LedgerEntry => entry !== null);
}
