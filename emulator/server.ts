// The reference emulator's HTTP server: fastify, the areas' routes, authentication, body handling, error bodies.
//
// Choices where the documents are silent, for every area:
// - Status codes: 401 for a missing or unknown token, 403 for a missing scope, a restricted user or a missing
//   grant, 404 for an unknown id or path, 400 for validation and failed preconditions (wrong status, uniqueness,
//   limits), 413 for an oversized body (1 MB JSON, 64 MB upload), 415 for a wrong content type.
// - Errors are `{"errors": [{"reason", "field"}]}` with nested fields as dot paths with numeric indexes
//   (`rules.inbound.3.ports`).
// - Paging bounds 25..100 (default 100) apply to every list, including document 1's (where they are not shown).
// - Regions `us-east` (VLANs, IPv6 range sharing), `us-west` (range sharing), `eu-central` (VLANs), `ap-south`;
//   instance types `g6-nanode-1`, `g6-standard-1/2/4`.
//
// Control hooks (served unless `control: false`; no authentication; other emulators may implement the same):
//   GET  /__control                 → {"control": true, "now": "<simulated now, YYYY-MM-DDTHH:MM:SS>"}
//   POST /__control/tokens          {"scopes": "*" | ["domains:read_only", ...],   (default "*")
//                                    "restricted": false,                           (default false)
//                                    "grants": {"global": {"add_computes": true, ...},
//                                               "entities": {"compute": {"123": "read_write"}, ...}},
//                                    "username": "someone",                         (default emulator-user)
//                                    "oauth_client_id": "..."}                      (token issued to that OAuth
//                                                                                     client: deleting the client
//                                                                                     invalidates it)
//                                   → {"token": "..."}; a garbage body → 400 error body
//   POST /__control/clock           {"advance_seconds": N} (N a number >= 0) → {"now": "..."}; runs every
//                                   time-driven task that became due (provisioning, expiry, backups, ...)
//   POST /__control/reset           → {}; rebuilds the state from the seed; tokens minted before are forgotten
//                                   (the default token stays)
//
// Request handling choices (where the documents say "not shown"):
//   - bodies are JSON (`application/json`, any charset); a POST/PUT with another content type and a non-empty
//     body → 415; malformed JSON → 400; a JSON body over 1 MB → 413; unknown path or method → 404;
//     a missing body reaches the handler as undefined.
//   - routes under `/__upload/` (image upload data) take `application/octet-stream` as a Buffer, up to 64 MB
//     (413 beyond); any other content type with a body → 415 there.
//   - errors: {"errors":[{"reason": "...", "field": "dot.path.3.member" | null}]}.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { areas } from './areas/index.js';
import { authenticate } from './core/auth.js';
import { DEFAULT_TOKEN, Store } from './core/store.js';
import { ApiError, Reply, type Area, type EntityGrants, type Principal, type RequestContext, type Route } from './core/types.js';
import { asObject, fail, isPlainObject, optBool, optObject, optString, readRequestsWith } from './core/validate.js';
import { routeFaulty } from './core/endpoint-faults.js';
import { faulty } from './faults/index.js';
import { varied } from './variations/index.js';
import { errorStatus, goneRead, laggedRead, replicaRead, successStatus, variedPayload } from './variations/responses.js';

export { DEFAULT_TOKEN };

export interface ServerOptions {
  /** Serve the `/__control` hooks (default true). */
  control?: boolean;
  /** Fault ids exposed to the areas as `store.faults`. */
  faults?: string[];
  /** Variation ids (allowed choices made differently) exposed to the areas as `store.variations`. */
  variations?: string[];
  /** The default user's token (default DEFAULT_TOKEN). */
  token?: string;
  logger?: boolean;
  /** Areas served in addition to the API's (the core's own tests use a tiny one). */
  extraAreas?: Area[];
}

