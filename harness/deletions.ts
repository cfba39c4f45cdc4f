// Deleting what a spec file made (or a check lending a shared resource), entry by entry of its cleanup ledger, newest
// first, each delete confirmed by a read of the resource's own path.
import { setTimeout as sleep } from 'node:timers/promises';
import { CLOCK_LOCK } from './check.js';
import type { CleanupLedger, LedgerEntry } from './cleanup.js';
import { deleteThenConfirm, deletionMayRun, deletionRunsMs, GOES_BY_ITSELF, goneIn, viewShowsAnother, type Labelled } from './resources.js';
import { target } from './target.js';

/** How long a cleanup waits for another check's hold on the clock before leaving a deletion still running as it is (ms). */
const CLOCK_LOCK_WAIT_MS = 20_000;

/**
 * How long an instance whose DELETE is refused may stay busy (its create, or a clone from or to it, runs for a time
 * not shown; the spec files wait as long for a clone: `CLONE_BUSY_MINUTES`): with the clock hook, the target's clock is
 * let run this much, a minute at a time for the first ten (a create), then ten at a time; without it, real time
 * passes, the DELETE sent again every ten seconds.
 */
const busyClockStepS = (spentS: number) => (spentS < 10 * 60 ? 60 : 10 * 60);
const BUSY_CLOCK_MOST_S = 60 * 60;
/**
 * How long a spec file's end lets the clock run for a database cluster or an image whose DELETE is refused: a cluster
 * may be provisioning, restoring or patched (how long a patch runs is not shown; the default maintenance window lasts
 * 3 hours), an image still being captured ("becomes available shortly"; the images file gives a capture 3 hours).
 */
const LONG_BUSY_CLOCK_MOST_S = 3 * 60 * 60;
const BUSY_REAL_MS = 2 * 60_000;
const BUSY_REAL_STEP_MS = 10_000;

/** Time the end of a spec file's cleanup may take: the instances it waits for (BUSY_*), and the lock waits. */
export const CLEANUP_TIMEOUT_MS = 5 * 60_000;

/**
 * Kinds whose deletion may free what they held only a while after it is confirmed: a firewall, gone from its view at
 * once, whose rules are "removed from the instances" (document 3: when is not shown), an instance perhaps still
 * counted as its enabled firewall's meanwhile. With the clock hook the target's clock is let run a minute after one is
 * deleted, so the next check (one lent the same instances, a generated body naming them) finds its instances free.
 */
const RELEASES_LATER: ReadonlySet<string> = new Set(['firewall']);

/** Until when (Date.now()) what this thread deleted of those kinds may still hold its instances, without the clock hook. */
let releasingUntil = 0;
/** Whether a deletion of a `RELEASES_LATER` kind this thread made may still hold what it held (never with the clock hook). */
export const deletedMayStillHold = (): boolean => Date.now() < releasingUntil;

/**
 * Deletes the ledger's pending entries (since `mark`, or all), newest first; returns the ones that could not be
 * deleted. A deletion that may still run (an instance, a database cluster, a domain, a firewall … or a tag:
 * `deletionMayRun`) and is not confirmed at once is given, with the clock hook, a minute of the target's clock and its
 * entry deleted again; without the hook its confirming read waited that long in real time. A deleted firewall is given
 * a minute more once it is gone (`RELEASES_LATER`): at once when it went at once (after a minute for its deletion first
 * where reads may lag creates), after that round when it went then.
 * What is still there then is deleted again one at a time (a DELETE refused while a dependant it waited for was still
 * going). A database has no dependant: one refused (it provisions) is not asked again at once. An instance (or one of
 * its profiles) still there is then waited for while time passes (`deleteWhileBusy`): on the target's clock, or in real
 * time at a spec file's end (`fileEnd`) or, for what a check made on a resource it was lent, until `realTimeUntil`
 * (before the check's deadline).
 */
