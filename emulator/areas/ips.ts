// Document 3, "IP addresses": the account's addresses (held on `instance.ipv4` / `instance.ipv6` by compute),
// reverse DNS, allocation, assignment, sharing, IPv6 pools and ranges, and the VLAN list.
//
// Choices where the document is silent:
// - An address is `{address, gateway, subnet_mask, prefix, type: 'ipv4'|'ipv6', public, rdns, compute_id, region}`;
//   the list (public IPv4 and each instance's IPv6 SLAAC address, private addresses excluded) is paginated. Public
//   IPv4 addresses come from a /16 of each region, private ones from 192.168.128.0/17 (all regions).
// - The default reverse DNS of a public IPv4 a.b.c.d is `a-b-c-d.ip.chs-emulator.net` ({default_rdns_domain} =
//   `chs-emulator.net`); private addresses have none and refuse one (400); an IPv6 address has none until set.
// - "Forward DNS must already be set up": the new rdns must be the FQDN of an A (IPv4) or AAAA (IPv6) record of one
//   of the account's domains whose target is the address; otherwise 400.
// - Extra addresses: an instance is "enabled for extra addresses through a support request" when it carries the
//   tag `extra-ipv4` (set it with the instance update or the tags endpoint); without that, allocating a PUBLIC
//   address → 400. A private address needs no
//   enablement but an instance keeps at most one (second one → 400).
// - Assignments: `region` is read beside the array or in the items (ips/assign needs it in one of the two places,
//   ipv4/assign in neither); items' regions must match; the response is `{}`; a range in ips/assign is written with
//   its prefix (`2600:3c00:e001:100::/64`) and must match the stored prefix length.
// - Sharing answers `{}`; ipv4/share takes IPv4 addresses only and replaces the instance's shared IPv4 addresses
//   (shared ranges stay); the beta ips/share takes IPv4 addresses and IPv6 ranges and replaces all of them. Sharing
//   needs read_write on the owners and refuses the instance's own addresses.
// - A range is `{range, prefix_length, region, route_target, created}` (range without the prefix length); creating
//   one answers that object; ranges are allocated as `2600:3c0<region index>:e<nnn>:100::`.
// - IPv6 pools: one /124 per region, `{range, prefix_length, region, route_target: null}`.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { paginate } from '../core/pagination.js';
import { canAccess } from '../core/permissions.js';
import type { Store } from '../core/store.js';
import type { Area, RequestContext, Route } from '../core/types.js';
import { asObject, fail, reqArray, reqBool, reqInt, reqString } from '../core/validate.js';
import { getInstance, instanceFromBody, listInstances, type Instance } from '../core/entities.js';
import { listVlans } from './compute/interfaces.js';
import { RELEASE_RUNS_MS } from './compute/model.js';
import { listDomains, recordsOf } from './domains/model.js';
import { route } from '../core/routes.js';
import { deleteNowOrLater } from '../core/deletions.js';
import { varied } from '../variations/index.js';
import { faulty } from '../faults/index.js';
import { assign, requireAddressGrants } from './ips-assign.js';
import {
  allocateLater,
  allocating,
  DELETED_RANGES,
  EXTRA_IPV4_TAG,
  extraEnabled,
  forgetAllocations,
  HELD_REGIONS,
  type IpAddress,
  ipObject,
  type Ipv6Range,
  isPrivate4,
  keptHolder,
  norm6,
  ownerBySlaac,
  ownerOf4,
  parseRange,
  ranges,
  RDNS,
  SHARES,
  slaacOf,
  UNRELEASED,
  visibleRange,
} from './ips-model.js';

// ---------------------------------------------------------------------------------------------- exports

