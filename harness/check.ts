// The rule-tagged check: every test of the suite declares the rule ids it checks, and ends in one of five
// verdicts — pass, fail (the target broke the rule), error (the harness or setup broke), skip (the target lacks
// a capability the check needs), disabled (filtered out by configuration).
import * as allure from 'allure-js-commons';
import { it, TestRunner, type TestContext } from 'vitest';
import { declareHandover, takeLock } from './lock-handover.js';
import { ruleById } from '../rules/index.js';
import { endpointKey } from '../rules/endpoints.js';
import { findEndpoint } from './responses.js';
import { BUSY_REAL_MS, readAfterWrite, stillBusyAnywhere } from './consistency.js';
import { NothingToJudge, whyUnjudgeable, type Exchange, type SendOptions } from './http.js';
import { viewShowsAnother, type Labelled } from './resources.js';
import { redact, redactError, redactText } from './redact.js';
import { describeExchange, errorFields, isErrorResponse, namesField } from './error-bodies.js';
import { judgeExchange, unservedRule, type Finding } from './judge.js';
import { MissingCapability, Refusal, emptyCost, noteUse, spending, target, type CostRecord, type Target } from './target.js';
import type { PrincipalSpec } from './control-hooks.js';
import { withoutTargetKey } from './target-key.js';
import { chosenByRuleFilters, FILTERED_OUT_PLACEHOLDER } from './plan.js';

export type Verdict = 'pass' | 'fail' | 'error' | 'skip' | 'disabled';

/** What a check leaves in its task meta for the reporters. */
export interface CheckRecord {
  rules: string[];
  verdict: Verdict;
  /** The rule broken and why (fail), or what went wrong (error), or why it could not run (skip, disabled). */
  failedRule?: string;
  /** General rules of the check the break of `failedRule` breaks too (`Check.alsoBreaks`). */
  alsoFailed?: string[];
  message?: string;
  /** Findings of the named checks on every response, each for its own rule. */
  findings: Finding[];
  exchanges: Exchange[];
  /** Index in `exchanges` of the exchange that broke the rule (a fail). */
  failingExchange?: number;
  /** Response-schema rules the check's responses were judged against (a finding marks the ones broken). */
  exercised: string[];
  /** Requests per catalogue endpoint (`GET /v4/domains/{domainId}` → 2). */
  endpoints: Record<string, number>;
  /** What the check created and needed (the plan's cost table is made of these): kept where the target tracks spending. */
  cost?: CostRecord;
  /** Reads after writes that waited out the consistency window without the state they read for (`readAfterWrite`). */
  unsettledReads?: number;
  /** fast-check replay data of a failed property. */
  seed?: number;
  path?: string;
  counterexample?: string;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: CheckRecord;
  }
}

