// The supertest setup the emulator's area tests share: one server per file, reset before each test, requests with
// the default full-access token unless headers are given, tokens and time through the control hooks.
import request from 'supertest';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { buildServer, DEFAULT_TOKEN } from '../../emulator/server.js';

export type Headers = Record<string, string>;
export const AUTH: Headers = { Authorization: `Bearer ${DEFAULT_TOKEN}` };

export function useEmulator() {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildServer({});
    // Listening from the start: supertest starts and closes a server that is not listening for each request.
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await request(app.server).post('/__control/reset').expect(200);
  });
  const server = () => app.server;
  return {
    get app() {
      return app;
    },
    server,
    get: (path: string, headers: Headers = AUTH) => request(server()).get(path).set(headers),
    /** A POST without a body sends none (handlers see undefined); pass `{}` for an empty JSON object. */
    post: (path: string, body?: unknown, headers: Headers = AUTH) => {
      const pending = request(server()).post(path).set(headers);
      return body === undefined ? pending : pending.send(body as object);
    },
    put: (path: string, body: unknown, headers: Headers = AUTH) =>
      request(server())
        .put(path)
        .set(headers)
        .send(body as object),
    del: (path: string, headers: Headers = AUTH) => request(server()).delete(path).set(headers),
    async token(body: object): Promise<Headers> {
      const res = await request(server()).post('/__control/tokens').send(body).expect(200);
      return { Authorization: `Bearer ${res.body.token}` };
    },
    async advance(seconds: number): Promise<void> {
      await request(server()).post('/__control/clock').send({ advance_seconds: seconds }).expect(200);
    },
  };
}

/**
 * The same requests taking a token string (null: no Authorization header) instead of headers; bodies always go as
 * JSON text, so a garbage body (a string, a number) reaches the emulator as JSON too.
 */
export function withTokens(emulator: ReturnType<typeof useEmulator>) {
  const auth = (token: string | null): Headers => (token ? { Authorization: `Bearer ${token}` } : {});
  const json = (method: 'post' | 'put', path: string, body: unknown, token: string | null) => {
    const pending = request(emulator.server())[method](path).set(auth(token));
    return body === undefined ? pending : pending.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };
  return {
    get: (path: string, token: string | null = DEFAULT_TOKEN) => emulator.get(path, auth(token)),
    del: (path: string, token: string | null = DEFAULT_TOKEN) => emulator.del(path, auth(token)),
    post: (path: string, body?: unknown, token: string | null = DEFAULT_TOKEN) => json('post', path, body, token),
    put: (path: string, body: unknown, token: string | null = DEFAULT_TOKEN) => json('put', path, body, token),
    async token(body: object): Promise<string> {
      return (await emulator.token(body)).Authorization!.slice('Bearer '.length);
    },
  };
}

/** An error answer: the status, the documented error body, and (when given) the field at fault and the reason. */
export function expectError(res: request.Response, status: number, field?: string | null, reason?: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(typeof res.body.errors[0].reason).toBe('string');
  if (field !== undefined) expect(res.body.errors[0].field).toBe(field);
  if (reason) expect(res.body.errors[0].reason).toMatch(reason);
}
