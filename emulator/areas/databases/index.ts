// Managed databases (document 1, "Managed databases"): engines, node types, the generic cluster list, the MySQL
// cluster endpoints, backups, credentials, patches and the CA certificate.
//
// Choices where the document says "not shown":
// - create defaults: cluster_size 1, encrypted false, ssl_connection false, replication_type `none` for one node
//   and `semi_synch` for three; no condition ties replication_type to cluster_size (any combination is accepted);
// - `updates` values: frequency `weekly` | `monthly` | null, duration 1..3 (hours), hour_of_day 0..23,
//   day_of_week 1..7 (1 = Monday, 7 = Sunday), week_of_month 1..4; default {weekly, 3, 20, 7, 1};
// - hosts are `{primary: null, secondary: null}` until provisioning completes;
// - allow_list: IPv4 or IPv6 address or CIDR; a single IPv4 address gets `/32`, a single IPv6 address `/128`;
// - restore puts the cluster in `restoring` for 10 simulated minutes, then `active`; after a credentials reset
//   the restore fails at once (status `failed`); a patch of a single-node cluster puts it in `updating` for
//   10 minutes (high-availability clusters stay `active`); snapshots, updates and credential resets complete at
//   once; a snapshot backup is listed as soon as it is requested.
import type { Area, RequestContext, Route } from '../../core/types.js';
import { parseIso, type Store } from '../../core/store.js';
import { asObject, fail, optBool, optInt, optString, reqString } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';
import { intParam } from '../../core/routes.js';
import { faulty, type FaultId } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { conflictStatus } from '../../variations/responses.js';
import { allowList, allowListChange } from './allow-list.js';
import { assignHosts } from './hosts.js';
import { noteSnapshot, requireNoSnapshotRunning, requireNotResetting, startReset } from './busy.js';
import { caCertificate, caCertificateShown, password } from './secrets.js';
import { defaultUpdates, readUpdates, shownUpdates } from './window.js';
import { ENGINES, NODE_TYPES, nodeTypes, SINGLE_NODE_TYPE, type Engine } from './catalogue.js';
import { addBackup, dailyBackups, DAY_MS, nextMidnight, stampOf } from './backups.js';
import { backups, clusters, deleteCluster, type Backup, type Cluster, type Status } from './model.js';

const REPLICATION_TYPES = ['none', 'asynch', 'semi_synch'] as const;
const ROOT_USER = 'chsroot';
const MYSQL_PORT = 3306;
const OTHER_ENGINE_PORT = 5432;

function viewPath(c: Cluster): string {
  return `/v4/databases/${c.engine}/instances/${c.id}`;
}

/** The members both projections show. */
function commonView(store: Store, c: Cluster) {
  return {
    ...commonMembers(c),
    ...(faulty(store, 'P1.database.engine.type-only') ? { engine: `${c.engine}/${c.version}` } : {}),
    // Under the variation a cluster whose hosts are not assigned yet shows none at all.
    ...(c.hosts.primary === null && varied(store, 'hosts-null-while-provisioning') ? { hosts: null } : {}),
  };
}

function commonMembers(c: Cluster) {
  return {
    allow_list: [...c.allow_list],
    cluster_size: c.cluster_size,
    created: c.created,
    encrypted: c.encrypted,
    engine: c.engine,
    hosts: { ...c.hosts },
    id: c.id,
    label: c.label,
    region: c.region,
    status: c.status,
    type: c.type,
    updated: c.updated,
    version: c.version,
  };
}

/** Fault P1.database.list.generic-includes-mysql: the generic list leaves out the newest MySQL cluster. */
const leftOutOfGeneric = (store: Store, c: Cluster) =>
  faulty(store, 'P1.database.list.generic-includes-mysql') &&
  c.id === Math.max(...[...clusters(store).values()].filter((x) => x.engine === 'mysql').map((x) => x.id));

/**
 * The generic projection (all engines): instance_uri, no MySQL-only members (a cluster of another engine shows members
 * of its own under the variation other-engines-own-projection).
 */
