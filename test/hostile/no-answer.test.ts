// Targets that give nothing to judge — a hang, a slow drip, a reset connection, a body of hundreds of MB — and the
// run budget. Each run is narrowed to three checks; every one must end with `error` (never `fail`: the target broke
// no rule we could see), within bounded time, exit 2, results.json written, no crash.
import { afterEach, describe, expect, it } from 'vitest';
import { hostile, startFakeServer, type FakeServer } from './fake-servers.js';
import { NARROW, WALL_LIMIT_MS, expectVerdictNotCrash, messagesOf, ruleOf, runAgainst } from './conformance-run.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases = [
  { name: 'a hang (accepts, never answers)', handler: hostile.hang(), reason: /no complete answer within 1000 ms/ },
  { name: 'a slow drip (a byte a second, forever)', handler: hostile.slowDrip(), reason: /no complete answer within 1000 ms/ },
  { name: 'a connection reset before any response', handler: hostile.reset(), reason: /ECONNRESET|socket/i },
  { name: 'a body of 300 MB', handler: hostile.hugeBody(300), reason: /response body is larger than 4 MB/ },
];

describe('a target that gives nothing to judge', () => {
  for (const { name, handler, reason } of cases)
    it(
      `${name}: every check reports error with the reason, exit 2`,
      async () => {
        server = await startFakeServer(handler);
        const outcome = await runAgainst(server.url, NARROW.rules, NARROW.files);
        const results = expectVerdictNotCrash(outcome);
        expect(outcome.code).toBe(2);
        expect(outcome.wallMs).toBeLessThan(WALL_LIMIT_MS);
        expect(results.summary.fail).toBe(0);
        for (const id of NARROW.rules) {
          expect(ruleOf(results, id).status, id).toBe('error');
          expect(messagesOf(results, id), id).toMatch(reason);
        }
      },
      WALL_LIMIT_MS + 30_000,
    );

  it(
    'the run budget: past it no request is sent and the remaining checks report error at once',
    async () => {
      server = await startFakeServer(hostile.hang());
      // Every generic check of the account and domain endpoints: about 100 checks, each waiting 1 s for an answer.
      const outcome = await runAgainst(server.url, ['P1.account', 'P3.domains'], NARROW.files, ['--run-budget', '3000']);
      const results = expectVerdictNotCrash(outcome);
      expect(outcome.code).toBe(2);
      expect(results.checks.error).toBeGreaterThan(40);
      // At most 3 s of 1 s timeouts per worker, the control probe, and a request or two in flight when the budget ran out.
      expect(server.seen.length).toBeLessThanOrEqual(16);
      const spent = results.rules.flatMap((rule) => rule.checks).filter((check) => /run budget \(--run-budget\) is spent/.test(check.message ?? ''));
      expect(spent.length).toBeGreaterThan(20);
    },
    WALL_LIMIT_MS + 30_000,
  );
});
