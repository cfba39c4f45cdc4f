// Reads after writes on an eventually consistent target: a created resource may answer 404, an updated one its
// previous body, a list may miss a new item or still hold a deleted one for a moment. Every such read-back of the
// suite goes through readAfterWrite, which retries it within the configured consistency window (--consistency-window)
// before the check judges it, so a slow-but-correct server is not reported as divergent.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Check } from './check.js';
import type { Exchange } from './http.js';
import { LABEL_MEMBER, viewShowsAnother, type Labelled } from './resources.js';

const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 1000;

/**
 * Waits a check may spend in vain (the state it read for did not come within the window) before it stops waiting:
 * a correct server settles within the window, so only a target that never shows the state pays, and only this often
 * per check rather than once per read (a property reads back a hundred updates).
 */
export const UNSETTLED_WAITS_PER_CHECK = 2;
const unsettledWaits = new WeakMap<Check, number>();

/**
 * Reads until `settled` holds or the window has passed (one read when the window is 0), pausing 50 ms, 100 ms, 200 ms, …
 * up to 1 s between reads. Returns the last value read, settled or not: the check judges it as usual. `slowChange`: the
 * state may take longer than the window to come (a change the documents say takes "a short time"; the caller waits on
 * after), so a wait ending unsettled does not count against UNSETTLED_WAITS_PER_CHECK. `afterClock`: the read follows
 * clock steps that took no real time, the only read that can see past a replica's lag: it waits even once the budget
 * is spent. `ownBudget`: the wait is bounded otherwise (a view of a resource the run made: per collection,
 * UNSETTLED_VIEWS_PER_COLLECTION), so it waits even once the check's budget is spent and does not spend it.
 */
export async function readAfterWrite<T>(
  c: Check,
  read: () => Promise<T>,
  settled: (value: T) => boolean,
  { slowChange = false, afterClock = false, ownBudget = false } = {},
): Promise<T> {
  const spent = !afterClock && !ownBudget && (unsettledWaits.get(c) ?? 0) >= UNSETTLED_WAITS_PER_CHECK;
  const window = spent ? 0 : c.target.info.config.consistencyWindowMs;
  // Never past the check's deadline: a state that never comes ends the wait, not the run.
  const deadline = c.deadline ?? Infinity;
  const started = Date.now();
  const until = Math.min(started + window, deadline);
  // The wait ends unsettled only on a read begun once the window had passed: a read begun within it (a slow one, or a
  // long list's pages) may answer as before the write though it ends after the window.
  let begun = Date.now();
  let value = await read();
  for (let pause = FIRST_PAUSE_MS; !settled(value); pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const left = until - Date.now();
    if (begun < until && left > 0) await sleep(Math.min(pause, left));
    if (begun >= until || Date.now() >= deadline) {
      if (window > 0 && !slowChange && !ownBudget) unsettledWaits.set(c, (unsettledWaits.get(c) ?? 0) + 1);
      if (window > 0) c.record.unsettledReads = (c.record.unsettledReads ?? 0) + 1;
      if (until < started + window) noteCutShort(c, until - started, window);
      return value;
    }
    begun = Date.now();
    value = await read();
  }
  return value;
}

/**
 * A view a target left at 404 past the whole window this often, for resources of one collection, is no longer waited
 * for in that collection (per target): the target broke the window there already, and a lie (a create whose resource
 * never shows) would otherwise cost every later check of that collection the window again.
 */
const UNSETTLED_VIEWS_PER_COLLECTION = 2;

/** The collection of a view path, ids in its parents generalised: `/v4/domains/{id}/records` for `/v4/domains/5/records/7`. */
function collectionOf(path: string): string {
  const segments = path.split('?')[0]!.split('/');
  return segments
    .slice(0, -1)
    .map((segment) => (/^\d+$/.test(segment) ? '{id}' : segment))
    .join('/');
}

/**
 * The view paths of the resources the run made on one target and has not deleted, and the collections whose views
 * that target left unsettled. One per target (a worker may hold several: the mutation matrix's batches; the
 * self-tests' fake targets), so that no target's answers change how another's are read.
 */
export class ViewsMade {
  private readonly live = new Set<string>();
  private readonly unsettledViews = new Map<string, number>();

  /**
   * A resource the run made, at its view path: a 404 there is a read lagging the create (see `Check.send`), and so is
   * a view showing another label than `made`'s (the id's previous holder, read from a replica behind the create).
   */
  noteLive(path: string, made?: Labelled): void {
    this.live.add(path);
    this.deleteAnswered.delete(path);
    if (made) this.madeAs.set(path, made);
  }

