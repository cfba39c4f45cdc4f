// How the harness turns what a target did into a verdict: an exchange with nothing to judge ends the check with
// `error` (and ends a property at once, without shrinking through more timeouts); a read after a write is retried
// within the consistency window.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Check, RuleViolation } from '../../harness/check.js';
import { defaults, type SuiteConfig } from '../../harness/config.js';
import { clockMark, readAfterWrite, untilClockSettled, type ClockMark } from '../../harness/consistency.js';
import { RunStamp } from '../../harness/cleanup.js';
import { tempDir } from '../safety/support.js';
import { NothingToJudge } from '../../harness/http.js';
import { propertySeed, runProperty } from '../../harness/property.js';
import { Target } from '../../harness/target.js';
import { hostile, startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function checkOn(url: string, config: Partial<SuiteConfig> = {}, checkTimeoutMs?: number): Check {
  return new Check(
    ['P1.account.serves.get-account'],
    new Target({ config: { ...defaults(), timeoutMs: 1000, ...config }, baseUrl: url, token: 'verdict-token-01', controlUrl: null, embedded: false }),
    checkTimeoutMs,
  );
}

describe('an exchange with nothing to judge', () => {
  it('no answer: the request throws NothingToJudge, the exchange stays as evidence', async () => {
    server = await startFakeServer(hostile.reset());
    const c = checkOn(server.url);
    await expect(c.get('/v4/account')).rejects.toThrow(NothingToJudge);
    c.finish();
    expect(c.record.exchanges).toHaveLength(1);
    expect(c.record.exchanges[0]!.error).toMatch(/ECONNRESET|socket/i);
  });

  it('a 429 that outlasts the retries: NothingToJudge "rate limited", and its body is not judged', async () => {
    server = await startFakeServer(hostile.rateLimited(() => '0'));
    const c = checkOn(server.url);
    await expect(c.get('/v4/account')).rejects.toThrow(/^rate limited: GET \/v4\/account still answered 429/);
    expect(c.record.findings).toEqual([]);
  });

  it('a body past the cap: NothingToJudge, the evidence kept and marked truncated', async () => {
    server = await startFakeServer(hostile.hugeBody(50));
    const c = checkOn(server.url, { timeoutMs: 10_000 });
    await expect(c.get('/v4/account')).rejects.toThrow(/response body is larger than 4 MB/);
    c.finish();
    expect(c.record.exchanges[0]).toMatchObject({ status: 200, truncated: true, notJson: false });
  });

  it('evidence: a body past 4,000 characters of JSON is cut, except the request that broke the rule (its curl sends it again)', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url);
    const body = { rules: Array.from({ length: 300 }, (_, index) => ({ label: `rule-${index}` })) };
    await c.post('/v4/networking/firewalls', body);
    const failing = await c.post('/v4/networking/firewalls', body);
    c.finish({ failing });
    expect(c.record.exchanges[0]!.requestBody).toMatch(/… \(\d+ characters\)$/);
    expect(c.record.failingExchange).toBe(1);
    expect(c.record.exchanges[1]!.requestBody).toEqual(body);
  });

  it('evidence: whose token each request carried (for its curl command), never the token', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, { scopedTokens: { 'domains:read_only': 'verdict-scoped-01' }, restrictedToken: 'verdict-restricted-01' });
    for (const token of [undefined, 'verdict-scoped-01', 'verdict-restricted-01', 'verdict-minted-01', null]) await c.get('/v4/account', { token });
    c.finish();
    expect(c.record.exchanges.map((exchange) => exchange.tokenOwner)).toEqual([
      { token: 'full' },
      { token: 'scoped', scopes: 'domains:read_only' },
      { token: 'restricted' },
      { token: 'made' },
      undefined,
    ]);
  });

  it('an answer that can be judged is returned as it is, even a broken one', async () => {
    server = await startFakeServer(hostile.invalidJson());
    const exchange = await checkOn(server.url).get('/v4/account');
    expect(exchange.notJson).toBe(true);
  });
});

