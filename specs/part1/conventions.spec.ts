// Document 1, "Common conventions", "Errors" and "Versioning": the list envelope walked page by page (results is
// the total, pages the number of pages, page the page requested), failed preconditions answered with an error
// body, no server error for requests that are merely odd, and the /v4 version segment.
//
// Lists change while they are walked (other spec files create and delete things in parallel): a walk is judged
// only when every page reported the same `results`, and a walk that does not add up is tried again before failing.
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import { readAfterWrite, untilSeen } from '../../harness/consistency.js';
import { SetupError, STRONG_PASSWORD, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { brokenRule, unservedRule } from '../../harness/judge.js';
import { PAGE_SIZES_ASKED, pageSizeHolding, pageSizeUsed, readPage, showsPage, smallestPageSize } from '../../harness/pages.js';
import { windowWith } from './databases-support.js';
import { restrictedUser } from './restricted-users.js';
import type { PrincipalSpec } from '../../harness/control-hooks.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part1-conventions');

const DB = '/v4/databases/mysql/instances';
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

interface ListSpec {
  /** How the list is reached. */
  path: (c: Check) => Promise<string>;
  /** The endpoint table lists page and page_size for it (else "none": only `page` is sent, and only past page 1). */
  paged: boolean;
}

const LISTS: Record<string, ListSpec> = {
  'GET /v4/databases/engines': { path: async () => '/v4/databases/engines', paged: true },
  'GET /v4/databases/instances': { path: async () => '/v4/databases/instances', paged: true },
  'GET /v4/databases/mysql/instances': { path: async () => DB, paged: false },
  'GET /v4/databases/mysql/instances/{instanceId}/backups': { path: async (c) => `${DB}/${(await fx.activeDatabase(c)).id}/backups`, paged: false },
  'GET /v4/databases/types': { path: async () => '/v4/databases/types', paged: true },
  'GET /v4/account/entity-transfers': { path: async () => '/v4/account/entity-transfers', paged: true },
  'GET /v4/account/events': { path: async () => '/v4/account/events', paged: true },
  'GET /v4/account/invoices': { path: async () => '/v4/account/invoices', paged: true },
  'GET /v4/account/invoices/{invoiceId}/items': { path: async (c) => `/v4/account/invoices/${await fx.firstId(c, '/v4/account/invoices')}/items`, paged: true },
  'GET /v4/account/logins': { path: async () => '/v4/account/logins', paged: false },
  'GET /v4beta/account/maintenance': { path: async () => '/v4beta/account/maintenance', paged: false },
  'GET /v4/account/notifications': { path: async () => '/v4/account/notifications', paged: false },
  'GET /v4/account/oauth-clients': { path: async () => '/v4/account/oauth-clients', paged: true },
};

/** Creates firewalls (each records a firewall_create event: document 1, "Events") until the events list holds `least`. */
async function fillEvents(c: Check, path: string, least: number): Promise<void> {
  const count = async () => (((await readPage(c, path, 1)).body as Json | undefined)?.results as number | undefined) ?? 0;
  const have = await count();
  for (let made = have; made < least; made++) await fx.newFirewall(c);
  if (have < least) await readAfterWrite(c, count, (results) => results >= least);
}

/** Pages a walk reads at most: a longer list is walked in part, and its `results` not counted. */
const MAX_PAGES_WALKED = 50;

interface Walk {
  /** `results` was the same on every page (the list did not change during the walk). */
  steady: boolean;
  /** The list has more than MAX_PAGES_WALKED pages: `items` counts only the pages read. */
  partial: boolean;
  results: number;
  pages: number;
  items: number;
  /** Pages within 1..pages that held no item although results > 0. */
  emptyPages: number[];
  /** Items on page pages + 1 (0 when it was empty, refused, or answered as another page). */
  beyond: number;
  exchanges: Exchange[];
}