function genericView(store: Store, c: Cluster) {
  if (faulty(store, 'P1.database.fields.generic-projection')) return commonView(store, c);
  if (c.engine !== 'mysql' && varied(store, 'other-engines-own-projection')) return { ...commonView(store, c), ...ownEngineMembers(store, c) };
  return { ...commonView(store, c), instance_uri: faulty(store, 'P1.database.instance-uri.own-view-path') ? `/v4/databases/instances/${c.id}` : viewPath(c) };
}

/** Variation other-engines-own-projection: what a cluster of another engine shows beyond the common members. */
function ownEngineMembers(store: Store, c: Cluster) {
  return {
    instance_uri: `/v4/databases/${c.engine}/clusters/${c.id}`,
    port: OTHER_ENGINE_PORT,
    replication_type: 'synch',
    ssl_connection: c.ssl_connection,
    updates: { ...shownUpdates(store, c.updates), week_of_month: null },
  };
}

/** The MySQL projection: port, replication_type, ssl_connection and updates; no instance_uri. */
function mysqlView(store: Store, c: Cluster) {
  const view = {
    ...commonView(store, c),
    port: c.port,
    replication_type: c.replication_type,
    ssl_connection: c.ssl_connection,
    updates: shownUpdates(store, c.updates),
  };
  return faulty(store, 'P1.database.instance-uri.generic-only') ? { ...view, instance_uri: viewPath(c) } : view;
}

function backupView(b: Backup) {
  return { created: b.created, id: b.id, label: b.label, type: b.type };
}

function mysqlOr404(ctx: RequestContext): Cluster {
  const id = intParam(ctx, 'instanceId', 'Database cluster');
  const c = clusters(ctx.store).get(String(id));
  if (c === undefined || c.engine !== 'mysql') fail(`MySQL database cluster ${id} was not found.`, null, 404);
  return c;
}

/** Refuses `action` unless the cluster has one of the `allowed` statuses; `fault` (that precondition's rule) lets it through. */
function requireStatus(store: Store, c: Cluster, allowed: readonly Status[], action: string, fault?: FaultId): void {
  if (!allowed.includes(c.status) && !(fault && faulty(store, fault))) {
    const need = allowed.length === 1 ? `"${allowed[0]}"` : `one of ${allowed.map((s) => `"${s}"`).join(', ')}`;
    fail(
      faulty(store, 'P1.errors.preconditions')
        ? ''
        : `Cannot ${action}: database cluster ${c.id} is "${c.status}" and must be ${need}. Wait until it is ${need} and retry.`,
    );
  }
}

function requireNotProvisioning(store: Store, c: Cluster, action: string, fault?: FaultId): void {
  if (c.status === 'provisioning' && !(fault && faulty(store, fault))) {
    fail(`Cannot ${action}: database cluster ${c.id} is still provisioning. Retry once it is active.`);
  }
}

/** The page/page_size a view endpoint accepts are still validated like a list's. */
function checkPageQuery(ctx: RequestContext): void {
  paginate(ctx, [], undefined, { aView: true });
}

function uniqueLabel(store: Store, label: string, self?: number): void {
  if (faulty(store, 'P1.database.label.unique')) return;
  for (const c of clusters(store).values()) {
    if (c.label === label && (c.id !== self || faulty(store, 'P1.database.label.unique~self')))
      fail(`A database cluster labelled "${label}" already exists; labels must be unique.`, 'label', conflictStatus(store));
  }
}

const LABEL = { min: 3, max: 32 } as const;
/** Under the variation cluster-label-charset a label begins with a letter, then letters, digits, - and _. */
const clusterLabel = (store: Store) => ({
  min: faulty(store, 'P1.database.label.min-3') ? 0 : LABEL.min,
  max: faulty(store, 'P1.database.label.max-32') ? 64 : LABEL.max,
  ...(varied(store, 'cluster-label-charset')
    ? { pattern: /^[A-Za-z][A-Za-z0-9_-]*$/, patternReason: 'label must begin with a letter and hold only letters, digits, - and _.' }
    : {}),
});

