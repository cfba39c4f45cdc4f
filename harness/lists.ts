// Small helpers the scenario specs share: reading whole lists, times as the API writes them, the target's present.
import type { Check } from './check.js';
import { readAfterWrite } from './consistency.js';
import { SetupError } from './fixtures.js';
import type { Exchange } from './http.js';
import { itemsOfPages, itemsRead, PAGE_CAP, walkList, type WalkStops } from './pages.js';
import { timeOf } from './date-times.js';

type Json = Record<string, unknown>;

/** Depth-first search of a response whose shape is not shown, for an object matching `match`. */
export function deepFind(value: unknown, match: (item: Json) => boolean): Json | undefined {
  if (!value || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && match(value as Json)) return value as Json;
  for (const child of Object.values(value)) {
    const found = deepFind(child, match);
    if (found) return found;
  }
  return undefined;
}

export const succeeded = (exchange: Exchange): boolean => exchange.status >= 200 && exchange.status < 300;

export interface ListOptions {
  token?: string | null;
  /**
   * What the list should show after a write (a new item in it, a deleted one gone): the list is read again within
   * the consistency window until it does.
   */
  until?: (items: Json[]) => boolean;
  /**
   * A list of more than PAGE_CAP pages is read from both ends (`walkList`: its first and last pages, within the cap)
   * and its items returned as read: for a caller that judges each item it reads, or looks for a new one (first or
   * last in either order). Without it such a list leaves the check nothing to judge (`skip`, with the reason): the
   * items read are not the whole list, and an item missing from them may be in the pages left unread.
   */
  ends?: boolean;
  /**
   * `until` holds of the whole list once it holds of the pages read so far (an item shown, a count reached): the walk
   * stops as soon as it does.
   */
  untilFromPart?: true;
  /** A page after which the walk reads no further from that end (`WalkStops`). */
  endDone?: WalkStops['endDone'];
}

/** Every item of a paged list (in the order of its pages), and the first page's exchange; stops at a page that is not a list. */
export async function listPages(c: Check, path: string, options: ListOptions = {}): Promise<{ items: Json[]; first: Exchange }> {
  const { until } = options;
  if (!until) return readWholeList(c, path, options);
  return readAfterWrite(
    c,
    () => readWholeList(c, path, options),
    ({ items, first }) => succeeded(first) && until(items),
  );
}

async function readWholeList(c: Check, path: string, { token, ends, until, untilFromPart, endDone }: ListOptions): Promise<{ items: Json[]; first: Exchange }> {
  const done = until && untilFromPart ? (_items: Json[], read: ReadonlyMap<number, Json[]>) => until(itemsOfPages(read)) : undefined;
  const walk = await walkList(c, path, token, { ...(done ? { done } : {}), ...(endDone ? { endDone } : {}) });
  if (walk.capped && !ends)
    c.skip(`${path} claims ${walk.claimed} pages, more than the ${PAGE_CAP} a walk of one list reads: the items read are not the whole list`);
  return { items: itemsRead(walk), first: walk.first };
}

/** Every item of a paged list; a list that is not served leaves the check nothing to judge (`skip`), one that cannot be read otherwise is a setup error. */
export async function listItems(c: Check, path: string, token?: string | null, options: Omit<ListOptions, 'token'> = {}): Promise<Json[]> {
  const { items, first } = await listPages(c, path, { ...options, ...(token !== undefined ? { token } : {}) });
  c.expectServed(first, `GET ${path}`);
  if (!succeeded(first)) throw new SetupError(`could not list ${path}: HTTP ${first.status}`);
  return items;
}

export { timeOf };

/** The year and month (UTC) of a date-time of the API. */
export function monthOf(value: unknown): { year: number; month: number } | undefined {
  const time = timeOf(value);
  if (time === undefined) return undefined;
  const date = new Date(time);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

/** A date-time in a combined format: to the minute or the second, a fraction of a second, a zone, or none of them. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;
/** A date-time as the documents' samples write one. */
const SAMPLE_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/**
 * `value` with every date-time written as the documents' samples write one (UTC, no zone, whole seconds): a target may
 * show `…Z`, milliseconds or no seconds (the documents allow each) yet needs only accept the samples' form in a request.
 */
export function inSampleForm(value: unknown): unknown {
  if (typeof value === 'string' && DATE_TIME.test(value) && !SAMPLE_DATE_TIME.test(value)) return new Date(timeOf(value)!).toISOString().slice(0, 19);
  if (Array.isArray(value)) return value.map(inSampleForm);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, inSampleForm(member)]));
  return value;
}

/** The target's present: its simulated clock when the control hooks are at the base URL, else the wall clock less a minute of skew. */
export async function presentOf(c: Check): Promise<number> {
  if (c.target.control && c.target.info.controlUrl === c.target.info.baseUrl) {
    const now = timeOf(((await c.get('/__control', { token: null })).body as Json | undefined)?.now);
    if (now !== undefined) return now;
  }
  return Date.now() - 60_000;
}
