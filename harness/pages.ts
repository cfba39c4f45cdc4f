// Reading one page of a list the way every helper that walks a list does.
import type { Check } from './check.js';
import type { Exchange } from './http.js';
import { onTarget } from './target-key.js';

/** The lists (by target and path) that refused `page_size=100`, read since at the target's own page size. */
const pageSizeRefused = new Set<string>();

/**
 * One page of a list, 100 items a page where the list takes it: document 1 shows no page_size bounds for its own lists
 * (and notes some as taking no query), so a list refusing it is read again at its default size, page 1 without a query.
 */
export function readPage(c: Check, path: string, page: number, token?: string | null): Promise<Exchange> {
  const as = token !== undefined ? { token } : {};
  return pageOf((query) => c.get(path, { ...(query ? { query } : {}), ...as }), onTarget(c, path), page);
}

/** A GET of one list with a query (or none). */
export type ListGet = (query?: Record<string, number>) => Promise<Exchange>;

/** `readPage` through any GET of the list `list` (its target and path): for a clean-up, which sends outside a check. */
export async function pageOf(get: ListGet, list: string, page: number): Promise<Exchange> {
  if (!pageSizeRefused.has(list)) {
    const exchange = await get({ page, page_size: 100 });
    if (![400, 422].includes(exchange.status)) return exchange;
    pageSizeRefused.add(list);
  }
  return get(page > 1 ? { page } : undefined);
}

/**
 * Page sizes a document-1 list is asked for, in turn: 25 and 100 bound the lists of documents 2 and 3, and a list
 * taking none of 25, 50 and 100 is asked 10, then 1 (its bounds are not shown: it may take no more than 20).
 */
const PAGE_SIZES = [25, 50, 100, 10, 1];

/** The page sizes asked, for a reason given when a list took none of them. */
export const PAGE_SIZES_ASKED = `page_size ${PAGE_SIZES.join(', ')}`;

/** Per target and list: the smallest page size it takes (`smallestPageSize`). */
const smallestSizes = new Map<string, Promise<number | undefined>>();

/**
 * The first of PAGE_SIZES the list at `path` answers page 1 at (2xx), found once per list: the smallest of 25, 50 and
 * 100 it takes, else 10 or 1. Document 1 shows no bounds of page_size for its own lists, so a server may refuse 25, or
 * anything above 20. Undefined when it takes none of them.
 */
export function smallestPageSize(c: Check, path: string): Promise<number | undefined> {
  const list = onTarget(c, path);
  let found = smallestSizes.get(list);
  if (!found) {
    found = (async () => {
      for (const size of PAGE_SIZES) {
        const exchange = await c.get(path, { query: { page: 1, page_size: size } });
        if (exchange.status >= 200 && exchange.status < 300) return size;
      }
      return undefined;
    })();
    smallestSizes.set(list, found);
  }
  return found;
}

/**
 * Whether a list answer shows page `asked` as its page: the number itself, or for page 1 of an empty list (no pages)
 * page 0 as well (which page a list of no pages is on is not shown).
 */
export function showsPage(body: unknown, asked: number): boolean {
  const list = body as { page?: unknown; pages?: unknown; results?: unknown } | undefined;
  return list?.page === asked || (asked === 1 && list?.page === 0 && list.pages === 0 && list.results === 0);
}

/**
 * The page size a document-1 list used for page 1 asked at `asked` that holds `held` items of `pages`: the bounds of its
 * page_size are not shown, so it may read one below its minimum as that minimum (more items than asked show it), or one
 * above its maximum as that maximum (fewer than asked on a first page of several show it).
 */
export const pageSizeUsed = (asked: number, held: number, pages = 1) => (held > asked || (held < asked && pages > 1) ? held : asked);

/** The smallest of PAGE_SIZES a page of `items` items fits in: the next size to ask a list that read a smaller one as larger. */
export const pageSizeHolding = (items: number) => [...PAGE_SIZES].sort((a, b) => a - b).find((size) => size >= items);

type Json = Record<string, unknown>;

/**
 * The most pages a walk of one list reads: a list claiming 10^9 pages (a hostile or broken target) ends there
 * (test/safety/endless-list.test.ts).
 */
export const PAGE_CAP = 50;

/** The pages a list claims on `exchange` (at least 1: a page that shows none is the only one). */
function pagesClaimed(exchange: Exchange): number {
  const pages = Number((exchange.body as { pages?: unknown } | undefined)?.pages);
  return Number.isFinite(pages) && pages > 1 ? Math.min(Math.floor(pages), Number.MAX_SAFE_INTEGER) : 1;
}

const itemsOf = (exchange: Exchange): Json[] | undefined => {
  const data = (exchange.body as { data?: unknown } | undefined)?.data;
  return exchange.status >= 200 && exchange.status < 300 && Array.isArray(data) ? (data as Json[]) : undefined;
};

