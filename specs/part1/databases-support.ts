// Helpers of the managed database spec (databases.spec.ts): constants, reads, waits and the file's cluster fixtures.
import { RuleViolation, type Check } from '../../harness/check.js';
import { describeExchange, namesField } from '../../harness/error-bodies.js';
import { onceNotBusy, readAfterWrite, untilClockSettled, untilOnClock, untilShortlyDone } from '../../harness/consistency.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { requestMembers, withMembers } from '../../harness/contract.js';
import { listItems, timeOf } from '../../harness/lists.js';
import { isMysqlEngine } from '../../harness/picks.js';
import ipaddr from 'ipaddr.js';

export type Json = Record<string, unknown>;

export const DB = '/v4/databases/mysql/instances';
export const GENERIC = '/v4/databases/instances';
export const MINUTE = 60;
export const DAY_MS = 86_400_000;
/**
 * How long after 00:00 UTC an automatic backup may be stamped (seconds): whether `created` is the instant it starts
 * or the moment it is stored is not shown, and a backup takes minutes. A backup an hour late is still told apart.
 */
export const AUTO_STAMP_LEEWAY = 15 * MINUTE;

/**
 * A cluster of one node, asked for explicitly: "single-node clusters have downtime" during a patch, while what a cluster
 * of three shows meanwhile is not shown (it may stay active), and the default cluster_size is not shown either. Its
 * replication_type is `none`, the one a server tying replication_type to cluster_size (not shown) would take for one
 * node.
 */
const SINGLE_NODE = { cluster_size: 1, replication_type: 'none' } as const;

/**
 * A cluster of three nodes, asked for explicitly (the default cluster_size is not shown): "3 means one primary node and
 * two replica nodes", so once active it shows both hosts. Its replication_type replicates (semi_synch): a server tying
 * replication_type to cluster_size (not shown) would refuse three nodes of `none`.
 */
export const THREE_NODES = { cluster_size: 3, replication_type: 'semi_synch' } as const;

/**
 * The file's plain cluster's members besides label, engine, type and region: one node (SINGLE_NODE), encrypted and
 * ssl_connection true (their defaults are not shown). Each is read back (P1.database.create.reflected); allow_list is
 * left out, its default judged on this cluster.
 */
const PLAIN_SHAPE = { ...SINGLE_NODE, encrypted: true, ssl_connection: true } as const;

/** The create members whose values a created cluster shows as sent (P1.database.create.reflected). */
const REFLECTED_ON_CREATE = ['cluster_size', 'replication_type', 'encrypted', 'ssl_connection'] as const;

export const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
export const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
export const rejected = (exchange: Exchange) => exchange.status >= 400 && exchange.status < 500;

// ------------------------------------------------------------------ helpers

/**
 * The cluster read back after a write: viewable (a cluster just created may take the consistency window to show) and
 * showing what `settled` expects, else read again while a short time passes (`untilShortlyDone`); the last read.
 */
export async function viewAfterWrite(
  c: Check,
  id: number,
  settled: (cluster: Json | undefined) => boolean,
): Promise<{ exchange: Exchange; cluster: Json | undefined }> {
  const read = async () => {
    const exchange = await c.get(`${DB}/${id}`);
    return { exchange, cluster: ok(exchange) && isObject(exchange.body) ? exchange.body : undefined };
  };
  const done = ({ exchange, cluster }: { exchange: Exchange; cluster: Json | undefined }) => ok(exchange) && settled(cluster);
  // An allow_list change "takes a short time": what the cluster shows meanwhile is not shown. With the clock hook the
  // clock runs at once (its last read waits out a replica's lag), not after a window waited in vain for a slow change.
  if (c.target.control) return untilShortlyDone(c, read, done);
  const first = await readAfterWrite(c, read, done, { slowChange: true });
  return done(first) ? first : untilShortlyDone(c, read, done);
}

/**
 * A read whose answer depends on the cluster's status (credentials, CA certificate, backups), sent once the status was
 * seen: read until it answers as `expected` says that status promises, within the consistency window. A replica may
 * answer the same request as it did before the status changed (seen: credentials of a cluster just seen active
 * refused as provisioning, answered as to the provisioning check's request a moment earlier).
 */