export async function deletePending(
  ledger: CleanupLedger,
  mark?: number,
  { fileEnd = false, realTimeUntil }: { fileEnd?: boolean; realTimeUntil?: number } = {},
): Promise<LedgerEntry[]> {
  const pending = () => (mark === undefined ? ledger.pending() : ledger.pendingSince(mark));
  const entries = pending();
  let left = await deleteEach(ledger, entries);
  const releasing = (before: LedgerEntry[], after: LedgerEntry[]) => before.some((entry) => RELEASES_LATER.has(entry.kind) && !after.includes(entry));
  if (!target().control && releasing(entries, left)) releasingUntil = Date.now() + Math.max(...[...RELEASES_LATER].map(deletionRunsMs));
  if (left.some((entry) => deletionMayRun(entry.kind))) {
    const running = left;
    if (await letClockRun(60)) left = await deleteEach(ledger, pending(), false);
    if (releasing(running, left)) await letClockRun(60, { needed: false });
  } else if (releasing(entries, left)) {
    // On a target whose reads may lag its creates, the 404 confirming a firewall made moments before may be its view
    // not shown yet while its deletion still runs: the deletion is given its minute before the minute of the release.
    if (target().info.config.consistencyWindowMs > 0) await letClockRun(60, { needed: false });
    await letClockRun(60, { needed: false });
  }
  const remaining: LedgerEntry[] = [];
  // Their deletions had their time to run: one still running is not waited for again.
  for (const entry of left) remaining.push(...(entry.kind === 'database' ? [entry] : await deleteEach(ledger, [entry], false)));
  return deleteWhileBusy(ledger, remaining, fileEnd, realTimeUntil);
}

/**
 * The entries still there deleted again while time passes (BUSY_*), as long as one of them is an instance or one of its
 * profiles (or, at a spec file's end with the clock hook, a database cluster or an image): a server may refuse to delete
 * an instance, or a profile of it, while its create, a shutdown or a clone from or to it runs (whether it may is not
 * shown), a cluster while it provisions or is patched, and an image while it is captured. With
 * the clock hook the target's clock is let run (a check's run then deletes what it made before the next, as without
 * the refusal); real time passes only at a spec file's end (`fileEnd`), when no check of the file waits on it, or until
 * `realTimeUntil`, when the check that made them waits on it (what it made on a lent instance: a profile refused while
 * the instance's shutdown runs). Returns the ones still there.
 */
async function deleteWhileBusy(ledger: CleanupLedger, left: LedgerEntry[], fileEnd: boolean, realTimeUntil = -Infinity): Promise<LedgerEntry[]> {
  let remaining = left;
  // (a profile's DELETE may be refused while its instance is busy too: whether it may is not shown)
  const instanceLeft = () => remaining.some((entry) => entry.kind === 'instance' || entry.kind === 'config');
  // A cluster or an image is waited for at a spec file's end only: a generated body's cluster provisions through the
  // file's runs, and a capture is deleted once the file is done with it.
  const longBusyLeft = () => fileEnd && remaining.some((entry) => entry.kind === 'database' || entry.kind === 'image');
  const busyLeft = () => instanceLeft() || longBusyLeft();
  const most = () => (longBusyLeft() ? LONG_BUSY_CLOCK_MOST_S : BUSY_CLOCK_MOST_S);
  if (target().control)
    for (let spent = 0; spent < most() && busyLeft() && (await letClockRun(busyClockStepS(spent))); spent += busyClockStepS(spent))
      remaining = await deleteEach(ledger, remaining, false);
  else if (fileEnd || realTimeUntil > Date.now()) {
    const until = Math.min(Date.now() + BUSY_REAL_MS, fileEnd ? Infinity : realTimeUntil);
    // A check waits for its profiles only: an instance refused (its clone still running) is left to the file's end.
    const waitedFor = () => (fileEnd ? instanceLeft() : remaining.some((entry) => entry.kind === 'config'));
    while (waitedFor() && Date.now() < until) {
      await sleep(Math.min(BUSY_REAL_STEP_MS, until - Date.now()));
      remaining = await deleteEach(ledger, remaining, false);
    }
  }
  return remaining;
}

/**
 * Lets the target's clock run `seconds`, held like a check's advance (one judging what an advance would change under
 * it is not disturbed); false without the hook or the lock. `needed: false`: a wait the cleanup does without on a
 * target without the hook (a deleted firewall's release), not noted as a use of the clock, so that the plan does not
 * skip the checks whose cleanup lets it run on such a target.
 */
