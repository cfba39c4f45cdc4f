// The run's plan, made before the first request from the cost table (specs/plan/costs.json: what each check
// needed and created on the reference emulator) and the run's configuration. It decides which checks run, which
// skip or are disabled (and why), and how many billable resources each check and each shared fixture may create:
// every rule first gets one check that judges it, cheapest first, before any rule gets a repeat. `conformance run`
// enforces it (harness/target.ts) and `conformance plan` prints it: one source for both.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scopeKey, settingFlag, type SuiteConfig } from './config.js';
import type { CheckRecord } from './check.js';

export const COSTS_FILE = fileURLToPath(new URL('../specs/plan/costs.json', import.meta.url));

/** Billable kinds, each under its budget. */
export type Billable = 'instance' | 'database';
export type Counts = Partial<Record<Billable, number>>;
const BILLABLE_KINDS: readonly Billable[] = ['instance', 'database'];

/**
 * What a check needed from the target: `destructive`, `write` (any request but GET), `clock`, `token:<scopes>`,
 * `restricted`, `restricted+grants`, `setting:<config key>` (a region the user must name).
 */
type Use = string;

export interface CheckCost {
  /** The check's full name: `<spec file> > <describe> > <title>`. */
  key: string;
  /** Rule ids the check declares. */
  rules: string[];
  /** Rules its responses were judged against besides its own. */
  exercised: string[];
  /** Billable resources it created itself (per fast-check run when `perRun`). */
  own: Counts;
  /** Valid-body property: `own` is the cost of one run, and the plan gives it a number of runs. */
  perRun?: boolean;
  /** Shared fixtures it used (`<spec file>#<fixture>`). */
  borrows: string[];
  uses: Use[];
  /** Resources it left to the cleanup ledger, by kind (instance, domain, image, …), for the plan's printout. */
  made: Record<string, number>;
  /**
   * It skipped on the reference emulator with every capability given (it depends on state no body can know, or the
   * emulator's lists are too short for it). A budget run skips it only when it would create something; one that
   * creates nothing runs and finds out on the target.
   */
  skipped?: string;
}

export interface CostTable {
  checks: CheckCost[];
  /** Per shared fixture: billable resources and ledger kinds its creation made. */
  fixtures: Record<string, { own: Counts; made: Record<string, number> }>;
}

interface PlannedCheck {
  verdict: 'run' | 'skip' | 'disabled';
  reason?: string;
  /** Billable resources it may create itself. */
  allowance: Counts;
  /** fast-check runs of a billable valid-body property (when its cost is per run). */
  runs?: number;
  /** It runs, creating nothing, though it skipped on the reference emulator for this reason: it may skip here too. */
  recordedSkip?: string;
}

export interface Plan {
  /** Budgets in force (null: unlimited). */
  budgets: Record<Billable, number | null>;
  /** Slots kept free for creates the documents say are refused (a rejected create costs nothing). */
  probeReserve: Record<Billable, number>;
  checks: Map<string, PlannedCheck>;
  fixtures: Map<string, Counts>;
  /** What the checks that run create, by ledger kind. */
  creates: Record<string, number>;
}

let cached: CostTable | undefined;

export function loadCosts(file = COSTS_FILE): CostTable {
  if (file === COSTS_FILE && cached) return cached;
  const table = JSON.parse(readFileSync(file, 'utf8')) as CostTable;
  if (file === COSTS_FILE) cached = table;
  return table;
}

const total = (counts: Counts) => BILLABLE_KINDS.reduce((sum, kind) => sum + (counts[kind] ?? 0), 0);
/** The check itself creates nothing: no billable resource, nothing left to the cleanup ledger. */
const createsNothing = (check: CheckCost) => total(check.own) === 0 && Object.values(check.made).every((count) => !count);

function selected(rules: readonly string[], filters: readonly string[] | null): boolean {
  if (!filters?.length) return true;
  return rules.some((rule) => filters.some((filter) => rule === filter || rule.startsWith(`${filter}.`)));
}

