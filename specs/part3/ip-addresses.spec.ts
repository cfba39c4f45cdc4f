// Document 3, "IP addresses" and the address rows of "Limits": the address list, allocation, reverse DNS,
// assignment end states, sharing, and IPv6 ranges (one per region, exactly one target, re-targeting, deletion); the
// VLANs are in vlans.spec.ts. Response bodies are not shown: instances' addresses are read from the instance view
// (`ipv4`, `ipv6`, document 2), ranges are found again in their list by `route_target`.
//
// One IPv6 range per region per account: the generic checks hold ranges in the configured region, so the range
// checks here work in another region (one named by the IPv6 pools list that holds no range).
import ipaddr from 'ipaddr.js';
import { describe } from 'vitest';
import { check, checkWaiting } from '../../harness/check.js';
import { describeExchange, isErrorResponse, namesField } from '../../harness/error-bodies.js';
import { letShortlyRun, readAfterWrite, untilGone, untilShortlyDone, untilShortlyDoneSparingly } from '../../harness/consistency.js';
import { useFixtures } from '../../harness/fixtures.js';
import { REGION_PLACES } from '../../arbitraries/part3.js';
import type { Exchange } from '../../harness/http.js';
import { listItems as listAll } from '../../harness/lists.js';
import { EXTRA_ADDRESS_REQUEST, IPV6_RANGES_LOCK } from '../generic/valid-requests.js';
import {
  addressesOf,
  assignmentBody,
  publicPair,
  publicSwap,
  createRange,
  ipv4AfterAssignment,
  judgeIpList,
  routeTargetOf,
  otherRegion,
  pairInFreeRegion,
  privateOf,
  publicOf,
  RANGES,
  runRegionOrOther,
  newRangeView,
  otherRangeRegionFree,
  rangeView,
  slaacOf,
  snapshot,
  addressGrantsNotShown,
  inRegion,
} from './ip-addresses-support.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part3-ip-addresses');

const ASSIGN = ['/v4/networking/ipv4/assign', '/v4/networking/ips/assign'] as const;
/**
 * A check asking for an assignment body: the file's first to ask may find where `region` goes by swapping the pair and
 * back (`withRegionPlaced`), each swap waited for, before it waits for its own; without the clock hook, in real time.
 */
const placingCheck = checkWaiting(3);
const SHARE = ['/v4/networking/ipv4/share', '/v4beta/networking/ips/share'] as const;

