// A colleague on the same account holds an IPv6 range in another region, and the target answers a range create with
// `{}` (what it answers is not shown: variation range-create-answers-empty): the run finds the range it made by the
// address it routes to, never the colleague's by its place in the list, so the checks that delete the run's range
// leave the colleague's alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, colleagueWithRange, quietRun, startEmulator, tempDir, type CliResult } from './support.js';

const TOKEN = 'colleague-range-token-51c2';
const RULES = ['P3.ips.serves.get-networking-ipv6-ranges-id', 'P3.ips.serves.delete-networking-ipv6-ranges-id'];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let colleague: ReturnType<typeof api>;
let colleagueRange: string;
let run: CliResult;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN, ['range-create-answers-empty']);
  ({ colleague } = await colleagueWithRange(emulator.url, TOKEN, 'us-east'));
  colleagueRange = String((await colleague.list('/v4/networking/ipv6/ranges'))[0]!.range);
  run = await quietRun(emulator.url, TOKEN, tempDir('colleague-range'), ['--region', 'us-west', '--other-region', 'us-east', '--rules', RULES.join(',')]);
}, 180_000);

afterAll(() => emulator?.stop());

describe("a colleague's IPv6 range in another region, range creates answering {}", () => {
  it('fails no check: the run exits 0', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
  });

  it("leaves the colleague's range on the account", async () => {
    const ranges = (await colleague.list('/v4/networking/ipv6/ranges')).map((item) => String(item.range));
    expect(ranges).toContain(colleagueRange);
  });
});
