// Helpers of the IP address spec (ip-addresses.spec.ts): an instance's addresses as its view (document 2) shows them.
import type { Check } from '../../harness/check.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import { readAfterWrite, skipUnlessShownInTime, untilShortlyDone } from '../../harness/consistency.js';
import type { Exchange } from '../../harness/http.js';
import { listItems as listAll, succeeded } from '../../harness/lists.js';
import { addressesOf } from '../../harness/addresses.js';
import { createRangeFound, rangeCreateOnceFree, regionForIpv6Range, regionsWithoutIpv6Range } from '../../harness/account-limits.js';

type Json = Record<string, unknown>;

export { addressesOf, routeTargetOf } from '../../harness/addresses.js';

// Which ranges private IPv4 addresses come from is not shown (document 2, Compute instance: "one public address on
// creation, possibly one private"; document 3: the IP list holds "addresses of the account, private addresses
// excluded"): RFC 1918's are one choice, the shared address space 100.64.0.0/10 another. Addresses are told apart by
// what the target shows, never by range: an instance's only address is its public one (every instance has one), and
// of several, those the IP list shows are public and one it leaves out is private.

const IPS = '/v4/networking/ips';

/**
 * The addresses the IP list shows, read again within the consistency window until `until` holds of them. Paging
 * through a list other spec files change meanwhile may miss an address that moved to a page already read (seen: an
 * instance's public address missing from one walk while other files created and deleted instances): a walk whose
 * addresses fail `until` is made once more.
 */
async function listedIps(c: Check, until?: (listed: Set<string>) => boolean): Promise<Set<string>> {
  const addressSet = (items: Json[]) => new Set(items.map((item) => item.address).filter((a): a is string => typeof a === 'string'));
  const walk = async () => addressSet(await listAll(c, IPS, undefined, until ? { until: (items) => until(addressSet(items)) } : {}));
  const first = await walk();
  return !until || until(first) ? first : walk();
}

/** A public IPv4 address of the instance: its only one, or one of its addresses the IP list shows. */
export async function publicOf(c: Check, instanceId: number): Promise<string> {
  const { ipv4 } = await addressesOf(c, instanceId);
  if (ipv4.length === 1) return ipv4[0]!;
  if (!ipv4.length) throw new SetupError(`instance ${instanceId} shows no IPv4 address`);
  const listed = await listedIps(c, (shown) => ipv4.some((a) => shown.has(a)));
  const found = ipv4.find((a) => listed.has(a));
  if (!found) throw new SetupError(`instance ${instanceId} shows ${ipv4.join(', ')}, none of them in the IP list (which holds the public ones)`);
  return found;
}

/**
 * The two IPv4 addresses of an instance created with private_ip, one public and one private: whether the private one
 * shows when the create answers or once the instance is provisioned is not shown (document 2), so the instance is read
 * while a short time passes (without the clock hook, not shown by then: skipped). One that shows another number of
 * addresses is judged by document 2's checks.
 */
async function privateIpPair(c: Check, instanceId: number): Promise<string[]> {
  const { ipv4 } = await untilShortlyDone(
    c,
    () => addressesOf(c, instanceId),
    (addresses) => addresses.ipv4.length >= 2,
  );
  skipUnlessShownInTime(c, ipv4.length >= 2, `instance ${instanceId} created with private_ip shows no private IPv4 address yet`);
  if (ipv4.length !== 2)
    throw new SetupError(`instance ${instanceId} created with private_ip shows ${ipv4.length} IPv4 addresses (one public and one private expected)`);
  return ipv4;
}

/** The private address of an instance created with private_ip: of its two addresses, the one the IP list leaves out. */
export async function privateOf(c: Check, instanceId: number): Promise<string> {
  const ipv4 = await privateIpPair(c, instanceId);
  const listed = await listedIps(c, (shown) => ipv4.filter((a) => !shown.has(a)).length === 1);
  const left = ipv4.filter((a) => !listed.has(a));
  if (left.length !== 1)
    throw new SetupError(`cannot tell the private address of instance ${instanceId}: the IP list leaves out ${left.length} of ${ipv4.join(', ')}`);
  return left[0]!;
}

/** The instances an accepted request gave a private IPv4 address, by fixtures: a read of their addresses just after may not show it (a replica). */
const givenPrivate = new WeakMap<Fixtures, Set<number>>();

