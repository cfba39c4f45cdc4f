// One valid request per endpoint of the catalogue: what the generic checks send to see an endpoint accept a
// caller (exact scopes, no-auth) or reject one (no token, a lacking scope, a restricted user). A rejection only
// means something for a request that would otherwise succeed, so every recipe builds a request the documents
// say is valid, on fixtures of its own where the request consumes or changes them.
import { createRangeFound, rangeCreateOnceFree } from '../../harness/account-limits.js';
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import { CLOCK_LOCK, type Check } from '../../harness/check.js';
import { notShownInTime, skipUnlessShownInTime, untilShortlyDone } from '../../harness/consistency.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange, SendOptions } from '../../harness/http.js';
import { untilAllowListApplied } from '../part1/databases-support.js';
import { assignmentBody, assignmentShown, freeForPrivate, noteGivenPrivate, publicOf, publicSwap, unchangedAssignment } from '../part3/ip-addresses-support.js';
import { tcpRule } from '../part3/firewalls-support.js';
import { addRecord } from '../part3/records-support.js';
import { CLONE_BUSY_MINUTES, createdMonth, diskToCapture, instanceBackup, shutDown } from '../part2/compute-support.js';
import { enrolInBackups, instanceOfPath, schedulable, unenrolFromBackups, unenrolledMomentsAgo } from '../part2/snapshots-support.js';
import { newConfig } from '../part2/profiles-support.js';
import { balanceOwed } from '../part2/resize-support.js';
import { deepFind, succeeded } from '../../harness/lists.js';
import { adoptBy, adoptCapture, adoptChild, adoptDevice, adoptDomain, adoptInstance, adoptRange, adoptTag } from './adopt.js';
import { newestInWindow } from './windowed-views.js';
import { noteAccepted, pendingIncomingTransfer } from './transfer-pick.js';
import { addedDevice, deviceToAdd } from './device-pick.js';
import { ACCOUNT_LOCK, CARD_LOCK, EVENTS_SEEN_LOCK, IPV6_RANGES_LOCK, MONITOR_PLAN_LOCK } from './locks.js';

/** Turns of the database update recipe: each sends an allow list of its own. */
let allowListTurn = 0;
export interface ValidRequest {
  path: string;
  json?: unknown;
  query?: SendOptions['query'];
}

export interface Recipe {
  build: (c: Check, fx: Fixtures) => Promise<ValidRequest>;
  /** For creates: tracks what an accepted request made, so nothing is left behind on the target. */
  adopt?: (c: Check, fx: Fixtures, request: ValidRequest, exchange: Exchange) => Promise<void>;
  /** Irreversible or billable (account cancel, credit card, transfer accept): run only where allowed. */
  destructive?: boolean;
  /** A success may close the account: sent expecting success once, last in a run (specs/part1/account-cancel.spec.ts). */
  closesAccount?: true;
  /** The run-wide lock held while the request is sent: it writes account-wide state other checks judge. */
  exclusive?: string;
  /**
   * Why a target may refuse even this request for what the request cannot control (a remote nameserver's
   * permission): a refusal is then not judged as a fail of the checks expecting success. A function reads the refusal
   * and the target, and says why, or undefined when that cannot be why (an account's balance: `balanceOwed`).
   */
  refusable?: string | ((c: Check, refusal: Exchange) => Promise<string | undefined>);
  /**
   * The request acts on something that may still be busy where a target makes it so (not shown either way): an
   * instance the recipe may have just created (its own or the file's) with its create, a database snapshot still being
   * taken, a credentials reset still running, the file's cluster `updating`. Where it must succeed it is sent again
   * while refused (`onceNotBusy`; `untimed`: for what the documents do not time, ten minutes in all per request).
   */
  mayBeBusy?: true | 'untimed';
  /**
   * A precondition a target may require that the documents do not show (an instance enrolled in the backup service
   * before a snapshot): after a refusal of the valid request, puts it in place and says whether to send it once more.
   * It may rewrite the request's body instead, for one every reading takes (an assignment that moves something).
   */
  afterRefusal?: (c: Check, fx: Fixtures, request: ValidRequest) => Promise<boolean>;
  /**
   * A refusal the request cannot see the cause of, which passes (a range create while the region of a range deleted
   * before is still taken: `rangeCreateOnceFree`): where it must succeed, `send` goes through this instead of once.
   */
  sentAgain?: (c: Check, send: () => Promise<Exchange>) => Promise<Exchange>;
  /**
   * It may keep the file's instance busy long after it answers (a clone from it: minutes on a real cloud): its checks
   * come after every other endpoint's in the file (`busyLast`), so none meets the instance busy without the clock hook.
   */
  keepsBusy?: true;
  /** Waits in real time each of the endpoint's checks may make without the clock hook (`CheckOptions.realTimeWaits`; default 1). */
  realTimeWaits?: number;
}