function newCluster(
  store: Store,
  input: Omit<Cluster, 'id' | 'status' | 'hosts' | 'port' | 'updates' | 'created' | 'updated' | 'password' | 'credentialsReset' | 'caCertificate'>,
): Cluster {
  const id = store.newId('database', (n) => clusters(store).has(String(n)));
  const now = store.nowIso();
  const c: Cluster = {
    ...input,
    id,
    status: 'provisioning',
    hosts: { primary: null, secondary: null },
    port: MYSQL_PORT,
    updates: defaultUpdates(store),
    created: now,
    updated: now,
    password: password(store),
    credentialsReset: false,
    caCertificate: caCertificate(store, id),
  };
  clusters(store).set(String(id), c);
  return c;
}

/** Runs `fn` at `at` if the cluster still exists (a deleted or reset cluster ignores its pending tasks). */
function later(store: Store, c: Cluster, at: Date, fn: (c: Cluster) => void): void {
  store.schedule(at, (s) => {
    if (clusters(s).get(String(c.id)) === c) fn(c);
  });
}

function setStatus(store: Store, c: Cluster, status: Status, at?: Date): void {
  c.status = status;
  c.updated = store.nowIso(at);
}

/** Shows the cluster `updating` for `ms` of simulated time, then `active` again (unless it moved on meanwhile). */
function updatingFor(store: Store, c: Cluster, ms: number): void {
  setStatus(store, c, 'updating');
  const at = new Date(store.now().getTime() + ms);
  later(store, c, at, (cl) => {
    if (cl.status === 'updating') setStatus(store, cl, 'active', at);
  });
}

function seed(store: Store): void {
  const now = store.now();
  const seeded = newCluster(store, {
    label: 'seed-mysql-primary',
    engine: 'mysql',
    version: '8.0.30',
    region: 'us-east',
    type: 'g6-dedicated-2',
    cluster_size: 3,
    encrypted: true,
    replication_type: 'semi_synch',
    ssl_connection: true,
    allow_list: ['203.0.113.10/32', '192.0.2.0/24'],
  });
  seeded.created = store.nowIso(new Date(now.getTime() - 10 * DAY_MS));
  seeded.updated = seeded.created;
  seeded.status = 'active';
  assignHosts(store, seeded);
  const pg = newCluster(store, {
    label: 'seed-postgresql',
    engine: 'postgresql',
    version: '13.2',
    region: 'eu-central',
    type: 'g6-standard-1',
    cluster_size: 1,
    encrypted: false,
    replication_type: 'none',
    ssl_connection: false,
    allow_list: [],
  });
  pg.created = store.nowIso(new Date(now.getTime() - 3 * DAY_MS));
  pg.updated = pg.created;
  pg.status = 'active';
  assignHosts(store, pg);
  // The last seven nightly backups of both (eight when swept at the next run: today's run kept the one of 00:05 a week
  // ago), and one snapshot of the MySQL cluster. The fault of the midnight rule runs the nightly backups at 01:00.
  const late = faulty(store, 'P1.database-backup.auto.midnight-utc') ? 3_600_000 : 0;
  const first = new Date(nextMidnight(new Date(now.getTime() - late)).getTime() + late);
  for (let d = varied(store, 'auto-backups-swept-at-next-run') ? 8 : 7; d >= 1; d--) {
    const at = new Date(first.getTime() - d * DAY_MS);
    for (const c of [seeded, pg]) {
      if (parseIso(c.created).getTime() <= at.getTime()) addBackup(store, c.id, 'auto', `auto-${store.nowIso(at).slice(0, 10)}`, stampOf(store, at));
    }
  }
  addBackup(store, seeded.id, 'snapshot', 'before-schema-migration', store.nowIso(new Date(now.getTime() - DAY_MS)));
  store.schedule(first, (s) => dailyBackups(s, first));
}

function engineOr404(ctx: RequestContext): Engine {
  const id = ctx.params['engineId'] ?? '';
  const e = faulty(ctx.store, 'P1.database-engine.view-by-id')
    ? ENGINES.find((x) => x.engine === id.split('/')[0] && ENGINES.some((y) => y.id === id))
    : ENGINES.find((x) => x.id === id);
  if (e === undefined) fail(`Database engine ${JSON.stringify(id)} was not found; engine ids look like "mysql/8.0.30".`, null, 404);
  return e;
}

