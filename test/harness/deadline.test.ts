// Every check is bounded: past its deadline it sends nothing more, a read after a write never waits past it, and a
// check stops waiting for a state after UNSETTLED_WAITS_PER_CHECK windows passed in vain (a lying target pays that
// much per check, not a window per read).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Check, DeadlinePassed, RuleViolation, SkipCheck, twice } from '../../harness/check.js';
import { declareHandover } from '../../harness/lock-handover.js';
import { defaults, type SuiteConfig } from '../../harness/config.js';
import {
  UNSETTLED_WAITS_PER_CHECK,
  letShortlyRun,
  onceNotBusy,
  readAfterWrite,
  untilShortlyDone,
  untilShortlyDoneSparingly,
} from '../../harness/consistency.js';
import type { Exchange } from '../../harness/http.js';
import { Target } from '../../harness/target.js';
import { hostile, startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A target without the clock hook at `url`, whose requests time out after a second. */
const targetAt = (url: string, config: Partial<SuiteConfig> = {}) =>
  new Target({ config: { ...defaults(), timeoutMs: 1000, ...config }, baseUrl: url, token: 'deadline-token-01', controlUrl: null, embedded: false });

/** A check that must end within `checkMs` on a target answering within `requestMs`. */
function checkOn(url: string, checkMs: number, config: Partial<SuiteConfig> = {}): Check {
  return new Check(['P1.account.serves.get-account'], targetAt(url, config), checkMs);
}

describe('the deadline of a check', () => {
  it('leaves room for the request in flight: no request is sent past it', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 4000);
    // 4 s less the 1 s request timeout and 2 s to report, but never under half the check's time.
    expect(c.deadline - Date.now()).toBeGreaterThan(1900);
    expect(c.deadline - Date.now()).toBeLessThanOrEqual(2000);
    await c.get('/v4/account');
    await new Promise((resolve) => setTimeout(resolve, c.deadline - Date.now() + 10));
    await expect(c.get('/v4/account')).rejects.toThrow(DeadlinePassed);
    await expect(c.get('/v4/account')).rejects.toThrow(/the check's deadline passed \(it must end within 4 s\): GET \/v4\/account was not sent/);
    expect(server.seen).toHaveLength(1);
  });

  it('a read after a write waiting for a state that never comes ends at the deadline, not the window', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 3000, { consistencyWindowMs: 600_000 });
    const started = Date.now();
    const last = await readAfterWrite(
      c,
      () => c.get('/v4/account'),
      () => false,
    );
    expect(last.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(c.cutShort).toMatch(/cut to [0-9] s of real time, of the 600 s it is given/);
  });

  it('a read begun within the window that ends past it is followed by one begun after it', async () => {
    const c = checkOn('http://127.0.0.1:9', 60_000, { consistencyWindowMs: 200 });
    const started = Date.now();
    // What a read sees is what was there when it began: the write shows 100 ms in, each read takes 400 ms.
    const slowRead = async () => {
      const begun = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 400));
      return begun >= 100;
    };
    expect(await readAfterWrite(c, slowRead, (shows) => shows)).toBe(true);
  });

  it(`after ${UNSETTLED_WAITS_PER_CHECK} windows passed in vain, a check reads once instead of waiting again`, async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 60_000, { consistencyWindowMs: 300 });
    for (let i = 0; i < UNSETTLED_WAITS_PER_CHECK; i++)
      await readAfterWrite(
        c,
        () => c.get('/v4/account'),
        () => false,
      );
    expect(c.record.unsettledReads).toBe(UNSETTLED_WAITS_PER_CHECK);
    const before = server.seen.length;
    const started = Date.now();
    await readAfterWrite(
      c,
      () => c.get('/v4/account'),
      () => false,
    );
    expect(server.seen.length - before).toBe(1);
    expect(Date.now() - started).toBeLessThan(250);
    // A state that comes is never counted: another check waits as before.
    const fresh = checkOn(server.url, 60_000, { consistencyWindowMs: 300 });
    let reads = 0;
    await readAfterWrite(
      fresh,
      () => fresh.get('/v4/account'),
      () => ++reads === 2,
    );
    expect(reads).toBe(2);
    expect(fresh.record.unsettledReads).toBeUndefined();
  });

  it('still waits, once they are spent, for a lagging view of a resource the run made, and does not spend them', async () => {
    // The view of domain 5 answers 404 for its first 150 ms, as a replica lagging the create would.
    let createdAt = 0;
    server = await startFakeServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'POST') {
        createdAt = Date.now();
        response.end(JSON.stringify({ id: 5 }));
        return;
      }
      const shown = request.url === '/v4/domains/5' && Date.now() - createdAt >= 150;
      response.statusCode = request.url === '/v4/domains/5' && !shown ? 404 : 200;
      response.end(shown ? JSON.stringify({ id: 5 }) : JSON.stringify({ errors: [{ reason: 'Not found' }] }));
    });
    const c = checkOn(server.url, 60_000, { consistencyWindowMs: 1000 });
    for (let i = 0; i < UNSETTLED_WAITS_PER_CHECK; i++)
      await readAfterWrite(
        c,
        () => c.get('/v4/account'),
        () => false,
      );
    await c.post('/v4/domains', { domain: 'lagging.example' });
    expect((await c.get('/v4/domains/5')).status).toBe(200);
    expect(c.record.unsettledReads).toBe(UNSETTLED_WAITS_PER_CHECK);
  });
});

