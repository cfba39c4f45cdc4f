// The target under test as each spec file sees it: base URL, HTTP client, principals, optional control hooks.
import { AsyncLocalStorage } from 'node:async_hooks';
import { expect, inject } from 'vitest';
import { targetKeyOf } from './target-key.js';
import { endpointKey } from '../rules/endpoints.js';
import { CreationBudget, RunStamp } from './cleanup.js';
import { ViewsMade } from './consistency.js';
import { scopeKey, type SuiteConfig } from './config.js';
import { HttpClient, type Exchange, type SendOptions, type TokenOwner } from './http.js';
import { registerConfigSecrets, registerSecret } from './redact.js';
import { ControlHooks, type PrincipalSpec } from './control-hooks.js';
import { findEndpoint } from './responses.js';
import { imagePath, pathWithSlashedId, type ImageIdForm, type SlashedIdForm } from './resources.js';
import { loadCosts, makePlan, specFilters, type Billable, type Counts, type Plan } from './plan.js';

/** What the global setup hands to every worker. */
export interface TargetInfo {
  config: SuiteConfig;
  baseUrl: string;
  token: string;
  /** Control hooks base URL, when the target offers them. */
  controlUrl: string | null;
  /** The embedded reference emulator was started for this run. */
  embedded: boolean;
  /** The run's guest manners, applied by every worker's HTTP client (none when absent). */
  limits?: RequestLimits;
  /** How the target takes an image id in a path (found once per run; encoded when absent). */
  imageIdForm?: ImageIdForm;
  /** How the target takes a kernel id in a path (found once per run; encoded when absent). */
  kernelIdForm?: SlashedIdForm;
  /** How the target takes a database engine id (`<engine>/<version>`) in a path (found once per run; encoded when absent). */
  engineIdForm?: SlashedIdForm;
  /** What the target answers for an id never made (found once per run: `discoverAbsentStatus`; undefined when no 4xx). */
  absentStatus?: number;
}

export interface RequestLimits {
  /** The run's --max-rps divided by the number of workers (null: no cap). */
  maxRpsPerWorker: number | null;
  /** When the run budget ends (ms since the epoch; null: no budget). */
  deadline: number | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetInfo;
    /** Several targets in one run (the mutation matrix): a spec file named `<file>?target=<key>` runs against `targets[key]`. */
    targets?: Record<string, TargetInfo>;
  }
}

/** Why a check could not run on this target (reported as `skip`). */
export class MissingCapability extends Error {}

/**
 * A request the run's safety settings hold back before it is sent: `disabled` (read-only, a destructive operation
 * not allowed) or `skip` (the budget of billable resources is used up). The check reports that verdict.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly verdict: 'disabled' | 'skip',
    message: string,
  ) {
    super(message);
  }
}

/** The client of a read-only run: a request that could change something never leaves the process. */
class ReadOnlyHttpClient extends HttpClient {
  override send(options: SendOptions): Promise<Exchange> {
    if (options.method !== 'GET')
      return Promise.reject(new Refusal('disabled', `read-only run (--read-only): the check needs ${options.method} ${options.path.split('?')[0]}`));
    return super.send(options);
  }
}

/**
 * Operations that cannot be undone, change what the account pays, or change account-wide data the run did not
 * create: sent only with --allow-destructive (the embedded emulator allows them).
 */
const DESTRUCTIVE: Readonly<Record<string, string>> = {
  'POST /v4/account/cancel': 'cancels the account (irreversible)',
  'POST /v4/account/credit-card': 'replaces the credit card on file',
  'POST /v4/account/entity-transfers/{token}/accept': "moves another account's instances into this one (irreversible, billed)",
  'PUT /v4/account': "changes the account's contact and billing data (not created by the run)",
  'PUT /v4/monitor/plan': 'changes the paid monitoring subscription of the account',
  'POST /v4/account/events/{eventId}/seen': 'marks every earlier event of the account seen, not only those the run caused',
};

/**
 * Writes on something the run cannot have created, whatever the endpoint: a target that wrongly accepted one would
 * change what belongs to the platform. Sent only with --allow-destructive, like the operations above.
 */
const NOT_THE_RUNS: ReadonlyArray<{ method: SendOptions['method']; path: RegExp; what: string }> = [
  { method: 'DELETE', path: /^\/v4\/images\/compute(\/|%2F)/i, what: "deletes a public image (the platform's, not created by the run)" },
];

