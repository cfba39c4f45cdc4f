// The suite's HTTP client: undici with a keep-alive pool; every exchange is captured as evidence.
import { Agent, request } from 'undici';

export interface Exchange {
  method: string;
  /** Path with query, as sent (relative to the base URL). */
  path: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
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
  /** Transport failure: timeout, refused, reset. */
  error?: string;
}

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
}

/** Response bodies beyond this are cut: a conformance verdict never needs more, and a hostile target cannot exhaust memory. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const REDACTED = '[REDACTED]';

export class HttpClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 32, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: timeoutMs });
  }

  async send(options: SendOptions): Promise<Exchange> {
    const query = Object.entries(options.query ?? {}).filter(([, value]) => value !== undefined);
    const path = options.path + (query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '');
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
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
      requestHeaders: redactHeaders(headers),
      ...(options.json !== undefined ? { requestBody: options.json } : options.raw ? { requestBody: `<${Buffer.byteLength(options.raw.data)} bytes of ${options.raw.contentType}>` } : {}),
      status: 0,
      responseHeaders: {},
      contentType: '',
      body: undefined,
      notJson: false,
      truncated: false,
      durationMs: 0,
    };
    const started = performance.now();
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(this.baseUrl + path, { method: options.method, headers, body, dispatcher: this.agent, signal });
      exchange.status = response.statusCode;
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) exchange.responseHeaders[name] = Array.isArray(value) ? value.join(', ') : String(value);
      exchange.contentType = (exchange.responseHeaders['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const { text, truncated } = await readCapped(response.body);
      exchange.truncated = truncated;
      if (text.length) {
        try {
          exchange.body = JSON.parse(text);
        } catch {
          exchange.notJson = true;
          exchange.body = text.slice(0, 2000);
        }
      }
    } catch (error) {
      exchange.error = describeTransportError(error, this.timeoutMs);
    }
    exchange.durationMs = Math.round((performance.now() - started) * 10) / 10;
    return exchange;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
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

function describeTransportError(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '')) return `no complete answer within ${timeoutMs} ms`;
  return `${err.code ?? err.name ?? 'error'}: ${err.message ?? String(error)}`;
}

function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name.toLowerCase() === 'authorization' ? `Bearer ${REDACTED}` : value]));
}

/** Every token the run knows; evidence passes through redactSecrets before it is stored. */
const secrets = new Set<string>();

export function registerSecret(secret: string | null | undefined): void {
  if (secret && secret.length >= 6) secrets.add(secret);
}

/** A deep copy of `value` in which every known secret is replaced by [REDACTED]. */
export function redactSecrets<T>(value: T): T {
  if (!secrets.size) return value;
  let text = JSON.stringify(value);
  if (text === undefined) return value;
  for (const secret of secrets) text = text.split(JSON.stringify(secret).slice(1, -1)).join(REDACTED);
  return JSON.parse(text) as T;
}
