// Document 3, "IP addresses" and the address rows of "Limits": the address list, allocation, reverse DNS, assignment
// end states, sharing, and IPv6 ranges (ip-addresses-ranges.ts: one per region, exactly one target, re-targeting,
// deletion); the VLANs are in vlans.spec.ts. Response bodies are not shown: instances' addresses are read from the
// instance view (`ipv4`, `ipv6`, document 2), ranges are found again in their list by `route_target`.
//
// One IPv6 range per region per account: the generic checks hold ranges in the configured region, so the range
// checks here work in another region (one named by the IPv6 pools list that holds no range).
import ipaddr from 'ipaddr.js';
import { describe } from 'vitest';
import { check, checkWaiting } from '../../harness/check.js';
import { describeExchange, isErrorResponse } from '../../harness/error-bodies.js';
import { readAfterWrite } from '../../harness/consistency.js';
import { useFixtures } from '../../harness/fixtures.js';
import { REGION_PLACES } from '../../arbitraries/part3.js';
import { EXTRA_ADDRESS_REQUEST } from '../generic/valid-requests.js';
import {
  addressesOf,
  assignmentBody,
  publicPair,
  publicSwap,
  ipv4AfterAssignment,
  judgeIpList,
  otherRegion,
  privateOf,
  publicOf,
  snapshot,
  addressGrantsNotShown,
} from './ip-addresses-support.js';
import { rangeChecks } from './ip-addresses-ranges.js';

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
  // a zone of the run's own that holds no record of it (a server looking only for reserved names passes the first). On
  // the instance's public IPv4 address and its IPv6 SLAAC address, where it has one: the rule is not IPv4's alone.
  check('P3.ip.rdns.forward-dns-required', 'an rDNS name without a forward record is refused, under .invalid or in a zone of ours', async (c) => {
    const rule = 'P3.ip.rdns.forward-dns-required';
    const [instance] = await publicPair(c, fx);
    const addresses = [await publicOf(c, instance.id), (await addressesOf(c, instance.id)).slaac].filter((address) => !!address);
    const label = fx.label('rdns', 60).toLowerCase();
    for (const address of addresses)
      for (const name of [`${label}.invalid`, `${label}.${(await fx.domain(c)).domain}`]) {
        const path = `/v4/networking/ips/${address}`;
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

    // First by a restricted user with read_only on the holder, read_write on the receiver: "the caller needs read_write
    // on all addresses and instances", the holder's too (a valid end state otherwise: each keeps its public address).
    placingCheck(
      ['P3.assign.accessible-in-region', 'P3.assign.grants'],
      `${path}: a private address can be assigned, with read_write on its holder`,
      async (c) => {
        const region = c.target.info.config.region;
        const [a, b] = [await fx.newInstance(c, { private_ip: true }), await fx.newInstance(c)];
        const priv = await privateOf(c, a.id);
        const body = await assignmentBody(c, fx, path, region, [{ address: priv, compute_id: b.id }]);
        // (a user with grants of the check's choosing needs the control hooks; the move by the run's user is judged anyway)
        if (c.target.control) {
          const grants = { entities: { compute: { [String(a.id)]: 'read_only' as const, [String(b.id)]: 'read_write' as const } } };
          await publicOf(c, b.id);
          const before = await snapshot(c, [a.id, b.id]);
          const refused = await c.post(path, body, { token: await c.principal({ scopes: '*', restricted: true, grants }) });
          c.expectRejected('P3.assign.grants', refused, 'moving the private address of an instance the caller may only read');
          const after = await readAfterWrite(
            c,
            () => snapshot(c, [a.id, b.id]),
            (shown) => shown === before,
          );
          c.expect('P3.assign.grants', after === before, `the addresses changed after a refused assignment: ${before} → ${after}`);
        }
        const moved = await c.post(path, body);
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
      },
    );

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

rangeChecks(fx, { placingCheck });
