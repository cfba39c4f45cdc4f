// Small fake targets for the robustness tests: node:http servers on port 0 that misbehave in one named way, and a
// "laggy" proxy that puts replica lag in front of a real target. Each records the requests it saw.
import { readFileSync } from 'node:fs';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

interface SeenRequest {
  method: string;
  path: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface FakeServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** A request's JSON body as an object ({} when it has none or it does not parse). */
async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A certificate for localhost and 127.0.0.1, signed by itself (valid until 2126), and its key: an HTTPS target's. */
export const LOCALHOST_TLS = {
  cert: fileURLToPath(new URL('tls/localhost-cert.pem', import.meta.url)),
  key: fileURLToPath(new URL('tls/localhost-key.pem', import.meta.url)),
};

/** `tls`: served over HTTPS with LOCALHOST_TLS. `tunnel`: what a CONNECT request gets (its socket, closed with the server). */
export async function startFakeServer(
  handle: Handler,
  { tls = false, tunnel }: { tls?: boolean; tunnel?: (request: IncomingMessage, client: Socket, head: Buffer) => void } = {},
): Promise<FakeServer> {
  const seen: SeenRequest[] = [];
  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    seen.push({ method: request.method ?? '', path: request.url ?? '', at: performance.now() });
    response.on('error', () => {});
    void handle(request, response);
  };
  const server = tls ? createTlsServer({ cert: readFileSync(LOCALHOST_TLS.cert), key: readFileSync(LOCALHOST_TLS.key) }, onRequest) : createServer(onRequest);
  // A client that hangs up mid-answer (or refuses the certificate) is expected here: it must not take the test process down.
  server.on(tls ? 'secureConnection' : 'connection', (socket) => socket.on('error', () => {}));
  server.on('tlsClientError', () => {});
  const tunnelled = new Set<Socket>();
  if (tunnel)
    server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
      seen.push({ method: 'CONNECT', path: request.url ?? '', at: performance.now() });
      tunnelled.add(client.on('close', () => tunnelled.delete(client)));
      tunnel(request, client, head);
    });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const client of tunnelled) client.destroy();
      }),
  };
}

/**
 * A forward proxy, as a company network puts between its machines and the world: it tunnels CONNECT host:port, with
 * the host resolved through `hosts` (names no resolver knows, so a request reaching them went through it), and answers
 * anything else 400. `seen` records each tunnel as `CONNECT host:port`.
 */