type Json = Record<string, unknown>;

/** Creates of billable resources, counted against the run's budgets. */
const BILLABLE: Readonly<Record<string, { kind: Billable; flag: string; what: string; creates?: (json: unknown) => boolean }>> = {
  'POST /v4/compute/instances': { kind: 'instance', flag: '--max-instances', what: 'instances' },
  // Cloning onto an existing instance (`compute_id`) creates nothing.
  'POST /v4/compute/instances/{computeId}/clone': {
    kind: 'instance',
    flag: '--max-instances',
    what: 'instances',
    creates: (json) => (json as Json | undefined)?.compute_id === undefined,
  },
  'POST /v4/databases/mysql/instances': { kind: 'database', flag: '--max-databases', what: 'database clusters' },
};

/** Whether a request may create a billable resource (one counted against the run's budgets). */
export function mayCreateBillable(method: SendOptions['method'], path: string): boolean {
  const endpoint = findEndpoint(`${method} ${path}`);
  return endpoint !== undefined && endpointKey(endpoint) in BILLABLE;
}

/** What a check spent and needed, for the cost table (specs/plan/costs.json) and the plan's check against the run. */
export interface CostRecord {
  /** The check's full name: its entry in the plan. */
  key: string;
  own: Counts;
  made: Record<string, number>;
  borrows: string[];
  uses: string[];
  /** Shared fixtures this check brought into being: what each created and needed. */
  fixtures: Record<string, FixtureCostRecord>;
  perRun?: boolean;
}

export function emptyCost(key: string): CostRecord {
  return { key, own: {}, made: {}, borrows: [], uses: [], fixtures: {} };
}

interface FixtureCostRecord {
  own: Counts;
  made: Record<string, number>;
  uses: string[];
  /** Shared fixtures it is made from. */
  borrows: string[];
}

/** Who pays for a request: the running check (what the plan allows it to create) or a shared fixture it brings up. */
export interface Spender {
  cost: CostRecord;
  /** Billable creates the plan still allows the check. */
  allowance: Counts;
  /** `<spec file>#<fixture>` while a shared fixture is being made. */
  fixture?: string;
}

export const spending = new AsyncLocalStorage<Spender>();

/** Notes a need or a creation on the running check (and on the shared fixture being made, if any). */
export function noteUse(use: string): void {
  const spender = spending.getStore();
  if (!spender) return;
  if (!spender.cost.uses.includes(use)) spender.cost.uses.push(use);
  const fixture = spender.fixture && fixtureCost(spender);
  if (fixture && !fixture.uses.includes(use)) fixture.uses.push(use);
}

/** The running check (and the fixture being made) uses the shared fixture `fixture`. */
export function noteBorrow(fixture: string): void {
  const spender = spending.getStore();
  if (!spender) return;
  if (!spender.cost.borrows.includes(fixture)) spender.cost.borrows.push(fixture);
  const outer = spender.fixture && fixtureCost(spender);
  if (outer && !outer.borrows.includes(fixture)) outer.borrows.push(fixture);
}

export function noteMade(kind: string): void {
  const spender = spending.getStore();
  if (!spender) return;
  const into = spender.fixture ? fixtureCost(spender).made : spender.cost.made;
  into[kind] = (into[kind] ?? 0) + 1;
}

function fixtureCost(spender: Spender) {
  return (spender.cost.fixtures[spender.fixture!] ??= { own: {}, made: {}, uses: [], borrows: [] });
}

/** How long a create waits for a slot another worker holds for a create that may yet be refused (and given back). */
const SLOT_WAIT_MS = 5000;

const RECORDING = () => process.env.CONFORMANCE_RECORD_COSTS === '1';

/** Called with the response of an admitted request (gives a budget slot back when nothing was created). */
export type Settle = (exchange: Exchange) => void;

export class Target {
  readonly http: HttpClient;
  readonly control: ControlHooks | null;
  private readonly minted = new Map<string, Promise<string>>();