describe('IP addresses: list, allocation, reverse DNS', () => {
  check('P3.ips.list.no-private', 'the IP list holds the public address of an instance and not its private one', async (c) => {
    const instance = await fx.newInstance(c, { private_ip: true });
    await judgeIpList(c, instance.id);
  });

  // On a budget this check judges the IP list too (the one above needs an instance of its own), and that the endpoint
  // serves a valid request with a full-access token.
  check(
    ['P3.ip-allocate.allocates-ipv4', 'P3.ips.list.no-private', 'P3.ips.serves.post-networking-ips'],
    'POST ips allocates a (private) IPv4 address to the instance',
    async (c) => {
      const [, instance] = await publicPair(c, fx);
      const before = (await addressesOf(c, instance.id)).ipv4;
      const post = await c.post('/v4/networking/ips', { compute_id: instance.id, public: false, type: 'ipv4' });
      c.expectServed(post, 'POST ips');
      if (post.status >= 400 && post.status < 500)
        c.skip(`POST ips for a private IPv4 address was refused (HTTP ${post.status}), perhaps because ${EXTRA_ADDRESS_REQUEST}`);
      c.expectSuccess('P3.ips.serves.post-networking-ips', post, 'POST ips for a private IPv4 address');
      // "allocates an IPv4 address": whether the instance shows it when the request answers or once the allocation has
      // run is not shown, so it is read while a short time passes, as an assignment's addresses are.
      const [after] = await ipv4AfterAssignment(c, [instance.id], ([shown]) => shown!.some((a) => !before.includes(a)));
      const added = after!.filter((a) => !before.includes(a));
      c.expect(
        'P3.ip-allocate.allocates-ipv4',
        added.length === 1 && ipaddr.IPv4.isValid(added[0]!),
        `the instance should show one new IPv4 address, shows ${JSON.stringify(added)}`,
      );
      // What the allocation answers is not shown: an answer that is itself one address object names the new address;
      // any other answer (all of the instance's addresses, a job, {}) may show other addresses first, or none.
      const returned = post.body as Json | undefined;
      if (returned && typeof returned === 'object' && typeof returned.address === 'string')
        c.expect(
          'P3.ip-allocate.allocates-ipv4',
          returned.address === added[0],
          `POST ips answered ${returned.address} but the instance gained ${added[0]}`,
          post,
        );
      // The new address was asked for as private (public false): which ranges private addresses come from is not shown.
      if (added.length === 1) await judgeIpList(c, instance.id, added[0]!);
    },
  );

  check('P3.ip.rdns.null-resets-default', 'rdns null on a public IPv4 address resets it to the default', async (c) => {
    const [instance] = await publicPair(c, fx);
    const address = await publicOf(c, instance.id);
    const path = `/v4/networking/ips/${address}`;
    const original = (await c.get(path)).body as Json | undefined;
    // Forward DNS first: an A record of one of our domains pointing at the address.
    const domain = await fx.domain(c);
    const name = fx.label('rdns', 60).toLowerCase();
    const record = await c.post(`/v4/domains/${domain.id}/records`, { type: 'A', name, target: address });
    const custom = `${name}.${domain.domain}`;
    const set = record.status < 300 ? await c.put(path, { rdns: custom }) : undefined;
    const customSet = set !== undefined && set.status >= 200 && set.status < 300;
    if (customSet) {
      const isCustom = (rdns: unknown) => rdns === custom || rdns === `${custom}.`;
      const view = (
        await readAfterWrite(
          c,
          () => c.get(path),
          (read) => isCustom((read.body as Json | undefined)?.rdns),
        )
      ).body as Json | undefined;
      c.expect(
        'P3.ip.rdns.null-resets-default',
        view?.rdns === custom || view?.rdns === `${custom}.`,
        `rdns should read back as ${custom}, reads ${JSON.stringify(view?.rdns)}`,
      );
    }
    const reset = await c.put(path, { rdns: null });
    c.expectSuccess('P3.ip.rdns.null-resets-default', reset, 'PUT rdns null on a public IPv4 address');
    // A target that shows a fresh address's default name as null (how it is shown is not shown) shows the reset so too.
    const nullDefault = original?.rdns === null;
    const isDefault = (rdns: unknown) =>
      (typeof rdns === 'string' && rdns.length > 0 && rdns !== custom && rdns !== `${custom}.`) || (nullDefault && rdns === null);
    const after = (
      await readAfterWrite(
        c,
        () => c.get(path),
        (read) => isDefault((read.body as Json | undefined)?.rdns),
      )
    ).body as Json | undefined;
    c.expect(
      'P3.ip.rdns.null-resets-default',
      (typeof after?.rdns === 'string' && after.rdns.length > 0) || (nullDefault && after?.rdns === null),
      `after the reset rdns is ${JSON.stringify(after?.rdns)}, not a default name${nullDefault ? ' (nor null, as the address showed it before)' : ''}`,
    );
    if (customSet)
      c.expect('P3.ip.rdns.null-resets-default', after?.rdns !== custom && after?.rdns !== `${custom}.`, `rdns is still ${custom} after PUT rdns null`);
    if (typeof original?.rdns === 'string' && original.rdns.length > 0)
      c.expect(
        'P3.ip.rdns.null-resets-default',
        after?.rdns === original.rdns,
        `rdns after the reset is ${JSON.stringify(after?.rdns)}, the default of the new address was ${original.rdns}`,
      );
  });

  // No forward record exists in any reading for a name under `.invalid` (RFC 6761: it never resolves), nor for a name in
  // a zone of the run's own that holds no record of it (a server looking only for reserved names passes the first).
  check('P3.ip.rdns.forward-dns-required', 'an rDNS name without a forward record is refused, under .invalid or in a zone of ours', async (c) => {
    const rule = 'P3.ip.rdns.forward-dns-required';
    const [instance] = await publicPair(c, fx);
    const address = await publicOf(c, instance.id);
    const path = `/v4/networking/ips/${address}`;
    const label = fx.label('rdns', 60).toLowerCase();
    for (const name of [`${label}.invalid`, `${label}.${(await fx.domain(c)).domain}`]) {
      c.expectRejected(rule, await c.put(path, { rdns: name }), `PUT rdns ${name} on ${address}: no forward DNS record exists for that name`, 'rdns');
      const after = (await c.get(path)).body as Json | undefined;
      c.expect(rule, after?.rdns !== name && after?.rdns !== `${name}.`, `${address} shows the rdns ${name} after its update was refused`);
    }
  });
});

