// Resources the checks of one spec file need, created on first use with the run's label prefix, recorded in the
// cleanup ledger as soon as their id is known, and deleted after the file even when checks failed.
// Where the documents do not show a create response, the new resource is found again in its list by its label.
import { afterAll } from 'vitest';
import { Adoption, SetupError } from './adoption.js';
import { CleanupLedger } from './cleanup.js';
import { RuleViolation, SkipCheck, type Check } from './check.js';
import { describeExchange } from './error-bodies.js';
import { clockMark, onceNotBusy, untilClockSettled, untilOnClock, type ClockMark } from './consistency.js';
import { NothingToJudge, type Exchange } from './http.js';
import { createRangeFound, rangeCreateOnceFree, regionForIpv6Range } from './account-limits.js';
import { addressesOf, RECORD_ADDRESS } from './addresses.js';
import { addDevice, showsDeviceOf } from './devices.js';
import { sameDomainName } from './domain-names.js';
import { isMysqlEngine, mysqlNodeType, ofEveryClusterSize } from './picks.js';
import { answersGone, resourcePath, type ResourceKind } from './resources.js';
import { CLEANUP_TIMEOUT_MS, deleteEach, deletePending, letClockRun } from './deletions.js';
import { MissingCapability, Refusal, noteBorrow, noteMade, spending, target } from './target.js';

export { SetupError } from './adoption.js';

type Json = Record<string, unknown>;

/**
 * The root password of the instances the suite deploys: long and random-looking, so any strength score passes it (the
 * document says only "an internally calculated strength score"; a dictionary word such as "Pass" lowers many).
 */
export const STRONG_PASSWORD = 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6';

let counter = 0;

/** An instance a fixture made: what the run itself knows of it. */
type MadeInstance = { id: number; label: string };

/** "upload must finish within 24 hours or the upload is cancelled and the image deleted" */
const UPLOAD_EXPIRES_SECONDS = 24 * 3600;

/** A failure to make a fixture that making it again may not meet: a target that gave no answer, a budget refusal. */
export const madeAgain = (error: unknown): boolean => error instanceof NothingToJudge || error instanceof Refusal;

export class Fixtures extends Adoption {
  protected readonly ledger: CleanupLedger;
  private readonly cache = new Map<string, Promise<unknown>>();
  readonly prefix: string;

  constructor(readonly name: string) {
    super();
    const info = target().info;
    this.ledger = new CleanupLedger(info.config.out, info.config.runId, name);
    this.prefix = `${info.config.runId}-`;
  }

  /** A fresh label with the run prefix: `r1a2b3-<name>-<n><random>`. */
  label(kind = 'x', max = 32): string {
    counter += 1;
    return `${this.prefix}${kind}${counter}${Math.random().toString(36).slice(2, 6)}`.slice(0, max);
  }

