// How the property checks (property-checks.ts) send each request schema's valid bodies, and where its bodies breaking
// a rule go: state a body cannot know (a limit, a busy instance, a region's room), what is read back, what is excused.
import { needRangeRoomNow, regionForIpv6Range } from '../../harness/account-limits.js';
import type { Check } from '../../harness/check.js';
import { readAfterWrite } from '../../harness/consistency.js';
import { deletedMayStillHold } from '../../harness/deletions.js';
import { listItems } from '../../harness/lists.js';
import { answersGone } from '../../harness/resources.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { BodyContext } from '../../arbitraries/types.js';
import { instanceBackup, shutDown } from '../part2/compute-support.js';
import { putAtRest } from '../part2/instance-power.js';
import { fullvirtProfilePath } from '../part2/profiles-support.js';
import { balanceOwed } from '../part2/resize-support.js';
import type { Exchange } from '../../harness/http.js';
import { untilAllowListApplied, withOwnWindow } from '../part1/databases-support.js';
import { FirewallDevices } from '../../harness/devices.js';
import { recordIdentity, recordPathOfType } from '../part3/records-support.js';
import { withRegionPlaced } from '../part3/ip-addresses-support.js';
import { allowList, DOMAIN_DEFAULTS, DOMAIN_REFLECTED, domainReadBack, firewallTags, RECORD_REFLECTED, recordReadBack } from './read-backs.js';
import { same, sameIgnoringCase, sameSet, zeroRule, type ReadBack } from './read-backs.js';

type Json = Record<string, unknown>;

/** A null MX (target ""): refused while another MX exists, which depends on the stored records. */
const isNullMx = (body: Json) => body.type === 'MX' && body.target === '';

