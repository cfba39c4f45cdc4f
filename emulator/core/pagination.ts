// The list envelope of document 1 ("Common conventions" 1) with the bounds of documents 2 and 3:
// `page` integer >= 1 (default 1), `page_size` integer 25..100 (default 100). The same bounds are applied to the
// database and account lists, whose bounds the documents do not show.
import type { RequestContext } from './types.js';
import { fail } from './validate.js';

export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

export const PAGE_SIZE_MIN = 25;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 100;

function queryInt(raw: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const bounds = max === Infinity ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  if (!/^\d{1,15}$/.test(raw)) fail(`${name} must be ${bounds}.`, name);
  const n = Number(raw);
  if (n < min || n > max) fail(`${name} must be ${bounds}.`, name);
  return n;
}

/** Reads `page` / `page_size` from the query (400 when out of range) and cuts one page of `items`. */
export function paginate<T>(ctx: RequestContext, items: T[]): Page<T> {
  const page = queryInt(ctx.query['page'], 'page', 1, Infinity, 1);
  const pageSize = queryInt(ctx.query['page_size'], 'page_size', PAGE_SIZE_MIN, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT);
  const results = items.length;
  const start = (page - 1) * pageSize;
  return {
    data: start < results ? items.slice(start, start + pageSize) : [],
    page,
    pages: Math.max(1, Math.ceil(results / pageSize)),
    results,
  };
}