describe('IP assignment', () => {
  for (const path of ASSIGN) {
    placingCheck(
      ['P3.assign.previous-holder-loses', 'P3.assign.accessible-in-region'],
      `${path}: swapping two public addresses moves each to the named instance`,
      async (c) => {
        const region = c.target.info.config.region;
        const [a, b] = await publicPair(c, fx);
        const [pa, pb] = [await publicOf(c, a.id), await publicOf(c, b.id)];
        const swap = await c.post(
          path,
          await assignmentBody(c, fx, path, region, [
            { address: pa, compute_id: b.id },
            { address: pb, compute_id: a.id },
          ]),
        );
        c.expectSuccess('P3.assign.accessible-in-region', swap, 'swapping the public addresses of two instances of the region');
        // The state both rules are about, each receiver holding its address and each previous holder without it, read
        // while a short time passes: whether the two show at once when the assignment has run is not shown.
        const [after_a, after_b] = (await ipv4AfterAssignment(
          c,
          [a.id, b.id],
          ([shownA, shownB]) => shownB!.includes(pa) && shownA!.includes(pb) && !shownA!.includes(pa) && !shownB!.includes(pb),
        )) as [string[], string[]];
        c.expect(
          'P3.assign.previous-holder-loses',
          after_b.includes(pa) && after_a.includes(pb),
          `the named instances did not receive the addresses (${a.id}: ${after_a}, ${b.id}: ${after_b})`,
        );
        c.expect(
          'P3.assign.previous-holder-loses',
          !after_a.includes(pa) && !after_b.includes(pb),
          `a previous holder kept its address (${a.id}: ${after_a}, ${b.id}: ${after_b})`,
        );
      },
    );

    placingCheck('P3.assign.accessible-in-region', `${path}: a private address can be assigned`, async (c) => {
      const region = c.target.info.config.region;
      const [a, b] = [await fx.newInstance(c, { private_ip: true }), await fx.newInstance(c)];
      const priv = await privateOf(c, a.id);
      const moved = await c.post(path, await assignmentBody(c, fx, path, region, [{ address: priv, compute_id: b.id }]));
      c.expectSuccess('P3.assign.accessible-in-region', moved, 'assigning a private address to an instance without one');
      const [after_a, after_b] = (await ipv4AfterAssignment(c, [a.id, b.id], ([shownA, shownB]) => shownB!.includes(priv) && !shownA!.includes(priv))) as [
        string[],
        string[],
      ];
      c.expect(
        'P3.assign.previous-holder-loses',
        after_b.includes(priv) && !after_a.includes(priv),
        `the private address did not move (${a.id}: ${after_a}, ${b.id}: ${after_b})`,
      );
    });

    placingCheck('P3.assign.end-public-ipv4', `${path}: leaving an instance without a public IPv4 address is refused and nothing changes`, async (c) => {
      const region = c.target.info.config.region;
      const [a, b] = await publicPair(c, fx);
      const pa = await publicOf(c, a.id);
      const before = await snapshot(c, [a.id, b.id]);
      const refused = await c.post(path, await assignmentBody(c, fx, path, region, [{ address: pa, compute_id: b.id }]));
      c.expectRejected('P3.assign.end-public-ipv4', refused, `moving the only public address of instance ${a.id} away`);
      const after = await snapshot(c, [a.id, b.id]);
      c.expect('P3.assign.end-public-ipv4', after === before, `the addresses changed after a refused assignment: ${before} → ${after}`);
    });

    // (the public address moved away leaves its instance its private one: a server counting any IPv4 address as the
    // public one accepts it)
    placingCheck(
      ['P3.assign.end-private-max-1', 'P3.assign.end-public-ipv4'],
      `${path}: leaving an instance with two private IPv4 addresses, or with its private one only, is refused and nothing changes`,
      async (c) => {
        const region = c.target.info.config.region;
        const [a, b] = [await fx.newInstance(c, { private_ip: true }), await fx.newInstance(c, { private_ip: true })];
        const moves: Array<[string, string, string]> = [
          ['P3.assign.end-private-max-1', await privateOf(c, b.id), `giving instance ${a.id} a second private address`],
          ['P3.assign.end-public-ipv4', await publicOf(c, b.id), `moving the public address of instance ${b.id} away, leaving it its private one`],
        ];
        for (const [rule, address, what] of moves) {
          const before = await snapshot(c, [a.id, b.id]);
          const refused = await c.post(path, await assignmentBody(c, fx, path, region, [{ address, compute_id: a.id }]));
          c.expectRejected(rule, refused, what);
          const after = await snapshot(c, [a.id, b.id]);
          c.expect(rule, after === before, `the addresses changed after a refused assignment (${what}): ${before} → ${after}`);
        }
      },
    );

    placingCheck('P3.assign.same-region', `${path}: an address or instance of another region is refused and nothing changes`, async (c) => {
      const region = c.target.info.config.region;
      const elsewhere = await otherRegion(c);
      const [a, far] = [await fx.newInstance(c), await fx.newInstance(c, { region: elsewhere })];
      const [pa, pf] = [await publicOf(c, a.id), await publicOf(c, far.id)];
      const before = await snapshot(c, [a.id, far.id]);
      const refused = await c.post(
        path,
        await assignmentBody(c, fx, path, region, [
          { address: pf, compute_id: a.id },
          { address: pa, compute_id: far.id },
        ]),
      );
      c.expectRejected('P3.assign.same-region', refused, `swapping addresses with an instance of ${elsewhere} in an assignment for ${region}`);
      const after = await snapshot(c, [a.id, far.id]);
      c.expect('P3.assign.same-region', after === before, `the addresses changed after a refused assignment: ${before} → ${after}`);
    });

    placingCheck('P3.assign.grants', `${path}: the caller needs read_write on every instance involved`, async (c) => {
      const region = c.target.info.config.region;
      const [a, b] = await publicPair(c, fx);
      const [pa, pb] = [await publicOf(c, a.id), await publicOf(c, b.id)];
      const body = await assignmentBody(c, fx, path, region, [
        { address: pa, compute_id: b.id },
        { address: pb, compute_id: a.id },
      ]);
      const partial = await c.principal({
        scopes: '*',
        restricted: true,
        grants: { entities: { compute: { [String(a.id)]: 'read_write', [String(b.id)]: 'read_only' } } },
      });
      const before = await snapshot(c, [a.id, b.id]);
      c.expectRejected('P3.assign.grants', await c.post(path, body, { token: partial }), 'a swap by a restricted user with read_only on one instance');
      c.expect('P3.assign.grants', (await snapshot(c, [a.id, b.id])) === before, 'the addresses changed after a refused assignment');
      const full = await c.principal({
        scopes: '*',
        restricted: true,
        grants: { entities: { compute: { [String(a.id)]: 'read_write', [String(b.id)]: 'read_write' } } },
      });
      const swapped = await c.post(path, body, { token: full });
      if (isErrorResponse(swapped)) c.skip(addressGrantsNotShown(describeExchange(swapped)));
      c.expectSuccess('P3.assign.grants', swapped, 'the same swap by a restricted user with read_write on both instances');
      // The pair is the file's: the next check reads it once the swap shows (while a short time passes: when an
      // assignment takes effect is not shown).
      await ipv4AfterAssignment(c, [a.id, b.id], ([shownA, shownB]) => shownA!.includes(pb) && shownB!.includes(pa));
    });
  }
});