const JSON_BODY_LIMIT = 1024 * 1024;
const UPLOAD_BODY_LIMIT = 64 * 1024 * 1024;
const UPLOAD_PREFIX = '/__upload/';

/** A non-JSON request body, kept raw until the route decides whether it accepts it. */
class RawBody {
  constructor(
    readonly contentType: string,
    readonly data: Buffer,
  ) {}
}

type StoreOptions = { token: string; faults: readonly string[]; variations: readonly string[]; extraAreas: readonly Area[] };

/** The state the requests of one listening server act on (replaced on reset), and what it is built from. */
interface Tenant {
  store: Store;
  readonly options: StoreOptions;
}

/** Each app's own tenant: the state of the server `listen` starts. */
const ownTenants = new WeakMap<FastifyInstance, Tenant>();
/** The tenant of each connection to a server `listenTenant` started (one app serving several states). */
const socketTenants = new WeakMap<Socket, Tenant>();
const principals = new WeakMap<FastifyRequest, Principal | null>();

/** The current state of a server built by buildServer (replaced on reset), for tests. */
export function getStore(app: FastifyInstance): Store {
  const own = ownTenants.get(app);
  if (!own) throw new Error('not an emulator server');
  return own.store;
}

/** A fresh store with the core catalogue and every area's seed data. */
function createStore(opts: StoreOptions): Store {
  const store = new Store({ token: opts.token, faults: opts.faults, variations: opts.variations });
  const all = [...areas, ...opts.extraAreas];
  for (const area of all) area.listen?.(store);
  for (const area of all) area.seed?.(store);
  return store;
}

/** The error body; with `store` (API errors), the faults of the error-body rules change its shape. */
function errorBody(reason: string, field: string | null = null, store?: Store): unknown {
  if (field === null && store && varied(store, 'error-field-omitted')) return { errors: [{ reason }] };
  if (!store?.faults.size) return { errors: [{ reason, field }] };
  const at = field !== null && faulty(store, 'P1.errors.field.dot-path') ? field.replace(/\./g, '/') : field;
  const error = {
    [faulty(store, 'P1.errors.body.reason') ? 'message' : 'reason']: reason,
    field: at !== null && faulty(store, 'P1.errors.body.field') ? at.split('.') : at,
  };
  if (faulty(store, 'P1.errors.body.object')) return [error];
  return { errors: faulty(store, 'P1.errors.body.errors') ? error : [error] };
}

function sendError(reply: FastifyReply, status: number, reason: string, field: string | null = null, store?: Store): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .send(errorBody(reason, field, store));
}