/** What a walk read: each page's items by page number, the first page's exchange, whether the cap stopped it. */
export interface ListWalk {
  pages: Map<number, Json[]>;
  first: Exchange;
  /** The walk stopped at PAGE_CAP with pages left unread (the list claims `claimed` pages). */
  capped: boolean;
  /** How many pages the first page claimed. */
  claimed: number;
  /** The page that answered no list (refused, not JSON), when one did. */
  refused?: Exchange;
}

/** When a walk of a list stops before its end. */
export interface WalkStops {
  /** The walk stops once this holds for a page's items (a search that found its item), or for all the pages read (`read`). */
  done?: (items: Json[], read: ReadonlyMap<number, Json[]>) => boolean;
  /**
   * The walk stops reading from one end once this holds for a page read from it (a page of items older than any the
   * caller looks for: an end it reads inward from holds older ones still, in the order of time either way).
   */
  endDone?: (items: Json[]) => boolean;
}

/**
 * Reads a list's pages from both ends, at most PAGE_CAP: page 1, then the last page the first claims, then 2, then the
 * one before the last, …, stopping at a page that answers no list or once `done` holds for a page's items (`endDone`:
 * reading on from the other end only). The order of a list's items is not shown, and a new item is first or last in
 * either order: so a search finds it on a list longer than the cap, and a list of up to PAGE_CAP pages is read whole.
 */
export function walkList(c: Check, path: string, token?: string | null, stops: WalkStops = {}): Promise<ListWalk> {
  return walkPages((page) => readPage(c, path, page, token), stops);
}

/** The results a list page claims, when it shows a number. */
const resultsClaimed = (exchange: Exchange): unknown => (exchange.body as { results?: unknown } | undefined)?.results;

/** How many times a walk starts again after a page within the claimed pages answered no list while the list changed. */
const WALK_RESTARTS = 2;

/**
 * `walkList` through any reader of a list's pages (a clean-up's, outside a check). What a page past the last answers is
 * not shown (a 404 is allowed), and other files delete items meanwhile: a page after the first that answers no list is
 * a refusal only when page 1, read again, still claims it with the same results; else the list shrank between the
 * reads and the walk starts again (at most WALK_RESTARTS times; then the refusal is returned).
 */
export async function walkPages(readAt: (page: number) => Promise<Exchange>, stops: WalkStops = {}): Promise<ListWalk> {
  for (let restarts = 0; ; restarts++) {
    const walk = await walkOnce(readAt, stops);
    if (!walk.refused || walk.refusedAt === undefined || walk.refusedAt === 1 || restarts >= WALK_RESTARTS) return withoutPage(walk);
    const again = await readAt(1);
    const steady = itemsOf(again) !== undefined && pagesClaimed(again) >= walk.refusedAt && resultsClaimed(again) === resultsClaimed(walk.first);
    if (steady) return withoutPage(walk);
  }
}

const withoutPage = ({ refusedAt: _refusedAt, ...walk }: ListWalk & { refusedAt?: number }): ListWalk => walk;

async function walkOnce(readAt: (page: number) => Promise<Exchange>, { done, endDone }: WalkStops): Promise<ListWalk & { refusedAt?: number }> {
  const first = await readAt(1);
  const pages = new Map<number, Json[]>();
  const claimed = pagesClaimed(first);
  let [low, high] = [1, claimed];
  const open = { front: true, back: true };
  for (let front = true; ;) {
    const page = front ? low : high;
    const exchange = page === 1 ? first : await readAt(page);
    const items = itemsOf(exchange);
    if (!items) return { pages, first, capped: false, claimed, refused: exchange, refusedAt: page };
    pages.set(page, items);
    if (front) low++;
    else high--;
    if (endDone?.(items)) open[front ? 'front' : 'back'] = false;
    if (done?.(items, pages) || low > high || (!open.front && !open.back)) return { pages, first, capped: false, claimed };
    if (pages.size >= PAGE_CAP) return { pages, first, capped: true, claimed };
    front = open.front && open.back ? !front : open.front;
  }
}

/** The items of the pages read, in the order of their pages. */
export const itemsOfPages = (pages: ReadonlyMap<number, Json[]>): Json[] => [...pages.entries()].sort(([a], [b]) => a - b).flatMap(([, items]) => items);

/** The items a walk read, in the order of their pages. */
export const itemsRead = (walk: ListWalk): Json[] => itemsOfPages(walk.pages);

/**
 * The first item of the list at `path` that `match` finds, searched from both ends within PAGE_CAP pages
 * (`walkList`; `endDone`: a page past which the search reads no further from that end): what the list shows now.
 * `refused`: the page that answered no list, when one did.
 */
export async function findListed(
  c: Check,
  path: string,
  match: (item: Json) => boolean,
  token?: string | null,
  endDone?: WalkStops['endDone'],
): Promise<{ found?: Json; refused?: Exchange }> {
  let found: Json | undefined;
  const walk = await walkList(c, path, token, { done: (items) => (found = items.find(match)) !== undefined, ...(endDone ? { endDone } : {}) });
  return { ...(found ? { found } : {}), ...(walk.refused ? { refused: walk.refused } : {}) };
}