/** Walks pages 1..pages of a list (at `pageSize` when given, as `token`'s user when given), then asks for page pages + 1. */
async function walk(c: Check, path: string, spec: ListSpec, pageSize?: number, token?: string): Promise<Walk> {
  const query = (page: number) => ({ ...(spec.paged || page > 1 ? { page } : {}), ...(pageSize ? { page_size: pageSize } : {}) });
  const get = (page: number) => c.get(path, { query: query(page), ...(token ? { token } : {}) });
  const first = await get(1);
  c.expectServed(first);
  const envelope = first.body as { data?: unknown[]; page?: unknown; pages?: unknown; results?: unknown } | undefined;
  if (!ok(first) || !Array.isArray(envelope?.data) || typeof envelope.pages !== 'number' || typeof envelope.results !== 'number') {
    throw new SetupError(`GET ${path} is not a list envelope: ${describeExchange(first)}`);
  }
  const out: Walk = {
    steady: true,
    partial: envelope.pages > MAX_PAGES_WALKED,
    results: envelope.results,
    pages: envelope.pages,
    items: envelope.data.length,
    emptyPages: [],
    beyond: 0,
    exchanges: [first],
  };
  if (envelope.results > 0 && !envelope.data.length) out.emptyPages.push(1);
  for (let page = 2; page <= Math.min(envelope.pages, MAX_PAGES_WALKED); page++) {
    const next = await get(page);
    out.exchanges.push(next);
    const body = next.body as { data?: unknown[]; results?: unknown } | undefined;
    if (body?.results !== out.results) out.steady = false;
    const count = Array.isArray(body?.data) ? body.data.length : 0;
    if (!count && out.results > 0) out.emptyPages.push(page);
    out.items += count;
  }
  const beyond = await get(envelope.pages + 1);
  out.exchanges.push(beyond);
  const body = beyond.body as { data?: unknown[]; page?: unknown; results?: unknown } | undefined;
  // Page bounds are not shown for these lists: an answer that says it is another page (a truthful "page 1 of 1" for
  // a page past the last, or a list that takes no page parameter) is no evidence that page pages + 1 holds items.
  if (ok(beyond) && body?.page === envelope.pages + 1) {
    if (body?.results !== out.results) out.steady = false;
    out.beyond = Array.isArray(body?.data) ? body.data.length : 0;
  }
  return out;
}

/** Walks until the list holds still during a walk (three tries), then judges results and pages; the walk judged. */
async function judgeWalk(c: Check, key: string, path: string, spec: ListSpec, pageSize?: number, token?: string): Promise<Walk> {
  const at = pageSize ? ` at page_size ${pageSize}` : '';
  let last: Walk | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    last = await walk(c, path, spec, pageSize, token);
    if (last.steady && (last.partial || last.items === last.results) && !last.emptyPages.length && !last.beyond) break;
  }
  const w = last!;
  if (!w.steady) c.skip(`${key} kept changing while it was walked (other spec files create and delete in parallel)`);
  const partly = () => c.skip(`${key}${at} has ${w.pages} pages: the suite walks at most ${MAX_PAGES_WALKED}, so it does not count its ${w.results} results`);
  if (w.partial && !w.emptyPages.length && !w.beyond) partly();
  if (!w.emptyPages.length && !w.beyond && w.items === w.results) return w;
  c.expect(
    'P1.conventions.list.pages-total',
    !w.beyond,
    `${key}${at}: pages is ${w.pages} but page ${w.pages + 1} still holds ${w.beyond} items`,
    w.exchanges.at(-1),
  );
  c.expect(
    'P1.conventions.list.pages-total',
    !w.emptyPages.length,
    `${key}${at}: pages is ${w.pages} but page(s) ${w.emptyPages.join(', ')} hold no item of the ${w.results} results`,
    w.exchanges[(w.emptyPages[0] ?? 1) - 1],
  );
  if (w.partial) partly();
  c.fail('P1.conventions.list.results-total', `${key}${at}: walking all ${w.pages} pages yields ${w.items} items but results is ${w.results}`, w.exchanges[0]);
}

/** The rules of the list envelope's shape: the named checks judge every list response against them. */
const ENVELOPE_RULES = [
  'P1.conventions.list.object',
  'P1.conventions.list.data',
  'P1.conventions.list.page',
  'P1.conventions.list.pages',
  'P1.conventions.list.results',
];