  /**
   * A resource shared by the file's checks, made on first use. What making it creates is the fixture's cost in the
   * run's plan (not the cost of the check that happened to come first), and every check using it borrows it.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T> {
    return this.once(key, make);
  }

  /**
   * Made once per spec file. A setup failure is kept too (every check needing it reports it at once rather than
   * wait again for what did not come); a target that gave no answer or a budget refusal is tried again.
   */
  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    const spender = spending.getStore();
    const fixture = `${this.name}#${key}`;
    noteBorrow(fixture);
    let value = this.cache.get(key) as Promise<T> | undefined;
    if (!value) {
      value = spender ? spending.run({ ...spender, fixture }, make) : make();
      this.cache.set(key, value);
      value.catch((error: unknown) => {
        if (madeAgain(error)) this.cache.delete(key);
      });
    }
    return value;
  }

  /**
   * Records a created resource for cleanup (before the check uses it; some are recorded before the request that
   * makes them); `parent`: the owner of a child kind. A read-only run never sends a request that creates: it records
   * nothing, so it reports no leftovers.
   */
  track(kind: ResourceKind, id: string | number, label?: string, parent?: string | number): void {
    if (target().info.config.readOnly) return;
    noteMade(kind);
    const path = resourcePath(kind, id, parent, target().info.imageIdForm);
    this.noteTracked(kind, id, path);
    target().views.noteLive(path, { kind, label });
    this.ledger.record({ kind, deletePath: path, ...(label ? { label } : {}) });
  }

  private created(exchange: Exchange, what: string): Json {
    if (exchange.status < 200 || exchange.status >= 300) throw new SetupError(`could not create ${what}: ${describeExchange(exchange)}`);
    return (exchange.body && typeof exchange.body === 'object' ? exchange.body : {}) as Json;
  }

  async publicImage(c: Check): Promise<string> {
    return this.once('publicImage', async () => {
      const found = await this.find(
        c,
        '/v4/images',
        (image) => typeof image.id === 'string' && image.id.startsWith('compute/') && image.status === 'available',
      );
      // The documents promise no public image: a target without one lacks what the check needs.
      if (!found) throw new SkipCheck('the target lists no available public image (compute/… with status available)');
      return found.id as string;
    });
  }

  /**
   * A new instance deployed from a public image (booted), tracked for deletion: its id and label only, since what the
   * create answers is not shown (its fields are read from its view).
   */
  async newInstance(c: Check, extra: Json = {}): Promise<MadeInstance> {
    const config = target().info.config;
    const label = this.label('vm', 64);
    const body = { region: config.region, type: config.instanceType, label, image: await this.publicImage(c), root_pass: STRONG_PASSWORD, ...extra };
    const created = this.created(await c.post('/v4/compute/instances', body), 'an instance');
    const id = await this.idOf(c, created, '/v4/compute/instances', (item) => item.label === label, 'an instance', { kind: 'instance', label });
    return { id: Number(id), label };
  }

  instance(c: Check): Promise<MadeInstance> {
    return this.once('instance', () => this.newInstance(c));
  }

  /** A second instance of the file in the run's region (what an IP assignment swaps with `instance`'s). */
  secondInstance(c: Check): Promise<MadeInstance> {
    return this.once('second instance', () => this.newInstance(c));
  }

  /**
   * Runs `body` on `count` instances the file lends: its first `count` lent instances, each made when first asked for
   * and lent to one check at a time. What `body` made (firewalls, transfers) is deleted when it ends, so the next
   * check finds them as they were: on a budget, a few instances serve every check that needs instances of its own
   * only for the time it runs.
   */
  async withLentInstances(c: Check, count: number, body: (instances: MadeInstance[]) => Promise<void>): Promise<void> {
    const instances: MadeInstance[] = [];
    for (let n = 1; n <= count; n++) instances.push(await this.once(`lent instance ${n}`, () => this.newInstance(c)));
    await this.lending(c, () => body(instances));
  }

  /** The file's shared instance when `region` is the run's region, else a new instance there. */
  instanceIn(c: Check, region: string): Promise<MadeInstance> {
    return region === target().info.config.region ? this.instance(c) : this.newInstance(c, { region });
  }

  async newDomain(c: Check, extra: Json = {}): Promise<{ id: number; domain: string }> {
    const domain = `${this.label('d', 40)}.example.com`;
    const created = this.created(await c.post('/v4/domains', { domain, type: 'master', soa_email: 'hostmaster@example.com', ...extra }), 'a domain');
    const id = await this.idOf(c, created, '/v4/domains', (item) => sameDomainName(item.domain, domain), 'a domain', { kind: 'domain', label: domain });
    return { id: Number(id), domain };
  }

  domain(c: Check): Promise<{ id: number; domain: string }> {
    return this.once('domain', () => this.newDomain(c));
  }

  async record(c: Check): Promise<{ domainId: number; id: number }> {
    return this.once('record', async () => {
      const { id: domainId, domain } = await this.domain(c);
      const name = this.label('www', 60);
      const created = this.created(await c.post(`/v4/domains/${domainId}/records`, { type: 'A', name, target: RECORD_ADDRESS.ipv4 }), 'a record');
      // A name as returned may be relative or fully qualified ("hostname or FQDN"; fields as returned are not shown).
      const named = (item: Json) => typeof item.name === 'string' && [name, `${name}.${domain}`].includes(item.name.toLowerCase().replace(/\.$/, ''));
      const id = await this.idOf(c, created, `/v4/domains/${domainId}/records`, named, 'a record');
      return { domainId, id: Number(id) };
    });
  }

  async newFirewall(c: Check, extra: Json = {}): Promise<{ id: number; label: string }> {
    const label = this.label('fw', 32);
    const created = this.created(
      await c.post('/v4/networking/firewalls', { label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' }, ...extra }),
      'a firewall',
    );
    const id = await this.idOf(c, created, '/v4/networking/firewalls', (item) => item.label === label, 'a firewall', { kind: 'firewall', label });
    return { id: Number(id), label };
  }

  firewall(c: Check): Promise<{ id: number; label: string }> {
    return this.once('firewall', () => this.newFirewall(c));
  }

  async firewallDevice(c: Check): Promise<{ firewallId: number; id: number }> {
    return this.once('firewallDevice', async () => {
      const [{ id: firewallId }, instance] = [await this.newFirewall(c), await this.instance(c)];
      const created = this.created(await addDevice(c, firewallId, instance.id), 'a firewall device');
      const id = await this.idOf(c, created, `/v4/networking/firewalls/${firewallId}/devices`, showsDeviceOf(c, firewallId, instance.id), 'a firewall device');
      return { firewallId, id: Number(id) };
    });
  }

  async monitorClient(c: Check): Promise<{ id: number }> {
    return this.once('monitorClient', async () => {
      const label = this.label('mon', 32);
      const created = this.created(await c.post('/v4/monitor/clients', { label }), 'a monitoring client');
      const id = await this.idOf(c, created, '/v4/monitor/clients', (item) => item.label === label, 'a monitoring client', { kind: 'monitor-client', label });
      return { id: Number(id) };
    });
  }

  privateImage(c: Check): Promise<{ id: string; made: ClockMark }> {
    return this.once('privateImage', () => this.newPrivateImage(c));
  }

  /**
   * Whether the file's private image is gone (an upload pending its data expires after a day: another file may move
   * the clock that far); when it is, the next `privateImage` makes a new one.
   */
  async privateImageExpired(c: Check): Promise<boolean> {
    const image = await this.privateImage(c);
    // A read just after another file's advance past the upload's day may answer as before it, the upload still there.
    await untilClockSettled(c, { since: image.made, seconds: UPLOAD_EXPIRES_SECONDS });
    if (!answersGone(await c.get(c.target.imagePath(image.id)), c.target.info.absentStatus)) return false;
    this.cache.delete('privateImage');
    return true;
  }

  /** The file's private image, read first and made anew when it has expired since it was made. */
  async livePrivateImage(c: Check): Promise<{ id: string }> {
    await this.privateImageExpired(c);
    return this.privateImage(c);
  }

  /** A private image made by an upload (pending its data). */
  async newPrivateImage(c: Check): Promise<{ id: string; made: ClockMark }> {
    const made = clockMark(c);
    const label = this.label('img', 50);
    const created = this.created(await c.post('/v4/images/upload', { label, region: target().info.config.region }), 'an uploaded image');
    // "creates a private image and returns it with upload_to"
    const id = await this.idOf(c, created, '/v4/images', (item) => item.label === label, 'an image', { kind: 'image', label, answersIt: true });
    return { id: String(id), made };
  }

  async tag(c: Check): Promise<{ label: string }> {
    return this.once('tag', async () => {
      const label = this.label('tag', 50);
      this.created(await c.post('/v4/tags', { label }), 'a tag');
      this.track('tag', label, label);
      return { label };
    });
  }

  async config(c: Check): Promise<{ computeId: number; id: number }> {
    return this.once('config', async () => {
      const instance = await this.instance(c);
      const label = this.label('cfg', 48);
      // Whether a profile may be made while its instance is busy (a clone of it, its own create) is not shown.
      const made = await onceNotBusy(c, () => c.post(`/v4/compute/instances/${instance.id}/configs`, { label, devices: {} }));
      const created = this.created(made, 'a configuration profile');
      const id = await this.idOf(c, created, `/v4/compute/instances/${instance.id}/configs`, (item) => item.label === label, 'a configuration profile');
      return { computeId: instance.id, id: Number(id) };
    });
  }

  /**
   * An IPv6 range routed to a new instance. One range per region per account: ranges this file created before
   * are deleted first, and the create is sent again while refused (`rangeCreateOnceFree`: when a deleted range's
   * region is free again is not shown). `fresh`: a new one, the caller's to delete, not kept as the file's: the next
   * asking gets another (a refused request sent to the range a check deleted could not tell a missing check of its token).
   */
  async ipv6Range(c: Check, options: { fresh?: boolean } = {}): Promise<{ range: string }> {
    if (!options.fresh) return this.keptIpv6Range(c);
    this.cache.delete('ipv6Range');
    const made = await this.keptIpv6Range(c);
    this.cache.delete('ipv6Range');
    return made;
  }

  private keptIpv6Range(c: Check): Promise<{ range: string }> {
    return this.once('ipv6Range', async () => {
      const instance = await this.instanceIn(c, await this.ipv6Region(c));
      const create = () => c.post('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: instance.id });
      const { exchange, range } = await createRangeFound(c, () => rangeCreateOnceFree(c, create), (await addressesOf(c, instance.id)).slaac);
      this.created(exchange, 'an IPv6 range');
      if (!range) throw new SetupError('created an IPv6 range but cannot find it (the create response is not shown)');
      this.track('ipv6-range', range, range);
      return { range };
    });
  }

  /**
   * A region where a new IPv6 range may be made, after deleting the ranges this file made: --region, else
   * --other-region when a range the run did not create may hold --region; skips when neither has room.
   */
  async ipv6Region(c: Check): Promise<string> {
    await this.releaseIpv6Ranges();
    const { region, otherRegion } = target().info.config;
    // (a range it deleted a moment ago may still hold its region: waited for while a short time passes)
    return regionForIpv6Range(c, [region, otherRegion], undefined, { waitForRoom: true });
  }

  /** Deletes the IPv6 ranges this file created (their region allows one per account). */
  async releaseIpv6Ranges(): Promise<void> {
    this.cache.delete('ipv6Range');
    await deleteEach(
      this.ledger,
      this.ledger.pending().filter((pending) => pending.kind === 'ipv6-range'),
    );
  }

  // — Document 1 —

  async oauthClient(c: Check): Promise<{ id: string }> {
    return this.once('oauthClient', async () => {
      const label = this.label('app', 512);
      const created = this.created(await c.post('/v4/account/oauth-clients', { label, redirect_uri: 'https://example.com/oauth/callback' }), 'an OAuth client');
      // "OAuth client object"
      const made = { kind: 'oauth-client', label, answersIt: true } as const;
      const id = String(await this.idOf(c, created, '/v4/account/oauth-clients', (item) => item.label === label, 'an OAuth client', made));
      return { id };
    });
  }

  /** A MySQL cluster shared by the file's checks that leave it `active`. */
  activeDatabase(c: Check): Promise<{ id: number }> {
    return this.once('activeDatabase', () => this.newActiveDatabase(c));
  }

  private readyDatabases: Array<{ id: number }> = [];
  /** A cluster of this file that never became active: the next ones are not waited for again (the run stays bounded). */
  private neverActive: Error | undefined;

  /**
   * A new MySQL cluster of its own, `active`. Provisioning takes 15–30 simulated minutes, so clusters are made a
   * few at a time and the clock advanced once for all of them: time is shared by every spec file of the run. `shape`
   * (members of the create body: one node, say) asks for a cluster of that shape, made alone.
   */
  async newActiveDatabase(c: Check, shape?: Json): Promise<{ id: number }> {
    // Without the clock hook the clusters would be made only to stay provisioning, undeletable until the run is over.
    if (!c.target.control) c.skip('needs an active cluster: provisioning takes 15–30 minutes and the target has no clock control hook');
    if (this.neverActive) throw this.neverActive;
    const ready = shape ? [] : this.readyDatabases;
    if (!ready.length) {
      const made = [];
      // On a budget, one at a time: each cluster is then paid for by the check that needs it.
      const batch = shape || target().info.config.maxDatabases !== null ? 1 : 4;
      for (let i = 0; i < batch; i++) {
        try {
          made.push(await this.newDatabase(c, shape));
        } catch (error) {
          // The database budget (--max-databases) ran out part-way: go on with the clusters made.
          if (!(error instanceof Refusal) || !made.length) throw error;
          if (c.refusal === error) c.refusal = undefined;
          break;
        }
      }
      await c.advanceClock(31 * 60);
      ready.push(...made);
    }
    const database = ready.shift()!;
    const isActive = (exchange: Exchange) => (exchange.body as Json | undefined)?.status === 'active';
    // "About 15 to 30 minutes": how far past 30 "about" reaches is not said; a cluster still not active at twice that
    // (60 minutes) fails the rule, as in its own check. (Only the read after the last step waits out a replica's lag.)
    const read = () => c.get(`/v4/databases/mysql/instances/${database.id}`);
    const view = await untilOnClock(c, read, isActive, { stepSeconds: 29 * 60, mostSeconds: 29 * 60 });
    if (isActive(view)) return database;
    this.neverActive = new RuleViolation(
      'P1.database.provisioning.time',
      `the cluster is "${String((view.body as Json | undefined)?.status)}" 60 simulated minutes after creation`,
      view,
    );
    throw this.neverActive;
  }

  /** A new MySQL cluster, created with the defaults or with the members of `shape` besides label, engine, type and region. */
  async newDatabase(c: Check, shape: Json = {}): Promise<{ id: number; label: string }> {
    const [engine, type] = [await this.mysqlEngine(c), await this.databaseNodeType(c)];
    const label = this.label('db', 32);
    const created = this.created(
      await c.post('/v4/databases/mysql/instances', { label, engine, type, region: target().info.config.region, ...shape }),
      'a database cluster',
    );
    // "MySQL cluster object"
    const made = { kind: 'database', label, answersIt: true } as const;
    const id = await this.idOf(c, created, '/v4/databases/mysql/instances', (item) => item.label === label, 'a database cluster', made);
    return { id: Number(id), label };
  }

  /** A snapshot of an active cluster; `fresh` takes it of a new cluster (for checks that restore it). Sent again while refused: a server may take one at a time. */
  async databaseBackup(c: Check, options: { fresh?: boolean } = {}): Promise<{ instanceId: number; id: number }> {
    if (options.fresh) return this.snapshotOf(c, (await this.newActiveDatabase(c)).id);
    return this.once('databaseBackup', async () => this.snapshotOf(c, (await this.activeDatabase(c)).id));
  }

  private async snapshotOf(c: Check, instanceId: number): Promise<{ instanceId: number; id: number }> {
    const label = this.label('snap', 64);
    this.created(await onceNotBusy(c, () => c.post(`/v4/databases/mysql/instances/${instanceId}/backups`, { label })), 'a database snapshot');
    // Whether a snapshot is listed before it is taken ("takes several minutes") is not shown.
    const found = await this.findOnClock(
      c,
      `/v4/databases/mysql/instances/${instanceId}/backups`,
      (item) => item.label === label || item.type === 'snapshot',
      30,
    );
    if (!found) throw new SetupError('created a database snapshot but it is not in the backups list within 30 simulated minutes');
    return { instanceId, id: Number(found.id) };
  }

  /** The file's pending entity transfer, of the file's instance (no other transfer of the file holds that one). */
  entityTransfer(c: Check): Promise<{ token: string }> {
    return this.once('entityTransfer', async () => this.transferOf(c, await this.instance(c)));
  }

  /** A new pending entity transfer of a new instance, tracked for cancelling. */
  async newEntityTransfer(c: Check): Promise<{ token: string }> {
    return this.transferOf(c, await this.newInstance(c));
  }

  private async transferOf(c: Check, instance: { id: number }): Promise<{ token: string }> {
    const created = this.created(await c.post('/v4/account/entity-transfers', { entities: { computes: [instance.id] } }), 'an entity transfer');
    if (typeof created.token !== 'string') throw new SetupError('the entity transfer create response carries no token');
    this.track('entity-transfer', created.token);
    return { token: created.token };
  }

  /**
   * An event the run caused (its firewall's firewall_create), for checks that mark events: marking the account's
   * first event would change one the run did not make.
   */
  async ownEvent(c: Check): Promise<{ id: number }> {
    return this.once('ownEvent', async () => {
      const firewall = await this.firewall(c);
      const names = (entity: unknown) =>
        String((entity as Json | undefined)?.id) === String(firewall.id) || (entity as Json | undefined)?.label === firewall.label;
      const event = await this.find(c, '/v4/account/events', (item) => item.action === 'firewall_create' && names(item.entity));
      if (typeof event?.id !== 'number') throw new SetupError(`creating firewall ${firewall.id} recorded no firewall_create event with an id`);
      return { id: event.id };
    });
  }

  /**
   * The id of a list item that is `what` (seed data: engines, node types, kernels, invoices, …), chosen by what the
   * documents say about it, never by its place in the list; `skip` with the reason when no item qualifies.
   */
  async firstId(c: Check, listPath: string, what = 'item', match: (item: Json) => boolean = () => true): Promise<string> {
    return this.once(`first:${listPath}:${what}`, async () => {
      const found = await this.find(c, listPath, match);
      if (!found || found.id === undefined) throw new MissingCapability(`${listPath} lists no ${what}`);
      return String(found.id);
    });
  }

  /** A MySQL engine: the MySQL endpoints take the engines whose name says MySQL (the id is `<engine>/<version>`). */
  mysqlEngine(c: Check): Promise<string> {
    return this.firstId(c, '/v4/databases/engines', 'MySQL engine', isMysqlEngine);
  }

  /** A node type a MySQL cluster can use, one priced for every cluster size where one is listed (`mysqlNodeType`). */
  databaseNodeType(c: Check): Promise<string> {
    const [path, what] = ['/v4/databases/types', 'node type available for MySQL'];
    return this.once(`first:${path}:${what}`, async () => {
      const found = (await this.find(c, path, (item) => mysqlNodeType(item) && ofEveryClusterSize(item))) ?? (await this.find(c, path, mysqlNodeType));
      if (!found || found.id === undefined) throw new MissingCapability(`${path} lists no ${what}`);
      return String(found.id);
    });
  }

  /** The file's ledger is done with (its spec file ended). */
  closeLedger(): void {
    this.ledger.close();
  }

  /** A mark for `cleanup(mark)`. */
  mark(): number {
    return this.ledger.mark();
  }

  /** Deletes what this file created (since `mark`, or all), newest first; a resource already gone counts as deleted. */
  async cleanup(mark?: number): Promise<void> {
    // What a create made that no list showed yet is looked for first (tracked once found).
    await this.unlisted.adoptSince(mark);
    let remaining = await deletePending(this.ledger, mark, { fileEnd: mark === undefined });
    // A cluster cannot be deleted while it provisions (about 30 minutes, 60 judged): with the clock hook, let it finish,
    // under the run's clock lock as a check's advance (without it only when a check holds the lock past the wait: a
    // cluster left behind would be worse).
    for (const minutes of [31, 29]) {
      if (mark !== undefined || !remaining.some((entry) => entry.kind === 'database') || !target().control) break;
      if (!(await letClockRun(minutes * 60))) await target().advanceClock(minutes * 60);
      remaining = await deletePending(this.ledger);
    }
  }

  /**
   * Runs a check's `body` on a shared resource it borrows, then deletes what the body created (by the ids its creates
   * returned, each delete confirmed by a read, never by re-reading a list that may lag), so the next check finds the
   * resource as it was. What could not be deleted is an error, unless the body itself already failed (an instance still busy
   * is left to the file's cleanup). What the target refuses to delete while the resource is busy (a profile while the
   * instance's shutdown runs) is waited for without the clock hook while the check `c` has time left.
   */
  async lending(c: Check, body: () => Promise<void>): Promise<void> {
    const mark = this.mark();
    try {
      await body();
    } catch (error) {
      await this.unlisted.adoptSince(mark);
      await deletePending(this.ledger, mark);
      throw error;
    }
    await this.unlisted.adoptSince(mark);
    // An instance whose DELETE is still refused (a server may refuse while its create or a clone runs: not shown) is a
    // resource of its own, not a change to the shared one: the file's cleanup, which waits for it, deletes it.
    const left = (await deletePending(this.ledger, mark, { realTimeUntil: c.deadline - 5_000 })).filter((entry) => entry.kind !== 'instance');
    if (left.length) throw new SetupError(`could not delete ${left.map((entry) => entry.deletePath).join(', ')}, made on a shared resource`);
  }
}

/** The fixtures of one spec file, cleaned up after it. */
export function useFixtures(name: string): Fixtures {
  let fixtures: Fixtures | undefined;
  afterAll(async () => {
    try {
      await fixtures?.cleanup();
    } finally {
      fixtures?.closeLedger();
    }
  }, CLEANUP_TIMEOUT_MS);
  return new Proxy({} as Fixtures, {
    get(_, property) {
      fixtures ??= new Fixtures(name);
      const value = (fixtures as unknown as Record<string | symbol, unknown>)[property];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(fixtures) : value;
    },
  });
}
