// The suite's HTTP client: undici with a keep-alive pool; every exchange is captured as evidence. It is a guest on
// the target: a requests-per-second cap, bounded retries honouring Retry-After on 429, a run budget, and response
// bodies read up to a cap, so a hostile or broken target can neither hang the run nor exhaust its memory.
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pThrottle from 'p-throttle';
import { Agent, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import { REDACTED } from './redact.js';

export interface Exchange {
  method: string;
  /** Path with query, as sent (relative to the base URL). */
  path: string;
  requestHeaders: Record<string, string>;
  /** The JSON value sent; for a body sent as is (`rawBody`), its text, or `<N bytes of type>` for binary data. */
  requestBody?: unknown;
  /** The body was sent as is (`SendOptions.raw`), not as JSON: `text` when `requestBody` holds it whole. */
  rawBody?: 'text' | 'binary';
  /** Whose token the request carried (never the token), for its reproduction: see `TokenOwner`. */
  tokenOwner?: TokenOwner;
  /** 0 when no response arrived (see `error`). */
  status: number;
  responseHeaders: Record<string, string>;
  contentType: string;
  /** Parsed JSON when the body was JSON, else the text (truncated), else undefined for an empty body. */
  body: unknown;
  /** The body did not parse as JSON although it was not empty. */
  notJson: boolean;
  /** The body was larger than the capture limit and was cut. */
  truncated: boolean;
  durationMs: number;
  /** Transport failure: timeout, refused, reset (or not sent: the run budget was spent). */
  error?: string;
  /** Still answered 429 when the retries ran out: `status` and `body` are the last attempt's. */
  rateLimited?: string;
  /** Attempts made (more than one after 429s). */
  attempts?: number;
}

/**
 * Whose token a request carried: the run's own (`--token`), a `--token-scoped` one (its scope set), the
 * `--restricted-token`, or one the run minted or made itself, which no setting holds and which is gone after the run.
 */
export type TokenOwner = { token: 'full' | 'restricted' | 'made' } | { token: 'scoped'; scopes: string };

export interface SendOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Bearer token; null or undefined sends no Authorization header. */
  token?: string | null;
  /** A JSON body (serialised) … */
  json?: unknown;
  /** … or a raw body with its content type. */
  raw?: { data: string | Buffer; contentType: string };
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Sent even after the run budget is spent (cleanup of what the run created). */
  ignoreRunBudget?: boolean;
}

export interface RateLimitPolicy {
  /** Attempts of one request while the target answers 429 (the first included). */
  attempts: number;
  /** The longest wait before a retry; a Retry-After asking for more ends the retries at once. */
  maxWaitMs: number;
}

/** 4 attempts, at most 20 s apart: a check's own time limit is 60 s. */
export const RATE_LIMIT_POLICY: RateLimitPolicy = { attempts: 4, maxWaitMs: 20_000 };

export interface HttpClientOptions {
  /** Per attempt: connection, headers and the whole body. */
  timeoutMs: number;
  /** Requests per second this client sends at most (null: no cap). */
  maxRps?: number | null;
  /** Wall-clock time (ms since the epoch) after which requests are no longer sent (null: no budget). */
  deadline?: number | null;
  rateLimit?: RateLimitPolicy;
  /** Headers every request carries (`--header`: a gateway's key); a request's own headers win, and the evidence shows their values redacted. */
  headers?: Record<string, string>;
}

/** What the evidence keeps of a body sent as is: its text, or how many bytes of what it was. */
function rawEvidence({ data, contentType }: NonNullable<SendOptions['raw']>): Pick<Exchange, 'requestBody' | 'rawBody'> {
  return typeof data === 'string' ? { requestBody: data, rawBody: 'text' } : { requestBody: `<${data.byteLength} bytes of ${contentType}>`, rawBody: 'binary' };
}

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];
/** A host on this machine: the embedded emulator, a server started beside the run. */
const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/i;

/**
 * Whether requests to this origin go through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY, either case;
 * NO_PROXY lists the hosts reached directly, as curl and npm read them). A loopback host never does: a proxy elsewhere
 * could not reach this machine's servers, the embedded emulator among them.
 */
export function proxiedOrigin(origin: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return !LOOPBACK.test(new URL(origin).hostname) && PROXY_VARIABLES.some((name) => env[name]);
}