describe('IP assignment: region', () => {
  // "all addresses and instances must be in the given region": the region ips/assign is given ("`region` (string,
  // required)") is judged too, not only the regions of the addresses and instances against each other (the checks
  // above). ipv4/assign documents no region.
  placingCheck('P3.assign.same-region', 'ips/assign: a swap within one region sent for another region is refused and nothing changes', async (c) => {
    const rule = 'P3.assign.same-region';
    const path = '/v4/networking/ips/assign';
    const elsewhere = await otherRegion(c);
    const [a, b] = await publicPair(c, fx);
    const body = await assignmentBody(c, fx, path, elsewhere, await publicSwap(c, fx));
    const before = await snapshot(c, [a.id, b.id]);
    const refused = await c.post(path, body);
    c.expectRejected(rule, refused, `swapping the public addresses of two instances of ${c.target.info.config.region} in an assignment for ${elsewhere}`);
    const after = await snapshot(c, [a.id, b.id]);
    c.expect(rule, after === before, `the addresses changed after a refused assignment: ${before} → ${after}`);
  });

  check('P3.ips-assign.region.required', 'ips/assign: a swap accepted with region is refused without it, and nothing changes', async (c) => {
    const rule = 'P3.ips-assign.region.required';
    const [a, b] = await publicPair(c, fx);
    const [pa, pb] = [await publicOf(c, a.id), await publicOf(c, b.id)];
    const before = await snapshot(c, [a.id, b.id]);
    const refused = await c.post('/v4/networking/ips/assign', {
      assignments: [
        { address: pa, compute_id: b.id },
        { address: pb, compute_id: a.id },
      ],
    });
    c.expectRejected(rule, refused, 'swapping the public addresses of two instances with no region beside the assignments or in them', REGION_PLACES);
    const after = await snapshot(c, [a.id, b.id]);
    c.expect(rule, after === before, `the addresses changed after a refused assignment: ${before} → ${after}`);
  });
});