export function readInStatus(c: Check, path: string, expected: (exchange: Exchange) => boolean): Promise<Exchange> {
  return readAfterWrite(c, () => c.get(path), expected);
}

/** The view of a cluster that exists. */
export const view = (c: Check, id: number) => viewAfterWrite(c, id, () => true);

/** The members of a maintenance window (`updates`) the documents list, the only ones a request sends. */
/**
 * A maintenance window read from a response, as a request may send it back: its documented members only (those of the
 * update body's schema). A response may carry members the documents do not show, and a server may refuse a request
 * naming them.
 */
export const documentedWindow = (shown: unknown): Json =>
  (isObject(shown) ? withMembers(shown, requestMembers('requests/database-update', 'updates')) : {}) as Json;

/**
 * The cluster's maintenance window as it shows it (its documented members), with `member` set to `value`: a window is
 * sent whole (whether an update may give only some of its members is not shown).
 */
export async function windowWith(c: Check, id: number, member: string, value: unknown): Promise<Json> {
  return { ...documentedWindow((await view(c, id)).cluster?.updates), [member]: value };
}

/** The cluster's maintenance window with hour_of_day an hour on (hours 0 to 23 under every reading): a real change. */
export async function windowAnHourOn(c: Check, id: number): Promise<Json> {
  const window = documentedWindow((await view(c, id)).cluster?.updates);
  return { ...window, hour_of_day: typeof window.hour_of_day === 'number' ? (window.hour_of_day + 1) % 24 : 12 };
}

/** Whether a window member's value is of the kind the documents give it: frequency a string or null, the others integers. */
const ofDocumentedKind = (member: string, value: unknown) => (member === 'frequency' ? value === null || typeof value === 'string' : Number.isInteger(value));

/**
 * A generated body with the cluster's own maintenance window in place of the members the body does not break: their
 * units are not shown, and a guessed day or duration could break another member than the one the body is about.
 */
export async function withOwnWindow(c: Check, path: string, body: Json): Promise<Json> {
  if (!isObject(body.updates)) return body;
  const shown = ((await c.get(path)).body as Json | undefined)?.updates;
  if (!isObject(shown)) return body;
  const own = (member: string, value: unknown) => (ofDocumentedKind(member, value) && member in shown ? shown[member] : value);
  return { ...body, updates: Object.fromEntries(Object.entries(body.updates).map(([member, value]) => [member, own(member, value)])) };
}

export async function statusOf(c: Check, id: number): Promise<string | undefined> {
  const { cluster } = await view(c, id);
  return typeof cluster?.status === 'string' ? cluster.status : undefined;
}

/**
 * Advances the clock in steps until the cluster has one of `statuses` (or the budget is spent; the last read is
 * repeated within the consistency window, `untilOnClock`).
 */
export function waitForStatus(c: Check, id: number, statuses: string[], budgetMinutes: number, stepMinutes = 10): Promise<string | undefined> {
  return untilOnClock(
    c,
    () => statusOf(c, id),
    (latest) => statuses.includes(latest ?? ''),
    { stepSeconds: stepMinutes * MINUTE, mostSeconds: budgetMinutes * MINUTE },
  );
}

/** Every item of a list, page by page (at most 20 pages); page is sent past page 1, or on every page with `pageOne`. */
export async function allItems(c: Check, path: string, pageOne = false): Promise<Json[]> {
  const all: Json[] = [];
  for (let page = 1; page <= 20; page++) {
    const exchange = await c.get(path, page > 1 || pageOne ? { query: { page } } : {});
    const body = exchange.body as { data?: Json[]; pages?: number } | undefined;
    if (!ok(exchange) || !Array.isArray(body?.data)) break;
    all.push(...body.data);
    if (page >= (body.pages ?? 1)) break;
  }
  return all;
}

export const backupsOf = (c: Check, id: number) => allItems(c, `${DB}/${id}/backups`);

/** An allow-list entry with its address in one written form (IPv6 as RFC 5952 writes it: `2600:3c00::/32`). */
function canonicalEntry(entry: string): string {
  const [address, prefix] = entry.split('/');
  if (!ipaddr.isValid(address!)) return entry;
  const parsed = ipaddr.parse(address!);
  const text = parsed instanceof ipaddr.IPv6 ? parsed.toRFC5952String() : parsed.toString();
  return prefix === undefined ? text : `${text}/${prefix}`;
}