function createCluster(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const label = reqString(o, 'label', clusterLabel(ctx.store));
  const versionless = faulty(ctx.store, 'P1.database-create.engine.engine-version-form') && typeof o['engine'] === 'string' && /^[a-z]+$/.test(o['engine']);
  const engineId = versionless
    ? (o['engine'] as string)
    : reqString(o, 'engine', { pattern: /^[a-z]+\/[0-9][0-9A-Za-z.-]*$/, patternReason: 'engine must have the form <engine>/<version>, e.g. "mysql/8.0.30".' });
  const engine = versionless ? ENGINES.find((e) => e.engine === engineId) : ENGINES.find((e) => e.id === engineId);
  if (engine === undefined) fail(`engine ${JSON.stringify(engineId)} does not exist; list engines with GET /v4/databases/engines.`, 'engine');
  if (engine.engine !== 'mysql') fail(`engine ${engineId} is not a MySQL engine; use a mysql/<version> engine here.`, 'engine');
  const region = reqString(o, 'region');
  if (!ctx.store.regions.some((r) => r.id === region) && !faulty(ctx.store, 'P1.database.region.region-id'))
    fail(`region ${JSON.stringify(region)} does not exist.`, 'region');
  const type = reqString(o, 'type');
  const nt = NODE_TYPES.find((t) => t.id === type);
  if (nt === undefined && !faulty(ctx.store, 'P1.database.type.node-type-id'))
    fail(`type ${JSON.stringify(type)} is not a database node type; list them with GET /v4/databases/types.`, 'type');
  if (nt?.deprecated && !faulty(ctx.store, 'P1.database-node-type.deprecated.unavailable'))
    fail(`Node type ${type} is deprecated and no longer available; choose another type.`, 'type');
  const otherDefaults = varied(ctx.store, 'database-defaults-other');
  const tied = varied(ctx.store, 'database-topology-tied');
  const clusterSize =
    optInt(o, 'cluster_size', { ...(faulty(ctx.store, 'P1.database.cluster-size.enum') ? {} : { enum: [1, 3] }) }) ?? (otherDefaults || tied ? 3 : 1);
  if (clusterSize === 3 && type === SINGLE_NODE_TYPE && varied(ctx.store, 'single-node-types'))
    fail(`Node type ${type} offers MySQL clusters of one node only (see GET /v4/databases/types).`, 'cluster_size');
  const encrypted = optBool(o, 'encrypted') ?? otherDefaults;
  const sslConnection = optBool(o, 'ssl_connection') ?? otherDefaults;
  const replication =
    optString(o, 'replication_type', faulty(ctx.store, 'P1.database.replication-type.enum') ? {} : { enum: REPLICATION_TYPES }) ??
    (clusterSize === 3 || tied ? 'semi_synch' : 'none');
  // (only the documented sizes are tied: one the fault lets through is taken with any replication type)
  if (tied && ((clusterSize === 1 && replication !== 'none') || (clusterSize === 3 && replication === 'none')))
    fail(
      `A ${clusterSize}-node cluster takes replication_type ${clusterSize === 1 ? '"none"' : '"asynch" or "semi_synch"'}, not ${JSON.stringify(replication)}.`,
      'replication_type',
    );
  const allow = allowList(ctx.store, o) ?? (faulty(ctx.store, 'P1.database.allow-list.default-empty') ? ['0.0.0.0/0'] : []);
  uniqueLabel(ctx.store, label);

  const c = newCluster(ctx.store, {
    label,
    engine: engine.engine,
    version: engine.version,
    region,
    type,
    // The fault ignores the cluster_size sent: every cluster has one node.
    cluster_size: faulty(ctx.store, 'P1.database.create.reflected') ? 1 : clusterSize,
    encrypted,
    replication_type: replication,
    ssl_connection: sslConnection,
    // Under the variations a create's list shows (and applies) a simulated minute later, like an update's, or once
    // provisioning ends.
    allow_list: varied(ctx.store, 'allow-list-applied-later') || varied(ctx.store, 'allow-list-applied-when-provisioned') ? [] : allow,
  });
  if (varied(ctx.store, 'allow-list-applied-later')) later(ctx.store, c, new Date(ctx.store.now().getTime() + 60_000), (cl) => (cl.allow_list = allow));
  const minutes = varied(ctx.store, 'database-provisioning-30-minutes')
    ? 30
    : varied(ctx.store, 'database-provisioning-40-minutes')
      ? 40
      : 15 + Math.floor(ctx.store.random() * 16);
  const at = new Date(ctx.store.now().getTime() + minutes * 60_000);
  if (!faulty(ctx.store, 'P1.database.provisioning.time')) {
    later(ctx.store, c, at, (cl) => {
      setStatus(ctx.store, cl, 'active', at);
      if (varied(ctx.store, 'allow-list-applied-when-provisioned')) cl.allow_list = allow;
      if (!faulty(ctx.store, 'P1.database.hosts.assigned-after-provisioning')) assignHosts(ctx.store, cl);
    });
  }
  return mysqlView(ctx.store, c);
}