describe('IP sharing', () => {
  for (const path of SHARE) {
    check('P3.share.same-region', `${path}: an address of another region cannot be shared`, async (c) => {
      const elsewhere = await otherRegion(c);
      const [a, b, far] = [await fx.newInstance(c), await fx.newInstance(c), await fx.newInstance(c, { region: elsewhere })];
      c.expectRejected(
        'P3.share.same-region',
        await c.post(path, { compute_id: a.id, ips: [await publicOf(c, far.id)] }),
        `sharing an address of ${elsewhere} with an instance of another region`,
        // the address, or the instance it is not in the region of
        ['ips.0', 'compute_id'],
      );
      c.expectSuccess(
        'P3.share.same-region',
        await c.post(path, { compute_id: a.id, ips: [await publicOf(c, b.id)] }),
        'sharing an address of the same region',
      );
      c.expectSuccess('P3.share.empty-removes', await c.post(path, { compute_id: a.id, ips: [] }), 'sharing an empty list');
    });

    // "in addition to their owners": the owner is judged (its instance view); what the given instance shows is not stated.
    check('P3.share.owner-keeps', `${path}: a shared address stays an address of its owner`, async (c) => {
      const rule = 'P3.share.owner-keeps';
      const [a, b] = await publicPair(c, fx);
      const pb = await publicOf(c, b.id);
      c.expectSuccess(rule, await c.post(path, { compute_id: a.id, ips: [pb] }), `sharing ${pb} of instance ${b.id} with instance ${a.id}`);
      const owner = await readAfterWrite(
        c,
        () => addressesOf(c, b.id),
        (read) => read.ipv4.includes(pb),
      );
      c.expect(
        rule,
        owner.ipv4.includes(pb),
        `instance ${b.id} no longer holds ${pb} after sharing it with instance ${a.id} (it shows ${owner.ipv4.join(', ')})`,
      );
      await c.post(path, { compute_id: a.id, ips: [] });
    });

    check('P3.share.access-all', `${path}: the caller needs access to every shared address`, async (c) => {
      const [a, b] = await publicPair(c, fx);
      const pb = await publicOf(c, b.id);
      const without = await c.principal({ scopes: '*', restricted: true, grants: { entities: { compute: { [String(a.id)]: 'read_write' } } } });
      c.expectRejected(
        'P3.share.access-all',
        await c.post(path, { compute_id: a.id, ips: [pb] }, { token: without }),
        'sharing an address of an instance the restricted user has no grant on',
      );
      const withBoth = await c.principal({
        scopes: '*',
        restricted: true,
        grants: { entities: { compute: { [String(a.id)]: 'read_write', [String(b.id)]: 'read_write' } } },
      });
      const shared = await c.post(path, { compute_id: a.id, ips: [pb] }, { token: withBoth });
      if (isErrorResponse(shared)) c.skip(addressGrantsNotShown(describeExchange(shared)));
      c.expectSuccess('P3.share.access-all', shared, 'the same share by a restricted user with read_write on both instances');
      await c.post(path, { compute_id: a.id, ips: [] });
    });
  }
});