/** The target broke `rule`. */
export class RuleViolation extends Error {
  override name = 'RuleViolation';
  constructor(
    readonly rule: string,
    message: string,
    readonly exchange?: Exchange,
  ) {
    // A verdict, not a crash: no stack frames (the reports never show them: specs/vitest.config.ts), which spares their
    // capture on every failing run of a property and the runner's source-map lookups for each failure.
    const frames = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${rule}: ${message}`);
    Error.stackTraceLimit = frames;
  }

  /** General rules this break breaks too (`Check.alsoBreaks`). */
  alsoBroken?: string[];
}

/**
 * Runs a scenario other spec files may disturb (the shared account, clock): a violation counts only if a second run
 * does too, judged on what that run met (a wait the deadline cut short, a request still refused as busy, in the first
 * run alone makes no `error` or `skip` of the second's violation).
 */
export async function twice(c: Check, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof RuleViolation)) throw error;
    delete c.cutShort;
    c.stillBusy.clear();
    await run();
  }
}

/**
 * The run-wide lock of the simulated clock: a check holding it (`{ exclusive: CLOCK_LOCK }`) sees no other check's
 * advance (an entity transfer made in the check does not go stale under it).
 */
export const CLOCK_LOCK = 'clock';

/** The check cannot run on this target (thrown by `c.skip`, and by fixtures that find nothing suitable). */
export class SkipCheck extends Error {}

/** How long a check may take (vitest's timeout of the test); its last request must be sent early enough to end within it. */
const CHECK_TIMEOUT_MS = 60_000;

/** The check's deadline passed: it sends nothing more, and reports `error` unless it already judged something. */
export class DeadlinePassed extends NothingToJudge {
  override name = 'DeadlinePassed';
}

/** Exchanges kept per check as evidence (the failing one is always kept). */
const MAX_EVIDENCE = 8;

export interface RequestOptions extends Omit<SendOptions, 'method' | 'path' | 'token'> {
  /** Default: the full-access token; null: no Authorization header. */
  token?: string | null;
  /**
   * The check reads for the resource to be gone (removed by another request than its DELETE: a replaced snapshot, an
   * expired upload): a 404 is the answer it waits for, not a read lagging the create.
   */
  gone?: boolean;
}

/** What a check's body works with. */
export class Check {
  readonly record: CheckRecord;
  readonly target: Target;
  private readonly exercised = new Set<string>();

  /**
   * No request is sent after this (ms since the epoch): the check ends within its timeout, whatever the target does.
   * Time it waited for a run-wide lock another check held is added (`exclusively`), up to its timeout once more.
   */
  deadline: number;
  private readonly latestDeadline: number;

  constructor(
    rules: string[],
    on: Target = target(),
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {
    this.target = on;
    // The request in flight at the deadline still gets its --timeout, and the check a moment to report.
    this.deadline = Date.now() + Math.max(timeoutMs / 2, timeoutMs - on.info.config.timeoutMs - 2000);
    this.latestDeadline = this.deadline + timeoutMs;
    this.record = { rules, verdict: 'pass', findings: [], exchanges: [], endpoints: {}, exercised: [] };
  }

  /** The check's full name (`<spec file> > <describe> > <title>`): its entry in the plan. */
  key?: string;

  /** A request the run's safety settings held back (read-only, destructive, budget): it decides the verdict. */
  refusal?: Refusal;

  /**
   * A GET answering 404 (or the target's `absentStatus`) for a resource this run made and has not deleted is a read
   * lagging the create: read again within the window. So is one showing another label than the run gave it (the
   * previous holder of an id given again, from a replica behind the create).
   */
  async send(method: SendOptions['method'], path: string, options: RequestOptions = {}): Promise<Exchange> {
    const exchange = await this.sendOnce(method, path, options);
    // A create answering with an id: its view is presumed under the collection (used only to read a 404 there again).
    const id = method === 'POST' && exchange.status >= 200 && exchange.status < 300 ? (exchange.body as { id?: unknown } | undefined)?.id : undefined;
    const { views } = this.target;
    if (typeof id === 'number' || typeof id === 'string') views.noteLive(`${path}/${id}`);
    if (options.gone) views.noteDeleted(path);
    // What the target answers for an id it does not hold: 404, or (with the full-access token) the status it was found
    // to answer for an id never made (`absentStatus`: a 403, say, where the documents name no code).
    const absent = (read: Exchange) => read.status === 404 || (options.token === undefined && read.status === this.target.info.absentStatus);
    // (or one showing another label than the run gave it: the id's previous holder, read from a replica behind the create)
    const behind = (read: Exchange) => absent(read) || views.showsAnotherAt(path, read);
    if (method !== 'GET' || !behind(exchange) || !views.isLive(path) || !views.waitsForViewOf(path)) return exchange;
    // Waited even when this check's other waits ran out (its budget): a check that waited in vain for a slow change
    // would else take a new resource's lagging view for its answer, and stop every later check waiting for that
    // collection's views.
    const read = await readAfterWrite(
      this,
      () => this.sendOnce(method, path, options),
      (again) => !behind(again),
      { ownBudget: true },
    );
    // Still absent after the whole window: no lag, the answer. Later reads of the path (by any check) take it at once.
    if (absent(read) && this.target.info.config.consistencyWindowMs > 0) {
      views.noteDeleted(path);
      views.noteUnsettledView(path);
    }
    return read;
  }

  private async sendOnce(method: SendOptions['method'], path: string, options: RequestOptions): Promise<Exchange> {
    const token = options.token === undefined ? this.target.token : options.token;
    if (Date.now() >= this.deadline)
      throw new DeadlinePassed(
        `the check's deadline passed (it must end within ${Math.round(this.timeoutMs / 1000)} s): ${method} ${path.split('?')[0]} was not sent`,
      );
    if (method !== 'GET') noteUse('write');
    let exchange: Exchange;
    try {
      const settle = await this.target.admit(method, path, options.json);
      const { gone: _gone, ...sendOptions } = options;
      exchange = await this.target.http.send({ ...sendOptions, method, path, token });
      if (token) exchange.tokenOwner = this.target.ownerOf(token);
      settle?.(exchange);
    } catch (error) {
      // Kept even when the check's own code catches it: a check that could not send what it needed judged nothing.
      if (error instanceof Refusal) this.refusal ??= error;
      throw error;
    }
    this.observe(exchange);
    if (method === 'DELETE' && exchange.status >= 200 && exchange.status < 300) this.target.views.noteDeleteAnswered(path);
    if (method === 'PUT' && exchange.status >= 200 && exchange.status < 300) this.target.views.noteUpdate(path, options.json);
    // No answer, a 429 that outlasted the retries, a body past the cap: the check reports `error`, not `fail`.
    const unjudgeable = whyUnjudgeable(exchange);
    if (unjudgeable) throw new NothingToJudge(unjudgeable);
    return exchange;
  }

  get(path: string, options?: RequestOptions) {
    return this.send('GET', path, options);
  }
  post(path: string, json?: unknown, options?: RequestOptions) {
    return this.send('POST', path, { ...options, ...(json !== undefined ? { json } : {}) });
  }
  put(path: string, json?: unknown, options?: RequestOptions) {
    return this.send('PUT', path, { ...options, ...(json !== undefined ? { json } : {}) });
  }
  delete(path: string, options?: RequestOptions) {
    return this.send('DELETE', path, options);
  }

  private observe(exchange: Exchange): void {
    const endpoint = findEndpoint(`${exchange.method} ${exchange.path}`);
    if (endpoint) {
      const key = endpointKey(endpoint);
      this.record.endpoints[key] = (this.record.endpoints[key] ?? 0) + 1;
    }
    // A 429 is the rate limiter speaking, not the endpoint: its body is not judged.
    const judged = exchange.rateLimited ? { findings: [], exercised: [] } : judgeExchange(exchange);
    for (const rule of judged.exercised)
      if (!this.exercised.has(rule)) {
        this.exercised.add(rule);
        this.record.exercised.push(rule);
      }
    for (const finding of judged.findings) {
      if (!this.record.findings.some((known) => known.rule === finding.rule && known.path === finding.path && known.message === finding.message))
        this.record.findings.push(finding);
    }
    this.keep(exchange);
  }

  /** Raw exchanges kept as evidence: the first few and the latest (redacted, then shrunk, once, when the check ends). */
  private readonly kept: Exchange[] = [];

  private keep(exchange: Exchange): void {
    if (this.kept.length >= MAX_EVIDENCE) this.kept.splice(MAX_EVIDENCE / 2, 1);
    this.kept.push(exchange);
  }

  /**
   * Writes the evidence into the record: called once, when the check ends (`failing`: the exchange that broke a rule).
   * A check that passed with no finding keeps none: no report shows it, and it would be redacted and copied for nothing.
   */
  finish({ failing, passed = false }: { failing?: Exchange; passed?: boolean } = {}): void {
    if (passed && !this.record.findings.length) return;
    const evidence = failing && !this.kept.includes(failing) ? [...this.kept, failing] : this.kept;
    // The request that broke the rule is kept whole: its curl command (reports/reproduce.ts) sends it again.
    this.record.exchanges = evidence.map((exchange) => shrink(redact(exchange), { wholeRequest: exchange === failing }));
    if (failing) this.record.failingExchange = evidence.indexOf(failing);
  }

  /** The target broke `rule`. */
  fail(rule: string, message: string, exchange?: Exchange): never {
    throw new RuleViolation(rule, message, exchange);
  }

  /**
   * Judges through `judge` a specific rule that instantiates general ones: a break it finds breaks `general` too (a
   * token lacking the scope one endpoint names and served anyway breaks that endpoint's scope rule and the rule that
   * an OAuth token must carry each endpoint's scope). A check names the general rules beside the specific one.
   */
  alsoBreaks(general: string[], judge: () => void): void {
    try {
      judge();
    } catch (error) {
      if (error instanceof RuleViolation) error.alsoBroken = general.filter((rule) => rule !== error.rule && this.record.rules.includes(rule));
      throw error;
    }
  }

  expect(rule: string, condition: unknown, message: string, exchange?: Exchange): void {
    if (!condition) this.fail(rule, message, exchange);
  }

  /** The request succeeded (2xx). */
  expectSuccess(rule: string, exchange: Exchange, what = 'the request'): void {
    this.expect(rule, exchange.status >= 200 && exchange.status < 300, `${what} should succeed (2xx) but got ${describeExchange(exchange)}`, exchange);
  }

  /**
   * The view of a resource the check deleted shows it gone: rejected (`expectRejected`), or a 2xx showing another
   * resource (`made`: its kind and label; `showsAnother`): the documents do not say a deleted resource's id is never
   * given again.
   */
  expectGone(rule: string, view: Exchange, what: string, made?: Labelled): void {
    if (!viewShowsAnother(view, made)) this.expectRejected(rule, view, what);
  }

  /**
   * The request was rejected: an error response (a 4xx, or a 5xx carrying the documented error body — status codes
   * per condition are not shown; a 5xx is a warning of its own, P1.errors.no-server-error). When `field` is given and
   * the error body names a field, that field must be the offending member, one of its ancestors or a member inside it
   * (`a.b[3].c` and `a.b.3.c` are the same path; see `namesField`). Where a clash of two members puts either at fault
   * (which one is not shown), `field` lists both.
   */
  expectRejected(rule: string, exchange: Exchange, what = 'the request', field?: string | readonly string[] | null): void {
    this.expect(
      rule,
      isErrorResponse(exchange),
      `${what} should be rejected (an error response: 4xx, or 5xx with the error body) but got ${describeExchange(exchange)}`,
      exchange,
    );
    const atFault = typeof field === 'string' ? [field] : (field ?? []);
    if (!atFault.length || atFault.some((member) => namesField(exchange, member) !== false)) return;
    const named = errorFields(exchange.body).map((n) => `"${n}"`);
    const members = atFault.map((member) => `"${member}"`).join(' or ');
    this.fail('P1.errors.body.field', `the error names field ${named.join(', ')}, but the member at fault is ${members}`, exchange);
  }

  /**
   * `skip` when a documented endpoint answered as not served (404, 405): that is evidence about its own `serves` rule
   * (which the endpoint's generic check fails), not about the rule this check would judge on the answer.
   */
  expectServed(exchange: Exchange, what = `${exchange.method} ${exchange.path}`): void {
    const serves = unservedRule(exchange);
    if (serves) this.skip(`${what} answered ${describeExchange(exchange)}: the endpoint is not served (rule ${serves}), so there is nothing here to judge`);
  }

  skip(reason: string): never {
    throw new SkipCheck(reason);
  }

  /** Turned off by the run's configuration (e.g. a destructive operation without --allow-destructive). */
  disable(reason: string): never {
    throw new Refusal('disabled', reason);
  }

  /** `disabled` unless the run allows destructive operations: `what` says what cannot be undone. */
  needsDestructive(what = 'irreversible or billable operation'): void {
    noteUse('destructive');
    if (!this.target.info.config.allowDestructive) this.disable(`${what}: it runs only with --allow-destructive`);
  }

  /** A token for the principal, or `skip` when the target cannot provide one. */
  async principal(spec: PrincipalSpec): Promise<string> {
    if (spec.restricted) noteUse(spec.grants ? 'restricted+grants' : 'restricted');
    else if (spec.scopes !== '*') noteUse(`token:${[...spec.scopes].sort().join(',')}`);
    else if (spec.grants) noteUse('restricted+grants');
    try {
      return await this.target.principal(spec);
    } catch (error) {
      if (error instanceof MissingCapability) this.skip(error.message);
      throw error;
    }
  }

  /** A setting a real target's user must give (a second region, a domain name, …), or `skip` naming the flag when it is absent. */
  setting(key: 'otherRegion' | 'vlanRegion' | 'noVlanRegion' | 'spareVlanRegion' | 'takenDomain', why: string): string {
    noteUse(`setting:${key}`);
    const value = this.target.info.config[key];
    return value ?? this.skip(why);
  }

  /** fast-check runs the plan gives a valid-body property that creates billable resources (`runs` when unplanned). */
  plannedRuns(runs: number): number {
    if (this.record.cost) this.record.cost.perRun = true;
    return Math.min(runs, (this.key && this.target.plan?.checks.get(this.key)?.runs) || runs);
  }

  /**
   * Lets simulated time pass, or `skip` on a target without the clock hook. The clock is the whole run's: the advance
   * waits while another check holds CLOCK_LOCK (one judging what a day's advance would change under it). `needed:
   * false`: the check lets real time pass instead on a target without the hook (and calls this only with it), so the
   * advance is not noted as a use of the clock and the plan does not skip the check on such a target.
   */
  async advanceClock(seconds: number, { needed = true } = {}): Promise<void> {
    try {
      await this.holdingClock(() => this.target.advanceClock(seconds, { needed }));
    } catch (error) {
      if (error instanceof MissingCapability) this.skip(error.message);
      throw error;
    }
  }

  /** Runs `run` seeing no other check's clock advance (holding CLOCK_LOCK), on a target whose clock the run drives. */
  holdingClock<T>(run: () => Promise<T>): Promise<T> {
    return this.target.control ? this.exclusively(CLOCK_LOCK, run) : run();
  }

  /** The run-wide locks this check holds or is taking, with how many of its calls use each. */
  private readonly locks = new Map<string, { users: number; taken: Promise<() => void> }>();

  /**
   * Runs `run` holding the run-wide lock `name`: another spec file's check writing the same account-wide state (the
   * account, the monitoring plan) waits meanwhile, so neither judges the other's write. Calls of one check share the
   * lock (property runs sent at once); it is released when the last ends. Still held elsewhere at the deadline: `error`.
   */
  async exclusively<T>(name: string, run: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(name);
    if (!lock) {
      const passed = () => new DeadlinePassed(`another check held ${name} until the check's deadline`);
      const handsOver = () => this.handsOver === name;
      const waited = (ms: number) => (this.deadline = Math.min(this.deadline + ms, this.latestDeadline));
      lock = { users: 0, taken: takeLock(this.target.lock(name), this.deadline, { handsOver, passed, waited }) };
      this.locks.set(name, lock);
    }
    lock.users++;
    try {
      await lock.taken;
      return await run();
    } finally {
      if (--lock.users === 0) {
        this.locks.delete(name);
        (await lock.taken.catch(() => undefined))?.();
      }
    }
  }

  /** Set by `check` when the next check of the block holds the same run-wide lock throughout: it is handed over. */
  handsOver?: string;

  /** Why a violation the check finds is no verdict: a real-time wait its deadline cut short (harness/consistency.ts). */
  cutShort?: string;

  /** Requests still refused as for a busy resource after the check's wait for it, without the clock hook (`onceNotBusy`). */
  readonly stillBusy = new Set<Exchange>();

  /**
   * Why what ended the check is not judged: a request stayed refused as while what it acts on is busy (how long that
   * runs is mostly not shown, and without the clock hook no more time can pass than a check waits), and the check
   * failed on that refusal or could not go on after it.
   */
  unjudgedForBusy(error: unknown): string | undefined {
    // (a verdict the check or the run's settings already gave stands)
    if (error instanceof SkipCheck || error instanceof MissingCapability || error instanceof Refusal) return undefined;
    // A violation on a refusal a shared fixture's maker waited out in another check is this check's too.
    const [busy] = error instanceof RuleViolation ? [error.exchange].filter((exchange) => exchange && stillBusyAnywhere.has(exchange)) : this.stillBusy;
    if (!busy) return undefined;
    const what = `${busy.method} ${busy.path} was still refused after the check's wait (${describeExchange(busy)}), as while what it acts on is busy`;
    return `${what}: how long that runs is not shown, and without the clock hook no more time can pass than a check waits (${(error as Error).message})`;
  }

  /** Records what `violation` broke: `fail`, or `error` after a wait cut short (`cutShort`): what it waited for may yet come. */
  recordViolation(violation: RuleViolation): 'fail' | 'error' {
    if (this.cutShort) {
      this.record.verdict = 'error';
      this.record.message = `${violation.message} — not a verdict: ${this.cutShort}`;
      return 'error';
    }
    this.record.verdict = 'fail';
    this.record.failedRule = violation.rule;
    this.record.message = violation.message;
    if (violation.alsoBroken?.length) this.record.alsoFailed = violation.alsoBroken;
    const replay = (violation as { replay?: { seed: number; path?: string; counterexample?: string } }).replay;
    if (replay) Object.assign(this.record, replay);
    return 'fail';
  }
}

