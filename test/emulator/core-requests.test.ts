// Self-tests of the emulator core over HTTP: authentication and scopes, the order of checks, body handling,
// error bodies and router errors.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, getStore } from '../../emulator/server.js';
import { AUTH, expectError, useCoreServer } from './core-server.js';

const core = useCoreServer();
const mint = core.mint;

describe('authentication', () => {
  it('auth none answers without a token', async () => {
    const res = await request(core.app.server).get('/v4/coretest/none');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ principal: null });
  });

  it('a token route rejects a missing token with 401', async () => {
    expectError(await request(core.app.server).get('/v4/coretest/token'), 401);
  });

  it('rejects an unknown token and a malformed header with 401', async () => {
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', 'Bearer nope'), 401);
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', DEFAULT_TOKEN), 401);
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', 'Basic abc'), 401);
  });

  it('accepts the default token with any scheme capitalisation', async () => {
    const res = await request(core.app.server).get('/v4/coretest/token').set('Authorization', `bearer ${DEFAULT_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'emulator-user' });
  });

  it('not-shown auth needs a token', async () => {
    expectError(await request(core.app.server).get('/v4/coretest/notshown'), 401);
    expect((await request(core.app.server).get('/v4/coretest/notshown').set(AUTH)).status).toBe(200);
  });

  it('optional auth: no token → anonymous; a valid token → authenticated; an unknown token → 401', async () => {
    expect((await request(core.app.server).get('/v4/coretest/optional')).body).toEqual({ authenticated: false });
    expect((await request(core.app.server).get('/v4/coretest/optional').set(AUTH)).body).toEqual({ authenticated: true });
    expectError(await request(core.app.server).get('/v4/coretest/optional').set('Authorization', 'Bearer unknown'), 401);
  });

  it('optional auth with a token still checks its scopes', async () => {
    const t = await mint({ scopes: ['domains:read_only'] });
    expectError(await request(core.app.server).get('/v4/coretest/optional').set('Authorization', `Bearer ${t}`), 403);
  });
});

describe('scopes', () => {
  it('a missing scope gives 403', async () => {
    const t = await mint({ scopes: ['compute:read_write'] });
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 403);
  });

  it('read_only does not allow a read_write operation', async () => {
    const t = await mint({ scopes: ['domains:read_only'] });
    expect((await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    expectError(await request(core.app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${t}`).send({}), 403);
  });

  it('read_write covers read_only', async () => {
    const t = await mint({ scopes: ['domains:read_write'] });
    expect((await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    expect((await request(core.app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${t}`).send({})).status).toBe(200);
  });

  it('an operation naming several scopes needs all of them', async () => {
    const onlyImages = await mint({ scopes: ['images:read_write'] });
    const onlyCompute = await mint({ scopes: ['compute:read_write'] });
    const both = await mint({ scopes: ['images:read_write', 'compute:read_only'] });
    const bothRw = await mint({ scopes: ['images:read_write', 'compute:read_write'] });
    const imagesRo = await mint({ scopes: ['images:read_only', 'compute:read_write'] });
    const post = (t: string) => request(core.app.server).post('/v4/coretest/multi').set('Authorization', `Bearer ${t}`).send({});
    expectError(await post(onlyImages), 403);
    expectError(await post(onlyCompute), 403);
    expectError(await post(imagesRo), 403);
    expect((await post(both)).status).toBe(200);
    expect((await post(bothRw)).status).toBe(200);
  });

  it('ips:read is satisfied by ips:read_only and ips:read_write, not by another area', async () => {
    const get = (t: string) => request(core.app.server).get('/v4/coretest/ips-read').set('Authorization', `Bearer ${t}`);
    expect((await get(await mint({ scopes: ['ips:read_only'] }))).status).toBe(200);
    expect((await get(await mint({ scopes: ['ips:read_write'] }))).status).toBe(200);
    expectError(await get(await mint({ scopes: ['compute:read_write'] })), 403);
    expectError(await get(await mint({ scopes: [] })), 403);
  });

  it('unrestricted-only routes refuse a restricted user whatever the scopes', async () => {
    const restricted = await mint({ scopes: '*', restricted: true });
    const unrestricted = await mint({ scopes: ['databases:read_only'] });
    expectError(await request(core.app.server).get('/v4/coretest/unrestricted').set('Authorization', `Bearer ${restricted}`), 403);
    expect((await request(core.app.server).get('/v4/coretest/unrestricted').set('Authorization', `Bearer ${unrestricted}`)).status).toBe(200);
  });

  it('a token removed from the registry (deleted OAuth client) is refused', async () => {
    const t = await mint({ scopes: '*', oauth_client_id: 'client-1' });
    expect(getStore(core.app).tokens.get(t)?.oauthClientId).toBe('client-1');
    expect((await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`)).status).toBe(200);
    getStore(core.app).tokens.delete(t);
    expectError(await request(core.app.server).get('/v4/coretest/token').set('Authorization', `Bearer ${t}`), 401);
  });
});