function updateCluster(ctx: RequestContext) {
  const c = mysqlOr404(ctx);
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  // The fault ~updating takes an update while a patch is updating the cluster, ~allow-list-only one changing only the
  // allow_list in any status, ~updates-only one changing only the maintenance window.
  const only = (member: string) => Object.keys(o).length === 1 && o[member] !== undefined;
  const updatable: Status[] = faulty(ctx.store, 'P1.database.status.update-requires-active~updating')
    ? ['active', 'updating']
    : (only('allow_list') && faulty(ctx.store, 'P1.database.status.update-requires-active~allow-list-only')) ||
        (only('updates') && faulty(ctx.store, 'P1.database.status.update-requires-active~updates-only'))
      ? [c.status]
      : ['active'];
  requireStatus(ctx.store, c, updatable, 'update the cluster', 'P1.database.status.update-requires-active');
  const label = faulty(ctx.store, 'P1.database-update.all-optional')
    ? reqString(o, 'label', clusterLabel(ctx.store))
    : optString(o, 'label', clusterLabel(ctx.store));
  const allow = allowList(ctx.store, o);
  const updates = readUpdates(ctx.store, o, c.updates);
  if (label !== undefined) uniqueLabel(ctx.store, label, c.id);
  if (allow !== undefined) allowListChange(ctx.store, c);
  // The faults keep the old label, or the old maintenance window, while the answer shows what was sent.
  const keepLabel = faulty(ctx.store, 'P1.database.update.reflected') ? c.label : undefined;
  const keepUpdates = faulty(ctx.store, 'P1.database.update.reflected~updates') ? c.updates : undefined;
  if (label !== undefined) c.label = label;
  if (allow !== undefined) {
    const next = faulty(ctx.store, 'P1.database.allow-list.update-replaces') ? [...c.allow_list, ...allow] : allow;
    // Under the variation the list shown stays the old one until the change is applied, a simulated minute later.
    if (varied(ctx.store, 'allow-list-applied-later')) later(ctx.store, c, new Date(ctx.store.now().getTime() + 60_000), (cl) => (cl.allow_list = next));
    else c.allow_list = next;
  }
  if (updates !== undefined) c.updates = updates;
  c.updated = ctx.store.nowIso();
  // Under the variations an allow-list change takes a minute to apply ("changes take a short time"), or any update
  // does, the cluster updating.
  if ((allow !== undefined && varied(ctx.store, 'allow-list-updating')) || varied(ctx.store, 'database-update-updating')) updatingFor(ctx.store, c, 60_000);
  const shown = mysqlView(ctx.store, c);
  if (keepLabel !== undefined) c.label = keepLabel;
  if (keepUpdates !== undefined) c.updates = keepUpdates;
  return shown;
}