  /** The kind and label of each resource the run made, by its view path (`noteLive`). */
  private readonly madeAs = new Map<string, Labelled>();

  /** Whether a view read at `path` shows another resource than the one the run made there (`viewShowsAnother`). */
  showsAnotherAt(path: string, view: Pick<Exchange, 'status' | 'body'>): boolean {
    const made = this.madeAs.get(path);
    return made !== undefined && viewShowsAnother(view, this.asRenamed(path, made));
  }

  /** `made` (the resource at `path`) with the labels updates gave it since (`labelsSet`). */
  asRenamed(path: string, made: Labelled): Labelled {
    return { ...made, renamed: this.labelsSet(path, LABEL_MEMBER[made.kind]) };
  }

  /** The paths a DELETE of the run's answered 2xx for since the resource there was made (`noteDeleteAnswered`). */
  private readonly deleteAnswered = new Set<string>();

  /** A DELETE of `path` answered 2xx: the target says the resource is deleted (`noteDeleted`). */
  noteDeleteAnswered(path: string): void {
    this.deleteAnswered.add(path);
    this.noteDeleted(path);
  }

  /** Whether a DELETE of the resource at `path` answered 2xx: the clean-up never sends it another (see deletions.ts). */
  deleteWasAnswered(path: string): boolean {
    return this.deleteAnswered.has(path);
  }

  /** The run deleted the resource at `path` (and with it what lives under it): a 404 there is the answer, not a lag. */
  noteDeleted(path: string): void {
    this.live.delete(path);
    for (const under of this.live) if (under.startsWith(`${path}/`)) this.live.delete(under);
    this.deletedAt.set(path, Date.now());
  }

  /** When the run last deleted the resource at each path (`noteDeleted`). */
  private readonly deletedAt = new Map<string, number>();

  /** Whether the run deleted the resource at `path`, or one holding it, after `since` (ms): its id may now be another's. */
  deletedSince(path: string, since: number): boolean {
    return [...this.deletedAt].some(([deleted, at]) => at > since && (path === deleted || path.startsWith(`${deleted}/`)));
  }

  /** The labels and domain names 2xx updates sent to each view path (`labelsSet`). */
  private readonly sentNames = new Map<string, Array<[string, string]>>();

  /** A 2xx update of the resource at `path` sent `sent`: its label or domain name, if it sent one, is the resource's now. */
  noteUpdate(path: string, sent: unknown): void {
    if (!sent || typeof sent !== 'object') return;
    for (const member of ['label', 'domain']) {
      const value = (sent as Record<string, unknown>)[member];
      if (typeof value === 'string') this.sentNames.set(path, [...(this.sentNames.get(path) ?? []), [member, value]]);
    }
  }

  /** The values of `member` (a label, a domain name) updates gave the resource at `path`: it may show any of them. */
  private labelsSet(path: string, member: string | undefined): string[] {
    return (this.sentNames.get(path) ?? []).filter(([name]) => name === member).map(([, value]) => value);
  }

  /** Whether `path` is the view of a resource this run made and has not deleted. */
  isLive(path: string): boolean {
    return this.live.has(path);
  }

  /** Whether views of `path`'s collection are still waited for after a 404 (see UNSETTLED_VIEWS_PER_COLLECTION). */
  waitsForViewOf(path: string): boolean {
    return (this.unsettledViews.get(collectionOf(path)) ?? 0) < UNSETTLED_VIEWS_PER_COLLECTION;
  }

  /** A view of `path` stayed 404 past the whole window. */
  noteUnsettledView(path: string): void {
    const collection = collectionOf(path);
    this.unsettledViews.set(collection, (this.unsettledViews.get(collection) ?? 0) + 1);
  }
}

/**
 * Lets the target's clock run `stepSeconds` at a time (or, `growing`, in steps doubling from it) until `done` holds or
 * `mostSeconds` have passed, reading after each step; returns the last value read. How long an action runs (a clone, a status change) is mostly not shown: a
 * check waits for what it needs rather than a fixed time. On a target without the clock hook the first step is a `skip`.
 */
export async function untilOnClock<T>(
  c: Check,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { stepSeconds, mostSeconds, growing = false }: { stepSeconds: number; mostSeconds: number; growing?: boolean },
): Promise<T> {
  let value = await read();
  let step = stepSeconds;
  for (let spent = 0; !done(value) && spent < mostSeconds; spent += step) {
    // Growing steps (doubled each time, the last one cut to `mostSeconds`) keep a long wait to few reads.
    if (growing) step = Math.min(spent ? step * 2 : stepSeconds, mostSeconds - spent);
    await c.advanceClock(step);
    value = await read();
  }
  // Clock steps take no real time: a replica may still answer as before the last of them, so the last read is
  // repeated within the consistency window.
  return done(value) ? value : readAfterWrite(c, read, done, { afterClock: true });
}