/**
 * allow_list replaces all entries; a single IPv4 address is shown with /32. The documents say nothing of a single
 * IPv6 address (bare or /128 are both taken), nor of how an address is written back or whether a repeated entry is
 * kept: entries are compared as a set, each in one written form.
 */
export function allowListBreak(sent: unknown, shown: unknown): string | null {
  if (!Array.isArray(sent) || !Array.isArray(shown)) return 'P1.database.update.reflected';
  const forms = (item: string) => {
    const entry = canonicalEntry(item);
    return item.includes('/') ? [entry] : item.includes(':') ? [entry, `${entry}/128`] : [`${entry}/32`];
  };
  const shownEntries = new Set(shown.map((entry) => canonicalEntry(String(entry))));
  const matched = new Set<string>();
  for (const item of sent.map(String)) {
    const form = forms(item).find((candidate) => shownEntries.has(candidate));
    if (form) matched.add(form);
    else
      return !item.includes('/') && !item.includes(':') && shownEntries.has(canonicalEntry(item))
        ? 'P1.database.allow-list.slash-32'
        : 'P1.database.update.reflected';
  }
  return [...shownEntries].some((entry) => !matched.has(entry)) ? 'P1.database.update.reflected' : null;
}

/** Whether `shown` is the list `sent` as the cluster shows it after an update (see `allowListBreak`). */
const showsAllowList = (shown: unknown, sent: readonly unknown[]): boolean => allowListBreak(sent, shown) === null;

/**
 * After an allow-list change, until the cluster is `active` again: "changes take a short time" and a server may show
 * the cluster otherwise meanwhile (transitions are not shown), refusing what needs it active. A minute at a time.
 * Given the list `sent`, the cluster is first read until it shows it: a replica may otherwise answer the status read
 * as before the update (still `active`), and the wait would end before the change had begun. The read that shows it
 * showing the cluster `active` ends the wait.
 */
export async function untilAllowListApplied(c: Check, id: number, sent?: unknown): Promise<void> {
  if (Array.isArray(sent) && (await viewAfterWrite(c, id, (cluster) => showsAllowList(cluster?.allow_list, sent))).cluster?.status === 'active') return;
  await waitForStatus(c, id, ['active'], 30, 1);
}

/**
 * A PUT of the cluster, sent again while it is refused for what may be an earlier allow-list change still settling:
 * "changes take a short time, so rapid successive updates are unsuitable", and what a server answers to an update sent
 * too soon is not shown (it may show the cluster `updating`, or `active` with the new list, and refuse the next change
 * for a while). `onceNotBusy`: the target's clock a minute at a time for at most 10, or, without the clock hook, real
 * time for at most a minute; the last answer, still refused or not, is the caller's to judge.
 */
export function updateOnceSettled(c: Check, id: number, body: Json): Promise<Exchange> {
  return onceNotBusy(c, () => c.put(`${DB}/${id}`, body));
}

/**
 * Judges a create response and the view of the cluster it made (with `engine`, an `<engine>/<version>` id), and the
 * members of REFLECTED_ON_CREATE the create body `sent`: whether the create's answer shows them at once is not shown,
 * so the view is read until it does, within the consistency window (not on the clock: the cluster must stay provisioning).
 */
export async function judgeCreated(c: Check, created: { id: number; label: string; exchange: Exchange; sent: Json }, engine: string): Promise<void> {
  const body = created.exchange.body as Json | undefined;
  c.expect(
    'P1.database.create.returns-cluster',
    isObject(body) && body.label === created.label,
    `the create response is not the new cluster (label ${created.label})`,
    created.exchange,
  );
  c.expect(
    'P1.database.create.returns-cluster',
    body?.status === 'provisioning',
    `the create response shows status ${JSON.stringify(body?.status)}, not provisioning`,
    created.exchange,
  );
  const [type, version] = engine.split('/');
  for (const [what, shown] of [
    ['create response', body],
    ['view', (await view(c, created.id)).cluster],
  ] as const) {
    c.expect(
      'P1.database.engine-version.from-create',
      shown?.engine === type && shown?.version === version,
      `created with ${engine}, the ${what} shows engine ${JSON.stringify(shown?.engine)} version ${JSON.stringify(shown?.version)}`,
      created.exchange,
    );
  }
  const members = REFLECTED_ON_CREATE.filter((member) => member in created.sent);
  if (!members.length) return;
  const differs = (shown: Json | undefined) => members.filter((member) => shown?.[member] !== created.sent[member]);
  const read = await readAfterWrite(
    c,
    () => c.get(`${DB}/${created.id}`),
    (exchange) => ok(exchange) && isObject(exchange.body) && !differs(exchange.body).length,
  );
  const shown = ok(read) && isObject(read.body) ? read.body : undefined;
  c.expect(
    'P1.database.create.reflected',
    !differs(shown).length,
    `created with ${members.map((member) => `${member} ${JSON.stringify(created.sent[member])}`).join(', ')}, the cluster shows ${differs(shown)
      .map((member) => `${member} ${JSON.stringify(shown?.[member])}`)
      .join(', ')}`,
    read,
  );
}