/** When an instance is deleted: its rdns, shares and ranges go; other instances stop sharing its addresses. */
function releaseInstanceAddresses(store: Store, instanceId: number): void {
  const inst = getInstance(store, instanceId);
  // The fault keeps the addresses whole: still listed and found, their rdns kept.
  const kept = inst !== undefined && faulty(store, 'P2.instances.delete.releases-ips');
  if (kept) store.table<Instance>(UNRELEASED).set(String(instanceId), { ...inst, ipv4: [...inst.ipv4] });
  else if (inst && faulty(store, 'P2.instances.delete.releases-ips~ipv4-only'))
    store.table<Instance>(UNRELEASED).set(String(instanceId), { ...inst, ipv4: [] });
  else if (inst && varied(store, 'instance-delete-releases-later')) {
    store.table<Instance>(UNRELEASED).set(String(instanceId), { ...inst, ipv4: [...inst.ipv4], ipv6: null });
    store.schedule(new Date(store.now().getTime() + RELEASE_RUNS_MS), (s) => s.table<Instance>(UNRELEASED).delete(String(instanceId)));
  }
  const own = new Set<string>(inst?.ipv4 ?? []);
  const slaac = norm6(store.slaacFor(instanceId));
  const rdns = store.table<string | null>(RDNS);
  if (!kept) for (const a of [...own, slaac]) rdns.delete(a);
  const shares = store.table<string[]>(SHARES);
  shares.delete(String(instanceId));
  forgetAllocations(store, instanceId);
  const gone = new Set<string>();
  for (const [key, r] of ranges(store)) {
    if (r.route_target === slaac || (inst && r.route_target === slaacOf(inst))) {
      ranges(store).delete(key);
      gone.add(key);
    }
  }
  for (const [key, list] of shares)
    shares.set(
      key,
      list.filter((a) => !own.has(a) && !gone.has(a)),
    );
}

// ---------------------------------------------------------------------------------------------- sharing

function share(ctx: RequestContext, withRanges: boolean): Record<string, never> {
  requireAddressGrants(ctx);
  const o = asObject(ctx.body ?? {});
  const list = reqArray(o, 'ips');
  const inst = instanceFromBody(ctx, reqInt(o, 'compute_id'), 'compute_id');
  const region = ctx.store.regions.find((r) => r.id === inst.region);
  const out: string[] = [];
  list.forEach((v, i) => {
    const field = `ips.${i}`;
    if (typeof v !== 'string') fail(`${field} must be a string.`, field);
    if (isIPv4(v)) {
      const owner = ownerOf4(ctx.store, v);
      const anyone = faulty(ctx.store, 'P3.share.access-all');
      if (!owner || !(anyone || canAccess(ctx.principal, 'compute', owner.id, 'read_only'))) fail(`No address ${v} on the account.`, field);
      if (!(anyone || canAccess(ctx.principal, 'compute', owner.id, 'read_write'))) fail(`You need read_write access to the holder of ${v}.`, field, 403);
      if (owner.id === inst.id) fail(`${v} already belongs to instance ${inst.id}; share addresses of other instances.`, field);
      if (owner.region !== inst.region && !faulty(ctx.store, 'P3.share.same-region'))
        fail(
          `${v} is in region ${owner.region}; shared addresses must be in the instance's region ${inst.region}.`,
          varied(ctx.store, 'error-field-names-sent-member') ? 'compute_id' : field,
        );
      if (!out.includes(v)) out.push(v);
      return;
    }
    const p = withRanges ? parseRange(v) : undefined;
    if (!p || p.prefix !== null) {
      fail(withRanges ? `${field} must be an IPv4 address or an IPv6 range without its prefix length.` : `${field} must be an IPv4 address.`, field);
    }
    const r = ranges(ctx.store).get(p.range);
    if (!r || !visibleRange(ctx, r, 'read_only')) fail(`No IPv6 range ${v} on the account.`, field);
    if (!visibleRange(ctx, r, 'read_write')) fail(`You need read_write access to the range ${v}.`, field, 403);
    if (r.region !== inst.region) fail(`${v} is in region ${r.region}; shared ranges must be in the instance's region ${inst.region}.`, field);
    if (!region?.ipv6RangeSharing) fail(`IPv6 range sharing is not available in region ${inst.region}.`, field);
    if (r.route_target !== null && r.route_target === slaacOf(inst)) fail(`${v} is already routed to instance ${inst.id}.`, field);
    if (!out.includes(p.range)) out.push(p.range);
  });
  const shares = ctx.store.table<string[]>(SHARES);
  if (faulty(ctx.store, 'P3.share.owner-keeps'))
    for (const address of out.filter((a) => isIPv4(a))) {
      const owner = ownerOf4(ctx.store, address)!;
      owner.ipv4 = owner.ipv4.filter((a) => a !== address);
      inst.ipv4 = [...inst.ipv4, address];
    }
  if (list.length === 0 && faulty(ctx.store, 'P3.share.empty-removes')) return {};
  // Under the variation share-runs-a-while the share (or the unshare), judged now, takes effect a simulated minute later.
  if (varied(ctx.store, 'share-runs-a-while')) {
    ctx.store.schedule(new Date(ctx.store.now().getTime() + SHARE_RUNS_MS), (store) => applyShare(store, inst, out, withRanges));
    return {};
  }
  const kept = withRanges ? [] : (shares.get(String(inst.id)) ?? []).filter((a) => a.includes(':'));
  shares.set(String(inst.id), [...kept, ...out]);
  return {};
}