/**
 * A state read until `done` holds: at once, or while the target's clock runs (`untilOnClock`: only the read after the
 * last step waits out a replica's lag, so `read` is one read; a window waited at each step would be waited in vain
 * while the state is still to come). Without the clock hook the state is read within the window, in real time,
 * before the clock step that skips the check.
 */
export async function readOnClock<T>(
  c: Check,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  steps: { stepSeconds: number; mostSeconds: number },
): Promise<T> {
  if (!c.target.control) {
    const first = await readAfterWrite(c, read, done);
    if (done(first)) return first;
  }
  return untilOnClock(c, read, done, steps);
}

/**
 * Real time a change is waited for (an action on a busy resource sent again), on a target without the clock hook: a
 * minute and a half, so that what a server does a minute after the request ("shortly after") is seen. A check is
 * given as much more time there (harness/check.ts), so that such a wait fits before its deadline.
 */
export const BUSY_REAL_MS = 90_000;

/**
 * Why what the documents do not time (when a new instance's private address shows, its statistics, a zone's first
 * rendering) and has not shown after a check's wait (`untilShortlyDone`) is not judged: no reading bounds when it shows,
 * and on a target without the clock hook no more time can pass than the check waits. Undefined with the hook (ten
 * minutes of the target's clock have passed: it is judged).
 */
export const notShownInTime = (c: Check): string | undefined =>
  c.target.control ? undefined : 'when it shows is not shown, and without the clock hook no more time can pass than a check waits';

/** Skips the check (`what`, and why: `notShownInTime`) where what it waited for has not `shown`, on a target without the clock hook. */
export function skipUnlessShownInTime(c: Check, shown: boolean, what: string): void {
  const why = notShownInTime(c);
  if (!shown && why) c.skip(`${what}: ${why}`);
}

/**
 * Reads until `done` holds, letting time pass between reads: the target's clock a minute at a time for at most
 * `minutes`, or, without the clock hook, real time for at most a minute and a half (`BUSY_REAL_MS`, never past the
 * check's deadline). For what the documents say takes a short time, or do not say either way. Returns the last value
 * read.
 */
export async function untilShortlyDone<T>(c: Check, read: () => Promise<T>, done: (value: T) => boolean, minutes = 10): Promise<T> {
  if (c.target.control) return untilOnClock(c, read, done, { stepSeconds: 60, mostSeconds: minutes * 60 });
  const started = Date.now();
  const until = Math.min(started + BUSY_REAL_MS, (c.deadline ?? Infinity) - 5_000);
  let value = await read();
  while (!done(value) && Date.now() + 2_000 < until) {
    await sleep(2_000);
    value = await read();
  }
  if (!done(value) && until < started + BUSY_REAL_MS) noteCutShort(c, until - started, BUSY_REAL_MS);
  return value;
}

/**
 * A real-time wait (`givenMs`: the consistency window, or `BUSY_REAL_MS` for a change the documents say takes a short
 * time) ended by the check's deadline without what it waited for: a violation the check finds after it is reported
 * `error` (`Check.recordViolation`), since what it waited for may yet have come in the time it is given.
 */
function noteCutShort(c: Check, waitedMs: number, givenMs: number): void {
  const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));
  c.cutShort ??= `it judged after a wait the check's deadline cut to ${seconds(waitedMs)} s of real time, of the ${seconds(givenMs)} s it is given`;
}

/**
 * Lets a short time pass, for a change no read shows, before a request that cannot be sent again once accepted: the
 * target's clock `minutes`, or, without the clock hook, real time: the run's consistency window (what the user says a
 * write takes to show; never past halfway to the check's deadline: the rest is for what follows), or with `realTime:
 * 'short'` up to a minute and a half (`BUSY_REAL_MS`, never past the check's deadline), where what the request depends
 * on may itself run a short time after its answer (a range's DELETE after its share: sent before the share has run, it
 * deletes the range; the check is given that time: `checkWaiting`).
 */
export async function letShortlyRun(c: Check, options: { minutes?: number; realTime?: 'window' | 'short' } = {}): Promise<void> {
  // Not noted as a use of the clock: without the hook the check waits in real time instead, so the plan runs it there.
  if (c.target.control) return c.advanceClock((options.minutes ?? 10) * 60, { needed: false });
  if (options.realTime !== 'short') return waitOutWindow(c);
  const waited = await waitShortRealTime(c);
  if (waited < BUSY_REAL_MS) noteCutShort(c, waited, BUSY_REAL_MS);
}

