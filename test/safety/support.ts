// What the safety self-tests share: a separately started emulator, a recording proxy in front of it, the command
// line as a child process, and a plain HTTP client for looking at the target from outside the suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbedded, type EmbeddedEmulator } from '../../harness/embedded.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/conformance.js');

type Json = Record<string, unknown>;

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `conformance-${name}-`));
}

/** The reference emulator as a child process on a free port. */
export const startEmulator = (token: string, variations: readonly string[] = []): Promise<EmbeddedEmulator> => startEmbedded(token, [], variations);

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  authorization: string | undefined;
  /** The request's body, where the proxy was asked to keep bodies (`keepBodies`). */
  body?: string;
}

/**
 * A proxy recording every request that reaches the target. `hideControl` answers /__control with 404, so the suite
 * sees a plain target and uses the tokens it is given; `keepBodies` records each request's body too; `arrived` is
 * called with each request as it arrives, before it is sent on.
 */
export async function startRecordingProxy(
  target: string,
  options: { hideControl?: boolean; keepBodies?: boolean; arrived?: (request: RecordedRequest) => void } = {},
): Promise<{ url: string; requests: RecordedRequest[]; close: () => void }> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const record: RecordedRequest = { method: incoming.method ?? '', path: incoming.url ?? '', status: 0, authorization: incoming.headers.authorization };
    requests.push(record);
    options.arrived?.(record);
    if (options.keepBodies) {
      record.body = '';
      incoming.on('data', (chunk: Buffer) => (record.body += chunk.toString()));
    }
    if (options.hideControl && record.path.startsWith('/__control')) {
      record.status = 404;
      outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"reason":"Not found"}]}');
      return;
    }
    const proxied = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        record.status = answer.statusCode ?? 0;
        outgoing.writeHead(record.status, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => outgoing.destroy());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => server.close() };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `conformance …` as a child process; `started` lets a test signal it while it runs. */
export function conformance(args: string[], options: { env?: NodeJS.ProcessEnv; started?: (child: ChildProcess) => void } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  options.started?.(child);
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** `conformance run` against `baseUrl` with `token`, its reports in `out`, without the Allure report or progress lines; `args` add the rest. */
export const quietRun = (baseUrl: string, token: string, out: string, args: string[] = []): Promise<CliResult> =>
  conformance(['run', '--base-url', baseUrl, '--token', token, '--out', out, '--no-allure', '--progress', 'quiet', ...args]);

/** The target seen from outside the suite. */
export function api(baseUrl: string, token: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  };
  return {
    call,
    async get(path: string): Promise<Json> {
      const { status, body } = await call('GET', path);
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
      return body;
    },
    async create(path: string, body: unknown): Promise<Json> {
      const answer = await call('POST', path, body);
      if (answer.status < 200 || answer.status >= 300) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    /** Every item of a paged list (at its own page size where it refuses 100: document 1 shows no bounds). */
    async list(path: string): Promise<Json[]> {
      const items: Json[] = [];
      let size = '&page_size=100';
      for (let page = 1; ; page++) {
        let answer = await call('GET', `${path}?page=${page}${size}`);
        if (answer.status === 400 && size) [size, answer] = ['', await call('GET', `${path}?page=${page}`)];
        const body = answer.body as { data?: Json[]; pages?: number };
        items.push(...(body.data ?? []));
        if (page >= (body.pages ?? 1)) return items;
      }
    },
    async mintToken(spec: Json): Promise<string> {
      const answer = await call('POST', '/__control/tokens', spec);
      if (answer.status !== 200 || typeof answer.body.token !== 'string') throw new Error(`minting a token answered ${answer.status}`);
      return answer.body.token;
    },
  };
}

/** A colleague on the account (another token of the same emulator) holding an instance and its IPv6 range in `region`. */
export async function colleagueWithRange(url: string, token: string, region: string): Promise<{ colleague: ReturnType<typeof api>; instance: Json }> {
  const colleague = api(url, await api(url, token).mintToken({ scopes: '*' }));
  const instance = await colleague.create('/v4/compute/instances', { region, type: 'g6-standard-1', label: 'colleague-vm' });
  await colleague.create('/v4/networking/ipv6/ranges', { prefix_length: 64, compute_id: instance.id });
  return { colleague, instance };
}

/** Top-level collections where a run's resources would remain (nested ones go with their parents; tags have no list). */
export const COLLECTIONS = [
  '/v4/compute/instances',
  '/v4/databases/instances',
  '/v4/domains',
  '/v4/networking/firewalls',
  '/v4/images',
  '/v4/monitor/clients',
  '/v4/account/oauth-clients',
  '/v4/account/entity-transfers',
  '/v4/networking/ipv6/ranges',
];

export type Snapshot = Map<string, Set<string>>;

const keyOf = (item: Json) => String(item.id ?? item.token ?? item.range ?? item.label);
/** A transfer the run created and cancelled may stay listed with its end state: only pending ones hold anything, and
 *  an incoming one (is_sender false) is another account's, not the run's. A deleted firewall may stay listed as `deleted`. */
const live = (collection: string, item: Json) =>
  collection === '/v4/account/entity-transfers'
    ? item.status === 'pending' && item.is_sender !== false
    : collection !== '/v4/networking/firewalls' || item.status !== 'deleted';

/** The live items of every collection, by id. */
export async function snapshot(client: ReturnType<typeof api>): Promise<Snapshot> {
  const taken: Snapshot = new Map();
  for (const collection of COLLECTIONS) taken.set(collection, new Set((await client.list(collection)).filter((item) => live(collection, item)).map(keyOf)));
  return taken;
}

/** Live items that were not there at `before`: what a run left behind. */
export async function newSince(client: ReturnType<typeof api>, before: Snapshot): Promise<string[]> {
  const found: string[] = [];
  for (const collection of COLLECTIONS)
    for (const item of await client.list(collection))
      if (live(collection, item) && !before.get(collection)!.has(keyOf(item))) found.push(`${collection}: ${String(item.label ?? item.domain ?? keyOf(item))}`);
  return found;
}