describe('bodies and error bodies', () => {
  it('accepts JSON with a charset', async () => {
    const res = await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json; charset=utf-8').send('{"a":[1,2]}');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { a: [1, 2] } });
  });

  it('a missing body reaches the handler as undefined', async () => {
    const res = await request(core.app.server).post('/v4/coretest/write').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
    const empty = await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send('');
    expect(empty.body).toEqual({ body: null });
  });

  it('malformed JSON → 400 error body', async () => {
    for (const text of ['{', '{"a":}', 'nul', "{'a':1}", '[1,]']) {
      const res = await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(text);
      expectError(res, 400);
      expect(res.body.errors[0].reason).toMatch(/Malformed JSON/);
    }
  });

  it('prototype poisoning keys are refused with 400', async () => {
    const res = await request(core.app.server)
      .post('/v4/coretest/write')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{"__proto__":{"admin":true}}');
    expectError(res, 400);
  });

  it('a non-JSON content type with a body → 415; also with no content type', async () => {
    expectError(await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'text/plain').send('hello'), 415);
    expectError(await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/x-www-form-urlencoded').send('a=1'), 415);
    expectError(await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/jsonx').send('{}'), 415);
  });

  it('a non-JSON content type with an empty body is accepted as no body', async () => {
    const res = await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'text/plain').send('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: null });
  });

  it('an oversized JSON body → 413 error body', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 10) });
    expectError(await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(big), 413);
  });

  it('a body of almost 1 MB is accepted', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(1024 * 1024 - 100) });
    const res = await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
  });

  it('unknown path and unknown method → 404 error body', async () => {
    expectError(await request(core.app.server).get('/v4/does-not-exist').set(AUTH), 404);
    expectError(await request(core.app.server).put('/v4/coretest/none').set(AUTH).send({}), 404);
    expectError(await request(core.app.server).get('/').set(AUTH), 404);
  });

  it('a handler exception answers 500 with the error body (never a crash)', async () => {
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expectError(await request(core.app.server).get('/v4/coretest/crash'), 500);
    } finally {
      process.stderr.write = write;
    }
    expect((await request(core.app.server).get('/v4/coretest/none')).status).toBe(200);
  });

  it('Reply sets status and headers; undefined answers {}', async () => {
    const r = await request(core.app.server).get('/v4/coretest/reply');
    expect(r.status).toBe(202);
    expect(r.headers['x-test']).toBe('yes');
    expect(r.body).toEqual({ accepted: true });
    const d = await request(core.app.server).delete('/v4/coretest/nothing');
    expect(d.status).toBe(200);
    expect(d.body).toEqual({});
  });

  it('validation errors carry the dot path of the member', async () => {
    const post = (body: unknown) =>
      request(core.app.server)
        .post('/v4/coretest/validate')
        .set(AUTH)
        .send(body as object);
    expectError(await post({}), 400, 'label');
    expectError(await post({ label: 'ab' }), 400, 'label');
    expect((await post({ label: 'abc' })).status).toBe(200);
    expect((await post({ label: 'a'.repeat(32) })).status).toBe(200);
    expectError(await post({ label: 'a'.repeat(33) }), 400, 'label');
    expectError(await post({ label: 42 }), 400, 'label');
    expectError(await post({ label: 'abc', rules: [{ port: 1 }, { port: 0 }] }), 400, 'rules.1.port');
    expectError(await post({ label: 'abc', rules: [{ port: 65536 }] }), 400, 'rules.0.port');
    expectError(await post({ label: 'abc', rules: ['x'] }), 400, 'rules.0');
    expectError(await post({ label: 'abc', rules: [{}, {}, {}] }), 400, 'rules');
    expectError(await post([1, 2]), 400, null);
    expect((await post({ label: 'abc', rules: [{ port: 1 }, { port: 65535 }] })).body).toEqual({ label: 'abc', rules: 2 });
  });

  it('the engine id wildcard takes a slash, plain or URL-encoded', async () => {
    expect((await request(core.app.server).get('/v4/coretest/engines/mysql/8.0.30')).body).toEqual({ engineId: 'mysql/8.0.30' });
    expect((await request(core.app.server).get('/v4/coretest/engines/mysql%2F8.0.30')).body).toEqual({ engineId: 'mysql/8.0.30' });
  });

  it('path parameters are URL-decoded', async () => {
    expect((await request(core.app.server).get('/v4/coretest/things/a%20b')).body).toEqual({ thingId: 'a b' });
  });

  it('the context carries the caller address, base URL and query', async () => {
    const res = await request(core.app.server).get('/v4/coretest/ctx?page=2&page=3&x=y');
    expect(res.body.remote).toBe('127.0.0.1');
    expect(res.body.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(res.body.query).toEqual({ page: '2', x: 'y' });
    expect(res.body.route).toBe('/v4/coretest/ctx');
  });

  it('upload routes take application/octet-stream as a Buffer and refuse JSON', async () => {
    const data = Buffer.from([0x1f, 0x8b, 1, 2, 3]);
    const ok = await request(core.app.server).put('/__upload/7').set('Content-Type', 'application/octet-stream').send(data);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id: '7', bytes: 5 });
    const big = await request(core.app.server)
      .put('/__upload/7')
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(2 * 1024 * 1024, 1));
    expect(big.body).toEqual({ id: '7', bytes: 2 * 1024 * 1024 });
    expectError(await request(core.app.server).put('/__upload/7').send({ a: 1 }), 415);
    expectError(await request(core.app.server).put('/__upload/7').set('Content-Type', 'text/plain').send('abc'), 415);
  });

  it('octet-stream on a JSON route → 415', async () => {
    expectError(
      await request(core.app.server).post('/v4/coretest/write').set(AUTH).set('Content-Type', 'application/octet-stream').send(Buffer.from('{}')),
      415,
    );
  });
});

describe('router errors', () => {
  it('a path with broken percent-encoding → 400 error body', async () => {
    expectError(await request(core.app.server).get('/v4/coretest/things/%E0%A4%A'), 400);
  });
});

describe('order of checks', () => {
  it('authentication comes before body parsing', async () => {
    expectError(await request(core.app.server).post('/v4/coretest/write').set('Content-Type', 'application/json').send('{'), 401);
    expectError(await request(core.app.server).post('/v4/coretest/write').set('Content-Type', 'text/plain').send('x'), 401);
    const ro = await mint({ scopes: ['domains:read_only'] });
    expectError(
      await request(core.app.server).post('/v4/coretest/write').set('Authorization', `Bearer ${ro}`).set('Content-Type', 'application/json').send('{'),
      403,
    );
  });
});