/** `/v4/domains/{domainId}` → `/v4/domains/:domainId`; a trailing `{engineId}` or `{kernelId}` (may hold a slash) → wildcard. */
function fastifyPath(path: string): { url: string; wildcardParam?: string } {
  const wildcard = /\/\{(engineId|kernelId)\}$/.exec(path);
  if (wildcard) return { url: `${path.slice(0, wildcard.index)}/*`, wildcardParam: wildcard[1] };
  return { url: path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1') };
}

/** Whether the route's id (a slash in it) is served only with its slash as it is: variations image-ids-raw-only and kernel-ids-slashed-raw-only. */
function slashEncodedRefused(store: Store, path: string): boolean {
  return (varied(store, 'image-ids-raw-only') && path.includes('{imageId}')) || (varied(store, 'kernel-ids-slashed-raw-only') && path.includes('{kernelId}'));
}

/** Remote addresses already worked out: every request asks, and a run comes from one or two addresses. */
const remoteAddresses = new Map<string, string>();

function remoteIpv4(ip: string): string {
  let address = remoteAddresses.get(ip);
  if (address === undefined) {
    if (remoteAddresses.size >= 1000) remoteAddresses.clear();
    remoteAddresses.set(ip, (address = workOutRemoteIpv4(ip)));
  }
  return address;
}

function workOutRemoteIpv4(ip: string): string {
  try {
    const addr = ipaddr.process(ip);
    if (addr.kind() === 'ipv4') return addr.toString();
    return addr.toString() === '::1' ? '127.0.0.1' : addr.toString();
  } catch {
    return ip;
  }
}

function firstValues(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (!isPlainObject(query)) return out;
  for (const [k, v] of Object.entries(query)) {
    out[k] = Array.isArray(v) ? (v.length > 0 ? String(v[0]) : undefined) : typeof v === 'string' ? v : undefined;
  }
  return out;
}

/** Resolves the parsed body against what the route accepts (415 for a non-JSON body it does not take). */
function routeBody(request: FastifyRequest, isUpload: boolean): unknown {
  const body = request.body;
  if (body instanceof RawBody) {
    if (isUpload && body.contentType === 'application/octet-stream') return body.data;
    if (body.data.length === 0 || (request.method !== 'POST' && request.method !== 'PUT')) return undefined;
    fail(
      isUpload
        ? 'Unsupported Content-Type: send the image data as application/octet-stream.'
        : `Unsupported Content-Type "${body.contentType || '(none)'}": send the body as application/json.`,
      null,
      415,
    );
  }
  if (isUpload && body !== undefined) {
    fail('Unsupported Content-Type: send the image data as application/octet-stream.', null, 415);
  }
  return body;
}

function toResult(reply: FastifyReply, result: unknown): unknown {
  if (result instanceof Reply) {
    reply.code(result.status);
    for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
    return result.body === undefined ? {} : result.body;
  }
  return result === undefined ? {} : result;
}

const SCOPE = /^[a-z][a-z0-9_]*:(read_only|read_write|read)$/;
const ENTITY_KINDS = ['compute', 'domain', 'volume', 'balancer', 'image', 'firewall', 'database'] as const;

/** Validates the body of POST /__control/tokens and registers the new principal. */
function mintToken(store: Store, raw: unknown): Principal {
  const o = asObject(raw ?? {});
  let scopes: Principal['scopes'] = '*';
  if (o['scopes'] !== undefined && o['scopes'] !== '*') {
    if (!Array.isArray(o['scopes'])) fail('scopes must be "*" or an array of scope strings.', 'scopes');
    scopes = o['scopes'].map((s, i) => {
      if (typeof s !== 'string' || !SCOPE.test(s)) {
        fail('Each scope must look like "<area>:read_only" or "<area>:read_write".', `scopes.${i}`);
      }
      return s;
    });
  }
  const restricted = optBool(o, 'restricted') ?? false;
  const username = optString(o, 'username', { min: 1, max: 64 }) ?? store.defaultUser;
  const oauthClientId = optString(o, 'oauth_client_id', { min: 1, max: 256 });
  const grants = optObject(o, 'grants') ?? {};
  const global = optObject(grants, 'global', { path: 'grants' }) ?? {};
  for (const [k, v] of Object.entries(global)) {
    if (v !== null && typeof v !== 'boolean' && v !== 'read_only' && v !== 'read_write') {
      fail('A global grant is true, false, null, "read_only" or "read_write".', `grants.global.${k}`);
    }
  }
  const entitiesIn = optObject(grants, 'entities', { path: 'grants' }) ?? {};
  const entities: EntityGrants = {};
  for (const [kind, byId] of Object.entries(entitiesIn)) {
    if (!(ENTITY_KINDS as readonly string[]).includes(kind)) {
      fail(`Entity grant kinds are ${ENTITY_KINDS.join(', ')}.`, `grants.entities.${kind}`);
    }
    const ids = asObject(byId, `grants.entities.${kind}`);
    const levels: Record<string, 'read_only' | 'read_write'> = {};
    for (const [id, level] of Object.entries(ids)) {
      if (level !== 'read_only' && level !== 'read_write') {
        fail('An entity grant is "read_only" or "read_write".', `grants.entities.${kind}.${id}`);
      }
      levels[id] = level;
    }
    entities[kind as (typeof ENTITY_KINDS)[number]] = levels;
  }
  const token = `chs-test-${store.nextId('control-token')}-${store.randomHex(12)}`;
  const principal: Principal = {
    token,
    username,
    scopes,
    restricted,
    grants: { global: { ...global }, entities },
    ...(oauthClientId !== undefined ? { oauthClientId } : {}),
  };
  store.tokens.set(token, principal);
  return principal;
}

function newTenant(opts: ServerOptions): Tenant {
  const options = { token: opts.token ?? DEFAULT_TOKEN, faults: opts.faults ?? [], variations: opts.variations ?? [], extraAreas: opts.extraAreas ?? [] };
  return { store: createStore(options), options };
}

/** Where a route is served: the faults of the versioning rules move some. */
function routeUrls(faults: { faults: ReadonlySet<string> }, route: Route): string[] {
  const { url: documented } = fastifyPath(route.path);
  const url = routeFaulty(faults, route, 'beta-unversioned') ? documented.replace(/^\/v4beta\//, '/v4/') : documented;
  // The fault of P1.versioning.v4-prefix serves the engines list without its version segment only.
  return faulty(faults, 'P1.versioning.v4-prefix') && url === '/v4/databases/engines' ? [url.slice(3)] : [url];
}

/**
 * What an app built by buildServer registers: apps of the same shape serve every state alike (`listenTenant`),
 * whatever faults and variations it holds.
 */
export function routeShape(opts: ServerOptions): string {
  const faults = { faults: new Set(opts.faults ?? []) };
  const urls = [...areas, ...(opts.extraAreas ?? [])].flatMap((area) =>
    area.routes.flatMap((route) => routeUrls(faults, route).map((url) => `${route.method} ${url}`)),
  );
  return JSON.stringify({ urls, control: opts.control !== false, varied: (opts.variations ?? []).length > 0 });
}

export async function buildServer(opts: ServerOptions = {}): Promise<FastifyInstance> {
  const served = [...areas, ...(opts.extraAreas ?? [])];
  const own = newTenant(opts);
  const tenantOf = (raw: IncomingMessage): Tenant => socketTenants.get(raw.socket) ?? own;

  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: JSON_BODY_LIMIT,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 1000 },
    // Under `unversioned-paths-served`, a path without the version segment is served as the /v4 one (not the
    // emulator's own /__ paths: control hooks, upload URLs).
    rewriteUrl: (request) => {
      const url = request.url ?? '/';
      return tenantOf(request).store.variations.has('unversioned-paths-served') && !/^\/(v4|v4beta|__[a-z]+)(\/|\?|$)/.test(url) ? `/v4${url}` : url;
    },
    // Router-level failures (a path with broken percent-encoding) get the error body too.
    frameworkErrors: (err, _request, reply) => {
      if (err.code === 'FST_ERR_BAD_URL') {
        sendError(reply, 400, 'The request path is not a valid URL: fix its percent-encoding.');
      } else {
        sendError(reply, 400, err.message || 'Bad request.');
      }
    },
  });
  ownTenants.set(app, own);

  app.removeAllContentTypeParsers();
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    jsonParser(req, text, (err: Error | null, value?: unknown) => {
      if (err) {
        const reason = /prototype|constructor/i.test(err.message)
          ? 'Malformed JSON body: the keys "__proto__" and "constructor.prototype" are not allowed.'
          : 'Malformed JSON body: the request body is not valid JSON. Send a valid JSON document.';
        done(new ApiError(400, reason), undefined);
      } else {
        done(null, value);
      }
    });
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    done(null, new RawBody(type, body as Buffer));
  });

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    const store = tenantOf(request.raw).store;
    if (err instanceof ApiError) return sendError(reply, errorStatus(store, err.status, err.documented), err.reason, err.field, store);
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE': {
        const limit = request.url.startsWith(UPLOAD_PREFIX) ? '64 MB' : '1 MB';
        return sendError(reply, 413, `The request body is too large: the limit is ${limit}.`);
      }
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, 415, 'Unsupported Content-Type: send the body as application/json.');
    }
    const status = err.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(reply, status, err.message || 'Bad request.');
    }
    process.stderr.write(`emulator: unexpected error on ${request.method} ${request.url}: ${err.stack ?? String(err)}\n`);
    return sendError(reply, 500, 'Internal error in the emulator (a bug): the request could not be completed.');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // Under the variation a path outside the API gets the web server's own page, as a framework's default 404 would.
    if (tenantOf(request.raw).store.variations.has('non-api-paths-html') && !/^\/(v4|v4beta|__[a-z]+)(\/|$)/.test(path))
      return reply.code(404).type('text/html').send('<html><body><h1>404 Not Found</h1></body></html>');
    sendError(reply, 404, `Not found: ${request.method} ${path} is not an endpoint of this API.`);
  });

  for (const area of served) {
    for (const route of area.routes) for (const url of routeUrls(own.store, route)) registerAt(app, tenantOf, route, url);
  }

  // A POST to a path that also lists (a collection) creates; the variations of success codes tell the two apart.
  const collections = new Set(
    served
      .flatMap((area) => area.routes)
      .filter((route) => route.method === 'GET')
      .map((route) => fastifyPath(route.path).url),
  );
  // Only an emulator making choices differently rewrites its answers: the others spare every response the hook.
  if (own.options.variations.length)
    app.addHook('onSend', async (request, reply, payload) => {
      const store = tenantOf(request.raw).store;
      if (request.url.startsWith('/__control')) return payload;
      const path = request.url.split('?')[0]!;
      const lagged =
        laggedRead(store, request.method, path, reply.statusCode, payload) ??
        replicaRead(store, request.method, `${request.url} ${request.headers.authorization ?? ''}`, reply.statusCode, payload) ??
        goneRead(store, request.method, path, reply.statusCode, payload);
      if (lagged) {
        reply.code(lagged.status);
        payload = lagged.payload;
      }
      reply.code(successStatus(store, request.method, reply.statusCode, collections.has(request.routeOptions.url ?? '')));
      if (varied(store, 'rate-limit-headers')) reply.header('x-ratelimit-limit', '800').header('x-ratelimit-remaining', '799');
      if (varied(store, 'json-without-charset') && String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
        reply.header('content-type', 'application/json');
      return variedPayload(store, payload, request.routeOptions.url);
    });

  if (opts.control !== false) {
    app.get('/__control', async (request) => {
      const store = tenantOf(request.raw).store;
      store.runDue();
      return { control: true, now: store.nowIso() };
    });
    app.post('/__control/tokens', async (request) => {
      const store = tenantOf(request.raw).store;
      store.runDue();
      const principal = mintToken(store, routeBody(request, false));
      return { token: principal.token };
    });
    app.post('/__control/clock', async (request) => {
      const o = asObject(routeBody(request, false) ?? {});
      const n = o['advance_seconds'];
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1e10) {
        fail('advance_seconds is required: a number of seconds from 0 to 10000000000.', 'advance_seconds');
      }
      const store = tenantOf(request.raw).store;
      store.advance(n);
      return { now: store.nowIso() };
    });
    app.post('/__control/reset', async (request) => {
      routeBody(request, false);
      const tenant = tenantOf(request.raw);
      tenant.store = createStore(tenant.options);
      return {};
    });
  }

  return app;
}