describe('a property whose run got nothing to judge', () => {
  it('ends at the first such run: no further requests while fast-check shrinks', async () => {
    server = await startFakeServer(hostile.hang());
    const c = checkOn(server.url, { runs: 50 });
    let sent = 0;
    const started = performance.now();
    const property = runProperty(c, fc.integer({ min: 500, max: 100_000 }), async () => {
      sent += 1;
      await c.get('/v4/account');
    });
    await expect(property).rejects.toThrow(NothingToJudge);
    expect(sent).toBe(1);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('a broken rule still shrinks and carries its replay data', async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42 });
    const property = runProperty(c, fc.integer({ min: 0, max: 1000 }), async (value) => {
      if (value > 10) c.fail('P1.account.serves.get-account', `value ${value}`);
    });
    await expect(property).rejects.toThrow(RuleViolation);
    // The message says what broke, once; the counterexample travels beside it for the reports to show once.
    await expect(property).rejects.toMatchObject({
      message: expect.stringMatching(/^P1\.account\.serves\.get-account: value 11 \(a generated value, shrunk in \d+ steps?\)$/),
      replay: { seed: 42, counterexample: '11' },
    });
  });

  it('draws from a seed of its own: the run seed mixed with the check, so two checks never send the same values, and a replay with the run seed draws them again', async () => {
    const drawn = async (c: Check): Promise<number[]> => {
      const values: number[] = [];
      await runProperty(c, fc.integer(), async (value) => void values.push(value));
      return values;
    };
    const named = (key: string, seed = 42): Check => Object.assign(checkOn('http://127.0.0.1:9', { seed, runs: 5 }), { key });
    expect(await drawn(named('a > first'))).toEqual(await drawn(named('a > first')));
    expect(await drawn(named('a > first'))).not.toEqual(await drawn(named('a > second')));
    expect(await drawn(named('a > first'))).not.toEqual(await drawn(named('a > first', 43)));
    const twoProperties = named('a > first');
    expect(propertySeed(twoProperties, 42)).not.toBe(propertySeed(twoProperties, 42));
  });

  it('with shrinking off (--no-shrink), the first counterexample is reported as found', async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, shrink: false });
    let failures = 0;
    let triedAfterFailure = 0;
    const property = runProperty(c, fc.integer({ min: 0, max: 1000 }), async (value) => {
      if (failures > 0) triedAfterFailure += 1;
      if (value > 10) {
        failures += 1;
        c.fail('P1.account.serves.get-account', `value ${value}`);
      }
    });
    const counterexample = await property.then(
      () => '',
      (error: { replay: { counterexample: string } }) => error.replay.counterexample,
    );
    expect(Number(counterexample)).toBeGreaterThan(11);
    expect(triedAfterFailure).toBe(0);
  });
});

describe('a property on a target too slow for all its runs within the check', () => {
  // A check of 6 s: its deadline is 3 s away (half its time, as --timeout 1 s and the 2 s to report would leave less).
  const slowRuns = async (options: { concurrency?: number }) => {
    const c = checkOn('http://127.0.0.1:9', { runs: 40 }, 6000);
    let runs = 0;
    let lateRuns = 0;
    await runProperty(
      c,
      fc.integer(),
      async () => {
        runs += 1;
        if (Date.now() > c.deadline) lateRuns += 1;
        await new Promise((resolve) => setTimeout(resolve, 150));
      },
      options,
    );
    return { c, runs, lateRuns };
  };

  it('runs while the deadline leaves room, then passes on the runs done and says how many', async () => {
    const { c, runs, lateRuns } = await slowRuns({});
    expect(runs).toBeGreaterThan(5);
    expect(runs).toBeLessThan(40);
    expect(lateRuns).toBe(0);
    expect(c.record.message).toBe(
      `judged on ${runs} of 40 generated values: the target answered too slowly for the rest within the check's time (the longest run took ${c.record.message!.match(/took ([\d.]+) s/)![1]} s)`,
    );
  });

  it('the same when its runs are sent at once', async () => {
    const { c, runs, lateRuns } = await slowRuns({ concurrency: 2 });
    expect(runs).toBeGreaterThan(5);
    expect(runs).toBeLessThan(40);
    expect(lateRuns).toBe(0);
    expect(c.record.message).toMatch(new RegExp(`^judged on ${runs} of 40 generated values`));
  });

  it('a property whose runs all fit says nothing', async () => {
    const c = checkOn('http://127.0.0.1:9', { runs: 10 });
    await runProperty(c, fc.integer(), async () => {});
    expect(c.record.message).toBeUndefined();
  });
});

