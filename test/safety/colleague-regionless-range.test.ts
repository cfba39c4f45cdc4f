// A colleague on the same account holds an IPv6 range in the configured second region, and the target shows a range
// without its region (what a range shows is not shown: variation ranges-without-region). The target rightly refuses
// the range creates of the checks that need --other-region free of ranges (one range per region per account); the
// suite cannot know that region free of the account's ranges, as a range without a region may be in any region, so
// those checks report `skip` with the reason, never `fail`, and the run exits 0.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { colleagueWithRange, quietRun, startEmulator, tempDir, type CliResult } from './support.js';

const TOKEN = 'colleague-regionless-token-7e41';
const OTHER = 'us-east';
/** The checks that make a range in the second region, which must hold none of the account's. */
const CHECKS = [
  'route_target is a bare IPv6 SLAAC address; exactly one of compute_id and route_target; prefix_length 56 or 64',
  'one range per region and per instance, of the length asked for; a deleted range is gone',
  'assigning a range re-targets it to the SLAAC address of the receiving instance, of its region only',
  'a shared range cannot be deleted; sharing an empty list unshares it',
];
const RULES = [
  'P3.ipv6-range-create.route-target.no-prefix',
  'P3.ipv6-range.one-slaac-per-instance',
  'P3.assign.ipv6-retarget',
  'P3.ipv6-range.shared-cannot-delete',
];
let run: CliResult;
let results: Results;
let emulator: Awaited<ReturnType<typeof startEmulator>>;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN, ['ranges-without-region']);
  await colleagueWithRange(emulator.url, TOKEN, OTHER);
  const out = tempDir('colleague-regionless');
  run = await quietRun(emulator.url, TOKEN, out, ['--region', 'us-west', '--other-region', OTHER, '--rules', RULES.join(',')]);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 180_000);

afterAll(() => emulator?.stop());

describe("a colleague's IPv6 range in --other-region, ranges shown without their region", () => {
  it('makes no check fail: the run exits 0', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(results.checks.fail).toBe(0);
    expect(results.checks.error).toBe(0);
  });

  it.each(CHECKS)('"%s" is a skip with the reason', (name) => {
    const checks = results.checkList.filter((check) => check.name.endsWith(name));
    expect(checks.length, name).toBeGreaterThan(0);
    for (const check of checks) {
      expect(check.verdict, `${name}: ${check.message ?? ''}`).toBe('skip');
      // The route_target check may take the run's region too (`runRegionOrOther`): a regionless range may be in either.
      expect(check.message).toMatch(/already holds an IPv6 range the check did not create in (us-west .* and )?us-east .*one range per region per account/);
    }
  });
});
