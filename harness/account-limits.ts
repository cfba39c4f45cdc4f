// Limits the documents set on the account's state, which a colleague on a shared account may already have used up:
// one IPv6 range per region per account (document 3) and up to 10 VLANs per region (document 2). A check that needs
// room under such a limit asks here first: where the account's state, not made by this run, may leave no room, the
// check reports `skip` with the reason (a documented refusal is not a `fail`). The regions of ranges and VLANs are
// not shown: an item without a `region` member may be in any region.
import type { Check } from './check.js';
import { listItems } from './lists.js';

type Json = Record<string, unknown>;

const VLANS_PER_REGION = 10;
const RANGES = '/v4/networking/ipv6/ranges';
const VLANS = '/v4beta/networking/vlans';

const mayBeIn = (item: Json, region: string) => typeof item.region !== 'string' || item.region === region;
const bare = (range: unknown) => String(range).replace(/\/\d+$/, '');

/**
 * The first of `regions` (e.g. --region, then --other-region) where the account may take an IPv6 range: no range may
 * be there (the caller deleted its own first). Skips when none.
 */
export async function regionForIpv6Range(c: Check, regions: Array<string | null | undefined>): Promise<string> {
  const others = await listItems(c, RANGES);
  const given = regions.filter((region): region is string => typeof region === 'string' && region.length > 0);
  const free = given.find((region) => !others.some((item) => mayBeIn(item, region)));
  if (free) return free;
  const held = given.map(
    (region) =>
      `${region} (${others
        .filter((item) => mayBeIn(item, region))
        .map((item) => bare(item.range))
        .join(', ')})`,
  );
  return c.skip(
    `the account already holds an IPv6 range the check did not create in ${held.join(' and ')}: one range per region per account` +
      (given.length < 2 ? '; give --other-region with no range to judge the rule there' : ''),
  );
}

/**
 * Skips unless `wanted` new VLANs fit in `region`: up to 10 per region, and VLANs the run did not make (their label
 * does not carry the run prefix) may fill it.
 */
export async function needVlanRoom(c: Check, region: string, wanted = 1): Promise<void> {
  const prefix = `"${c.target.info.config.runId}-`;
  const inRegion = (await listItems(c, VLANS)).filter((item) => mayBeIn(item, region));
  const others = inRegion.filter((item) => !JSON.stringify(item).includes(prefix));
  // The run's own VLANs filling the region is the run's doing: then the refusal is judged as usual.
  if (others.length && inRegion.length + wanted > VLANS_PER_REGION)
    c.skip(
      `the account already holds ${others.length} VLAN(s) the run did not create that may be in ${region} (${inRegion.length} in all there): up to ${VLANS_PER_REGION} per region leaves no room for ${wanted} more; give --vlan-region with room`,
    );
}

/** How many VLANs a body's interfaces name: the most it may create (a label the account holds is attached, not made). */
export function vlansNamed(body: unknown): number {
  const labels = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const item = value as Json;
      if (item.purpose === 'vlan' && typeof item.label === 'string') labels.add(item.label);
      Object.values(item).forEach(walk);
    }
  };
  walk(body);
  return labels.size;
}