/** Waits up to a minute and a half of real time (`BUSY_REAL_MS`), never past 5 s before the check's deadline; returns the wait. */
async function waitShortRealTime(c: Check): Promise<number> {
  const wait = Math.min(BUSY_REAL_MS, (c.deadline ?? Infinity) - 5_000 - Date.now());
  if (wait > 0) await sleep(wait);
  return Math.max(0, wait);
}

/** A moment on the target's clock as the run knows it: the seconds its workers had advanced it by, and the real time. */
export interface ClockMark {
  advanced: number;
  at: number;
}

export function clockMark(c: Check): ClockMark {
  return { advanced: c.target.clockAdvanced.total(), at: Date.now() };
}

/**
 * On a target whose clock the run drives, waits until the consistency window has passed since the run's last clock
 * advance (usually long ago: no wait), so that a read after it does not answer as before that advance (a replica
 * lagging the state it ended). Called holding the clock (CLOCK_LOCK) where an advance before the read would mislead
 * too; otherwise one that follows only makes the read show more time passed. With `reach`, only when the target's
 * clock may have passed `reach.seconds` since `reach.since` (what the read looks for cannot have happened before that:
 * an upload expiring after a day), counting every advance of the run since then and the real time.
 */
export async function untilClockSettled(c: Check, reach?: { since: ClockMark; seconds: number }): Promise<void> {
  if (!c.target.control) return;
  if (reach) {
    const passed = c.target.clockAdvanced.total() - reach.since.advanced + (Date.now() - reach.since.at) / 1000;
    if (passed < reach.seconds) return;
  }
  const wait = Math.min(c.target.clockAdvanced.last() + c.target.info.config.consistencyWindowMs - Date.now(), ((c.deadline ?? Infinity) - Date.now()) / 2);
  if (wait > 0) await sleep(wait);
}

/**
 * Waits the run's consistency window (never past halfway to the check's deadline: the rest is for what follows), so
 * that a read after it shows every write before it: what a lagging replica showed is no longer taken for the state.
 */
export async function waitOutWindow(c: Check): Promise<void> {
  const wait = Math.min(c.target.info.config.consistencyWindowMs, ((c.deadline ?? Infinity) - Date.now()) / 2);
  if (wait > 0) await sleep(wait);
}

/**
 * `untilShortlyDone` for a request that makes something each time it is not done (a create a server should refuse once
 * what it names is deleted, when that deletion is done not shown): sent at once, then after a minute of the target's
 * clock and after the rest of `minutes`, or, without the clock hook, once more after up to a minute and a half of real
 * time (never past the check's deadline). At most three sends, where `untilShortlyDone` would send one a minute or
 * every 2 s; what an accepted one made is the caller's to track. Returns the last value, for the check to judge.
 */
export async function untilShortlyDoneSparingly<T>(c: Check, send: () => Promise<T>, done: (value: T) => boolean, minutes = 10): Promise<T> {
  let value = await send();
  if (done(value)) return value;
  if (c.target.control) {
    for (const seconds of [60, Math.max(0, minutes - 1) * 60]) {
      await c.advanceClock(seconds);
      value = await send();
      if (done(value)) break;
    }
    return value;
  }
  const waited = await waitShortRealTime(c);
  value = await send();
  if (!done(value) && waited < BUSY_REAL_MS) noteCutShort(c, waited, BUSY_REAL_MS);
  return value;
}

/**
 * Each view of what the check made, read until it shows (answers other than 404) within the consistency window, one
 * read each when the window is 0: a read lagging a create answers 404 and a list leaves the item out, as a replica that
 * never saw the create would. What the check then judges absent (deleted, hidden from another user, past a page's end)
 * is judged of what was seen, not of a replica's lag. A view that never shows leaves the check nothing to judge (`skip`).
 */
export async function untilSeen(c: Check, views: readonly string[]): Promise<void> {
  for (const view of views) {
    const absent = (exchange: Exchange) => exchange.status === 404 || exchange.status === c.target.info.absentStatus;
    const read = await readAfterWrite(
      c,
      () => c.get(view),
      (exchange) => !absent(exchange),
    );
    if (absent(read))
      c.skip(`GET ${view} still answered ${read.status} at the end of the consistency window after its create: what never showed is not judged`);
  }
}