describe('Common conventions: list envelope', () => {
  check(ENVELOPE_RULES, 'every list of document 1 answers with the envelope data, page, pages, results', async (c) => {
    let judged = 0;
    for (const [key, spec] of Object.entries(LISTS)) {
      const path = await spec.path(c);
      const exchange = spec.paged ? await readPage(c, path, 1) : await c.get(path);
      // A list that is not served has no envelope to judge: its own `serves` rule reports it.
      if (unservedRule(exchange)) continue;
      judged += 1;
      c.expectSuccess('P1.conventions.list.object', exchange, `${key}`);
      // the named checks judge the envelope against the documents; its first broken rule fails this check
      const broken = brokenRule(c.record.findings, ENVELOPE_RULES);
      if (broken) c.fail(broken.rule, `${broken.request} ${broken.path}: ${broken.message}`, exchange);
    }
    if (!judged) c.skip('no list of document 1 is served (404 or 405): their own `serves` rules report it');
  });

  for (const [key, spec] of Object.entries(LISTS)) {
    check(
      ['P1.conventions.list.results-total', 'P1.conventions.list.pages-total'],
      `${key}: walking every page yields results items on pages pages`,
      async (c) => {
        await judgeWalk(c, key, await spec.path(c), spec);
      },
    );

    // Document 1 shows no default page for its own lists: that none asked for is page 1 is inferred.
    check('P1.conventions.list.page-default-1', `${key}: without page the list answers page 1`, async (c) => {
      const path = await spec.path(c);
      const plain = await c.get(path);
      c.expectServed(plain);
      c.expect(
        'P1.conventions.list.page-default-1',
        showsPage(plain.body, 1),
        `GET ${path} without page shows page ${JSON.stringify((plain.body as Json | undefined)?.page)}`,
        plain,
      );
    });

    // A list that takes page: every page asked for within 1..pages is the page shown, at the smallest page size the
    // list takes (`smallestPageSize`). The events list is given a second page when it has none (firewall_create events).
    if (spec.paged)
      check('P1.conventions.list.page-is-requested', `${key}: page is the page requested, on every page at its smallest page size`, async (c) => {
        const rule = 'P1.conventions.list.page-is-requested';
        const path = await spec.path(c);
        const size = await smallestPageSize(c, path);
        // no page size taken: P1.pagination.accepted judges it (this rule is about the page shown)
        if (size === undefined) return c.skip(`GET ${path} took none of ${PAGE_SIZES_ASKED}`);
        if (key === 'GET /v4/account/events') await fillEvents(c, path, size + 1);
        const pagesOf = (exchange: Exchange) => (exchange.body as Json | undefined)?.pages;
        const first = await c.get(path, { query: { page: 1, page_size: size } });
        c.expectServed(first);
        if (!ok(first)) c.skip(`GET ${path}?page=1&page_size=${size} was refused: ${describeExchange(first)}`);
        c.expect(
          rule,
          showsPage(first.body, 1),
          `GET ${path}?page=1&page_size=${size} shows page ${JSON.stringify((first.body as Json | undefined)?.page)}`,
          first,
        );
        const pages = pagesOf(first);
        for (let page = 2; typeof pages === 'number' && page <= Math.min(pages, 3); page++) {
          const got = await c.get(path, { query: { page, page_size: size } });
          // a page refused (P1.conventions.list.pages-total), or gone since the list shrank meanwhile, shows no number to judge
          if (!ok(got) || (typeof pagesOf(got) === 'number' && (pagesOf(got) as number) < page)) continue;
          c.expect(
            rule,
            (got.body as Json | undefined)?.page === page,
            `GET ${path}?page=${page}&page_size=${size} shows page ${JSON.stringify((got.body as Json | undefined)?.page)}`,
            got,
          );
        }
      });
  }

  // "which events appear depends on the caller's grants", maintenance "for entities the caller may view" (document 1,
  // "Account"): the envelope counts what the caller is shown, not what a grant filter run after the page is cut
  // leaves. Restricted users of the check's own (no grants; read_write on its own firewall) are shown lists no other
  // file changes, so their walks hold still.
  check(
    ['P1.conventions.list.results-total', 'P1.conventions.list.pages-total'],
    'the events and maintenance lists of a restricted user: walking every page yields results items on pages pages',
    async (c) => {
      const firewall = await fx.newFirewall(c);
      const users: Array<[string, NonNullable<PrincipalSpec['grants']>]> = [
        ['a restricted user without grants', {}],
        [`a restricted user with read_write on firewall ${firewall.id}`, { entities: { firewall: { [String(firewall.id)]: 'read_write' } } }],
      ];
      for (const [who, grants] of users) {
        const token = await restrictedUser(c, grants, fx.label('ru', 30));
        for (const key of ['GET /v4/account/events', 'GET /v4beta/account/maintenance'])
          await judgeWalk(c, `${key} seen by ${who}`, await LISTS[key]!.path(c), LISTS[key]!, undefined, token);
      }
    },
  );

  check(
    ['P1.conventions.list.results-total', 'P1.conventions.list.pages-total', 'P1.conventions.list.page-is-requested'],
    'a list of several pages (one OAuth client more than its smallest page size, then a multiple of it) adds up',
    async (c) => {
      const path = '/v4/account/oauth-clients';
      let size = await smallestPageSize(c, path);
      if (size === undefined) throw new SetupError(`GET ${path} took none of ${PAGE_SIZES_ASKED}`);
      const pagesOf = (exchange: Exchange) => (exchange.body as Json | undefined)?.pages as number;
      const resultsOf = (exchange: Exchange) => (exchange.body as Json | undefined)?.results as number;
      /** Makes `count` clients of its own, and reads page 1 at `size` until it counts `least` results (or the window has passed). */
      const make = async (count: number, least: number) => {
        const views: string[] = [];
        for (let made = 0; made < count; made++) {
          const label = fx.label('pg', 512);
          const created = await c.post(path, { label, redirect_uri: 'https://example.com/oauth/callback' });
          if (!ok(created)) throw new SetupError(`could not create an OAuth client: ${describeExchange(created)}`);
          await fx.adopt(c, created, { kind: 'oauth-client', list: path, match: (item) => item.label === label });
          const id = (created.body as Json | undefined)?.id;
          if (typeof id === 'string' || typeof id === 'number') views.push(`${path}/${encodeURIComponent(id)}`);
        }
        // The pages are read once every client made shows: while a replica still lags some of the creates, a page
        // holds fewer, and a walk sees the list change from page to page (skipped as changing).
        await untilSeen(c, views);
        // Page 1 read until it shows them too (a replica may answer a read it answered just before with the list as it
        // was, before the creates: seen as the page size honoured, and a second page asked of a list that has one).
        const asked = size!;
        return readAfterWrite(
          c,
          () => c.get(path, { query: { page: 1, page_size: asked } }),
          (exchange) => {
            const body = exchange.body as Json | undefined;
            return (Array.isArray(body?.data) && body.data.length > asked) || resultsOf(exchange) >= least;
          },
        );
      };
      // size + 1 of its own: the clients other spec files have now may be deleted before the pages are read.
      for (let made = 0; ;) {
        const firstPage = await make(size + 1 - made, size + 1);
        made = size + 1;
        const held = (firstPage.body as Json | undefined)?.data;
        if (!Array.isArray(held) || pageSizeUsed(size, held.length) === size) break;
        // The list read this page_size as a larger one (its bounds are not shown): the next size that holds what it showed.
        const larger = pageSizeHolding(held.length);
        if (larger === undefined) return c.skip(`GET ${path}?page_size=${size} shows ${held.length} clients: more than any page size the suite asks for`);
        size = larger;
      }
      let walked = await judgeWalk(c, `GET ${path}`, path, LISTS[`GET ${path}`]!, size);
      const second = await readAfterWrite(
        c,
        () => c.get(path, { query: { page: 2, page_size: size } }),
        (exchange) => pagesOf(exchange) >= 2,
      );
      c.expect(
        'P1.conventions.list.page-is-requested',
        (second.body as Json | undefined)?.page === 2,
        `GET ${path}?page=2&page_size=${size} shows page ${JSON.stringify((second.body as Json | undefined)?.page)}`,
        second,
      );
      c.expect(
        'P1.conventions.list.pages-total',
        pagesOf(second) >= 2,
        `${size + 1} or more OAuth clients at page_size ${size} make ${JSON.stringify(pagesOf(second))} page(s)`,
        second,
      );
      // Then topped up to a multiple of the page size: a server counting full pages plus one is right on every other
      // count. Other files change the list meanwhile: topped up again while a walk counts no multiple (three tries).
      for (let attempt = 0; attempt < 3 && walked.results % size; attempt++) {
        const missing = size - (walked.results % size);
        await make(missing, walked.results + missing);
        walked = await judgeWalk(c, `GET ${path}`, path, LISTS[`GET ${path}`]!, size);
      }
    },
  );
});