type Json = Record<string, unknown>;

/** The range recipes' lock, and their waits: for the region (`Fixtures.ipv6Region`), for a refused create to pass, a deletion. */
const RANGES = { exclusive: IPV6_RANGES_LOCK, realTimeWaits: 3 };

const now = new Date();
const YEAR = now.getUTCFullYear();
const MONTH = now.getUTCMonth() + 1;

const at = (path: string, extra: Omit<ValidRequest, 'path'> = {}): ValidRequest => ({ path, ...extra });

/**
 * An `afterRefusal` that shuts down the instance the request acts on, then sends the request once more. The spec
 * file's instance may still be busy with the generic check's clone from it: the shutdown waits as long as a clone may run.
 */
const shutDownFirst =
  (instanceOf: (c: Check, fx: Fixtures, request: ValidRequest) => Promise<number>): Recipe['afterRefusal'] =>
  async (c, fx, request) => {
    await shutDown(c, await instanceOf(c, fx, request), CLONE_BUSY_MINUTES);
    return true;
  };

/**
 * The file's instance's statistics or transfer (`byMonth`: of the month it was created in, `createdMonth`: a service may
 * refuse months before an instance existed), sent again while refused: a refusal then is not judged where no more time
 * can pass (`notShownInTime`: an instance with no history yet may answer so).
 */
const usage = (kind: 'stats' | 'transfer', { byMonth = false } = {}): Recipe => ({
  mayBeBusy: 'untimed',
  refusable: async (c) => notShownInTime(c) && `the instance may have no history yet (${notShownInTime(c)})`,
  build: async (c, fx) => {
    const { id } = await fx.instance(c);
    const { year, month } = (byMonth && (await createdMonth(c, id))) || { year: YEAR, month: MONTH };
    return at(`/v4/compute/instances/${id}/${kind}${byMonth ? `/${year}/${month}` : ''}`);
  },
});
const enc = encodeURIComponent;

/**
 * An IP assignment: the file's instance's address to that instance, which moves nothing; where a target refuses that
 * (what it answers is not shown), a swap of the file's pair instead (one instance more, only on such a target).
 */
const assignRecipe = (path: string): Recipe => ({
  build: async (c, fx) => at(path, { json: await assignmentBody(c, fx, path, c.target.info.config.region, await unchangedAssignment(c, fx)) }),
  afterRefusal: async (c, fx, request) => {
    request.json = await assignmentBody(c, fx, path, c.target.info.config.region, await publicSwap(c, fx));
    return true;
  },
  adopt: (c, _fx, request, exchange) => assignmentShown(c, exchange, request.json),
});

/** Enrols the instance of a request's path in the backup service where it is not shown enrolled (`enrolInBackups`). */
const enrolThePathsInstance = (c: Check, _fx: Fixtures, request: ValidRequest) => enrolInBackups(c, instanceOfPath(request.path));

/** Why an address allocation may be refused whatever the body: the suite cannot open support requests. */
export const EXTRA_ADDRESS_REQUEST =
  'the instance must be enabled for extra addresses through a support request first (whether a private address counts as extra is not shown)';

const DB = '/v4/databases/mysql/instances';
/** A request needing the file's shared cluster `active`: an update or a reset of another check may leave it `updating` (allowed). */
const onActiveCluster = (suffix: string): Recipe => ({ mayBeBusy: true, build: async (c, fx) => at(`${DB}/${(await fx.activeDatabase(c)).id}${suffix}`) });

export { ACCOUNT_LOCK, CARD_LOCK, EVENTS_SEEN_LOCK, IPV6_RANGES_LOCK, MONITOR_PLAN_LOCK };