export async function letClockRun(seconds: number, { needed = true } = {}): Promise<boolean> {
  const { control } = target();
  if (!control) return false;
  const release = await target().lock(CLOCK_LOCK).take(CLOCK_LOCK_WAIT_MS);
  if (!release) return false;
  try {
    await target().advanceClock(seconds, { needed });
    return true;
  } finally {
    release();
  }
}

/**
 * Deletes each entry (newest first, one DELETE after another), marking it deleted once a read confirms it is gone;
 * returns the ones still there. The reads confirming the deletes run at once: on a target whose reads lag, each waits
 * out its own lag instead of one after another. `first`: the first round, in which a deletion that may still run is
 * waited for in real time without the clock hook, and not at all with it (the clock is let run before the next round).
 */
export async function deleteEach(ledger: CleanupLedger, entries: LedgerEntry[], first = true): Promise<LedgerEntry[]> {
  const { http, token, info, control, views } = target();
  const confirmations: Array<Promise<LedgerEntry | null>> = [];
  for (const entry of entries) {
    // What tells it from another resource given its id again: the label it was made with, and those updates gave it.
    const made = views.asRenamed(entry.deletePath, { kind: entry.kind, label: entry.label });
    // A DELETE of it (a check's, or this clean-up's in an earlier round) answered 2xx: the target said it is deleted, and
    // another could delete what the path holds since (its id given again: the documents do not exclude it), which on
    // a target whose reads lag no read rules out. Its deletion is only confirmed; one never confirmed is reported left.
    const answered = views.deleteWasAnswered(entry.deletePath);
    const live = views.isLive(entry.deletePath);
    if (!answered && (!live || GOES_BY_ITSELF.has(entry.kind)) && (await noLongerThere(entry, made, live))) {
      ledger.markDeleted(entry.deletePath);
      continue;
    }
    const mayRun = first && deletionMayRun(entry.kind);
    // Cleanup runs even after the run budget is spent: what the run made is removed whenever it can be.
    const confirm = await deleteThenConfirm({
      ...made,
      answered,
      http,
      token,
      path: entry.deletePath,
      windowMs: mayRun && control ? 0 : info.config.consistencyWindowMs,
      runsMs: mayRun && !control ? deletionRunsMs(entry.kind) : 0,
      ignoreRunBudget: true,
      ...(info.absentStatus !== undefined ? { absentStatus: info.absentStatus } : {}),
      ...(live ? { lagMs: info.config.consistencyWindowMs } : {}),
    });
    if (confirm.answered) views.noteDeleteAnswered(entry.deletePath);
    confirmations.push(
      confirm().then((outcome) => {
        if (outcome !== 'deleted' && outcome !== 'gone') return entry;
        ledger.markDeleted(entry.deletePath);
        views.noteDeleted(entry.deletePath);
        return null;
      }),
    );
  }
  return (await Promise.all(confirmations)).filter((entry): entry is LedgerEntry => entry !== null);
}

/**
 * Whether an entry the run saw deleted or gone (a check's DELETE answered 2xx, a read found it gone: its view is no
 * longer live), or one of a kind that may go by itself (`GOES_BY_ITSELF`), is not there, read before it is deleted
 * (again): on a target that gives a deleted resource's id again (not excluded by the documents) its path may hold
 * another resource by now, another file's or a colleague's, which a DELETE would delete. A view showing the entry's
 * label (or none that tells) is deleted as usual: a target that answered the DELETE without deleting is still cleaned
 * up. Of one still `live`, only another resource shown there counts: a view answering gone may be a read lagging its
 * create, which the DELETE and its confirming read wait out.
 */
async function noLongerThere(entry: LedgerEntry, made: Labelled, live: boolean): Promise<boolean> {
  const { http, token, info } = target();
  const view = await http.send({ method: 'GET', path: entry.deletePath, token, ignoreRunBudget: true });
  return (!live && goneIn(entry.kind, view, info.absentStatus)) || viewShowsAnother(view, made);
}
