// OAuth clients: create (the only answer with the secret), view, update, delete (which invalidates its tokens).
import type { Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, optBool, optString, reqString } from '../../core/validate.js';
import { emitEvent, type EventEntity } from '../../core/events.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { T, type OAuthClient } from './model.js';

const REDACTED = '<REDACTED>';

export function clientView(s: Store, c: OAuthClient, withSecret = false) {
  return {
    ...c,
    secret: withSecret ? c.secret : REDACTED,
    ...(c.thumbnail_url === null && faulty(s, 'P1.oauth-client.thumbnail-url.url-or-null') ? { thumbnail_url: '' } : {}),
  };
}

export function clientOr404(ctx: RequestContext): OAuthClient {
  const id = ctx.params['clientId'] ?? '';
  const c = T.clients(ctx.store).get(id);
  if (c === undefined) fail(`OAuth client ${JSON.stringify(id.slice(0, 64))} was not found.`, null, 404);
  return c;
}

function clientEntity(c: OAuthClient): EventEntity {
  return { id: c.id, label: c.label, type: 'oauth_client', url: `/v4/account/oauth-clients/${c.id}` };
}

function redirectUri(store: Store, o: Record<string, unknown>, required: boolean): string | undefined {
  const v = required ? reqString(o, 'redirect_uri', { min: 1 }) : optString(o, 'redirect_uri', { min: 1 });
  if (v === undefined) return undefined;
  let ok = false;
  try {
    const u = new URL(v);
    ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok && !faulty(store, 'P1.oauth-client.redirect-uri.url'))
    fail('redirect_uri must be an absolute http or https URL, e.g. https://example.org/oauth/callback.', 'redirect_uri');
  if (ok && varied(store, 'redirect-uri-no-loopback') && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(new URL(v).hostname))
    fail('redirect_uri must not name a loopback host: the login is sent to a web application.', 'redirect_uri');
  if (ok && v.toLowerCase().startsWith('http:') && varied(store, 'redirect-uri-https'))
    fail('redirect_uri must be an https URL: an exchange code is not sent in the clear.', 'redirect_uri');
  // Under the variation the URI is kept as the URL parser writes it (an empty path as "/", the host in lower case).
  return ok && varied(store, 'redirect-uri-normalised') ? new URL(v).href : v;
}

const CLIENT_LABEL = { min: 1, max: 512 } as const;
const clientLabel = (s: Store) => ({
  min: faulty(s, 'P1.oauth-client.label.min-1') ? 0 : CLIENT_LABEL.min,
  max: faulty(s, 'P1.oauth-client.label.max-512') ? 1024 : CLIENT_LABEL.max,
});

export function newClient(s: Store, label: string, isPublic: boolean, uri: string): OAuthClient {
  const c: OAuthClient = {
    id: s.randomHex(10),
    label,
    public: isPublic,
    redirect_uri: uri,
    secret: s.randomHex(32),
    status: faulty(s, 'P1.oauth-client.status.enum') ? ('enabled' as OAuthClient['status']) : 'active',
    thumbnail_url: null,
  };
  // Under the variation a client's thumbnail is an image the service keeps, named by its path.
  if (varied(s, 'oauth-thumbnail-path')) c.thumbnail_url = `/v4/account/oauth-clients/${c.id}/thumbnail`;
  T.clients(s).set(c.id, c);
  return c;
}

export function createClient(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const label = reqString(o, 'label', clientLabel(ctx.store));
  const uri = redirectUri(ctx.store, o, true)!;
  const isPublic = optBool(o, 'public') ?? false;
  const c = newClient(ctx.store, label, isPublic, uri);
  emitEvent(ctx.store, ctx.principal, { action: 'oauth_client_create', entity: clientEntity(c) });
  return clientView(ctx.store, c, true);
}

export function updateClient(ctx: RequestContext) {
  const c = clientOr404(ctx);
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  const label = optString(o, 'label', clientLabel(ctx.store));
  const isPublic = optBool(o, 'public');
  const uri = redirectUri(ctx.store, o, false);
  if (label !== undefined) c.label = label;
  // The fault replaces the client: public left out falls back to false.
  if (isPublic !== undefined || faulty(ctx.store, 'P1.oauth-client-update.omitted-unchanged')) c.public = isPublic ?? false;
  // The fault answers the new redirect_uri but keeps the old one.
  if (uri !== undefined && !faulty(ctx.store, 'P1.oauth-client.write.reflected')) c.redirect_uri = uri;
  const shown = clientView(ctx.store, c);
  if (uri !== undefined) shown.redirect_uri = uri;
  emitEvent(ctx.store, ctx.principal, { action: 'oauth_client_update', entity: clientEntity(c) });
  return shown;
}

/** Under the variation oauth-client-delete-shows-a-while, how long a deleted client is still shown (simulated time). */
const DELETE_RUNS_MS = 5_000;

/**
 * Deletes the client, invalidating its tokens: at once, or under oauth-client-delete-shows-a-while once DELETE_RUNS_MS
 * have passed (until then it is viewed and listed as it was, and its tokens work; a DELETE sent again answers {} too).
 */
export function deleteClient(ctx: RequestContext) {
  const c = clientOr404(ctx);
  const s = ctx.store;
  const remove = (st: Store) => {
    if (T.clients(st).get(c.id) !== c) return;
    if (!faulty(st, 'P1.oauth-client.delete.gone')) T.clients(st).delete(c.id);
    // Documented: deleting a client invalidates every token issued to it.
    if (!faulty(st, 'P1.oauth-client.delete.invalidates')) for (const [token, p] of st.tokens) if (p.oauthClientId === c.id) st.tokens.delete(token);
  };
  if (varied(s, 'oauth-client-delete-shows-a-while')) s.schedule(new Date(s.now().getTime() + DELETE_RUNS_MS), remove);
  else remove(s);
  emitEvent(s, ctx.principal, { action: 'oauth_client_delete', entity: clientEntity(c) });
  return {};
}