/** The dispatcher of one origin's requests: through the environment's proxy (`proxiedOrigin`), else `direct`. */
export function dispatcherFor(origin: string, options: Agent.Options, direct: () => Dispatcher): Dispatcher {
  return proxiedOrigin(origin) ? new EnvHttpProxyAgent(options) : direct();
}

/** Response bodies beyond this are cut: a conformance verdict never needs more, and a hostile target cannot exhaust memory. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Requests other than reads (GET) this thread sent and the target did not refuse with a 4xx: each may have
 * changed something (an answer lost on the way counts too).
 */
let writesNotRefused = 0;
export const writesNotRefusedSoFar = (): number => writesNotRefused;

export class HttpClient {
  /** One keep-alive pool for the target's origin (cheaper per request than an Agent looking the origin up), or the proxy's agent. */
  private readonly pool: Dispatcher;
  private readonly origin: string;
  /** What the base URL holds after its origin (a path prefix), without a trailing slash. */
  private readonly prefix: string;
  private readonly options: Required<HttpClientOptions>;
  /** Resolves when the requests-per-second cap lets the next attempt go. */
  private readonly nextSlot: () => Promise<void>;

  constructor(
    readonly baseUrl: string,
    options: HttpClientOptions | number,
  ) {
    const given = typeof options === 'number' ? { timeoutMs: options } : options;
    this.options = {
      timeoutMs: given.timeoutMs,
      maxRps: given.maxRps ?? null,
      deadline: given.deadline ?? null,
      rateLimit: given.rateLimit ?? RATE_LIMIT_POLICY,
      headers: given.headers ?? {},
    };
    const { timeoutMs, maxRps } = this.options;
    const url = new URL(baseUrl);
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.origin = url.origin;
    const connections = { keepAliveTimeout: 10_000, connections: 32, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs };
    this.pool = dispatcherFor(url.origin, connections, () => new Pool(url.origin, connections));
    // One request per 1/maxRps seconds, evenly spaced (strict), rather than bursts at each second's start.
    this.nextSlot = maxRps ? pThrottle({ limit: 1, interval: 1000 / maxRps, strict: true })(async () => {}) : async () => {};
  }

  async send(options: SendOptions): Promise<Exchange> {
    const query = Object.entries(options.query ?? {}).filter(([, value]) => value !== undefined);
    const path = options.path + (query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '');
    const headers: Record<string, string> = { ...this.options.headers, accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.raw) {
      body = options.raw.data;
      headers['content-type'] = options.raw.contentType;
    }
    const exchange: Exchange = {
      method: options.method,
      path,
      requestHeaders: redactHeaders(headers, this.options.headers),
      ...(options.json !== undefined ? { requestBody: options.json } : options.raw ? rawEvidence(options.raw) : {}),
      status: 0,
      responseHeaders: {},
      contentType: '',
      body: undefined,
      notJson: false,
      truncated: false,
      durationMs: 0,
    };
    const started = performance.now();
    const { rateLimit, deadline } = this.options;
    // A 429 means the request was not processed, so every method is retried. Not undici's RetryAgent: it runs all
    // attempts under one abort signal, so a Retry-After wait would eat the per-request timeout.
    for (let attempt = 1; ; attempt++) {
      if (deadline !== null && Date.now() >= deadline && !options.ignoreRunBudget) {
        exchange.error = 'not sent: the run budget (--run-budget) is spent';
        break;
      }
      await this.nextSlot();
      await this.attempt(exchange, body, headers);
      if (attempt > 1) exchange.attempts = attempt;
      if (exchange.status !== 429) break;
      const asked = retryAfterMs(exchange.responseHeaders['retry-after']);
      const wait = asked ?? Math.min(1000 * 2 ** (attempt - 1), rateLimit.maxWaitMs);
      const giveUp =
        attempt >= rateLimit.attempts
          ? `still answered 429 after ${attempt} attempts`
          : wait > rateLimit.maxWaitMs
            ? `answered 429 asking to wait ${Math.round(wait / 1000)} s (Retry-After), more than the ${rateLimit.maxWaitMs / 1000} s the suite waits`
            : deadline !== null && Date.now() + wait >= deadline && !options.ignoreRunBudget
              ? 'answered 429 and the run budget ends before the wait asked for'
              : null;
      if (giveUp) {
        exchange.rateLimited = `rate limited: ${options.method} ${path} ${giveUp}`;
        break;
      }
      await sleep(wait);
    }
    exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
    if (options.method !== 'GET' && !(exchange.status >= 400 && exchange.status < 500)) writesNotRefused++;
    return exchange;
  }