/** Notes the instance an accepted request for a private IPv4 address named (the valid request's adoption). */
export async function noteGivenPrivate(_c: Check, fx: Fixtures, request: { json?: unknown }, exchange: Exchange): Promise<void> {
  const id = (request.json as Json | undefined)?.compute_id;
  if (!succeeded(exchange) || typeof id !== 'number') return;
  givenPrivate.set(fx, (givenPrivate.get(fx) ?? new Set()).add(id));
}

/**
 * Whether a private IPv4 address may be asked for instance `id` (at most one per instance): it shows its public one
 * only, and no accepted request gave it one (under replica-reads a read just after that request still showed one address).
 */
export async function freeForPrivate(c: Check, fx: Fixtures, id: number): Promise<boolean> {
  return !givenPrivate.get(fx)?.has(id) && (await addressesOf(c, id)).ipv4.length === 1;
}

export async function slaacOf(c: Check, instanceId: number): Promise<string> {
  const { slaac } = await addressesOf(c, instanceId);
  if (!slaac) c.skip(`instance ${instanceId} has no IPv6 SLAAC address`);
  return slaac;
}

const ipv4Of = (c: Check, ids: number[]) => Promise.all(ids.map(async (id) => (await addressesOf(c, id)).ipv4));

/**
 * The IPv4 addresses of each instance after an accepted assignment or allocation, read until `done` holds of them while a
 * short time passes (`untilShortlyDone`: the target's clock a minute at a time, or real time): an assignment
 * "reorganizes" addresses, an allocation "allocates an IPv4 address", and whether the instances show it when the request
 * answers or once it has run is not shown.
 */
export function ipv4AfterAssignment(c: Check, ids: number[], done: (lists: string[][]) => boolean): Promise<string[][]> {
  return untilShortlyDone(c, () => ipv4Of(c, ids), done);
}

/** The instance's addresses as a sorted string, to see that nothing changed. */
export async function snapshot(c: Check, ids: number[]): Promise<string> {
  const parts = [];
  for (const id of ids) parts.push(`${id}:${(await addressesOf(c, id)).ipv4.slice().sort().join(',')}`);
  return parts.join(' ');
}

/** Where an assignment body carries `region`: not at all, beside the array, or in each item. */
type RegionPlace = 'none' | 'beside' | 'items';

/**
 * Two instances of the file in the run's region with a public IPv4 address each, the file's instance and one more:
 * what the assignments that surely change something swap (what an assignment moving nothing answers is not shown).
 * Checks that leave them so share them (an added private address, a reset rDNS, a swap that keeps one public address
 * on each, a refused change and an undone share all leave them so): the budget pays for one instance more, not two
 * per check.
 */
export const publicPair = async (c: Check, fx: Fixtures) => [await fx.instance(c), await fx.secondInstance(c)] as const;

type Assignment = { address: string; compute_id: number };

/** The file's instance's public IPv4 address assigned to it: an assignment that moves nothing (which a server may refuse). */
export async function unchangedAssignment(c: Check, fx: Fixtures): Promise<Assignment[]> {
  const { id } = await fx.instance(c);
  return [{ address: await publicOf(c, id), compute_id: id }];
}

/** Assignments swapping the public IPv4 addresses of the file's pair (`publicPair`), as they are now. */
export async function publicSwap(c: Check, fx: Fixtures): Promise<Assignment[]> {
  const [a, b] = await publicPair(c, fx);
  const [pa, pb] = [await publicOf(c, a.id), await publicOf(c, b.id)];
  return [
    { address: pa, compute_id: b.id },
    { address: pb, compute_id: a.id },
  ];
}

/**
 * The places to try for `region`, in order. ips/assign requires it (where is not shown); ipv4/assign documents
 * `assignments` only, so it goes without one first (a server may refuse a member it does not take).
 */
const regionPlaces = (path: string): RegionPlace[] => (path === '/v4/networking/ipv4/assign' ? ['none', 'beside', 'items'] : ['beside', 'items']);

/** An assignment body with `region` where the target takes it (see `withRegionPlaced`). */
export async function assignmentBody(c: Check, fx: Fixtures, path: string, region: string, assignments: Assignment[]): Promise<Json> {
  return withRegionPlaced(c, fx, path, { region, assignments });
}

