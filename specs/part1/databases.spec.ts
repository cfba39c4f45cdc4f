// Document 1, "Managed database engine", "Managed database (cluster)", "Managed database backup", "Managed database
// credentials", "Managed database node type", "Managed database status" and "Managed databases": the rules only a
// sequence of requests can show — the required status of each operation (provisioning → refused; active → allowed;
// failed → refused or allowed), provisioning time, the two projections, allow_list normalisation and replacement,
// label uniqueness, credentials reset then restore → failed, snapshots and the daily automatic backups (clock).
//
// Time is shared by every spec file of the run: a cluster seen `provisioning` may turn `active` at any moment, so
// a refusal "while provisioning" is judged only when the cluster is `provisioning` both before and after the
// request (a delete, which leaves nothing to look at afterwards, fails only when it is accepted on three fresh
// provisioning clusters in a row).
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { describeExchange } from '../../harness/error-bodies.js';
import type { Exchange } from '../../harness/http.js';
import { onceNotBusy, readAfterWrite, untilGone, untilOnClock, untilShortlyDone } from '../../harness/consistency.js';
import { showsMade } from '../../harness/resources.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import { listItems } from '../../harness/lists.js';
import { findListed, PAGE_SIZES_ASKED, smallestPageSize } from '../../harness/pages.js';
import { isMysqlEngine } from '../../harness/picks.js';
import {
  DB,
  GENERIC,
  MINUTE,
  allItems,
  backupsOf,
  clusterHelpers,
  isObject,
  judgeCreated,
  ok,
  readInStatus,
  rejected,
  statusOf,
  THREE_NODES,
  untilAllowListApplied,
  view,
  waitForStatus,
  windowAnHourOn,
  type Json,
} from './databases-support.js';
import { lateChecks } from './databases-late.js';

const fx = useFixtures('part1-databases');
const helpers = clusterHelpers(fx);
const { mysqlEngines, nodeType, createCluster, mustCreate, snapshot, plainCluster, activeCluster, refusedWhileProvisioning, restoredCluster, clusterSnapshot } =
  helpers;

// ------------------------------------------------------------------ engines and node types

/**
 * The page size a view that "accepts page and page_size" is sent: the smallest its list takes (bounds not shown). A
 * list that took none of the sizes asked leaves no size known to be in bounds: the check skips.
 */
async function viewPageSize(c: Check, list: string): Promise<number> {
  const size = await smallestPageSize(c, list);
  return size ?? c.skip(`GET ${list} took none of ${PAGE_SIZES_ASKED}: no page_size is known to be within its bounds`);
}

describe('Managed database engine and node type', () => {
  check('P1.database-engine.view-by-id', 'each engine is viewed by its <engine>/<version> id, slash and all', async (c) => {
    const list = await c.get('/v4/databases/engines');
    const engines = ((list.body as { data?: Json[] } | undefined)?.data ?? []).filter((e) => typeof e.id === 'string');
    if (!engines.length) c.skip('the target lists no engine');
    for (const engine of engines) {
      const id = engine.id as string;
      const got = await c.get(c.target.enginePath(id));
      c.expectSuccess('P1.database-engine.view-by-id', got, `GET /v4/databases/engines/${id}`);
      const body = got.body as Json | undefined;
      c.expect(
        'P1.database-engine.view-by-id',
        body?.id === id && body?.engine === engine.engine && body?.version === engine.version,
        `GET /v4/databases/engines/${id} returned ${JSON.stringify(body).slice(0, 200)}, not the listed engine`,
        got,
      );
    }
  });

  check('P1.database-engine.view.page-accepted', 'the engine view accepts page and page_size', async (c) => {
    const id = (await mysqlEngines(c))[0]!.id;
    const size = await viewPageSize(c, '/v4/databases/engines');
    const got = await c.get(c.target.enginePath(id), { query: { page: 1, page_size: size } });
    c.expectSuccess('P1.database-engine.view.page-accepted', got, `GET /v4/databases/engines/${id}?page=1&page_size=${size}`);
    c.expect('P1.database-engine.view.page-accepted', (got.body as Json | undefined)?.id === id, 'the view with page and page_size is not the engine', got);
  });

  check('P1.database-node-type.view.page-accepted', 'the node type view accepts page and page_size', async (c) => {
    const id = await nodeType(c);
    const size = await viewPageSize(c, '/v4/databases/types');
    const got = await c.get(`/v4/databases/types/${encodeURIComponent(id)}`, { query: { page: 1, page_size: size } });
    c.expectSuccess('P1.database-node-type.view.page-accepted', got, `GET /v4/databases/types/${id}?page=1&page_size=${size}`);
    c.expect(
      'P1.database-node-type.view.page-accepted',
      (got.body as Json | undefined)?.id === id,
      'the view with page and page_size is not the node type',
      got,
    );
  });

  check('P1.database-node-type.deprecated.unavailable', 'a cluster of a deprecated node type is refused', async (c) => {
    const deprecated = await fx.find(c, '/v4/databases/types', (type) => type.deprecated === true && typeof type.id === 'string');
    if (!deprecated) return c.skip('the target lists no deprecated node type');
    const created = await createCluster(c, { type: deprecated.id });
    c.expectRejected('P1.database-node-type.deprecated.unavailable', created.exchange, `POST ${DB} with deprecated node type ${String(deprecated.id)}`, 'type');
  });
});

