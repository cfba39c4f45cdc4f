// A colleague on the same account (another token of the same emulator) already holds the region's IPv6 range and
// its 10 VLANs: the documents allow the target to refuse a new one, so the checks needing one report `skip` with the
// reason, never `fail`, and the run exits 0. The emulator judges that limit before a range body's prefix_length
// (variation range-limit-checked-first), so a body breaking prefix_length is refused naming another member.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../reports/results.js';
import { colleagueWithRange, quietRun, startEmulator, tempDir, type CliResult } from './support.js';

const TOKEN = 'colleague-state-token-3d9a';
const REGION = 'us-east';
/** The checks that make an IPv6 range or a new VLAN in the configured region. */
const RULES = [
  'P3.ips.serves.post-networking-ipv6-ranges',
  'P3.ips.serves.get-networking-ipv6-ranges-id',
  'P2.interfaces.label.new-creates-vlan',
  'P3.vlan.list-account',
  'P3.vlan.detach',
  'P3.ipv6-range.prefix-length.enum',
  'P3.ipv6-range-create.prefix-length.required',
];
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let run: CliResult;
let results: Results;

beforeAll(async () => {
  emulator = await startEmulator(TOKEN, ['range-limit-checked-first']);
  const { colleague, instance } = await colleagueWithRange(emulator.url, TOKEN, REGION);
  // Three vlan interfaces a profile (at most 3 interfaces): 3 + 3 + 3 + 1 new VLANs.
  for (const [index, count] of [3, 3, 3, 1].entries()) {
    const interfaces = Array.from({ length: count }, (_, n) => ({ purpose: 'vlan', label: `colleague-vlan-${index}-${n}` }));
    await colleague.create(`/v4/compute/instances/${String(instance.id)}/configs`, { label: `colleague-cfg-${index}`, devices: {}, interfaces });
  }
  expect((await colleague.list('/v4beta/networking/vlans')).length).toBe(10);
  const out = tempDir('colleague');
  run = await quietRun(emulator.url, TOKEN, out, ['--region', REGION, '--vlan-region', REGION, '--rules', RULES.join(',')]);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;
}, 180_000);

afterAll(() => emulator?.stop());

const checksOf = (id: string) => results.rules.find((rule) => rule.id === id)?.checks ?? [];

describe("a colleague holding the region's IPv6 range and its 10 VLANs", () => {
  it('makes no check fail: the run exits 0', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(results.summary.fail).toBe(0);
    expect(results.summary.error).toBe(0);
  });

  it.each([
    [
      'P3.ips.serves.post-networking-ipv6-ranges',
      /already holds an IPv6 range the check did not create in us-east .*one range per region per account; give --other-region/,
    ],
    ['P3.ips.serves.get-networking-ipv6-ranges-id', /already holds an IPv6 range/],
    ['P2.interfaces.label.new-creates-vlan', /already holds 10 VLAN\(s\) the run did not create that may be in us-east .*up to 10 per region/],
    ['P3.vlan.list-account', /already holds 10 VLAN\(s\)/],
    ['P3.vlan.detach', /already holds 10 VLAN\(s\)/],
    ['P3.ipv6-range-create.prefix-length.required', /already holds an IPv6 range the check did not create in us-east/],
  ])('%s is a skip with the reason', (id, reason) => {
    const checks = checksOf(id);
    expect(checks.length, id).toBeGreaterThan(0);
    for (const check of checks) {
      expect(check.verdict, `${id}: ${check.message ?? ''}`).toBe('skip');
      expect(check.message).toMatch(reason);
    }
  });
});
