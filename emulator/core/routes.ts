// Small helpers the area modules share to declare routes and read path parameters.
import type { AuthKind, Method, RequestContext, Route } from './types.js';
import { fail } from './validate.js';
import { faulty } from '../faults/index.js';

/** A route needing a token with `scopes` (one scope or all of several) unless `auth` says otherwise. */
export function route(method: Method, path: string, scopes: string | string[], handler: Route['handler'], auth: AuthKind = 'token'): Route {
  return { method, path, scopes: typeof scopes === 'string' ? [scopes] : scopes, auth, handler };
}

/** An integer path parameter; anything else names no resource (404). */
export function intParam(ctx: RequestContext, name: string, what: string): number {
  const raw = ctx.params[name] ?? '';
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : faulty(ctx.store, 'P1.path.integer-ids') ? parseInt(raw, 10) : NaN;
  if (!Number.isSafeInteger(n)) fail(`${what} ${JSON.stringify(raw.slice(0, 64))} was not found.`, null, 404);
  return n;
}