// ------------------------------------------------------------------ create

describe('Managed database create', () => {
  check(
    ['P1.database.create.returns-cluster', 'P1.database.engine-version.from-create', 'P1.database.create.reflected'],
    'a new cluster is provisioning and reports the engine and version, the nodes, replication and security it was created with',
    async (c) => {
      await judgeCreated(c, await plainCluster(c), (await mysqlEngines(c))[0]!.id);
    },
  );

  check(
    ['P1.database.create.returns-cluster', 'P1.database.engine-version.from-create'],
    'clusters of the other MySQL engines report the engine and version they were created with',
    async (c) => {
      const others = (await mysqlEngines(c)).slice(1, 3);
      if (!others.length) c.skip('the target lists one MySQL engine: the plain cluster showed it');
      for (const engine of others) await judgeCreated(c, await mustCreate(c, { engine: engine.id }), engine.id);
    },
  );

  check('P1.database-create.engine.engine-version-form', 'an engine not of the form <engine>/<version> is refused', async (c) => {
    const [type, version] = (await mysqlEngines(c))[0]!.id.split('/');
    for (const engine of [type, `${type}/`, `/${version}`, `${type}/${version}/1`]) {
      const created = await createCluster(c, { engine });
      c.expectRejected('P1.database-create.engine.engine-version-form', created.exchange, `POST ${DB} with engine ${JSON.stringify(engine)}`, 'engine');
    }
  });

  // Judged at once here, and again once the cluster is active (Managed database provisioning): a create's list may show
  // only once applied ("changes take a short time"), an empty one meanwhile.
  check('P1.database.allow-list.default-empty', 'allow_list is empty when the create body omits it', async (c) => {
    const created = await plainCluster(c);
    const { exchange, cluster } = await view(c, created.id);
    c.expect(
      'P1.database.allow-list.default-empty',
      Array.isArray(cluster?.allow_list) && cluster.allow_list.length === 0,
      `the new cluster's allow_list is ${JSON.stringify(cluster?.allow_list)}, not []`,
      exchange,
    );
  });

  check('P1.database.allow-list.slash-32', 'a single address of allow_list comes back with /32', async (c) => {
    const created = await mustCreate(c, { allow_list: ['10.20.30.7', '10.40.0.0/16'] });
    const judge = (what: string, shown: unknown) => {
      const list = Array.isArray(shown) ? (shown as unknown[]) : [];
      c.expect(
        'P1.database.allow-list.slash-32',
        list.includes('10.20.30.7/32') && list.includes('10.40.0.0/16') && list.length === 2,
        `sent ["10.20.30.7", "10.40.0.0/16"], the ${what} shows ${JSON.stringify(shown)}`,
        created.exchange,
      );
    };
    // "Changes take a short time": the create response, and the cluster for a while, may show the list not yet applied
    // (empty); the cluster is read until it shows one. What a provisioning cluster shows is not shown: a list still
    // empty then is read again once the cluster is active.
    const listIn = (cluster: Json | undefined) => cluster?.allow_list;
    const applied = (list: unknown) => Array.isArray(list) && list.length > 0;
    const shownShortly = () => untilShortlyDone(c, async () => listIn((await view(c, created.id)).cluster), applied, 5);
    if (applied(listIn(created.exchange.body as Json | undefined))) judge('create response', listIn(created.exchange.body as Json));
    let shown = await shownShortly();
    if (!applied(shown) && (await statusOf(c, created.id)) === 'provisioning') {
      const status = await waitForStatus(c, created.id, ['active'], 60);
      if (status !== 'active') c.skip(`the allow list shows [] while the cluster provisions, and the cluster is ${JSON.stringify(status)} after 60 minutes`);
      shown = await shownShortly();
    }
    judge('view', shown);
  });

  check('P1.database.label.unique', 'creating a cluster with a label in use is refused', async (c) => {
    const first = await plainCluster(c);
    const second = await createCluster(c, { label: first.label });
    c.expectRejected('P1.database.label.unique', second.exchange, `POST ${DB} with the label of cluster ${first.id}`, 'label');
  });

  check('P1.database.region.region-id', 'region must name a region; a created cluster shows the region it was created in', async (c) => {
    const bad = await createCluster(c, { region: 'zz-nowhere-9' });
    c.expectRejected('P1.database.region.region-id', bad.exchange, `POST ${DB} with region "zz-nowhere-9"`, 'region');
    const created = await plainCluster(c);
    const { exchange, cluster } = await view(c, created.id);
    c.expect(
      'P1.database.region.region-id',
      cluster?.region === c.target.info.config.region,
      `created in ${c.target.info.config.region}, the cluster shows region ${JSON.stringify(cluster?.region)}`,
      exchange,
    );
  });

  check('P1.database.type.node-type-id', 'type must name a node type; a created cluster shows a node type of GET /v4/databases/types', async (c) => {
    const bad = await createCluster(c, { type: 'g0-nosuch-node-0' });
    c.expectRejected('P1.database.type.node-type-id', bad.exchange, `POST ${DB} with type "g0-nosuch-node-0"`, 'type');
    const created = await plainCluster(c);
    const { exchange, cluster } = await view(c, created.id);
    c.expect(
      'P1.database.type.node-type-id',
      cluster?.type === (await nodeType(c)),
      `created with type ${await nodeType(c)}, the cluster shows ${JSON.stringify(cluster?.type)}`,
      exchange,
    );
    const type = await c.get(`/v4/databases/types/${encodeURIComponent(String(cluster?.type))}`);
    c.expectSuccess('P1.database.type.node-type-id', type, `GET /v4/databases/types/${String(cluster?.type)} (the cluster's type)`);
  });

  check(
    ['P1.database.list.generic-includes-mysql', 'P1.database.fields.generic-projection', 'P1.database.instance-uri.generic-only'],
    'every MySQL cluster is in the generic list, with instance_uri there only',
    async (c) => {
      const created = await plainCluster(c);
      const mine = (await view(c, created.id)).exchange;
      c.expect(
        'P1.database.instance-uri.generic-only',
        isObject(mine.body) && !('instance_uri' in mine.body),
        'the MySQL view of a cluster carries instance_uri',
        mine,
      );
      const holdsNew = (items: Json[]) => items.some((item) => item.id === created.id);
      const mysql = await readAfterWrite(c, () => allItems(c, DB), holdsNew);
      // Pages are no snapshot: a cluster before it deleted by another file between two page reads moves it onto a page
      // already read (where an id given again puts it, anywhere). It is looked up in the list itself.
      const newListed = holdsNew(mysql) || (await findListed(c, DB, (item) => item.id === created.id)).found !== undefined;
      c.expect('P1.database.list.generic-includes-mysql', newListed, `the MySQL list does not hold the new cluster ${created.id}`);
      // Read until it holds every MySQL cluster (within the window): a replica may answer as before another file's create.
      // Only those the MySQL list, read again after it, still holds: another file may delete one meanwhile.
      const lists = async () => ({ generic: await allItems(c, GENERIC, true), still: await allItems(c, DB) });
      const holdsAll = ({ generic, still }: { generic: Json[]; still: Json[] }) =>
        mysql.every((cluster) => !still.some((item) => item.id === cluster.id) || generic.some((item) => item.id === cluster.id));
      const generic = new Map((await readAfterWrite(c, lists, holdsAll)).generic.map((item) => [item.id, item]));
      for (const item of mysql) {
        if (generic.has(item.id)) continue;
        // deleted meanwhile by another spec file?
        const viewed = await c.get(`${DB}/${String(item.id)}`);
        if (viewed.status >= 400 && viewed.status < 500) continue;
        // No order of a list's items is shown, nor are pages a snapshot: a cluster listed before it, deleted by another
        // file between two page reads, moves it onto a page already read. It is looked up in the generic list itself.
        const { found } = await findListed(c, GENERIC, (listed) => listed.id === item.id);
        if (found) {
          generic.set(item.id, found);
          continue;
        }
        c.fail('P1.database.list.generic-includes-mysql', `MySQL cluster ${String(item.id)} is not in the generic list ${GENERIC}`);
      }
      const listed = generic.get(created.id);
      c.expect(
        'P1.database.fields.generic-projection',
        typeof listed?.instance_uri === 'string',
        `the generic list shows cluster ${created.id} without instance_uri`,
      );
    },
  );

  check('P1.database.list.mysql-only', 'the MySQL list holds no cluster of another engine', async (c) => {
    // "list of MySQL clusters", beside the generic "clusters of any engine". A cluster's engine is its "engine type
    // only": MySQL's is the type of the engines whose name says MySQL (`mysql`, ids `mysql/<version>`).
    const mysqlTypes = new Set((await listItems(c, '/v4/databases/engines')).filter(isMysqlEngine).map((e) => String(e.engine).toLowerCase()));
    const otherEngine = (item: Json) =>
      typeof item.engine === 'string' && !mysqlTypes.has(item.engine.toLowerCase()) && !isMysqlEngine({ engine: item.engine, id: item.engine });
    const mysql = await listItems(c, DB);
    for (const item of mysql)
      c.expect('P1.database.list.mysql-only', !otherEngine(item), `the MySQL list holds cluster ${String(item.id)} of engine ${JSON.stringify(item.engine)}`);
    // A cluster of another engine as the generic list shows it (its engine there) is not in the MySQL list either.
    const others = (await listItems(c, GENERIC)).filter(otherEngine);
    for (const other of others)
      c.expect(
        'P1.database.list.mysql-only',
        !mysql.some((item) => item.id === other.id),
        `the MySQL list holds cluster ${String(other.id)}, of engine ${JSON.stringify(other.engine)} in the generic list`,
      );
    if (!others.length) c.skip('no cluster of another engine than MySQL is listed (none can be made through the documented endpoints): nothing to tell apart');
  });
});