  /** One attempt: fills the response members of `exchange` (after clearing those of an earlier attempt). */
  private async attempt(exchange: Exchange, body: string | Buffer | undefined, headers: Record<string, string>): Promise<void> {
    Object.assign(exchange, { status: 0, responseHeaders: {}, contentType: '', body: undefined, notJson: false, truncated: false });
    // The whole attempt (connection, headers, body) within the timeout. A timer and an event emitter of our own (undici
    // takes an emitter of 'abort' as the signal): AbortSignal.timeout, or even an AbortController, costs several times
    // more per request.
    const abort = new EventEmitter();
    const timer = setTimeout(() => abort.emit('abort'), this.options.timeoutMs);
    try {
      const response = await this.pool.request({
        origin: this.origin,
        path: this.prefix + exchange.path,
        method: exchange.method as SendOptions['method'],
        headers,
        body,
        signal: abort,
      });
      exchange.status = response.statusCode;
      for (const [name, value] of Object.entries(response.headers))
        if (value !== undefined) exchange.responseHeaders[name] = Array.isArray(value) ? value.join(', ') : String(value);
      exchange.contentType = (exchange.responseHeaders['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      // A declared length within the cap is read whole (undici refuses a body that does not match it); else read up to the cap.
      const declared = Number(exchange.responseHeaders['content-length'] ?? NaN);
      const { text, truncated } = declared <= MAX_BODY_BYTES ? { text: await response.body.text(), truncated: false } : await readCapped(response.body);
      exchange.truncated = truncated;
      // A body cut at the cap is not JSON by construction: that says nothing about the target.
      if (truncated) exchange.body = text.slice(0, 2000);
      else if (text.length) {
        try {
          exchange.body = capDepth(JSON.parse(text));
        } catch {
          exchange.notJson = true;
          exchange.body = text.slice(0, 2000);
        }
      }
    } catch (error) {
      exchange.error = describeTransportError(error, this.options.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Nesting kept of a JSON body: far deeper than any documented response, shallow enough for every recursive reader. */
export const MAX_JSON_DEPTH = 64;

/**
 * `value` with whatever sits deeper than MAX_JSON_DEPTH replaced by a note (no documented member lies that deep, so
 * every verdict on documented members stands). Iterative: the input may be nested too deep for a recursive walk.
 */
export function capDepth(value: unknown): unknown {
  const stack: Array<{ node: Record<string, unknown> | unknown[]; depth: number }> = [];
  if (value && typeof value === 'object') stack.push({ node: value as Record<string, unknown>, depth: 1 });
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    for (const key of Object.keys(node)) {
      const child = (node as Record<string, unknown>)[key];
      if (!child || typeof child !== 'object') continue;
      if (depth >= MAX_JSON_DEPTH)
        Object.defineProperty(node, key, { value: `[nested deeper than ${MAX_JSON_DEPTH} levels: cut]`, enumerable: true, writable: true, configurable: true });
      else stack.push({ node: child as Record<string, unknown>, depth: depth + 1 });
    }
  }
  return value;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      chunks.push(chunk.subarray(0, chunk.length - (size - MAX_BODY_BYTES)));
      body.destroy?.();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** What a Retry-After header asks to wait in ms (delay-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Why nothing in the exchange can be judged (no answer, a persisting 429, a body past the cap), or null. */
export function whyUnjudgeable(exchange: Exchange): string | null {
  if (exchange.error) return `${exchange.method} ${exchange.path}: no answer (${exchange.error})`;
  if (exchange.rateLimited) return exchange.rateLimited;
  if (exchange.truncated)
    return `${exchange.method} ${exchange.path}: the response body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB (read up to that and cut)`;
  return null;
}

/** The target gave nothing to judge: the check reports `error` (a verdict of the run, not a rule broken). */
export class NothingToJudge extends Error {
  override name = 'NothingToJudge';
}

function describeTransportError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '')) return `no complete answer within ${timeoutMs} ms`;
  return `${err.code ?? err.name ?? 'error'}: ${err.message ?? String(error)}`;
}

/** The token, and the values of the headers every request carries (`--header`), redacted. */
function redactHeaders(headers: Record<string, string>, given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      name.toLowerCase() === 'authorization' ? `Bearer ${REDACTED}` : Object.hasOwn(given, name) && given[name] === value ? REDACTED : value,
    ]),
  );
}
