import type { Need, Rule } from './types.js';

// The ledger of document 1 (spec/part1-common-databases-account.md): common rules, managed databases, account.
// The per-endpoint rules (auth kind, scopes, unrestricted-only flag, /v4beta, page/page_size) are generated
// from the endpoint catalogue in endpoint-rules.ts and are not repeated here.

const DB = '/v4/databases/mysql/instances';
const DBI = `${DB}/{instanceId}`;
const E = {
  enginesList: 'GET /v4/databases/engines',
  engineView: 'GET /v4/databases/engines/{engineId}',
  genericList: 'GET /v4/databases/instances',
  mysqlList: `GET ${DB}`,
  dbCreate: `POST ${DB}`,
  dbView: `GET ${DBI}`,
  dbUpdate: `PUT ${DBI}`,
  dbDelete: `DELETE ${DBI}`,
  backupsList: `GET ${DBI}/backups`,
  snapshotCreate: `POST ${DBI}/backups`,
  backupView: `GET ${DBI}/backups/{backupId}`,
  restore: `POST ${DBI}/backups/{backupId}/restore`,
  credentials: `GET ${DBI}/credentials`,
  credentialsReset: `POST ${DBI}/credentials/reset`,
  patch: `POST ${DBI}/patch`,
  ssl: `GET ${DBI}/ssl`,
  typesList: 'GET /v4/databases/types',
  typeView: 'GET /v4/databases/types/{typeId}',
  account: 'GET /v4/account',
  accountUpdate: 'PUT /v4/account',
  cancel: 'POST /v4/account/cancel',
  creditCard: 'POST /v4/account/credit-card',
  transfers: 'GET /v4/account/entity-transfers',
  transferCreate: 'POST /v4/account/entity-transfers',
  transferView: 'GET /v4/account/entity-transfers/{token}',
  transferDelete: 'DELETE /v4/account/entity-transfers/{token}',
  transferAccept: 'POST /v4/account/entity-transfers/{token}/accept',
  events: 'GET /v4/account/events',
  eventView: 'GET /v4/account/events/{eventId}',
  eventRead: 'POST /v4/account/events/{eventId}/read',
  eventSeen: 'POST /v4/account/events/{eventId}/seen',
  invoices: 'GET /v4/account/invoices',
  invoiceView: 'GET /v4/account/invoices/{invoiceId}',
  invoiceItems: 'GET /v4/account/invoices/{invoiceId}/items',
  logins: 'GET /v4/account/logins',
  loginView: 'GET /v4/account/logins/{loginId}',
  maintenance: 'GET /v4beta/account/maintenance',
  notifications: 'GET /v4/account/notifications',
  clients: 'GET /v4/account/oauth-clients',
  clientCreate: 'POST /v4/account/oauth-clients',
  clientView: 'GET /v4/account/oauth-clients/{clientId}',
  clientUpdate: 'PUT /v4/account/oauth-clients/{clientId}',
  clientDelete: 'DELETE /v4/account/oauth-clients/{clientId}',
  // document 2 endpoints named by the common rules of document 1
  computeCreate: 'POST /v4/compute/instances',
  computeClone: 'POST /v4/compute/instances/{computeId}/clone',
} as const;

/** Every cluster endpoint returning a cluster object, by projection. */
const MYSQL_RETURNING = [E.mysqlList, E.dbCreate, E.dbView, E.dbUpdate];
const CLUSTER_RETURNING = [E.genericList, ...MYSQL_RETURNING];
const DB_ENDPOINTS = [
  E.genericList,
  E.mysqlList,
  E.dbCreate,
  E.dbView,
  E.dbUpdate,
  E.dbDelete,
  E.backupsList,
  E.snapshotCreate,
  E.backupView,
  E.restore,
  E.credentials,
  E.credentialsReset,
  E.patch,
  E.ssl,
];
const EMPTY_RETURNING = [
  E.dbDelete,
  E.snapshotCreate,
  E.restore,
  E.credentialsReset,
  E.patch,
  E.creditCard,
  E.transferDelete,
  E.transferAccept,
  E.eventRead,
  E.eventSeen,
  E.clientDelete,
];
const LISTS = [
  E.enginesList,
  E.genericList,
  E.mysqlList,
  E.backupsList,
  E.typesList,
  E.transfers,
  E.events,
  E.invoices,
  E.invoiceItems,
  E.logins,
  E.maintenance,
  E.notifications,
  E.clients,
];
const ACCOUNT_RETURNING = [E.account, E.accountUpdate];
const TRANSFER_RETURNING = [E.transfers, E.transferCreate, E.transferView];
const EVENT_RETURNING = [E.events, E.eventView];
const CLIENT_RETURNING = [E.clients, E.clientCreate, E.clientView, E.clientUpdate];

function rule(id: string, section: string, level: Rule['level'], text: string, endpoints: readonly string[], check: string, needs: Need[] = ['none']): Rule {
  return { id, part: 1, section, level, rule: text, endpoints: [...endpoints], needs, check };
}
const must = (id: string, section: string, text: string, endpoints: readonly string[], check = 'schema', needs?: Need[]) =>
  rule(id, section, 'MUST', text, endpoints, check, needs);
const should = (id: string, section: string, text: string, endpoints: readonly string[], check = 'schema', needs?: Need[]) =>
  rule(id, section, 'SHOULD', text, endpoints, check, needs);

const ACCOUNT_LIMITS: Array<[string, number]> = [
  ['address_1', 64],
  ['address_2', 64],
  ['city', 24],
  ['company', 128],
  ['email', 128],
  ['first_name', 50],
  ['last_name', 50],
  ['phone', 32],
  ['state', 24],
  ['tax_id', 100],
];

