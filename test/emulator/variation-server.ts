// What the emulator's variation self-tests share: a fresh server per case, carrying the variations asked for.
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, it } from 'vitest';
import { buildServer, DEFAULT_TOKEN } from '../../emulator/server.js';

export const AUTH = { Authorization: `Bearer ${DEFAULT_TOKEN}` };
export type Json = Record<string, unknown>;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

export async function serverWith(variations: string[]) {
  app = await buildServer({ variations });
  await app.ready();
  return app.server;
}

export type VariationCase = [string, (server: Awaited<ReturnType<typeof serverWith>>) => Promise<void>];

/** One test per case: the server carries that variation alone. */
export function describeVariations(title: string, cases: VariationCase[]): void {
  describe(title, () => {
    it.each(cases)('%s', async (id, scenario) => {
      await scenario(await serverWith([id]));
    });
  });
}
