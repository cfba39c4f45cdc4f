// A whole run as a guest: a target that keeps answering 429 gets bounded retries and `error` "rate limited" (not
// `fail`); --max-rps caps the requests of the whole run, all workers together.
import { afterEach, describe, expect, it } from 'vitest';
import { TOKEN_READS } from '../../cli/preflight.js';
import { RATE_LIMIT_POLICY } from '../../harness/http.js';
import { hostile, startFakeServer, type FakeServer } from './fake-servers.js';
import { NARROW, WALL_LIMIT_MS, expectVerdictNotCrash, messagesOf, ruleOf, runAgainst } from './conformance-run.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('rate limits', () => {
  it(
    'a 429 that persists: each request tried a bounded number of times, the checks report error "rate limited"',
    async () => {
      server = await startFakeServer(hostile.rateLimited(() => '0'));
      const outcome = await runAgainst(server.url, NARROW.rules, NARROW.files);
      const results = expectVerdictNotCrash(outcome);
      expect(outcome.code).toBe(2);
      expect(results.summary.fail).toBe(0);
      for (const id of NARROW.rules) {
        expect(ruleOf(results, id).status, id).toBe('error');
        expect(messagesOf(results, id), id).toMatch(/^rate limited: (GET|POST) \/v4\/\S+ still answered 429 after 4 attempts$/m);
      }
      // The command's pre-flight requests (is the target there at all? does it refuse the token?) are sent once each;
      // every other one is retried.
      expect((server.seen.length - 1 - TOKEN_READS.length) % RATE_LIMIT_POLICY.attempts).toBe(0);
    },
    WALL_LIMIT_MS + 30_000,
  );

  it(
    '--max-rps 20: the run as a whole (two workers) sends at most about 20 requests a second',
    async () => {
      server = await startFakeServer(hostile.ok());
      // The auth checks of three spec files (about 100 requests, 4 s without a cap), so that every worker sends.
      const rules = ['P1.account.auth', 'P2.tags.auth', 'P3.domains.auth'];
      const outcome = await runAgainst(
        server.url,
        rules,
        ['specs/generic/part1', 'specs/generic/part2', 'specs/generic/part3'],
        ['--max-rps', '20', '--timeout', '3000'],
        '--areas',
      );
      expectVerdictNotCrash(outcome);
      const checks = server.seen.filter((request) => !request.path.startsWith('/__control'));
      expect(checks.length).toBeGreaterThanOrEqual(50);
      const span = (checks.at(-1)!.at - checks[0]!.at) / 1000;
      // each worker sends one request every 0.1 s; the first slot of each is free
      expect(checks.length).toBeLessThanOrEqual(20 * span + 3);
      const busiestSecond = Math.max(...checks.map((first) => checks.filter((other) => other.at >= first.at && other.at < first.at + 1000).length));
      expect(busiestSecond).toBeLessThanOrEqual(23);
    },
    WALL_LIMIT_MS + 30_000,
  );
});