// ------------------------------------------------------------------ required status: provisioning

describe('Managed database status: provisioning', () => {
  check('P1.database.status.update-requires-active', 'update is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.update-requires-active', 'PUT (label)', (id) => c.put(`${DB}/${id}`, { label: fx.label('db', 32) }));
  });
  check('P1.database.status.update-requires-active', 'an update of the maintenance window alone is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.update-requires-active', 'PUT (updates)', async (id) =>
      c.put(`${DB}/${id}`, { updates: await windowAnHourOn(c, id) }),
    );
  });
  check('P1.database.status.snapshot-create-requires-active', 'snapshot create is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.snapshot-create-requires-active', 'POST backups (snapshot)', (id) =>
      c.post(`${DB}/${id}/backups`, { label: fx.label('snap', 64) }),
    );
  });
  check('P1.database.status.credentials-view-requires-active', 'credentials view is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.credentials-view-requires-active', 'GET credentials', (id) => c.get(`${DB}/${id}/credentials`));
  });
  check('P1.database.status.credentials-reset-requires-active', 'credentials reset is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.credentials-reset-requires-active', 'POST credentials/reset', (id) =>
      c.post(`${DB}/${id}/credentials/reset`),
    );
  });
  check('P1.database.status.patch-requires-active', 'patch is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.patch-requires-active', 'POST patch', (id) => c.post(`${DB}/${id}/patch`));
  });
  check('P1.database.status.ssl-view-requires-active', 'SSL certificate view is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.ssl-view-requires-active', 'GET ssl', (id) => c.get(`${DB}/${id}/ssl`));
  });
  check('P1.database.status.backups-list-not-provisioning', 'backups list is refused while provisioning', async (c) => {
    await refusedWhileProvisioning(c, 'P1.database.status.backups-list-not-provisioning', 'GET backups', (id) => c.get(`${DB}/${id}/backups`));
  });
  check('P1.database.status.delete-requires-active-failed-degraded', 'delete is refused while provisioning', async (c) => {
    const accepted: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      // On a database budget, another cluster would spend a slot the run's plan gave another check.
      if (attempt > 0 && c.target.info.config.maxDatabases !== null)
        c.skip(
          'the cluster was not seen provisioning at its delete (another spec file advanced the shared clock, or it was accepted once), and another is not in the database budget',
        );
      const { id } = await mustCreate(c);
      if ((await statusOf(c, id)) !== 'provisioning') continue;
      const exchange = await c.delete(`${DB}/${id}`);
      if (rejected(exchange)) return;
      c.expect(
        'P1.database.status.delete-requires-active-failed-degraded',
        ok(exchange),
        `DELETE of a provisioning cluster got ${describeExchange(exchange)}`,
        exchange,
      );
      accepted.push(String(id));
    }
    if (accepted.length === 3)
      c.fail(
        'P1.database.status.delete-requires-active-failed-degraded',
        `DELETE was accepted on three clusters (${accepted.join(', ')}) each seen provisioning just before`,
      );
    c.skip('the clusters left provisioning before the delete (another spec file advanced the shared clock)');
  });
});

