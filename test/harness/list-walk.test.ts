// The walk of one list every list helper shares (harness/pages.ts `walkList`): a search reads a list from both ends
// within PAGE_CAP pages (a new item is first or last in either order, on a list of any length), a list of up to
// PAGE_CAP pages is read whole, and a list longer than the cap is never taken for the whole list.
import { afterEach, describe, expect, it } from 'vitest';
import { Check, SkipCheck } from '../../harness/check.js';
import { defaults } from '../../harness/config.js';
import { listItems, listPages } from '../../harness/lists.js';
import { findListed, PAGE_CAP } from '../../harness/pages.js';
import { Target } from '../../harness/target.js';
import { publicOf } from '../../specs/part3/ip-addresses-support.js';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A target whose list at /v4/things holds `pages` pages of one item each (the item's id is its page). */
const listOf = (pages: number): Promise<Check> => answering((page) => [200, { data: page <= pages ? [{ id: page }] : [], page, pages, results: pages }]);

/** A target answering page `page` of the list (or the resource) at `path` with `answer(page, path)`'s status and body. */
async function answering(answer: (page: number, path: string) => [number, unknown]): Promise<Check> {
  server = await startFakeServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const [status, body] = answer(Number(url.searchParams.get('page') ?? 1), url.pathname);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  const on = new Target({ config: { ...defaults(), timeoutMs: 2000 }, baseUrl: server.url, token: 'list-walk-token-01', controlUrl: null, embedded: false });
  return new Check(['P1.account.serves.get-account'], on, 60_000);
}

const pagesRead = () => server!.seen.map((seen) => Number(new URL(seen.path, 'http://x').searchParams.get('page')));

describe('a walk of one list', () => {
  it('finds an item on the last page of a list claiming 10^9 pages with its second read', async () => {
    const c = await listOf(1e9);
    expect((await findListed(c, '/v4/things', (item) => item.id === 1e9)).found).toEqual({ id: 1e9 });
    expect(pagesRead()).toEqual([1, 1e9]);
  });

  it(`reads such a list from both ends, at most ${PAGE_CAP} pages, when nothing matches`, async () => {
    const c = await listOf(1e9);
    expect((await findListed(c, '/v4/things', () => false)).found).toBeUndefined();
    expect(pagesRead()).toHaveLength(PAGE_CAP);
    expect(pagesRead().slice(0, 6)).toEqual([1, 1e9, 2, 1e9 - 1, 3, 1e9 - 2]);
  });

  it(`reads a list of ${PAGE_CAP} pages whole, its items in the order of their pages`, async () => {
    const c = await listOf(PAGE_CAP);
    const { items } = await listPages(c, '/v4/things');
    expect(items.map((item) => item.id)).toEqual(Array.from({ length: PAGE_CAP }, (_, i) => i + 1));
  });

  it('skips a check that would take a longer list for the whole list, with the reason', async () => {
    const c = await listOf(53);
    await expect(listItems(c, '/v4/things')).rejects.toThrow(SkipCheck);
    await expect(listItems(c, '/v4/things')).rejects.toThrow(/claims 53 pages, more than the 50 a walk of one list reads/);
  });

  it('gives a caller judging each item it reads the two ends of a longer list (`ends`)', async () => {
    const c = await listOf(53);
    const { items } = await listPages(c, '/v4/things', { ends: true });
    const ids = items.map((item) => item.id as number);
    expect(ids).toHaveLength(PAGE_CAP);
    expect(ids.slice(0, 3)).toEqual([1, 2, 3]);
    expect(ids.slice(-3)).toEqual([51, 52, 53]);
    expect(ids).not.toContain(27);
  });

  it('stops reading from an end at a page `endDone` holds for, and from the other end at such a page too', async () => {
    // Newest first: pages 1 and 2 hold items made after what is searched for, pages 3 to 20 items made before.
    const c = await answering((page) => [200, { data: [{ id: page, old: page >= 3 }], page, pages: 20, results: 20 }]);
    const olderThanSought = (items: Array<Record<string, unknown>>) => items.every((item) => item.old === true);
    expect(await findListed(c, '/v4/things', () => false, undefined, olderThanSought)).toEqual({});
    expect(pagesRead()).toEqual([1, 20, 2, 3]);
    server!.seen.length = 0;
    expect(await listItems(c, '/v4/things', undefined, { endDone: () => true })).toEqual([
      { id: 1, old: false },
      { id: 20, old: true },
    ]);
    expect(pagesRead()).toEqual([1, 20]);
  });

  it('stops once the pages read show what `until` waits for, where it holds of a part as of the whole (`untilFromPart`)', async () => {
    const c = await listOf(20);
    const shown = (items: Array<Record<string, unknown>>) => items.some((item) => item.id === 2);
    expect((await listItems(c, '/v4/things', undefined, { until: shown, untilFromPart: true })).map((item) => item.id)).toEqual([1, 2, 20]);
    expect(pagesRead()).toEqual([1, 20, 2]);
    server!.seen.length = 0;
    expect(await listItems(c, '/v4/things', undefined, { until: shown })).toHaveLength(20);
    expect(pagesRead()).toHaveLength(20);
  });

  it('walks again when a page within the claimed pages is refused while the list shrank (a page past the last may be refused)', async () => {
    // Two items, one a page; one is deleted right after page 1 is first read: page 2 is past the last by then.
    let firstReads = 0;
    const c = await answering((page) => {
      const pages = page === 1 && firstReads++ === 0 ? 2 : 1;
      return page > 1
        ? [404, { errors: [{ reason: 'page is past the last page', field: 'page' }] }]
        : [200, { data: [{ id: 1 }], page, pages, results: pages }];
    });
    expect(await findListed(c, '/v4/things', () => false)).toEqual({});
    expect(pagesRead()).toEqual([1, 2, 1, 1]);
  });

  it("finds an instance's public address that moved to a page already read while the IP list was walked (walked once more)", async () => {
    // Instance 7 shows a private and a public address. While the first walk reads page 2, an address before the
    // public one is deleted: it moved to page 1, read already. The second walk finds it.
    let walks = 0;
    const c = await answering((page, path) => {
      if (path === '/v4/compute/instances/7') return [200, { id: 7, ipv4: ['192.168.128.1', '45.33.0.67'] }];
      if (page === 1) walks++;
      const data = walks === 1 ? [{ address: page === 1 ? '45.33.0.2' : '45.33.0.68' }] : [{ address: '45.33.0.67' }, { address: '45.33.0.68' }];
      return [200, { data, page, pages: walks === 1 ? 2 : 1, results: 2 }];
    });
    expect(await publicOf(c, 7)).toBe('45.33.0.67');
    expect(walks).toBe(2);
  });

  it('returns a refusal of a page the list still claims, with the same results, when read again', async () => {
    const c = await answering((page) => (page === 3 ? [404, { errors: [{ reason: 'no' }] }] : [200, { data: [{ id: page }], page, pages: 3, results: 3 }]));
    expect((await findListed(c, '/v4/things', () => false)).refused?.status).toBe(404);
    expect(pagesRead()).toEqual([1, 3, 1]);
  });
});