// One row per rule: the formatter leaves the table alone.
// prettier-ignore
export const rules: Rule[] = [
  // ---------------------------------------------------------------- Common conventions
  must('P1.conventions.list.object', 'Common conventions', 'A list response is an object with data, page, pages and results.', LISTS),
  must('P1.conventions.list.data', 'Common conventions', 'The data member of a list response is an array of resource objects.', LISTS),
  must('P1.conventions.list.page', 'Common conventions', 'The page member of a list response is an integer, the current page.', LISTS),
  must('P1.conventions.list.pages', 'Common conventions', 'The pages member of a list response is an integer, the total number of pages.', LISTS),
  must('P1.conventions.list.results', 'Common conventions', 'The results member of a list response is an integer, the total number of results.', LISTS),
  should('P1.conventions.list.page-is-requested', 'Common conventions', 'inferred: page, the current page, equals the page requested (1 when none is requested).', LISTS, 'scenario'),
  must('P1.conventions.list.results-total', 'Common conventions', 'results is the total number of results: walking every page yields exactly results items.', LISTS, 'scenario'),
  must('P1.conventions.list.pages-total', 'Common conventions', 'pages is the total number of pages: walking pages 1..pages at one page size yields every item, and a page past pages holds none. Page bounds are not shown for these lists (some take no page parameter at all): an answer to page pages + 1 that says it is another page (a truthful "page 1 of 1") is no evidence against pages.', LISTS, 'scenario'),
  must('P1.conventions.json-bodies', 'Common conventions', 'Request and response bodies are JSON (a response body that does not parse as JSON breaks it).', [], 'code'),
  must('P1.conventions.empty-object', 'Common conventions', 'Operations that return no resource return {}.', EMPTY_RETURNING),
  must('P1.conventions.date-time', 'Common conventions', 'Fields of type date-time are strings in a combined date and time format (samples carry no zone suffix).', []),
  must('P1.conventions.filterable', 'Common conventions', 'Fields marked filterable can be used to filter lists.', LISTS, 'untestable: the filter request syntax is not shown'),

  // ---------------------------------------------------------------- Managed database engine
  must('P1.database-engine.fields', 'Managed database engine', 'An engine object has engine, id and version.', [E.enginesList, E.engineView]),
  must('P1.database-engine.types', 'Managed database engine', 'engine, id and version of an engine object are strings.', [E.enginesList, E.engineView]),
  must('P1.database-engine.id.engine-version-form', 'Managed database engine', 'The id of an engine has the format <engine>/<version>.', [E.enginesList, E.engineView]),
  should('P1.database-engine.id.matches-engine-version', 'Managed database engine', 'inferred: the id of an engine is its own engine and version joined by a slash.', [E.enginesList, E.engineView], 'code'),
  must('P1.database-engine.view-by-id', 'Endpoints', 'GET /v4/databases/engines/{engineId} with an id of the form <engine>/<version> (containing a slash) returns that engine object.', [E.engineView], 'scenario'),
  must('P1.database-engine.view.page-accepted', 'Managed databases', 'The engine view accepts the page and page_size query parameters.', [E.engineView], 'scenario'),

  // ---------------------------------------------------------------- Managed database (cluster)
  must('P1.database.fields', 'Managed database (cluster)', 'A cluster object, in the generic list and the MySQL endpoints, has allow_list, cluster_size, created, encrypted, engine, id, label, region, status, type, updated and version.', CLUSTER_RETURNING),
  must('P1.database.fields.mysql-projection', 'Managed database (cluster)', 'port, replication_type, ssl_connection and updates appear in the MySQL projection.', MYSQL_RETURNING),
  must('P1.database.fields.generic-projection', 'Managed database (cluster)', 'instance_uri appears in the generic list of all clusters.', [E.genericList]),
  must('P1.database.types', 'Managed database (cluster)', 'The fields of a cluster object, when present, have the documented types (allow_list array of strings, cluster_size integer, encrypted boolean, hosts object, id integer, port integer, ssl_connection boolean, updates object, the others strings or date-times).', CLUSTER_RETURNING),
  must('P1.database.instance-uri.generic-only', 'Managed database (cluster)', 'instance_uri appears only in the generic list: the MySQL projection does not carry it.', MYSQL_RETURNING),
  must('P1.database.instance-uri.own-view-path', 'Managed database (cluster)', "instance_uri is the path of the cluster's own view endpoint.", [E.genericList], 'code'),
  must('P1.database.allow-list.ip-or-cidr', 'Managed database (cluster)', 'Each allow_list item is a single IP address or a CIDR range.', [...CLUSTER_RETURNING]),
  must('P1.database.allow-list.slash-32', 'Managed database (cluster)', 'Single addresses of allow_list are shown with a /32 suffix in responses.', CLUSTER_RETURNING),
  must('P1.database.allow-list.only-listed-connect', 'Managed database (cluster)', 'Only sources listed in allow_list can connect to the cluster.', [E.dbCreate, E.dbUpdate], 'untestable: connecting to the database itself is outside the HTTP API'),
  must('P1.database.allow-list.empty-blocks-all', 'Managed database (cluster)', 'An empty allow_list blocks all public and private connections.', [E.dbCreate, E.dbUpdate], 'untestable: connecting to the database itself is outside the HTTP API'),
  must('P1.database.allow-list.default-empty', 'Managed databases', 'allow_list defaults to an empty array when the create body omits it.', [E.dbCreate], 'scenario'),
  must('P1.database.allow-list.update-replaces', 'Managed databases', 'allow_list in the update body replaces all existing entries.', [E.dbUpdate], 'scenario', ['long-wait']),
  must('P1.database.allow-list.changes-take-time', 'Managed databases', 'allow_list changes take a short time to apply, so rapid successive updates are unsuitable.', [E.dbUpdate], 'untestable: the delay and what "unsuitable" means are not shown'),
  must('P1.database.cluster-size.enum', 'Managed database (cluster)', 'cluster_size is 1 or 3.', [...CLUSTER_RETURNING]),
  must('P1.database.cluster-size.three-nodes', 'Managed database (cluster)', 'cluster_size 3 means one primary node and two replica nodes.', [E.dbCreate], 'untestable: the nodes of a cluster are not visible through the API'),
  must('P1.database.engine.type-only', 'Managed database (cluster)', 'The engine field of a cluster is the engine type only (no version).', CLUSTER_RETURNING),
  should('P1.database.engine-version.from-create', 'Managed database (cluster)', 'inferred: a created cluster reports the engine type and version of the <engine>/<version> it was created with.', [E.dbCreate, E.dbView], 'scenario'),
  must('P1.database.hosts.assigned-after-provisioning', 'Managed database (cluster)', 'hosts (primary, secondary) are assigned after provisioning completes: an active cluster has hosts.primary.', CLUSTER_RETURNING),
  must('P1.database.label.min-3', 'Managed database (cluster)', 'A cluster label has at least 3 characters.', [...CLUSTER_RETURNING]),
  must('P1.database.label.max-32', 'Managed database (cluster)', 'A cluster label has at most 32 characters.', [...CLUSTER_RETURNING]),
  must('P1.database.label.unique', 'Managed database (cluster)', 'A cluster label is unique: creating or renaming a cluster to a label in use is rejected.', [E.dbCreate, E.dbUpdate], 'scenario'),
  should('P1.database.port.tcp-range', 'Managed database (cluster)', 'inferred: port, the access port, is a TCP port number 1..65535.', MYSQL_RETURNING),
  must('P1.database.replication-type.enum', 'Managed database (cluster)', 'replication_type is one of none, asynch, semi_synch.', MYSQL_RETURNING),
  must('P1.database.status.enum', 'Managed database status', 'status is one of provisioning, active, suspending, suspended, resuming, restoring, failed, degraded, updating.', CLUSTER_RETURNING),
  must('P1.database.region.region-id', 'Managed database (cluster)', 'region is a region ID.', [E.dbCreate], 'scenario'),
  must('P1.database.type.node-type-id', 'Managed database (cluster)', 'type is a node type ID: it names a node type of GET /v4/databases/types.', [E.dbCreate, E.dbView, E.typeView], 'scenario'),
  must('P1.database.updates.members', 'Managed database (cluster)', 'updates has the members frequency, duration, hour_of_day, day_of_week and week_of_month.', MYSQL_RETURNING),
  must('P1.database.updates.types', 'Managed database (cluster)', 'The members of updates are integers except frequency (string or null).', [...MYSQL_RETURNING]),
  must('P1.database.updates.default-window', 'Managed database (cluster)', 'The default maintenance window is every week on Sunday at 20:00 UTC, lasting 3 hours.', [E.dbCreate], 'untestable: the values and units of the updates members are not shown'),
  must('P1.database.version.never-auto-upgraded', 'Managed database (cluster)', 'Patches apply to the operating system only; the database engine version is never upgraded automatically (version is unchanged by a patch).', [E.patch, E.dbView], 'scenario', ['long-wait']),
  must('P1.database.maintenance.single-node-unavailable', 'Managed database (cluster)', 'A single-node cluster is unavailable during maintenance that applies updates.', [E.patch], 'untestable: availability of the database itself is outside the HTTP API'),
  must('P1.database.backups.daily', 'Managed database (cluster)', 'Every cluster has automatic daily backups.', [E.backupsList], 'scenario', ['clock', 'long-wait']),
  should('P1.database.create.returns-cluster', 'Managed databases', 'inferred: cluster creation returns the new cluster in status provisioning.', [E.dbCreate], 'scenario'),
  must('P1.database.provisioning.time', 'Limits', 'Database provisioning takes about 15 to 30 minutes, after which the cluster is active. "About" is not bounded: a cluster active at once, or still not active 60 minutes (twice the upper figure) after creation, is judged; anything between is not.', [E.dbCreate, E.dbView], 'scenario', ['clock', 'long-wait']),
  should('P1.database.list.generic-includes-mysql', 'Managed databases', 'inferred: the generic list of clusters of any engine includes every MySQL cluster of the MySQL list.', [E.genericList, E.mysqlList], 'scenario'),
  must('P1.database.restore.replaces-data', 'Managed databases', 'Restoring a backup erases all existing data and replaces it with the backup.', [E.restore], 'untestable: the data inside the database is outside the HTTP API'),
  must('P1.database.restore.after-reset-fails', 'Managed databases', 'Restoring a backup after credentials were reset results in a failed cluster.', [E.restore, E.credentialsReset, E.dbView], 'scenario', ['long-wait']),
  must('P1.database.patch.applies-now', 'Managed databases', 'Patch applies operating system security patches now; single-node clusters have downtime.', [E.patch], 'untestable: the patches and the downtime are outside the HTTP API'),
  must('P1.database.unrestricted-regardless-of-scopes', 'Authentication', 'All MySQL endpoints and the generic cluster list are available only to unrestricted users, whatever the scopes of the token.', DB_ENDPOINTS, 'scenario', ['restricted-user', 'scoped-token']),
  must('P1.database.ssl-connection.credentials-endpoint', 'Managed databases', 'Credentials and access information of a cluster are read from the credentials endpoint.', [E.credentials], 'scenario'),

  // status required per operation (one rule per operation of the table)
  must('P1.database.status.delete-requires-active-failed-degraded', 'Managed database status', 'Delete requires status active, failed or degraded.', [E.dbDelete], 'scenario'),
  must('P1.database.status.update-requires-active', 'Managed database status', 'Update requires status active.', [E.dbUpdate], 'scenario'),
  must('P1.database.status.snapshot-create-requires-active', 'Managed database status', 'Snapshot create requires status active.', [E.snapshotCreate], 'scenario'),
  must('P1.database.status.restore-requires-active', 'Managed database status', 'Restore requires status active.', [E.restore], 'scenario'),
  must('P1.database.status.credentials-view-requires-active', 'Managed database status', 'Credentials view requires status active.', [E.credentials], 'scenario'),
  must('P1.database.status.credentials-reset-requires-active', 'Managed database status', 'Credentials reset requires status active.', [E.credentialsReset], 'scenario'),
  must('P1.database.status.patch-requires-active', 'Managed database status', 'Patch requires status active.', [E.patch], 'scenario'),
  must('P1.database.status.ssl-view-requires-active', 'Managed database status', 'SSL certificate view requires status active.', [E.ssl], 'scenario'),
  must('P1.database.status.backups-list-not-provisioning', 'Managed database status', 'Backups list is allowed in any status except provisioning.', [E.backupsList], 'scenario'),
  must('P1.database.status.backup-view-not-provisioning', 'Managed database status', 'Backup view is allowed in any status except provisioning.', [E.backupView], 'scenario'),
  must('P1.database.status.transitions', 'Managed database status', 'Transitions between database statuses: not shown.', CLUSTER_RETURNING, 'untestable: transitions are not shown'),

  // create / update bodies
  must('P1.database-create.types', 'Managed databases', 'The members of the create body have the documented types (allow_list array of strings, cluster_size integer, encrypted and ssl_connection booleans, the others strings); other values are rejected.', [E.dbCreate]),
  must('P1.database-create.engine.required', 'Managed databases', 'engine is required in the create body.', [E.dbCreate]),
  must('P1.database-create.label.required', 'Managed databases', 'label is required in the create body.', [E.dbCreate]),
  must('P1.database-create.region.required', 'Managed databases', 'region is required in the create body.', [E.dbCreate]),
  must('P1.database-create.type.required', 'Managed databases', 'type is required in the create body.', [E.dbCreate]),
  must('P1.database-create.engine.engine-version-form', 'Managed databases', 'engine in the create body has the form <engine>/<version>.', [E.dbCreate]),
  must('P1.database-update.types', 'Managed databases', 'The update body members have the documented types: allow_list array of strings, label string, updates object.', [E.dbUpdate]),
  should('P1.database.update.reflected', 'Managed databases', 'inferred: the cluster returned by an update shows the label and allow_list sent (allow_list possibly with /32 added to single addresses).', [E.dbUpdate, E.dbView], 'scenario', ['long-wait']),
  should('P1.database.delete.removes', 'Managed databases', 'inferred: after a successful delete the cluster no longer appears in the lists.', [E.dbDelete, E.mysqlList, E.genericList], 'scenario', ['long-wait']),
  must('P1.database-update.all-optional', 'Managed databases', 'All members of the update body are optional: a body with any subset of them is accepted.', [E.dbUpdate], 'property', ['long-wait']),

  // ---------------------------------------------------------------- backups
  must('P1.database-backup.fields', 'Managed database backup', 'A backup object has created, id, label and type.', [E.backupsList, E.backupView]),
  must('P1.database-backup.types', 'Managed database backup', 'created is a date-time, id an integer, label and type strings.', [E.backupsList, E.backupView]),
  must('P1.database-backup.type.enum', 'Managed database backup', 'A backup type is snapshot or auto.', [E.backupsList, E.backupView]),
  must('P1.database-backup.auto.midnight-utc', 'Managed database backup', 'auto backups are created every 24 hours at 00:00 UTC.', [E.backupsList], 'scenario', ['clock', 'long-wait']),
  must('P1.database-backup.auto.retained-7-days', 'Managed database backup', 'Each auto backup is kept 7 days.', [E.backupsList], 'scenario', ['clock', 'long-wait']),
  must('P1.database-backup.snapshot.on-request', 'Managed database backup', 'snapshot backups are created on request: after a snapshot create, a backup of type snapshot with the given label appears (it takes several minutes).', [E.snapshotCreate, E.backupsList], 'scenario', ['long-wait']),
  must('P1.database-snapshot-create.types', 'Managed databases', 'The snapshot create body members label and target are strings.', [E.snapshotCreate]),
  must('P1.database-snapshot-create.label.required', 'Managed databases', 'label is required in the snapshot create body.', [E.snapshotCreate]),
  must('P1.database-snapshot.label.min-3', 'Managed databases', 'A snapshot label has at least 3 characters.', [E.snapshotCreate]),
  must('P1.database-snapshot.label.max-64', 'Managed databases', 'A snapshot label has at most 64 characters.', [E.snapshotCreate]),
  must('P1.database-snapshot.target.enum', 'Managed databases', 'target is primary or secondary.', [E.snapshotCreate]),
  must('P1.database-snapshot.target.default-primary', 'Managed databases', 'target defaults to primary.', [E.snapshotCreate], 'untestable: the target of a backup is not shown in the backup object'),

  // ---------------------------------------------------------------- credentials, ssl
  must('P1.database-credentials.fields', 'Managed database credentials', 'A credentials object has username and password.', [E.credentials]),
  must('P1.database-credentials.types', 'Managed database credentials', 'username (root user name) and password (root password) are strings.', [E.credentials]),
  must('P1.database-credentials.reset.new-password', 'Managed databases', 'Credentials reset generates a new random root password, readable through credentials view (it takes several seconds).', [E.credentialsReset, E.credentials], 'scenario'),
  must('P1.database-credentials.password.random', 'Managed database credentials', 'The root password is randomly generated.', [E.credentials], 'untestable: randomness cannot be judged from a few samples'),
  must('P1.database-ssl.fields', 'Managed database CA certificate', 'A CA certificate object has ca_certificate.', [E.ssl]),
  must('P1.database-ssl.types', 'Managed database CA certificate', 'ca_certificate is a string.', [E.ssl]),
  must('P1.database-ssl.ca-certificate.base64', 'Managed database CA certificate', 'ca_certificate is a base64-encoded certificate.', [E.ssl], 'code'),

  // ---------------------------------------------------------------- node types
  must('P1.database-node-type.fields', 'Managed database node type', 'A node type object has class, deprecated, disk, engines, id, label, memory and vcpus.', [E.typesList, E.typeView]),
  must('P1.database-node-type.types', 'Managed database node type', 'class, id and label are strings, deprecated a boolean, disk, memory and vcpus integers, engines an object keyed by engine name whose values are arrays of {price: {hourly number, monthly number}, quantity integer}.', [E.typesList, E.typeView]),
  must('P1.database-node-type.engines.members', 'Managed database node type', 'Each engines entry has price (with hourly and monthly) and quantity.', [E.typesList, E.typeView]),
  must('P1.database-node-type.deprecated.unavailable', 'Managed database node type', 'A node type with deprecated true is no longer available: creating a cluster with it is rejected.', [E.dbCreate, E.typesList], 'scenario'),
  must('P1.database-node-type.view.page-accepted', 'Managed databases', 'The node type view accepts the page and page_size query parameters.', [E.typeView], 'scenario'),

  // ---------------------------------------------------------------- Account
  must('P1.account.fields', 'Account', 'An account object has active_promotions, active_since, address_1, address_2, balance, balance_uninvoiced, capabilities, city, company, country, credit_card, email, euuid, first_name, last_name, phone, state, tax_id and zip.', ACCOUNT_RETURNING),
  must('P1.account.types', 'Account', 'The account fields have the documented types (active_promotions array of objects, active_since date-time, balance and balance_uninvoiced numbers, capabilities array of strings, credit_card object, the others strings).', ACCOUNT_RETURNING),
  must('P1.account.active-promotions.members', 'Account', 'Each active promotion has credit_monthly_cap, credit_remaining, description, expire_dt, image_url, service_type, summary and this_month_credit_remaining.', ACCOUNT_RETURNING),
  must('P1.account.credit-card.members', 'Account', 'credit_card has expiry and last_four.', ACCOUNT_RETURNING),
  must('P1.account.credit-card.last-four.integer', 'Account', 'credit_card.last_four is an integer.', ACCOUNT_RETURNING),
  must('P1.account.country.iso-3166', 'Account', 'country is a two-letter ISO 3166 code.', [...ACCOUNT_RETURNING]),
  must('P1.account.email.format', 'Account', 'email is an email address.', [...ACCOUNT_RETURNING]),
  must('P1.account.euuid.uuid', 'Account', 'euuid is a UUID.', ACCOUNT_RETURNING),
  must('P1.account.state.us-ca-code', 'Account', 'For US or CA addresses only the two-letter state or province code is accepted (AA, AE or AP for US military addresses).', [...ACCOUNT_RETURNING], 'code'),
  ...ACCOUNT_LIMITS.map(([field, max]) =>
    must(`P1.account.${field.replace(/_/g, '-')}.max-${max}`, 'Account', `${field} has at most ${max} characters.`, [...ACCOUNT_RETURNING])),
  must('P1.account.balance-uninvoiced.estimate', 'Account', 'balance_uninvoiced is an estimate of the current invoice in US dollars that excludes transfer charges.', [E.account], 'untestable: the billing computation is not observable'),
  must('P1.account-update.types', 'Account', 'The update body takes any of active_promotions, address_1, address_2, city, company, country, email, first_name, last_name, phone, state, tax_id, zip with the types of the account resource; other types are rejected.', [E.accountUpdate]),
  must('P1.account-update.any-of', 'Account', 'The account update body may hold any subset of its members.', [E.accountUpdate], 'property'),
  should('P1.account.update.reflected', 'Account', 'inferred: the account object returned by the update shows the values sent.', [E.accountUpdate, E.account], 'scenario'),

  // cancel
  must('P1.account-cancel.types', 'Account', 'comments in the cancel body is an optional string.', [E.cancel]),
  must('P1.account-cancel-result.fields', 'Account', 'Account cancellation returns {survey_link}.', [E.cancel]),
  must('P1.account-cancel-result.types', 'Account', 'survey_link is a string.', [E.cancel]),
  must('P1.account.cancel.charges-balance', 'Account', 'Cancellation tries to charge the card on file for the remaining balance and fails with an error if the charge fails.', [E.cancel], 'scenario', ['destructive']),

  // credit card
  must('P1.credit-card.types', 'Account', 'card_number and cvv are strings, expiry_month and expiry_year integers.', [E.creditCard]),
  must('P1.credit-card.card-number.required', 'Account', 'card_number is required.', [E.creditCard]),
  must('P1.credit-card.cvv.required', 'Account', 'cvv is required.', [E.creditCard]),
  must('P1.credit-card.expiry-month.required', 'Account', 'expiry_month is required.', [E.creditCard]),
  must('P1.credit-card.expiry-year.required', 'Account', 'expiry_year is required.', [E.creditCard]),
  must('P1.credit-card.card-number.digits', 'Account', 'card_number is a digit string, without spaces or dashes.', [E.creditCard]),
  must('P1.credit-card.card-number.min-14', 'Limits', 'card_number has at least 14 characters.', [E.creditCard]),
  must('P1.credit-card.card-number.max-24', 'Limits', 'card_number has at most 24 characters.', [E.creditCard]),
  must('P1.credit-card.cvv.digits', 'Account', 'cvv is a digit string.', [E.creditCard]),
  must('P1.credit-card.cvv.min-3', 'Limits', 'cvv has at least 3 characters.', [E.creditCard]),
  must('P1.credit-card.cvv.max-4', 'Limits', 'cvv has at most 4 characters.', [E.creditCard]),
  must('P1.credit-card.expiry-month.min-1', 'Account', 'expiry_month is at least 1.', [E.creditCard]),
  must('P1.credit-card.expiry-month.max-12', 'Account', 'expiry_month is at most 12.', [E.creditCard]),
  must('P1.credit-card.expiry-year.four-digit', 'Account', 'expiry_year is a four-digit integer.', [E.creditCard]),
  must('P1.credit-card.becomes-default', 'Account', 'Adding a card makes it the default payment method (the account credit_card then shows its last four digits).', [E.creditCard, E.account], 'scenario', ['destructive']),

  // ---------------------------------------------------------------- Entity transfer
  must('P1.entity-transfer.fields', 'Entity transfer (deprecated)', 'A transfer object has created, entities (with computes), expiry, is_sender, status, token and updated.', TRANSFER_RETURNING),
  must('P1.entity-transfer.types', 'Entity transfer (deprecated)', 'created, expiry and updated are date-times, entities.computes an array of integer compute instance IDs, is_sender a boolean, status and token strings.', TRANSFER_RETURNING),
  must('P1.entity-transfer.status.enum', 'Entity transfer status', 'A transfer status is one of accepted, cancelled, completed, failed, pending, stale.', TRANSFER_RETURNING),
  must('P1.entity-transfer.token.uuid', 'Entity transfer (deprecated)', 'token is a UUID.', TRANSFER_RETURNING),
  must('P1.entity-transfer.expiry.created-plus-24h', 'Entity transfer status', 'A transfer expires 24 hours after creation: expiry is created plus 24 hours.', TRANSFER_RETURNING, 'code'),
  should('P1.entity-transfer.expired.accept-rejected', 'Limits', 'inferred: a transfer more than 24 hours old can no longer be accepted.', [E.transferAccept], 'scenario', ['clock', 'destructive']),
  must('P1.entity-transfer.is-sender.creator', 'Entity transfer (deprecated)', 'is_sender is true when the requesting account created the transfer.', [E.transferCreate, E.transferView], 'scenario'),
  must('P1.entity-transfer.token.identifies', 'Entity transfer (deprecated)', 'The token identifies the transfer: view, accept and cancel address it by token.', [E.transferView, E.transferDelete, E.transferAccept], 'scenario'),
  should('P1.entity-transfer.delete.cancels', 'Account', 'DELETE cancels the transfer (inferred: it then shows status cancelled; status meanings are not shown).', [E.transferDelete, E.transferView], 'scenario'),
  must('P1.entity-transfer.accept', 'Account', 'Accept accepts a pending transfer addressed by its token: the request succeeds. What status the transfer shows afterwards is not judged (status meanings and transitions are not shown).', [E.transferAccept], 'scenario', ['destructive']),
  should('P1.entity-transfer.create.pending', 'Entity transfer (deprecated)', 'inferred: a newly created transfer is pending, with is_sender true and entities.computes holding the requested IDs.', [E.transferCreate], 'scenario'),
  must('P1.entity-transfer.status.transitions', 'Entity transfer status', 'Meaning of each transfer status and transitions: not shown.', TRANSFER_RETURNING, 'untestable: not shown'),
  must('P1.entity-transfer-create.types', 'Account', 'entities in the create body is an object whose computes is an array of integers.', [E.transferCreate]),
  must('P1.entity-transfer-create.entities.required', 'Account', 'entities is required in the transfer create body.', [E.transferCreate]),

  // ---------------------------------------------------------------- Event
  must('P1.event.fields', 'Event', 'An event object has action, created, duration, entity, id, message, percent_complete, read, seen, status and username.', EVENT_RETURNING),
  must('P1.event.types', 'Event', 'Event fields, when present, have the documented types (duration number, id integer, read and seen booleans, message, rate and time_remaining string or null, percent_complete integer or null, entity and secondary_entity objects).', EVENT_RETURNING),
  must('P1.event.action.open-enum', 'Events', 'action is a string taking one of the listed values, and new values may be added: an unknown value is not an error.', EVENT_RETURNING),
  must('P1.event.status.enum', 'Event status', 'An event status is one of failed, finished, notification, scheduled, started.', EVENT_RETURNING),
  must('P1.event.entity.members', 'Event', 'entity has id, label, type and url of the affected entity.', EVENT_RETURNING),
  should('P1.event.entity.member-types', 'Event', 'inferred: entity.id is an integer or a string, entity.label a string or null, entity.type and entity.url strings (the document names the members without their types).', EVENT_RETURNING),
  must('P1.event.secondary-entity.members', 'Event', 'secondary_entity has the same members as entity.', EVENT_RETURNING),
  must('P1.event.secondary-entity.id.integer-or-string', 'Event', 'The id of secondary_entity may be a string.', EVENT_RETURNING),
  must('P1.event.secondary-entity.second-entity', 'Event', 'secondary_entity is present for events that involve a second entity.', EVENT_RETURNING, 'untestable: which events involve a second entity is not shown'),
  should('P1.event.percent-complete.range-0-100', 'Event', 'inferred: percent_complete, a progress estimate in percent, is between 0 and 100.', EVENT_RETURNING),
  must('P1.event.rate.some-events', 'Event', 'rate is only given for some events, such as migration and resize.', EVENT_RETURNING, 'untestable: which events carry a rate is not shown'),
  must('P1.event.time-remaining.migration', 'Event', 'time_remaining is only given for some in-progress migration events.', EVENT_RETURNING, 'untestable: which events carry it is not shown'),
  must('P1.events.window-90-days', 'Events', 'Account events cover the last 90 days: the events list holds no event older than 90 days.', [E.events], 'scenario', ['clock']),
  must('P1.events.list.by-grants', 'Account', "Which events the list shows depends on the caller's grants.", [E.events], 'scenario', ['restricted-user', 'grants']),
  must('P1.events.read.marks-one', 'Account', 'POST read marks that one event read (and no other).', [E.eventRead, E.eventView], 'scenario'),
  must('P1.events.seen.marks-up-to-id', 'Account', 'POST seen marks all events up to and including this ID as seen.', [E.eventSeen, E.events], 'scenario'),
  should('P1.events.seen.later-unseen', 'Account', 'inferred: POST seen leaves events with a higher ID as they were.', [E.eventSeen, E.events], 'scenario'),
  must('P1.events.emission', 'Events', 'The firewall operations of document 3 emit firewall_create, firewall_delete, firewall_enable, firewall_disable, firewall_device_add and firewall_device_remove. Which operations emit the other actions is not shown, so no other operation is required to record an event.', [E.events], 'scenario'),
  should('P1.events.emission.instances', 'Events', 'inferred: creating and deleting a compute instance record events naming it (compute_create and compute_delete are actions of the list and events "record actions taken on the account", but which operations emit them is not shown).', [E.events, E.computeCreate], 'scenario'),
  must('P1.event.status.transitions', 'Event status', 'Transitions between event statuses: not shown.', EVENT_RETURNING, 'untestable: not shown'),

  // ---------------------------------------------------------------- Invoice, invoice item
  must('P1.invoice.fields', 'Invoice and invoice item', 'An invoice has date, id, label, subtotal, tax and total.', [E.invoices, E.invoiceView]),
  must('P1.invoice.types', 'Invoice and invoice item', 'date is a date-time, id an integer, label a string, subtotal, tax and total numbers.', [E.invoices, E.invoiceView]),
  should('P1.invoice.total.subtotal-plus-tax', 'Invoice and invoice item', 'inferred: total (after tax) equals subtotal (before tax) plus tax.', [E.invoices, E.invoiceView], 'code'),
  must('P1.invoice-item.fields', 'Invoice and invoice item', 'An invoice item has amount, from, label, quantity, tax, to, total, type and unit_price.', [E.invoiceItems]),
  must('P1.invoice-item.types', 'Invoice and invoice item', 'from and to are date-times, quantity an integer, label and type strings, amount, tax, total and unit_price numbers.', [E.invoiceItems]),
  should('P1.invoice-item.from-not-after-to', 'Invoice and invoice item', 'inferred: an item period runs forward, from is not after to.', [E.invoiceItems], 'code'),

  // ---------------------------------------------------------------- Login
  must('P1.login.fields', 'Login', 'A login has datetime, id, ip, restricted and username.', [E.logins, E.loginView]),
  must('P1.login.types', 'Login', 'datetime is a date-time, id an integer, ip and username strings, restricted a boolean.', [E.logins, E.loginView]),
  must('P1.login.ip.ip-address', 'Login', 'ip is an IP address.', [E.logins, E.loginView]),
  must('P1.login.restricted.meaning', 'Login', 'restricted is true when the user logged into was restricted.', [E.logins, E.loginView], 'untestable: logins happen at {auth_url}, outside the API, and which users are restricted is not readable (users endpoints: not shown)', ['restricted-user']),
  must('P1.logins.window-90-days', 'Limits', 'The login history covers successful logins of the last 90 days.', [E.logins], 'scenario', ['clock']),
  must('P1.logins.all-users', 'Account', 'The logins list holds the successful logins of all users of the account.', [E.logins, E.loginView], 'untestable: logins happen at {auth_url}, outside the API, and the account users are not listable (users endpoints: not shown)', ['restricted-user']),
  must('P1.logins.successful-only', 'Account', 'The login history lists successful logins only.', [E.logins], 'untestable: logins happen at {auth_url}, outside the API'),

  // ---------------------------------------------------------------- Maintenance, notification
  must('P1.maintenance.fields', 'Maintenance', 'A maintenance object has entity, reason, status, type and when.', [E.maintenance]),
  must('P1.maintenance.types', 'Maintenance', 'entity is an object, reason, status and type strings, when a date-time.', [E.maintenance]),
  must('P1.maintenance.entity.members', 'Maintenance', 'entity has id, label, type and url.', [E.maintenance]),
  should('P1.maintenance.entity.member-types', 'Maintenance', 'inferred: entity.label is a string or null, entity.type and entity.url are strings (the document names the members without their types).', [E.maintenance]),
  must('P1.maintenance.entity.compute-only', 'Maintenance', 'Only compute instances appear as maintenance entities.', [E.maintenance], 'scenario'),
  must('P1.maintenance.list.viewable-entities', 'Account', 'The maintenance list holds maintenance objects for entities the caller may view.', [E.maintenance], 'scenario', ['restricted-user', 'grants']),
  must('P1.notification.fields', 'Notification', 'A notification has body, entity, label, message, severity, type, until and when.', [E.notifications]),
  must('P1.notification.types', 'Notification', 'body is a string or null, entity an object, label, message, severity and type strings, until and when date-times or null.', [E.notifications]),
  must('P1.notification.entity.members', 'Notification', 'entity has id, label, type and url.', [E.notifications]),
  should('P1.notification.entity.member-types', 'Notification', 'inferred: entity.label is a string or null, entity.type and entity.url are strings (the document names the members without their types).', [E.notifications]),
  must('P1.notification.read-only', 'Notification', 'Notifications are read only and disappear when their cause is resolved.', [E.notifications], 'untestable: the causes of notifications cannot be produced or resolved from outside'),

  // ---------------------------------------------------------------- OAuth client
  must('P1.oauth-client.fields', 'OAuth client', 'An OAuth client has id, label, public, redirect_uri, secret, status and thumbnail_url.', CLIENT_RETURNING),
  must('P1.oauth-client.types', 'OAuth client', 'id, label, redirect_uri, secret and status are strings, public a boolean, thumbnail_url a string or null.', CLIENT_RETURNING),
  must('P1.oauth-client.label.min-1', 'OAuth client', 'A client label has at least 1 character.', [...CLIENT_RETURNING]),
  must('P1.oauth-client.label.max-512', 'OAuth client', 'A client label has at most 512 characters.', [...CLIENT_RETURNING]),
  must('P1.oauth-client.redirect-uri.url', 'OAuth client', 'redirect_uri is a URL.', [...CLIENT_RETURNING]),
  must('P1.oauth-client.thumbnail-url.url-or-null', 'OAuth client', 'thumbnail_url is a URL or null.', CLIENT_RETURNING),
  must('P1.oauth-client.status.enum', 'OAuth client status', 'A client status is one of active, disabled, suspended.', CLIENT_RETURNING),
  must('P1.oauth-client.delete.invalidates', 'OAuth client status', 'Deleting a client invalidates all tokens issued to it and stops {auth_url} from accepting its ID and secret.', [E.clientDelete], 'scenario'),
  must('P1.oauth-client.redirect-uri.exchange-code', 'OAuth client', 'redirect_uri is where a successful login at {auth_url} is redirected and must accept an OAuth exchange code.', [E.clientCreate], 'untestable: the exchange is not shown'),
  must('P1.oauth-client.public.workflow', 'OAuth client', 'Public clients use a different authentication workflow.', [E.clientCreate, E.clientUpdate], 'untestable: the authentication workflows at {auth_url} are not shown'),
  must('P1.oauth-client-create.types', 'Account', 'label and redirect_uri of the create body are strings, public a boolean.', [E.clientCreate]),
  must('P1.oauth-client-create.label.required', 'Account', 'label is required in the client create body.', [E.clientCreate]),
  must('P1.oauth-client-create.redirect-uri.required', 'Account', 'redirect_uri is required in the client create body.', [E.clientCreate]),
  must('P1.oauth-client-update.types', 'Account', 'label, public and redirect_uri of the update body are optional, with the types of the create body.', [E.clientUpdate]),
  should('P1.oauth-client.write.reflected', 'Account', 'inferred: the client returned by create and update shows the label, public and redirect_uri sent.', [E.clientCreate, E.clientUpdate], 'scenario'),

  // ---------------------------------------------------------------- Authentication
  must('P1.auth.bearer-header', 'Authentication', 'Authenticated requests carry the header Authorization: Bearer <ACCESS_TOKEN>: a valid token sent that way authenticates the request.', [], 'scenario'),
  should('P1.auth.bearer-only', 'Authentication', 'inferred: a token sent in Authorization without the Bearer scheme is refused (the documents show only the Bearer form; accepting another is not forbidden).', [], 'scenario'),
  must('P1.auth.token-kinds', 'Authentication', 'Two token kinds are accepted: a personal access token and an OAuth token.', [], 'scenario', ['scoped-token']),
  must('P1.auth.oauth.scope-required', 'Authentication', "An OAuth token must carry the scope named in each endpoint's table.", [], 'scenario', ['scoped-token']),
  must('P1.auth.scope.form', 'Authentication', 'Scopes have the form <area>:read_only or <area>:read_write (ips:read for the IPv6 range view).', [], 'untestable: scopes are properties of tokens issued outside the API'),
  must('P1.auth.scope.several-all-needed', 'Authentication', 'Operations that need several scopes (listed comma-separated) need all of them.', [], 'scenario', ['scoped-token']),
  must('P1.auth.scope.read-write-changes', 'Authentication', 'A read_write scope is required for operations that change data; read_only for reads.', [], 'scenario', ['scoped-token']),
  must('P1.auth.restricted.login-history', 'Authentication', 'The login history is for unrestricted users only.', [E.logins, E.loginView], 'scenario', ['restricted-user']),
  must('P1.auth.restricted.cannot-cancel', 'Authentication', 'Restricted users cannot cancel the account.', [E.cancel], 'scenario', ['restricted-user']),
  must('P1.auth.grants.gate', 'Authentication', 'Grants gate some operations, for example add_computes to create or clone instances.', [E.computeCreate, E.computeClone], 'scenario', ['restricted-user', 'grants']),
  must('P1.auth.oauth-clients.exchange', 'Authentication', 'OAuth clients let other applications sign users in at {auth_url} and receive an exchange code at the redirect_uri.', [], 'untestable: the exchange and token issuance are not shown'),

  // ---------------------------------------------------------------- Errors
  must('P1.errors.body.object', 'Errors', 'An error response body is an object with errors.', []),
  must('P1.errors.body.errors', 'Errors', 'errors is an array of objects.', []),
  must('P1.errors.body.reason', 'Errors', 'Each error has reason, a string.', []),
  must('P1.errors.body.field', 'Errors', 'field, when given, is a string (the request field at fault) or null.', []),
  must('P1.errors.field.dot-path', 'Errors', 'The field of an error about a nested field is a dot-separated path (e.g. updates.hour_of_day).', [E.dbUpdate], 'scenario', ['long-wait']),
  must('P1.errors.reason.weak-password', 'Errors', 'A root password that is too weak yields a reason that says it does not meet the strength requirement.', [E.computeCreate], 'scenario'),
  must('P1.errors.reason.cancel-charge-failed', 'Errors', 'Account cancellation fails with a reason (no field) that the card could not be charged and the balance must be paid first.', [E.cancel], 'scenario', ['destructive']),
  must('P1.errors.clone.sixth-concurrent-400', 'Errors', 'Starting more than five concurrent clones of one source yields HTTP 400.', [E.computeClone], 'scenario', ['long-wait']),
  must('P1.errors.preconditions', 'Errors', 'Failed preconditions (required status, grants, mutually exclusive fields, missing required fields) produce an error response.', [], 'scenario'),

  // ---------------------------------------------------------------- Versioning
  must('P1.versioning.v4-prefix', 'Versioning', 'The version is the first path segment: /v4. The API answers under it.', [], 'scenario'),
  should('P1.versioning.unversioned-not-served', 'Versioning', 'inferred: a path without the version as its first segment is not served as the API (that nothing else answers is not stated).', [], 'scenario'),
  must('P1.versioning.description-4-123-1', 'Versioning', 'The description these rules follow is numbered 4.123.1.', [], 'untestable: the description version is not exposed by the API'),
  must('P1.versioning.beta-breaking', 'Versioning', 'Endpoints in beta use the prefix /v4beta and may receive breaking changes.', [E.maintenance], 'untestable: future changes'),
  must('P1.versioning.deprecated-marked', 'Versioning', 'Deprecated operations are marked in the endpoint tables with their replacements.', [E.creditCard, E.transfers, E.transferCreate, E.transferView, E.transferDelete, E.transferAccept], 'untestable: a property of the documents, not of the service'),
  must('P1.versioning.event-actions-grow', 'Versioning', 'New event action values may be added in the future.', EVENT_RETURNING, 'untestable: a statement about future versions; its present consequence (an unknown action is accepted) is P1.event.action.open-enum'),
];
