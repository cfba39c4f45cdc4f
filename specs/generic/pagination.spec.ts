// Paging on every list endpoint that takes page and page_size. Documents 2 and 3 state the bounds and defaults
// (page >= 1 default 1, page_size 25..100 default 100); document 1 states only that its lists accept both.
// Everywhere, a list's pages and results agree with what paging through it returns.
import { describe } from 'vitest';
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import { check, type Check } from '../../harness/check.js';
import { readAfterWrite, untilShortlyDone } from '../../harness/consistency.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { PAGE_SIZES_ASKED, pageSizeUsed, showsPage, smallestPageSize } from '../../harness/pages.js';
import { endpointKey, endpoints, type Endpoint } from '../../rules/endpoints.js';
import { validRequests } from './valid-requests.js';

const fx = useFixtures('pagination');

interface Page {
  data: unknown[];
  page: number;
  pages: number;
  results: number;
}

function pageOf(exchange: Exchange): Page | undefined {
  const body = exchange.body as Partial<Page> | undefined;
  return body && Array.isArray(body.data) && typeof body.page === 'number' && typeof body.pages === 'number' && typeof body.results === 'number'
    ? (body as Page)
    : undefined;
}

/** Whether page `page`, which answered no list, answers none again while page 1 still shows `first`'s results and pages. */
async function refusedOnSteadyList(c: Check, path: string, size: number, page: number, first: Page): Promise<boolean> {
  if (pageOf(await c.get(path, { query: { page, page_size: size } }))) return false;
  const again = pageOf(await c.get(path, { query: { page: 1, page_size: size } }));
  return again !== undefined && again.results === first.results && again.pages >= page;
}

/**
 * More than 25 items in one list of each document with stated bounds (domains; private images), so page sizes and
 * the default of 100 can be told apart. Both are free to create. The file's own, made once: items other files made
 * may all be deleted before a check reads the list (a list then empty showed nothing a walk could find wrong, and a
 * target hiding the items it was given passed).
 */
const FILLERS: Record<string, (c: Check) => Promise<unknown>> = {
  '/v4/domains': (c) => fx.newDomain(c),
  '/v4/images': (c) => fx.newPrivateImage(c),
};

const FILLED = 30;

/**
 * One item of the other lists the suite can make for free: an empty list may show page 0 (which page a list of no pages
 * is on is not shown), where a narrowed run leaves it empty; with one item it shows page 1.
 */
const ONE_ITEM: Record<string, (c: Check) => Promise<unknown>> = {
  '/v4/monitor/clients': (c) => fx.monitorClient(c),
  '/v4/networking/firewalls': (c) => fx.firewall(c),
};

async function fill(c: Check, path: string): Promise<void> {
  const make = FILLERS[path];
  if (make) await fx.shared(`${FILLED} items of ${path}`, () => Promise.all(Array.from({ length: FILLED }, () => make(c))));
  await ONE_ITEM[path]?.(c);
}

/**
 * The tagged-objects list holds what the file tagged: a tag of its own on 51 domains of its own (free, and no other
 * spec file deletes them), so document 2's default page size is told from 25 and from 50 whatever other files' lists
 * hold at the time (its other lists are filled by resources other files make and delete meanwhile, or expire: image
 * uploads).
 */
const TAGGED_DOMAINS = 51;
const TAGS = '/v4/tags/{label}';

function tagOnDomains(c: Check): Promise<{ label: string }> {
  return fx.shared('tag on domains', async () => {
    const domains = (await Promise.all(Array.from({ length: TAGGED_DOMAINS }, () => fx.newDomain(c)))).map((domain) => domain.id);
    const label = fx.label('tag', 50);
    const created = await c.post('/v4/tags', { label, domains });
    if (created.status < 200 || created.status >= 300) throw new SetupError(`could not tag ${TAGGED_DOMAINS} domains: HTTP ${created.status}`);
    fx.track('tag', label, label);
    // When the domains carry the new tag is not shown (tags.spec.ts): its list is read until it holds them while a short time passes.
    const holdsAll = (exchange: Exchange) => (pageOf(exchange)?.results ?? 0) >= TAGGED_DOMAINS;
    await untilShortlyDone(c, () => c.get(`/v4/tags/${encodeURIComponent(label)}`), holdsAll);
    return { label };
  });
}

async function listPath(c: Check, endpoint: Endpoint): Promise<string> {
  if (endpoint.path === TAGS) return `/v4/tags/${encodeURIComponent((await tagOnDomains(c)).label)}`;
  await fill(c, endpoint.path);
  return (await validRequests[endpointKey(endpoint)]!.build(c, fx)).path;
}