/** Whether the run's --rules and --areas prefixes choose a check of `rules` (no filter chooses every check). */
export function chosenByRuleFilters(rules: readonly string[], config: Pick<SuiteConfig, 'rules' | 'areas'>): boolean {
  return selected(rules, config.rules) && selected(rules, config.areas);
}

/** Why a check the --rules / --areas filter leaves out is not run. */
export const FILTERED_OUT = 'disabled by the --rules / --areas filter';

/**
 * The one skipped test standing in a block for the checks the filter leaves out of it (never a check: a check's name
 * starts with its rule ids). Reports leave it out.
 */
export const FILTERED_OUT_PLACEHOLDER = '(checks the --rules / --areas filter leaves out)';

/** The record of a check the --rules / --areas filter leaves out (never declared: the reports list it from the cost table). */
export function filteredOutRecord(rules: string[]): CheckRecord {
  return { rules, verdict: 'disabled', message: FILTERED_OUT, findings: [], exchanges: [], endpoints: {}, exercised: [] };
}

const files = new WeakMap<CheckCost, string>();
/** The spec file of a cost-table entry (worked out once: each of a matrix's faults asks of every entry). */
function fileOf(check: CheckCost): string {
  let file = files.get(check);
  if (file === undefined) files.set(check, (file = check.key.slice(0, check.key.indexOf(' > '))));
  return file;
}
/** Whether the spec file is among those a run's filters ask for (none: every file). */
const asked = (file: string, filters: readonly string[]) => !filters.length || filters.some((filter) => file.includes(filter));
const narrowedByRules = (config: Pick<SuiteConfig, 'rules' | 'areas' | 'shard'>) => !config.shard && !!(config.rules?.length || config.areas?.length);

/**
 * The spec files a run loads. A run narrowed by --rules / --areas loads only the files the cost table says hold a
 * check it chooses: loading and collecting every spec file costs more than most narrowed runs judge (the others'
 * checks are listed as disabled all the same, `filteredOutChecks`). A shard keeps vitest's own split of the files.
 */
export function specFilesToLoad(config: Pick<SuiteConfig, 'rules' | 'areas' | 'shard'>, filters: readonly string[], table: CostTable = loadCosts()): string[] {
  if (!narrowedByRules(config)) return [...filters];
  const files = filesHoldingChosenChecks(config, filters, table);
  // Nothing chosen: every asked file is collected, and the run says no rule was judged.
  return files.length ? files : [...filters];
}

/** Every spec file (path from the project root) among `filters`, as the cost table lists them. */
export function allSpecFiles(filters: readonly string[], table: CostTable = loadCosts()): string[] {
  return [...new Set(table.checks.map(fileOf))].filter((file) => asked(file, filters));
}

/** The spec files (paths from the project root) among `filters` that the cost table says hold a check the filters choose. */
export function filesHoldingChosenChecks(
  config: Pick<SuiteConfig, 'rules' | 'areas'>,
  filters: readonly string[] = [],
  table: CostTable = loadCosts(),
): string[] {
  return [...new Set(table.checks.filter((check) => asked(fileOf(check), filters) && chosenByRuleFilters(check.rules, config)).map(fileOf))];
}

/**
 * The checks a run narrowed by --rules / --areas leaves out, as the cost table declares them: they are never
 * registered (`check` holds their place with one skipped test per block, so that a block left with none skips its
 * hooks), and the reports list them as disabled. Those of every asked file, loaded or not; in a shard, those of the
 * files the shard loaded (vitest splits the files).
 */