  private readonly budgets: Record<Billable, CreationBudget | null>;
  /** The run's plan: null with unlimited budgets (everything runs) or while the cost table is recorded. */
  readonly plan: Plan | null;
  /**
   * Whether each request is charged to the check or shared fixture sending it (`spending`): a plan shares the budget
   * out by those costs, and the cost table is recorded from them. Off otherwise: the store behind it (promise hooks on
   * every promise of the worker's thread) cost about 3 % of a full run's CPU, for costs nothing read.
   */
  readonly tracksSpending: boolean;
  /** What each shared fixture of this worker may still create. */
  private readonly fixtureAllowance = new Map<string, Counts>();
  /** The resources made on this target and not deleted, and the views it left unsettled (reads after writes). */
  readonly views = new ViewsMade();

  constructor(readonly info: TargetInfo) {
    const { config } = info;
    const options = { timeoutMs: config.timeoutMs, maxRps: info.limits?.maxRpsPerWorker, deadline: info.limits?.deadline, headers: config.headers };
    this.http = config.readOnly ? new ReadOnlyHttpClient(info.baseUrl, options) : new HttpClient(info.baseUrl, options);
    // The control hooks change the target (clock, tokens): a read-only run treats it as a plain target.
    this.control =
      info.controlUrl && !config.readOnly ? new ControlHooks(info.controlUrl === info.baseUrl ? this.http : new HttpClient(info.controlUrl, options)) : null;
    const budget = (kind: string, max: number | null) => (max === null ? null : new CreationBudget(config.out, config.runId, kind, max));
    this.clockAdvanced = new RunStamp(config.out, config.runId, 'clock-advanced');
    this.budgets = { instance: budget('instance', config.maxInstances), database: budget('database', config.maxDatabases) };
    const limited = config.maxInstances !== null || config.maxDatabases !== null;
    this.plan = limited && !RECORDING() ? makePlan(config, this.control !== null, loadCosts(), specFilters()) : null;
    this.tracksSpending = limited || RECORDING();
    registerSecret(info.token);
    registerConfigSecrets(info.config);
  }

  get token(): string {
    return this.info.token;
  }

  /** Whose token `token` is, among those the run was given; else one the run minted or made. */
  ownerOf(token: string): TokenOwner {
    const { scopedTokens, restrictedToken } = this.info.config;
    if (token === this.token) return { token: 'full' };
    const scoped = Object.entries(scopedTokens).find(([, given]) => given === token);
    if (scoped) return { token: 'scoped', scopes: scoped[0] };
    return { token: token === restrictedToken ? 'restricted' : 'made' };
  }

