// Document 3, "IP addresses": an assignment of addresses and IPv6 ranges (ips/assign, ipv4/assign), judged whole
// then applied (the choices where the document is silent are in ips.ts).
import { isIPv4 } from 'node:net';
import { canAccess } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { RequestContext } from '../core/types.js';
import { asObject, fail, optString, reqArray, reqInt, reqString } from '../core/validate.js';
import { getInstance, instanceFromBody, listInstances, type Instance } from '../core/entities.js';
import { judgeEndStatesFirst, judgeItemsFirst, refuseRegionMember } from './ips-assign-orders.js';
import { varied } from '../variations/index.js';
import { faulty } from '../faults/index.js';
import { type Ipv6Range, isPrivate4, norm6, ownerBySlaac, ownerOf4, parseRange, ranges, slaacOf, visibleRange } from './ips-model.js';

// ---------------------------------------------------------------------------------------------- assignment

/** Under the variation address-moves-unrestricted-only no restricted user holds read_write on addresses. */
export function requireAddressGrants(ctx: RequestContext): void {
  if (ctx.principal?.restricted && varied(ctx.store, 'address-moves-unrestricted-only'))
    fail('You need read_write access to the addresses: restricted users cannot move or share addresses.', null, 403);
}

export function assign(ctx: RequestContext, withRanges: boolean): Record<string, never> {
  requireAddressGrants(ctx);
  const o = asObject(ctx.body ?? {});
  if (varied(ctx.store, 'assign-items-first')) judgeItemsFirst(ctx.store, o);
  if (varied(ctx.store, 'assign-end-states-first')) judgeEndStatesFirst(ctx.store, o);
  // `region` may stand beside the array or in each item (placement not shown): required for ips/assign unless
  // every item carries one. Checked before the array so that a missing region is named as such.
  if (!withRanges && varied(ctx.store, 'ipv4-assign-assignments-only')) refuseRegionMember(o);
  let region = optString(o, 'region');
  // Under the variation ips/assign takes region in each item only (required there, checked with the items).
  const inItemsOnly = withRanges && varied(ctx.store, 'assign-region-in-items');
  if (inItemsOnly && region !== undefined) fail('region goes in each assignment, not beside the array.', 'region');
  if (withRanges && !inItemsOnly && region === undefined && !faulty(ctx.store, 'P3.ips-assign.region.required')) {
    const raw = o['assignments'];
    const inItems =
      Array.isArray(raw) &&
      raw.length > 0 &&
      raw.every((it) => it !== null && typeof it === 'object' && (it as Record<string, unknown>)['region'] !== undefined);
    if (!inItems) fail('region is required (beside assignments or in every assignment).', 'region');
  }
  const items = reqArray(o, 'assignments', { min: 1 });
  if (region !== undefined && !ctx.store.regions.some((r) => r.id === region)) fail(`Unknown region ${region}.`, 'region');
  // The fault reads the region given (beside the array or in the items) for its form only: the addresses and instances
  // are held to the region of the first of them.
  const givenRegionIgnored = faulty(ctx.store, 'P3.assign.same-region~ignores-region');
  if (givenRegionIgnored) region = undefined;

  const ipv4 = new Map<number, string[]>(); // instance id → its IPv4 addresses after the assignments
  const involved = new Map<number, Instance>();
  const retarget = new Map<string, Instance>(); // range → its new holder
  const moves: Array<{ address: string; to: Instance }> = []; // the IPv4 items, in order
  const seen = new Set<string>();
  const involve = (inst: Instance) => {
    involved.set(inst.id, inst);
    if (!ipv4.has(inst.id)) ipv4.set(inst.id, [...inst.ipv4]);
  };
  const grant = faulty(ctx.store, 'P3.assign.grants') ? 'read_only' : 'read_write';
  const inRegion = (r: string, field: string, what: string) => {
    region ??= r;
    if (r !== region && !faulty(ctx.store, 'P3.assign.same-region'))
      fail(`${what} is in region ${r}, not in ${region}: all addresses and instances must be in one region.`, field);
  };

  items.forEach((raw, i) => {
    const path = `assignments.${i}`;
    const item = asObject(raw, path);
    const address = reqString(item, 'address', { path });
    const computeId = reqInt(item, 'compute_id', { path });
    const itemRegion =
      inItemsOnly && !faulty(ctx.store, 'P3.ips-assign.region.required') ? reqString(item, 'region', { path }) : optString(item, 'region', { path });
    const field = `${path}.address`;
    // The address's form first, then what it and the instance refer to.
    if (address.includes('/')) {
      if (!withRanges) fail('ipv4/assign takes IPv4 addresses only; use ips/assign for IPv6 ranges.', field);
      const p = parseRange(address);
      if (!p || (p.prefix !== 56 && p.prefix !== 64)) fail(`${field} must be an IPv4 address or an IPv6 range with a /56 or /64 prefix.`, field);
    } else if (!isIPv4(address)) {
      fail(withRanges ? `${field} must be an IPv4 address or an IPv6 range with its prefix.` : `${field} must be an IPv4 address.`, field);
    }
    if (itemRegion !== undefined && !ctx.store.regions.some((r) => r.id === itemRegion)) fail(`Unknown region ${itemRegion}.`, `${path}.region`);
    if (itemRegion !== undefined && !givenRegionIgnored) inRegion(itemRegion, `${path}.region`, `The item's region`);
    const receiver = instanceFromBody(ctx, computeId, `${path}.compute_id`, grant);
    inRegion(receiver.region, `${path}.compute_id`, `Instance ${receiver.id}`);
    involve(receiver);
    if (address.includes('/')) {
      if (!withRanges) fail('ipv4/assign takes IPv4 addresses only; use ips/assign for IPv6 ranges.', field);
      const p = parseRange(address);
      if (!p || (p.prefix !== 56 && p.prefix !== 64)) fail(`${field} must be an IPv4 address or an IPv6 range with a /56 or /64 prefix.`, field);
      const r = ranges(ctx.store).get(p.range);
      if (!r || r.prefix_length !== p.prefix || !visibleRange(ctx, r, 'read_only')) fail(`No IPv6 range ${address} on the account.`, field);
      if (!visibleRange(ctx, r, 'read_write')) fail(`You need read_write access to the range ${address}.`, field, 403);
      // (the fault ~ranges compares the regions of IPv4 items only)
      if (!faulty(ctx.store, 'P3.assign.same-region~ranges')) inRegion(r.region, field, `The range ${address}`);
      if (seen.has(r.range)) fail(`${address} is assigned twice.`, field);
      seen.add(r.range);
      retarget.set(r.range, receiver);
      return;
    }
    if (!isIPv4(address)) {
      fail(withRanges ? `${field} must be an IPv4 address or an IPv6 range with its prefix.` : `${field} must be an IPv4 address.`, field);
    }
    const owner = ownerOf4(ctx.store, address);
    if (!owner || !canAccess(ctx.principal, 'compute', owner.id, 'read_only')) fail(`No address ${address} on the account.`, field);
    // (the fault ~receivers-only needs read_only on the holder of an address only)
    const holderGrant = faulty(ctx.store, 'P3.assign.grants~receivers-only') ? 'read_only' : grant;
    if (!canAccess(ctx.principal, 'compute', owner.id, holderGrant)) fail(`You need read_write access to the holder of ${address}.`, field, 403);
    if (isPrivate4(address) && faulty(ctx.store, 'P3.assign.accessible-in-region')) fail(`${field} must be a public IPv4 address.`, field);
    inRegion(owner.region, field, `The address ${address}`);
    if (seen.has(address)) fail(`${address} is assigned twice.`, field);
    seen.add(address);
    involve(owner);
    // The current holder (after earlier items) loses it; the receiver gains it.
    for (const list of ipv4.values()) {
      const at = list.indexOf(address);
      if (at >= 0) list.splice(at, 1);
    }
    ipv4.get(receiver.id)!.push(address);
    moves.push({ address, to: receiver });
  });

  if (varied(ctx.store, 'assign-no-op-refused') && retarget.size === 0 && [...ipv4].every(([id, list]) => involved.get(id)!.ipv4.join() === list.join()))
    fail('The assignments change nothing: every address is already held by the instance named.', 'assignments');
  // End state of every instance involved, before anything changes.
  const rangeHolder = (r: Ipv6Range) => retarget.get(r.range)?.id ?? ownerBySlaac(ctx.store, r.route_target)?.id;
  for (const [id, list] of ipv4) {
    const pub = list.filter((a) => !isPrivate4(a)).length;
    const priv = list.length - pub;
    const rangeCount = [...ranges(ctx.store).values()].filter((r) => rangeHolder(r) === id).length;
    if ((faulty(ctx.store, 'P3.assign.end-public-ipv4~any-ipv4') ? list.length : pub) < 1 && !faulty(ctx.store, 'P3.assign.end-public-ipv4'))
      fail(`Instance ${id} would end without a public IPv4 address; every instance needs at least one.`, 'assignments');
    if (priv > 1 && !faulty(ctx.store, 'P3.assign.end-private-max-1'))
      fail(`Instance ${id} would end with ${priv} private IPv4 addresses; at most one is allowed.`, 'assignments');
    if (rangeCount > 1) fail(`Instance ${id} would end with ${rangeCount} IPv6 ranges; at most one is allowed.`, 'assignments');
  }
  // Under the variation assign-runs-a-while the assignment, judged now, takes effect a simulated minute later.
  if (varied(ctx.store, 'assign-runs-a-while')) {
    ctx.store.schedule(new Date(ctx.store.now().getTime() + ASSIGNMENT_RUNS_MS), (store) => applyLater(store, moves, [...retarget]));
    return {};
  }
  const now = ctx.store.nowIso();
  for (const [id, computed] of ipv4) {
    const inst = involved.get(id)!;
    const list = faulty(ctx.store, 'P3.assign.previous-holder-loses') ? [...new Set([...inst.ipv4, ...computed])] : computed;
    if (inst.ipv4.join() !== list.join()) {
      inst.ipv4 = list;
      inst.updated = now;
    }
  }
  for (const [key, inst] of faulty(ctx.store, 'P3.assign.ipv6-retarget') ? [] : retarget)
    ranges(ctx.store).get(key)!.route_target = slaacOf(inst) ?? norm6(ctx.store.slaacFor(inst.id));
  return {};
}

