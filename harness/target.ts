// The target under test as each spec file sees it: base URL, HTTP client, principals, optional control hooks.
import { inject } from 'vitest';
import { scopeKey, type SuiteConfig } from './config.js';
import { HttpClient, registerSecret, type Exchange } from './http.js';

/** What the global setup hands to every worker. */
export interface TargetInfo {
  config: SuiteConfig;
  baseUrl: string;
  token: string;
  /** Control hooks base URL, when the target offers them. */
  controlUrl: string | null;
  /** The embedded reference emulator was started for this run. */
  embedded: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetInfo;
  }
}

export interface PrincipalSpec {
  /** '*' for every scope; otherwise exactly these OAuth scopes. */
  scopes: '*' | string[];
  restricted?: boolean;
  grants?: { global?: Record<string, unknown>; entities?: Record<string, Record<string, 'read_only' | 'read_write'>> };
}

/** Why a check could not run on this target (reported as `skip`). */
export class MissingCapability extends Error {}

/** The control-hook extension (see README): clock, tokens, reset. */
export class ControlHooks {
  constructor(private readonly http: HttpClient) {}

  private async call(path: string, json: unknown): Promise<Record<string, unknown>> {
    const exchange = await this.http.send({ method: 'POST', path, json });
    if (exchange.status !== 200 || !exchange.body || typeof exchange.body !== 'object') throw new Error(`control hook ${path} answered ${exchange.status || exchange.error}`);
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
    const exchange: Exchange = await http.send({ method: 'GET', path: '/__control' });
    return exchange.status === 200 && (exchange.body as { control?: unknown } | undefined)?.control === true;
  }
}

export class Target {
  readonly http: HttpClient;
  readonly control: ControlHooks | null;
  private readonly minted = new Map<string, Promise<string>>();

  constructor(readonly info: TargetInfo) {
    this.http = new HttpClient(info.baseUrl, info.config.timeoutMs);
    this.control = info.controlUrl ? new ControlHooks(info.controlUrl === info.baseUrl ? this.http : new HttpClient(info.controlUrl, info.config.timeoutMs)) : null;
    registerSecret(info.token);
    for (const token of Object.values(info.config.scopedTokens)) registerSecret(token);
    registerSecret(info.config.restrictedToken);
  }

  get token(): string {
    return this.info.token;
  }

  /**
   * A token for the principal: minted through the control hooks when the target has them, else taken from the
   * configuration; a principal neither can provide makes the check report `skip`.
   */
  async principal(spec: PrincipalSpec): Promise<string> {
    const key = JSON.stringify(spec);
    if (spec.scopes === '*' && !spec.restricted && !spec.grants) return this.token;
    if (this.control) {
      let token = this.minted.get(key);
      if (!token) {
        token = this.control.mintToken(spec);
        this.minted.set(key, token);
      }
      return token;
    }
    if (spec.restricted) {
      if (this.info.config.restrictedToken && !spec.grants && spec.scopes === '*') return this.info.config.restrictedToken;
      throw new MissingCapability('needs a restricted user token with these grants: give --restricted-token (or a target with control hooks)');
    }
    const configured = spec.scopes !== '*' ? this.info.config.scopedTokens[scopeKey(spec.scopes)] : undefined;
    if (configured) return configured;
    throw new MissingCapability(`needs a token holding exactly the scopes ${spec.scopes === '*' ? '*' : spec.scopes.join(',')}: give --token-scoped (or a target with control hooks)`);
  }

  /** Advances the simulated clock, or skips the check on a target without the clock hook. */
  async advanceClock(seconds: number): Promise<void> {
    if (!this.control) throw new MissingCapability(`needs ${seconds} s of simulated time to pass: the target has no clock control hook`);
    await this.control.advanceClock(seconds);
  }
}

let current: Target | undefined;

/** The target of this worker (one per spec file). */
export function target(): Target {
  current ??= new Target(inject('target'));
  return current;
}
