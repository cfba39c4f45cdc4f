// Request bodies generated from the documents (arbitraries/) and sent to the target: valid bodies are accepted;
// each body that breaks exactly one constraint is rejected with a 4xx error body naming the member at fault;
// a rejected update leaves the resource as it was. Failures shrink and print the seed and a replay command.
import fc from 'fast-check';
import { describe } from 'vitest';
import { needRangeRoomNow, needVlanRoom, regionForIpv6Range, vlansNamed } from '../../harness/account-limits.js';
import { check, namesField, type Check } from '../../harness/check.js';
import { runProperty } from '../../harness/property.js';
import { onceNotBusy, readAfterWrite, untilShortlyDone } from '../../harness/consistency.js';
import { answersGone } from '../../harness/resources.js';
import { listItems, succeeded } from '../../harness/lists.js';
import { SetupError, useFixtures, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { endpointByKey, endpointKey, endpoints, type Endpoint } from '../../rules/endpoints.js';
import { endpointRuleId } from '../../rules/endpoint-rules.js';
import type { BodyArbitraries, BodyContext, Violation } from '../../arbitraries/types.js';
import { loadContract } from '../../harness/contract.js';
import { deepFind } from '../../harness/lists.js';
import { validRequests } from '../generic/valid-requests.js';
import { busyLast } from '../../harness/run-order.js';
import { deployedProfiles, diskToCapture, fullvirtProfilePath, instanceBackup, putAtRest, shutDown } from '../part2/compute-support.js';
import { untilAllowListApplied, withOwnWindow } from '../part1/databases-support.js';
import { instanceOfDevice } from '../part3/firewalls-support.js';
import { recordPathOfType } from '../part3/records-support.js';
import { publicPair, withRegionPlaced } from '../part3/ip-addresses-support.js';
import { mayCreateBillable } from '../../harness/target.js';
import { typeViolationsOf, wrongTypedValue } from './type-violations.js';
import { allowList, DOMAIN_DEFAULTS, DOMAIN_REFLECTED, domainReadBack, firewallTags, RECORD_REFLECTED, recordReadBack } from './read-backs.js';
import { same, sameIgnoringCase, sameSet, zeroRule, type ReadBack } from './read-backs.js';

type Json = Record<string, unknown>;

/** Bodies breaking a rule sent at once by one check. */
const VIOLATION_CONCURRENCY = 10;

/** How valid bodies of one schema can be sent repeatedly. Bodies not listed: any number of times, to the recipe's path. */
interface ValidPlan {
  /** Valid bodies are not sent: their acceptance depends on state a generated body cannot know. */
  skip?: string;
  /** At most this many runs (stateful limits such as five concurrent clones). */
  maxRuns?: number;
  /** The path for every run: a fresh target when the request consumes it, or the instance the context's ids belong to. */
  path?: (c: Check, fx: Fixtures, context: BodyContext) => Promise<string>;
  /** The path a body breaking a rule is sent to, where the valid bodies' path makes what a rejection does not need. */
  violationPath?: (c: Check, fx: Fixtures, context: BodyContext) => Promise<string>;
  /** The path a body breaking a rule is sent to, where it depends on the body (made once per file for each path). */
  violationPathOf?: (c: Check, fx: Fixtures, body: Json) => Promise<string>;
  /**
   * Rules a body breaks only where the target holds some state, and the path holding it: their (server-judged)
   * violations are sent there. Other server-judged violations are left to the scenario checks.
   */
  serverJudgedAt?: Record<string, (c: Check, fx: Fixtures) => Promise<string>>;
  /** Rules stating that such bodies are accepted, checked together with the endpoint's `serves` rule. */
  rules?: string[];
  /** Valid bodies sent before the generated ones (within the runs), for what a rule needs in every run. */
  first?: (fx: Fixtures, context: BodyContext) => Json[];
  /** Valid bodies whose acceptance depends on state are not sent (`fc.pre`): say why in the plan. */
  accept?: (body: Json) => boolean;
  /**
   * After an accepted update the resource is read back: each member listed must show what was sent (a function: the
   * members, from what the file made, such as the zone a record belongs to).
   */
  readBack?: Record<string, ReadBack> | ((c: Check, fx: Fixtures) => Promise<Record<string, ReadBack>>);
  /** The change may take a short time to show (`untilShortlyDone`): read back while it passes. */
  readBackShortly?: true;
  /**
   * After an accepted create, before what it made is deleted: the new resource's view (`<path>/<id>`, the id the
   * create answers) is read, and each member listed must show what was sent (`readCreated`).
   */
  readBackCreated?: Record<string, ReadBack>;
  /** Puts the target in the state valid bodies need: before the first run, and after each accepted one. */
  settle?: (c: Check, context: BodyContext, fx: Fixtures) => Promise<void>;
  /**
   * Puts the target in the state bodies breaking `rule` need, before the first of them: a refusal for another state
   * (a running instance a server will not boot, rescue or restore onto) would stand for theirs.
   */
  beforeViolations?: (c: Check, context: BodyContext, rule: string) => Promise<void>;
  /**
   * Why a refused valid body was refused for state the check did not make (another check's resources), or
   * undefined: the run is then discarded (`fc.pre`) instead of judged.
   */
  excuse?: (c: Check, body: Json, fx: Fixtures) => Promise<string | undefined>;
  /** A member whose place in the body is not shown, moved to where the target takes it before a body is sent. */
  placed?: (c: Check, fx: Fixtures, path: string, body: Json) => Promise<Json>;
  /**
   * Skips where the account's state, which the run did not make, leaves no room under a documented limit for what a
   * body would make: asked when a body breaking a rule is refused naming another member (a server may judge the limit
   * first). Bodies naming new VLANs are asked about the VLAN region's room whatever the plan.
   */
  room?: (c: Check, context: BodyContext) => Promise<void>;
}

/** The instances a body names in `<member>.computes` (firewall devices, transfer entities). */
const computesIn = (body: Json, member: string): number[] => ((body[member] as Json | undefined)?.computes as number[] | undefined) ?? [];

/** `held` read again within the consistency window until it finds what holds an instance (lists may lag writes). */
const heldWithin = (c: Check, held: () => Promise<string | undefined>) => readAfterWrite(c, held, (reason) => reason !== undefined);

/**
 * An instance named in `devices.computes` that is already a device of an enabled firewall (another check's): a new
 * enabled firewall naming it is refused by P3.firewall.device.one-active-per-instance, whatever the body.
 */
function heldByEnabledFirewall(c: Check, body: Json): Promise<string | undefined> {
  const named = computesIn(body, 'devices');
  if (!named.length) return Promise.resolve(undefined);
  return heldWithin(c, async () => {
    for (const firewall of await listItems(c, '/v4/networking/firewalls')) {
      if (firewall.status !== 'enabled') continue;
      const devices = await listItems(c, `/v4/networking/firewalls/${String(firewall.id)}/devices`);
      if (devices.some((device) => typeof instanceOfDevice(device) !== 'number'))
        return `a device of the enabled firewall ${String(firewall.id)} may hold it (which instance a device is cannot be read)`;
      const held = named.find((id) => devices.some((device) => instanceOfDevice(device) === id));
      if (held !== undefined) return `instance ${held} is a device of the enabled firewall ${String(firewall.id)}`;
    }
    return undefined;
  });
}

/** An instance named in `entities.computes` already in a pending transfer (another check's): refused for that state. */
function heldByPendingTransfer(c: Check, body: Json): Promise<string | undefined> {
  const named = computesIn(body, 'entities');
  if (!named.length) return Promise.resolve(undefined);
  return heldWithin(c, async () => {
    // A pending transfer is new (it expires in 24 hours): on a list longer than the page cap it is on one of the ends read.
    const pending = (await listItems(c, '/v4/account/entity-transfers', undefined, { ends: true })).filter((transfer) => transfer.status === 'pending');
    const held = named.find((id) => pending.some((transfer) => computesIn(transfer, 'entities').includes(id)));
    return held === undefined ? undefined : `instance ${held} is in a pending transfer`;
  });
}

const VALID_PLANS: Record<string, ValidPlan> = {
  'requests/account-update': {
    rules: ['P1.account-update.any-of', 'P1.account.update.reflected'],
    readBack: Object.fromEntries(
      ['address_1', 'address_2', 'city', 'company', 'email', 'first_name', 'last_name', 'phone', 'state', 'tax_id', 'zip']
        .map((member) => [member, same('P1.account.update.reflected')])
        .concat([['country', sameIgnoringCase('P1.account.update.reflected')]]),
    ),
  },
  'requests/oauth-client-update': {
    rules: ['P1.oauth-client.write.reflected'],
    readBack: {
      label: same('P1.oauth-client.write.reflected'),
      public: same('P1.oauth-client.write.reflected'),
      redirect_uri: same('P1.oauth-client.write.reflected'),
    },
  },
  'requests/instance-update': {
    rules: ['P2.alerts.zero-accepted', 'P2.instance.update.persists'],
    readBack: {
      label: same('P2.instance.update.persists'),
      group: same('P2.instance.update.persists'),
      watchdog_enabled: same('P2.instance.update.persists'),
      tags: sameSet('P2.instance.update.persists'),
    },
  },
  'requests/config-update': {
    rules: ['P2.config.update.nothing-required'],
    serverJudgedAt: { 'P2.config.devices.fullvirt-sda-to-sdd': fullvirtProfilePath },
  },
  'requests/monitor-client-update': { rules: ['P3.monitor-client.update.reflected'], readBack: { label: same('P3.monitor-client.update.reflected') } },
  'requests/firewall-update': {
    rules: ['P3.firewall.update.reflected', 'P3.firewall.update.tags-replaced'],
    readBack: { label: same('P3.firewall.update.reflected'), tags: firewallTags },
    // A label and tags, then others: a server keeping the label or adding the tags to the stored ones is met from two
    // runs on, whatever the draws.
    first: (fx) => [1, 2].map(() => ({ label: fx.label('fw', 32), tags: [fx.label('t', 50)] })),
  },
  // The bodies rename the domain and change its type: they go to a domain of their own, not the one the file's
  // record checks write to (a server may refuse records on a slave zone, or a record name too long for the new name).
  'requests/domain-update': {
    path: async (c, fx) => `/v4/domains/${(await fx.shared('domain of the update bodies', () => fx.newDomain(c))).id}`,
    rules: [
      'P3.domain-update.none-required',
      DOMAIN_REFLECTED,
      ...Object.keys(DOMAIN_DEFAULTS).flatMap((member) => [`P3.domain.${member.replace('_', '-')}.round-up`, zeroRule(member)]),
    ],
    readBack: domainReadBack,
  },
  // A null MX is refused while another MX exists, which depends on the stored records: null MX has its scenario.
  'requests/record-create': {
    rules: ['P3.record.caa.name.empty-whole-domain', 'P3.record.target.trailing-period-accepted'],
    accept: (body) => !isNullMx(body),
  },
  // Whether an update may change a record's type is not shown (a server may refuse it, naming type, or judge the body
  // as the stored type): each body breaking a rule goes to a record of the type it names, made once per file.
  'requests/record-update': {
    rules: ['P3.record-update.none-required', RECORD_REFLECTED],
    accept: (body) => !isNullMx(body),
    // The bodies go to the file's record, in the file's domain (the recipe's).
    readBack: async (c, fx) => recordReadBack((await fx.domain(c)).domain),
    violationPathOf: (c, fx, body) => recordPathOfType(c, fx, body.type),
  },
  // Whether the create's answer shows them at once is not shown: the new cluster's view is read. Two bodies first, every
  // value of the four members between them (paired as the arbitrary pairs them, `topology`), so a server ignoring one
  // is met within the first runs whatever the draws and the run's budget.
  'requests/database-create': {
    rules: ['P1.database.create.reflected'],
    readBackCreated: Object.fromEntries(
      ['cluster_size', 'replication_type', 'encrypted', 'ssl_connection'].map((member) => [member, same('P1.database.create.reflected')]),
    ),
    first: (fx, context) =>
      [
        { cluster_size: 3, replication_type: 'asynch', encrypted: true, ssl_connection: true },
        { cluster_size: 1, replication_type: 'none', encrypted: false, ssl_connection: false },
      ].map((shape) => ({
        label: fx.label('db', 32),
        engine: context.databaseEngine,
        type: context.databaseNodeType,
        region: context.region,
        ...shape,
      })),
  },
  'requests/database-update': {
    rules: ['P1.database-update.all-optional', 'P1.database.update.reflected', 'P1.database.allow-list.slash-32'],
    readBack: { label: same('P1.database.update.reflected'), allow_list: allowList },
    // "changes take a short time": what the cluster shows meanwhile is not shown.
    readBackShortly: true,
    settle: async (c, _context, fx) => untilAllowListApplied(c, (await fx.activeDatabase(c)).id),
    placed: (c, _fx, path, body) => withOwnWindow(c, path, body),
  },
  // An existing target instance must have room for the clone: that is state, so only clones to a new instance.
  // The clones keep their source (the context's first instance) busy: on a target with the clock hook they are let
  // finish after each accepted one, so the boot and rescue bodies sent to that instance later are not refused for it.
  'requests/instance-clone': {
    maxRuns: 4,
    accept: (body) => !('compute_id' in body),
    settle: async (c) => void (c.target.control && (await c.advanceClock(11 * 60))),
  },
  // A snapshot "takes several minutes": what another request answers meanwhile, and how many snapshots a cluster
  // holds, are not shown. A few runs, each let finish on a target with the clock hook.
  'requests/database-snapshot-create': {
    maxRuns: 3,
    settle: async (c) => void (c.target.control && (await c.advanceClock(15 * 60))),
  },
  // A direction left out keeps its stored rules, which count towards the 25: only bodies giving both directions.
  'requests/firewall-rules-update': { accept: (body) => 'inbound' in body && 'outbound' in body },
  'requests/instance-resize': {
    maxRuns: 5,
    path: async (c, fx) => `/v4/compute/instances/${(await fx.newInstance(c)).id}/resize`,
    violationPath: async (_c, _fx, context) => `/v4/compute/instances/${context.computeIds[1]}/resize`,
  },
  // The body names the context instance's profile and disks, so it goes to that instance. Booting a running instance
  // is not covered: the instance (deployed from an image, so running) is shut down first and after each boot, and
  // before the bodies breaking a rule.
  'requests/instance-boot': {
    path: async (_c, _fx, context) => `/v4/compute/instances/${context.computeIds[0]}/boot`,
    settle: (c, context) => shutDown(c, context.computeIds[0]!),
    beforeViolations: (c, context) => putAtRest(c, [context.computeIds[0]!]),
  },
  // Rescuing a running instance is not covered by the documents (a server may ask for a shutdown first): each body goes
  // to the instance shut down, as the boot bodies do.
  'requests/instance-rescue': {
    path: async (_c, _fx, context) => `/v4/compute/instances/${context.computeIds[0]}/rescue`,
    settle: (c, context) => shutDown(c, context.computeIds[0]!),
    beforeViolations: (c, context) => putAtRest(c, [context.computeIds[0]!]),
  },
  // The file's private image is an upload pending its data: another spec file's day-long clock advance expires it
  // (seen in the variation matrix with the spec files in another order). The bodies go to it without reading it first
  // (the recipe does); a body refused because it is gone is not judged, and the next one goes to a new upload.
  'requests/image-update': {
    path: async (c, fx) => c.target.imagePath((await fx.privateImage(c)).id),
    excuse: async (c, _body, fx) => ((await fx.privateImageExpired(c)) ? 'the image upload expired (another file moved the clock a day)' : undefined),
  },
  'requests/ip-allocate': { skip: 'an extra address needs the instance enabled through a support request first (not in the body)' },
  'requests/firewall-create': { excuse: heldByEnabledFirewall },
  'requests/entity-transfer-create': { excuse: heldByPendingTransfer },
  'requests/firewall-device-create': { maxRuns: 5, violationPath: async (c, fx) => `/v4/networking/firewalls/${(await fx.firewall(c)).id}/devices` },
  // The bodies name the context's instances: their region must hold no range but this file's (deleted first, as each
  // run's is after it: a create after a deletion is sent again while refused, the recipe's `sentAgain`). A body breaking
  // a rule refused naming another member is judged only where the region takes a range now (`needRangeRoomNow`): one
  // deleted a short time ago may still hold it.
  'requests/ipv6-range-create': {
    maxRuns: 3,
    room: async (c, context) => {
      await regionForIpv6Range(c, [context.region]);
      await needRangeRoomNow(c, context.region, context.computeIds[0]!, context.slaac);
    },
    path: async (c, fx, context) => {
      await fx.releaseIpv6Ranges();
      await regionForIpv6Range(c, [context.region]);
      return '/v4/networking/ipv6/ranges';
    },
  },
  'requests/backup-restore': {
    skip: 'accepting a restore depends on the target instance having room (not in the body)',
    violationPath: async (c, fx) => {
      const backup = await instanceBackup(c, fx);
      return `/v4/compute/instances/${backup.computeId}/backups/${backup.backupId}/restore`;
    },
    // A server taking the backup's instance (the context's first) for a missing compute_id may refuse it running.
    beforeViolations: async (c, context, rule) => {
      if (rule === 'P2.backup-restore.compute-id.required') await putAtRest(c, [context.computeIds[0]!]);
    },
  },
  'requests/domain-import': { skip: 'an import is accepted only when the remote nameserver allows zone transfers (AXFR) from the service' },
  'requests/ips-assign': { skip: 'accepting an assignment depends on every instance end state (not in the body)', placed: withRegionPlaced },
  'requests/ipv4-assign': { skip: 'accepting an assignment depends on every instance end state (not in the body)', placed: withRegionPlaced },
  'requests/ip-update': { skip: 'an rDNS name is accepted only when forward DNS is already set up (not in the body)' },
};

/**
 * Reads the resource back after an accepted update and compares the members sent. A member absent from the view is
 * not judged (the view's fields may be conditional); another file writing the same resource is ruled out by a
 * second read of the same update.
 */
async function readBack(c: Check, path: string, body: Json, members: Record<string, ReadBack>, shortly = false): Promise<void> {
  const brokenIn = (view: Exchange) => brokenMember(view, body, members);
  for (let attempt = 1; ; attempt++) {
    // A view answering gone (404 or 410: `answersGone`) is no replica's lag (the resource was there before
    // the update) and shows no member to compare: it is read once (an image upload another file's day-long clock
    // advance expired meanwhile).
    const shows = (exchange: Exchange) => answersGone(exchange) || (succeeded(exchange) && !brokenIn(exchange));
    // A change taking a short time lets the clock run first: waiting out the window for it would spend the check's
    // allowance of unsettled waits (readAfterWrite) on what is no lie.
    const view = shortly ? await untilShortlyDone(c, () => c.get(path), shows) : await readAfterWrite(c, () => c.get(path), shows);
    const broken = brokenIn(view);
    if (!broken) return;
    const shown = (view.body ?? {}) as Json;
    if (attempt === 2)
      c.fail(broken[1]!, `${broken[0]} was sent as ${JSON.stringify(body[broken[0]])} but reads back as ${JSON.stringify(shown[broken[0]])}`, view);
    await c.put(path, body);
  }
}

/** The first member of `body` listed in `members` that `view` shows otherwise, with the rule it breaks (a member absent from the view is not judged). */
function brokenMember(view: Exchange, body: Json, members: Record<string, ReadBack>): readonly [string, string | null] | undefined {
  const shown = (view.body ?? {}) as Json;
  return Object.entries(members)
    .filter(([member]) => member in body && member in shown)
    .map(([member, compare]) => [member, compare(body[member], shown[member])] as const)
    .find(([, rule]) => rule);
}

/**
 * The view of what an accepted create made (`<path>/<id>`, the id its answer shows; none when it shows none), read
 * within the consistency window until it shows the members sent: a new resource may answer 404 for a moment.
 */
async function readCreated(c: Check, path: string, body: Json, exchange: Exchange, members: Record<string, ReadBack>): Promise<Exchange | undefined> {
  const id = (exchange.body as Json | undefined)?.id;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  return readAfterWrite(
    c,
    () => c.get(`${path}/${String(id)}`),
    (view) => succeeded(view) && !brokenMember(view, body, members),
  );
}

/** Marks a label used; false when it was used before in this file. */
const isNullMx = (body: Json) => body.type === 'MX' && body.target === '';

/** A body's label, in lower case (a server may compare labels so), if it sends one. */
function labelOf(body: unknown): string | undefined {
  const label = body && typeof body === 'object' ? (body as Json).label : undefined;
  return typeof label === 'string' ? label.toLowerCase() : undefined;
}

/** Where a body is sent: the plan's path, else the endpoint's path from its valid-request recipe. */
async function pathFor(c: Check, fx: Fixtures, endpoint: Endpoint, plan: ValidPlan | undefined, context: BodyContext): Promise<string> {
  if (plan?.path) return plan.path(c, fx, context);
  // A path without parameters is the endpoint's own: the valid request's recipe, which makes what its own body names
  // (a new instance to transfer, the disk to capture), is not needed.
  if (!endpoint.path.includes('{')) return endpoint.path;
  return (await validRequests[endpointKey(endpoint)]!.build(c, fx)).path;
}

/** Where a body breaking a rule is sent: the plan's violation path, the endpoint's own path when it has no parameter,
 *  else the valid bodies' path. */
async function violationPathFor(c: Check, fx: Fixtures, endpoint: Endpoint, plan: ValidPlan | undefined, context: BodyContext): Promise<string> {
  if (plan?.violationPath) return plan.violationPath(c, fx, context);
  return endpoint.path.includes('{') ? pathFor(c, fx, endpoint, plan, context) : endpoint.path;
}

/**
 * The ids a generated body may name: made on the target before generating (once per spec file). Document 1's bodies
 * name instances only as entities to transfer: one instance is enough there, the others take two.
 */
async function bodyContext(c: Check, fx: Fixtures, document: Endpoint['document']): Promise<BodyContext> {
  const config = c.target.info.config;
  const first = await fx.instance(c);
  // The second instance is the pair's an assignment swaps (the region placement probe's): one instance, not two.
  const second = document === 'part1' ? first : (await publicPair(c, fx))[1];
  // Its profiles may show only once it is provisioned (`deployedProfiles`).
  const profile = deepFind(await deployedProfiles(c, first.id), (item) => typeof item.id === 'number' && 'devices' in item);
  if (!profile) throw new SetupError('cannot find a configuration profile of the instance');
  const { backupId } = await instanceBackup(c, fx);
  const view = (await c.get(`/v4/compute/instances/${first.id}`)).body as Json;
  const ipv4s = [...new Set([first, second])].flatMap((instance) => ((instance.ipv4 as string[] | undefined) ?? []).slice(0, 1));
  return {
    region: config.region,
    vlanRegion: config.vlanRegion,
    instanceType: config.instanceType,
    largerInstanceType: config.largerInstanceType,
    publicImage: await fx.publicImage(c),
    databaseEngine: await fx.mysqlEngine(c),
    databaseNodeType: await fx.databaseNodeType(c),
    computeIds: [...new Set([first.id, second.id])],
    // The generated image captures take it: the disk a profile boots from, not the swap disk.
    diskId: await diskToCapture(c, first.id),
    configId: profile.id as number,
    backupId,
    domainId: (await fx.domain(c)).id,
    ipv4s,
    slaac: String(view.ipv6 ?? '').split('/')[0]!,
    // Generated names repeat across files that share the seed: a tag per file keeps platform-wide names apart.
    labelPrefix: `${fx.prefix}p${document.slice(-1)}`,
  };
}

/**
 * The members of a rejected body that the resource now shows with the body's own values (changed since `before`).
 * Comparing with the body rather than with `before` alone keeps another spec file's concurrent writes out of it.
 */
function appliedMembers(body: unknown, before: unknown, after: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const text = (value: unknown) => JSON.stringify(value);
  return Object.entries(body as Json)
    .filter(([key, value]) => text((after as Json | undefined)?.[key]) === text(value) && text((before as Json | undefined)?.[key]) !== text(value))
    .map(([key]) => key);
}

/**
 * For each type rule of a request schema that no hand-written violation breaks (type-violations.ts): a body that is
 * not an object (the body's own type rule), and valid bodies holding a member with a value of another JSON type (one
 * check per member, which it names).
 */
function typeViolations(schema: string, generators: BodyArbitraries): Violation[] {
  const document = loadContract().documents.get(schema);
  return typeViolationsOf(schema, generators).map(({ rule, field: member }): Violation => {
    if (member === null)
      return { rule, field: null, judgedBy: 'schema', arbitrary: () => fc.constantFrom([], ['text'], 'text', 42) as unknown as fc.Arbitrary<Json> };
    const wrong = wrongTypedValue((document!.properties as Record<string, Json>)[member]!);
    return {
      rule,
      field: member,
      judgedBy: 'schema',
      // Only bodies that already hold the member: where a valid body would not (a clone to an existing instance has
      // no backups_enabled), a server may ignore it, wrong type and all.
      // A table that is stale (valid bodies no longer hold the member) would make the filter search forever: a bounded
      // search ends the check with what to do.
      arbitrary: (context) => {
        let misses = 0;
        return generators
          .valid(context)
          .filter((body) => {
            if (member in body) return true;
            if (++misses > 2000) throw new Error(`no valid ${schema} body holds ${member}: specs/plan/type-violations.json is stale (run npm run plan:costs)`);
            return false;
          })
          .map((body) => ({ ...body, [member]: wrong }));
      },
    };
  });
}

export function propertyChecks(document: Endpoint['document'], bodies: Record<string, BodyArbitraries>): void {
  const fx = useFixtures(`properties-${document}`);
  // The labels the file's valid bodies sent: a body naming one again may be refused as taken (cluster labels are
  // unique; whether instance labels must be is not shown), its resource still holding it: a cluster still provisioning
  // (it cannot be deleted before the next run), the file's instance an update renamed, an instance whose deletion runs
  // a while (confirmed by a read that lagged its create). Such a refusal (naming the label, or no member) judges nothing.
  const sentLabels = new Set<string>();
  const refusedAsTaken = (label: string | undefined, exchange: Exchange) =>
    label !== undefined && sentLabels.has(label) && exchange.status >= 400 && exchange.status < 500 && namesField(exchange, 'label') !== false;
  const contextFor = (c: Check) => fx.shared('bodyContext', () => bodyContext(c, fx, document));

  const schemas = Object.entries(bodies).map(([schema, generators]) => ({
    schema,
    generators,
    endpoint: endpoints.find((candidate) => candidate.request === schema),
  }));
  for (const { schema, generators, endpoint } of busyLast(schemas, ({ endpoint }) => endpoint && validRequests[endpointKey(endpoint)]?.keepsBusy)) {
    if (!endpoint) continue; // shared pieces (interfaces, device map) are exercised through the bodies that hold them
    const key = endpointKey(endpoint);
    const plan = VALID_PLANS[schema];
    const recipe = validRequests[key]!;
    describe(`${key} body`, () => {
      const serves = endpointRuleId(endpoint, 'serves');
      // A body writing account-wide state other checks judge (the account, the monitoring plan) is sent, and its effect
      // read, holding the recipe's lock.
      const exclusively = (c: Check, run: () => Promise<void>) => (recipe.exclusive ? c.exclusively(recipe.exclusive, run) : run());
      // A request that keeps the file's instance busy (a clone) gets its valid bodies last, after the bodies it must
      // refuse: on a target whose clock cannot be let run they would still be busy for those.
      const validBodies = () => {
        // (a body that may close the account is sent once, last in the run: account-cancel.spec.ts)
        if (!recipe.closesAccount)
          check([serves, ...(plan?.rules ?? [])], 'valid bodies are accepted', async (c) => {
            if (plan?.skip) c.skip(plan.skip);
            if (recipe.destructive) c.needsDestructive();
            const ctx = await contextFor(c);
            // On a budget, a body that creates billable resources gets the runs the run's plan gives it.
            const runs = c.plannedRuns(Math.min(c.target.info.config.runs, plan?.maxRuns ?? Infinity));
            await plan?.settle?.(c, ctx, fx);
            await runProperty(
              c,
              generators.valid(ctx),
              (body) =>
                exclusively(c, async () => {
                  fc.pre(plan?.accept?.(body) ?? true);
                  const label = labelOf(body);
                  const path = await pathFor(c, fx, endpoint, plan, ctx);
                  // Placing a body may make shared fixtures (the pair a region placement swaps): made before the mark, they stay.
                  const json = plan?.placed ? await plan.placed(c, fx, path, body) : body;
                  const mark = fx.mark();
                  const send = () => c.send(endpoint.method, path, { json });
                  const attempt = () =>
                    recipe.mayBeBusy
                      ? onceNotBusy(c, send, { refusedFor: (refusal) => refusedAsTaken(label, refusal) })
                      : recipe.sentAgain
                        ? recipe.sentAgain(c, send)
                        : send();
                  let exchange = await attempt();
                  if (exchange.status >= 400 && exchange.status < 500 && (await recipe.afterRefusal?.(c, fx, { path, json }))) exchange = await attempt();
                  await recipe.adopt?.(c, fx, { path, json: body }, exchange);
                  const created = plan?.readBackCreated && succeeded(exchange) ? await readCreated(c, path, json, exchange, plan.readBackCreated) : undefined;
                  // What one run creates is deleted before the next: no piling up, no clash with the next body's labels.
                  await fx.cleanup(mark);
                  // A body naming new VLANs is refused where VLANs the run did not make fill the region: not the target's fault.
                  const vlans = vlansNamed(body);
                  if (exchange.status >= 400 && exchange.status < 500 && vlans) await needVlanRoom(c, ctx.vlanRegion, vlans);
                  fc.pre(!refusedAsTaken(label, exchange));
                  if (label !== undefined) sentLabels.add(label);
                  if (exchange.status >= 400 && exchange.status < 500) fc.pre((await plan?.excuse?.(c, body, fx)) === undefined);
                  c.expectSuccess(serves, exchange, `${key} with a valid body`);
                  if (plan?.readBack)
                    await readBack(c, path, body, typeof plan.readBack === 'function' ? await plan.readBack(c, fx) : plan.readBack, plan.readBackShortly);
                  const createdBroken = created && brokenMember(created, json, plan!.readBackCreated!);
                  if (createdBroken)
                    c.fail(
                      createdBroken[1]!,
                      `${createdBroken[0]} was sent to the create as ${JSON.stringify(json[createdBroken[0]])}, but the resource it made shows ${JSON.stringify((created!.body as Json)[createdBroken[0]])}`,
                      created,
                    );
                  await plan?.settle?.(c, ctx, fx);
                }),
              { runs, ...(plan?.first ? { examples: plan.first(fx, ctx) } : {}) },
            );
          });
      };
      if (!recipe.keepsBusy) validBodies();

      // Two ways of breaking the same rule in the same member are two checks: the second is named `way 2`, so that every
      // check has a name of its own (reports, the cost table and Allure's history tell checks apart by name).
      const ways = new Map<string, number>();
      const sent = (violation: Violation) => violation.judgedBy === 'schema' || violation.rule in (plan?.serverJudgedAt ?? {});
      for (const violation of [...generators.violations.filter(sent), ...typeViolations(schema, generators)]) {
        const writes = endpoint.method === 'PUT' && endpointByKey.has(`GET ${endpoint.path}`);
        const way = (ways.get(`${violation.rule} ${violation.field}`) ?? 0) + 1;
        ways.set(`${violation.rule} ${violation.field}`, way);
        const qualifiers = [...(violation.field ? [`field ${violation.field}`] : []), ...(way > 1 ? [`way ${way}`] : [])];
        check(
          writes ? [violation.rule, 'P1.errors.rejected-write-no-effect'] : violation.rule,
          `a body breaking only ${violation.rule} is rejected${qualifiers.length ? ` (${qualifiers.join(', ')})` : ''}`,
          async (c) => {
            const ctx = await contextFor(c);
            const stateAt = plan?.serverJudgedAt?.[violation.rule];
            const fixedPath = stateAt ? await stateAt(c, fx) : plan?.violationPathOf ? undefined : await violationPathFor(c, fx, endpoint, plan, ctx);
            const pathOf = (body: Json) => (fixedPath !== undefined ? Promise.resolve(fixedPath) : plan!.violationPathOf!(c, fx, body));
            const view = async (viewPath: string | null) => (viewPath ? (await c.get(viewPath)).body : undefined);
            // The resource as it was before any body: the spec file's own resource is written by no other check while
            // this one runs, so it is read once per path (before any body goes to it); account-wide state (a recipe's
            // lock) is read before each body.
            const baselines = new Map<string, Promise<unknown>>();
            const baselineOf = (viewPath: string) => {
              if (!baselines.has(viewPath)) baselines.set(viewPath, view(viewPath));
              return baselines.get(viewPath)!;
            };
            if (fixedPath !== undefined && writes && !recipe.exclusive) await baselineOf(fixedPath);
            await plan?.beforeViolations?.(c, ctx, violation.rule);
            await runProperty(
              c,
              violation.arbitrary(ctx),
              (body) =>
                exclusively(c, async () => {
                  const path = await pathOf(body);
                  const viewPath = writes ? path : null;
                  const attempt = async (before: unknown) => {
                    const json = plan?.placed ? await plan.placed(c, fx, path, body) : body;
                    const mark = fx.mark();
                    const exchange: Exchange = await c.send(endpoint.method, path, { json });
                    // What a wrongly accepted body made is deleted at once: nothing is left on the target, and a shrinking
                    // step that sends the body again is judged on its own (not refused as a duplicate of the first).
                    await recipe.adopt?.(c, fx, { path, json: body }, exchange);
                    await fx.cleanup(mark);
                    const after = viewPath ? await c.get(viewPath) : undefined;
                    return { before, exchange, after, applied: appliedMembers(body, before, after?.body) };
                  };
                  const first = await attempt(recipe.exclusive || !viewPath ? await view(viewPath) : await baselineOf(viewPath));
                  // Refused for what its valid part would make (a new VLAN, an IPv6 range) where the account's state the run
                  // did not make leaves no room: the body broke more than its one rule there (seen on an account earlier runs
                  // had left VLANs on).
                  if (violation.field && namesField(first.exchange, violation.field) === false) {
                    const vlans = vlansNamed(body);
                    if (vlans) await needVlanRoom(c, ctx.vlanRegion, vlans);
                    await plan?.room?.(c, ctx);
                  }
                  if (violation.field !== 'label') fc.pre(!refusedAsTaken(labelOf(body), first.exchange));
                  const orFields = typeof violation.orFields === 'function' ? violation.orFields(ctx) : violation.orFields;
                  const named = orFields?.length ? [violation.field!, ...orFields] : violation.field;
                  c.expectRejected(violation.rule, first.exchange, `${key} with a body breaking ${violation.rule}`, named);
                  if (!viewPath) return;
                  // The resource may be shared by the run (the account): another check may have written the same value of
                  // a member with few values meanwhile. A member counts as applied only if it shows the sent value again
                  // after being put back and the body sent once more.
                  let { applied, after } = first;
                  if (
                    applied.length &&
                    succeeded(await c.send('PUT', viewPath, { json: Object.fromEntries(applied.map((member) => [member, (first.before as Json)[member]])) }))
                  ) {
                    const again = await attempt(await view(viewPath));
                    applied = applied.filter((member) => again.applied.includes(member));
                    after = again.after;
                  }
                  c.expect(
                    'P1.errors.rejected-write-no-effect',
                    applied.length === 0,
                    `a rejected ${key} was applied: ${applied.join(', ')} now show the values it sent`,
                    after,
                  );
                }),
              // Bodies that must be refused are sent at once, unless a wrong acceptance would spend the run's budget.
              {
                runs: c.target.info.config.violationRuns,
                concurrency: mayCreateBillable(endpoint.method, fixedPath ?? endpoint.path) ? 1 : VIOLATION_CONCURRENCY,
              },
            );
          },
        );
      }
      if (recipe.keepsBusy) validBodies();
    });
  }
}