describe('a request that makes something while it is not done, sent again while a short time passes', () => {
  it('is sent once when done at once, else, without the clock hook, once more after real time bounded by the deadline', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 10_000);
    await untilShortlyDoneSparingly(
      c,
      () => c.get('/v4/account'),
      () => true,
    );
    expect(server.seen).toHaveLength(1);
    expect(c.cutShort).toBeUndefined();
    const started = Date.now();
    const last = await untilShortlyDoneSparingly(
      c,
      () => c.get('/v4/account'),
      () => false,
    );
    expect(last.status).toBe(200);
    expect(server.seen).toHaveLength(3);
    // The deadline is 7 s away (10 s less the request timeout and 2 s to report): the wait leaves 5 s of it.
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(Date.now() - started).toBeLessThan(3500);
    expect(c.cutShort).toMatch(/cut to [0-9] s of real time/);
  });
});

describe('a short time let run before a request that cannot be sent again, without the clock hook', () => {
  it('is the consistency window, or with `realTime: short` real time up to the deadline, noted as cut short', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 10_000, { consistencyWindowMs: 300 });
    let started = Date.now();
    await letShortlyRun(c);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(c.cutShort).toBeUndefined();
    started = Date.now();
    await letShortlyRun(c, { realTime: 'short' });
    // The deadline is under 7 s away: the wait leaves 5 s of it, far short of the minute and a half it is given.
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(c.cutShort).toMatch(/cut to [0-9] s of real time, of the 90 s it is given/);
    expect(server.seen).toHaveLength(0);
  });
});

describe('a violation found after a real-time wait the deadline cut short, without the clock hook', () => {
  const violation = () => new RuleViolation('P1.account.serves.get-account', 'the change never showed');

  it('is an `error` (the change may yet have come in time), not a `fail`', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 10_000);
    const last = await untilShortlyDone(
      c,
      () => c.get('/v4/account'),
      () => false,
    );
    expect(last.status).toBe(200);
    expect(c.recordViolation(violation())).toBe('error');
    expect(c.record).toMatchObject({ verdict: 'error', message: expect.stringMatching(/never showed — not a verdict: .*deadline cut to \d s of real time/) });
    expect(c.record.failedRule).toBeUndefined();
  });

  it('is a `fail` where the wait ended with what it waited for', async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 10_000);
    await untilShortlyDone(
      c,
      () => c.get('/v4/account'),
      (exchange) => exchange.status === 200,
    );
    expect(c.recordViolation(violation())).toBe('fail');
    expect(c.record).toMatchObject({ verdict: 'fail', failedRule: 'P1.account.serves.get-account' });
  });

  it("in a scenario run twice, is the second run's: a `fail` where only the first run's wait was cut short", async () => {
    server = await startFakeServer(hostile.ok());
    const c = checkOn(server.url, 10_000);
    let runs = 0;
    const thrown = await twice(c, async () => {
      if (++runs === 1)
        await untilShortlyDone(
          c,
          () => c.get('/v4/account'),
          () => false,
        );
      throw violation();
    }).catch((error: unknown) => error);
    expect(runs).toBe(2);
    expect(thrown).toBeInstanceOf(RuleViolation);
    expect(c.recordViolation(thrown as RuleViolation)).toBe('fail');
  });
});

