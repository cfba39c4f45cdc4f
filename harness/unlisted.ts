// What a create made that neither its answer nor the list has shown yet. What a create answers is mostly not shown: a
// server may answer with a job (a clone) and make the resource only when the job ends, so an answer's id is the
// resource's only when the answer shows the resource (the label sent). Until the list shows it, the resource is awaited
// here: a check needing it looks for it while the target's clock runs; the clean-up of the spec file (or of a check's
// mark) looks for it too, and tracks what it finds before deleting, so the run deletes what it made and nothing else.
import { setTimeout as sleep } from 'node:timers/promises';
import { letClockRun } from './deletions.js';
import { pageOf, walkPages, type ListGet } from './pages.js';
import type { ResourceKind } from './resources.js';
import { target } from './target.js';

type Json = Record<string, unknown>;
type Id = string | number;

export const isId = (value: unknown): value is Id => typeof value === 'number' || typeof value === 'string';

/** A create accepted whose resource no list showed yet: found in `list` by `match`. */
export interface Unlisted {
  kind: ResourceKind;
  list: string;
  match: (item: Json) => boolean;
  /** The member of a list item holding the id to delete it by (`id`, a tag's `label`, a range's `range`). */
  idKey: string;
  label?: string;
  parent?: Id;
  /** The ledger's mark when the create was sent: a clean-up since an earlier mark looks for it. */
  mark: number;
}

/**
 * How long a spec file's clean-up lets the target's clock run for what it awaits: ten minutes at a time, for at most an
 * hour (how long a clone runs is not shown; the spec files wait as long for one: `CLONE_BUSY_MINUTES`). Without the
 * clock hook, real time: a minute, the list read every ten seconds.
 */
const CLOCK_STEP_S = 10 * 60;
const CLOCK_MOST_S = 60 * 60;
const REAL_MS = 60_000;
const REAL_STEP_MS = 10_000;

/**
 * The first item of a paged list that `match` finds, read outside any check (a clean-up) from both ends within the page
 * cap, as a check's search reads it (`walkPages`); null where the list answers no list (refused, not JSON): nothing can
 * be found by reading it.
 */
async function listedItem(path: string, match: (item: Json) => boolean): Promise<Json | undefined | null> {
  const { http, token, info } = target();
  const get: ListGet = (query) => http.send({ method: 'GET', path, token, ...(query ? { query } : {}), ignoreRunBudget: true });
  let found: Json | undefined;
  const walk = await walkPages((page) => pageOf(get, `${info.baseUrl} ${path}`, page), { done: (items) => (found = items.find(match)) !== undefined });
  return found ?? (walk.refused && walk.pages.size === 0 ? null : undefined);
}

/** The creates of one spec file awaited until listed; `adopt` tracks the id found. */
export class UnlistedCreates {
  private readonly waiting: Unlisted[] = [];

  constructor(
    private readonly adopt: (entry: Unlisted, id: Id) => void,
    private readonly claimed: (kind: ResourceKind, id: unknown) => boolean,
  ) {}

  await(entry: Unlisted): Unlisted {
    this.waiting.push(entry);
    return entry;
  }

  /** An item `entry` may be: it matches, and the file tracks no resource by its id yet (a tag copied to several clones). */
  mine(entry: Unlisted): (item: Json) => boolean {
    return (item) => entry.match(item) && isId(item[entry.idKey]) && !this.claimed(entry.kind, item[entry.idKey]);
  }

  /** `entry` was found as `id`: tracked, no longer awaited. */
  settle(entry: Unlisted, id: Id): void {
    const at = this.waiting.indexOf(entry);
    if (at >= 0) this.waiting.splice(at, 1);
    this.adopt(entry, id);
  }

  /** The labels sent with the creates still awaited: a resource told by a tag alone is none of theirs. */
  labels(): Set<string> {
    return new Set(this.waiting.flatMap((entry) => (entry.label === undefined ? [] : [entry.label])));
  }

  /**
   * Looks for what was awaited since `mark` (all, without one). A check's clean-up (a mark) looks once: what is not
   * listed yet stays awaited. The spec file's end looks at once, then while the target's clock runs (once for all the
   * file awaits), or, without the hook, while a little real time passes; what never shows is then no longer awaited:
   * there is nothing to delete by (a resource made later still carries the run's label prefix, for `sweep`).
   */
  async adoptSince(mark?: number): Promise<void> {
    const due = () => this.waiting.filter((entry) => mark === undefined || entry.mark >= mark);
    const look = async () => {
      for (const entry of due()) {
        const found = await listedItem(entry.list, this.mine(entry));
        if (found) this.settle(entry, found[entry.idKey] as Id);
        // A list that answers no list will not show it later: no longer awaited (nor waited for).
        else if (found === null) this.waiting.splice(this.waiting.indexOf(entry), 1);
      }
    };
    await look();
    if (mark !== undefined) return;
    if (target().control) for (let spent = 0; due().length && spent < CLOCK_MOST_S && (await letClockRun(CLOCK_STEP_S)); spent += CLOCK_STEP_S) await look();
    else
      for (const until = Date.now() + REAL_MS; due().length && Date.now() < until;) {
        await sleep(REAL_STEP_MS);
        await look();
      }
    this.waiting.length = 0;
  }
}
