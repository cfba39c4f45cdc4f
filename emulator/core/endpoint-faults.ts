// Faults of the mutation self-test that touch one endpoint's handling in the core (authentication, scopes,
// restricted users, unknown ids, the beta prefix, paging): one table, consulted where the core does that work, so
// each deviation is a row here rather than code in an area. Without a fault switched on nothing here changes what
// the emulator does.
import { faulty, type FaultId } from '../faults/index.js';
import type { Method, Route } from './types.js';

export type EndpointFaultKind =
  /** A token endpoint answers without a token, as the default user. */
  | 'no-token-served'
  /** An endpoint without authentication demands a token. */
  | 'token-demanded'
  /** The endpoint's OAuth scopes are not checked. */
  | 'scope-ignored'
  /** An endpoint for unrestricted users serves restricted users. */
  | 'restriction-ignored'
  /** An endpoint for unrestricted users serves restricted users holding the global grant account_access. */
  | 'restriction-granted'
  /** An id that does not exist is answered 200 {} instead of 404. */
  | 'unknown-id-served'
  /** A DELETE of an id that does not exist answers 200 with that id, as if it deleted a resource, instead of 404. */
  | 'unknown-id-deleted'
  /** Valid requests are refused with 400. */
  | 'valid-refused'
  /** A beta endpoint is served under /v4 instead of /v4beta. */
  | 'beta-unversioned'
  /** page 0 is taken as page 1. */
  | 'page-zero-accepted'
  /** Without `page` the envelope shows page 0. */
  | 'page-default-zero'
  /** page_size below 25 is used as sent. */
  | 'page-size-small-accepted'
  /** page_size above 100 is cut to 100 instead of refused. */
  | 'page-size-large-accepted'
  /** Without `page_size` pages hold 25 items. */
  | 'page-size-default-25'
  /** Without `page_size` pages hold 50 items. */
  | 'page-size-default-50'
  /** page shows 1 whatever page was asked for. */
  | 'page-echo-first'
  /** pages is one more than there are. */
  | 'pages-one-too-many'
  /** page_size is refused whatever its value. */
  | 'page-size-refused'
  /** The list is a bare array of its items. */
  | 'list-bare-array'
  /** data is an object keyed by position. */
  | 'list-data-object'
  /** page is a string. */
  | 'list-page-string'
  /** pages is left out. */
  | 'list-pages-missing'
  /** results is left out. */
  | 'list-results-missing'
  /** pages counts full pages only. */
  | 'list-pages-floor'
  /** pages counts full pages plus one: one too many when results is a positive multiple of the page size. */
  | 'list-pages-floor-plus-one'
  /** results is at most the page size. */
  | 'list-results-capped';

interface EndpointFault {
  fault: FaultId;
  kind: EndpointFaultKind;
  /** `METHOD /path` as in the inventory; a trailing `*` takes every path starting with what precedes it. */
  endpoint: string;
}

const ACCOUNT_LISTS = 'GET /v4/account/*';