/** How valid bodies of one schema can be sent repeatedly. Bodies not listed: any number of times, to the recipe's path. */
export interface ValidPlan {
  /** Valid bodies are not sent: their acceptance depends on state a generated body cannot know. */
  skip?: string;
  /** At most this many runs (stateful limits such as five concurrent clones). */
  maxRuns?: number;
  /** Waits in real time each of its checks may make without the clock hook (`CheckOptions.realTimeWaits`; default 1). */
  realTimeWaits?: number;
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
   * Why a refused valid body (`refusal`: the answer) was refused for state the check did not make (another check's
   * resources, the account's balance), or undefined: the run is then discarded (`fc.pre`) instead of judged.
   */
  excuse?: (c: Check, body: Json, fx: Fixtures, refusal: Exchange) => Promise<string | undefined>;
  /**
   * What makes two bodies' resources the same to a server that may refuse a second (a record of the same type, name and
   * target): a body refused whose identity one of the file's valid bodies made judges nothing. That resource was
   * deleted after its run, but its deletion may still run, and a read lagging its create can show it gone at once.
   */
  identity?: (body: Json) => string;
  /** A member whose place in the body is not shown, moved to where the target takes it before a body is sent. */
  placed?: (c: Check, fx: Fixtures, path: string, body: Json) => Promise<Json>;
  /**
   * Skips where the account's state, which the run did not make, leaves no room under a documented limit for what a
   * body would make: asked when a body breaking a rule is refused naming another member (a server may judge the limit
   * first), and still so once sent again while a short time passed (one deleted moments ago may hold the room a while).
   * Bodies naming new VLANs are asked about the VLAN region's room whatever the plan.
   */
  room?: (c: Check, context: BodyContext) => Promise<void>;
  /**
   * Whether what a body would make may already be another's on the account (a tag is its label, and a label too short
   * for the run's prefix may be a colleague's tag): such a body, valid or breaking a rule, is not sent (`fc.pre`).
   * Sent, it could be refused as taken (no fault of the target's) or taken in, and its clean-up would then delete
   * what the run did not make.
   */
  mayBeAnothers?: (c: Check, context: BodyContext, body: Json) => Promise<boolean>;
}

/**
 * Whether the tag `label` may be another's: a label without the run's prefix whose view does not answer as for no tag
 * (whether an unknown label answers 404 or an empty list is not shown, and an empty list may be a colleague's tag that
 * tags nothing). Where unknown labels answer with an empty list, the labels too short for the prefix are not judged.
 */
async function tagMayBeAnothers(c: Check, context: BodyContext, label: unknown): Promise<boolean> {
  if (typeof label !== 'string' || label.startsWith(context.labelPrefix)) return false;
  return !answersGone(await c.get(`/v4/tags/${encodeURIComponent(label)}`), c.target.info.absentStatus);
}

/** The instances a body names in `<member>.computes` (firewall devices, transfer entities). */
const computesIn = (body: Json, member: string): number[] => ((body[member] as Json | undefined)?.computes as number[] | undefined) ?? [];

/** `held` read again within the consistency window until it finds what holds an instance (lists may lag writes). */
const heldWithin = (c: Check, held: () => Promise<string | undefined>) => readAfterWrite(c, held, (reason) => reason !== undefined);

/**
 * An instance named in `devices.computes` that is already a device of an enabled firewall (another check's): a new
 * enabled firewall naming it is refused by P3.firewall.device.one-active-per-instance, whatever the body. Without the
 * clock hook, one the thread deleted moments before may still hold it (`deletedMayStillHold`).
 */
function heldByEnabledFirewall(c: Check, body: Json): Promise<string | undefined> {
  const named = computesIn(body, 'devices');
  if (!named.length) return Promise.resolve(undefined);
  if (deletedMayStillHold()) return Promise.resolve('a firewall deleted moments ago may still hold its instances (when their rules go is not shown)');
  return heldWithin(c, async () => {
    for (const firewall of await listItems(c, '/v4/networking/firewalls')) {
      if (firewall.status !== 'enabled') continue;
      const devices = new FirewallDevices(c, String(firewall.id), await listItems(c, `/v4/networking/firewalls/${String(firewall.id)}/devices`));
      const held = named.find((id) => devices.mayHold(id));
      if (held !== undefined)
        return `instance ${held} is, or may be (which instance a device is may not be told), a device of the enabled firewall ${String(firewall.id)}`;
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

export const VALID_PLANS: Record<string, ValidPlan> = {
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
    identity: recordIdentity,
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
    // Refused for a balance the account shows (`balanceOwed`), every body would be: the check skips, naming it.
    excuse: async (c, _body, _fx, refusal) => {
      const why = await balanceOwed(c, refusal);
      return why ? c.skip(`a valid resize body was refused (HTTP ${refusal.status}) naming no field: ${why}`) : undefined;
    },
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
  // A tag is its label: the shortest labels, too short for the run's prefix, are sent only when no tag holds them.
  'requests/tag-create': { mayBeAnothers: (c, context, body) => tagMayBeAnothers(c, context, body.label) },
  'requests/firewall-device-create': { maxRuns: 5, violationPath: async (c, fx) => `/v4/networking/firewalls/${(await fx.firewall(c)).id}/devices` },
  // The bodies name the context's instances: their region must hold no range but this file's (deleted first, as each
  // run's is after it: a create after a deletion is sent again while refused, the recipe's `sentAgain`). A range listed
  // there may be one another file deleted a short time ago, waited for while it goes (`waitForRoom`: no-hook seed 131
  // skipped here). A body breaking a rule refused naming another member is judged only where the region takes a range
  // now (`needRangeRoomNow`): one deleted a short time ago may still hold it.
  'requests/ipv6-range-create': {
    maxRuns: 3,
    realTimeWaits: 2,
    room: async (c, context) => {
      await regionForIpv6Range(c, [context.region]);
      await needRangeRoomNow(c, context.region, context.computeIds[0]!, context.slaac);
    },
    path: async (c, fx, context) => {
      await fx.releaseIpv6Ranges();
      await regionForIpv6Range(c, [context.region], undefined, { waitForRoom: true });
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
