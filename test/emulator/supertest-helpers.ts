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
    await app.ready();
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
    put: (path: string, body: unknown, headers: Headers = AUTH) => request(server()).put(path).set(headers).send(body as object),
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

/** An error answer: the status, the documented error body, and (when given) the field at fault. */
export function expectError(res: request.Response, status: number, field?: string | null): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Array.isArray(res.body.errors)).toBe(true);
  expect(typeof res.body.errors[0].reason).toBe('string');
  if (field !== undefined) expect(res.body.errors[0].field).toBe(field);
}
