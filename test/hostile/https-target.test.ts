// A staging server is served over HTTPS, often with a certificate its company's own authority signed: the emulator
// behind a TLS proxy whose certificate signed itself. Untrusted, the run stops before its first check with one line
// that names the certificate problem and how to trust it; trusted through NODE_EXTRA_CA_CERTS, it judges over HTTPS
// (the control hooks, fixtures and clean-up included) as over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALHOST_TLS, startRewritingProxy, type FakeServer } from './fake-servers.js';
import { NARROW, runConformance, ruleOf } from './conformance-run.js';
import { startEmulator } from '../safety/support.js';

const TOKEN = 'https-target-token-01';
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let proxy: FakeServer;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  proxy = await startRewritingProxy(emulator.url, {}, { tls: true });
});

afterAll(async () => {
  await proxy?.close();
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