export const validRequests: Record<string, Recipe> = {
  // — Managed databases —
  'GET /v4/databases/engines': { build: async () => at('/v4/databases/engines') },
  'GET /v4/databases/engines/{engineId}': { build: async (c, fx) => at(c.target.enginePath(String(await fx.firstId(c, '/v4/databases/engines')))) },
  'GET /v4/databases/instances': { build: async () => at('/v4/databases/instances') },
  'GET /v4/databases/mysql/instances': { build: async () => at(DB) },
  'POST /v4/databases/mysql/instances': {
    adopt: adoptBy('database', DB, 'label', 'id', { answersIt: true }),
    build: async (c, fx) =>
      at(DB, { json: { label: fx.label('db', 32), region: c.target.info.config.region, engine: await fx.mysqlEngine(c), type: await fx.databaseNodeType(c) } }),
  },
  'GET /v4/databases/mysql/instances/{instanceId}': { build: async (c, fx) => at(`${DB}/${(await fx.activeDatabase(c)).id}`) },
  'PUT /v4/databases/mysql/instances/{instanceId}': {
    // A list other than the last one sent: a read showing it comes from after the update (see untilAllowListApplied).
    build: async (c, fx) => at(`${DB}/${(await fx.activeDatabase(c)).id}`, { json: { allow_list: [`10.20.30.${(allowListTurn++ % 250) + 1}`] } }),
    // the file's cluster may still be applying an earlier allow list ("changes take a short time")
    mayBeBusy: true,
    // not a create: the file's cluster is let finish applying the allow list before the next check uses it
    adopt: async (c, fx, request, exchange) =>
      untilAllowListApplied(c, (await fx.activeDatabase(c)).id, succeeded(exchange) ? (request.json as { allow_list?: unknown }).allow_list : undefined),
  },
  'DELETE /v4/databases/mysql/instances/{instanceId}': {
    build: async (c, fx) => at(`${DB}/${(await fx.newActiveDatabase(c)).id}`),
  },
  'GET /v4/databases/mysql/instances/{instanceId}/backups': { build: async (c, fx) => at(`${DB}/${(await fx.activeDatabase(c)).id}/backups`) },
  'POST /v4/databases/mysql/instances/{instanceId}/backups': {
    // a server may take one snapshot at a time ("takes several minutes"), and the file's cluster is shared
    mayBeBusy: true,
    build: async (c, fx) => at(`${DB}/${(await fx.activeDatabase(c)).id}/backups`, { json: { label: fx.label('snap', 64) } }),
  },
  'GET /v4/databases/mysql/instances/{instanceId}/backups/{backupId}': {
    build: async (c, fx) => {
      const b = await fx.databaseBackup(c);
      return at(`${DB}/${b.instanceId}/backups/${b.id}`);
    },
  },
  'POST /v4/databases/mysql/instances/{instanceId}/backups/{backupId}/restore': {
    mayBeBusy: true,
    build: async (c, fx) => {
      const b = await fx.databaseBackup(c, { fresh: true });
      return at(`${DB}/${b.instanceId}/backups/${b.id}/restore`);
    },
  },
  'GET /v4/databases/mysql/instances/{instanceId}/credentials': onActiveCluster('/credentials'),
  // A reset followed by a restore leaves a cluster failed: the valid restore goes to a cluster of its own. A reset
  // "takes several seconds", and every check expecting success resets the file's cluster: the last may still run.
  'POST /v4/databases/mysql/instances/{instanceId}/credentials/reset': onActiveCluster('/credentials/reset'),
  'POST /v4/databases/mysql/instances/{instanceId}/patch': { build: async (c, fx) => at(`${DB}/${(await fx.newActiveDatabase(c)).id}/patch`) },
  'GET /v4/databases/mysql/instances/{instanceId}/ssl': onActiveCluster('/ssl'),
  'GET /v4/databases/types': { build: async () => at('/v4/databases/types') },
  'GET /v4/databases/types/{typeId}': { build: async (c, fx) => at(`/v4/databases/types/${enc(await fx.firstId(c, '/v4/databases/types'))}`) },

  // — Account —
  'GET /v4/account': { build: async () => at('/v4/account') },
  'PUT /v4/account': { exclusive: ACCOUNT_LOCK, build: async () => at('/v4/account', { json: { company: 'Conformance Test Co' } }) },
  'POST /v4/account/cancel': {
    build: async () => at('/v4/account/cancel', { json: { comments: 'conformance run' } }),
    destructive: true,
    closesAccount: true,
  },
  'POST /v4/account/credit-card': {
    exclusive: CARD_LOCK,
    build: async () => at('/v4/account/credit-card', { json: { card_number: '4111111111111111', cvv: '123', expiry_month: 12, expiry_year: YEAR + 3 } }),
    destructive: true,
  },
  'GET /v4/account/entity-transfers': { build: async () => at('/v4/account/entity-transfers') },
  'POST /v4/account/entity-transfers': {
    adopt: adoptBy('entity-transfer', '/v4/account/entity-transfers', 'entities', 'token', { answersIt: true }),
    build: async (c, fx) => at('/v4/account/entity-transfers', { json: { entities: { computes: [(await fx.newInstance(c)).id] } } }),
  },
  'GET /v4/account/entity-transfers/{token}': { build: async (c, fx) => at(`/v4/account/entity-transfers/${(await fx.entityTransfer(c)).token}`) },
  // A transfer is pending only until a day has passed (another spec file may advance the clock that far): made or
  // found, then sent, with the clock held, since a target may refuse to cancel or accept a stale one.
  'DELETE /v4/account/entity-transfers/{token}': {
    exclusive: CLOCK_LOCK,
    build: async (c, fx) => at(`/v4/account/entity-transfers/${(await fx.newEntityTransfer(c)).token}`),
  },
  'POST /v4/account/entity-transfers/{token}/accept': {
    exclusive: CLOCK_LOCK,
    build: async (c, fx) => at(`/v4/account/entity-transfers/${await pendingIncomingTransfer(c, fx)}/accept`),
    adopt: async (c, _fx, request, exchange) => {
      if (exchange.status >= 200 && exchange.status < 300) noteAccepted(c, decodeURIComponent(request.path.split('/')[4]!));
    },
    destructive: true,
  },
  'GET /v4/account/events': { build: async () => at('/v4/account/events') },
  'GET /v4/account/events/{eventId}': newestInWindow('/v4/account/events', 'created'),
  'POST /v4/account/events/{eventId}/read': { build: async (c, fx) => at(`/v4/account/events/${(await fx.ownEvent(c)).id}/read`) },
  'POST /v4/account/events/{eventId}/seen': { exclusive: EVENTS_SEEN_LOCK, build: async (c, fx) => at(`/v4/account/events/${(await fx.ownEvent(c)).id}/seen`) },
  'GET /v4/account/invoices': { build: async () => at('/v4/account/invoices') },
  'GET /v4/account/invoices/{invoiceId}': { build: async (c, fx) => at(`/v4/account/invoices/${await fx.firstId(c, '/v4/account/invoices')}`) },
  'GET /v4/account/invoices/{invoiceId}/items': { build: async (c, fx) => at(`/v4/account/invoices/${await fx.firstId(c, '/v4/account/invoices')}/items`) },
  'GET /v4/account/logins': { build: async () => at('/v4/account/logins') },
  'GET /v4/account/logins/{loginId}': newestInWindow('/v4/account/logins', 'datetime'),
  'GET /v4beta/account/maintenance': { build: async () => at('/v4beta/account/maintenance') },
  'GET /v4/account/notifications': { build: async () => at('/v4/account/notifications') },
  'GET /v4/account/oauth-clients': { build: async () => at('/v4/account/oauth-clients') },
  'POST /v4/account/oauth-clients': {
    adopt: adoptBy('oauth-client', '/v4/account/oauth-clients', 'label', 'id', { answersIt: true }),
    build: async (_c, fx) => at('/v4/account/oauth-clients', { json: { label: fx.label('app', 512), redirect_uri: 'https://example.com/oauth/callback' } }),
  },
  'GET /v4/account/oauth-clients/{clientId}': { build: async (c, fx) => at(`/v4/account/oauth-clients/${enc((await fx.oauthClient(c)).id)}`) },
  'PUT /v4/account/oauth-clients/{clientId}': {
    build: async (c, fx) => at(`/v4/account/oauth-clients/${enc((await fx.oauthClient(c)).id)}`, { json: { label: fx.label('app2', 512) } }),
  },
  'DELETE /v4/account/oauth-clients/{clientId}': {
    build: async (c, fx) => {
      const label = fx.label('app', 512);
      const id = ((await c.post('/v4/account/oauth-clients', { label, redirect_uri: 'https://example.com/oauth/callback' })).body as Json | undefined)?.id;
      if (typeof id !== 'string') throw new SetupError('the OAuth client create response carries no id');
      fx.track('oauth-client', id, label);
      return at(`/v4/account/oauth-clients/${enc(id)}`);
    },
  },

  // — Compute instances —
  'GET /v4/compute/instances': { build: async () => at('/v4/compute/instances') },
  'POST /v4/compute/instances': {
    adopt: adoptInstance,
    build: async (c, fx) =>
      at('/v4/compute/instances', {
        json: { region: c.target.info.config.region, type: c.target.info.config.instanceType, label: fx.label('vm', 64), booted: false },
      }),
  },
  'GET /v4/compute/instances/{computeId}': { build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}`) },
  // Generated update bodies carry a backup schedule: the instance is made to take one first.
  'PUT /v4/compute/instances/{computeId}': {
    build: async (c, fx) => {
      const { id } = await fx.instance(c);
      await schedulable(c, fx, id);
      return at(`/v4/compute/instances/${id}`, { json: { watchdog_enabled: true } });
    },
  },
  // a server may refuse to delete an instance while its own create runs (whether it may is not shown)
  'DELETE /v4/compute/instances/{computeId}': { mayBeBusy: true, build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c)).id}`) },
  'GET /v4/compute/instances/{computeId}/backups': { build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}/backups`) },
  'POST /v4/compute/instances/{computeId}/backups': {
    mayBeBusy: true,
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}/backups`, { json: { label: fx.label('bk', 255) } }),
    afterRefusal: enrolThePathsInstance,
  },
  // Cancelling the service of an instance never enrolled, or enabling it twice, is not covered: an instance of its own,
  // enrolled first where a cancel is refused.
  'POST /v4/compute/instances/{computeId}/backups/cancel': {
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c)).id}/backups/cancel`),
    afterRefusal: enrolThePathsInstance,
  },
  // A new instance may be enrolled from its create (the account-wide setting): one refused that shows itself enrolled
  // has its service cancelled and the enable sent again; refused again, it may wait for the cancel (not shown how long).
  'POST /v4/compute/instances/{computeId}/backups/enable': {
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c)).id}/backups/enable`),
    afterRefusal: (c, _fx, request) => unenrolFromBackups(c, instanceOfPath(request.path)),
    refusable: async (c, refusal) => unenrolledMomentsAgo(c, instanceOfPath(refusal.path)),
  },
  'GET /v4/compute/instances/{computeId}/backups/{backupId}': {
    build: async (c, fx) => {
      const b = await instanceBackup(c, fx);
      return at(`/v4/compute/instances/${b.computeId}/backups/${b.backupId}`);
    },
  },
  'POST /v4/compute/instances/{computeId}/backups/{backupId}/restore': {
    mayBeBusy: true,
    build: async (c, fx) => {
      const b = await instanceBackup(c, fx);
      const targetInstance = await fx.newInstance(c);
      return at(`/v4/compute/instances/${b.computeId}/backups/${b.backupId}/restore`, { json: { compute_id: targetInstance.id, overwrite: true } });
    },
    // Whether a restore's target may be running is not shown: after a refusal it is shut down and the restore sent again.
    afterRefusal: shutDownFirst(async (_c, _fx, request) => Number((request.json as Json).compute_id)),
  },
  // An instance kept offline: booting a running one is not covered by the documents.
  'POST /v4/compute/instances/{computeId}/boot': {
    mayBeBusy: true,
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c, { booted: false })).id}/boot`, { json: {} }),
  },
  // A clone onto an existing instance (compute_id) creates nothing: only a clone to a new instance is adopted.
  'POST /v4/compute/instances/{computeId}/clone': {
    mayBeBusy: true,
    keepsBusy: true,
    adopt: async (c, fx, request, exchange) => {
      if ((request.json as Json | undefined)?.compute_id === undefined) await adoptInstance(c, fx, request, exchange);
    },
    build: async (c, fx) =>
      at(`/v4/compute/instances/${(await fx.instance(c)).id}/clone`, {
        json: { region: c.target.info.config.region, type: c.target.info.config.instanceType, label: fx.label('cl', 64) },
      }),
  },
  'GET /v4/compute/instances/{computeId}/configs': { build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}/configs`) },
  'POST /v4/compute/instances/{computeId}/configs': {
    mayBeBusy: true,
    adopt: adoptChild('config', 'label'),
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}/configs`, { json: { label: fx.label('cfg', 48), devices: {} } }),
  },
  'GET /v4/compute/instances/{computeId}/configs/{configId}': {
    build: async (c, fx) => {
      const p = await fx.config(c);
      return at(`/v4/compute/instances/${p.computeId}/configs/${p.id}`);
    },
  },
  'PUT /v4/compute/instances/{computeId}/configs/{configId}': {
    mayBeBusy: true,
    build: async (c, fx) => {
      const p = await fx.config(c);
      return at(`/v4/compute/instances/${p.computeId}/configs/${p.id}`, { json: { comments: 'conformance' } });
    },
  },
  'DELETE /v4/compute/instances/{computeId}/configs/{configId}': {
    mayBeBusy: true,
    build: async (c, fx) => {
      const { id } = await fx.instance(c);
      return at(`/v4/compute/instances/${id}/configs/${(await newConfig(c, id, {}, fx.label('cfg', 48))).id}`);
    },
  },
  // An instance that never booted: whether a running one can be rescued is not covered by the documents.
  'POST /v4/compute/instances/{computeId}/rescue': {
    mayBeBusy: true,
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c, { booted: false })).id}/rescue`, { json: { devices: {} } }),
  },
  'POST /v4/compute/instances/{computeId}/resize': {
    mayBeBusy: true,
    refusable: balanceOwed,
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c)).id}/resize`, { json: { type: c.target.info.config.largerInstanceType } }),
  },
  'POST /v4/compute/instances/{computeId}/shutdown': {
    mayBeBusy: true,
    build: async (c, fx) => at(`/v4/compute/instances/${(await fx.newInstance(c)).id}/shutdown`),
  },
  // What an instance with no history yet answers (statistics, transfer) is not shown: refused, read again while it may be that young (`usage`).
  'GET /v4/compute/instances/{computeId}/stats': usage('stats'),
  'GET /v4/compute/instances/{computeId}/stats/{year}/{month}': usage('stats', { byMonth: true }),
  'GET /v4/compute/instances/{computeId}/transfer': usage('transfer'),
  'GET /v4/compute/instances/{computeId}/transfer/{year}/{month}': usage('transfer', { byMonth: true }),
  'GET /v4/compute/instances/{computeId}/volumes': { build: async (c, fx) => at(`/v4/compute/instances/${(await fx.instance(c)).id}/volumes`) },
  'GET /v4/compute/kernels': { build: async () => at('/v4/compute/kernels') },
  'GET /v4/compute/kernels/{kernelId}': { build: async (c, fx) => at(c.target.kernelPath(String(await fx.firstId(c, '/v4/compute/kernels')))) },

  // — Images —
  'GET /v4/images': { build: async () => at('/v4/images') },
  'POST /v4/images': {
    mayBeBusy: true,
    // The generic request and the generated bodies take the file's instance's disk: may it be running? Not shown.
    afterRefusal: shutDownFirst(async (c, fx) => (await fx.instance(c)).id),
    adopt: adoptCapture,
    build: async (c, fx) => {
      const instance = await fx.instance(c);
      return at('/v4/images', { json: { disk_id: await diskToCapture(c, instance.id), label: fx.label('cap', 50) } });
    },
  },
  'POST /v4/images/upload': {
    adopt: adoptBy('image', '/v4/images', 'label', 'id', { answersIt: true }),
    build: async (c, fx) => at('/v4/images/upload', { json: { label: fx.label('up', 50), region: c.target.info.config.region } }),
  },
  'GET /v4/images/{imageId}': { build: async (c, fx) => at(c.target.imagePath(await fx.publicImage(c))) },
  // The file's private image is an upload pending its data: another file's day-long clock advance may have expired it,
  // so it is made again when it has, and sent to with the clock held.
  'PUT /v4/images/{imageId}': {
    exclusive: CLOCK_LOCK,
    build: async (c, fx) => at(c.target.imagePath((await fx.livePrivateImage(c)).id), { json: { description: 'conformance' } }),
  },
  // A fresh upload, deleted with the clock held: another file's day-long clock advance in between would expire it.
  'DELETE /v4/images/{imageId}': {
    exclusive: CLOCK_LOCK,
    build: async (c, fx) => {
      const sent = { label: fx.label('up', 50), region: c.target.info.config.region };
      const body = (await c.post('/v4/images/upload', sent)).body as Json | undefined;
      const id = body?.id ?? (body?.image as Json | undefined)?.id;
      if (typeof id !== 'string') throw new SetupError('the image upload response carries no id');
      fx.track('image', id, sent.label);
      return at(c.target.imagePath(id));
    },
  },

  // — Tags —
  'POST /v4/tags': { adopt: adoptTag, build: async (_c, fx) => at('/v4/tags', { json: { label: fx.label('tag', 50) } }) },
  'DELETE /v4/tags/{label}': {
    build: async (c, fx) => {
      const label = fx.label('tag', 50);
      await c.post('/v4/tags', { label });
      fx.track('tag', label, label);
      return at(`/v4/tags/${enc(label)}`);
    },
  },
  'GET /v4/tags/{label}': { build: async (c, fx) => at(`/v4/tags/${enc((await fx.tag(c)).label)}`) },

  // — Domains —
  'GET /v4/domains': { build: async () => at('/v4/domains') },
  'POST /v4/domains': {
    adopt: adoptDomain,
    build: async (_c, fx) => at('/v4/domains', { json: { domain: `${fx.label('d', 40)}.example.com`, type: 'master', soa_email: 'hostmaster@example.com' } }),
  },
  'POST /v4/domains/import': {
    refusable: 'the remote nameserver must allow zone transfers (AXFR) from the service, which the suite cannot arrange',
    adopt: adoptDomain,
    build: async (_c, fx) => at('/v4/domains/import', { json: { domain: `${fx.label('imp', 40)}.example.com`, remote_nameserver: 'ns1.example.com' } }),
  },
  'GET /v4/domains/{domainId}': { build: async (c, fx) => at(`/v4/domains/${(await fx.domain(c)).id}`) },
  'PUT /v4/domains/{domainId}': { build: async (c, fx) => at(`/v4/domains/${(await fx.domain(c)).id}`, { json: { description: 'conformance' } }) },
  'DELETE /v4/domains/{domainId}': { build: async (c, fx) => at(`/v4/domains/${(await fx.newDomain(c)).id}`) },
  'POST /v4/domains/{domainId}/clone': {
    adopt: adoptDomain,
    build: async (c, fx) => at(`/v4/domains/${(await fx.domain(c)).id}/clone`, { json: { domain: `${fx.label('cl', 40)}.example.com` } }),
  },
  'GET /v4/domains/{domainId}/records': { build: async (c, fx) => at(`/v4/domains/${(await fx.domain(c)).id}/records`) },
  'POST /v4/domains/{domainId}/records': {
    adopt: adoptChild('record', 'name', { shows: ['type'] }),
    build: async (c, fx) => at(`/v4/domains/${(await fx.domain(c)).id}/records`, { json: { type: 'TXT', name: fx.label('txt', 60), target: 'conformance' } }),
  },
  'GET /v4/domains/{domainId}/records/{recordId}': {
    build: async (c, fx) => {
      const r = await fx.record(c);
      return at(`/v4/domains/${r.domainId}/records/${r.id}`);
    },
  },
  'PUT /v4/domains/{domainId}/records/{recordId}': {
    build: async (c, fx) => {
      const r = await fx.record(c);
      return at(`/v4/domains/${r.domainId}/records/${r.id}`, { json: { target: RECORD_ADDRESS.otherIpv4 } });
    },
  },
  'DELETE /v4/domains/{domainId}/records/{recordId}': {
    build: async (c, fx) => {
      const { id: domainId } = await fx.domain(c);
      return at(`/v4/domains/${domainId}/records/${await addRecord(c, domainId, { type: 'TXT', name: fx.label('del', 60), target: 'conformance' })}`);
    },
  },
  // "the zone file of the last rendered zone": a new domain may have none until its zone is first rendered (when is not
  // shown), so it is read while a short time passes, once a file, before the request is built (without the clock hook,
  // one still not rendered then is not judged: no more time can pass).
  'GET /v4/domains/{domainId}/zone-file': {
    build: async (c, fx) => {
      const path = `/v4/domains/${(await fx.domain(c)).id}/zone-file`;
      const rendered = await fx.shared('renderedZone', () => untilShortlyDone(c, () => c.get(path), succeeded));
      if (!succeeded(rendered))
        skipUnlessShownInTime(c, succeeded(await c.get(path)), `${path} still answers HTTP ${rendered.status} (its zone not rendered yet)`);
      return at(path);
    },
  },

  // — Monitoring —
  'GET /v4/monitor/clients': { build: async () => at('/v4/monitor/clients') },
  'POST /v4/monitor/clients': {
    adopt: adoptBy('monitor-client', '/v4/monitor/clients', 'label'),
    build: async (_c, fx) => at('/v4/monitor/clients', { json: { label: fx.label('mon', 32) } }),
  },
  'GET /v4/monitor/clients/{clientId}': { build: async (c, fx) => at(`/v4/monitor/clients/${(await fx.monitorClient(c)).id}`) },
  'PUT /v4/monitor/clients/{clientId}': {
    build: async (c, fx) => at(`/v4/monitor/clients/${(await fx.monitorClient(c)).id}`, { json: { label: fx.label('mon', 32) } }),
  },
  'DELETE /v4/monitor/clients/{clientId}': {
    build: async (c, fx) => {
      const label = fx.label('mon', 32);
      const created = await c.post('/v4/monitor/clients', { label });
      const found =
        deepFind(created.body, (item) => item.label === label && item.id !== undefined) ??
        (await fx.find(c, '/v4/monitor/clients', (item) => item.label === label));
      if (found?.id === undefined) throw new SetupError('cannot find the id of a new monitoring client');
      fx.track('monitor-client', String(found.id), label);
      return at(`/v4/monitor/clients/${String(found.id)}`);
    },
  },
  'GET /v4/monitor/plan': { build: async () => at('/v4/monitor/plan') },
  'PUT /v4/monitor/plan': { exclusive: MONITOR_PLAN_LOCK, build: async () => at('/v4/monitor/plan', { json: { monitor_subscription: null } }) },
  'GET /v4/monitor/subscriptions': { build: async () => at('/v4/monitor/subscriptions') },
  'GET /v4/monitor/subscriptions/{subscriptionId}': { build: async () => at('/v4/monitor/subscriptions/monitor-3') },

  // — Firewalls —
  'GET /v4/networking/firewalls': { build: async () => at('/v4/networking/firewalls') },
  'POST /v4/networking/firewalls': {
    adopt: adoptBy('firewall', '/v4/networking/firewalls', 'label'),
    build: async (_c, fx) =>
      at('/v4/networking/firewalls', { json: { label: fx.label('fw', 32), rules: { inbound_policy: 'DROP', outbound_policy: 'ACCEPT' } } }),
  },
  'GET /v4/networking/firewalls/{firewallId}': { build: async (c, fx) => at(`/v4/networking/firewalls/${(await fx.firewall(c)).id}`) },
  'PUT /v4/networking/firewalls/{firewallId}': {
    build: async (c, fx) => at(`/v4/networking/firewalls/${(await fx.firewall(c)).id}`, { json: { tags: ['conformance'] } }),
  },
  'DELETE /v4/networking/firewalls/{firewallId}': { build: async (c, fx) => at(`/v4/networking/firewalls/${(await fx.newFirewall(c)).id}`) },
  'GET /v4/networking/firewalls/{firewallId}/devices': { build: async (c, fx) => at(`/v4/networking/firewalls/${(await fx.firewall(c)).id}/devices`) },
  'POST /v4/networking/firewalls/{firewallId}/devices': {
    adopt: adoptDevice,
    build: async (c, fx) => {
      const { firewallId, instanceId } = await deviceToAdd(c, fx);
      return at(`/v4/networking/firewalls/${firewallId}/devices`, { json: { id: instanceId, type: 'compute' } });
    },
  },
  'GET /v4/networking/firewalls/{firewallId}/devices/{deviceId}': {
    build: async (c, fx) => {
      const d = await fx.firewallDevice(c);
      return at(`/v4/networking/firewalls/${d.firewallId}/devices/${d.id}`);
    },
  },
  'DELETE /v4/networking/firewalls/{firewallId}/devices/{deviceId}': {
    build: async (c, fx) => {
      const d = await addedDevice(c, fx);
      return at(`/v4/networking/firewalls/${d.firewallId}/devices/${d.id}`);
    },
  },
  'GET /v4/networking/firewalls/{firewallId}/rules': { build: async (c, fx) => at(`/v4/networking/firewalls/${(await fx.firewall(c)).id}/rules`) },
  'PUT /v4/networking/firewalls/{firewallId}/rules': {
    build: async (c, fx) =>
      at(`/v4/networking/firewalls/${(await fx.firewall(c)).id}/rules`, {
        json: { inbound: [tcpRule('22, 443')] },
      }),
  },

  // — IP addresses —
  'GET /v4/networking/ips': { build: async () => at('/v4/networking/ips') },
  'POST /v4/networking/ips': {
    // A private address goes to the file's instance while it may take one (one instance fewer on a budget), else to a
    // new one: at most one per instance (`freeForPrivate`); which ranges private addresses come from is not shown.
    build: async (c, fx) => {
      const { id } = await fx.instance(c);
      const free = await freeForPrivate(c, fx, id);
      return at('/v4/networking/ips', { json: { compute_id: free ? id : (await fx.newInstance(c)).id, public: false, type: 'ipv4' } });
    },
    adopt: noteGivenPrivate,
    refusable: EXTRA_ADDRESS_REQUEST,
  },
  'POST /v4/networking/ips/assign': assignRecipe('/v4/networking/ips/assign'),
  'POST /v4beta/networking/ips/share': {
    build: async (c, fx) => at('/v4beta/networking/ips/share', { json: { ips: [], compute_id: (await fx.instance(c)).id } }),
  },
  'GET /v4/networking/ips/{address}': { build: async (c, fx) => at(`/v4/networking/ips/${await publicOf(c, (await fx.instance(c)).id)}`) },
  'PUT /v4/networking/ips/{address}': {
    build: async (c, fx) => at(`/v4/networking/ips/${await publicOf(c, (await fx.instance(c)).id)}`, { json: { rdns: null } }),
  },
  'POST /v4/networking/ipv4/assign': assignRecipe('/v4/networking/ipv4/assign'),
  'POST /v4/networking/ipv4/share': { build: async (c, fx) => at('/v4/networking/ipv4/share', { json: { ips: [], compute_id: (await fx.instance(c)).id } }) },
  'GET /v4/networking/ipv6/pools': { build: async () => at('/v4/networking/ipv6/pools') },
  'GET /v4/networking/ipv6/ranges': { build: async () => at('/v4/networking/ipv6/ranges') },
  'POST /v4/networking/ipv6/ranges': {
    ...RANGES,
    adopt: adoptRange,
    // Found as it is made (the one range new in the list, where neither the answer nor the list tells it): `adoptRange`.
    sentAgain: async (c, send) => (await createRangeFound(c, () => rangeCreateOnceFree(c, send))).exchange,
    build: async (c, fx) => {
      // One range per region per account: a region holding none but this file's, deleted first (free again when? `sentAgain`).
      const region = await fx.ipv6Region(c);
      return at('/v4/networking/ipv6/ranges', { json: { prefix_length: 64, compute_id: (await fx.instanceIn(c, region)).id } });
    },
  },
  'GET /v4/networking/ipv6/ranges/{range}': { ...RANGES, build: async (c, fx) => at(`/v4/networking/ipv6/ranges/${(await fx.ipv6Range(c)).range}`) },
  'DELETE /v4/networking/ipv6/ranges/{range}': {
    ...RANGES,
    build: async (c, fx) => at(`/v4/networking/ipv6/ranges/${(await fx.ipv6Range(c, { fresh: true })).range}`),
  },
  'GET /v4beta/networking/vlans': { build: async () => at('/v4beta/networking/vlans') },
};