function registerAt(app: FastifyInstance, tenantOf: (raw: IncomingMessage) => Tenant, route: Route, url: string): void {
  const { wildcardParam } = fastifyPath(route.path);
  const isUpload = route.path.startsWith(UPLOAD_PREFIX);
  app.route({
    method: route.method,
    url,
    ...(isUpload ? { bodyLimit: UPLOAD_BODY_LIMIT } : {}),
    // Authentication runs before the body is read, so a caller without a valid token gets 401/403, not a
    // validation answer.
    onRequest: async (request) => {
      const store = tenantOf(request.raw).store;
      store.runDue();
      principals.set(request, authenticate(store, route, request.headers.authorization));
    },
    handler: async (request, reply) => {
      const store = tenantOf(request.raw).store;
      const principal = principals.get(request) ?? null;
      const body = routeBody(request, isUpload);
      if (slashEncodedRefused(store, route.path) && /%2F/i.test(request.url.split('?')[0]!))
        fail(`Not found: an id's slash is part of the path here`, null, 404);
      if (varied(store, 'engine-ids-encoded-only') && route.path.includes('{engineId}') && /\/engines\/[^/?]*\//.test(request.url))
        fail('Not found: encode the slash of an engine id as %2F', null, 404);
      if (route.method === 'PUT' && varied(store, 'empty-update-refused') && isPlainObject(body) && Object.keys(body).length === 0)
        fail('Nothing to update: give at least one field', null);
      let params = request.params as Record<string, string>;
      if (wildcardParam !== undefined) {
        const rawWild = params['*'] ?? '';
        let value = rawWild;
        try {
          value = decodeURIComponent(rawWild);
        } catch {
          // keep the raw value: the area answers 404 for an id it does not know
        }
        params = { [wildcardParam]: value };
      }
      const ctx: RequestContext = {
        method: route.method,
        route: route.path,
        params,
        query: firstValues(request.query),
        body,
        headers: request.headers,
        principal,
        remoteAddress: remoteIpv4(request.ip),
        baseUrl: `${request.protocol}://${request.host}`,
        store,
      };
      if (routeFaulty(store, route, 'valid-refused')) fail('This request cannot be served.');
      readRequestsWith({
        lenientScalars: varied(store, 'lenient-scalars'),
        enumsAnyCase: varied(store, 'enums-any-case'),
        lenientArrays: varied(store, 'lenient-arrays'),
        blankOptionalAbsent: varied(store, 'blank-optional-absent'),
      });
      return toResult(reply, await handle(route, ctx));
    },
  });
}

/** Runs the route's handler; the unknown-id faults, and a DELETE under the variation delete-unknown-ok, answer its 404 with a 200. */
async function handle(route: Route, ctx: RequestContext): Promise<unknown> {
  try {
    return await route.handler(ctx);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
    if (routeFaulty(ctx.store, route, 'unknown-id-deleted')) return { id: Object.values(ctx.params).at(-1), deleted: true };
    const deleteIdempotent = route.method === 'DELETE' && varied(ctx.store, 'delete-unknown-ok');
    if (deleteIdempotent || routeFaulty(ctx.store, route, 'unknown-id-served')) return {};
    throw err;
  }
}

/**
 * Serves a fresh state through `app`'s routes on a server of its own (its own port): the `--instances` host builds an
 * app per route shape (`routeShape`) rather than one per emulator. `opts` must have the app's shape. A request still
 * on its way to a closed tenant finds its port closed, as with an app of its own.
 */
export async function listenTenant(app: FastifyInstance, opts: ServerOptions, host: string): Promise<{ port: number; close(): Promise<void> }> {
  await app.ready();
  const tenant = newTenant(opts);
  const server = createServer(app.routing);
  copyServerSettings(app.server as Server, server);
  server.on('connection', (socket: Socket) => socketTenants.set(socket, tenant));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** fastify's timeouts and malformed-request answer on a server it did not create. */
function copyServerSettings(from: Server, to: Server): void {
  to.keepAliveTimeout = from.keepAliveTimeout;
  to.requestTimeout = from.requestTimeout;
  to.headersTimeout = from.headersTimeout;
  to.maxRequestsPerSocket = from.maxRequestsPerSocket;
  to.setTimeout(from.timeout);
  for (const listener of from.listeners('clientError')) to.on('clientError', listener as (error: Error, socket: Socket) => void);
}