export const autos = (backups: Json[]) =>
  backups
    .filter((b) => b.type === 'auto')
    .map((b) => timeOf(b.created))
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);

interface Created {
  exchange: Exchange;
  id?: number;
  label: string;
}

/**
 * The helpers that make or borrow the spec file's clusters, built once from its fixtures (`useFixtures` stays in the
 * spec file): memoised fixtures keep their keys (`fx.shared`), made once per file.
 */
export function clusterHelpers(fx: Fixtures) {
  /** A resource made once per file (made again after a failure): a shared fixture of the run's plan. */
  function memo<T>(key: string, make: (c: Check) => Promise<T>): (c: Check) => Promise<T> {
    return (c) => fx.shared(key, () => make(c));
  }

  // Every page: the page size of document 1's lists is not shown, and the MySQL engines may come after others.
  const mysqlEngines = memo('mysqlEngines', async (c) => {
    const engines = (await listItems(c, '/v4/databases/engines')).filter((e) => isMysqlEngine(e) && typeof e.id === 'string');
    if (!engines.length) throw new SetupError('GET /v4/databases/engines lists no mysql engine');
    return engines as Array<Json & { id: string }>;
  });

  const nodeType = (c: Check) => fx.databaseNodeType(c);

  /** POST a MySQL cluster (label, engine, type, region + extra); a successful create is tracked for deletion. */
  async function createCluster(c: Check, extra: Json = {}): Promise<Created> {
    const label = typeof extra.label === 'string' ? extra.label : fx.label('db', 32);
    const body = { label, engine: (await mysqlEngines(c))[0]!.id, type: await nodeType(c), region: c.target.info.config.region, ...extra };
    const exchange = await c.post(DB, body);
    if (!ok(exchange)) return { exchange, label };
    let id = isObject(exchange.body) && typeof exchange.body.id === 'number' ? exchange.body.id : undefined;
    if (id === undefined) {
      const found = await fx.find(c, DB, (item) => item.label === label);
      if (typeof found?.id === 'number') id = found.id;
    }
    if (id !== undefined) fx.track('database', id, label);
    return { exchange, id, label };
  }

  async function mustCreate(c: Check, extra: Json = {}): Promise<{ id: number; label: string; exchange: Exchange; sent: Json }> {
    const created = await createCluster(c, extra);
    if (!ok(created.exchange)) throw new SetupError(`could not create a database cluster: ${describeExchange(created.exchange)}`);
    if (created.id === undefined) throw new SetupError('created a database cluster but cannot find its id');
    return { id: created.id, label: created.label, exchange: created.exchange, sent: extra };
  }

  /**
   * Takes a snapshot (the body's label, and `extra` members: a target) and finds it in the backups list (waiting
   * simulated minutes when it is not there at once).
   */
  async function snapshot(c: Check, id: number, rule?: string, extra: Json = {}): Promise<{ id: number; label: string; created?: number }> {
    const label = fx.label('snap', 64);
    // A snapshot "takes several minutes": a server may take one at a time, so one refused is sent again meanwhile
    // (one refused naming a member it sends is judged at once: no running snapshot explains that).
    const refusedFor = (exchange: Exchange) => Object.keys(extra).some((member) => namesField(exchange, member) === true);
    const post = await onceNotBusy(c, () => c.post(`${DB}/${id}/backups`, { label, ...extra }), { refusedFor });
    if (rule) c.expectSuccess(rule, post, `POST ${DB}/${id}/backups on an active cluster`);
    else if (!ok(post)) throw new SetupError(`could not take a snapshot: ${describeExchange(post)}`);
    // Looked for within the window, then 10 simulated minutes at a time for 30 (ending with a read within the window).
    const found = await fx.findOnClock(c, `${DB}/${id}/backups`, (b) => b.label === label && b.type === 'snapshot', 30);
    if (!found || typeof found.id !== 'number') {
      if (rule)
        c.fail('P1.database-backup.snapshot.on-request', `no backup of type snapshot labelled "${label}" appears within 30 simulated minutes of the request`);
      throw new SetupError('the snapshot does not appear in the backups list');
    }
    return { id: found.id, label, created: timeOf(found.created) };
  }

  // ------------------------------------------------------------------ cluster states shared by several checks

  /**
   * A cluster created without allow_list (PLAIN_SHAPE), made once: the checks observing what a create shows, the first
   * that need a provisioning cluster, and — once it is active — every check that leaves an active cluster active.
   */
  const plainCluster = memo('plainCluster', (c) => mustCreate(c, PLAIN_SHAPE));

  /**
   * The file's cluster once active: the plain cluster, made active by letting simulated time pass (after the checks
   * that want it provisioning, which come first). Document 1 promises the state within about 15 to 30 minutes: a
   * cluster not active 60 simulated minutes after the wait began fails that rule.
   */
  const activeCluster = memo('activeCluster', async (c) => {
    const cluster = await plainCluster(c);
    const status = await waitForStatus(c, cluster.id, ['active'], 60, 30);
    if (status !== 'active')
      throw new RuleViolation(
        'P1.database.provisioning.time',
        `the cluster is ${JSON.stringify(status)} 60 simulated minutes after the wait for it to become active began`,
      );
    return cluster;
  });

  /**
   * A cluster seen `provisioning` just now: the file's shared one (a fixture every such check borrows), else a new one
   * when the last one has moved on (another spec file advanced the shared clock) and the run has no database budget:
   * on a budget a fresh cluster would spend a slot the run's plan gave another check (seen: a clone's run judged four
   * rules fewer than its plan said when another file's day-long advance came first), so the check reports `skip`.
   */
  let provisioning: { id: number } | undefined;
  async function provisioningCluster(c: Check, fresh = false): Promise<{ id: number }> {
    const shared = await plainCluster(c);
    const last = fresh ? undefined : (provisioning ?? shared);
    if (last && (await statusOf(c, last.id)) === 'provisioning') return last;
    if (c.target.info.config.maxDatabases !== null)
      c.skip('the cluster left provisioning (another spec file advanced the shared clock), and a fresh one is not in the database budget');
    provisioning = { id: (await mustCreate(c)).id };
    return provisioning;
  }

  /**
   * Sends `op` to a provisioning cluster and judges it only when the cluster is `provisioning` before and after the
   * request; tries up to three clusters. `op` accepted while provisioning → `fail` of `rule`.
   */
  async function refusedWhileProvisioning(c: Check, rule: string, what: string, op: (id: number) => Promise<Exchange>): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cluster = await provisioningCluster(c, attempt > 0);
      if ((await statusOf(c, cluster.id)) !== 'provisioning') continue;
      const exchange = await op(cluster.id);
      if (rejected(exchange)) return;
      // Still provisioning once a lagging replica has caught up: a status read may answer as before the clock moved.
      const after = await readAfterWrite(
        c,
        () => statusOf(c, cluster.id),
        (status) => status !== 'provisioning',
      );
      if (after === 'provisioning') c.fail(rule, `${what} was accepted (${describeExchange(exchange)}) while the cluster was provisioning`, exchange);
      c.expect(rule, ok(exchange), `${what} on a provisioning cluster got ${describeExchange(exchange)}`, exchange);
    }
    c.skip('the clusters left provisioning during every attempt (another spec file advanced the shared clock)');
  }

  /**
   * A failed cluster: credentials reset, then a backup restored (documented to fail the cluster). It is the file's
   * active cluster, failed once every other check is done with it: its describe block comes last.
   */
  const failedCluster = memo('failedCluster', async (c) => {
    const { id, label } = await activeCluster(c);
    const backup = await snapshot(c, id);
    // The snapshot "takes several minutes", and what the cluster refuses meanwhile is not shown: a refused reset is
    // sent again while it may still be taken (as the restore is, restoreBackup).
    const reset = await onceNotBusy(c, () => c.post(`${DB}/${id}/credentials/reset`));
    // Holding the clock from the restore on: another file's advance meanwhile could take the cluster through failed to
    // repaired unseen (how long a cluster stays failed is not shown; under failed-cluster-repaired, variation seed 94,
    // it showed active again after its restore).
    return c.holdingClock(async () => {
      const restore = await restoreBackup(c, id, backup.id);
      // A restore may wait its turn with the cluster still active, and how long it runs is not shown: the clock runs 10
      // minutes at a time until the cluster shows failed, or active again after restoring, for at most 3 hours (the last
      // read repeated within the window: a replica may still answer as before).
      let restoring = false;
      const ended = (after: string | undefined) => {
        restoring ||= after === 'restoring';
        return after === 'failed' || (restoring && after === 'active');
      };
      const status = ok(restore)
        ? await untilOnClock(c, () => statusOf(c, id), ended, { stepSeconds: 10 * MINUTE, mostSeconds: 180 * MINUTE })
        : await statusOf(c, id);
      return { id, label, backupId: backup.id, reset, restore, status };
    });
  });

  async function failed(c: Check): Promise<{ id: number; label: string; backupId: number }> {
    const cluster = await failedCluster(c);
    if (cluster.status !== 'failed') throw new SetupError(`the cluster is "${String(cluster.status)}", not failed, after a credentials reset and a restore`);
    // How long a cluster stays failed is not shown (its transitions are not): one repaired since is judged no more.
    // Its checks hold the clock (CLOCK_LOCK), so no other file's advance repairs it under them after this read; one
    // that did just before is waited out (a lagging read would show the cluster failed after its repair).
    await untilClockSettled(c);
    const now = await statusOf(c, cluster.id);
    if (now !== 'failed') c.skip(`the failed cluster shows ${JSON.stringify(now)} now (simulated time has passed since it failed)`);
    return cluster;
  }

  /**
   * A new active cluster with a snapshot of it restored, the restore's answer kept: the restore check judges it, and
   * the check after it sends what needs an active cluster while this one is restoring (one restore for both), then
   * while a patch updates it: a cluster of one node (SINGLE_NODE), which a patch takes down.
   */
  const restoredCluster = memo('restoredCluster', async (c) => {
    const { id } = await fx.newActiveDatabase(c, SINGLE_NODE);
    const backup = await snapshot(c, id);
    return { id, backupId: backup.id, backupLabel: backup.label, restore: await restoreBackup(c, id, backup.id) };
  });

  /** A snapshot of the file's active cluster. */
  const clusterSnapshot = memo('clusterSnapshot', async (c) => snapshot(c, (await activeCluster(c)).id));

  /** The cluster whose label and allow_list the update checks change: the file's active cluster (nothing else reads those). */
  const editable = activeCluster;

  /** Lets simulated time pass the next 00:00 UTC and the stamp leeway after a snapshot of the cluster. */
  const pastMidnight = memo('pastMidnight', async (c) => {
    const { id } = await activeCluster(c);
    const made = await snapshot(c, id);
    if (made.created === undefined) throw new SetupError('the snapshot shows no created time');
    const midnight = Math.floor(made.created / DAY_MS) * DAY_MS + DAY_MS;
    await c.advanceClock(Math.ceil((midnight - made.created) / 1000) + AUTO_STAMP_LEEWAY + MINUTE);
    return { id, midnight };
  });

  return {
    mysqlEngines,
    nodeType,
    createCluster,
    mustCreate,
    snapshot,
    plainCluster,
    activeCluster,
    refusedWhileProvisioning,
    failedCluster,
    failed,
    restoredCluster,
    clusterSnapshot,
    editable,
    pastMidnight,
  };
}

/**
 * POSTs a restore of a backup the caller expects accepted. A snapshot "takes several minutes" and what a restore of one
 * still being taken answers is not shown: a refused restore is sent again while the snapshot may still be taken.
 */
function restoreBackup(c: Check, instanceId: number, backupId: number): Promise<Exchange> {
  return onceNotBusy(c, () => c.post(`${DB}/${instanceId}/backups/${backupId}/restore`));
}
