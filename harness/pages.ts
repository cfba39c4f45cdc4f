// Reading one page of a list the way every helper that walks a list does.
import type { Check } from './check.js';
import type { Exchange } from './http.js';

/** The lists (by target and path) that refused `page_size=100`, read since at the target's own page size. */
const pageSizeRefused = new Set<string>();

/**
 * One page of a list, 100 items a page where the list takes it: document 1 shows no page_size bounds for its own lists
 * (and notes some as taking no query), so a list refusing it is read again at its default size, page 1 without a query.
 */
export async function readPage(c: Check, path: string, page: number, token?: string | null): Promise<Exchange> {
  const as = token !== undefined ? { token } : {};
  const list = `${c.target.info.baseUrl} ${path}`;
  if (!pageSizeRefused.has(list)) {
    const exchange = await c.get(path, { query: { page, page_size: 100 }, ...as });
    if (![400, 422].includes(exchange.status)) return exchange;
    pageSizeRefused.add(list);
  }
  return c.get(path, { ...(page > 1 ? { query: { page } } : {}), ...as });
}

/** Page sizes a document-1 list is asked for, smallest first: 25 and 100 bound the lists of documents 2 and 3. */
const PAGE_SIZES = [25, 50, 100];

/** Per target and list: the smallest page size it takes (`smallestPageSize`). */
const smallestSizes = new Map<string, Promise<number | undefined>>();

/**
 * The smallest of PAGE_SIZES the list at `path` answers page 1 at (2xx), found once per list: document 1 shows no
 * bounds of page_size for its own lists, so a server may refuse 25. Undefined when it takes none of them.
 */
export function smallestPageSize(c: Check, path: string): Promise<number | undefined> {
  const list = `${c.target.info.baseUrl} ${path}`;
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
 * The page size a document-1 list used for a page asked at `asked` that holds `held` items: the bounds of its
 * page_size are not shown, so it may read one below its minimum as that minimum (more items than asked show it).
 */
export const pageSizeUsed = (asked: number, held: number) => Math.max(asked, held);

/** The smallest of PAGE_SIZES a page of `items` items fits in: the next size to ask a list that read a smaller one as larger. */
export const pageSizeHolding = (items: number) => PAGE_SIZES.find((size) => size >= items);