/** Evidence bodies beyond 4,000 characters of JSON are cut, with a mark saying how long they were. */
function shrink(exchange: Exchange, { wholeRequest }: { wholeRequest: boolean }): Exchange {
  const cut = (value: unknown) => {
    const text = JSON.stringify(value);
    return text !== undefined && text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} characters)` : value;
  };
  return { ...exchange, requestBody: wholeRequest ? exchange.requestBody : cut(exchange.requestBody), body: cut(exchange.body) };
}

export interface CheckOptions {
  timeout?: number;
  /** Waits in real time it may make on a target without the clock hook, `BUSY_REAL_MS` each (default 1). */
  realTimeWaits?: number;
  /** The run-wide lock the whole check holds (`Check.exclusively`): it writes account-wide state other files judge. */
  exclusive?: string;
  /** The lock is handed on to the next check declared with it and this option even in another block (harness/lock-handover.ts). */
  handedAcrossBlocks?: true;
}

/** Allure groups checks by document (epic), section (feature) and rule (story); every rule id is a `rule` label and a tag. */
async function labelForAllure(ids: string[]): Promise<void> {
  const first = ruleById.get(ids[0]!)!;
  await allure.labels(
    { name: 'epic', value: `Document ${first.part}` },
    { name: 'feature', value: first.section },
    { name: 'story', value: first.id },
    ...ids.flatMap((id) => [
      { name: 'rule', value: id },
      { name: 'tag', value: id },
    ]),
  );
}

const blocksHoldingPlace = new WeakSet<object>();

function holdPlaceOfFilteredOut(): void {
  const block = TestRunner.getCurrentSuite();
  if (blocksHoldingPlace.has(block)) return;
  blocksHoldingPlace.add(block);
  it.skip(FILTERED_OUT_PLACEHOLDER, () => {});
}

/**
 * Declares a check of `rules` (ids of the ledger; an unknown id fails the spec file at collection).
 * The body throws through `c.fail` / `c.expect…` when the target breaks a rule.
 */
export function check(rules: string | string[], title: string, body: (c: Check) => Promise<void>, options: CheckOptions = {}): void {
  const ids = Array.isArray(rules) ? rules : [rules];
  const unknown = ids.filter((id) => !ruleById.has(id));
  if (!ids.length || unknown.length) throw new Error(`check "${title}" names unknown rule id(s): ${unknown.join(', ') || '(none)'}`);
  const name = `[${ids.join(' ')}] ${title}`;
  // Without the clock hook, as much time again as a check may wait in real time for what the clock would let pass.
  const timeout = (options.timeout ?? CHECK_TIMEOUT_MS) + (target().control ? 0 : (options.realTimeWaits ?? 1) * BUSY_REAL_MS);
  // A check the --rules / --areas filter leaves out is not declared at all (a narrowed run's files hold hundreds of
  // them, each a test for vitest to collect, pass between threads and report); the reports list it from the cost
  // table (`filteredOutChecks`). One skipped test holds its block's place, so that a block none of whose checks run
  // skips its hooks.
  if (!chosenByRuleFilters(ids, target().info.config)) {
    holdPlaceOfFilteredOut();
    return;
  }
  const declared = declareHandover(options.exclusive, { acrossBlocks: options.handedAcrossBlocks === true });
  it(
    name,
    async (context: TestContext) => {
      const config = target().info.config;
      if (config.allure) await labelForAllure(ids);
      const run = new Check(ids, target(), timeout);
      run.handsOver = declared.handsOver;
      context.task.meta.conformance = run.record;
      // (the same in a mutation-matrix copy of the file: its generated values are those a user's run of the rule meets)
      const key = (run.key = withoutTargetKey(context.task.fullName));
      const planned = run.target.plan?.checks.get(key);
      const cost = run.target.tracksSpending ? (run.record.cost = emptyCost(key)) : undefined;
      // A check the plan does not run (the budget goes to checks judging rules no other check judges, a capability
      // or --allow-destructive is missing) sends nothing: what it would create before finding out is never made. A
      // read-only run creates nothing: its checks find out themselves, naming the first write they would need.
      if (planned && planned.verdict !== 'run' && !config.readOnly) {
        run.record.verdict = planned.verdict;
        run.record.message = planned.reason;
        context.skip(planned.reason);
      }
      try {
        const judged = () => (options.exclusive ? run.exclusively(options.exclusive, () => body(run)) : body(run));
        await (cost ? spending.run({ cost, allowance: { ...(planned?.allowance ?? {}) } }, judged) : judged());
        if (run.refusal) throw run.refusal;
        run.finish({ passed: true });
      } catch (thrown) {
        const unjudged = run.unjudgedForBusy(thrown);
        const error = unjudged ? new SkipCheck(unjudged) : thrown;
        run.finish({ failing: thrown instanceof RuleViolation ? thrown.exchange : undefined });
        redactError(error);
        const refusal = run.refusal ?? (error instanceof Refusal ? error : undefined);
        if (refusal) {
          run.record.verdict = refusal.verdict;
          run.record.message = redactText(refusal.message);
          context.skip(run.record.message);
        }
        // The target lacks what the check needs (a list item that qualifies, a token, the clock): `skip` with the reason.
        if (error instanceof SkipCheck || error instanceof MissingCapability) {
          run.record.verdict = 'skip';
          run.record.message = error.message;
          context.skip(error.message);
        }
        if (error instanceof RuleViolation) {
          if (run.recordViolation(error) === 'fail') {
            // The `verdict` label makes the Allure result `failed` (a rule broken) rather than `broken` (reports/allure.ts).
            await allure.label('verdict', 'fail');
            await allure.attachment('evidence (tokens redacted)', JSON.stringify(run.record.exchanges, null, 1), 'application/json');
          }
        } else {
          run.record.verdict = 'error';
          run.record.message = (error as Error).message ?? redactText(String(error));
        }
        throw error;
      } finally {
        context.task.meta.conformance = redact(run.record);
      }
    },
    // Its own time, and as much again for waits for run-wide locks (`Check.deadline`).
    2 * timeout,
  );
}

/**
 * `check` for checks that may wait in real time `waits` times without the clock hook (`CheckOptions.realTimeWaits`),
 * with the check's other options (until the fiftieth session they were dropped: two range checks ran without their lock).
 */
export const checkWaiting =
  (waits: number) =>
  (...[rules, title, body, options]: Parameters<typeof check>): void =>
    check(rules, title, body, { ...options, realTimeWaits: waits });