function createSnapshot(ctx: RequestContext) {
  const c = mysqlOr404(ctx);
  const o = asObject(ctx.body);
  requireStatus(ctx.store, c, ['active'], 'create a snapshot', 'P1.database.status.snapshot-create-requires-active');
  const label = reqString(o, 'label', { min: 3, max: faulty(ctx.store, 'P1.database-snapshot.label.max-64') ? 128 : 64 });
  const target = optString(o, 'target', faulty(ctx.store, 'P1.database-snapshot.target.enum') ? {} : { enum: ['primary', 'secondary'] });
  // The fault refuses `secondary` everywhere; under the variation a cluster of one node (no replica) refuses it.
  const noReplica = c.cluster_size !== 3 && varied(ctx.store, 'secondary-snapshot-needs-replicas');
  if (target === 'secondary' && (noReplica || faulty(ctx.store, 'P1.database-snapshot.target.enum~secondary')))
    fail(`A snapshot of database cluster ${c.id} can target only its primary${noReplica ? ': it has no replica node' : ''}.`, 'target');
  // Under the variation database-snapshot-one-at-a-time a snapshot is being taken for its first 5 simulated minutes.
  const taking = (b: Backup) => b.clusterId === c.id && b.type === 'snapshot' && ctx.store.now().getTime() - Date.parse(b.created) < 5 * 60_000;
  if (varied(ctx.store, 'database-snapshot-one-at-a-time') && [...backups(ctx.store).values()].some(taking))
    fail(`A snapshot of database cluster ${c.id} is being taken: take the next one once it is complete`, null);
  if (!faulty(ctx.store, 'P1.database-backup.snapshot.on-request')) addBackup(ctx.store, c.id, 'snapshot', label, ctx.store.nowIso());
  noteSnapshot(ctx.store, c);
  return {};
}

/** Whether a backup shows yet: under database-snapshots-listed-when-taken a snapshot shows once taken, 5 simulated minutes on. */
function shown(store: Store, b: Backup): boolean {
  return !(b.type === 'snapshot' && varied(store, 'database-snapshots-listed-when-taken') && store.now().getTime() - Date.parse(b.created) < 5 * 60_000);
}

function backupOr404(ctx: RequestContext, c: Cluster): Backup {
  const id = intParam(ctx, 'backupId', 'Backup');
  const b = backups(ctx.store).get(String(id));
  // The fault looks the backup up by its id alone, whichever cluster it is of.
  const ofAnother = b !== undefined && b.clusterId !== c.id && !faulty(ctx.store, 'P1.database-backup.of-its-cluster');
  if (b === undefined || ofAnother || !shown(ctx.store, b)) fail(`Backup ${id} of database cluster ${c.id} was not found.`, null, 404);
  return b;
}

function restore(ctx: RequestContext) {
  const c = mysqlOr404(ctx);
  requireStatus(ctx.store, c, ['active'], 'restore a backup', 'P1.database.status.restore-requires-active');
  const store = ctx.store;
  const backup = backupOr404(ctx, c);
  if (backup.type === 'snapshot' && varied(store, 'database-snapshots-take-minutes') && store.now().getTime() - Date.parse(backup.created) < 5 * 60_000)
    fail(`Backup ${backup.id} is still being taken: restore it once it is complete`, null);
  // Under the variation database-restore-takes-an-hour a restore runs an hour, and one after a reset fails at its end.
  const long = varied(store, 'database-restore-takes-an-hour');
  // Under the variation failed-cluster-repaired a failed cluster shows active again 30 simulated minutes later.
  const failCluster = (cl: Cluster, at: Date) => {
    setStatus(store, cl, 'failed', at);
    if (!varied(store, 'failed-cluster-repaired')) return;
    const repaired = new Date(at.getTime() + 30 * 60_000);
    later(store, cl, repaired, (failed) => {
      if (failed.status === 'failed') setStatus(store, failed, 'active', repaired);
    });
  };
  const run = (cl: Cluster, now: Date) => {
    const fails = cl.credentialsReset && !faulty(store, 'P1.database.restore.after-reset-fails');
    if (fails && !long) {
      // Documented: restoring a backup after the credentials were reset leaves the cluster failed.
      failCluster(cl, now);
      return;
    }
    setStatus(store, cl, 'restoring', now);
    const at = new Date(now.getTime() + (long ? 60 : 10) * 60_000);
    later(store, cl, at, (restored) => {
      if (restored.status !== 'restoring') return;
      if (fails) failCluster(restored, at);
      else setStatus(store, restored, 'active', at);
    });
  };
  // Under the variation database-restore-queued the cluster shows active for 2 simulated minutes before the restore runs.
  if (!varied(store, 'database-restore-queued')) run(c, store.now());
  else {
    const at = new Date(store.now().getTime() + 2 * 60_000);
    later(store, c, at, (cl) => run(cl, at));
  }
  return {};
}

