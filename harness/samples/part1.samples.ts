// Document 1 (common rules, managed databases, account): one valid value per schema with every optional member,
// and cases as data. Values follow the document's own examples where it shows some (`<engine>/<version>` ids,
// zone-less date-times, `/32` allow_list addresses); the rest are plausible values chosen so that a single-member
// mutation breaks only the mutated constraint (e.g. the account is in DE, so the US/CA state rule stays quiet).

const mysqlCluster = {
  allow_list: ['203.0.113.1/32', '192.0.2.0/24', '2001:db8::/64'],
  cluster_size: 3,
  created: '2021-09-15T17:15:45',
  encrypted: false,
  engine: 'mysql',
  hosts: { primary: 'lin-123-456-mysql-primary.servers.example.net', secondary: 'lin-123-456-mysql-primary-private.servers.example.net' },
  id: 123,
  label: 'example-db',
  port: 3306,
  region: 'us-east',
  replication_type: 'semi_synch',
  ssl_connection: true,
  status: 'active',
  type: 'g6-dedicated-2',
  updated: '2021-09-15T17:15:45',
  updates: { frequency: 'weekly', duration: 3, hour_of_day: 20, day_of_week: 7, week_of_month: 1 },
  version: '8.0.26',
};
const genericCluster = { ...mysqlCluster, instance_uri: '/v4/databases/mysql/instances/123' };

const account = {
  active_promotions: [
    {
      credit_monthly_cap: '10.00',
      credit_remaining: '50.00',
      description: 'Receive up to $10 off your services every month for 6 months.',
      expire_dt: '2018-01-31T23:59:59',
      image_url: 'https://example.com/promo.png',
      service_type: 'all',
      summary: '$10 off your bill every month',
      this_month_credit_remaining: '10.00',
    },
  ],
  active_since: '2018-01-01T00:01:01',
  address_1: '123 Main Street',
  address_2: 'Suite A',
  balance: 200,
  balance_uninvoiced: 145,
  capabilities: ['Databases', 'Compute Instances', 'Block Storage'],
  city: 'Munich',
  company: 'Example Ltd',
  country: 'DE',
  credit_card: { expiry: '11/2030', last_four: 1111 },
  email: 'jsmith@example.com',
  euuid: 'e1d0e58b-f89f-4237-84ab-b82077342359',
  first_name: 'John',
  last_name: 'Smith',
  phone: '215-555-1212',
  state: 'Bavaria',
  tax_id: 'ATU99999999',
  zip: '80331',
};
const { active_since: _since, balance: _b, balance_uninvoiced: _bu, capabilities: _c, credit_card: _cc, euuid: _e, ...accountUpdate } = account;

const transfer = {
  created: '2021-02-11T16:37:03',
  entities: { computes: [111, 222] },
  expiry: '2021-02-12T16:37:03',
  is_sender: true,
  status: 'pending',
  token: '123e4567-e89b-12d3-a456-426614174000',
  updated: '2021-02-11T16:37:03',
};

const entity = { id: 11111, label: 'my-compute', type: 'compute', url: '/v4/compute/instances/11111' };
const event = {
  action: 'compute_migrate_datacenter',
  created: '2018-01-01T00:01:01',
  duration: 300.56,
  entity,
  id: 123,
  message: 'None',
  percent_complete: 50,
  rate: '200 MB/s',
  read: true,
  secondary_entity: { id: 'compute/g6-standard-1', label: 'Standard 2GB', type: 'compute', url: '/v4/compute/types/g6-standard-1' },
  seen: true,
  status: 'started',
  time_remaining: '00:10:00',
  username: 'exampleUser',
};

const invoice = { date: '2018-01-01T00:01:01', id: 123, label: 'Invoice', subtotal: 120.25, tax: 12.25, total: 132.5 };
const invoiceItem = {
  amount: 20.2,
  from: '2018-01-01T00:01:01',
  label: 'Compute 2GB - my-compute',
  quantity: 4,
  tax: 1.25,
  to: '2018-01-31T11:59:59',
  total: 21.45,
  type: 'hourly',
  unit_price: 5.05,
};
const oauthClient = {
  id: '2737bf16b39ab5d7b4a1',
  label: 'Test_Client_1',
  public: false,
  redirect_uri: 'https://example.org/oauth/callback',
  secret: '<REDACTED>',
  status: 'active',
  thumbnail_url: 'https://example.org/thumbnails/test.png',
};