const ENDPOINT_FAULTS: readonly EndpointFault[] = [
  { fault: 'P1.account.auth.get-account-notifications', kind: 'no-token-served', endpoint: 'GET /v4/account/notifications' },
  { fault: 'P2.compute.auth.get-compute-instances', kind: 'no-token-served', endpoint: 'GET /v4/compute/instances' },
  { fault: 'P3.domains.auth.get-domains', kind: 'no-token-served', endpoint: 'GET /v4/domains' },
  { fault: 'P1.databases.auth.get-databases-types', kind: 'token-demanded', endpoint: 'GET /v4/databases/types' },
  { fault: 'P2.compute.auth.get-compute-kernels', kind: 'token-demanded', endpoint: 'GET /v4/compute/kernels' },
  { fault: 'P3.monitor.auth.get-monitor-subscriptions', kind: 'token-demanded', endpoint: 'GET /v4/monitor/subscriptions' },
  { fault: 'P1.account.scope.get-account-invoices', kind: 'scope-ignored', endpoint: 'GET /v4/account/invoices' },
  { fault: 'P2.images.scope.put-images-id', kind: 'scope-ignored', endpoint: 'PUT /v4/images/{imageId}' },
  { fault: 'P3.domains.scope.post-domains-id-records', kind: 'scope-ignored', endpoint: 'POST /v4/domains/{domainId}/records' },
  { fault: 'P1.account.unrestricted-only.get-account-logins-id', kind: 'restriction-ignored', endpoint: 'GET /v4/account/logins/{loginId}' },
  { fault: 'P1.databases.unrestricted-only.get-databases-instances', kind: 'restriction-ignored', endpoint: 'GET /v4/databases/instances' },
  { fault: 'P2.tags.unrestricted-only.post-tags', kind: 'restriction-ignored', endpoint: 'POST /v4/tags' },
  { fault: 'P1.auth.restricted.cannot-cancel', kind: 'restriction-ignored', endpoint: 'POST /v4/account/cancel' },
  { fault: 'P1.auth.restricted.cannot-cancel~account-access', kind: 'restriction-granted', endpoint: 'POST /v4/account/cancel' },
  { fault: 'P1.account.unrestricted-only.get-account-logins~account-access', kind: 'restriction-granted', endpoint: 'GET /v4/account/logins' },
  {
    fault: 'P1.database.unrestricted-regardless-of-scopes~account-access',
    kind: 'restriction-granted',
    endpoint: 'GET /v4/databases/mysql/instances/{instanceId}',
  },
  { fault: 'P1.database.unrestricted-regardless-of-scopes', kind: 'restriction-ignored', endpoint: 'POST /v4/databases/mysql/instances/{instanceId}/patch' },
  { fault: 'P1.database.unrestricted-regardless-of-scopes~update', kind: 'restriction-ignored', endpoint: 'PUT /v4/databases/mysql/instances/{instanceId}' },
  { fault: 'P1.account.unknown-id.get-account-invoices-id', kind: 'unknown-id-served', endpoint: 'GET /v4/account/invoices/{invoiceId}' },
  { fault: 'P2.compute.unknown-id.get-compute-kernels-id', kind: 'unknown-id-served', endpoint: 'GET /v4/compute/kernels/{kernelId}' },
  {
    fault: 'P3.firewalls.unknown-id.get-networking-firewalls-id-rules',
    kind: 'unknown-id-served',
    endpoint: 'GET /v4/networking/firewalls/{firewallId}/rules',
  },
  { fault: 'P3.monitor.unknown-id.delete-monitor-clients-id', kind: 'unknown-id-deleted', endpoint: 'DELETE /v4/monitor/clients/{clientId}' },
  { fault: 'P1.databases.serves.get-databases-engines-id', kind: 'valid-refused', endpoint: 'GET /v4/databases/engines/{engineId}' },
  {
    fault: 'P1.databases.serves.get-databases-mysql-instances-id-ssl',
    kind: 'valid-refused',
    endpoint: 'GET /v4/databases/mysql/instances/{instanceId}/ssl',
  },
  { fault: 'P1.versioning.beta.get-account-maintenance', kind: 'beta-unversioned', endpoint: 'GET /v4beta/account/maintenance' },
  { fault: 'P1.versioning.beta.get-networking-vlans', kind: 'beta-unversioned', endpoint: 'GET /v4beta/networking/vlans' },
  { fault: 'P2.pagination.page.min-1', kind: 'page-zero-accepted', endpoint: 'GET /v4/compute/kernels' },
  { fault: 'P3.pagination.page.min-1', kind: 'page-zero-accepted', endpoint: 'GET /v4/networking/firewalls' },
  { fault: 'P2.pagination.page.default-1', kind: 'page-default-zero', endpoint: 'GET /v4/tags/{label}' },
  { fault: 'P3.pagination.page.default-1', kind: 'page-default-zero', endpoint: 'GET /v4/monitor/clients' },
  { fault: 'P2.pagination.page-size.min-25', kind: 'page-size-small-accepted', endpoint: 'GET /v4/compute/instances/{computeId}/configs' },
  { fault: 'P3.pagination.page-size.min-25', kind: 'page-size-small-accepted', endpoint: 'GET /v4/monitor/subscriptions' },
  { fault: 'P2.pagination.page-size.max-100', kind: 'page-size-large-accepted', endpoint: 'GET /v4/compute/instances' },
  { fault: 'P3.pagination.page-size.max-100', kind: 'page-size-large-accepted', endpoint: 'GET /v4/domains/{domainId}/records' },
  { fault: 'P2.pagination.page-size.default-100', kind: 'page-size-default-25', endpoint: 'GET /v4/images' },
  { fault: 'P3.pagination.page-size.default-100', kind: 'page-size-default-25', endpoint: 'GET /v4/domains' },
  { fault: 'P3.pagination.page-size.default-100~50', kind: 'page-size-default-50', endpoint: 'GET /v4/domains/{domainId}/records' },
  { fault: 'P2.pagination.page-size.default-100~50', kind: 'page-size-default-50', endpoint: 'GET /v4/tags/{label}' },
  { fault: 'P1.pagination.consistent', kind: 'pages-one-too-many', endpoint: 'GET /v4/domains' },
  { fault: 'P1.conventions.list.page-is-requested', kind: 'page-echo-first', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.page-is-requested~domains', kind: 'page-echo-first', endpoint: 'GET /v4/domains' },
  { fault: 'P1.conventions.list.page-is-requested~records', kind: 'page-echo-first', endpoint: 'GET /v4/domains/{domainId}/records' },
  { fault: 'P1.pagination.accepted', kind: 'page-size-refused', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.object', kind: 'list-bare-array', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.data', kind: 'list-data-object', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.page', kind: 'list-page-string', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.pages', kind: 'list-pages-missing', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.results', kind: 'list-results-missing', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.pages-total', kind: 'list-pages-floor', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.pages-total~multiple', kind: 'list-pages-floor-plus-one', endpoint: ACCOUNT_LISTS },
  { fault: 'P1.conventions.list.results-total', kind: 'list-results-capped', endpoint: ACCOUNT_LISTS },
];

function matches(pattern: string, endpoint: string): boolean {
  return pattern.endsWith('*') ? endpoint.startsWith(pattern.slice(0, -1)) : pattern === endpoint;
}

/** `endpointFaulty` for the endpoint a route serves: a route serving another's in another form (`serves`) is faulty as that one is. */
export function routeFaulty(store: { faults: ReadonlySet<string> }, route: Pick<Route, 'method' | 'path' | 'serves'>, kind: EndpointFaultKind): boolean {
  return endpointFaulty(store, route.method, route.serves ?? route.path, kind);
}

/** Whether a fault of `kind` is switched on for the endpoint `method path` (its inventory path). */
export function endpointFaulty(store: { faults: ReadonlySet<string> }, method: Method, path: string, kind: EndpointFaultKind): boolean {
  if (store.faults.size === 0) return false;
  const endpoint = `${method} ${path}`;
  return ENDPOINT_FAULTS.some((row) => row.kind === kind && matches(row.endpoint, endpoint) && faulty(store, row.fault));
}
