// Document 1, "OAuth client" and its endpoints: what create and update return, and deletion invalidating the
// tokens issued to the client (tokens issued to a client are minted through the control hooks: issuance at
// {auth_url} is not shown).
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { deleteSeen, readAfterWrite, untilGone, untilShortlyDone } from '../../harness/consistency.js';
import { showsMade } from '../../harness/resources.js';
import { useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { registerSecret } from '../../harness/redact.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part1-oauth-clients');

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

/** Creates a client and tracks it; its id from the response, else from the list by label. */
async function newClient(c: Check, rule: string, body: Json): Promise<{ id: string; created: Exchange }> {
  const created = await c.post('/v4/account/oauth-clients', body);
  c.expectSuccess(rule, created, 'POST /v4/account/oauth-clients');
  let id = bodyOf(created).id;
  if (typeof id !== 'string' && typeof id !== 'number') id = (await fx.find(c, '/v4/account/oauth-clients', (item) => item.label === body.label))?.id;
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error('created an OAuth client but cannot find its id');
  fx.track('oauth-client', id, String(body.label));
  return { id: String(id), created };
}

const showsAll = (exchange: Exchange, sent: Json) => Object.entries(sent).every(([member, value]) => bodyOf(exchange)[member] === value);

/** The client read back after a write, once it shows what was sent (or the consistency window has passed). */
const clientShowing = (c: Check, path: string, sent: Json) =>
  readAfterWrite(
    c,
    () => c.get(path),
    (view) => showsAll(view, sent),
  );

function expectShows(c: Check, rule: string, exchange: Exchange, sent: Json, what: string): void {
  const body = bodyOf(exchange);
  for (const [member, value] of Object.entries(sent)) {
    c.expect(rule, body[member] === value, `${what} shows ${member} ${JSON.stringify(body[member])}, sent ${JSON.stringify(value)}`, exchange);
  }
}

describe('OAuth client create and update', () => {
  check('P1.oauth-client.write.reflected', 'create and update return, and the view shows, the label, public and redirect_uri sent', async (c) => {
    const rule = 'P1.oauth-client.write.reflected';
    const sent = { label: fx.label('app', 512), public: true, redirect_uri: 'https://example.com/conformance/callback' };
    const { id, created } = await newClient(c, rule, sent);
    const path = `/v4/account/oauth-clients/${encodeURIComponent(id)}`;
    expectShows(c, rule, created, sent, 'the create response');
    expectShows(c, rule, await clientShowing(c, path, sent), sent, 'the client view after create');
    for (const update of [
      { label: fx.label('app2', 512), public: false, redirect_uri: 'https://example.org/other/callback' },
      { label: fx.label('app3', 512) },
      { public: true },
      // A port, not a loopback host (RFC 8252: "localhost" NOT RECOMMENDED, a server may refuse it).
      { redirect_uri: 'https://auth.example.net:8443/cb' },
    ]) {
      const put = await c.put(path, update);
      c.expectSuccess(rule, put, `PUT ${JSON.stringify(update)}`);
      expectShows(c, rule, put, update, `the response to PUT ${JSON.stringify(update)}`);
      expectShows(c, rule, await clientShowing(c, path, update), update, `the client view after PUT ${JSON.stringify(update)}`);
    }
  });
});

describe('OAuth client partial update', () => {
  // "body: label, public, redirect_uri, all optional": an update names what it changes, so a member left out keeps its
  // value (inferred). redirect_uri has no default a replacement could fall back to, so only public can show one.
  const updates = (label: string): Json[] => [{ label }, { redirect_uri: 'https://example.org/other/callback' }];

  check('P1.oauth-client-update.omitted-unchanged', 'an update leaving members out keeps them: public true stays true', async (c) => {
    const rule = 'P1.oauth-client-update.omitted-unchanged';
    let kept: Json = { label: fx.label('app', 512), public: true, redirect_uri: 'https://example.com/conformance/callback' };
    const { id } = await newClient(c, rule, kept);
    const path = `/v4/account/oauth-clients/${encodeURIComponent(id)}`;
    if (!showsAll(await clientShowing(c, path, kept), kept))
      c.skip('the new client does not show what its create sent (P1.oauth-client.write.reflected judges it)');
    for (const update of updates(fx.label('app2', 512))) {
      c.expectSuccess(rule, await c.put(path, update), `PUT ${JSON.stringify(update)}`);
      const left = Object.fromEntries(Object.entries(kept).filter(([member]) => !(member in update)));
      expectShows(c, rule, await clientShowing(c, path, update), left, `the client view after PUT ${JSON.stringify(update)}`);
      kept = { ...kept, ...update };
    }
  });
});

