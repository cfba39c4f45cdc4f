// Starts the reference emulator in-process (for the test runner and the CLI's default target).
import type { AddressInfo } from 'node:net';
import { buildServer, DEFAULT_TOKEN } from './server.js';

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
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    token,
    close: async () => {
      await app.close();
    },
  };
}
