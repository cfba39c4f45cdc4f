// The list envelope of document 1 ("Common conventions" 1) with the bounds of documents 2 and 3:
// `page` integer >= 1 (default 1), `page_size` integer 25..100 (default 100). The same bounds are applied to the
// database and account lists, whose bounds the documents do not show.
import type { RequestContext } from './types.js';
import { fail } from './validate.js';
import { endpointFaulty, type EndpointFaultKind } from './endpoint-faults.js';
import { varied } from '../variations/index.js';

export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

const PAGE_SIZE_MIN = 25;
const PAGE_SIZE_MAX = 100;
const PAGE_SIZE_DEFAULT = 100;

function queryInt(raw: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const bounds = max === Infinity ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  if (!/^\d{1,15}$/.test(raw)) fail(`${name} must be ${bounds}.`, name);
  const n = Number(raw);
  if (n < min || n > max) fail(`${name} must be ${bounds}.`, name);
  return n;
}

/**
 * Reads `page` / `page_size` from the query (400 when out of range) and cuts one page of `items`, shown through `view`
 * (applied to the page only: a long list costs no copy of the items the page leaves out).
 */
export function paginate<T, V = T>(ctx: RequestContext, items: T[], view?: (item: T) => V, { aView = false } = {}): Page<V> {
  // (the core's own tests page bare contexts, without a store)
  const faults = ctx.store?.faults.size > 0;
  const broken = (kind: EndpointFaultKind) => faults && endpointFaulty(ctx.store, ctx.method, ctx.route, kind);
  if (ctx.query['page_size'] !== undefined && broken('page-size-refused')) fail('page_size is not accepted here.', 'page_size');
  const pageRaw = ctx.query['page'] === '0' && broken('page-zero-accepted') ? '1' : ctx.query['page'];
  const page = queryInt(pageRaw, 'page', 1, Infinity, 1);
  // Document 1 shows no bounds for its own lists (databases, account): the variations choose others there.
  const documentOne = ctx.store !== undefined && /^\/v4(beta)?\/(databases|account)\//.test(ctx.route ?? '');
  const anySize = documentOne && varied(ctx.store, 'account-lists-any-page-size');
  const from50 = documentOne && varied(ctx.store, 'account-lists-page-size-min-50');
  const upTo20 = documentOne && varied(ctx.store, 'account-lists-page-size-max-20');
  const sizeMin = broken('page-size-small-accepted') || anySize || upTo20 ? 1 : from50 ? 50 : PAGE_SIZE_MIN;
  const upTo50 = documentOne && varied(ctx.store, 'account-lists-page-size-max-50');
  const sizeMax = broken('page-size-large-accepted') ? Number.MAX_SAFE_INTEGER : anySize ? 500 : upTo20 ? 20 : upTo50 ? 50 : PAGE_SIZE_MAX;
  const sizeDefault =
    broken('page-size-default-25') || (documentOne && varied(ctx.store, 'account-lists-25-per-page'))
      ? 25
      : upTo20
        ? 20
        : broken('page-size-default-50') || upTo50
          ? 50
          : PAGE_SIZE_DEFAULT;
  const clampedTo50 = documentOne && varied(ctx.store, 'account-lists-page-size-clamped');
  const cappedAt20 = documentOne && varied(ctx.store, 'account-lists-page-size-capped-20');
  const asked = cappedAt20
    ? queryInt(ctx.query['page_size'], 'page_size', 1, Number.MAX_SAFE_INTEGER, 20)
    : queryInt(ctx.query['page_size'], 'page_size', clampedTo50 ? 1 : sizeMin, sizeMax, sizeDefault);
  const pageSize = Math.min(clampedTo50 ? Math.max(asked, 50) : asked, cappedAt20 ? 20 : sizeMax);
  const results = items.length;
  // (a view that accepts page and page_size has no pages to be past)
  if (!aView && ctx.store !== undefined && page > Math.max(1, Math.ceil(results / pageSize)) && varied(ctx.store, 'page-past-last-refused'))
    fail(`page ${page} is past the last page (${Math.max(1, Math.ceil(results / pageSize))}).`, 'page', 404);
  const start = (page - 1) * pageSize;
  const envelope: Page<V> = {
    data: start < results ? (view ? items.slice(start, start + pageSize).map(view) : (items.slice(start, start + pageSize) as unknown as V[])) : [],
    page: ctx.query['page'] === undefined && broken('page-default-zero') ? 0 : broken('page-echo-first') ? 1 : page,
    pages: broken('list-pages-floor-plus-one')
      ? Math.floor(results / pageSize) + 1
      : Math.max(1, (broken('list-pages-floor') ? Math.floor : Math.ceil)(results / pageSize)) + (broken('pages-one-too-many') ? 1 : 0),
    results: broken('list-results-capped') ? Math.min(results, pageSize) : results,
  };
  if (results === 0 && page === 1 && ctx.store !== undefined && varied(ctx.store, 'empty-list-page-zero')) Object.assign(envelope, { page: 0, pages: 0 });
  return faults ? (misshapen(envelope, broken) as Page<V>) : envelope;
}

/** The list envelope as the faults of the envelope rules show it. */
function misshapen<T>(envelope: Page<T>, broken: (kind: EndpointFaultKind) => boolean): unknown {
  if (broken('list-bare-array')) return envelope.data;
  const out: Record<string, unknown> = { ...envelope };
  if (broken('list-data-object')) out['data'] = Object.fromEntries(envelope.data.map((item, i) => [String(i), item]));
  if (broken('list-page-string')) out['page'] = String(envelope.page);
  if (broken('list-pages-missing')) delete out['pages'];
  if (broken('list-results-missing')) delete out['results'];
  return out;
}
