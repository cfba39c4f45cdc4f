// The HTTP client against small fake servers: 429 and Retry-After with bounded retries, the requests-per-second cap,
// the run budget, and what it makes of a hang, a drip, a reset and a huge body.
import { afterEach, describe, expect, it } from 'vitest';
import {
  HttpClient,
  MAX_BODY_BYTES,
  RATE_LIMIT_POLICY,
  proxiedOrigin,
  retryAfterMs,
  whyUnjudgeable,
  writesNotRefusedSoFar,
  type HttpClientOptions,
} from '../../harness/http.js';
import { hostile, startFakeServer, type FakeServer } from '../hostile/fake-servers.js';
import { REDACTED } from '../../harness/redact.js';

let server: FakeServer | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

async function clientOf(handler: Parameters<typeof startFakeServer>[0], options: Partial<HttpClientOptions> = {}): Promise<HttpClient> {
  server = await startFakeServer(handler);
  client = new HttpClient(server.url, { timeoutMs: 1000, ...options });
  return client;
}

const gaps = (seen: FakeServer['seen']) => seen.slice(1).map((request, i) => request.at - seen[i]!.at);

describe('a proxy the environment names', () => {
  it('carries requests to a distant host unless NO_PROXY names it (undici reads it), never to one on this machine', () => {
    const proxy = { HTTPS_PROXY: 'http://proxy.corp.example:3128' };
    expect(proxiedOrigin('https://api.staging.example.com', proxy)).toBe(true);
    expect(proxiedOrigin('http://api.staging.example.com', { http_proxy: 'http://proxy.corp.example:3128' })).toBe(true);
    expect(proxiedOrigin('https://api.staging.example.com', {})).toBe(false);
    for (const local of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010', 'http://127.8.9.10'])
      expect(proxiedOrigin(local, proxy), local).toBe(false);
  });
});

describe('headers every request carries (--header)', () => {
  it('are sent with each request, give way to its own, and show redacted in the evidence', async () => {
    const received: Array<Record<string, unknown>> = [];
    const http = await clientOf(
      (request, response) => {
        received.push(request.headers);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      },
      { headers: { 'X-Api-Key': 'k-1', 'X-Trace': 'gateway' } },
    );
    const exchange = await http.send({ method: 'GET', path: '/v4/account', headers: { 'X-Trace': 'own' } });
    expect(received[0]).toMatchObject({ 'x-api-key': 'k-1', 'x-trace': 'own' });
    expect(exchange.requestHeaders).toMatchObject({ 'X-Api-Key': REDACTED, 'X-Trace': 'own' });
  });
});

describe('the writes a thread sent that the target did not refuse (what tells an instance put at rest is still so)', () => {
  it('counts a write answered 2xx, 5xx or not at all, never a read nor a write refused with a 4xx', async () => {
    const http = await clientOf((request, response) => {
      const status = Number(request.url!.slice(1));
      if (status === 0) return void response.destroy();
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end('{}');
    });
    const counted = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', status: number) => {
      const before = writesNotRefusedSoFar();
      await http.send({ method, path: `/${status}` });
      return writesNotRefusedSoFar() - before;
    };
    expect(await counted('GET', 200)).toBe(0);
    expect(await counted('POST', 400)).toBe(0);
    expect(await counted('PUT', 404)).toBe(0);
    expect(await counted('POST', 200)).toBe(1);
    expect(await counted('DELETE', 204)).toBe(1);
    expect(await counted('PUT', 500)).toBe(1);
    expect(await counted('POST', 0)).toBe(1);
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates; anything else is no instruction', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('a target answering 429', () => {
  it('is asked again after the seconds its Retry-After names', async () => {
    const http = await clientOf(hostile.rateLimited(() => '1', 1));
    const exchange = await http.send({ method: 'GET', path: '/v4/account' });
    expect(exchange.status).toBe(200);
    expect(exchange.attempts).toBe(2);
    expect(exchange.rateLimited).toBeUndefined();
    expect(gaps(server!.seen)[0]).toBeGreaterThanOrEqual(950);
  });

  it('is asked again at the HTTP date its Retry-After names', async () => {
    const http = await clientOf(hostile.rateLimited(() => new Date(Date.now() + 2000).toUTCString(), 1));
    expect((await http.send({ method: 'POST', path: '/v4/domains', json: { domain: 'a.example.com' } })).status).toBe(200);
    // the date has whole seconds: the wait is between 1 and 2 s
    expect(gaps(server!.seen)[0]).toBeGreaterThanOrEqual(950);
    expect(gaps(server!.seen)[0]).toBeLessThan(2500);
  });

  it('that persists: the retries are capped and the exchange is marked rate limited, not judged', async () => {
    const http = await clientOf(hostile.rateLimited(() => '0'));
    const exchange = await http.send({ method: 'GET', path: '/v4/account' });
    expect(server!.seen).toHaveLength(RATE_LIMIT_POLICY.attempts);
    expect(exchange.status).toBe(429);
    expect(exchange.rateLimited).toBe(`rate limited: GET /v4/account still answered 429 after ${RATE_LIMIT_POLICY.attempts} attempts`);
    expect(whyUnjudgeable(exchange)).toBe(exchange.rateLimited);
  });

  it('asking to wait longer than the cap: given up at once', async () => {
    const http = await clientOf(hostile.rateLimited(() => '3600'));
    const started = performance.now();
    const exchange = await http.send({ method: 'GET', path: '/v4/account' });
    expect(performance.now() - started).toBeLessThan(900);
    expect(server!.seen).toHaveLength(1);
    expect(exchange.rateLimited).toMatch(/asking to wait 3600 s \(Retry-After\), more than the 20 s the suite waits/);
  });

  it('without Retry-After: backs off, each wait within the cap', async () => {
    const http = await clientOf(
      hostile.rateLimited(() => undefined),
      { rateLimit: { attempts: 3, maxWaitMs: 150 } },
    );
    const exchange = await http.send({ method: 'GET', path: '/v4/account' });
    expect(server!.seen).toHaveLength(3);
    for (const gap of gaps(server!.seen)) expect(gap).toBeGreaterThanOrEqual(140);
    expect(exchange.rateLimited).toMatch(/after 3 attempts/);
  });
});

describe('the requests-per-second cap', () => {
  it('spaces requests sent at once evenly at 1/maxRps seconds', async () => {
    const http = await clientOf(hostile.ok(), { maxRps: 20 });
    const sent = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', path: '/v4/account' })));
    expect(server!.seen).toHaveLength(8);
    // A loaded machine holds arrivals back (a connection's set-up, a busy event loop), never ahead of the cap: the
    // (i + 1)th cannot arrive before i × 50 ms from the sends (the server shares this process's clock); without the cap
    // all eight arrive together. How close together held-back arrivals come is not judged: a `.ci/run` on four workers
    // (2026-12-06) saw five within 100 ms after a stall, and two (2026-12-05) 313 ms of the 350 from the first.
    const arrivals = server!.seen.map((request) => request.at - sent).sort((a, b) => a - b);
    expect(arrivals.filter((at, i) => at < i * 50 - 5)).toEqual([]);
  });

  it('without a cap, the same requests go out together', async () => {
    const http = await clientOf(hostile.ok());
    await Promise.all(Array.from({ length: 8 }, () => http.send({ method: 'GET', path: '/v4/account' })));
    expect(server!.seen.at(-1)!.at - server!.seen[0]!.at).toBeLessThan(200);
  });
});

describe('the run budget', () => {
  it('once spent, requests are not sent (unless they clean up)', async () => {
    const http = await clientOf(hostile.ok(), { deadline: Date.now() - 1 });
    const refused = await http.send({ method: 'GET', path: '/v4/account' });
    expect(refused.error).toMatch(/not sent: the run budget/);
    expect(server!.seen).toHaveLength(0);
    expect((await http.send({ method: 'DELETE', path: '/v4/domains/1', ignoreRunBudget: true })).status).toBe(200);
  });
});

describe('a target that gives nothing to judge', () => {
  it('a hang or a slow drip: no answer after the timeout', async () => {
    for (const handler of [hostile.hang(), hostile.slowDrip()]) {
      const http = await clientOf(handler);
      const started = performance.now();
      const exchange = await http.send({ method: 'GET', path: '/v4/account' });
      expect(performance.now() - started).toBeLessThan(2500);
      expect(exchange.error).toBe('no complete answer within 1000 ms');
      expect(whyUnjudgeable(exchange)).toBe('GET /v4/account: no answer (no complete answer within 1000 ms)');
      await client!.close();
      await server!.close();
    }
    client = server = undefined;
  });

  it('a reset connection: no answer', async () => {
    const exchange = await (await clientOf(hostile.reset())).send({ method: 'GET', path: '/v4/account' });
    expect(exchange.status).toBe(0);
    expect(exchange.error).toMatch(/ECONNRESET|socket/i);
  });

  it('a body of 300 MB: read up to the cap and cut, marked truncated, not taken for invalid JSON', async () => {
    const before = process.memoryUsage().rss;
    const exchange = await (await clientOf(hostile.hugeBody(300), { timeoutMs: 10_000 })).send({ method: 'GET', path: '/v4/account' });
    expect(exchange.status).toBe(200);
    expect(exchange.truncated).toBe(true);
    expect(exchange.notJson).toBe(false);
    expect(String(exchange.body).length).toBeLessThanOrEqual(2000);
    expect(whyUnjudgeable(exchange)).toMatch(/larger than 4 MB/);
    // Never the body whole: the process grew by less than a third of it, 25 caps (freed buffers not yet returned, and
    // the hostile server's own in this process, count too: 47 MB once on a slow machine, against 10 caps before).
    expect(process.memoryUsage().rss - before).toBeLessThan(25 * MAX_BODY_BYTES);
  });
});