export function filteredOutChecks(
  config: Pick<SuiteConfig, 'rules' | 'areas' | 'shard'>,
  filters: readonly string[],
  loaded: ReadonlySet<string>,
  table: CostTable = loadCosts(),
): Array<{ file: string; name: string; rules: string[] }> {
  if (!config.rules?.length && !config.areas?.length) return [];
  const inRun = (file: string) => (config.shard ? loaded.has(file) : asked(file, filters));
  return table.checks
    .filter((check) => !chosenByRuleFilters(check.rules, config) && inRun(fileOf(check)))
    .map((check) => ({ file: fileOf(check), name: check.key.slice(check.key.lastIndexOf(' > [') + ' > '.length), rules: check.rules }));
}

/** Why a check cannot run with this configuration (its verdict), or null. */
function capabilityVerdict(check: CheckCost, config: SuiteConfig, control: boolean): { verdict: 'skip' | 'disabled'; reason: string } | null {
  if (!chosenByRuleFilters(check.rules, config)) return { verdict: 'disabled', reason: FILTERED_OUT };
  for (const use of check.uses) {
    if (use === 'write' && config.readOnly) return { verdict: 'disabled', reason: 'read-only run (--read-only): the check needs a write' };
    if (use === 'destructive' && !config.allowDestructive)
      return { verdict: 'disabled', reason: 'an irreversible or billable operation: it runs only with --allow-destructive' };
  }
  const hooks = control && !config.readOnly;
  for (const use of check.uses) {
    if (use === 'clock' && !hooks) return { verdict: 'skip', reason: 'needs simulated time to pass: the target has no clock control hook' };
    if (use.startsWith('setting:')) {
      const key = use.slice('setting:'.length) as keyof SuiteConfig;
      if (!config[key]) return { verdict: 'skip', reason: `needs a region you did not name: set ${settingFlag(key)}` };
    }
    if (hooks) continue;
    if (use === 'restricted' && !config.restrictedToken)
      return { verdict: 'skip', reason: 'needs a restricted user token: give --restricted-token (or a target with control hooks)' };
    if (use === 'restricted+grants') return { verdict: 'skip', reason: 'needs a restricted user with given grants: a target with control hooks' };
    if (use.startsWith('token:') && !config.scopedTokens[scopeKey(use.slice('token:'.length).split(','))])
      return { verdict: 'skip', reason: `needs a token holding exactly ${use.slice('token:'.length)}: give --token-scoped (or a target with control hooks)` };
  }
  return null;
}

/** Where `conformance run` tells its workers which spec files it was asked for (vitest's file filters). */
export const SPEC_FILTERS_ENV = 'CONFORMANCE_SPEC_FILTERS';

/** The spec-file filters of this run (none: every spec file). */
export function specFilters(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[SPEC_FILTERS_ENV] ?? '').split('\n').filter(Boolean);
}

/**
 * The plan for a configuration. `control`: the target offers the control hooks. `files`: the spec-file filters of
 * the run (a check of a file left out is not run, so the budget goes to the files asked for).
 */
