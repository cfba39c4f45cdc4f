// Authentication and OAuth scopes (document 1 "Authentication"). Status choices where the documents are silent:
// 401 for a missing or unknown token, 403 for a missing scope or a restricted user on an unrestricted-only route.
import type { Store } from './store.js';
import type { Principal, Route } from './types.js';
import { ApiError } from './types.js';
import { routeFaulty } from './endpoint-faults.js';
import { hasGlobalGrant } from './permissions.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';

const BEARER = /^\s*Bearer\s+(\S+)\s*$/i;
/** The bare token, no scheme (the only form GET /v4/account takes under the fault of P1.auth.bearer-header). */
const BARE = /^\s*(\S+)\s*$/;

/** Accounts closed by a successful cancellation under `account-closed-410` (their tokens stay known). */
const closedAccounts = new WeakSet<Store>();

/** Variation account-closed-410: the account is cancelled; from now on every request with one of its tokens answers 410. */
export function closeAccount(store: Store): void {
  closedAccounts.add(store);
}

/** The principal of the request, or null when no token is needed and none was sent; throws 401/403 (410 once closed). */
export function authenticate(store: Store, route: Route, authorization: string | string[] | undefined): Principal | null {
  // Under upload-needs-token the upload URL takes the caller's token like an endpoint of the API; under
  // upload-needs-token-404 an upload without it is answered as an upload that does not exist.
  const upload404 = route.path.startsWith('/__upload/') && varied(store, 'upload-needs-token-404');
  const uploadWithToken = route.path.startsWith('/__upload/') && (varied(store, 'upload-needs-token') || upload404);
  if (route.auth === 'none' && !uploadWithToken && !routeFaulty(store, route, 'token-demanded')) return null;
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  if (header === undefined || header === '') {
    if (route.auth === 'optional') return null;
    if (upload404) throw new ApiError(404, 'No such upload.');
    if (routeFaulty(store, route, 'no-token-served')) return store.tokens.get(store.defaultToken) ?? null;
    throw new ApiError(401, 'Authentication is required: send the header "Authorization: Bearer <token>".');
  }
  const bareOnly = faulty(store, 'P1.auth.bearer-header') && route.method === 'GET' && route.path === '/v4/account';
  const m = bareOnly ? BARE.exec(header) : (BEARER.exec(header) ?? (varied(store, 'bare-token-accepted') ? BARE.exec(header) : null));
  const principal = m ? store.tokens.get(m[1]!) : undefined;
  if (principal === undefined) {
    throw new ApiError(401, 'Invalid token: send a valid access token in the header "Authorization: Bearer <token>".');
  }
  if (closedAccounts.has(store)) throw new ApiError(410, 'This account is closed: it was cancelled.');
  // Under the variation a token lacking the scope of an endpoint that takes no token at all is served as no token.
  if (route.auth === 'optional' && varied(store, 'lacking-scope-anonymous') && !route.scopes.every((scope) => holdsScope(principal, scope))) return null;
  authorize(store, principal, route);
  return principal;
}

/** Variation read-only-changes-need-read-write: a change whose table names only read_only scopes (marking events) needs read_write. */
function changesNeedReadWrite(store: Store, route: Route): boolean {
  return (
    varied(store, 'read-only-changes-need-read-write') &&
    route.method !== 'GET' &&
    route.scopes.length > 0 &&
    route.scopes.every((scope) => scope.endsWith(':read_only'))
  );
}

/** The scopes a principal must hold for the route (none under the faults that stop checking them). */
function scopesNeeded(store: Store, principal: Principal, route: Route): string[] {
  if (routeFaulty(store, route, 'scope-ignored')) return [];
  if (faulty(store, 'P1.auth.oauth.scope-required') && route.method === 'GET' && route.path === '/v4/domains') return [];
  // Under the fault an operation naming several scopes takes a token holding any one of them.
  if (faulty(store, 'P1.auth.scope.several-all-needed') && route.scopes.some((scope) => holdsScope(principal, scope))) return [];
  return changesNeedReadWrite(store, route) ? route.scopes.map((named) => named.replace(/:read_only$/, ':read_write')) : route.scopes;
}

/** Throws 401 or 403 when the principal lacks a scope of the route or is restricted on an unrestricted-only route. */
function authorize(store: Store, principal: Principal, route: Route): void {
  if (faulty(store, 'P1.auth.token-kinds') && principal.scopes !== '*' && route.method === 'GET' && route.path === '/v4/account')
    throw new ApiError(401, 'Invalid token: this endpoint takes personal access tokens only.');
  for (const scope of scopesNeeded(store, principal, route)) {
    if (!holdsScope(principal, scope, faulty(store, 'P1.auth.scope.read-write-changes'), varied(store, 'scope-forms-only'))) {
      throw new ApiError(403, `Your OAuth token is not authorized to use this endpoint: it needs the scope ${scope}.`);
    }
  }
  const restrictionIgnored =
    routeFaulty(store, route, 'restriction-ignored') ||
    (routeFaulty(store, route, 'restriction-granted') && hasGlobalGrant(principal, 'account_access')) ||
    (faulty(store, 'P1.auth.restricted.login-history') && route.path.startsWith('/v4/account/logins'));
  if (route.unrestrictedOnly && principal.restricted && !restrictionIgnored) {
    throw new ApiError(403, 'Unauthorized: this operation is available to unrestricted users only.');
  }
}

/**
 * `x:read_write` also allows `x:read_only`; the one scope written `ips:read` (IPv6 range view) is satisfied by
 * `ips:read_only` or `ips:read_write`. `readOnlyWrites`: the fault of P1.auth.scope.read-write-changes, under which
 * `x:read_only` also allows `x:read_write`.
 */
function holdsScope(principal: Principal, needed: string, readOnlyWrites = false, onlyDocumentedForms = false): boolean {
  if (principal.scopes === '*') return true;
  const want = needed.trim();
  // Under the variation scope-forms-only a token holds only scopes of the forms <area>:read_only and <area>:read_write.
  const held = onlyDocumentedForms ? principal.scopes.filter((scope) => /:read_(only|write)$/.test(scope)) : principal.scopes;
  if (held.includes(want)) return true;
  const colon = want.lastIndexOf(':');
  if (colon < 0) return false;
  const area = want.slice(0, colon);
  const level = want.slice(colon + 1);
  if (level === 'read_only' || level === 'read' || readOnlyWrites) {
    return held.includes(`${area}:read_write`) || held.includes(`${area}:read_only`) || held.includes(`${area}:read`);
  }
  return false;
}