describe('IPv6 ranges', () => {
  // Four real-time waits without the clock hook: for the region to be free, for it to take a range again, and for the
  // other region to take one, twice.
  checkWaiting(4)(
    [
      'P3.ipv6-range-create.route-target.no-prefix',
      'P3.ipv6-range-create.route-target.ipv6',
      'P3.ipv6-range-create.target.exactly-one',
      'P3.ipv6-range.prefix-length.enum',
      'P3.ipv6-range.region-of-instance',
    ],
    'route_target is a bare IPv6 SLAAC address; exactly one of compute_id and route_target; prefix_length 56 or 64',
    async (c) => {
      // (the run's region where it can: P3.ipv6-range.region-of-instance is judged in the second region at the end)
      const region = await runRegionOrOther(c);
      const elsewhere = await otherRangeRegionFree(c, region);
      const instance = await fx.newInstance(c, { region });
      const slaac = await slaacOf(c, instance.id);
      // The instance's own IPv4 address, which a server could take for the instance: still not an IPv6 route_target.
      const ownIpv4 = (await addressesOf(c, instance.id)).ipv4.find((address) => ipaddr.IPv4.isValid(address));
      const refusals: Array<[string, Json, string, string | null]> = [
        ['P3.ipv6-range-create.route-target.no-prefix', { prefix_length: 64, route_target: `${slaac}/128` }, 'route_target with /128', 'route_target'],
        [
          'P3.ipv6-range-create.route-target.ipv6',
          { prefix_length: 64, route_target: 'not-an-address' },
          'route_target that is not an address',
          'route_target',
        ],
        ['P3.ipv6-range-create.route-target.ipv6', { prefix_length: 64, route_target: '192.0.2.1' }, 'route_target that is an IPv4 address', 'route_target'],
        [
          'P3.ipv6-range-create.target.exactly-one',
          { prefix_length: 64, compute_id: instance.id, route_target: slaac },
          'both compute_id and route_target',
          null,
        ],
        ['P3.ipv6-range-create.target.exactly-one', { prefix_length: 64 }, 'neither compute_id nor route_target', null],
        // in a region with no range, so that nothing but the prefix length stands in the way
        ...[48, 60, 128].map((prefix): [string, Json, string, string | null] => [
          'P3.ipv6-range.prefix-length.enum',
          { prefix_length: prefix, compute_id: instance.id },
          `prefix_length ${prefix}`,
          'prefix_length',
        ]),
      ];
      if (ownIpv4)
        refusals.push([
          'P3.ipv6-range-create.route-target.ipv6',
          { prefix_length: 64, route_target: ownIpv4 },
          "route_target that is the instance's own IPv4 address",
          'route_target',
        ]);
      // The region shows no range, but one deleted a short time ago (another check's) may still hold it (when it is free
      // again is not shown), and a server may judge the region's one range first (which of a body's faults it names
      // first is not shown): a refusal naming another member is sent again while a short time passes.
      const namesOther = (exchange: Exchange, field: string | null) => field !== null && namesField(exchange, field) === false;
      for (const [rule, body, what, field] of refusals) {
        const { exchange, range } = await untilShortlyDoneSparingly(
          c,
          () => createRange(c, fx, body, slaac, { once: true }),
          (sent) => sent.range !== undefined || !namesOther(sent.exchange, field),
        );
        if (range) await c.delete(`${RANGES}/${range}`);
        c.expectRejected(rule, exchange, `POST ipv6/ranges with ${what}`, field);
      }
      const { exchange, range } = await createRange(c, fx, { prefix_length: 64, route_target: slaac }, slaac);
      c.expectSuccess('P3.ipv6-range-create.route-target.no-prefix', exchange, 'POST ipv6/ranges with the bare SLAAC address of an instance');
      if (!range) throw new Error('created a range but cannot find it in the list');
      const view = (await newRangeView(c, range, (body) => inRegion(body, region))).body as Json | undefined;
      c.expect('P3.ipv6-range.region-of-instance', inRegion(view ?? {}, region), `the range routed to an instance of ${region} is in ${String(view?.region)}`);
      // A range in each region at once (one per region) tells a server that makes both in one, even where ranges show no
      // region; the instance named by compute_id, then by route_target (a server may misplace one form only).
      const there = elsewhere ? await fx.newInstance(c, { region: elsewhere }) : undefined;
      const thereSlaac = there && (await slaacOf(c, there.id));
      const targets = there ? { compute_id: there.id, route_target: thereSlaac } : {};
      for (const [by, value] of Object.entries(targets)) {
        const second = await createRange(c, fx, { prefix_length: 64, [by]: value }, thereSlaac);
        const what = `POST ipv6/ranges with the ${by} of an instance of ${elsewhere} while the account's one range is in ${region}`;
        c.expectSuccess('P3.ipv6-range.region-of-instance', second.exchange, what);
        if (second.range) await c.delete(`${RANGES}/${second.range}`);
      }
      c.expectSuccess('P3.ipv6-range.delete-disconnects', await c.delete(`${RANGES}/${range}`), 'DELETE the range');
    },
    { exclusive: IPV6_RANGES_LOCK },
  );

  // Three real-time waits without the clock hook: for the region to be free of another check's range, for this range's
  // deletion, and for the region to take a range again.
  checkWaiting(3)(
    ['P3.ipv6-range.region-of-instance', 'P3.ipv6-range.one-per-region', 'P3.ipv6-range.one-slaac-per-instance', 'P3.ipv6-range.delete-disconnects'],
    'one range per region and per instance; a deleted range is gone',
    async (c) => {
      const { region, p, q, sp, sq } = await pairInFreeRegion(c, fx);
      const first = await createRange(c, fx, { prefix_length: 64, compute_id: p.id }, sp);
      c.expectSuccess('P3.ipv6-range.one-per-region', first.exchange, `the first range of the account in ${region}`);
      if (!first.range) throw new Error('created a range but cannot find it in the list');
      const routesToFirst = (body: Json) => typeof body.route_target !== 'string' || routeTargetOf(body) === sp;
      const view = await newRangeView(c, first.range, (body) => routesToFirst(body) && inRegion(body, region));
      const body = view.body as Json | undefined;
      c.expect(
        'P3.ipv6-range.region-of-instance',
        routesToFirst(body ?? {}),
        `the range routes to ${String(body?.route_target)}, not to the SLAAC address ${sp} of instance ${p.id}`,
        view,
      );
      c.expect('P3.ipv6-range.region-of-instance', inRegion(body ?? {}, region), `the range of an instance of ${region} is in ${String(body?.region)}`, view);
      const again = await createRange(c, fx, { prefix_length: 56, route_target: sp }, sp, { once: true });
      c.expectRejected('P3.ipv6-range.one-slaac-per-instance', again.exchange, 'a second range targeting the same SLAAC address');
      // Of either prefix length: a server counting a region's ranges per prefix length takes a /56 beside a /64.
      for (const prefix_length of [64, 56]) {
        const second = await createRange(c, fx, { prefix_length, compute_id: q.id }, sq, { once: true });
        if (second.range) await c.delete(`${RANGES}/${second.range}`);
        c.expectRejected('P3.ipv6-range.one-per-region', second.exchange, `a second range in ${region} (/${prefix_length})`);
      }
      c.expectSuccess('P3.ipv6-range.delete-disconnects', await c.delete(`${RANGES}/${first.range}`), 'DELETE the range');
      // "disconnects the range from assigned instances": whether it is gone when the DELETE answers or once the deletion
      // has run is not shown, so the view and the list are read while a short time passes.
      const gone = await untilGone(c, `${RANGES}/${first.range}`);
      c.expect(
        'P3.ipv6-range.delete-disconnects',
        gone.status >= 400 && gone.status < 500,
        `GET a deleted range answered HTTP ${gone.status} (read while a short time passed)`,
        gone,
      );
      const find = async () => (await listAll(c, RANGES)).find((item) => typeof item.range === 'string' && item.range.split('/')[0] === first.range);
      const listed = await untilShortlyDone(c, find, (item) => item === undefined);
      c.expect('P3.ipv6-range.delete-disconnects', !listed, `the deleted range ${first.range} is still listed (read while a short time passed)`);
      // With the region free again, a range for the other instance is accepted (sent again while refused: when the region
      // is free again after the DELETE is not shown).
      const third = await createRange(c, fx, { prefix_length: 56, compute_id: q.id }, sq);
      c.expectSuccess('P3.ipv6-range.one-per-region', third.exchange, `a range in ${region} once the first one is deleted`);
      if (third.range) await c.delete(`${RANGES}/${third.range}`);
    },
    { exclusive: IPV6_RANGES_LOCK },
  );

  placingCheck(
    'P3.assign.ipv6-retarget',
    'assigning a range re-targets it to the SLAAC address of the receiving instance',
    async (c) => {
      const { region, p, q, sp, sq } = await pairInFreeRegion(c, fx);
      const created = await createRange(c, fx, { prefix_length: 64, compute_id: p.id }, sp);
      if (!created.range) throw new Error(`setup: could not create a range (HTTP ${created.exchange.status})`);
      const before = (await rangeView(c, created.range)).body as Json | undefined;
      if (typeof before?.region === 'string')
        c.expect('P3.ipv6-range.region-of-instance', before.region === region, `the range routed to an instance of ${region} is in ${before.region}`);
      const path = '/v4/networking/ips/assign';
      const assign = await c.post(path, await assignmentBody(c, fx, path, region, [{ address: `${created.range}/64`, compute_id: q.id }]));
      c.expectSuccess('P3.assign.ipv6-retarget', assign, 'assigning the range to another instance of its region');
      const routesTo = (exchange: Exchange) => routeTargetOf(exchange.body as Json | undefined) === sq;
      const shows = (body: Json | undefined) => typeof body?.route_target === 'string';
      // "re-targets the range": whether it has when the assignment answers or once it has run is not shown.
      const view = shows(before) ? await untilShortlyDone(c, () => rangeView(c, created.range!), routesTo) : undefined;
      await c.delete(`${RANGES}/${created.range}`);
      // Whether a range shows its route_target is not shown ("Full field lists … as returned: not shown").
      if (!view || !shows(view.body as Json | undefined))
        return c.skip('the range view shows no route_target to judge the re-target by (whether a range shows it is not shown)');
      c.expect(
        'P3.assign.ipv6-retarget',
        routesTo(view),
        `the range routes to ${String((view.body as Json | undefined)?.route_target)}, not to ${sq} (instance ${q.id})`,
        view,
      );
    },
    { exclusive: IPV6_RANGES_LOCK },
  );

  // Three real-time waits without the clock hook: for the region to be free, for the share to run, and for the unshare.
  checkWaiting(3)(
    ['P3.ipv6-range.shared-cannot-delete', 'P3.share.empty-removes'],
    'a shared range cannot be deleted; sharing an empty list unshares it',
    async (c) => {
      const region = await otherRegion(c, { free: true });
      const [p, q] = [await fx.newInstance(c, { region }), await fx.newInstance(c, { region })];
      const sp = await slaacOf(c, p.id);
      const created = await createRange(c, fx, { prefix_length: 64, compute_id: p.id }, sp);
      if (!created.range) throw new Error(`setup: could not create a range (HTTP ${created.exchange.status})`);
      const shared = await c.post('/v4beta/networking/ips/share', { compute_id: q.id, ips: [created.range] });
      if (shared.status >= 400) {
        await c.delete(`${RANGES}/${created.range}`);
        c.skip(`IPv6 range sharing was refused in ${region} (which regions offer it is not shown)`);
      }
      // "configures IP failover sharing": whether the range is shared when the share answers or once it has run is not
      // shown, and nothing but the DELETE shows it; a DELETE sent before it has run deletes the range, so a short time
      // passes first (real time without the clock hook: what a server runs a minute after the share is seen).
      await letShortlyRun(c, { realTime: 'short' });
      const refused = await c.delete(`${RANGES}/${created.range}`);
      c.expectRejected('P3.ipv6-range.shared-cannot-delete', refused, 'DELETE a shared range, a short time after the share was accepted');
      c.expectSuccess('P3.ipv6-range.shared-cannot-delete', await rangeView(c, created.range), 'GET the range after a refused delete');
      c.expectSuccess('P3.share.empty-removes', await c.post('/v4beta/networking/ips/share', { compute_id: q.id, ips: [] }), 'sharing an empty list');
      // The unshare may run a while too: a refused DELETE changes nothing, so it is sent again while a short time passes.
      const deleted = await untilShortlyDone(
        c,
        () => c.delete(`${RANGES}/${created.range}`),
        (exchange) => exchange.status >= 200 && exchange.status < 300,
      );
      c.expectSuccess('P3.share.empty-removes', deleted, 'DELETE the range once the instance shares nothing (sent again while a short time passes)');
    },
    { exclusive: IPV6_RANGES_LOCK },
  );
});