// ------------------------------------------------------------------ provisioning time, hosts, delete of an active cluster

describe('Managed database provisioning', () => {
  check(
    ['P1.database.provisioning.time', 'P1.database.hosts.assigned-after-provisioning'],
    "the file's cluster, provisioning when created, is active within an hour, with hosts",
    async (c) => {
      const created = await plainCluster(c);
      const first = created.exchange.body as Json | undefined;
      c.expect(
        'P1.database.provisioning.time',
        first?.status !== 'active',
        'the cluster is active at once: provisioning takes about 15 to 30 minutes',
        created.exchange,
      );
      const { exchange, cluster } = await view(c, (await activeCluster(c)).id);
      const hosts = cluster?.hosts as Json | undefined;
      c.expect(
        'P1.database.hosts.assigned-after-provisioning',
        typeof hosts?.primary === 'string' && hosts.primary.length > 0,
        `the active cluster shows hosts ${JSON.stringify(hosts)}`,
        exchange,
      );
    },
  );

  check('P1.database.allow-list.default-empty', 'allow_list is still empty once the cluster created without it is active', async (c) => {
    // "allow_list … changes take a short time": what a create's list shows before it is applied is not shown (an empty
    // list, or none), so the list is judged again once the cluster is active after its provisioning (15 to 30 minutes),
    // before the update checks (declared after this one: databases-late.ts) change this cluster's allow_list.
    const { id } = await activeCluster(c);
    await untilAllowListApplied(c, id);
    const { exchange, cluster } = await view(c, id);
    c.expect(
      'P1.database.allow-list.default-empty',
      Array.isArray(cluster?.allow_list) && cluster.allow_list.length === 0,
      `created without allow_list, the active cluster's allow_list is ${JSON.stringify(cluster?.allow_list)}, not []`,
      exchange,
    );
  });

  check(
    [
      'P1.database.provisioning.time',
      'P1.database.hosts.assigned-after-provisioning',
      'P1.database.status.delete-requires-active-failed-degraded',
      'P1.database.delete.removes',
      'P1.database-snapshot.target.enum',
      'P1.database-backup.snapshot.on-request',
    ],
    'a cluster of three nodes is active within an hour of creation, with both hosts, takes a snapshot targeting its secondary; an active cluster can be deleted',
    async (c) => {
      // Three nodes, asked for: this check makes its own cluster of any size anyway, and the others the run sees active
      // are of one node or of the default size (not shown), so hosts.secondary would otherwise go unjudged. The
      // schemas judge it too, wherever an active cluster of three is shown.
      const created = await mustCreate(c, THREE_NODES);
      const first = created.exchange.body as Json | undefined;
      c.expect(
        'P1.database.provisioning.time',
        first?.status !== 'active',
        'the cluster is active at once: provisioning takes about 15 to 30 minutes',
        created.exchange,
      );
      // "About 15 to 30 minutes": how far past 30 "about" reaches is not said; only a cluster still not active at twice
      // that (60 minutes) is judged.
      await c.advanceClock(31 * MINUTE);
      let { exchange, cluster } = await view(c, created.id);
      if (cluster?.status !== 'active') {
        await c.advanceClock(29 * MINUTE);
        // Read within the window: a replica may answer as the read just before, at 31 minutes.
        ({ exchange, cluster } = await readAfterWrite(
          c,
          () => view(c, created.id),
          (read) => read.cluster?.status === 'active',
        ));
      }
      c.expect(
        'P1.database.provisioning.time',
        cluster?.status === 'active',
        `60 simulated minutes after creation the cluster is ${JSON.stringify(cluster?.status)}, not active`,
        exchange,
      );
      const hosts = cluster?.hosts as Json | undefined;
      c.expect(
        'P1.database.hosts.assigned-after-provisioning',
        typeof hosts?.primary === 'string' && hosts.primary.length > 0,
        `the active cluster shows hosts ${JSON.stringify(hosts)}`,
        exchange,
      );
      // Judged on the size the cluster shows (whether it is the size sent is P1.database.create.reflected's).
      c.expect(
        'P1.database.hosts.assigned-after-provisioning',
        cluster?.status !== 'active' || cluster.cluster_size !== 3 || (typeof hosts?.secondary === 'string' && hosts.secondary.length > 0),
        `the active cluster of three nodes shows hosts ${JSON.stringify(hosts)}: no secondary host`,
        exchange,
      );
      // "target (string, enum primary, secondary, …). Effect of choosing secondary on a high availability cluster: not
      // shown": it may be chosen there, whatever it does. Sent only to a cluster showing three nodes (one primary, two
      // replicas): what one of one node answers is not shown (variation secondary-snapshot-needs-replicas).
      const secondary = cluster?.status === 'active' && cluster.cluster_size === 3;
      if (secondary) await snapshot(c, created.id, 'P1.database-snapshot.target.enum', { target: 'secondary' });
      // A snapshot "takes several minutes" and what the cluster refuses meanwhile is not shown: a delete refused is sent again.
      const del = secondary ? await onceNotBusy(c, () => c.delete(`${DB}/${created.id}`)) : await c.delete(`${DB}/${created.id}`);
      c.expectSuccess('P1.database.status.delete-requires-active-failed-degraded', del, 'DELETE of an active cluster');
      // Whether the cluster is gone when the DELETE answers or once the deletion has run is not shown: a short time passes.
      const made = { kind: 'database', id: created.id, label: created.label };
      c.expectGone('P1.database.delete.removes', await untilGone(c, `${DB}/${created.id}`, made), 'GET of the deleted cluster', made);
      const shown = (item: Json) => showsMade('database', item, made);
      c.expect('P1.database.delete.removes', await fx.gone(c, DB, shown), 'the deleted cluster is still in the MySQL list');
      c.expect('P1.database.delete.removes', await fx.gone(c, GENERIC, shown), 'the deleted cluster is still in the generic list');
    },
  );
});

