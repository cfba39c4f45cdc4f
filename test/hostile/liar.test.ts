// A target that answers well-formed JSON but lies (a proxy in front of the emulator rewriting its answers): states
// that never come, status values outside their enums, created items its lists never show, a resource that 404s right
// after its create. A full run finishes within 3× the embedded run's time and the consistency windows it waited out in
// vain (a lie looks like replica lag until the window has passed: wall time the machine's speed does not shorten, so a
// ratio alone failed a correct run in a fast hour), every check with a verdict (no error), and each lie seen as a fail
// of the rule it breaks. The embedded run beside it is
// seed 7 of the zero-fail gate (test/suite/full-run-gate.ts).
// (The hang this guards against: a fixture that waited in vain was waited for again by every check needing it.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIES, startLiarProxy, type FakeServer, type Lie } from './fake-servers.js';
import { startEmulator } from '../safety/support.js';
import { expectVerdictNotCrash, ruleOf, runConformance, type RunOutcome } from './conformance-run.js';
import { describeFullRunGate } from '../suite/full-run-gate.js';

const TOKEN = 'liar-emulator-token-01';
const QUIET = ['--no-allure', '--progress', 'quiet', '--seed', '7'];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let liar: FakeServer;
/** A hang's backstop only: the bound under test is the ratio asserted below. */
const KILL_AFTER_MS = 540_000;
/** The liar run's consistency window. */
const WINDOW_MS = 1000;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN);
  liar = await startLiarProxy(emulator.url);
});

afterAll(async () => {
  await liar?.close();
  await emulator?.stop();
});

/** The rule each lie breaks, as the suite must report it. */
const CAUGHT: Record<string, string> = {
  'image-status-outside-enum': 'P2.image.status.enum',
  'cluster-never-active': 'P1.database.provisioning.time',
  'created-domains-never-listed': 'P1.pagination.consistent',
  'created-domain-404': 'P3.domains.serves.get-domains-id',
};

/**
 * A lie only one check can meet, and when it cannot: the domain list's walk sees the domains it was given hidden
 * unless other spec files change the list during each of its walks (it then skips, having judged nothing).
 */
const UNMET_WHEN: Record<string, { check: string; skipped: RegExp }> = {
  'created-domains-never-listed': {
    check: 'specs/generic/pagination.spec.ts > GET /v4/domains > [P1.pagination.consistent',
    skipped: /changed while it was paged through/,
  },
};

let embedded: RunOutcome;
let outcome: RunOutcome;

beforeAll(async () => {
  // Both runs at once, so that whatever else loads the machine loads both alike and the ratio is the target's own.
  // The defaults for a base URL, but clusters unbudgeted (the never-active lie is met whatever ran first), and a 1 s
  // consistency window: a lie looks like replica lag until the window has passed, which a check pays at most
  // UNSETTLED_WAITS_PER_CHECK times.
  [embedded, outcome] = await Promise.all([
    runConformance(QUIET, KILL_AFTER_MS),
    runConformance(
      ['--base-url', liar.url, '--token', TOKEN, '--max-databases', 'unlimited', '--consistency-window', String(WINDOW_MS), ...QUIET],
      KILL_AFTER_MS,
    ),
  ]);
}, 600_000);

describe('a lying target', () => {
  it('a full run finishes within 3× the embedded run and the windows it waited in vain, with verdicts and no error, and sees every lie it can', () => {
    const results = expectVerdictNotCrash(outcome);
    expect(outcome.code).toBe(1);
    // Each read a lie leaves unsettled waits one window, a check at most a few (harness/consistency.ts): bounded, so a
    // run that hangs (a fixture waited for in vain by every check needing it) still ends far beyond this.
    const waitedInVain = results.checkList.reduce((sum, check) => sum + (check.unsettledReads ?? 0), 0);
    expect(waitedInVain).toBeGreaterThan(0);
    expect(outcome.wallMs).toBeLessThan(3 * embedded.wallMs + waitedInVain * WINDOW_MS);
    const errors = results.checkList.filter((check) => check.verdict === 'error').map((check) => `${check.name}: ${check.message ?? ''}`.slice(0, 300));
    expect(errors).toEqual([]);
    for (const [lie, rule] of Object.entries(CAUGHT)) {
      if (ruleOf(results, rule).status === 'fail') continue;
      // Not met: the one check that could see it skipped, its list changed by other files at each of its walks.
      const unmet = UNMET_WHEN[lie];
      const check = unmet && results.checkList.find((candidate) => candidate.cost?.key.startsWith(unmet.check));
      expect(check && { verdict: check.verdict, message: check.message }, `${lie} → ${rule}`).toEqual({
        verdict: 'skip',
        message: expect.stringMatching(unmet!.skipped),
      });
    }
    expect(Object.keys(CAUGHT).every((id) => LIES.some((lie: Lie) => lie.id === id))).toBe(true);
  });
});

// The embedded run beside it is the yardstick of time, and seed 7 of the zero-fail gate (under this double load).
describeFullRunGate('the embedded yardstick run, seed 7 of the zero-fail gate', () => {
  if (!embedded.results) throw new Error(`the embedded run wrote no results (exit ${embedded.code}): ${embedded.stderr.slice(-2000)}`);
  return { out: embedded.out, results: embedded.results, exitCode: embedded.code, stderr: embedded.stderr };
});