describe('a property whose runs are sent at once', () => {
  it('runs them side by side, and passes when every run passes', async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, runs: 10 });
    let inFlight = 0;
    let most = 0;
    let runs = 0;
    await runProperty(
      c,
      fc.integer(),
      async () => {
        runs += 1;
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
      },
      { concurrency: 5 },
    );
    expect(runs).toBe(10);
    expect(most).toBe(5);
  });

  it('a broken rule is replayed one run at a time, shrunk, and carries its replay data', async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, runs: 20 });
    const property = runProperty(
      c,
      fc.integer({ min: 0, max: 1000 }),
      async (value) => {
        if (value > 10) c.fail('P1.account.serves.get-account', `value ${value}`);
      },
      { concurrency: 10 },
    );
    await expect(property).rejects.toMatchObject({
      message: expect.stringMatching(/^P1\.account\.serves\.get-account: value 11 \(a generated value, shrunk in \d+ steps?\)$/),
      replay: { seed: 42, counterexample: '11' },
    });
  });

  it("another rule's break the replay one after another does not see again (a run sent meanwhile caused it) is not reported", async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, runs: 10 });
    let calls = 0;
    await runProperty(
      c,
      fc.integer({ min: 0, max: 1000 }),
      async (value) => {
        if (++calls === 3) c.fail('P1.errors.body.field', `value ${value} refused naming another field`);
      },
      { concurrency: 10 },
    );
    expect(calls).toBe(20);
  });

  it("a break of the check's own rule seen at once stands when the replay does not see it again (what the runs left hid it)", async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, runs: 10 });
    let calls = 0;
    const property = runProperty(
      c,
      fc.integer({ min: 0, max: 1000 }),
      async (value) => {
        if (++calls === 3) c.fail('P1.account.serves.get-account', `value ${value} accepted`);
      },
      { concurrency: 10 },
    );
    await expect(property).rejects.toMatchObject({
      message: expect.stringMatching(/accepted \(a generated value, shrunk in 0 steps\)$/),
      replay: { seed: 42, counterexample: expect.stringMatching(/^\d+$/) },
    });
  });

  it('a run with nothing to judge ends the property with that error', async () => {
    const c = checkOn('http://127.0.0.1:9', { seed: 42, runs: 10 });
    const property = runProperty(
      c,
      fc.integer(),
      async () => {
        throw new NothingToJudge('no answer');
      },
      { concurrency: 10 },
    );
    await expect(property).rejects.toThrow(NothingToJudge);
  });
});

describe('a read of what the run just made', () => {
  /** Answers POST /v4/domains with {id: 5}; GET /v4/domains/5 is 404 for its first two reads (a lagging replica). */
  const lagging = async () => {
    let reads = 0;
    server = await startFakeServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'POST') return void response.end(JSON.stringify({ id: 5 }));
      reads += 1;
      response.statusCode = reads <= 2 ? 404 : 200;
      response.end(JSON.stringify(reads <= 2 ? { errors: [{ reason: 'Not found', field: null }] } : { id: 5 }));
    });
    return server;
  };

  it('a 404 from a resource the run created is read again within the consistency window', async () => {
    const fake = await lagging();
    const c = checkOn(fake.url, { consistencyWindowMs: 3000 });
    await c.post('/v4/domains', {});
    expect((await c.get('/v4/domains/5')).status).toBe(200);
  });

  it('a resource made on one target is not awaited on another (a worker may hold several: a fault batch)', async () => {
    const fake = await lagging();
    await checkOn(fake.url, { consistencyWindowMs: 3000 }).post('/v4/domains', {});
    expect((await checkOn(fake.url, { consistencyWindowMs: 3000 }).get('/v4/domains/5')).status).toBe(404);
    expect(fake.seen.filter((request) => request.method === 'GET')).toHaveLength(1);
  });

  it('a 404 from a resource the run did not create (or deleted) is the answer at once', async () => {
    const fake = await lagging();
    const c = checkOn(fake.url, { consistencyWindowMs: 3000 });
    expect((await c.get('/v4/domains/7')).status).toBe(404);
    expect(fake.seen.filter((request) => request.method === 'GET')).toHaveLength(1);
  });
});