// ------------------------------------------------------------------ errors

/** A rejection carrying a documented error body: errors, a non-empty array of objects each with a reason. */
function expectErrorResponse(c: Check, rule: string, exchange: Exchange, what: string): void {
  c.expectRejected(rule, exchange, what);
  const errors = (exchange.body as Json | undefined)?.errors;
  c.expect(
    rule,
    Array.isArray(errors) && errors.length > 0 && errors.every((e) => isObject(e) && typeof e.reason === 'string' && e.reason.length > 0),
    `${what} was refused without an error body naming a reason`,
    exchange,
  );
}

/** The rules of the error body's shape: the named checks judge every rejection against them. */
const ERROR_BODY_RULES = ['P1.errors.body.object', 'P1.errors.body.errors', 'P1.errors.body.reason', 'P1.errors.body.field'];

describe('Errors', () => {
  // The error body is judged on the requests that were refused: one the target accepted has no error body to judge
  // (the rule it broke, e.g. an endpoint's auth or unknown-id rule, is failed by that rule's own check).
  check(ERROR_BODY_RULES, 'refusals of every kind answer with the error body (errors, each with a reason and a string or null field)', async (c) => {
    const refusals: Array<[string, () => Promise<Exchange>, string?]> = [
      ['no token', () => c.get('/v4/account', { token: null })],
      ['an id that does not exist', () => c.get('/v4/account/invoices/999999937')],
      [
        'a member too long (label of 513 characters)',
        () => c.post('/v4/account/oauth-clients', { label: 'x'.repeat(513), redirect_uri: 'https://example.com/oauth/callback' }),
        'label',
      ],
      [
        'a nested member of the wrong type',
        async () => {
          const { id } = await fx.activeDatabase(c);
          return c.put(`${DB}/${id}`, { updates: await windowWith(c, id, 'hour_of_day', 'twenty') });
        },
        'updates.hour_of_day',
      ],
    ];
    let judged = 0;
    for (const [what, send, field] of refusals) {
      const exchange = await send();
      if (ok(exchange) && exchange.method === 'POST') await fx.adopt(c, exchange, { kind: 'oauth-client', list: '/v4/account/oauth-clients' });
      if (exchange.status < 400 || exchange.status >= 500) continue;
      judged += 1;
      c.expectRejected('P1.errors.body.object', exchange, what, field);
      c.expect(
        'P1.errors.body.object',
        isObject(exchange.body),
        `${what}: the error body is ${JSON.stringify(exchange.body).slice(0, 120)}, not an object`,
        exchange,
      );
      const errors = (exchange.body as Json).errors;
      c.expect(
        'P1.errors.body.errors',
        Array.isArray(errors) && errors.length > 0 && errors.every(isObject),
        `${what}: errors is ${JSON.stringify(errors).slice(0, 120)}, not an array of objects`,
        exchange,
      );
      for (const error of errors as Json[]) {
        c.expect(
          'P1.errors.body.reason',
          typeof error.reason === 'string',
          `${what}: an error has reason ${JSON.stringify(error.reason)}, not a string`,
          exchange,
        );
        c.expect(
          'P1.errors.body.field',
          error.field === undefined || error.field === null || typeof error.field === 'string',
          `${what}: an error has field ${JSON.stringify(error.field)}, not a string or null`,
          exchange,
        );
      }
    }
    if (!judged) c.skip('the target refused none of these requests: there is no error body to judge (the rules they break are failed by their own checks)');
  });

  check('P1.errors.preconditions', 'a missing required field is answered with an error response', async (c) => {
    const engine = await fx.mysqlEngine(c);
    const type = await fx.databaseNodeType(c);
    const body = { engine, type, region: c.target.info.config.region };
    const exchange = await c.post(DB, body);
    await fx.adopt(c, exchange, { kind: 'database', list: DB });
    expectErrorResponse(c, 'P1.errors.preconditions', exchange, `POST ${DB} without label`);
    const client = await c.post('/v4/account/oauth-clients', { label: fx.label('app', 512) });
    await fx.adopt(c, client, { kind: 'oauth-client', list: '/v4/account/oauth-clients' });
    expectErrorResponse(c, 'P1.errors.preconditions', client, 'POST /v4/account/oauth-clients without redirect_uri');
  });

  check('P1.errors.preconditions', 'a missing grant is answered with an error response', async (c) => {
    const token = await c.principal({ scopes: '*', restricted: true, grants: { global: { add_computes: false } } });
    const label = fx.label('vm', 64);
    const exchange = await c.post(
      '/v4/compute/instances',
      { region: c.target.info.config.region, type: c.target.info.config.instanceType, label, image: await fx.publicImage(c), root_pass: STRONG_PASSWORD },
      { token },
    );
    await fx.adopt(c, exchange, { kind: 'instance', list: '/v4/compute/instances', match: (item) => item.label === label });
    expectErrorResponse(c, 'P1.errors.preconditions', exchange, 'POST /v4/compute/instances by a restricted user without add_computes');
  });

  check('P1.errors.preconditions', 'an operation in the wrong status is answered with an error response', async (c) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      // On a database budget, another cluster would spend a slot the run's plan gave another check.
      if (attempt > 0 && c.target.info.config.maxDatabases !== null)
        c.skip('the cluster left provisioning (another spec file advanced the shared clock), and another is not in the database budget');
      const { id } = await fx.newDatabase(c);
      const status = async () => ((await c.get(`${DB}/${id}`)).body as Json | undefined)?.status;
      if ((await status()) !== 'provisioning') continue;
      const exchange = await c.get(`${DB}/${id}/credentials`);
      // Accepted: still provisioning once a lagging replica has caught up (the status read may answer as the one before)?
      if (ok(exchange) && (await readAfterWrite(c, status, (now) => now !== 'provisioning')) !== 'provisioning') continue;
      expectErrorResponse(c, 'P1.errors.preconditions', exchange, 'GET credentials of a provisioning cluster');
      return;
    }
    c.skip('the clusters left provisioning during every attempt (another spec file advanced the shared clock)');
  });

  check('P1.errors.no-server-error', 'odd but well-formed requests get no 5xx', async (c) => {
    const requests: Array<[string, () => Promise<Exchange>]> = [
      ['a page far beyond the last', () => c.get('/v4/account/events', { query: { page: 99999 } })],
      ['page 0', () => c.get('/v4/databases/engines', { query: { page: 0 } })],
      ['page_size 1000000', () => c.get('/v4/databases/types', { query: { page_size: 1000000 } })],
      ['an engine id without a slash', () => c.get('/v4/databases/engines/mysql')],
      ['a non-numeric cluster id', () => c.get(`${DB}/not-a-number`)],
      ['a huge cluster id', () => c.get(`${DB}/99999999999999999999999`)],
      ['a body that is a JSON array', () => c.post(DB, [1, 2, 3])],
      ['a body that is a JSON string', () => c.put('/v4/account', 'text')],
      ['null members', () => c.post(DB, { label: null, engine: null, type: null, region: null })],
      ['a deeply nested member', () => c.post('/v4/account/oauth-clients', { label: { a: { b: { c: [[[]]] } } }, redirect_uri: 'https://example.com/' })],
      ['malformed JSON', () => c.send('POST', '/v4/account/oauth-clients', { raw: { data: '{"label": "x", ', contentType: 'application/json' } })],
      [
        'a non-JSON content type',
        () => c.send('POST', '/v4/account/oauth-clients', { raw: { data: 'label=x', contentType: 'application/x-www-form-urlencoded' } }),
      ],
    ];
    for (const [what, send] of requests) {
      const exchange = await send();
      if (ok(exchange)) {
        // accepted: clean up what an odd create may have made
        const id = (exchange.body as Json | undefined)?.id;
        if (exchange.method === 'POST' && exchange.path.startsWith(DB) && typeof id === 'number') fx.track('database', id);
        if (exchange.method === 'POST' && exchange.path.startsWith('/v4/account/oauth-clients') && (typeof id === 'string' || typeof id === 'number'))
          fx.track('oauth-client', id);
      }
      c.expect(
        'P1.errors.no-server-error',
        !exchange.error && exchange.status > 0 && exchange.status < 500,
        `${what}: ${describeExchange(exchange)}`,
        exchange,
      );
    }
  });
});