// ------------------------------------------------------------------ required status: active

describe('Managed database status: active', () => {
  check(
    ['P1.database.status.credentials-view-requires-active', 'P1.database.ssl-connection.credentials-endpoint'],
    'credentials of an active cluster are read from the credentials endpoint',
    async (c) => {
      const { id } = await activeCluster(c);
      const got = await readInStatus(c, `${DB}/${id}/credentials`, ok);
      c.expectSuccess('P1.database.status.credentials-view-requires-active', got, 'GET credentials of an active cluster');
      const body = got.body as Json | undefined;
      c.expect(
        'P1.database.ssl-connection.credentials-endpoint',
        typeof body?.username === 'string' && body.username.length > 0 && typeof body?.password === 'string' && body.password.length > 0,
        'the credentials endpoint shows no username and password',
        got,
      );
    },
  );

  check('P1.database.status.ssl-view-requires-active', 'the CA certificate of an active cluster is readable', async (c) => {
    const { id } = await activeCluster(c);
    c.expectSuccess('P1.database.status.ssl-view-requires-active', await readInStatus(c, `${DB}/${id}/ssl`, ok), 'GET ssl of an active cluster');
  });

  check(
    [
      'P1.database.status.snapshot-create-requires-active',
      'P1.database-backup.snapshot.on-request',
      'P1.database.status.backups-list-not-provisioning',
      'P1.database.status.backup-view-not-provisioning',
    ],
    'a snapshot of an active cluster appears in its backups list and is viewable',
    async (c) => {
      const { id } = await activeCluster(c);
      const list = await readInStatus(c, `${DB}/${id}/backups`, ok);
      c.expectSuccess('P1.database.status.backups-list-not-provisioning', list, 'GET backups of an active cluster');
      const made = await snapshot(c, id, 'P1.database.status.snapshot-create-requires-active');
      const got = await c.get(`${DB}/${id}/backups/${made.id}`);
      c.expectSuccess('P1.database.status.backup-view-not-provisioning', got, 'GET backup of an active cluster');
      const body = got.body as Json | undefined;
      c.expect(
        'P1.database-backup.snapshot.on-request',
        body?.type === 'snapshot' && body?.label === made.label,
        `the backup view shows type ${JSON.stringify(body?.type)} label ${JSON.stringify(body?.label)}`,
        got,
      );
    },
  );

  check(
    ['P1.database.status.credentials-reset-requires-active', 'P1.database-credentials.reset.new-password'],
    'credentials reset of an active cluster makes a new root password',
    async (c) => {
      const { id } = await activeCluster(c);
      const before = await readInStatus(c, `${DB}/${id}/credentials`, ok);
      const old = (before.body as Json | undefined)?.password;
      if (typeof old !== 'string') throw new SetupError('the credentials view shows no password');
      // A snapshot "takes several minutes" (the file's snapshots are of this cluster) and what a server refuses
      // meanwhile is not shown: a refused reset is sent again while one may still be taken.
      const reset = await onceNotBusy(c, () => c.post(`${DB}/${id}/credentials/reset`));
      c.expectSuccess('P1.database.status.credentials-reset-requires-active', reset, 'POST credentials/reset of an active cluster');
      // "takes several seconds": what the view answers meanwhile is not shown (an error, or the old password). It is
      // read within the consistency window, then once a simulated minute for two minutes.
      const passwordOf = (exchange: Exchange) => (ok(exchange) ? (exchange.body as Json | undefined)?.password : undefined);
      const changed = (exchange: Exchange) => typeof passwordOf(exchange) === 'string' && passwordOf(exchange) !== old;
      const read = () => readAfterWrite(c, () => c.get(`${DB}/${id}/credentials`), changed);
      const after = await untilOnClock(c, read, changed, { stepSeconds: MINUTE, mostSeconds: 2 * MINUTE });
      const now = passwordOf(after);
      c.expect(
        'P1.database-credentials.reset.new-password',
        typeof now === 'string' && now !== old,
        'the root password is unchanged two simulated minutes after a credentials reset',
        after,
      );
    },
  );

  check(
    ['P1.database.status.patch-requires-active', 'P1.database.version.never-auto-upgraded'],
    'patching an active cluster leaves its engine version unchanged',
    async (c) => {
      const { id } = await activeCluster(c);
      const before = (await view(c, id)).cluster;
      // Sent again while refused, as the reset above: a snapshot of the cluster may still be taken.
      const patch = await onceNotBusy(c, () => c.post(`${DB}/${id}/patch`));
      c.expectSuccess('P1.database.status.patch-requires-active', patch, 'POST patch of an active cluster');
      // Read until the patch shows under way (within the window): a replica may answer as before it, still active, and
      // the wait for active below would then end before the patch had begun (leaving the file's cluster updating).
      const during = await readAfterWrite(
        c,
        () => view(c, id),
        (read) => read.cluster?.status !== 'active',
      );
      c.expect(
        'P1.database.version.never-auto-upgraded',
        during.cluster?.version === before?.version && during.cluster?.engine === before?.engine,
        `the patch changed the version from ${JSON.stringify(before?.version)} to ${JSON.stringify(during.cluster?.version)}`,
        during.exchange,
      );
      // How long a patch runs is not shown (the default maintenance window lasts 3 hours): the cluster, which the later
      // checks need active, is waited for that long on the clock.
      await waitForStatus(c, id, ['active'], 180);
      const after = await view(c, id);
      c.expect(
        'P1.database.version.never-auto-upgraded',
        after.cluster?.version === before?.version,
        `after the patch completed the version is ${JSON.stringify(after.cluster?.version)}, was ${JSON.stringify(before?.version)}`,
        after.exchange,
      );
    },
  );

  // Backup ids may be numbered per cluster (not shown): a view answering a backup of its own cluster under that id
  // passes. Another cluster's snapshot, known by its label (the run's own), is neither listed nor viewed. Just before
  // the restore check: only reads come between the restore made here and the late checks wanting it restoring.
  check('P1.database-backup.of-its-cluster', "a cluster's backups list and view show no snapshot of another cluster", async (c) => {
    const rule = 'P1.database-backup.of-its-cluster';
    const [active, snap] = [await activeCluster(c), await clusterSnapshot(c)];
    const restored = await restoredCluster(c);
    const crossed: Array<[under: number, backup: { id: number; label: string }, of: number]> = [
      [restored.id, snap, active.id],
      [active.id, { id: restored.backupId, label: restored.backupLabel }, restored.id],
    ];
    for (const [under, { id, label }, of] of crossed) {
      const listed = (await backupsOf(c, under)).filter((backup) => backup.label === label);
      c.expect(rule, !listed.length, `the backups list of cluster ${under} holds snapshot "${label}" (id ${id}) of cluster ${of}`);
      const got = await c.get(`${DB}/${under}/backups/${id}`);
      const body = got.body as Json | undefined;
      if (!ok(got) || body?.id !== id || body?.label === label)
        c.expectRejected(rule, got, `GET ${DB}/${under}/backups/${id}, a backup of cluster ${of} (its snapshot "${label}")`);
    }
  });

  // The cluster is then restoring: the first of the late checks sends it what needs an active cluster.
  check('P1.database.status.restore-requires-active', 'restoring a backup of an active cluster is accepted', async (c) => {
    const { restore } = await restoredCluster(c);
    c.expectSuccess('P1.database.status.restore-requires-active', restore, 'POST restore on an active cluster');
  });
});

// Last in the file: updates, the automatic backups, restricted users and the failed status
// (specs/part1/databases-late.ts).
lateChecks(fx, helpers);