describe('a read after a write', () => {
  const checkWithWindow = (consistencyWindowMs: number) => ({ target: { info: { config: { consistencyWindowMs } } }, record: {} }) as unknown as Check;

  it('is read again within the window until it settles', async () => {
    let reads = 0;
    const started = performance.now();
    const check = checkWithWindow(3000);
    const value = await readAfterWrite(
      check,
      async () => ++reads,
      (read) => read === 3,
    );
    expect(value).toBe(3);
    // pauses of 50 and 100 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(check.record.unsettledReads).toBeUndefined();
  });

  it("gives the last read for judging when the window passes unsettled, and counts it in the check's record", async () => {
    let reads = 0;
    const started = performance.now();
    const check = checkWithWindow(500);
    const value = await readAfterWrite(
      check,
      async () => ++reads,
      () => false,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(value).toBe(reads);
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(check.record.unsettledReads).toBe(1);
  });

  it("waits out the window since the run's last clock advance (noted by any worker) before a read, on a target whose clock it drives", async () => {
    const stamp = new RunStamp(tempDir('clock-stamp'), 'run-1', 'clock-advanced');
    const onTarget = (control: boolean) =>
      ({ target: { control: control ? {} : null, clockAdvanced: stamp, info: { config: { consistencyWindowMs: 400 } } }, record: {} }) as unknown as Check;
    const waited = async (c: Check) => {
      const started = performance.now();
      await untilClockSettled(c);
      return performance.now() - started;
    };
    expect(await waited(onTarget(true))).toBeLessThan(100);
    stamp.note();
    expect(await waited(onTarget(false))).toBeLessThan(100);
    expect(await waited(onTarget(true))).toBeGreaterThanOrEqual(350);
    expect(await waited(onTarget(true))).toBeLessThan(100);
  });

  it('adds up the seconds every worker of the run advanced the clock by, and waits only when they may reach the span given since a mark', async () => {
    const out = tempDir('clock-total');
    const stamp = new RunStamp(out, 'run-1', 'clock-advanced');
    expect(stamp.total()).toBe(0);
    stamp.note(600);
    stamp.note(60);
    // (another worker's view of the same run, and another run)
    expect(new RunStamp(out, 'run-1', 'clock-advanced').total()).toBe(660);
    expect(new RunStamp(out, 'run-2', 'clock-advanced').total()).toBe(0);
    const c = { target: { control: {}, clockAdvanced: stamp, info: { config: { consistencyWindowMs: 400 } } }, record: {} } as unknown as Check;
    const waited = async (seconds: number, since: ClockMark) => {
      const started = performance.now();
      await untilClockSettled(c, { since, seconds });
      return performance.now() - started;
    };
    const mark = clockMark(c);
    stamp.note(3600);
    expect(await waited(24 * 3600, mark)).toBeLessThan(100);
    expect(await waited(3600, mark)).toBeGreaterThanOrEqual(350);
  });

  it('with no window (the embedded emulator) is read once, and counts no wait', async () => {
    let reads = 0;
    const check = checkWithWindow(0);
    expect(
      await readAfterWrite(
        check,
        async () => ++reads,
        () => false,
      ),
    ).toBe(1);
    expect(check.record.unsettledReads).toBeUndefined();
  });
});

describe('a general rule judged through a specific one', () => {
  const generalCheck = () =>
    new Check(
      ['P3.domains.scope.get-domains', 'P1.auth.oauth.scope-required'],
      new Target({ config: defaults(), baseUrl: 'http://127.0.0.1:9', token: 'verdict-token-01', controlUrl: null, embedded: false }),
    );
  const broken = (c: Check, rule: string, general: string[]) => {
    try {
      c.alsoBreaks(general, () => c.fail(rule, 'served without its scope'));
    } catch (error) {
      return error as RuleViolation;
    }
    throw new Error('alsoBreaks swallowed the break');
  };

  it("a break of the specific rule breaks the general ones the check names (not ones it doesn't name)", () => {
    const c = generalCheck();
    expect(broken(c, 'P3.domains.scope.get-domains', ['P1.auth.oauth.scope-required', 'P1.auth.scope.read-write-changes']).alsoBroken).toEqual([
      'P1.auth.oauth.scope-required',
    ]);
  });

  it('a pass breaks nothing', () => {
    const c = generalCheck();
    expect(() => c.alsoBreaks(['P1.auth.oauth.scope-required'], () => c.expect('P3.domains.scope.get-domains', true, 'refused'))).not.toThrow();
  });
});