// ------------------------------------------------------------------ authentication

describe('Authentication', () => {
  check('P1.auth.bearer-header', 'the token authenticates in the header Authorization: Bearer <token>', async (c) => {
    c.expectSuccess('P1.auth.bearer-header', await c.get('/v4/account'), 'GET /v4/account with Authorization: Bearer <token>');
  });

  // Only the Bearer form is documented; that no other is accepted is inferred (a warning at most).
  check('P1.auth.bearer-only', 'a token without the Bearer scheme is refused', async (c) => {
    const bare = await c.get('/v4/account', { token: null, headers: { authorization: c.target.token } });
    c.expectRejected('P1.auth.bearer-only', bare, 'GET /v4/account with the bare token in Authorization (no Bearer scheme)');
  });
});

// ------------------------------------------------------------------ versioning

describe('Versioning', () => {
  check('P1.versioning.v4-prefix', 'the API answers under /v4', async (c) => {
    const versioned = await c.get('/v4/databases/engines');
    c.expectSuccess('P1.versioning.v4-prefix', versioned, 'GET /v4/databases/engines');
    c.expect(
      'P1.versioning.v4-prefix',
      Array.isArray((versioned.body as Json | undefined)?.data),
      'GET /v4/databases/engines is not the engines list',
      versioned,
    );
  });

  // That nothing answers without the version segment is inferred, not stated (a warning at most).
  check('P1.versioning.unversioned-not-served', 'the API does not answer without the version segment', async (c) => {
    for (const path of ['/databases/engines', '/databases/engines/v4']) {
      const bare = await c.get(path);
      c.expect(
        'P1.versioning.unversioned-not-served',
        !(ok(bare) && Array.isArray((bare.body as Json | undefined)?.data)),
        `GET ${path} (no /v4 first segment) answers the engines list`,
        bare,
      );
    }
  });
});

// "Path parameters: {instanceId}, {backupId}, {invoiceId}, {loginId}, {eventId} are integers": that a non-integer is
// rejected is inferred (a warning at most). An id the account holds followed by letters catches a server reading
// only its leading digits.
describe('Path parameters', () => {
  check('P1.path.integer-ids', 'non-integer path ids are rejected', async (c) => {
    const paths = ['/v4/databases/mysql/instances/abc'];
    for (const list of ['/v4/account/invoices', '/v4/account/logins', '/v4/account/events']) {
      paths.push(`${list}/abc`);
      const items = (await c.get(list)).body as { data?: Json[] } | undefined;
      const held = items?.data?.find((item) => Number.isInteger(item.id));
      if (held) paths.push(`${list}/${String(held.id)}abc`);
    }
    for (const path of paths) c.expectRejected('P1.path.integer-ids', await c.get(path), `GET ${path}`);
  });
});