export function startConnectProxy(hosts: Record<string, string>): Promise<FakeServer> {
  const refuse: Handler = (_, response) => {
    response.writeHead(400);
    response.end();
  };
  return startFakeServer(refuse, {
    tunnel: (request, client, head) => {
      const [host = '', port = ''] = (request.url ?? '').split(':');
      const upstream = connect(Number(port), hosts[host] ?? host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
      client.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
    },
  });
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

/** Ways a target can break, each a request handler. */
export const hostile = {
  /** Accepts the connection and never answers. */
  hang: (): Handler => () => {},
  /** Sends the headers, then one byte of body a second, forever. */
  slowDrip: (): Handler => (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
    const drip = setInterval(() => response.write(' '), 1000);
    response.on('close', () => clearInterval(drip));
  },
  /** Resets the connection before any response. */
  reset: (): Handler => (request) => {
    request.socket.resetAndDestroy();
  },
  /** HTTP 500 with an error body, on every request. */
  serverError: (): Handler => (_request, response) => json(response, 500, { errors: [{ reason: 'internal error' }] }),
  /** An HTML page (200) where JSON is promised. */
  html: (): Handler => (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><body><h1>Welcome to nginx!</h1></body></html>');
  },
  /** 200 with a JSON body of `megabytes` MB, streamed (never held in memory), stopping when the client hangs up. */
  hugeBody:
    (megabytes: number): Handler =>
    (_request, response) => {
      const item = Buffer.from(`${JSON.stringify({ id: 1, label: 'x'.repeat(1000) })},`);
      const items = Math.ceil((megabytes * 1024 * 1024) / item.length);
      response.writeHead(200, { 'content-type': 'application/json' });
      const body = Readable.from(
        (function* () {
          yield Buffer.from('{"data":[');
          for (let i = 0; i < items; i += 64) yield Buffer.concat(Array.from({ length: Math.min(64, items - i) }, () => item));
          yield Buffer.from('{}]}');
        })(),
      );
      body.pipe(response);
      response.on('close', () => body.destroy());
    },
  /** 200, labelled JSON, that does not parse. */
  invalidJson: (): Handler => (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"id": 12, "label": "cut here');
  },
  /** 429 with this Retry-After on the first `times` requests (every request when omitted), then `{}`. */
  rateLimited: (retryAfter: () => string | undefined, times = Infinity): Handler => {
    let answered = 0;
    return (_request, response) => {
      answered += 1;
      if (answered > times) return json(response, 200, {});
      const value = retryAfter();
      json(response, 429, { errors: [{ reason: 'Too many requests' }] }, value === undefined ? {} : { 'retry-after': value });
    };
  },
  /** `{}` to everything, at once. */
  ok: (): Handler => (_request, response) => json(response, 200, {}),
  /** A target holding nothing: every DELETE succeeds, every list read (with `page`) is empty, every other read answers 404. */
  deletesEverything: (): Handler => (request, response) => {
    if (request.method === 'DELETE') return json(response, 200, {});
    if (/[?&]page=/.test(request.url ?? '')) return json(response, 200, { data: [], page: 1, pages: 1, results: 0 });
    json(response, 404, { errors: [{ reason: 'Not found' }] });
  },
  /** Every JSON body nested `depth` arrays deep (about 2 bytes a level). */
  deepJson:
    (depth: number): Handler =>
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    },
  /**
   * Echoes the bearer token it is sent everywhere a careless server might: an error reason, a Location header and
   * other headers, bodies (raw, URL-encoded, base64 standard and URL-safe, inside a longer base64 blob, hex, across
   * the 4,000th character), and as the id of what it creates. The account and lists answer 401 but for the domain list
   * (a target refusing both reads the pre-flight asks with the token is told to have been given a wrong one); creates,
   * views and deletes succeed.
   */
  echoToken: (): Handler => async (request, response) => {
    const sent = await bodyOf(request);
    const token = (request.headers.authorization ?? '').replace(/^Bearer /, '') || 'no-token';
    const bytes = Buffer.from(token);
    const path = (request.url ?? '/').split('?')[0]!;
    const headers = {
      location: `/v4/domains/${encodeURIComponent(token)}?token=${encodeURIComponent(token)}`,
      'x-echo-token': token,
      'x-echo-base64': bytes.toString('base64'),
      'www-authenticate': `Bearer error="invalid_token", token="${bytes.toString('base64url')}"`,
    };
    if (path.startsWith('/__control')) return json(response, 404, { errors: [{ reason: 'Not found' }] });
    const method = request.method ?? 'GET';
    const refused = method === 'GET' && path !== '/v4/domains' && (path === '/v4/account' || !/\/[^/]*\d[^/]*$|\/v4\/domains\/.+/.test(path));
    if (refused) return json(response, 401, { errors: [{ reason: `invalid token: Bearer ${token}` }] }, headers);
    if (method === 'DELETE') return json(response, 200, {}, headers);
    // `long` first: the token straddles the 4,000th character of the body's JSON text, where evidence is cut.
    const body = {
      long: `${'x'.repeat(4000 - '{"long":"'.length - 5)}${token}`,
      id: token,
      // The domain sent, so that the answer shows it is the domain made: its id (the token) goes to the ledger.
      domain: typeof sent.domain === 'string' ? sent.domain : `echo-${Date.now()}.example`,
      type: 'master',
      status: 'active',
      soa_email: 'admin@example.org',
      copies: {
        url: encodeURIComponent(token),
        base64: bytes.toString('base64'),
        base64url: bytes.toString('base64url').replace(/=+$/, ''),
        hex: bytes.toString('hex'),
        blob: Buffer.concat([Buffer.from('prefix-'), bytes, Buffer.from('-suffix')]).toString('base64'),
      },
    };
    json(response, 200, body, headers);
  },
};

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function send(target: string, method: string, path: string, given: IncomingMessage['headers'], body?: Buffer): Promise<Answer> {
  // The body's framing is this request's own (a snapshot GET carries none of the write's).
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = given;
  return new Promise((resolve, reject) => {
    const outgoing = forward(`${target}${path}`, { method, headers: { ...headers, host: new URL(target).host } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 502,
          headers: { 'content-type': incoming.headers['content-type'] ?? 'application/json' },
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A proxy in front of `target` whose reads lag behind its writes, as a read replica does: for `lagMs` after a write
 * under one of `prefixes`, a GET of what the write changed (with any query the caller has used on it before: the
 * pages of a list) answers what it answered just before that write (or an earlier write still lagging): never older than `lagMs`. What a write changes: the
 * resource it names (an update or a delete) and, with `ancestors`, every path above it too (a create changes its
 * collection's list, an action its resource). Everything else passes through.
 */
export async function startLaggyProxy(target: string, options: { lagMs: number; prefixes: string[]; ancestors?: boolean }): Promise<FakeServer> {
  const stale = new Map<string, { answer: Answer; until: number }>();
  /** Per token and resource, the URLs (with their queries) read so far. */
  const asked = new Map<string, Set<string>>();
  const lagged = (path: string) => options.prefixes.some((prefix) => path.startsWith(prefix));
  // A replica answers each caller as it would have: snapshots are kept per token.
  const heldAt = (authorization: string | undefined, path: string) => {
    const held = stale.get(`${authorization} ${path}`);
    return held && Date.now() < held.until ? held : undefined;
  };
  /** `/v4/domains/1/records` → itself, `/v4/domains/1`, `/v4/domains` (never the bare version prefix). */
  const changedBy = (method: string, resource: string) => {
    const segments = resource.split('/');
    const paths = Array.from({ length: segments.length - 2 }, (_, index) => segments.slice(0, segments.length - index).join('/')).filter(lagged);
    const own = method === 'PUT' || method === 'DELETE' ? paths.slice(0, 1) : [];
    return options.ancestors ? paths : own;
  };
  return startFakeServer(async (request, response) => {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const resource = path.split('?')[0]!;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const reply = ({ status, headers, body }: Answer) => {
      response.writeHead(status, headers);
      response.end(body);
    };
    const { authorization } = request.headers;
    const held = method === 'GET' ? heldAt(authorization, path) : undefined;
    if (held) return reply(held.answer);
    if (method === 'GET') {
      const key = `${authorization} ${resource}`;
      asked.set(key, (asked.get(key) ?? new Set()).add(path));
    } else {
      for (const changed of changedBy(method, resource)) {
        for (const url of new Set([changed, ...(asked.get(`${authorization} ${changed}`) ?? [])])) {
          // A snapshot already held stays as it is, to its end: what a reader sees is never older than lagMs.
          if (heldAt(authorization, url)) continue;
          stale.set(`${authorization} ${url}`, { answer: await send(target, 'GET', url, request.headers), until: Date.now() + options.lagMs });
        }
      }
    }
    reply(await send(target, method, path, request.headers, chunks.length ? Buffer.concat(chunks) : undefined));
  });
}

export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingMessage['headers'];
}

/**
 * A proxy in front of `target` that diverges from it in named ways: `answer` may answer a request itself (a JSON body
 * with a status), `change` may alter a request before it is passed on. Everything else passes through (with no
 * rewrite, `tls`: the target served over HTTPS).
 */
export async function startRewritingProxy(
  target: string,
  rewrite: { answer?: (request: ProxiedRequest) => { status: number; body: unknown } | undefined; change?: (request: ProxiedRequest) => ProxiedRequest },
  options: { tls?: boolean } = {},
): Promise<FakeServer> {
  return startFakeServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const incoming: ProxiedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers };
    const own = rewrite.answer?.(incoming);
    if (own) return json(response, own.status, own.body);
    const { method, path, headers } = rewrite.change?.(incoming) ?? incoming;
    const answer = await send(target, method, path, headers, chunks.length ? Buffer.concat(chunks) : undefined);
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  }, options);
}

type Json = Record<string, unknown>;

/** One lie of the liar proxy: which answers it rewrites, and how (the body parsed; `created` ids the target made). */
export interface Lie {
  id: string;
  does: string;
  applies: (method: string, resource: string) => boolean;
  rewrite: (body: Json, context: { method: string; resource: string; created: Set<string> }) => Json | 'not found';
}

const items = (body: Json): Json[] => (Array.isArray(body.data) ? (body.data as Json[]) : [body]);
const withStatus =
  (status: string, which: (item: Json) => boolean = () => true) =>
  (body: Json) => {
    for (const item of items(body)) if ('status' in item && which(item)) item.status = status;
    return body;
  };
const under = (pattern: RegExp) => (method: string, resource: string) => method !== 'DELETE' && pattern.test(resource);

/** Well-formed JSON that lies: states that never come, values outside their enums, creates that lists never show. */
export const LIES: Lie[] = [
  // Public images stay `available`, so instances can still be made and the other lies are met.
  {
    id: 'image-status-outside-enum',
    does: 'a private image\'s status is "unheard_of"',
    applies: under(/^\/v4\/images(\/|$)/),
    rewrite: withStatus('unheard_of', (item) => String(item.id).startsWith('private/')),
  },
  {
    id: 'cluster-never-active',
    does: 'a database cluster stays "provisioning" forever',
    applies: under(/^\/v4\/databases\/(mysql\/)?instances(\/\d+)?$/),
    rewrite: withStatus('provisioning'),
  },
  {
    id: 'instance-never-boots',
    does: 'an instance stays "provisioning" forever',
    applies: under(/^\/v4\/compute\/instances(\/\d+)?$/),
    rewrite: withStatus('provisioning'),
  },
  {
    id: 'created-domains-never-listed',
    does: 'a domain the caller created never appears in the domain list',
    applies: (method, resource) => method === 'GET' && resource === '/v4/domains',
    rewrite: (body, { created }) => ({ ...body, data: items(body).filter((item) => !created.has(`/v4/domains/${String(item.id)}`)) }),
  },
  {
    id: 'created-domain-404',
    does: 'a domain answers 404 right after its create returned it',
    applies: (method, resource) => method === 'GET' && /^\/v4\/domains\/\d+$/.test(resource),
    rewrite: (body, { resource, created }) => (created.has(resource) ? 'not found' : body),
  },
];

/** A proxy in front of `target` telling every lie of `lies` (control hooks pass through untouched). */
export async function startLiarProxy(target: string, lies: Lie[] = LIES): Promise<FakeServer> {
  const created = new Set<string>();
  return startFakeServer(async (request, response) => {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const resource = path.split('?')[0]!;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await send(target, method, path, request.headers, chunks.length ? Buffer.concat(chunks) : undefined).catch(() => undefined);
    if (!answer) return json(response, 502, { errors: [{ reason: 'upstream unreachable' }] });
    let body: Json | undefined;
    try {
      body = answer.status < 300 && answer.body.length ? (JSON.parse(answer.body.toString('utf8')) as Json) : undefined;
    } catch {
      body = undefined;
    }
    if (!body || typeof body !== 'object') return void response.writeHead(answer.status, answer.headers).end(answer.body);
    if (method === 'POST' && (typeof body.id === 'number' || typeof body.id === 'string')) created.add(`${resource}/${String(body.id)}`);
    let told: Json | 'not found' = body;
    for (const lie of lies) if (told !== 'not found' && lie.applies(method, resource)) told = lie.rewrite(told, { method, resource, created });
    if (told === 'not found') return json(response, 404, { errors: [{ reason: 'Not found' }] });
    json(response, answer.status, told);
  });
}
