// The ways to a staging server a company network puts in between. HTTPS, often with a certificate its company's own
// authority signed: the emulator behind a TLS proxy whose certificate signed itself. Untrusted, the run stops before
// its first check with one line that names the certificate problem and how to trust it; trusted through
// NODE_EXTRA_CA_CERTS, it judges over HTTPS (the control hooks, fixtures and clean-up included) as over HTTP. And a
// forward proxy named by HTTP_PROXY / HTTPS_PROXY, the only way to the target's host (a name no resolver knows), which
// NO_PROXY bypasses. And a gateway in front of the target that lets through only requests carrying its key.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALHOST_TLS, send, startConnectProxy, startFakeServer, startRewritingProxy, type FakeServer } from './fake-servers.js';
import { NARROW, runConformance, ruleOf } from './conformance-run.js';
import { startEmulator } from '../safety/support.js';

const TOKEN = 'https-target-token-01';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: FakeServer;
let forwardProxy: FakeServer;
let gateway: FakeServer;
const GATEWAY_KEY = 'gateway-key-8f3a9c2e71';
/** A host only the forward proxy resolves (to the emulator's address): `.test` names nothing on any network. */
const STAGING_HOST = 'staging.test';

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startRewritingProxy(emulator.url, {}, { tls: true });
  forwardProxy = await startConnectProxy({ [STAGING_HOST]: '127.0.0.1' });
  gateway = await startRewritingProxy(emulator.url, {
    answer: ({ headers }) => (headers['x-gateway-key'] === GATEWAY_KEY ? undefined : { status: 403, body: { message: 'no gateway key' } }),
  });
});

afterAll(async () => {
  await Promise.all([proxy?.close(), forwardProxy?.close(), gateway?.close()]);
  await emulator?.stop();
});

const narrowed = ['--token', TOKEN, '--rules', NARROW.rules.join(','), '--no-allure', '--progress', 'quiet', ...NARROW.files];

describe('a target served over HTTPS', () => {
  it('with a certificate this machine does not trust: exit 2 before any check, one line naming the problem and NODE_EXTRA_CA_CERTS', async () => {
    expect(proxy.url).toMatch(/^https:/);
    const outcome = await runConformance(['--base-url', proxy.url, ...narrowed]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: cannot reach https:\/\/127\.0\.0\.1:\d+: DEPTH_ZERO_SELF_SIGNED_CERT .*; to trust a private certificate authority, give its PEM file as NODE_EXTRA_CA_CERTS=<file>$/,
      ),
    ]);
    expect(proxy.seen.filter((request) => request.path.startsWith('/v4'))).toEqual([]);
  }, 60_000);

  it('trusted through NODE_EXTRA_CA_CERTS: judges over HTTPS and leaves nothing behind', async () => {
    const outcome = await runConformance(['--base-url', proxy.url, ...narrowed], 120_000, { NODE_EXTRA_CA_CERTS: LOCALHOST_TLS.cert });
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
    for (const rule of NARROW.rules) expect(ruleOf(outcome.results!, rule).status, rule).toBe('pass');
    expect(proxy.seen.some((request) => request.method === 'POST' && request.path === '/v4/domains')).toBe(true);
    expect(outcome.stderr).toContain('nothing the run created is left on the target');
  }, 120_000);
});

describe('a target behind a forward proxy', () => {
  const stagingUrl = () => `http://${STAGING_HOST}:${new URL(emulator.url).port}`;
  const noProxy = { NO_PROXY: undefined, no_proxy: undefined };

  it('is reached through the proxy HTTP_PROXY names, every request of the run tunnelled', async () => {
    const before = forwardProxy.seen.length;
    const outcome = await runConformance(['--base-url', stagingUrl(), ...narrowed], 120_000, {
      ...noProxy,
      HTTP_PROXY: forwardProxy.url,
      http_proxy: undefined,
    });
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
    for (const rule of NARROW.rules) expect(ruleOf(outcome.results!, rule).status, rule).toBe('pass');
    const tunnels = forwardProxy.seen.slice(before);
    expect(tunnels.length).toBeGreaterThan(0);
    expect(tunnels.every((request) => request.method === 'CONNECT' && request.path === `${STAGING_HOST}:${new URL(emulator.url).port}`)).toBe(true);
    expect(outcome.stderr).toContain('nothing the run created is left on the target');
  }, 120_000);

  it('is reached directly when NO_PROXY names its host (here: unreachable, one line, exit 2)', async () => {
    const before = forwardProxy.seen.length;
    const outcome = await runConformance(['--base-url', stagingUrl(), ...narrowed], 120_000, {
      HTTP_PROXY: forwardProxy.url,
      http_proxy: '',
      NO_PROXY: STAGING_HOST,
      no_proxy: '',
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^conformance: cannot reach http:\/\/staging\.test:\d+: (ENOTFOUND|EAI_AGAIN)/)]);
    expect(forwardProxy.seen.slice(before)).toEqual([]);
  }, 60_000);
});

describe('a target behind a gateway that wants a header of its own', () => {
  it('is judged with --header on every request (pre-flight, checks, control hooks, clean-up), its value in no report or output', async () => {
    const outcome = await runConformance(['--base-url', gateway.url, ...narrowed, '--header', `X-Gateway-Key: ${GATEWAY_KEY}`]);
    expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
    for (const rule of NARROW.rules) expect(ruleOf(outcome.results!, rule).status, rule).toBe('pass');
    expect(outcome.stderr).toContain('nothing the run created is left on the target');
    const written = readdirSync(outcome.out, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    expect(written.length).toBeGreaterThan(2);
    for (const text of [...written, outcome.stdout, outcome.stderr]) expect(text).not.toContain(GATEWAY_KEY);
  }, 120_000);
  it('without it (every request refused 403): exit 2 before any check, one line naming --header', async () => {
    const outcome = await runConformance(['--base-url', gateway.url, ...narrowed]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^conformance: the token was refused: GET \/v4\/account answered 403, GET \/v4\/domains answered 403; .*--header if a gateway/),
    ]);
  }, 60_000);
});

describe('a base URL that redirects', () => {
  it('to another origin (http:// typed for an https:// server): exit 2 before any check, one line naming where to', async () => {
    const redirecting = await startFakeServer((request, response) => {
      response.writeHead(301, { location: `${proxy.url}${request.url ?? '/'}` });
      response.end();
    });
    try {
      const outcome = await runConformance(['--base-url', redirecting.url, ...narrowed]);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr.trim().split('\n')).toEqual([
        `conformance: ${redirecting.url} redirects its requests to ${proxy.url}: give that as the base URL (the suite follows no redirect, it judges each answer as it comes)`,
      ]);
      expect(redirecting.seen.filter((request) => request.path.startsWith('/v4'))).toEqual([]);
    } finally {
      await redirecting.close();
    }
  }, 60_000);

  it('within its own origin (a path it does not serve sent to a login page): judged as any answer', async () => {
    const loginFirst = await startFakeServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (!request.url?.startsWith('/v4')) {
        response.writeHead(302, { location: '/login' });
        response.end();
        return;
      }
      const answer = await send(emulator.url, request.method ?? 'GET', request.url, request.headers, chunks.length ? Buffer.concat(chunks) : undefined);
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
    try {
      const outcome = await runConformance(['--base-url', loginFirst.url, ...narrowed]);
      expect(outcome.code, outcome.stderr.slice(-2000)).toBe(0);
      for (const rule of NARROW.rules) expect(ruleOf(outcome.results!, rule).status, rule).toBe('pass');
    } finally {
      await loginFirst.close();
    }
  }, 120_000);
});