describe('a request refused for what the documents do not time, sent again while a short time passes', () => {
  it('without the clock hook, is given `minutes` of real time in all since it was first refused, not a wait in every check', async () => {
    const on = targetAt('http://127.0.0.1:9');
    const sent: string[] = [];
    const refusal = (path: string) => async () => {
      sent.push(path);
      return { method: 'GET', path, status: 400 } as Exchange;
    };
    // Each check's deadline is 7.1 s away: a wait of 2.1 s, one send again after 2 s (the rest is for what follows).
    const inCheck = (path: string) => onceNotBusy(new Check(['P1.account.serves.get-account'], on, 10_100), refusal(path), { untimed: true, minutes: 1 / 60 });
    let started = Date.now();
    await inCheck('/v4/young/stats');
    expect(Date.now() - started).toBeGreaterThan(1900);
    // (the refusal met first is the wait's first read: not sent again at once)
    expect(sent).toEqual(Array(2).fill('/v4/young/stats'));
    // A second of real time has passed since it was first refused: sent once, at once; another request is waited for.
    started = Date.now();
    await inCheck('/v4/young/stats');
    expect(Date.now() - started).toBeLessThan(500);
    expect(sent).toHaveLength(3);
    await inCheck('/v4/young/transfer');
    expect(sent.slice(3)).toEqual(Array(2).fill('/v4/young/transfer'));
  });

  it('without the clock hook, still refused after the wait within `minutes` in all: a check failing on it, or unable to go on, is not judged', async () => {
    const on = targetAt('http://127.0.0.1:9');
    const refused = (path: string) => async () =>
      ({ method: 'POST', path, status: 400, body: { errors: [{ reason: 'Instance 3 is still being created' }] } }) as Exchange;
    const c = new Check(['P1.account.serves.get-account'], on, 10_100);
    const last = await onceNotBusy(c, refused('/v4/compute/instances/3/backups'));
    const failedOn = (exchange: Exchange) => new RuleViolation('P1.account.serves.get-account', 'should succeed', exchange);
    expect(c.unjudgedForBusy(failedOn(last))).toMatch(
      /^POST \/v4\/compute\/instances\/3\/backups was still refused after the check's wait \(HTTP 400 "Instance 3 is still being created"\), as while what it acts on is busy: .*without the clock hook/,
    );
    expect(c.unjudgedForBusy(new Error('could not create a configuration profile'))).toMatch(/still refused .*\(could not create a configuration profile\)$/);
    expect(c.unjudgedForBusy(new SkipCheck('needs a second region'))).toBeUndefined();
    // A violation on another exchange is judged.
    expect(c.unjudgedForBusy(failedOn({ ...last }))).toBeUndefined();
    // Another check failing on that refusal (a shared fixture's, made by this one) is not judged either; on anything else it is.
    const awaiting = new Check(['P1.account.serves.get-account'], on, 10_100);
    expect(awaiting.unjudgedForBusy(failedOn(last))).toMatch(/^POST \/v4\/compute\/instances\/3\/backups was still refused after the check's wait/);
    expect(awaiting.unjudgedForBusy(new Error('could not create a configuration profile'))).toBeUndefined();
    // Each wait lasts 2.1 s: refused for `minutes` (3 s) in all since first refused, it is judged.
    const stillBusyAfterWait = async () => {
      const inCheck = new Check(['P1.account.serves.get-account'], on, 10_100);
      await onceNotBusy(inCheck, refused('/v4/compute/instances/4/backups'), { minutes: 3 / 60 });
      return inCheck.stillBusy.size > 0;
    };
    expect(await stillBusyAfterWait()).toBe(true);
    expect(await stillBusyAfterWait()).toBe(false);
    // The instance deleted since, its id given to a new one: refused afresh.
    on.views.noteDeleted('/v4/compute/instances/4');
    expect(await stillBusyAfterWait()).toBe(true);
  });
});

describe('a run-wide lock (account-wide state such as the monitoring plan)', () => {
  it('makes a second check wait for the first (calls of one check share it), and ends a check still waiting at its deadline', async () => {
    server = await startFakeServer(hostile.ok());
    const shared = { out: mkdtempSync(join(tmpdir(), 'lock-')), runId: 'lock-run' };
    const first = checkOn(server.url, 4000, shared);
    const second = checkOn(server.url, 4000, shared);
    const order: string[] = [];
    const hold = (c: Check, name: string, ms: number) =>
      c.exclusively('plan', async () => {
        order.push(`${name} in`);
        // a check may take the lock again inside itself
        await c.exclusively('plan', () => new Promise((resolve) => setTimeout(resolve, ms)));
        order.push(`${name} out`);
      });
    await Promise.all([hold(first, 'first', 200), new Promise((resolve) => setTimeout(resolve, 20)).then(() => hold(second, 'second', 0))]);
    expect(order).toEqual(['first in', 'first out', 'second in', 'second out']);

    // Calls of one check sent at once share its lock: another check waits until the last of them ends.
    order.length = 0;
    await Promise.all([
      hold(first, 'first a', 100),
      hold(first, 'first b', 300),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => hold(second, 'second', 0)),
    ]);
    expect(order).toEqual(['first a in', 'first b in', 'first a out', 'first b out', 'second in', 'second out']);

    // its deadline is 1 s away (half of 2 s): the lock is held for 1.5 s
    const late = checkOn(server.url, 2000, shared);
    const holding = hold(first, 'first', 1500);
    await expect(late.exclusively('plan', async () => {})).rejects.toThrow(/another check held plan until the check's deadline/);
    await holding;
  });

  it("gives a check the time it waited for another check's lock: its deadline moves on by the wait", async () => {
    server = await startFakeServer(hostile.ok());
    const shared = { out: mkdtempSync(join(tmpdir(), 'lock-')), runId: 'lock-run' };
    const holder = checkOn(server.url, 10_000, shared);
    const waiter = checkOn(server.url, 10_000, shared);
    const deadline = waiter.deadline;
    let release: () => void = () => {};
    const holding = holder.exclusively('plan', () => new Promise<void>((resolve) => (release = resolve)));
    const waiting = waiter.exclusively('plan', async () => waiter.deadline);
    await new Promise((resolve) => setTimeout(resolve, 600));
    release();
    await holding;
    const moved = (await waiting) - deadline;
    expect(moved).toBeGreaterThanOrEqual(550);
    expect(moved).toBeLessThan(1500);
  });
});

describe('a run-wide lock held throughout by checks of one block, one after another', () => {
  // Declared as a spec file's checks are, when the file is collected.
  const declared: Array<{ handsOver?: string }> = [];
  describe('a block', () => {
    declared.push(declareHandover('clock'), declareHandover('clock'), declareHandover(undefined), declareHandover('clock'), declareHandover('plan'));
    it('hands it over to the next check declared in the block with the same lock, and to no other', () => {
      expect(declared.slice(0, 4).map((check) => check.handsOver)).toEqual(['clock', undefined, undefined, undefined]);
    });
  });
  describe('the next block', () => {
    declared.push(declareHandover('plan'));
    it("does not hand it over to a check of another block, nor this block's last check to anything", () => {
      expect(declared.slice(4).map((check) => check.handsOver)).toEqual([undefined, undefined]);
    });
  });
  // (the generic file's checks of its IPv6 range, over the range endpoints' blocks)
  const across: Array<{ handsOver?: string }> = [];
  describe('a block whose checks are declared across blocks', () => {
    across.push(declareHandover('ranges', { acrossBlocks: true }), declareHandover('ranges', { acrossBlocks: true }));
    it('hands it over within the block', () => expect(across[0]!.handsOver).toBe('ranges'));
  });
  describe('the block after it', () => {
    across.push(declareHandover('ranges', { acrossBlocks: true }), declareHandover('ranges'));
    it('hands it over to the next such check of the next block too, and within a block as any check', () => {
      expect(across.slice(0, 4).map((check) => check.handsOver)).toEqual(['ranges', 'ranges', 'ranges', undefined]);
    });
  });
  describe('a block after one ending with a check declared across blocks', () => {
    across.push(declareHandover('ranges', { acrossBlocks: true }));
    it('does not hand over from a check declared otherwise, even when the next is declared across blocks', () => {
      expect(across[3]!.handsOver).toBeUndefined();
    });
  });

  it("is kept for the next check (another thread's taker waits), and released when that check does not come", async () => {
    server = await startFakeServer(hostile.ok());
    const shared = { out: mkdtempSync(join(tmpdir(), 'lock-')), runId: 'lock-run' };
    const first = checkOn(server.url, 4000, shared);
    first.handsOver = 'plan';
    await first.exclusively('plan', async () => {});
    // (a lock taken directly: what another worker thread's check does)
    const otherThread = first.target.lock('plan');
    expect(await otherThread.take(0)).toBeNull();
    const started = Date.now();
    await checkOn(server.url, 4000, shared).exclusively('plan', async () => {});
    expect(Date.now() - started).toBeLessThan(100);
    const release = await otherThread.take(0);
    expect(release).not.toBeNull();
    release!();

    const last = checkOn(server.url, 4000, shared);
    last.handsOver = 'plan';
    await last.exclusively('plan', async () => {});
    const waitedFrom = Date.now();
    expect(await otherThread.take(0)).toBeNull();
    const afterWait = await otherThread.take(3000);
    expect(afterWait).not.toBeNull();
    expect(Date.now() - waitedFrom).toBeGreaterThan(800);
    expect(Date.now() - waitedFrom).toBeLessThan(2500);
    afterWait!();
  });
});