/** Under the variation assign-runs-a-while, how long an accepted assignment takes to take effect (simulated time). */
const ASSIGNMENT_RUNS_MS = 60_000;

/**
 * An assignment taking effect once it has run (the variation assign-runs-a-while): each address moves from whoever holds
 * it then to its receiver, and each range routes to its receiver's SLAAC address. A receiver deleted meanwhile (ids-reused:
 * or given its id since) gets nothing. The faults of the immediate path hold here too (a previous holder keeps its
 * address; a range stays routed where it was), so a fault run under the variation still has what it breaks to show.
 */
function applyLater(store: Store, moves: Array<{ address: string; to: Instance }>, targets: ReadonlyArray<readonly [string, Instance]>): void {
  const now = store.nowIso();
  const holdersKeep = faulty(store, 'P3.assign.previous-holder-loses');
  for (const { address, to: receiver } of moves) {
    if (getInstance(store, receiver.id) !== receiver || receiver.ipv4.includes(address)) continue;
    for (const holder of holdersKeep ? [] : listInstances(store).filter((inst) => inst.ipv4.includes(address))) {
      holder.ipv4 = holder.ipv4.filter((a) => a !== address);
      holder.updated = now;
    }
    receiver.ipv4 = [...receiver.ipv4, address];
    receiver.updated = now;
  }
  for (const [key, receiver] of faulty(store, 'P3.assign.ipv6-retarget') ? [] : targets) {
    const range = ranges(store).get(key);
    if (range && getInstance(store, receiver.id) === receiver) range.route_target = slaacOf(receiver) ?? norm6(store.slaacFor(receiver.id));
  }
}