const PAGED = endpoints.filter((endpoint) => endpoint.paginated);

describe.each(PAGED.map((endpoint) => [endpointKey(endpoint), endpoint] as const))('%s', (key, endpoint) => {
  const part = endpoint.document.slice(-1);

  const acceptedRule = part === '1' ? 'P1.pagination.accepted' : `P${part}.pagination.page.default-1`;
  check(acceptedRule, 'page and page_size are accepted and the page asked for is returned (page 1 by default)', async (c) => {
    const rule = acceptedRule;
    const path = await listPath(c, endpoint);
    // Document 1 shows no bounds of page_size for its own lists: one of its lists is asked at a size it takes (one that
    // took none of the sizes asked, 1 to 100, is judged on its refusal of 25).
    const size = part === '1' ? ((await smallestPageSize(c, path)) ?? 25) : 25;
    const asked = await c.get(path, { query: { page: 1, page_size: size } });
    c.expectServed(asked);
    c.expectSuccess(rule, asked, `${key}?page=1&page_size=${size}`);
    c.expect(rule, showsPage(pageOf(asked), 1), `page=1 answered page ${String(pageOf(asked)?.page)}`, asked);
    if (part !== '1') {
      const plain = await c.get(path);
      c.expectSuccess(rule, plain, `${key} without page`);
      c.expect(rule, showsPage(pageOf(plain), 1), `without page the answer is page ${String(pageOf(plain)?.page)}, not 1`, plain);
    }
  });

  // A list other checks add to or delete from while it is walked (or that does not add up) is walked again: at the
  // largest page size documents 2 and 3 allow (fewer pages, less room for a change), then once more at 25. Document 1
  // shows no bounds of page_size for its own lists: one is walked at the smallest size it takes (as
  // P1.pagination.accepted asks it), three times.
  check(
    ['P1.pagination.consistent', 'P1.conventions.list.page-is-requested'],
    'pages and results agree with what paging through returns, and each page shows its number',
    async (c) => {
      const path = await listPath(c, endpoint);
      const smallest = part === '1' ? await smallestPageSize(c, path) : 25;
      if (smallest === undefined) return c.skip(`the list answers none of ${PAGE_SIZES_ASKED} (document 1 shows no bounds of its lists)`);
      const walkSizes = part === '1' ? [smallest, smallest, smallest] : [25, 100, 25];
      let doubted = false;
      for (const [attempt, size] of walkSizes.entries()) {
        const first = pageOf(await c.get(path, { query: { page: 1, page_size: size } }));
        if (!first) return c.skip('the list does not answer with an envelope');
        // (document 1 shows no bounds: its lists may read 25 as a larger minimum or a smaller maximum, which page 1 shows)
        const used = part === '1' ? pageSizeUsed(size, first.data.length, first.pages) : size;
        let seen = first.data.length;
        let changed = false;
        for (let page = 2; page <= Math.min(first.pages, 20) && !changed; page++) {
          const next = pageOf(await c.get(path, { query: { page, page_size: size } }));
          // What a page past the last answers is not shown (a 404 is allowed): a page that answers no list is judged
          // only when it does so again while page 1 still claims it with the same results; else the list shrank (walk again).
          if (!next) {
            if (await refusedOnSteadyList(c, path, size, page, first))
              return c.fail('P1.pagination.consistent', `page ${page} of ${first.pages} is not a list, twice`);
            changed = true;
            break;
          }
          changed = next.results !== first.results;
          if (changed) break;
          c.expect(
            'P1.conventions.list.page-is-requested',
            next.page === page,
            `${key}?page=${page}&page_size=${size} (of ${first.pages} pages) shows page ${next.page}`,
          );
          c.expect('P1.pagination.consistent', next.data.length <= used, `page ${page} holds ${next.data.length} items with page_size ${used}`);
          seen += next.data.length;
        }
        if (changed) continue;
        if (first.pages > 20) return;
        const expectedPages = Math.ceil(first.results / used);
        const pagesAgree = first.pages === expectedPages || (first.results === 0 && first.pages <= 1);
        // A create and a delete between two page reads shift the items while results holds: a walk that does not add up
        // is judged once a second one does not either (or it is the last).
        if ((seen !== first.results || !pagesAgree) && !doubted && attempt < walkSizes.length - 1) {
          doubted = true;
          continue;
        }
        c.expect('P1.pagination.consistent', seen === first.results, `paging through gave ${seen} items but results says ${first.results}`);
        c.expect(
          'P1.pagination.consistent',
          pagesAgree,
          `${first.results} results in pages of ${used} make ${expectedPages} pages, but pages says ${first.pages}`,
        );
        return;
      }
      c.skip(`the collection changed while it was paged through, ${walkSizes.length} times (other spec files, or actions still running, change it meanwhile)`);
    },
  );

  if (part === '1') return;
  const P = `P${part}.pagination`;

  check(`${P}.page.min-1`, 'page 0 is refused', async (c) => {
    const path = await listPath(c, endpoint);
    c.expectServed(await c.get(path), `${key} without page`);
    c.expectRejected(`${P}.page.min-1`, await c.get(path, { query: { page: 0 } }), `${key}?page=0`, 'page');
  });

  check(`${P}.page-size.min-25`, 'page_size 24 is refused and 25 accepted', async (c) => {
    const path = await listPath(c, endpoint);
    c.expectRejected(`${P}.page-size.min-25`, await c.get(path, { query: { page_size: 24 } }), `${key}?page_size=24`, 'page_size');
    const accepted = await c.get(path, { query: { page_size: 25 } });
    c.expectServed(accepted);
    c.expectSuccess(`${P}.page-size.min-25`, accepted, `${key}?page_size=25`);
  });

  check(`${P}.page-size.max-100`, 'page_size 101 is refused and 100 accepted', async (c) => {
    const path = await listPath(c, endpoint);
    c.expectRejected(`${P}.page-size.max-100`, await c.get(path, { query: { page_size: 101 } }), `${key}?page_size=101`, 'page_size');
    const accepted = await c.get(path, { query: { page_size: 100 } });
    c.expectServed(accepted);
    c.expectSuccess(`${P}.page-size.max-100`, accepted, `${key}?page_size=100`);
  });

  // 100 told from any other default: a list of more than 100 items, the records of a domain of the check's own (free,
  // deleted with the domain).
  if (key === 'GET /v4/domains/{domainId}/records')
    check(
      [`${P}.page-size.default-100`, 'P1.conventions.list.page-is-requested'],
      'without page_size a list of 101 records shows 100 of them on page 1 of 2; at page_size 25 each page shows its number',
      async (c) => {
        const rule = `${P}.page-size.default-100`;
        const { id } = await fx.newDomain(c);
        const path = `/v4/domains/${id}/records`;
        const count = async () => pageOf(await c.get(path, { query: { page_size: 25 } }))?.results ?? 0;
        for (let made = await count(), i = 0; made < 101; made++, i++) {
          const created = await c.post(path, { type: 'A', name: `p${i}`, target: RECORD_ADDRESS.ipv4 });
          if (created.status < 200 || created.status >= 300) throw new SetupError(`could not create record ${i} of domain ${id}: HTTP ${created.status}`);
        }
        const plain = await readAfterWrite(
          c,
          () => c.get(path),
          (exchange) => (pageOf(exchange)?.results ?? 0) > 100,
        );
        const page = pageOf(plain);
        if (!page || page.results <= 100) throw new SetupError(`domain ${id} lists ${String(page?.results)} records after 101 were created`);
        c.expect(rule, page.data.length === 100, `without page_size the first page holds ${page.data.length} of ${page.results} records (default 100)`, plain);
        c.expect(rule, page.pages === Math.ceil(page.results / 100), `without page_size ${page.results} records make ${page.pages} pages (default 100)`, plain);
        for (let number = 2; number <= Math.ceil(page.results / 25); number++) {
          const asked = await c.get(path, { query: { page: number, page_size: 25 } });
          c.expectSuccess('P1.conventions.list.page-is-requested', asked, `${key}?page=${number}&page_size=25`);
          c.expect(
            'P1.conventions.list.page-is-requested',
            pageOf(asked)?.page === number,
            `${key}?page=${number}&page_size=25 shows page ${String(pageOf(asked)?.page)}`,
            asked,
          );
        }
      },
    );

  check(`${P}.page-size.default-100`, 'without page_size a page holds up to 100 items', async (c) => {
    const plain = await c.get(await listPath(c, endpoint));
    const page = pageOf(plain);
    if (!page || page.results <= 25) return c.skip('needs more than 25 items in the list to tell the default page size');
    c.expect(
      `${P}.page-size.default-100`,
      page.data.length === Math.min(page.results, 100),
      `without page_size the first page holds ${page.data.length} of ${page.results} items (default 100)`,
      plain,
    );
  });
});
