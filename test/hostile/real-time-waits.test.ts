// A target without the control hooks (a staging server's case) whose allowed choices take a while in real time, as
// the reference emulator makes them when served with `--no-control`: what the documents say happens shortly is waited
// for in real time, up to a minute and a half, each check given that much more time (its deadline cut that wait to
// about 40 s, and a deletion a minute long failed its rule); what they do not time at all and has not shown by then is
// a `skip`, never a `fail`, and only for the checks that need it (a profile not shown made every generated body of
// document 2 an `error`). What a check made on a lent instance and the target refuses to delete while it is busy is
// waited for before the check ends (a profile made an `error` while the instance's shutdown ran its minute).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';
import type { Results } from '../../reports/results.js';
import { EMBEDDED_RUN_SETTINGS, ruleOf, runConformance } from './conformance-run.js';

const TOKEN = 'real-time-waits-token-01';
/** A minute and a half of waiting, the checks before it, and the run's own start and clean-up. */
const RUN_LIMIT_MS = 240_000;

let emulator: EmbeddedEmulator;
let busyProfiles: EmbeddedEmulator;

beforeAll(async () => {
  // A domain is gone a minute after its DELETE; an instance's statistics are refused for its first five minutes; its
  // default profile and disks show two minutes after its create.
  emulator = await startEmbedded(TOKEN, [], ['domain-delete-runs-a-while', 'stats-after-a-while', 'image-layout-when-provisioned'], { control: false });
  // A shutdown runs a minute, and no profile is written while its instance has an action running.
  busyProfiles = await startEmbedded(TOKEN, [], ['shutdown-takes-a-minute', 'profile-writes-refused-while-busy'], { control: false });
});

afterAll(async () => {
  await emulator?.stop();
  await busyProfiles?.stop();
});

async function runOn(rules: string, on = emulator): Promise<Results> {
  const outcome = await runConformance(
    ['--base-url', on.url, '--token', TOKEN, ...EMBEDDED_RUN_SETTINGS, '--rules', rules, '--no-allure', '--progress', 'quiet'],
    RUN_LIMIT_MS,
  );
  expect(outcome.results, outcome.stderr.slice(-2000)).not.toBeNull();
  const wrong = outcome.results!.checkList.filter((check) => check.verdict === 'fail' || check.verdict === 'error');
  expect(wrong.map((check) => `${check.name}: ${check.message}`)).toEqual([]);
  return outcome.results!;
}

describe.concurrent('a target without control hooks whose changes take a while in real time', () => {
  it('a domain gone a minute after its DELETE ("shortly after") is waited for, and the deletion judged', { timeout: RUN_LIMIT_MS + 10_000 }, async () => {
    expect(ruleOf(await runOn('P3.domain.delete.gone'), 'P3.domain.delete.gone').status).toBe('pass');
  });

  it(
    "a new instance's statistics still refused after the wait are not judged (what it answers with no history yet is not shown)",
    { timeout: RUN_LIMIT_MS + 10_000 },
    async () => {
      const results = await runOn('P2.compute.serves.get-compute-instances-id-stats');
      const served = results.checkList.filter((check) => check.rules.includes('P2.compute.serves.get-compute-instances-id-stats'));
      expect(served.map((check) => check.verdict)).toContain('skip');
      expect(served.find((check) => check.verdict === 'skip')?.message).toMatch(/no history yet/);
    },
  );

  it(
    "a new instance's profile not shown after the wait leaves unjudged only the generated bodies that name it",
    { timeout: RUN_LIMIT_MS + 10_000 },
    async () => {
      const results = await runOn('P2.instance-boot.types,P2.instance-create.region.required');
      expect(ruleOf(results, 'P2.instance-create.region.required').status).toBe('pass');
      // (a body that is not an object names nothing: judged)
      const boots = results.checkList.filter((check) => check.rules.includes('P2.instance-boot.types'));
      const naming = boots.filter((check) => check.name.includes('(field config_id)'));
      expect(boots.filter((check) => !naming.includes(check)).map((check) => check.verdict)).toEqual(['pass']);
      expect(naming.map((check) => [check.verdict, check.message])).toEqual([['skip', expect.stringMatching(/lists no configuration profile yet/)]]);
    },
  );

  it(
    "a profile a check made on the file's instance, refused deletion while the instance's shutdown runs, is deleted before the check ends",
    { timeout: RUN_LIMIT_MS + 10_000 },
    async () => {
      expect(ruleOf(await runOn('P2.boot.only-profile', busyProfiles), 'P2.boot.only-profile').status).toBe('pass');
    },
  );
});
