// Limits the documents set on the account's state, which a colleague on a shared account may already have used up:
// one IPv6 range per region per account (document 3) and up to 10 VLANs per region (document 2). A check that needs
// room under such a limit asks here first: where the account's state, not made by this run, may leave no room, the
// check reports `skip` with the reason (a documented refusal is not a `fail`). The regions of ranges and VLANs are
// not shown: an item without a `region` member may be in any region.
import { routeTargetOf } from './addresses.js';
import type { Check } from './check.js';
import { readAfterWrite, untilShortlyDone, untilShortlyDoneSparingly } from './consistency.js';
import type { Exchange } from './http.js';
import { listItems, succeeded } from './lists.js';
import { onTarget } from './target-key.js';
import { pendingOfRun } from './cleanup.js';

type Json = Record<string, unknown>;

const VLANS_PER_REGION = 10;
const RANGES = '/v4/networking/ipv6/ranges';
const VLANS = '/v4beta/networking/vlans';

const mayBeIn = (item: Json, region: string) => typeof item.region !== 'string' || item.region === region;
const bare = (range: unknown) => String(range).replace(/\/\d+$/, '');
/** Which of `regions` none of the listed ranges `items` may be in. */
const rangeFreeRegions = (items: Json[], regions: string[]) => regions.filter((region) => !items.some((item) => mayBeIn(item, region)));

/** Ranges still held a region after `regionForIpv6Range` waited for it: another's, not a deletion running (`onTarget`). */
const outlastedWait = new Set<string>();

/**
 * The first of `regions` (e.g. --region, then --other-region) where the account may take an IPv6 range: no range may
 * be there (the caller deleted its own first). Skips when none; `advice` ends the reason (by default, with one region,
 * to give --other-region). `waitForRoom`: a range deleted a short time ago (by the check before, holding the ranges'
 * lock) may hold its region a while (when it is free again is not shown), so the list is read again while a short time
 * passes, unless a range there outlasted such a wait before (a colleague's: skipped at once). A range another spec file
 * of this run keeps there (its cleanup ledger says so) is waited for each time, and the skip says whose it is.
 */
export async function regionForIpv6Range(c: Check, regions: Array<string | null | undefined>, advice?: string, { waitForRoom = false } = {}): Promise<string> {
  const given = regions.filter((region): region is string => typeof region === 'string' && region.length > 0);
  const freeIn = (items: Json[]) => rangeFreeRegions(items, given)[0];
  const holding = (items: Json[]) => items.filter((item) => given.some((region) => mayBeIn(item, region)));
  let others = await listItems(c, RANGES);
  if (waitForRoom && !freeIn(others) && !holding(others).some((item) => outlastedWait.has(onTarget(c, bare(item.range)))))
    others = await untilShortlyDone(
      c,
      () => listItems(c, RANGES),
      (items) => freeIn(items) !== undefined,
    );
  const free = freeIn(others);
  if (free) return free;
  // A range a spec file of this run made and keeps between its checks (the ranges' lock is held per request) is no
  // colleague's: it goes at that file's pace, and is waited for again next time.
  const { out, runId } = c.target.info.config;
  const ours = new Set(
    pendingOfRun(out, runId).flatMap((entry) => (entry.kind === 'ipv6-range' ? [bare(decodeURIComponent(entry.deletePath.split('/').pop() ?? ''))] : [])),
  );
  const runsOwn = holding(others).filter((item) => ours.has(bare(item.range)));
  if (waitForRoom) for (const item of holding(others)) if (!ours.has(bare(item.range))) outlastedWait.add(onTarget(c, bare(item.range)));
  if (runsOwn.length && runsOwn.length === holding(others).length)
    return c.skip(
      `another spec file of this run keeps an IPv6 range in ${given.join(' and ')} between its checks (${runsOwn.map((item) => bare(item.range)).join(', ')}): one range per region per account`,
    );
  const held = given.map(
    (region) =>
      `${region} (${others
        .filter((item) => mayBeIn(item, region))
        .map((item) => bare(item.range))
        .join(', ')})`,
  );
  return c.skip(
    `the account already holds an IPv6 range the check did not create in ${held.join(' and ')}: one range per region per account` +
      (advice ?? (given.length < 2 ? '; give --other-region with no range to judge the rule there' : '')),
  );
}

