// Targets that answer, but break the documents: HTTP 500 everywhere, HTML where JSON is promised, JSON that does not
// parse. The rules they break report `fail` (exit 1); a check whose setup could not get what it needed reports
// `error`; the run finishes in bounded time with results.json written and no crash.
import { afterEach, describe, expect, it } from 'vitest';
import { hostile, startFakeServer, type FakeServer } from './fake-servers.js';
import { NARROW, WALL_LIMIT_MS, expectVerdictNotCrash, messagesOf, ruleOf, runAgainst } from './conformance-run.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answering targets get 3 s per request: on a busy machine a 1 s limit could turn a fail into an error. */
async function runOn(handler: Parameters<typeof startFakeServer>[0]) {
  server = await startFakeServer(handler);
  const outcome = await runAgainst(server.url, NARROW.rules, NARROW.files, ['--timeout', '3000']);
  const results = expectVerdictNotCrash(outcome);
  expect(outcome.code).toBe(1);
  expect(outcome.wallMs).toBeLessThan(WALL_LIMIT_MS);
  return results;
}

describe('a target that answers against the documents', () => {
  it(
    'HTTP 500 everywhere: the requests it should serve fail, the check that could not create its domain errors',
    async () => {
      const results = await runOn(hostile.serverError());
      expect(ruleOf(results, 'P1.account.serves.get-account').status).toBe('fail');
      expect(messagesOf(results, 'P1.account.serves.get-account')).toMatch(/should succeed \(2xx\) but got HTTP 500/);
      // Status codes per condition are not shown: a 500 with the error body refuses a request without a token.
      expect(ruleOf(results, 'P1.account.auth.get-account').status).toBe('pass');
      expect(ruleOf(results, 'P3.domains.serves.get-domains-id').status).toBe('error');
      expect(messagesOf(results, 'P3.domains.serves.get-domains-id')).toMatch(/could not create a domain: HTTP 500/);
      // "never a 5xx" is inferred (SHOULD): a warning, not a fail
      expect(ruleOf(results, 'P1.errors.no-server-error').warning).toMatch(/answered 500/);
    },
    WALL_LIMIT_MS + 30_000,
  );

  for (const [name, handler, contentType] of [
    ['HTML instead of JSON', hostile.html(), 'text/html'],
    ['JSON that does not parse', hostile.invalidJson(), 'application/json'],
  ] as const)
    it(
      `${name}: P1.conventions.json-bodies fails with the body as evidence`,
      async () => {
        const results = await runOn(handler);
        const jsonBodies = ruleOf(results, 'P1.conventions.json-bodies');
        expect(jsonBodies.status).toBe('fail');
        const finding = jsonBodies.checks.find((check) => check.verdict === 'finding');
        expect(finding?.message).toContain(`the body is not JSON (Content-Type "${contentType}")`);
        expect(finding?.evidence?.some((exchange) => exchange.notJson && typeof exchange.body === 'string')).toBe(true);
        // a domain created with an answer that is no JSON leaves the domain check nothing to judge
        expect(ruleOf(results, 'P3.domains.serves.get-domains-id').status).toBe('error');
      },
      WALL_LIMIT_MS + 30_000,
    );
});