/**
 * `body` with its `region` where the target takes it: the first of `regionPlaces` an assignment that moves nothing is
 * accepted with, else (a target may refuse one: what it answers is not shown) the first a swap of the file's pair is
 * accepted with (swapped back at once: a check reads the pair's addresses before it asks for a body), else the first
 * place; found once per path and file. The swap costs a second instance only on a target refusing the first. A body without one is sent as it is. Where the target takes it in each item
 * and the body has no items, `region` is left out: beside the array it would be refused for its place, not for what
 * the body breaks.
 */
export async function withRegionPlaced(c: Check, fx: Fixtures, path: string, body: Json): Promise<Json> {
  const place = await fx.shared(`region placement of ${path}`, async (): Promise<RegionPlace> => {
    const region = c.target.info.config.region;
    const places = regionPlaces(path);
    const unchanged = await unchangedAssignment(c, fx);
    for (const candidate of places) if (succeeded(await c.post(path, placed({ assignments: unchanged }, candidate, region)))) return candidate;
    const swap = await publicSwap(c, fx);
    const back = swap.map(({ address }, i) => ({ address, compute_id: swap[1 - i]!.compute_id }));
    for (const candidate of places)
      if (succeeded(await c.post(path, placed({ assignments: swap }, candidate, region)))) {
        await swapped(c, swap);
        await c.post(path, placed({ assignments: back }, candidate, region));
        await swapped(c, back);
        return candidate;
      }
    return places[0]!;
  });
  const { region: beside, ...rest } = body;
  const items = Array.isArray(body.assignments) ? (body.assignments as unknown[]) : undefined;
  const region = beside ?? items?.find((item): item is Json => isItem(item) && item.region !== undefined)?.region;
  return region === undefined ? body : placed(rest, place, region);
}

/**
 * After an accepted assignment request: waits until each instance its body names shows the address it was given, so a
 * later check reading the instances first is not answered from before it (a read may lag a write). Items that are not
 * an address and an instance id are left out.
 */
export async function assignmentShown(c: Check, exchange: Exchange, body: unknown): Promise<void> {
  const items = isItem(body) && Array.isArray(body.assignments) ? (body.assignments as unknown[]) : [];
  const assignments = items.filter((item): item is Assignment => isItem(item) && typeof item.address === 'string' && typeof item.compute_id === 'number');
  if (succeeded(exchange) && assignments.length > 0) await swapped(c, assignments);
}

/** Waits (while a short time passes: `ipv4AfterAssignment`) until each instance of `assignments` shows the address it was given. */
function swapped(c: Check, assignments: Assignment[]): Promise<string[][]> {
  return ipv4AfterAssignment(
    c,
    assignments.map((item) => item.compute_id),
    (lists) => assignments.every((item, i) => lists[i]!.includes(item.address)),
  );
}

const isItem = (item: unknown): item is Json => !!item && typeof item === 'object' && !Array.isArray(item);

/** `body` (its items' own `region` taken out) with `region` at `place`. */
function placed(body: Json, place: RegionPlace, region: unknown): Json {
  const { region: _beside, assignments, ...rest } = body;
  const items = Array.isArray(assignments) ? (assignments as unknown[]) : undefined;
  const bare = items?.map((item) => (isItem(item) ? Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'region')) : item));
  const withAssignments = (list: unknown) => (assignments === undefined ? {} : { assignments: list });
  if (place === 'beside') return { ...rest, region, ...withAssignments(bare ?? assignments) };
  if (place === 'items' && bare) return { ...rest, ...withAssignments(bare.map((item) => (isItem(item) ? { ...item, region } : item))) };
  return { ...rest, ...withAssignments(bare ?? assignments) };
}

// ------------------------------------------------------------------ IPv6 ranges

export const RANGES = '/v4/networking/ipv6/ranges';

/** Two new instances in the second region (holding no range of the account) and their SLAAC addresses. */
export async function pairInFreeRegion(c: Check, fx: Fixtures) {
  const region = await otherRegion(c, { free: true });
  const [p, q] = [await fx.newInstance(c, { region }), await fx.newInstance(c, { region })];
  return { region, p, q, sp: await slaacOf(c, p.id), sq: await slaacOf(c, q.id) };
}

/**
 * The configured second region (`otherRegion`); `free`: it must hold no range of the account, read as
 * `regionForIpv6Range` reads it (a range that shows no region may be in any region; one still there is waited for
 * while a short time passes, as a deletion running), else the check skips.
 */
export async function otherRegion(c: Check, options: { free?: boolean } = {}): Promise<string> {
  const region = c.setting('otherRegion', 'needs a second region: set --other-region');
  if (!options.free) return region;
  return regionForIpv6Range(c, [region], '; the check needs the second region (--other-region) to hold none', { waitForRoom: true });
}