  /**
   * A token for the principal: minted through the control hooks when the target has them, else taken from the
   * configuration; a principal neither can provide makes the check report `skip`.
   */
  async principal(spec: PrincipalSpec): Promise<string> {
    const key = JSON.stringify(spec);
    if (spec.scopes === '*' && !spec.restricted && !spec.grants) return this.token;
    if (this.control) {
      // One with grants on entities is minted afresh: the entity an id named when a token was minted may be gone since,
      // its id given to another (not excluded by the documents), and a grant on a deleted entity need not carry over.
      if (Object.keys(spec.grants?.entities ?? {}).length) return this.control.mintToken(spec);
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
    throw new MissingCapability(
      `needs a token holding exactly the scopes ${spec.scopes === '*' ? '*' : spec.scopes.join(',')}: give --token-scoped (or a target with control hooks)`,
    );
  }

  /**
   * Lets a request through the run's safety settings, or throws a Refusal: a destructive operation without
   * --allow-destructive, a billable create beyond its budget. Read-only is enforced by the HTTP client itself.
   */
  async admit(method: SendOptions['method'], path: string, json?: unknown): Promise<Settle | undefined> {
    // The read-only client refuses it without sending: no budget slot may be taken for it.
    if (this.info.config.readOnly && method !== 'GET') return undefined;
    const foreign = NOT_THE_RUNS.find((write) => write.method === method && write.path.test(path));
    if (foreign && !this.info.config.allowDestructive)
      throw new Refusal('disabled', `${method} ${path.split('?')[0]} ${foreign.what}: it runs only with --allow-destructive`);
    const endpoint = findEndpoint(`${method} ${path}`);
    if (!endpoint) return undefined;
    const key = endpointKey(endpoint);
    const destructive = DESTRUCTIVE[key];
    if (destructive) noteUse('destructive');
    if (destructive && !this.info.config.allowDestructive) throw new Refusal('disabled', `${key} ${destructive}: it runs only with --allow-destructive`);
    const billable = BILLABLE[key];
    if (!billable || billable.creates?.(json) === false) return undefined;
    const { kind } = billable;
    const spender = spending.getStore();
    // Within the plan's allowance a create takes one of the slots the plan shares out; past it, only one of the slots
    // kept for creates the documents say are refused (the slot is given back on the 4xx): a create the plan did not
    // foresee never spends a slot promised to another check.
    const account = this.plan && spender ? this.allowanceOf(spender) : undefined;
    const allowed = (account?.[kind] ?? 0) > 0;
    if (allowed) account![kind]! -= 1;
    const budget = this.budgets[kind];
    const shared = budget && this.plan ? budget.max - this.plan.probeReserve[kind] : undefined;
    const slots = shared === undefined ? undefined : allowed ? { from: 1, to: shared } : { from: shared + 1, to: budget!.max };
    const release = budget ? await budget.take(SLOT_WAIT_MS, slots) : () => {};
    if (!release) {
      if (allowed) account![kind]! += 1;
      throw new Refusal('skip', `the run's budget of ${budget!.max} new ${billable.what} is used up (${billable.flag})`);
    }
    // Only a refusal proves nothing was made: after a 5xx or no answer the slot stays taken.
    return (exchange) => {
      if (exchange.status >= 400 && exchange.status < 500) {
        release();
        if (allowed) account![kind]! += 1;
      } else if (spender && exchange.status >= 200 && exchange.status < 300) {
        const into = spender.fixture ? fixtureCost(spender).own : spender.cost.own;
        into[kind] = (into[kind] ?? 0) + 1;
      }
    };
  }

  private allowanceOf(spender: Spender): Counts {
    if (!spender.fixture) return spender.allowance;
    let left = this.fixtureAllowance.get(spender.fixture);
    if (!left) {
      left = { ...(this.plan?.fixtures.get(spender.fixture) ?? {}) };
      this.fixtureAllowance.set(spender.fixture, left);
    }
    return left;
  }

  /** The image's path, its id in the form the target serves. */
  imagePath(id: string): string {
    return imagePath(id, this.info.imageIdForm);
  }

  /** The kernel's path, its id in the form the target serves. */
  kernelPath(id: string): string {
    return pathWithSlashedId('/v4/compute/kernels', id, this.info.kernelIdForm);
  }

  /** The database engine's path, its id in the form the target serves. */
  enginePath(id: string): string {
    return pathWithSlashedId('/v4/databases/engines', id, this.info.engineIdForm);
  }

  /** A lock shared by every worker thread of the run: one slot, taken by exclusive create. */
  lock(name: string): CreationBudget {
    return new CreationBudget(this.info.config.out, this.info.config.runId, `lock-${name}`, 1);
  }

  /**
   * Advances the simulated clock, or skips the check on a target without the clock hook. `needed: false`: a wait the
   * caller does in real time on a target without the hook, not noted as a use of the clock (see `Check.advanceClock`).
   */
  async advanceClock(seconds: number, { needed = true } = {}): Promise<void> {
    if (needed) noteUse('clock');
    if (!this.control) throw new MissingCapability(`needs ${seconds} s of simulated time to pass: the target has no clock control hook`);
    await this.control.advanceClock(seconds);
    // Without a consistency window no read waits after an advance: nothing to note (a file write per advance).
    if (this.info.config.consistencyWindowMs > 0) this.clockAdvanced.note(seconds);
  }

  /**
   * When (Date.now()) a worker of the run last advanced the target's clock: a write, which a lagging read may not show
   * within the consistency window after it (`untilClockSettled`); and by how many seconds the run's workers have
   * advanced it in all.
   */
  readonly clockAdvanced: RunStamp;
}

const targets = new Map<string, Target>();

/**
 * The target of the spec file being run: the run's one target, or, in a run that holds the same spec files for
 * several targets (`<file>?target=<key>`, the mutation matrix), the one its file names. Spec files of a worker run one
 * after another, so the file being collected or run tells which.
 */
export function target(): Target {
  const key = targetKeyOf(expect.getState().testPath);
  let found = targets.get(key);
  if (!found) {
    const info = key ? inject('targets')?.[key] : inject('target');
    if (!info) throw new Error(`no target was provided for the spec file key "${key}"`);
    found = new Target(info);
    targets.set(key, found);
  }
  return found;
}
