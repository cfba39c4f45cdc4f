// Document 3, "IP addresses": IPv6 ranges (one per region, exactly one target, re-targeting, deletion), declared from
// specs/part3/ip-addresses.spec.ts by `rangeChecks` (a module of that spec file, not a spec file: its plan keys name it).
import ipaddr from 'ipaddr.js';
import { describe } from 'vitest';
import { checkWaiting, type Check } from '../../harness/check.js';
import { letShortlyRun, readAfterWrite, untilGone, untilShortlyDone, untilShortlyDoneSparingly } from '../../harness/consistency.js';
import { namesField } from '../../harness/error-bodies.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { listItems as listAll } from '../../harness/lists.js';
import { IPV6_RANGES_LOCK } from '../generic/valid-requests.js';
import {
  addressesOf,
  assignmentBody,
  createRange,
  inRegion,
  newRangeView,
  otherRangeRegionFree,
  otherRegion,
  pairInFreeRegion,
  publicPair,
  RANGES,
  rangeView,
  routeTargetOf,
  runRegionOrOther,
  slaacOf,
} from './ip-addresses-support.js';

type Json = Record<string, unknown>;

/** `placingCheck`: the spec file's kind of check asking for an assignment body (ip-addresses.spec.ts). */
/** A range created of `asked` length shows that length where it shows one (`prefix_length`, or the /n of `range`). */
function judgeLength(c: Check, body: Json | undefined, asked: number): void {
  const shown = [body?.prefix_length, /\/(\d+)$/.exec(String(body?.range ?? ''))?.[1]].filter((length) => length !== undefined).map(Number);
  c.expect(
    'P3.ipv6-range-create.prefix-length.applied',
    shown.every((length) => length === asked),
    `a range created with prefix_length ${asked} shows ${JSON.stringify(body)}`,
  );
}

export function rangeChecks(fx: Fixtures, { placingCheck }: { placingCheck: ReturnType<typeof checkWaiting> }): void {
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
        c.expect(
          'P3.ipv6-range.region-of-instance',
          inRegion(view ?? {}, region),
          `the range routed to an instance of ${region} is in ${String(view?.region)}`,
        );
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
      [
        'P3.ipv6-range.region-of-instance',
        'P3.ipv6-range.one-per-region',
        'P3.ipv6-range.one-slaac-per-instance',
        'P3.ipv6-range.delete-disconnects',
        'P3.ipv6-range-create.prefix-length.applied',
      ],
      'one range per region and per instance, of the length asked for; a deleted range is gone',
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
        judgeLength(c, body, 64);
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
        if (third.range) {
          // (read until it shows the new range, not a deleted one its address was given again: the length alone is judged)
          const routesToThird = (body: Json) => typeof body.route_target !== 'string' || routeTargetOf(body) === sq;
          judgeLength(c, (await newRangeView(c, third.range, routesToThird)).body as Json | undefined, 56);
          await c.delete(`${RANGES}/${third.range}`);
        }
      },
      { exclusive: IPV6_RANGES_LOCK },
    );

    // First to an instance of the run's region, in an assignment for that region: the range is in another ("all addresses
    // and instances must be in the given region"), so it is refused and the range stays where it routes.
    placingCheck(
      ['P3.assign.ipv6-retarget', 'P3.assign.same-region'],
      'assigning a range re-targets it to the SLAAC address of the receiving instance, of its region only',
      async (c) => {
        const { region, p, q, sp, sq } = await pairInFreeRegion(c, fx);
        const created = await createRange(c, fx, { prefix_length: 64, compute_id: p.id }, sp);
        if (!created.range) throw new Error(`setup: could not create a range (HTTP ${created.exchange.status})`);
        const before = (await rangeView(c, created.range)).body as Json | undefined;
        if (typeof before?.region === 'string')
          c.expect('P3.ipv6-range.region-of-instance', before.region === region, `the range routed to an instance of ${region} is in ${before.region}`);
        const path = '/v4/networking/ips/assign';
        const runRegion = c.target.info.config.region;
        if (runRegion !== region) {
          const [elsewhere] = await publicPair(c, fx);
          const item = { address: `${created.range}/64`, compute_id: elsewhere.id };
          const refused = await c.post(path, await assignmentBody(c, fx, path, runRegion, [item]));
          c.expectRejected('P3.assign.same-region', refused, `assigning the range of ${region} to instance ${elsewhere.id} in an assignment for ${runRegion}`);
          const routed = await readAfterWrite(
            c,
            () => rangeView(c, created.range!),
            (view) => [undefined, sp].includes(routeTargetOf(view.body as Json | undefined)),
          );
          const after = routeTargetOf(routed.body as Json | undefined);
          c.expect(
            'P3.assign.same-region',
            after === undefined || after === sp,
            `the range routes to ${String(after)} after a refused assignment, not to ${sp}`,
          );
        }
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
}