function patch(ctx: RequestContext) {
  const c = mysqlOr404(ctx);
  requireStatus(ctx.store, c, ['active'], 'apply patches', 'P1.database.status.patch-requires-active');
  requireNoSnapshotRunning(ctx.store, c, 'apply patches');
  const store = ctx.store;
  if (faulty(store, 'P1.database.version.never-auto-upgraded')) c.version = c.version.replace(/\d+$/, (n) => String(Number(n) + 1));
  // Under the variation patch-takes-hours a single-node cluster is patched for two simulated hours.
  if (c.cluster_size === 1) updatingFor(store, c, (varied(store, 'patch-takes-hours') ? 120 : 10) * 60_000);
  return {};
}

const mysql = '/v4/databases/mysql/instances';
const R = 'databases:read_only';
const W = 'databases:read_write';
const db = (method: Route['method'], path: string, scope: string, handler: Route['handler']): Route => ({
  method,
  path,
  scopes: [scope],
  auth: 'token',
  unrestrictedOnly: true,
  handler,
});

export const area: Area = {
  name: 'databases',
  seed,
  routes: [
    {
      method: 'GET',
      path: '/v4/databases/engines',
      scopes: [],
      auth: 'none',
      handler: (ctx) =>
        paginate(
          ctx,
          ENGINES.map((e) => ({ ...e })),
        ),
    },
    {
      method: 'GET',
      path: '/v4/databases/engines/{engineId}',
      scopes: [],
      auth: 'none',
      handler: (ctx) => {
        const e = engineOr404(ctx);
        checkPageQuery(ctx);
        if ((ctx.query['page'] ?? ctx.query['page_size']) !== undefined && faulty(ctx.store, 'P1.database-engine.view.page-accepted'))
          fail('page and page_size are not accepted by a view.', 'page');
        return { ...e };
      },
    },
    {
      method: 'GET',
      path: '/v4/databases/types',
      scopes: [],
      auth: 'none',
      handler: (ctx) => paginate(ctx, nodeTypes(ctx.store)),
    },
    {
      method: 'GET',
      path: '/v4/databases/types/{typeId}',
      scopes: [],
      auth: 'none',
      handler: (ctx) => {
        const t = nodeTypes(ctx.store).find((x) => x.id === ctx.params['typeId']);
        if (t === undefined) fail(`Database node type ${JSON.stringify(ctx.params['typeId'] ?? '')} was not found.`, null, 404);
        checkPageQuery(ctx);
        if ((ctx.query['page'] ?? ctx.query['page_size']) !== undefined && faulty(ctx.store, 'P1.database-node-type.view.page-accepted'))
          fail('page and page_size are not accepted by a view.', 'page');
        return t;
      },
    },
    db('GET', '/v4/databases/instances', R, (ctx) =>
      paginate(
        ctx,
        [...clusters(ctx.store).values()].filter((c) => !leftOutOfGeneric(ctx.store, c)).map((c) => genericView(ctx.store, c)),
      ),
    ),
    db('GET', mysql, R, (ctx) =>
      paginate(
        ctx,
        [...clusters(ctx.store).values()]
          .filter((c) => c.engine === 'mysql' || faulty(ctx.store, 'P1.database.list.mysql-only'))
          .map((c) => mysqlView(ctx.store, c)),
      ),
    ),
    db('POST', mysql, W, createCluster),
    db('GET', `${mysql}/{instanceId}`, R, (ctx) => mysqlView(ctx.store, mysqlOr404(ctx))),
    db('PUT', `${mysql}/{instanceId}`, W, updateCluster),
    db('DELETE', `${mysql}/{instanceId}`, W, (ctx) => {
      const c = mysqlOr404(ctx);
      const busy = faulty(ctx.store, 'P1.database.status.delete-requires-active-failed-degraded~busy') ? (['restoring', 'updating'] as const) : [];
      requireStatus(ctx.store, c, ['active', 'failed', 'degraded', ...busy], 'delete the cluster', 'P1.database.status.delete-requires-active-failed-degraded');
      if (faulty(ctx.store, 'P1.database.delete.removes')) return {};
      deleteCluster(ctx.store, c);
      return {};
    }),
    db('GET', `${mysql}/{instanceId}/backups`, W, (ctx) => {
      const c = mysqlOr404(ctx);
      requireNotProvisioning(ctx.store, c, 'list backups', 'P1.database.status.backups-list-not-provisioning');
      // The faults ~restoring and ~updating refuse the list while a restore runs, or while a patch updates the cluster.
      if (
        (c.status === 'restoring' && faulty(ctx.store, 'P1.database.status.backups-list-not-provisioning~restoring')) ||
        (c.status === 'updating' && faulty(ctx.store, 'P1.database.status.backups-list-not-provisioning~updating'))
      )
        fail(`Cannot list backups: database cluster ${c.id} is "${c.status}". Retry once it is active.`);
      // The fault ~list lists the backups of every cluster.
      const listed = (b: Backup) => b.clusterId === c.id || faulty(ctx.store, 'P1.database-backup.of-its-cluster~list');
      return paginate(ctx, [...backups(ctx.store).values()].filter((b) => listed(b) && shown(ctx.store, b)).map(backupView));
    }),
    db('POST', `${mysql}/{instanceId}/backups`, W, createSnapshot),
    db('GET', `${mysql}/{instanceId}/backups/{backupId}`, W, (ctx) => {
      const c = mysqlOr404(ctx);
      // The fault of the backup-view rule asks for `active` instead of "not provisioning".
      if (faulty(ctx.store, 'P1.database.status.backup-view-not-provisioning')) requireStatus(ctx.store, c, ['active'], 'view a backup');
      else requireNotProvisioning(ctx.store, c, 'view a backup');
      return backupView(backupOr404(ctx, c));
    }),
    db('POST', `${mysql}/{instanceId}/backups/{backupId}/restore`, W, restore),
    db('GET', `${mysql}/{instanceId}/credentials`, R, (ctx) => {
      const c = mysqlOr404(ctx);
      // The fault ~restoring shows the credentials while a restore runs.
      const viewable: Status[] = faulty(ctx.store, 'P1.database.status.credentials-view-requires-active~restoring') ? ['active', 'restoring'] : ['active'];
      requireStatus(ctx.store, c, viewable, 'view the credentials', 'P1.database.status.credentials-view-requires-active');
      requireNotResetting(ctx.store, c);
      // The fault keeps the password to the cluster's connection details elsewhere: the endpoint shows an empty one.
      return { username: ROOT_USER, password: faulty(ctx.store, 'P1.database.ssl-connection.credentials-endpoint') ? '' : c.password };
    }),
    db('POST', `${mysql}/{instanceId}/credentials/reset`, W, (ctx) => {
      const c = mysqlOr404(ctx);
      requireStatus(ctx.store, c, ['active'], 'reset the credentials', 'P1.database.status.credentials-reset-requires-active');
      requireNoSnapshotRunning(ctx.store, c, 'reset the credentials');
      startReset(ctx.store, c);
      if (!faulty(ctx.store, 'P1.database-credentials.reset.new-password')) c.password = password(ctx.store);
      c.credentialsReset = true;
      c.updated = ctx.store.nowIso();
      // Under the variation the reset ("takes several seconds") shows the cluster updating meanwhile.
      if (varied(ctx.store, 'credentials-reset-updating')) updatingFor(ctx.store, c, 30_000);
      return {};
    }),
    db('POST', `${mysql}/{instanceId}/patch`, W, patch),
    db('GET', `${mysql}/{instanceId}/ssl`, R, (ctx) => {
      const c = mysqlOr404(ctx);
      requireStatus(ctx.store, c, ['active'], 'view the CA certificate', 'P1.database.status.ssl-view-requires-active');
      return {
        ca_certificate: caCertificateShown(ctx.store, c.caCertificate),
      };
    }),
  ],
};