/** Which of `regions` hold no range of the account now, read as `regionForIpv6Range` reads them (no wait, no skip). */
export async function regionsWithoutIpv6Range(c: Check, regions: string[]): Promise<string[]> {
  return rangeFreeRegions(await listItems(c, RANGES), regions);
}

/**
 * An IPv6 range create the caller expects accepted, sent again while it is refused (`untilShortlyDoneSparingly`: at
 * once, after a minute of the target's clock and after ten, or once more after a minute and a half of real time). One
 * range per region per account, and when the region of a range just deleted may take one again is not shown: a create
 * following a deletion in its region (the check's own, a fixture's, another file's before it took the ranges' lock) may
 * be refused a while by a correct server. The ranges' list cannot say so (the deleted range may be gone from it at once), so every
 * such create goes through here; a refusal for what the request breaks stays a refusal, judged by the caller. Only
 * refusals are sent again (a 4xx other than 401, 403, 404, 405): what an accepted create made is the caller's to track.
 */
export function rangeCreateOnceFree(c: Check, send: () => Promise<Exchange>): Promise<Exchange> {
  const refused = (exchange: Exchange) => exchange.status >= 400 && exchange.status < 500 && ![401, 403, 404, 405].includes(exchange.status);
  return untilShortlyDoneSparingly(c, send, (exchange) => !refused(exchange));
}

/** The range each create sent through `createRangeFound` made, by its exchange: a valid request's adoption reads it. */
const rangesMade = new WeakMap<Exchange, string>();

/** Whether a listed range is the one the create answered by `exchange` made, when `createRangeFound` sent it and found it. */
export function rangeMadeBy(exchange: Exchange): ((item: Json) => boolean) | undefined {
  const made = rangesMade.get(exchange);
  return made === undefined ? undefined : (item) => bare(item.range) === made;
}

/**
 * Sends a range create (`send`) and finds the range it made, bare: the answer's `range`, else the listed range routing
 * to `slaac`, else the one range listed now that was not before the create. What the create answers is not shown, nor
 * whether a range shows its route_target (document 3: "Full field lists of … IPv6 range … objects as returned: not
 * shown"); the callers hold the ranges' lock, so no other range of the run is made meanwhile.
 */
export async function createRangeFound(c: Check, send: () => Promise<Exchange>, slaac?: string | null): Promise<{ exchange: Exchange; range?: string }> {
  const before = new Set((await listItems(c, RANGES)).map((item) => bare(item.range)));
  const exchange = await send();
  if (!succeeded(exchange)) return { exchange };
  const answered = (exchange.body as Json | undefined)?.range;
  if (typeof answered === 'string') return { exchange, range: bare(answered) };
  const target = slaac ? routeTargetOf({ route_target: slaac }) : undefined;
  const made = (items: Json[]) => {
    const ranges = items.filter((item) => typeof item.range === 'string');
    const fresh = ranges.filter((item) => !before.has(bare(item.range)));
    return ranges.find((item) => target !== undefined && routeTargetOf(item) === target) ?? (fresh.length === 1 ? fresh[0] : undefined);
  };
  const found = await readAfterWrite(
    c,
    async () => made(await listItems(c, RANGES)),
    (item) => item !== undefined,
  );
  if (!found) return { exchange };
  rangesMade.set(exchange, bare(found.range));
  return { exchange, range: bare(found.range) };
}

/**
 * Skips unless `region`, which shows no range, takes one now: asked after a request was refused for what may be the
 * region's one range. A range deleted a short time ago may still hold a region it is gone from the list of (when the
 * region is free again is not shown), and a server may judge the region's one range before a body (which fault it
 * names first is not shown). A valid create for the instance `computeId` of the region (SLAAC address `slaac`) is sent
 * once: accepted, the range is deleted again and the caller judges; refused, the check skips.
 */
export async function needRangeRoomNow(c: Check, region: string, computeId: number, slaac: string): Promise<void> {
  const { exchange: probe, range } = await createRangeFound(c, () => c.post(RANGES, { prefix_length: 64, compute_id: computeId }), slaac);
  if (!succeeded(probe))
    c.skip(
      `${region} shows no IPv6 range but refused one for instance ${computeId}: a range deleted a short time ago may still hold it (when a region is free again is not shown)`,
    );
  if (range) await c.delete(`${RANGES}/${range}`);
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