/** Under the variation share-runs-a-while, how long an accepted share takes to take effect (simulated time). */
const SHARE_RUNS_MS = 60_000;

/**
 * A share taking effect once it has run (the variation share-runs-a-while): the instance's shared addresses replaced as
 * the request asked (ipv4/share keeps its shared ranges), less what is gone meanwhile (an address whose holder was
 * deleted, a deleted range). An instance deleted meanwhile shares nothing (nor one given its id since: ids-reused).
 */
function applyShare(store: Store, inst: Instance, out: string[], withRanges: boolean): void {
  if (getInstance(store, inst.id) !== inst) return;
  const shares = store.table<string[]>(SHARES);
  const kept = withRanges ? [] : (shares.get(String(inst.id)) ?? []).filter((a) => a.includes(':'));
  const still = out.filter((a) => (isIPv4(a) ? ownerOf4(store, a) !== undefined : ranges(store).has(a)));
  shares.set(String(inst.id), [...kept, ...still]);
}

// ---------------------------------------------------------------------------------------------- routes

const R = ['ips:read_only'];
const W = ['ips:read_write'];
const WC = ['ips:read_write', 'compute:read_write'];

function addressOr404(ctx: RequestContext): { inst: Instance; address: string } {
  const raw = ctx.params['address']!;
  if (isIPv4(raw)) {
    const inst = ownerOf4(ctx.store, raw) ?? keptHolder(ctx.store, raw);
    if (inst && canAccess(ctx.principal, 'compute', inst.id, 'read_only')) return { inst, address: raw };
  } else if (ipaddr.IPv6.isValid(raw)) {
    const inst = ownerBySlaac(ctx.store, norm6(raw)) ?? keptHolder(ctx.store, norm6(raw));
    if (inst && canAccess(ctx.principal, 'compute', inst.id, 'read_only')) return { inst, address: norm6(raw) };
  }
  fail(`Address ${raw} not found.`, null, 404);
}

/** True when an A/AAAA record of the account resolves `name` to `address`. */
/** Top-level domains reserved by RFC 2606 and RFC 6761: no name under them resolves. */
const RESERVED_TLD = /\.(invalid|test|example|localhost)\.?$/i;