export const samples: Record<string, unknown[]> = {
  'resources/database-engine': [{ engine: 'mysql', id: 'mysql/8.0.26', version: '8.0.26' }],
  'resources/database-cluster-mysql': [mysqlCluster],
  'resources/database-cluster-generic': [genericCluster],
  'resources/database-backup': [
    { created: '2022-01-01T00:01:01', id: 123, label: 'Scheduled - 02/04/22 11:11 UTC-XcCRmI', type: 'auto' },
    { created: '2022-01-02T10:00:00', id: 124, label: 'before-upgrade', type: 'snapshot' },
  ],
  'resources/database-credentials': [{ username: 'root', password: 's3cur3P@ssw0rd' }],
  'resources/database-ssl': [{ ca_certificate: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCi4uLgotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==' }],
  'resources/database-node-type': [
    {
      class: 'standard',
      deprecated: false,
      disk: 25600,
      id: 'g6-standard-1',
      label: 'Standard 2GB',
      memory: 2048,
      vcpus: 1,
      engines: {
        mysql: [
          { price: { hourly: 0.03, monthly: 20 }, quantity: 1 },
          { price: { hourly: 0.08, monthly: 50 }, quantity: 3 },
        ],
      },
    },
  ],
  'resources/account': [account],
  'resources/entity-transfer': [transfer],
  'resources/event': [event],
  'resources/invoice': [invoice],
  'resources/invoice-item': [invoiceItem],
  'resources/login': [
    { datetime: '2018-01-01T00:01:01', id: 1234, ip: '192.0.2.0', restricted: true, username: 'example_user' },
    { datetime: '2018-01-01T00:01:01', id: 1235, ip: '2001:db8::1', restricted: false, username: 'example_user' },
  ],
  'resources/maintenance': [
    {
      entity: { ...entity, type: 'compute' },
      reason: 'This maintenance will allow us to update the BIOS on the host.',
      status: 'started',
      type: 'reboot',
      when: '2020-07-09T00:01:01',
    },
  ],
  'resources/notification': [
    {
      body: null,
      entity: { ...entity },
      label: 'You have an important ticket open!',
      message: 'You have an important ticket open!',
      severity: 'major',
      type: 'ticket_important',
      until: '2018-01-31T23:59:59',
      when: '2018-01-01T00:01:01',
    },
  ],
  'resources/oauth-client': [oauthClient, { ...oauthClient, public: true, status: 'disabled', thumbnail_url: null }],
  'resources/account-cancel-result': [{ survey_link: 'https://example.com/survey' }],
  'requests/database-create': [
    {
      allow_list: ['203.0.113.1', '192.0.1.0/24'],
      cluster_size: 3,
      encrypted: false,
      engine: 'mysql/8.0.26',
      label: 'example-db',
      region: 'us-east',
      replication_type: 'semi_synch',
      ssl_connection: true,
      type: 'g6-dedicated-2',
    },
  ],
  'requests/database-update': [
    {
      allow_list: ['203.0.113.1', '192.0.1.0/24'],
      label: 'example-db',
      updates: { frequency: 'weekly', duration: 3, hour_of_day: 20, day_of_week: 7, week_of_month: 1 },
    },
  ],
  'requests/database-snapshot-create': [{ label: 'db-snapshot', target: 'primary' }],
  'requests/account-update': [accountUpdate],
  'requests/account-cancel': [{ comments: "I'm consolidating my accounts." }],
  'requests/credit-card': [{ card_number: '4111111111111111', cvv: '123', expiry_month: 6, expiry_year: 2030 }],
  'requests/entity-transfer-create': [{ entities: { computes: [111, 222] } }],
  'requests/oauth-client-create': [{ label: 'Test_Client_1', public: false, redirect_uri: 'https://example.org/oauth/callback' }],
  'requests/oauth-client-update': [{ label: 'Test_Client_1', public: true, redirect_uri: 'https://example.org/oauth/callback' }],
};

type Case = { schema: string; value: unknown; valid: true; note: string } | { schema: string; value: unknown; rule: string; note: string };

const without = <T extends Record<string, unknown>>(value: T, ...keys: string[]) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
const ok = (schema: string, value: unknown, note: string): Case => ({ schema, value, valid: true, note });
const bad = (schema: string, value: unknown, rule: string, note: string): Case => ({ schema, value, rule, note });

const M = 'resources/database-cluster-mysql';
const G = 'resources/database-cluster-generic';
const C = 'requests/database-create';
const U = 'requests/database-update';

export const cases: Case[] = [
  // ---- date-time (format via common defs)
  ok('resources/database-backup', { created: '2018-01-01T00:01:01', id: 1, label: 'x', type: 'auto' }, 'zone-less date-time as in the samples'),
  ok('resources/database-backup', { created: '2018-01-01T00:01:01Z', id: 1, label: 'x', type: 'auto' }, 'date-time with a zone is not rejected'),
  bad(
    'resources/database-backup',
    { created: '2018-01-01', id: 1, label: 'x', type: 'auto' },
    'P1.conventions.date-time',
    'a date without time is not a combined date and time',
  ),
  bad('resources/database-backup', { created: 'yesterday', id: 1, label: 'x', type: 'auto' }, 'P1.conventions.date-time', 'not a date-time'),
  ok('resources/notification', { ...(samples['resources/notification']![0] as object), until: null, when: null }, 'until and when may be null'),
  bad(
    'resources/notification',
    { ...(samples['resources/notification']![0] as object), until: 'soon' },
    'P1.conventions.date-time',
    'until, when not null, is a date-time',
  ),

  // ---- engine id pattern and x-check
  ok('resources/database-engine', { engine: 'mysql', id: 'mysql/5.7.30', version: '5.7.30' }, 'id <engine>/<version>'),
  bad('resources/database-engine', { engine: 'mysql', id: 'mysql', version: '8.0.26' }, 'P1.database-engine.id.engine-version-form', 'id without a version'),
  bad(
    'resources/database-engine',
    { engine: 'mysql', id: 'mysql/8.0/26', version: '8.0/26' },
    'P1.database-engine.id.engine-version-form',
    'id with two slashes',
  ),
  bad(
    'resources/database-engine',
    { engine: 'mysql', id: 'mysql/5.7.30', version: '8.0.26' },
    'P1.database-engine.id.matches-engine-version',
    'id does not join its own engine and version',
  ),
  bad('resources/database-engine', { engine: 'mysql', id: 'mysql/8.0.26' }, 'P1.database-engine.fields', 'version missing'),

  // ---- cluster: engine type only, allow_list, conditionals, projections
  ok(M, mysqlCluster, 'the full MySQL projection'),
  bad(M, { ...mysqlCluster, engine: 'mysql/8.0.26' }, 'P1.database.engine.type-only', 'engine of a cluster is the type only'),
  ok(M, { ...mysqlCluster, allow_list: [] }, 'an empty allow_list (blocks everything)'),
  ok(M, { ...mysqlCluster, allow_list: ['203.0.113.1/32'] }, 'single address shown with /32'),
  ok(M, { ...mysqlCluster, allow_list: ['2001:db8::1'] }, 'a bare IPv6 address is not judged (the documents only speak of /32)'),
  bad(M, { ...mysqlCluster, allow_list: ['203.0.113.1'] }, 'P1.database.allow-list.slash-32', 'a single IPv4 address without /32 in a response'),
  bad(M, { ...mysqlCluster, allow_list: ['not-an-ip'] }, 'P1.database.allow-list.ip-or-cidr', 'neither an address nor a CIDR range'),
  bad(M, { ...mysqlCluster, allow_list: ['300.1.1.1/32'] }, 'P1.database.allow-list.ip-or-cidr', 'an octet above 255'),
  bad(M, { ...mysqlCluster, allow_list: ['10.0.0.0/33'] }, 'P1.database.allow-list.ip-or-cidr', 'an IPv4 mask above 32'),
  bad(
    M,
    { ...mysqlCluster, instance_uri: '/v4/databases/mysql/instances/123' },
    'P1.database.instance-uri.generic-only',
    'instance_uri only in the generic list',
  ),
  bad(M, without(mysqlCluster, 'updates'), 'P1.database.fields.mysql-projection', 'updates belongs to the MySQL projection'),
  bad(M, without(mysqlCluster, 'port'), 'P1.database.fields.mysql-projection', 'port belongs to the MySQL projection'),
  bad(M, without(mysqlCluster, 'label'), 'P1.database.fields', 'label is a field of every cluster'),
  ok(M, { ...without(mysqlCluster, 'hosts'), status: 'provisioning' }, 'hosts are assigned after provisioning completes: absent while provisioning'),
  ok(M, { ...mysqlCluster, status: 'provisioning', hosts: { primary: null, secondary: null } }, 'hosts not yet assigned while provisioning'),
  bad(M, without(mysqlCluster, 'hosts'), 'P1.database.hosts.assigned-after-provisioning', 'an active cluster has hosts'),
  bad(
    M,
    { ...mysqlCluster, hosts: { primary: null, secondary: null } },
    'P1.database.hosts.assigned-after-provisioning',
    'an active cluster has hosts.primary',
  ),
  ok(M, { ...mysqlCluster, cluster_size: 1, hosts: { primary: 'db.example.net' } }, 'single-node cluster: secondary not required'),
  bad(M, { ...mysqlCluster, cluster_size: 2 }, 'P1.database.cluster-size.enum', 'cluster_size 1 or 3'),
  bad(M, { ...mysqlCluster, replication_type: 'sync' }, 'P1.database.replication-type.enum', 'replication_type enum'),
  bad(M, { ...mysqlCluster, status: 'deleted' }, 'P1.database.status.enum', 'status enum'),
  ok(M, { ...mysqlCluster, updates: { ...mysqlCluster.updates, frequency: null } }, 'updates.frequency may be null'),
  bad(
    M,
    { ...mysqlCluster, updates: { ...mysqlCluster.updates, hour_of_day: '20' } },
    'P1.database.updates.types',
    'updates members other than frequency are integers',
  ),
  bad(M, { ...mysqlCluster, updates: without(mysqlCluster.updates, 'week_of_month') }, 'P1.database.updates.members', 'updates has its five members'),
  bad(M, { ...mysqlCluster, port: 70000 }, 'P1.database.port.tcp-range', 'port above 65535'),
  bad(M, { ...mysqlCluster, label: 'db' }, 'P1.database.label.min-3', 'label of 2 characters'),
  bad(M, { ...mysqlCluster, encrypted: 'no' }, 'P1.database.types', 'encrypted is a boolean'),
  ok(G, genericCluster, 'the generic projection'),
  ok(G, { ...without(genericCluster, 'port', 'replication_type', 'ssl_connection', 'updates') }, 'the generic projection need not carry the MySQL-only fields'),
  ok(G, { ...genericCluster, instance_uri: 'https://api.example.com/v4/databases/mysql/instances/123' }, 'instance_uri as an absolute URL of the view path'),
  bad(G, without(genericCluster, 'instance_uri'), 'P1.database.fields.generic-projection', 'instance_uri is in the generic list'),
  bad(G, { ...genericCluster, instance_uri: '/v4/databases/mysql/instances/999' }, 'P1.database.instance-uri.own-view-path', 'instance_uri of another cluster'),
  bad(
    G,
    { ...genericCluster, instance_uri: '/v4/databases/postgresql/instances/123' },
    'P1.database.instance-uri.own-view-path',
    'instance_uri under another engine',
  ),
  bad(G, { ...genericCluster, allow_list: ['192.0.2.7'] }, 'P1.database.allow-list.slash-32', 'generic list shows single addresses with /32 too'),

  // ---- create / update bodies
  ok(C, { engine: 'mysql/8.0.26', label: 'abc', region: 'us-east', type: 'g6-dedicated-2' }, 'required members only'),
  ok(
    C,
    { ...(samples[C]![0] as object), allow_list: ['203.0.113.1/32', '2001:db8::1', '2001:db8::/32'] },
    'request allow_list: bare addresses and CIDR ranges',
  ),
  bad(C, { ...(samples[C]![0] as object), allow_list: ['203.0.113.300'] }, 'P1.database.allow-list.ip-or-cidr', 'request allow_list item not an address'),
  bad(C, { ...(samples[C]![0] as object), engine: 'mysql' }, 'P1.database-create.engine.engine-version-form', 'engine without version'),
  bad(C, without(samples[C]![0] as Record<string, unknown>, 'engine'), 'P1.database-create.engine.required', 'engine required'),
  bad(C, without(samples[C]![0] as Record<string, unknown>, 'label'), 'P1.database-create.label.required', 'label required'),
  bad(C, without(samples[C]![0] as Record<string, unknown>, 'region'), 'P1.database-create.region.required', 'region required'),
  bad(C, without(samples[C]![0] as Record<string, unknown>, 'type'), 'P1.database-create.type.required', 'type required'),
  bad(C, { ...(samples[C]![0] as object), label: 'x'.repeat(33) }, 'P1.database.label.max-32', 'label of 33 characters'),
  bad(C, { ...(samples[C]![0] as object), cluster_size: 2 }, 'P1.database.cluster-size.enum', 'cluster_size 2'),
  bad(C, { ...(samples[C]![0] as object), ssl_connection: 'true' }, 'P1.database-create.types', 'ssl_connection is a boolean'),
  ok(U, {}, 'all members of the update body are optional'),
  bad(U, { label: 'ab' }, 'P1.database.label.min-3', 'label of 2 characters in the update body'),
  bad(U, { updates: { duration: 'three' } }, 'P1.database.updates.types', 'updates member types in the update body'),
  ok(U, { updates: { frequency: null } }, 'frequency may be null in the update body'),
  bad(U, { allow_list: '203.0.113.1' }, 'P1.database-update.types', 'allow_list is an array'),
  ok('requests/database-snapshot-create', { label: 'abc' }, 'target optional'),
  bad('requests/database-snapshot-create', { target: 'primary' }, 'P1.database-snapshot-create.label.required', 'label required'),
  bad('requests/database-snapshot-create', { label: 'x'.repeat(65) }, 'P1.database-snapshot.label.max-64', 'snapshot label of 65 characters'),
  bad('requests/database-snapshot-create', { label: 'db-snapshot', target: 'replica' }, 'P1.database-snapshot.target.enum', 'target primary or secondary'),

  // ---- backups, credentials, ssl, node types
  bad(
    'resources/database-backup',
    { created: '2022-01-01T00:01:01', id: 1, label: 'x', type: 'manual' },
    'P1.database-backup.type.enum',
    'type snapshot or auto',
  ),
  bad('resources/database-credentials', { username: 'root' }, 'P1.database-credentials.fields', 'password missing'),
  ok('resources/database-ssl', { ca_certificate: 'LS0tLS1CRUdJTiBD\nRVJUSUZJQ0FURS0t\n' }, 'base64 with line breaks'),
  ok(
    'resources/database-ssl',
    { ca_certificate: '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n' },
    'PEM text: base64 in its armour',
  ),
  bad('resources/database-ssl', { ca_certificate: '-----BEGIN CERTIFICATE-----' }, 'P1.database-ssl.ca-certificate.base64', 'a PEM header alone is not base64'),
  bad('resources/database-ssl', { ca_certificate: '30:82:01:b3:30:82' }, 'P1.database-ssl.ca-certificate.base64', 'colon-separated hex is not base64'),
  bad('resources/database-ssl', { ca_certificate: 'abc' }, 'P1.database-ssl.ca-certificate.base64', 'base64 length is a multiple of 4'),
  bad('resources/database-ssl', { ca_certificate: '' }, 'P1.database-ssl.ca-certificate.base64', 'an empty certificate'),
  bad(
    'resources/database-node-type',
    { ...(samples['resources/database-node-type']![0] as object), engines: { mysql: [{ price: { hourly: 0.03 }, quantity: 1 }] } },
    'P1.database-node-type.engines.members',
    'price without monthly',
  ),
  bad(
    'resources/database-node-type',
    { ...(samples['resources/database-node-type']![0] as object), engines: { mysql: [{ price: { hourly: 0.03, monthly: 20 }, quantity: '1' }] } },
    'P1.database-node-type.types',
    'quantity is an integer',
  ),

  // ---- account
  ok('resources/account', { ...account, country: 'US', state: 'NY' }, 'US address with a two-letter state code'),
  ok('resources/account', { ...account, country: 'US', state: 'AE' }, 'US military address AE'),
  ok('resources/account', { ...account, country: 'CA', state: 'ON' }, 'CA address with a province code'),
  bad('resources/account', { ...account, country: 'US', state: 'New York' }, 'P1.account.state.us-ca-code', 'US address with a state name'),
  bad('resources/account', { ...account, country: 'CA', state: 'Ontario' }, 'P1.account.state.us-ca-code', 'CA address with a province name'),
  bad('resources/account', { ...account, country: 'US', state: 'ny' }, 'P1.account.state.us-ca-code', 'state codes are capitals'),
  ok('resources/account', { ...account, country: 'GB', state: 'Greater London' }, 'outside US/CA the province is free text'),
  bad('resources/account', { ...account, country: 'USA' }, 'P1.account.country.iso-3166', 'three letters'),
  bad('resources/account', { ...account, country: 'de' }, 'P1.account.country.iso-3166', 'ISO 3166 codes are capitals'),
  bad('resources/account', { ...account, euuid: 'E1D0E58B-F89F-4237' }, 'P1.account.euuid.uuid', 'not a UUID'),
  bad('resources/account', { ...account, email: 'not-an-email' }, 'P1.account.email.format', 'not an email address'),
  bad(
    'resources/account',
    { ...account, credit_card: { expiry: '11/2030', last_four: '1111' } },
    'P1.account.credit-card.last-four.integer',
    'last_four is an integer',
  ),
  bad('resources/account', { ...account, credit_card: { expiry: '11/2030' } }, 'P1.account.credit-card.members', 'credit_card has last_four'),
  bad('resources/account', without(account, 'euuid'), 'P1.account.fields', 'euuid missing'),
  bad(
    'resources/account',
    { ...account, active_promotions: [without(account.active_promotions[0]!, 'summary')] },
    'P1.account.active-promotions.members',
    'promotion without summary',
  ),
  bad(
    'resources/account',
    { ...account, active_promotions: [{ ...account.active_promotions[0], expire_dt: '31/01/2018' }] },
    'P1.conventions.date-time',
    'expire_dt is a date-time',
  ),
  bad('resources/account', { ...account, tax_id: 'x'.repeat(101) }, 'P1.account.tax-id.max-100', 'tax_id of 101 characters'),
  bad('resources/account', { ...account, balance: '200' }, 'P1.account.types', 'balance is a number'),
  ok('requests/account-update', {}, 'any subset of the members'),
  ok('requests/account-update', { state: 'Texas' }, 'state alone: the country is not in the body, nothing to judge'),
  ok('requests/account-update', { country: 'US', state: 'TX' }, 'US with a state code'),
  bad('requests/account-update', { country: 'US', state: 'Texas' }, 'P1.account.state.us-ca-code', 'US with a state name'),
  bad('requests/account-update', { city: 'x'.repeat(25) }, 'P1.account.city.max-24', 'city of 25 characters'),
  bad('requests/account-update', { email: 'jsmith-at-example.com' }, 'P1.account.email.format', 'not an email address'),
  bad('requests/account-update', { country: 'Germany' }, 'P1.account.country.iso-3166', 'a country name'),
  ok('requests/account-cancel', {}, 'comments optional'),
  bad('requests/account-cancel', { comments: 42 }, 'P1.account-cancel.types', 'comments is a string'),
  bad('resources/account-cancel-result', {}, 'P1.account-cancel-result.fields', 'survey_link missing'),

  // ---- credit card
  bad(
    'requests/credit-card',
    { card_number: '4111 1111 1111 1111', cvv: '123', expiry_month: 6, expiry_year: 2030 },
    'P1.credit-card.card-number.digits',
    'spaces',
  ),
  bad(
    'requests/credit-card',
    { card_number: '4111-1111-1111-1111', cvv: '123', expiry_month: 6, expiry_year: 2030 },
    'P1.credit-card.card-number.digits',
    'dashes',
  ),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111', cvv: '123', expiry_month: 6, expiry_year: 2030 },
    'P1.credit-card.card-number.min-14',
    '13 digits',
  ),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111111', cvv: '12a', expiry_month: 6, expiry_year: 2030 },
    'P1.credit-card.cvv.digits',
    'cvv with a letter',
  ),
  ok('requests/credit-card', { card_number: '41111111111111', cvv: '1234', expiry_month: 1, expiry_year: 2030 }, '14 digits, 4-digit cvv, month 1'),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111111', cvv: '123', expiry_month: 13, expiry_year: 2030 },
    'P1.credit-card.expiry-month.max-12',
    'month 13',
  ),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111111', cvv: '123', expiry_month: 6, expiry_year: 30 },
    'P1.credit-card.expiry-year.four-digit',
    'two-digit year',
  ),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111111', cvv: '123', expiry_month: 6, expiry_year: 20300 },
    'P1.credit-card.expiry-year.four-digit',
    'five-digit year',
  ),
  bad('requests/credit-card', { cvv: '123', expiry_month: 6, expiry_year: 2030 }, 'P1.credit-card.card-number.required', 'card_number required'),
  bad('requests/credit-card', { card_number: '4111111111111111', expiry_month: 6, expiry_year: 2030 }, 'P1.credit-card.cvv.required', 'cvv required'),
  bad(
    'requests/credit-card',
    { card_number: '4111111111111111', cvv: '123', expiry_year: 2030 },
    'P1.credit-card.expiry-month.required',
    'expiry_month required',
  ),
  bad('requests/credit-card', { card_number: '4111111111111111', cvv: '123', expiry_month: 6 }, 'P1.credit-card.expiry-year.required', 'expiry_year required'),
  bad(
    'requests/credit-card',
    { card_number: 4111111111111111, cvv: '123', expiry_month: 6, expiry_year: 2030 },
    'P1.credit-card.types',
    'card_number is a string',
  ),

  // ---- entity transfer
  ok('resources/entity-transfer', { ...transfer, created: '2021-02-11T16:37:03Z', expiry: '2021-02-12T16:37:03Z' }, 'zoned date-times, 24 hours apart'),
  ok('resources/entity-transfer', { ...transfer, expiry: '2021-02-12T16:37:04' }, 'one second of rounding tolerated'),
  bad('resources/entity-transfer', { ...transfer, expiry: '2021-02-13T16:37:03' }, 'P1.entity-transfer.expiry.created-plus-24h', '48 hours after creation'),
  bad('resources/entity-transfer', { ...transfer, expiry: '2021-02-12T15:37:03' }, 'P1.entity-transfer.expiry.created-plus-24h', '23 hours after creation'),
  bad('resources/entity-transfer', { ...transfer, token: 'not-a-uuid' }, 'P1.entity-transfer.token.uuid', 'token is a UUID'),
  bad('resources/entity-transfer', { ...transfer, status: 'expired' }, 'P1.entity-transfer.status.enum', 'status enum'),
  bad('resources/entity-transfer', { ...transfer, entities: { computes: ['111'] } }, 'P1.entity-transfer.types', 'compute IDs are integers'),
  bad('resources/entity-transfer', { ...transfer, entities: {} }, 'P1.entity-transfer.fields', 'entities has computes'),
  bad('requests/entity-transfer-create', {}, 'P1.entity-transfer-create.entities.required', 'entities required'),
  bad('requests/entity-transfer-create', { entities: { computes: [1.5] } }, 'P1.entity-transfer-create.types', 'compute IDs are integers'),

  // ---- event
  ok('resources/event', { ...event, action: 'some_future_action' }, 'new action values may be added: an unknown action is accepted'),
  ok('resources/event', without(event, 'rate', 'time_remaining', 'secondary_entity'), 'conditional fields absent'),
  ok('resources/event', { ...event, secondary_entity: null, rate: null, time_remaining: null, message: null, percent_complete: null }, 'nullable fields null'),
  ok(
    'resources/event',
    { ...event, secondary_entity: { id: 222, label: 'other', type: 'compute', url: '/v4/compute/instances/222' } },
    'secondary_entity id as an integer',
  ),
  bad(
    'resources/event',
    { ...event, secondary_entity: { ...event.secondary_entity, id: true } },
    'P1.event.secondary-entity.id.integer-or-string',
    'secondary_entity id neither integer nor string',
  ),
  bad(
    'resources/event',
    { ...event, secondary_entity: without(event.secondary_entity, 'url') },
    'P1.event.secondary-entity.members',
    'secondary_entity has the members of entity',
  ),
  bad('resources/event', { ...event, entity: { ...entity, id: 1.5 } }, 'P1.event.entity.member-types', 'entity id is an integer or a string'),
  bad('resources/event', { ...event, entity: without(entity, 'url') }, 'P1.event.entity.members', 'entity has url'),
  bad('resources/event', { ...event, status: 'running' }, 'P1.event.status.enum', 'status enum'),
  bad('resources/event', { ...event, action: 42 }, 'P1.event.action.open-enum', 'action is a string'),
  bad('resources/event', { ...event, percent_complete: 101 }, 'P1.event.percent-complete.range-0-100', 'more than 100 percent'),
  bad('resources/event', without(event, 'seen'), 'P1.event.fields', 'seen missing'),
  bad('resources/event', { ...event, read: 'yes' }, 'P1.event.types', 'read is a boolean'),

  // ---- invoice, item, login, maintenance, notification
  ok('resources/invoice', { ...invoice, subtotal: 0.1, tax: 0.2, total: 0.3 }, 'floating point sums to the cent'),
  bad('resources/invoice', { ...invoice, total: 120.25 }, 'P1.invoice.total.subtotal-plus-tax', 'total without the tax'),
  bad('resources/invoice-item', { ...invoiceItem, from: '2018-02-01T00:00:00' }, 'P1.invoice-item.from-not-after-to', 'from after to'),
  bad('resources/invoice-item', { ...invoiceItem, quantity: 1.5 }, 'P1.invoice-item.types', 'quantity is an integer'),
  bad(
    'resources/login',
    { datetime: '2018-01-01T00:01:01', id: 1, ip: '192.0.2.0/24', restricted: false, username: 'u' },
    'P1.login.ip.ip-address',
    'a CIDR range is not an IP address',
  ),
  bad(
    'resources/login',
    { datetime: '2018-01-01T00:01:01', id: 1, ip: '999.0.2.1', restricted: false, username: 'u' },
    'P1.login.ip.ip-address',
    'an octet above 255',
  ),
  bad('resources/login', { datetime: '2018-01-01T00:01:01', id: 1, ip: '192.0.2.1', username: 'u' }, 'P1.login.fields', 'restricted missing'),
  bad(
    'resources/maintenance',
    { ...(samples['resources/maintenance']![0] as object), entity: without(entity, 'label') },
    'P1.maintenance.entity.members',
    'entity has label',
  ),
  bad('resources/maintenance', { ...(samples['resources/maintenance']![0] as object), when: null }, 'P1.conventions.date-time', 'when is a date-time'),
  bad(
    'resources/notification',
    { ...(samples['resources/notification']![0] as object), entity: without(entity, 'type') },
    'P1.notification.entity.members',
    'entity has type',
  ),
  ok('resources/notification', { ...(samples['resources/notification']![0] as object), body: 'Details' }, 'body as a string'),
  bad(
    'resources/notification',
    without(samples['resources/notification']![0] as Record<string, unknown>, 'severity'),
    'P1.notification.fields',
    'severity missing',
  ),

  // ---- oauth client
  ok('resources/oauth-client', { ...oauthClient, thumbnail_url: null }, 'thumbnail_url null'),
  ok('resources/oauth-client', { ...oauthClient, secret: 'a8d3f92c0e4b5d6a7f8e9c0b1a2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d' }, 'a full secret is not judged'),
  bad('resources/oauth-client', { ...oauthClient, thumbnail_url: 'not a url' }, 'P1.oauth-client.thumbnail-url.url-or-null', 'thumbnail_url not a URL'),
  bad('resources/oauth-client', { ...oauthClient, redirect_uri: 'example.org/callback' }, 'P1.oauth-client.redirect-uri.url', 'redirect_uri without a scheme'),
  bad('resources/oauth-client', { ...oauthClient, status: 'deleted' }, 'P1.oauth-client.status.enum', 'status enum'),
  bad('resources/oauth-client', { ...oauthClient, label: '' }, 'P1.oauth-client.label.min-1', 'empty label'),
  bad(
    'requests/oauth-client-create',
    { label: 'x'.repeat(513), redirect_uri: 'https://example.org/cb' },
    'P1.oauth-client.label.max-512',
    'label of 513 characters',
  ),
  ok('requests/oauth-client-create', { label: 'x'.repeat(512), redirect_uri: 'https://example.org/cb' }, 'label of 512 characters'),
  bad('requests/oauth-client-create', { redirect_uri: 'https://example.org/cb' }, 'P1.oauth-client-create.label.required', 'label required'),
  bad('requests/oauth-client-create', { label: 'app' }, 'P1.oauth-client-create.redirect-uri.required', 'redirect_uri required'),
  bad(
    'requests/oauth-client-create',
    { label: 'app', redirect_uri: 'https://example.org/cb', public: 'yes' },
    'P1.oauth-client-create.types',
    'public is a boolean',
  ),
  ok('requests/oauth-client-update', {}, 'all members optional'),
  bad('requests/oauth-client-update', { redirect_uri: 'callback' }, 'P1.oauth-client.redirect-uri.url', 'redirect_uri not a URL'),
];
