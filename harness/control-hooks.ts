// The control-hook extension (see README) and the control URL's check. The run's main thread uses them before any
// check runs (the global setup probes the target), so this module keeps out of the checks' harness: no vitest, no
// contract.
import type { SuiteConfig } from './config.js';
import { HttpClient, type Exchange } from './http.js';
import { registerSecret, withoutCredentials } from './redact.js';

export interface PrincipalSpec {
  /** '*' for every scope; otherwise exactly these OAuth scopes. */
  scopes: '*' | string[];
  restricted?: boolean;
  grants?: { global?: Record<string, unknown>; entities?: Record<string, Record<string, 'read_only' | 'read_write'>> };
}

/**
 * Every global grant the documents name, at its widest: a restricted user holding them all is still restricted (a
 * server may let grants open what only unrestricted users may do).
 */
export const EVERY_GLOBAL_GRANT = { account_access: 'read_write', add_computes: true, add_monitor: true, monitor_subscription: true } as const;

/** The restricted users an operation for unrestricted users only refuses: one without grants, one holding every global grant. */
export const RESTRICTED_USERS: ReadonlyArray<[who: string, spec: PrincipalSpec]> = [
  ['a restricted user', { scopes: '*', restricted: true }],
  ['a restricted user holding every global grant', { scopes: '*', restricted: true, grants: { global: EVERY_GLOBAL_GRANT } }],
];

/** The control-hook extension: clock, tokens, reset. */
export class ControlHooks {
  constructor(private readonly http: HttpClient) {}

  private async call(path: string, json: unknown): Promise<Record<string, unknown>> {
    const exchange = await this.http.send({ method: 'POST', path, json });
    if (exchange.status !== 200 || !exchange.body || typeof exchange.body !== 'object')
      throw new Error(`control hook ${path} answered ${exchange.status || exchange.error}`);
    return exchange.body as Record<string, unknown>;
  }

  async mintToken(spec: PrincipalSpec): Promise<string> {
    const body = await this.call('/__control/tokens', { scopes: spec.scopes, restricted: spec.restricted ?? false, grants: spec.grants ?? {} });
    const token = String(body.token);
    registerSecret(token);
    return token;
  }

  async advanceClock(seconds: number): Promise<void> {
    await this.call('/__control/clock', { advance_seconds: seconds });
  }

  static async probe(http: HttpClient): Promise<boolean> {
    return (await ControlHooks.absence(http)) === null;
  }

  /** Why `http`'s base offers no control hooks (what GET /__control answered), or null when it does. */
  static async absence(http: HttpClient): Promise<string | null> {
    const exchange: Exchange = await http.send({ method: 'GET', path: '/__control' });
    if (exchange.status === 200 && (exchange.body as { control?: unknown } | undefined)?.control === true) return null;
    return exchange.error
      ? `GET /__control had no answer (${exchange.error})`
      : `GET /__control answered HTTP ${exchange.status}${exchange.status === 200 ? ' without {"control": true}' : ''}`;
  }
}

/**
 * A control URL given explicitly must offer the hooks: a wrong one would otherwise turn every check needing them
 * into a quiet skip. Null when fine (or not given, or unused: the embedded emulator, a read-only run).
 */
export async function controlUrlProblem(config: SuiteConfig): Promise<string | null> {
  if (!config.baseUrl || !config.controlUrl || config.readOnly) return null;
  const http = new HttpClient(config.controlUrl, { timeoutMs: config.timeoutMs, headers: config.headers });
  try {
    const absence = await ControlHooks.absence(http);
    return (
      absence &&
      `the control URL ${withoutCredentials(config.controlUrl)} offers no control hooks: ${absence}. Correct --control-url, or leave it out (the base URL is probed; without hooks the checks needing them report skip)`
    );
  } finally {
    await http.close();
  }
}