function forwardResolves(store: Store, name: string, address: string, v6: boolean): boolean {
  const host = name.replace(/\.$/, '').toLowerCase();
  for (const d of listDomains(store)) {
    const zone = d.domain.toLowerCase();
    if (host !== zone && !host.endsWith(`.${zone}`)) continue;
    for (const r of recordsOf(store, d.id)) {
      if (r.type !== (v6 ? 'AAAA' : 'A')) continue;
      const n = r.name.replace(/\.$/, '').toLowerCase();
      const fq = n === '' ? zone : n === zone || n.endsWith(`.${zone}`) ? n : `${n}.${zone}`;
      const target = v6 ? norm6(r.target) : r.target;
      if (fq === host && target === address) return true;
    }
  }
  return false;
}

/**
 * A range as the responses show it: its route target bare, or with `/128` under the variation route-target-with-prefix;
 * without its region under the variation ranges-without-region, without its route target under the variation
 * ranges-without-route-target.
 */
function rangeView(store: Store, r: Ipv6Range): Partial<Ipv6Range> {
  const shown: Partial<Ipv6Range> = { ...r };
  if (varied(store, 'route-target-with-prefix') && r.route_target !== null) shown.route_target = `${r.route_target}/128`;
  if (varied(store, 'ranges-without-region')) delete shown.region;
  if (varied(store, 'ranges-without-route-target')) delete shown.route_target;
  return shown;
}

const POOLS = (store: Store) => store.regions.map((r, i) => ({ range: `2600:3c0${i}:ffff::`, prefix_length: 124, region: r.id, route_target: null }));

function rangeOr404(ctx: RequestContext, level: 'read_only' | 'read_write'): Ipv6Range {
  const raw = ctx.params['range']!;
  const p = parseRange(raw);
  const r = p ? ranges(ctx.store).get(p.range) : undefined;
  if (!r || (p!.prefix !== null && p!.prefix !== r.prefix_length) || !visibleRange(ctx, r, 'read_only')) fail(`IPv6 range ${raw} not found.`, null, 404);
  if (level === 'read_write' && !visibleRange(ctx, r, 'read_write')) fail(`You need read_write access to the range ${raw}.`, null, 403);
  return r;
}