/**
 * The run's region where it holds no range of the account, else the configured second region (`otherRegion` with
 * `free`). The other range checks are made in the second region: a check made here where it can judges the range's
 * region in a second one, as a server making every range in one region whatever the instance's shows in one of two.
 */
export async function runRegionOrOther(c: Check): Promise<string> {
  const other = c.setting('otherRegion', 'needs a second region: set --other-region');
  return regionForIpv6Range(c, [c.target.info.config.region, other], "; the check needs the run's region or the second region (--other-region) to hold none", {
    waitForRoom: true,
  });
}

/**
 * The other of the run's region and the second region than `region` (where the check holds a range), when it holds no
 * range of the account before the check makes one (`regionsWithoutIpv6Range`).
 */
export async function otherRangeRegionFree(c: Check, region: string): Promise<string | undefined> {
  const regions = [c.target.info.config.region, c.setting('otherRegion', 'needs a second region: set --other-region')];
  const other = regions.find((candidate): candidate is string => typeof candidate === 'string' && candidate !== region);
  return other === undefined ? undefined : (await regionsWithoutIpv6Range(c, [other]))[0];
}

/**
 * POST a range; on success it is found again (`createRangeFound`: by `range`, by route_target, or as the range new in
 * the list) and tracked for deletion. A create the check expects accepted is sent again while refused
 * (`rangeCreateOnceFree`: the file's range checks follow each other's deletions in the same region, which may stay
 * taken a while); `once`: a create the check expects refused.
 */
export async function createRange(
  c: Check,
  fx: Fixtures,
  body: Json,
  target?: string,
  { once = false }: { once?: boolean } = {},
): Promise<{ exchange: Exchange; range?: string }> {
  const send = () => c.post(RANGES, body);
  const made = await createRangeFound(c, once ? send : () => rangeCreateOnceFree(c, send), target);
  if (made.range) fx.track('ipv6-range', made.range, made.range);
  return made;
}

export async function rangeView(c: Check, range: string): Promise<Exchange> {
  return c.get(`${RANGES}/${range}`);
}

/**
 * The view of a range just made, read again until it `shows` what the check expects: a replica may not have it yet, or
 * still show a deleted range of the same address.
 */
export async function newRangeView(c: Check, range: string, shows: (view: Json) => boolean): Promise<Exchange> {
  return readAfterWrite(
    c,
    () => rangeView(c, range),
    (view) => succeeded(view) && shows((view.body ?? {}) as Json),
  );
}

/**
 * The IP list holds a public address of the instance and not its private one: `priv`, an address allocated as private,
 * or, not given, one of the two addresses of an instance created with private_ip (one public and one private: which is
 * which is the list's to tell, so it must leave one of them out).
 */
export async function judgeIpList(c: Check, instanceId: number, priv?: string): Promise<void> {
  const ipv4 = priv === undefined ? await privateIpPair(c, instanceId) : (await addressesOf(c, instanceId)).ipv4;
  const publics = ipv4.filter((a) => a !== priv);
  const listed = await listedIps(c, (shown) => publics.some((a) => shown.has(a)));
  c.expect(
    'P3.ips.list.no-private',
    publics.some((a) => listed.has(a)),
    `no public address of instance ${instanceId} (${publics.join(', ')}) is in the IP list`,
  );
  if (priv !== undefined) c.expect('P3.ips.list.no-private', !listed.has(priv), `the private address ${priv} of instance ${instanceId} is in the IP list`);
  else
    c.expect(
      'P3.ips.list.no-private',
      !ipv4.every((a) => listed.has(a)),
      `the IP list holds both addresses of instance ${instanceId}, created with private_ip (one public, one private): ${ipv4.join(', ')}`,
    );
}

/**
 * Why a refused move of addresses by a restricted user with read_write on every instance judges nothing: "the caller
 * needs read_write on all addresses and instances", and the grants a restricted user holds on addresses are not shown
 * (no principal the suite makes holds one). The refusal with a grant lacking is judged on its own.
 */
export const addressGrantsNotShown = (answer: string) =>
  `a restricted user with read_write on both instances was refused too (${answer}): grants on addresses are not shown, and the suite cannot give one`;

/** Whether a range's view shows it in `region`, or shows no region. */
export const inRegion = (view: Json, region: string) => typeof view.region !== 'string' || view.region === region;