describe('OAuth client delete', () => {
  check('P1.oauth-client.delete.gone', 'a deleted client can no longer be viewed (4xx) and is not listed', async (c) => {
    const rule = 'P1.oauth-client.delete.gone';
    const label = fx.label('app', 512);
    const { id } = await newClient(c, rule, { label, redirect_uri: 'https://example.com/oauth/callback' });
    const made = { kind: 'oauth-client', id, label };
    const path = `/v4/account/oauth-clients/${encodeURIComponent(id)}`;
    c.expectSuccess(rule, await deleteSeen(c, path), 'DELETE the client');
    // Whether the client is gone when the DELETE answers or once the deletion has run is not shown ("Transitions: not
    // shown"): its view is read until refused while a short time passes.
    c.expectGone(rule, await untilGone(c, path, made), 'GET the deleted client', made);
    c.expect(rule, await fx.gone(c, '/v4/account/oauth-clients', (item) => showsMade('oauth-client', item, made)), `the deleted client ${id} is still listed`);
  });

  check('P1.oauth-client.delete.invalidates', 'deleting a client invalidates the tokens issued to it', async (c) => {
    const rule = 'P1.oauth-client.delete.invalidates';
    if (!c.target.control || c.target.info.controlUrl !== c.target.info.baseUrl)
      c.skip('needs a token issued to an OAuth client: the control hook POST /__control/tokens at the base URL (issuance at {auth_url} is not shown)');
    const [mine, other] = [
      await newClient(c, rule, { label: fx.label('app', 512), redirect_uri: 'https://example.com/oauth/callback' }),
      await newClient(c, rule, { label: fx.label('app', 512), redirect_uri: 'https://example.com/oauth/callback' }),
    ];
    const issue = async (clientId: string) => {
      const minted = await c.post('/__control/tokens', { scopes: ['account:read_only'], oauth_client_id: clientId }, { token: null });
      const token = bodyOf(minted).token;
      if (minted.status !== 200 || typeof token !== 'string') throw new Error(`the control hook POST /__control/tokens answered ${minted.status}`);
      registerSecret(token);
      return token;
    };
    const [token, otherToken] = [await issue(mine.id), await issue(other.id)];
    const before = await c.get('/v4/account', { token });
    if (!ok(before)) throw new Error(`a token issued to client ${mine.id} is refused before the client is deleted (${before.status})`);
    c.expectSuccess(rule, await c.delete(`/v4/account/oauth-clients/${encodeURIComponent(mine.id)}`), 'DELETE the client');
    const refused = (exchange: Exchange) => exchange.status >= 400 && exchange.status < 500;
    // The deletion may run a while after its DELETE answers (when it is done is not shown): the token is tried until
    // refused while a short time passes.
    c.expectRejected(
      rule,
      await untilShortlyDone(c, () => c.get('/v4/account', { token }), refused),
      'GET /v4/account with a token issued to the deleted client',
    );
    c.expectRejected(rule, await c.get('/v4/account/oauth-clients', { token }), 'GET /v4/account/oauth-clients with a token issued to the deleted client');
    // Only the tokens of that client: a token issued to another client keeps working.
    c.expectSuccess(rule, await c.get('/v4/account', { token: otherToken }), 'GET /v4/account with a token issued to another client');
  });
});