const routes: Route[] = [
  route('GET', '/v4/networking/ips', R, (ctx) => {
    const out: IpAddress[] = [];
    for (const inst of [...listInstances(ctx.store), ...ctx.store.table<Instance>(UNRELEASED).values()]) {
      if (!canAccess(ctx.principal, 'compute', inst.id, 'read_only')) continue;
      for (const a of inst.ipv4) if (!isPrivate4(a) || faulty(ctx.store, 'P3.ips.list.no-private')) out.push(ipObject(ctx.store, inst, a));
      const slaac = slaacOf(inst);
      if (slaac) out.push(ipObject(ctx.store, inst, slaac));
    }
    if (faulty(ctx.store, 'P3.ip-address.types'))
      return paginate(
        ctx,
        out.map((ip) => ({ ...ip, rdns: ip.rdns === null ? [] : [ip.rdns] })),
      );
    return paginate(ctx, out);
  }),
  route('POST', '/v4/networking/ips', WC, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const computeId = reqInt(o, 'compute_id');
    // Under the variation extra-ipv4-checked-first the instance's enablement is judged before the body's public and type.
    const enablementFirst = varied(ctx.store, 'extra-ipv4-checked-first');
    if (enablementFirst && typeof o.public !== 'boolean' && !extraEnabled(instanceFromBody(ctx, computeId, 'compute_id')))
      fail(`Instance ${computeId} is not enabled for extra IPv4 addresses; open a support request first.`, 'compute_id');
    const isPublic = reqBool(o, 'public');
    const checkType = () => reqString(o, 'type', isPublic === false && faulty(ctx.store, 'P3.ip-allocate.type.enum') ? {} : { enum: ['ipv4'] as const });
    const typeFirst = !enablementFirst;
    if (typeFirst) checkType();
    const inst = instanceFromBody(ctx, computeId, 'compute_id');
    if ((isPublic || varied(ctx.store, 'private-ipv4-needs-request')) && !extraEnabled(inst)) {
      fail(
        `Instance ${inst.id} is not enabled for extra IPv4 addresses; open a support request first (the emulator: tag the instance "${EXTRA_IPV4_TAG}").`,
        'public',
      );
    }
    if (!typeFirst) checkType();
    if (!isPublic && [...inst.ipv4, ...allocating(ctx.store, inst.id)].some(isPrivate4))
      fail(`Instance ${inst.id} already has a private IPv4 address; at most one is allowed.`, 'public');
    const address = ctx.store.allocateIpv4(inst.region, isPublic);
    if (faulty(ctx.store, 'P3.ip-allocate.allocates-ipv4')) return ipObject(ctx.store, inst, address);
    // Under the variation ip-allocate-runs-a-while the instance shows the new address a simulated minute later.
    if (varied(ctx.store, 'ip-allocate-runs-a-while')) return allocateLater(ctx.store, inst, address);
    inst.ipv4 = [...inst.ipv4, address];
    inst.updated = ctx.store.nowIso();
    if (varied(ctx.store, 'ip-allocate-answers-instance-ips')) {
      // All of the instance's addresses, the public ones first: the new address is somewhere in it, not on top.
      const slaac = slaacOf(inst);
      return {
        ipv4: {
          public: inst.ipv4.filter((a) => !isPrivate4(a)).map((a) => ipObject(ctx.store, inst, a)),
          private: inst.ipv4.filter(isPrivate4).map((a) => ipObject(ctx.store, inst, a)),
        },
        ipv6: { slaac: slaac ? ipObject(ctx.store, inst, slaac) : null },
      };
    }
    return ipObject(ctx.store, inst, address);
  }),
  route('POST', '/v4/networking/ips/assign', WC, (ctx) => assign(ctx, true)),
  route('POST', '/v4beta/networking/ips/share', WC, (ctx) => share(ctx, true)),
  route('GET', '/v4/networking/ips/{address}', R, (ctx) => {
    const { inst, address } = addressOr404(ctx);
    return ipObject(ctx.store, inst, address);
  }),
  route('PUT', '/v4/networking/ips/{address}', W, (ctx) => {
    const { inst, address } = addressOr404(ctx);
    if (!canAccess(ctx.principal, 'compute', inst.id, 'read_write')) fail(`You need read_write access to instance ${inst.id}.`, null, 403);
    const o = asObject(ctx.body ?? {});
    const rdns = reqString(o, 'rdns', { nullable: true, min: 1, max: 255 });
    const v6 = address.includes(':');
    if (!v6 && isPrivate4(address)) fail('Reverse DNS cannot be set on a private address.', 'rdns');
    if (rdns !== null) {
      if (!/^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))+\.?$/.test(rdns)) fail('rdns must be a hostname.', 'rdns');
      // The fault ~reserved-only refuses only names under a reserved top-level domain, which can never resolve.
      // (the fault ~ipv4-only looks up the forward record of an IPv4 address only)
      const looked =
        (!faulty(ctx.store, 'P3.ip.rdns.forward-dns-required~reserved-only') || RESERVED_TLD.test(rdns)) &&
        !(v6 && faulty(ctx.store, 'P3.ip.rdns.forward-dns-required~ipv4-only'));
      if (looked && !forwardResolves(ctx.store, rdns, address, v6) && !faulty(ctx.store, 'P3.ip.rdns.forward-dns-required')) {
        fail(`Forward DNS is not set up: create an ${v6 ? 'AAAA' : 'A'} record ${rdns} → ${address} first.`, 'rdns');
      }
    }
    const reset = faulty(ctx.store, 'P3.ip.rdns.null-resets-default') ? '' : null;
    ctx.store.table<string | null>(RDNS).set(address, rdns === null ? reset : rdns.replace(/\.$/, ''));
    return ipObject(ctx.store, inst, address);
  }),
  route('POST', '/v4/networking/ipv4/assign', WC, (ctx) => assign(ctx, false)),
  route('POST', '/v4/networking/ipv4/share', WC, (ctx) => share(ctx, false)),
  route('GET', '/v4/networking/ipv6/pools', R, (ctx) => paginate(ctx, POOLS(ctx.store))),
  route('GET', '/v4/networking/ipv6/ranges', R, (ctx) =>
    paginate(
      ctx,
      [...ranges(ctx.store).values()].filter((r) => visibleRange(ctx, r, 'read_only')),
      (r) => rangeView(ctx.store, r),
    ),
  ),
  route('POST', '/v4/networking/ipv6/ranges', WC, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const checkPrefix = () =>
      reqInt(o, 'prefix_length', faulty(ctx.store, 'P3.ipv6-range.prefix-length.enum') ? { min: 48, max: 64 } : { enum: [56, 64] }) as 56 | 64;
    // Under the variation range-limit-checked-first the region's one range is judged before the body's prefix_length.
    let prefix = varied(ctx.store, 'range-limit-checked-first') ? undefined : checkPrefix();
    // A member given as null is given (and of the wrong type), not absent.
    const hasId = o['compute_id'] !== undefined;
    const hasTarget = o['route_target'] !== undefined;
    if (hasId && hasTarget && !faulty(ctx.store, 'P3.ipv6-range-create.target.exactly-one'))
      fail('Give exactly one of compute_id and route_target, not both.', 'route_target');
    if (!hasId && !hasTarget) fail('Give exactly one of compute_id and route_target.', 'compute_id');
    let inst: Instance;
    if (hasId) inst = instanceFromBody(ctx, reqInt(o, 'compute_id'), 'compute_id');
    else {
      let target = reqString(o, 'route_target');
      if (target.includes('/') && faulty(ctx.store, 'P3.ipv6-range-create.route-target.no-prefix')) target = target.split('/')[0]!;
      if (target.includes('/')) fail('route_target is an IPv6 SLAAC address without a prefix length (no /128).', 'route_target');
      // The fault takes an IPv4 address of an instance as that instance's SLAAC address.
      const byIpv4 = faulty(ctx.store, 'P3.ipv6-range-create.route-target.ipv6') && ipaddr.IPv4.isValid(target) ? ownerOf4(ctx.store, target) : undefined;
      if (!byIpv4 && !ipaddr.IPv6.isValid(target)) fail('route_target must be an IPv6 address.', 'route_target');
      const owner = byIpv4 ?? ownerBySlaac(ctx.store, norm6(target));
      if (!owner || !canAccess(ctx.principal, 'compute', owner.id, 'read_only')) {
        fail('route_target must be the SLAAC address of one of your instances.', 'route_target');
      }
      inst = instanceFromBody(ctx, owner.id, 'route_target');
    }
    const slaac = slaacOf(inst);
    if (!slaac) fail(`Instance ${inst.id} has no IPv6 SLAAC address to route to.`, hasId ? 'compute_id' : 'route_target');
    // (the fault keeps only the per-instance rule: one range routed to the instance's SLAAC address)
    // (the fault of one-slaac-per-instance lets a second range route to an instance's SLAAC address, which the region's
    // limit would refuse too)
    const oneSlaac = !faulty(ctx.store, 'P3.ipv6-range.one-slaac-per-instance');
    // (the fault of region-of-instance makes every range in the first region, ~route-target one named by route_target)
    const firstRegion = faulty(ctx.store, 'P3.ipv6-range.region-of-instance') || (!hasId && faulty(ctx.store, 'P3.ipv6-range.region-of-instance~route-target'));
    const region = firstRegion ? ctx.store.regions[0]!.id : inst.region;
    const clash = faulty(ctx.store, 'P3.ipv6-range.one-per-region')
      ? (r: Ipv6Range) => r.route_target === slaac
      : (r: Ipv6Range) =>
          r.region === region &&
          (oneSlaac || r.route_target !== slaac) &&
          // (the fault ~per-prefix counts a region's ranges per prefix length; one per SLAAC address still)
          (!faulty(ctx.store, 'P3.ipv6-range.one-per-region~per-prefix') || r.prefix_length === o['prefix_length'] || r.route_target === slaac);
    // Under the variation range-release-later a region whose range was deleted less than a simulated minute ago is
    // still taken.
    const held = ctx.store.table<string>(HELD_REGIONS).has(region);
    if (held || [...ranges(ctx.store).values()].some(clash)) {
      fail(
        `The account already has an IPv6 range in region ${region}; one range per region (more through a support request).`,
        hasId ? 'compute_id' : 'route_target',
      );
    }
    prefix ??= checkPrefix();
    const regionIndex = Math.max(
      0,
      ctx.store.regions.findIndex((r) => r.id === region),
    );
    // (the fault makes a /64 whatever the length asked for)
    if (faulty(ctx.store, 'P3.ipv6-range-create.prefix-length.applied')) prefix = 64;
    const n = ctx.store.nextId('ipv6_range');
    // (a network of its prefix: the fault of prefix-length.enum hands out /48 to /63 ranges too)
    const range = norm6(ipaddr.IPv6.networkAddressFromCIDR(`2600:3c0${regionIndex % 10}:${(0xe000 + (n & 0xfff)).toString(16)}:100::/${prefix}`).toString());
    const r: Ipv6Range = { range, prefix_length: prefix, region, route_target: slaac, created: ctx.store.nowIso() };
    ranges(ctx.store).set(range, r);
    // Under the variation range-create-answers-empty the create answers {} (what it answers is not shown).
    return varied(ctx.store, 'range-create-answers-empty') ? {} : rangeView(ctx.store, r);
  }),
  {
    method: 'GET',
    path: '/v4/networking/ipv6/ranges/{range}',
    scopes: ['ips:read'],
    auth: 'token',
    handler: (ctx) =>
      rangeView(ctx.store, ctx.store.table<Ipv6Range>(DELETED_RANGES).get(parseRange(ctx.params['range']!)?.range ?? '') ?? rangeOr404(ctx, 'read_only')),
  },
  route('DELETE', '/v4/networking/ipv6/ranges/{range}', W, (ctx) => {
    const r = rangeOr404(ctx, 'read_write');
    for (const list of ctx.store.table<string[]>(SHARES).values()) {
      if (list.includes(r.range) && !faulty(ctx.store, 'P3.ipv6-range.shared-cannot-delete'))
        fail(`The range ${r.range} is shared and cannot be deleted; stop sharing it first.`, null);
    }
    // Gone at once, or (variation range-delete-runs-a-while) a simulated minute later, if still there.
    const remove = (store: Store) => {
      if (ranges(store).get(r.range) !== r) return;
      if (faulty(store, 'P3.ipv6-range.delete-disconnects')) store.table<Ipv6Range>(DELETED_RANGES).set(r.range, r);
      ranges(store).delete(r.range);
      // Under the variation range-release-later the range is gone from views and the list, but its region's slot stays
      // taken for a simulated minute (a later DELETE in the region starts its own minute).
      if (!varied(store, 'range-release-later')) return;
      store.table<string>(HELD_REGIONS).set(r.region, r.range);
      store.schedule(new Date(store.now().getTime() + RELEASE_RUNS_MS), (s) => {
        if (s.table<string>(HELD_REGIONS).get(r.region) === r.range) s.table<string>(HELD_REGIONS).delete(r.region);
      });
    };
    deleteNowOrLater(ctx.store, 'range-delete-runs-a-while', r.range, remove);
    return {};
  }),
  {
    method: 'GET',
    path: '/v4beta/networking/vlans',
    scopes: ['compute:read_only'],
    auth: 'token',
    handler: (ctx) => paginate(ctx, listVlans(ctx.store)),
  },
];

export const area: Area = {
  name: 'ips',
  routes,
  listen: (store) => store.listen('instance-deleted', ({ instanceId }) => releaseInstanceAddresses(store, instanceId)),
};
