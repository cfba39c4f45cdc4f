// Starts the reference emulator in-process (for the test runner and the CLI's default target).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer, DEFAULT_TOKEN, listenTenant, routeShape } from './server.js';

export { DEFAULT_TOKEN } from './server.js';

export interface StartOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  control?: boolean;
  faults?: string[];
  variations?: string[];
  token?: string;
}

export interface RunningEmulator {
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startEmulator(opts: StartOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? DEFAULT_TOKEN;
  const app = await buildServer({ control: opts.control ?? true, faults: opts.faults ?? [], variations: opts.variations ?? [], token });
  await app.listen({ port: opts.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: urlOf(host, port),
    token,
    close: async () => {
      await app.close();
    },
  };
}

const urlOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Starts emulators, each with its own state and port, that share one app per route shape: building an app (its
 * routes compiled into fastify's router) cost more than the state, and the mutation matrix starts hundreds.
 */
export function emulatorInstances(host: string, control: boolean) {
  const apps = new Map<string, Promise<FastifyInstance>>();
  return {
    async start(opts: Pick<StartOptions, 'faults' | 'variations' | 'token'>): Promise<RunningEmulator> {
      const options = { control, faults: opts.faults ?? [], variations: opts.variations ?? [], token: opts.token ?? DEFAULT_TOKEN };
      const shape = routeShape(options);
      let app = apps.get(shape);
      if (!app) apps.set(shape, (app = buildServer(options)));
      const served = await listenTenant(await app, options, host);
      return { url: urlOf(host, served.port), token: options.token, close: served.close };
    },
    async close(): Promise<void> {
      await Promise.all([...apps.values()].map(async (app) => (await app).close()));
    },
  };
}