export function makePlan(config: SuiteConfig, control: boolean, table: CostTable = loadCosts(), files: string[] = []): Plan {
  const budgets: Record<Billable, number | null> = { instance: config.maxInstances, database: config.maxDatabases };
  const probeReserve: Record<Billable, number> = { instance: Math.min(1, budgets.instance ?? 0), database: Math.min(1, budgets.database ?? 0) };
  const left: Record<Billable, number> = { instance: Infinity, database: Infinity };
  for (const kind of BILLABLE_KINDS) if (budgets[kind] !== null) left[kind] = budgets[kind]! - probeReserve[kind];
  const checks = new Map<string, PlannedCheck>();
  const fixtures = new Map<string, Counts>();
  const fixtureCost = (key: string) => table.fixtures[key]?.own ?? {};

  const candidates: CheckCost[] = [];
  // Checks that skipped on the reference emulator and create nothing themselves: they run (sending reads, or nothing)
  // when the shared fixtures they need are made for other checks anyway. A short list there (six kernels) may be a
  // long one on the target.
  const recorded: CheckCost[] = [];
  for (const check of table.checks) {
    const cannot =
      (asked(fileOf(check), files) ? null : { verdict: 'disabled' as const, reason: 'its spec file is not among those the run was asked for' }) ??
      capabilityVerdict(check, config, control) ??
      (check.skipped && !createsNothing(check) ? { verdict: 'skip' as const, reason: check.skipped } : null);
    if (cannot) checks.set(check.key, { ...cannot, allowance: {} });
    else if (check.skipped) recorded.push(check);
    else candidates.push(check);
  }

  /** What admitting the check would cost now: its own creates and the shared fixtures not yet admitted. */
  const marginal = (check: CheckCost): Counts => {
    const cost: Counts = { ...check.own };
    for (const key of new Set(check.borrows))
      if (!fixtures.has(key)) for (const kind of BILLABLE_KINDS) cost[kind] = (cost[kind] ?? 0) + (fixtureCost(key)[kind] ?? 0);
    return cost;
  };
  const fits = (cost: Counts) => BILLABLE_KINDS.every((kind) => (cost[kind] ?? 0) <= left[kind]);
  const admit = (check: CheckCost, runs?: number) => {
    for (const key of check.borrows)
      if (!fixtures.has(key)) {
        fixtures.set(key, fixtureCost(key));
        for (const kind of BILLABLE_KINDS) left[kind] -= fixtureCost(key)[kind] ?? 0;
      }
    for (const kind of BILLABLE_KINDS) left[kind] -= check.own[kind] ?? 0;
    checks.set(check.key, { verdict: 'run', allowance: { ...check.own }, ...(runs !== undefined ? { runs } : {}) });
  };

  // Free checks first, then greedily what judges the most rules not yet judged per resource it costs: a check with
  // the shared fixtures it needs, counting the free checks those fixtures bring along.
  const covered = new Set<string>();
  const judges = (check: CheckCost) => [...check.rules, ...check.exercised];
  const costly = (check: CheckCost) => [...new Set(check.borrows)].filter((key) => !fixtures.has(key) && total(fixtureCost(key)) > 0);
  let pending = candidates;
  const admitFree = () => {
    pending = pending.filter((check) => {
      if (total(marginal(check)) > 0) return true;
      admit(check, check.perRun ? 1 : undefined);
      judges(check).forEach((rule) => covered.add(rule));
      return false;
    });
  };
  admitFree();
  for (;;) {
    let best: { check: CheckCost; score: number } | undefined;
    // The free checks that ride along once the fixtures they need are admitted: one entry per set of fixtures, with
    // the rules its checks would judge that none judges yet (hundreds of riders share a few sets).
    const riders = new Map<string, { needs: string[]; fresh: Set<string> }>();
    for (const check of pending) {
      if (total(check.own) !== 0) continue;
      const rules = judges(check).filter((rule) => !covered.has(rule));
      if (!rules.length) continue;
      const needs = costly(check);
      const key = [...needs].sort().join('\n');
      let rider = riders.get(key);
      if (!rider) riders.set(key, (rider = { needs, fresh: new Set() }));
      for (const rule of rules) rider.fresh.add(rule);
    }
    for (const check of pending) {
      const cost = marginal(check);
      if (!fits(cost)) continue;
      const brings = new Set(costly(check));
      const fresh = new Set(judges(check).filter((rule) => !covered.has(rule)));
      for (const rider of riders.values()) if (rider.needs.every((key) => brings.has(key))) for (const rule of rider.fresh) fresh.add(rule);
      if (!fresh.size) continue;
      const score = fresh.size / total(cost);
      if (!best || score > best.score) best = { check, score };
    }
    if (!best) break;
    admit(best.check, best.check.perRun ? 1 : undefined);
    judges(best.check).forEach((rule) => covered.add(rule));
    pending = pending.filter((check) => check !== best!.check);
    admitFree();
  }
  // Repeats: what is left of the budget goes to the remaining checks in the order they are declared.
  pending = pending.filter((check) => {
    if (!fits(marginal(check))) return true;
    admit(check, check.perRun ? 1 : undefined);
    return false;
  });
  for (const check of pending) {
    const kinds = BILLABLE_KINDS.filter((kind) => budgets[kind] !== null && (marginal(check)[kind] ?? 0) > left[kind]);
    checks.set(check.key, {
      verdict: 'skip',
      reason: `the budget of ${kinds.map((kind) => `${budgets[kind]} new ${kind === 'instance' ? 'instances (--max-instances)' : 'database clusters (--max-databases)'}`).join(' and ')} goes to checks judging rules no other check judges`,
      allowance: {},
    });
  }
  for (const check of recorded)
    checks.set(
      check.key,
      check.borrows.every((key) => fixtures.has(key))
        ? { verdict: 'run', allowance: {}, recordedSkip: check.skipped! }
        : { verdict: 'skip', reason: check.skipped!, allowance: {} },
    );
  // More runs for the valid-body properties that create billable resources, one run each in turn.
  const properties = table.checks.filter((check) => check.perRun && total(check.own) > 0 && checks.get(check.key)?.verdict === 'run');
  for (let more = true; more;) {
    more = false;
    for (const check of properties) {
      const planned = checks.get(check.key)!;
      if ((planned.runs ?? 1) >= config.runs || !fits(check.own)) continue;
      for (const kind of BILLABLE_KINDS) {
        left[kind] -= check.own[kind] ?? 0;
        planned.allowance[kind] = (planned.allowance[kind] ?? 0) + (check.own[kind] ?? 0);
      }
      planned.runs = (planned.runs ?? 1) + 1;
      more = true;
    }
  }
  // Valid-body properties of free resources keep the configured runs.
  for (const check of table.checks) {
    const planned = checks.get(check.key);
    if (check.perRun && planned?.verdict === 'run' && total(check.own) === 0) delete planned.runs;
  }

  const creates: Record<string, number> = {};
  const add = (made: Record<string, number>, times = 1) => {
    for (const [kind, count] of Object.entries(made)) creates[kind] = (creates[kind] ?? 0) + count * times;
  };
  for (const check of table.checks) {
    const planned = checks.get(check.key);
    if (planned?.verdict === 'run') add(check.made, check.perRun && planned.runs ? planned.runs : 1);
  }
  for (const key of fixtures.keys()) add(table.fixtures[key]?.made ?? {});
  return { budgets, probeReserve, checks, fixtures, creates };
}