/**
 * A resource the check made, deleted once its view (`path`) and each of `alsoSeen` (what lives under it, whose removal
 * the check judges too) has shown it (`untilSeen`): after the DELETE, a 404 or a list without it would otherwise pass
 * for the deletion's when it was a read that never saw the create. Returns the DELETE's exchange, for the check to judge.
 */
export async function deleteSeen(c: Check, path: string, alsoSeen: readonly string[] = []): Promise<Exchange> {
  await untilSeen(c, [path, ...alsoSeen]);
  return c.delete(path);
}

/**
 * The view of a resource just deleted, read until it answers 4xx while a short time passes (`untilShortlyDone`): where
 * the documents do not say a deletion is done when its DELETE answers (an instance, whose status values are not
 * shown; a database cluster, whose transitions are not shown: `deletionRunsMs`), it may run a while. `made`: its kind
 * and label, when a view showing another resource there (its id given again: `showsAnother`) is an answer too. Returns
 * the last view, for the check to judge (`Check.expectGone`).
 */
export function untilGone(c: Check, path: string, made?: Labelled): Promise<Exchange> {
  return untilShortlyDone(
    c,
    () => c.get(path),
    (view) => (view.status >= 400 && view.status < 500) || viewShowsAnother(view, made),
  );
}

/**
 * An action sent again while it is refused for what may be a running action (a 4xx other than 401, 403, 404, 405),
 * letting time pass between tries: the target's clock a minute at a time for at most `minutes`, or, without the clock
 * hook, real time for at most a minute and a half (never past the check's deadline). For actions on what may still be
 * busy where the documents do not say either way: an instance with its own create, a database snapshot still being
 * taken.
 * `refusedFor`: a refusal no busy resource explains (one naming the member at fault), judged at once: sending it again
 * would cost a correct server's run the time allowed. Without the clock hook, one still refused after the wait while
 * less than `minutes` of real time have passed since it was first refused (`firstRefused`) is not judged: the check
 * ends `skip` if it fails on it or cannot go on (`Check.unjudgedForBusy`; how long an instance's create runs is not
 * shown). `untimed`: what it waits for is not timed by the documents: a request refused for `minutes` of real time
 * since it was first refused is sent once. Returns the last exchange, for the check to judge.
 */
export async function onceNotBusy(
  c: Check,
  send: () => Promise<Exchange>,
  { minutes = 10, refusedFor, untimed = false }: { minutes?: number; refusedFor?: (exchange: Exchange) => boolean; untimed?: boolean } = {},
): Promise<Exchange> {
  const busy = (exchange: Exchange) =>
    exchange.status >= 400 && exchange.status < 500 && ![401, 403, 404, 405].includes(exchange.status) && !refusedFor?.(exchange);
  if (c.target.control) return untilShortlyDone(c, send, (exchange) => !busy(exchange), minutes);
  const first = await send();
  if (!busy(first)) return first;
  const refusedSince = firstRefused.get(c.target) ?? new Map<string, number>();
  firstRefused.set(c.target, refusedSince);
  const request = `${first.method} ${first.path}`;
  // Sent to a resource the run deleted since (its id may be another's now): refused afresh.
  const known = refusedSince.get(request);
  const since = known === undefined || c.target.views.deletedSince(first.path, known) ? Date.now() : known;
  refusedSince.set(request, since);
  const timeLeft = () => Date.now() - since < minutes * 60_000;
  // The wait's first read is the refusal just met, not a request sent again at once.
  let unread: Exchange | undefined = first;
  const again = () => {
    const refusal = unread;
    unread = undefined;
    return refusal ? Promise.resolve(refusal) : send();
  };
  const last = untimed && !timeLeft() ? first : await untilShortlyDone(c, again, (exchange) => !busy(exchange), minutes);
  // Refused for less than `minutes` of real time in all: what it waits for may still run, it is not judged.
  if (busy(last) && timeLeft()) {
    c.stillBusy.add(last);
    stillBusyAnywhere.add(last);
  }
  if (!busy(last)) refusedSince.delete(request);
  return last;
}

/**
 * By target, when `onceNotBusy` first met each request (method and path) refused, without the clock hook: it is
 * given `minutes` of real time in all, as the clock gives it `minutes` with the hook; an `untimed` one (an instance's
 * statistics while it has no history) is not waited for a minute and a half again in every check once they have
 * passed (on a server refusing a young instance's statistics for hours, ten checks would each wait in vain).
 */
const firstRefused = new WeakMap<object, Map<string, number>>();

/** Every exchange `onceNotBusy` left still refused as busy, whichever check waited: a shared fixture's awaiting checks judge it too. */
export const stillBusyAnywhere = new WeakSet<Exchange>();