export type RuleForecast = { status: 'judged' | 'skip' | 'disabled' | 'untested'; reason?: string };

/** What the plan predicts for each rule: judged when a check that runs declares it or judges its responses against it. */
export function forecastRules(plan: Plan, ruleIds: readonly string[], table: CostTable = loadCosts()): Map<string, RuleForecast> {
  const forecast = new Map<string, RuleForecast>(ruleIds.map((id) => [id, { status: 'untested' }]));
  const rank = { judged: 3, skip: 2, disabled: 1, untested: 0 } as const;
  for (const check of table.checks) {
    const planned = plan.checks.get(check.key);
    if (!planned) continue;
    // A check that skipped on the reference emulator may skip here too: its rules are not counted on as judged.
    const status = planned.recordedSkip ? 'skip' : planned.verdict === 'run' ? 'judged' : planned.verdict;
    const reason = planned.recordedSkip
      ? `${planned.recordedSkip} (it skipped on the reference emulator; it runs, creating nothing, and may judge the target)`
      : planned.reason;
    for (const rule of check.rules) {
      const now = forecast.get(rule);
      if (now && rank[status] > rank[now.status]) forecast.set(rule, { status, ...(reason ? { reason } : {}) });
    }
    if (status === 'judged') for (const rule of check.exercised) if (forecast.has(rule)) forecast.set(rule, { status: 'judged' });
  }
  return forecast;
}
