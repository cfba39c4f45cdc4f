// Target configuration: defaults ← config file ← environment (CONFORMANCE_*) ← command-line flags.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface SuiteConfig {
  /** null: start the embedded reference emulator. */
  baseUrl: string | null;
  /** A full-access token (unrestricted user, every scope). */
  token: string | null;
  /** Tokens holding exactly a scope set, keyed by the sorted comma-separated scopes. */
  scopedTokens: Record<string, string>;
  /** A restricted user's token (no grants beyond what the user created). */
  restrictedToken: string | null;
  /** Control hooks base URL (default: the base URL, probed). */
  controlUrl: string | null;
  timeoutMs: number;
  /** fast-check runs per property of valid bodies. */
  runs: number;
  /** fast-check runs per property of constraint-breaking bodies (one per rule: hundreds of them). */
  violationRuns: number;
  seed: number;
  /** Output folder for results and the cleanup ledger. */
  out: string;
  runId: string;
  /** Only checks of these rule ids / rule id prefixes (null: all). */
  rules: string[] | null;
  /** Only checks of these areas, e.g. `P3.firewall` or `firewalls` (null: all). */
  areas: string[] | null;
  /** Irreversible or billable operations (account cancel, credit card, transfer accept) run only when allowed. */
  allowDestructive: boolean;
  /** Regions and instance types are not discoverable through the documented endpoints: name them. */
  region: string;
  /** A region supporting VLANs. */
  vlanRegion: string;
  instanceType: string;
  /** A larger instance type (resize). */
  largerInstanceType: string;
  /** A region other than `region` (backups are bound to theirs); null: checks needing one report skip. */
  otherRegion: string | null;
  /** A region without VLAN support; null: skip. */
  noVlanRegion: string | null;
  /** A VLAN-capable region other than `vlanRegion` whose VLAN quota a check may use up; null: skip. */
  spareVlanRegion: string | null;
  /** Faults the embedded emulator starts with (the mutation self-test; a demonstration of failing verdicts). */
  emulatorFaults: string[];
  /** Variations the embedded emulator starts with: choices the documents leave open, made differently (the variation matrix). */
  emulatorVariations: string[];
  /** Requests per second the whole run sends at most, shared out among the suite's workers (null: no cap). */
  maxRps: number | null;
  /** Wall-clock budget of the checks in ms: past it no request is sent and the remaining checks report `error` (null: none). */
  runBudgetMs: number | null;
  /** Reads after writes are retried for up to this long before a fail is declared (0 on the embedded emulator). */
  consistencyWindowMs: number;
  /** Only requests that change nothing (GET) reach the target; checks needing a write report `disabled`. */
  readOnly: boolean;
  /** Budgets of billable resources the run may create (null: unlimited, the default for the embedded emulator). */
  maxInstances: number | null;
  maxDatabases: number | null;
  /** `i/n`: run only the i-th of n slices of the spec files (a partial run). */
  shard: string | null;
  /** Report files (null: compliance.html, junit.xml and results.json in `out`). */
  html: string | null;
  junit: string | null;
  json: string | null;
  /** Shrink a property's counterexample before reporting it (off: the first counterexample, found sooner). */
  shrink: boolean;
  /** Render the single-file Allure report from the Allure results (about 2 s). */
  allure: boolean;
  /** Terminal progress; null: `tty` when standard output is a terminal, else `plain`. */
  progress: ProgressMode | null;
  /** What makes the run exit 1: a failed MUST rule (`must`), or also a SHOULD rule with a finding (`warning`). */
  failOn: FailOn;
  /** An expectations file: rule id → reason (and expiry); an expected fail does not fail the run. */
  expectations: string | null;
  /** Exit 1 when a rule the expectations file expects to fail passes. */
  strictExpectations: boolean;
}

export const FAIL_ON = ['must', 'warning'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export const PROGRESS_MODES = ['tty', 'plain', 'quiet', 'jsonl'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

export class ConfigError extends Error {}

export const ENV_PREFIX = 'CONFORMANCE_';

/** Where the run's global setup (same process as the command) leaves why it failed, for the reports and the exit code. */
export const SETUP_ERROR_ENV = `${ENV_PREFIX}SETUP_ERROR`;

/** One configurable setting: its key, environment variable, and how a string becomes its value. */
interface Setting<K extends keyof SuiteConfig> {
  key: K;
  env: string;
  parse: (value: string, source: string) => SuiteConfig[K];
}

const text = (value: string) => value;
const list = (value: string) => value.split(',').map((item) => item.trim()).filter(Boolean);
function positiveInt(name: string, max: number) {
  return (value: string, source: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new ConfigError(`${source}: ${name} must be an integer from 1 to ${max}, got "${value}"`);
    return Number(value);
  };
}
function nonNegativeInt(name: string, max: number) {
  return (value: string, source: string): number => {
    if (!/^\d+$/.test(value) || Number(value) > max) throw new ConfigError(`${source}: ${name} must be an integer from 0 to ${max}, got "${value}"`);
    return Number(value);
  };
}
function positiveNumber(name: string, max: number) {
  return (value: string, source: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0 || Number(value) > max) throw new ConfigError(`${source}: ${name} must be a number above 0 and at most ${max}, got "${value}"`);
    return Number(value);
  };
}
function url(name: string) {
  return (value: string, source: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new ConfigError(`${source}: ${name} must be an http(s) URL, got "${value}"`);
    }
    if (!/^https?:$/.test(parsed.protocol)) throw new ConfigError(`${source}: ${name} must be an http(s) URL, got "${value}"`);
    return value.replace(/\/+$/, '');
  };
}
function boolean(name: string) {
  return (value: string, source: string): boolean => {
    if (!/^(true|false|1|0)$/.test(value)) throw new ConfigError(`${source}: ${name} is true or false, got "${value}"`);
    return value === 'true' || value === '1';
  };
}
function budget(name: string) {
  return (value: string, source: string): number | null => {
    if (value === 'unlimited') return null;
    if (!/^\d{1,6}$/.test(value)) throw new ConfigError(`${source}: ${name} must be an integer from 0 to 999999 or "unlimited", got "${value}"`);
    return Number(value);
  };
}
function shard(value: string, source: string): string {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) throw new ConfigError(`${source}: shard is i/n with 1 <= i <= n (e.g. 2/3), got "${value}"`);
  return `${Number(match[1])}/${Number(match[2])}`;
}
/** `scopes=token;scopes=token` where scopes are comma-separated. */
function scopedTokens(value: string, source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of value.split(';').map((item) => item.trim()).filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new ConfigError(`${source}: scoped tokens are written SCOPES=TOKEN (e.g. domains:read_only=abc), got "${pair.replace(/=.*/, '=…')}"`);
    out[scopeKey(list(pair.slice(0, at)))] = pair.slice(at + 1);
  }
  return out;
}

export function scopeKey(scopes: string[]): string {
  return [...scopes].sort().join(',');
}

const SETTINGS: Setting<keyof SuiteConfig>[] = [
  { key: 'baseUrl', env: 'BASE_URL', parse: url('base URL') },
  { key: 'token', env: 'TOKEN', parse: text },
  { key: 'scopedTokens', env: 'SCOPED_TOKENS', parse: scopedTokens },
  { key: 'restrictedToken', env: 'RESTRICTED_TOKEN', parse: text },
  { key: 'controlUrl', env: 'CONTROL_URL', parse: url('control URL') },
  { key: 'timeoutMs', env: 'TIMEOUT_MS', parse: positiveInt('timeout (ms)', 600_000) },
  { key: 'runs', env: 'RUNS', parse: positiveInt('runs', 100_000) },
  { key: 'violationRuns', env: 'VIOLATION_RUNS', parse: positiveInt('violation runs', 100_000) },
  { key: 'seed', env: 'SEED', parse: positiveInt('seed', 2 ** 31 - 1) },
  { key: 'out', env: 'OUT', parse: text },
  { key: 'runId', env: 'RUN_ID', parse: (value, source) => {
    if (!/^[a-z0-9]{3,12}$/.test(value)) throw new ConfigError(`${source}: run id must be 3..12 lowercase letters or digits, got "${value}"`);
    return value;
  } },
  { key: 'rules', env: 'RULES', parse: list },
  { key: 'areas', env: 'AREAS', parse: list },
  { key: 'allowDestructive', env: 'ALLOW_DESTRUCTIVE', parse: (value, source) => {
    if (!/^(true|false|1|0)$/.test(value)) throw new ConfigError(`${source}: allow-destructive is true or false, got "${value}"`);
    return value === 'true' || value === '1';
  } },
  { key: 'region', env: 'REGION', parse: text },
  { key: 'vlanRegion', env: 'VLAN_REGION', parse: text },
  { key: 'instanceType', env: 'INSTANCE_TYPE', parse: text },
  { key: 'largerInstanceType', env: 'LARGER_INSTANCE_TYPE', parse: text },
  { key: 'otherRegion', env: 'OTHER_REGION', parse: text },
  { key: 'noVlanRegion', env: 'NO_VLAN_REGION', parse: text },
  { key: 'spareVlanRegion', env: 'SPARE_VLAN_REGION', parse: text },
  { key: 'emulatorFaults', env: 'EMULATOR_FAULTS', parse: list },
  { key: 'emulatorVariations', env: 'EMULATOR_VARIATIONS', parse: list },
  { key: 'maxRps', env: 'MAX_RPS', parse: positiveNumber('max requests per second', 100_000) },
  { key: 'runBudgetMs', env: 'RUN_BUDGET_MS', parse: positiveInt('run budget (ms)', 7 * 86_400_000) },
  { key: 'consistencyWindowMs', env: 'CONSISTENCY_WINDOW_MS', parse: nonNegativeInt('consistency window (ms)', 600_000) },
  { key: 'readOnly', env: 'READ_ONLY', parse: boolean('read-only') },
  { key: 'maxInstances', env: 'MAX_INSTANCES', parse: budget('max instances') },
  { key: 'maxDatabases', env: 'MAX_DATABASES', parse: budget('max databases') },
  { key: 'shard', env: 'SHARD', parse: shard },
  { key: 'html', env: 'HTML', parse: text },
  { key: 'junit', env: 'JUNIT', parse: text },
  { key: 'json', env: 'JSON', parse: text },
  { key: 'shrink', env: 'SHRINK', parse: boolean('shrink') },
  { key: 'allure', env: 'ALLURE', parse: boolean('allure') },
  { key: 'progress', env: 'PROGRESS', parse: (value, source) => {
    if (!(PROGRESS_MODES as readonly string[]).includes(value)) throw new ConfigError(`${source}: progress is one of ${PROGRESS_MODES.join(', ')}, got "${value}"`);
    return value as ProgressMode;
  } },
  { key: 'failOn', env: 'FAIL_ON', parse: (value, source) => {
    if (!(FAIL_ON as readonly string[]).includes(value)) throw new ConfigError(`${source}: fail-on is one of ${FAIL_ON.join(', ')}, got "${value}"`);
    return value as FailOn;
  } },
  { key: 'expectations', env: 'EXPECTATIONS', parse: text },
  { key: 'strictExpectations', env: 'STRICT_EXPECTATIONS', parse: boolean('strict-expectations') },
] as Setting<keyof SuiteConfig>[];

export function defaults(): SuiteConfig {
  return {
    baseUrl: null,
    token: null,
    scopedTokens: {},
    restrictedToken: null,
    controlUrl: null,
    timeoutMs: 10_000,
    runs: 100,
    violationRuns: 10,
    seed: 1 + (randomBytes(4).readUInt32BE() % (2 ** 31 - 2)),
    out: 'reports/out',
    runId: `r${randomBytes(3).toString('hex')}`,
    rules: null,
    areas: null,
    allowDestructive: false,
    // The reference emulator's seed.
    region: 'us-east',
    vlanRegion: 'us-east',
    instanceType: 'g6-standard-1',
    largerInstanceType: 'g6-standard-2',
    otherRegion: null,
    noVlanRegion: null,
    spareVlanRegion: null,
    emulatorFaults: [],
    emulatorVariations: [],
    maxRps: null,
    runBudgetMs: null,
    consistencyWindowMs: 0,
    readOnly: false,
    maxInstances: null,
    maxDatabases: null,
    shard: null,
    html: null,
    junit: null,
    json: null,
    shrink: true,
    allure: true,
    progress: null,
    failOn: 'must',
    expectations: null,
    strictExpectations: false,
  };
}

/** Budgets on a target given by --base-url unless set: a full run creates hundreds of instances (fast-check runs). */
export const REAL_TARGET_BUDGETS = { maxInstances: 20, maxDatabases: 4 } as const;

/** A real server may serve reads from replicas that lag behind writes by a second or two; the emulator never does. */
export const REAL_TARGET_CONSISTENCY_WINDOW_MS = 5000;

/** The reference emulator's seed, for the settings a real target must name. */
export function embeddedDefaults(config: SuiteConfig): SuiteConfig {
  return { ...config, allowDestructive: true, otherRegion: config.otherRegion ?? 'us-west', noVlanRegion: config.noVlanRegion ?? 'us-west', spareVlanRegion: config.spareVlanRegion ?? 'eu-central' };
}

/** Reads a JSON config file whose members are named like the settings (`baseUrl`, `token`, …). */
export function readConfigFile(file: string): Partial<Record<keyof SuiteConfig, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`cannot read config file ${file}: ${reason}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  const known = new Set<string>(SETTINGS.map((setting) => setting.key));
  const out: Partial<Record<keyof SuiteConfig, string>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.has(key)) throw new ConfigError(`config file ${file}: unknown setting "${key}" (known: ${[...known].join(', ')})`);
    out[key as keyof SuiteConfig] = typeof value === 'object' && value !== null ? Object.entries(value).map(([k, v]) => `${k}=${String(v)}`).join(';') : String(value);
  }
  return out;
}

/** Resolves the configuration; later sources win. Throws ConfigError with one clear line on bad input. */
export function resolveConfig(sources: { file?: string; env?: NodeJS.ProcessEnv; flags?: Partial<Record<keyof SuiteConfig, string>> }): SuiteConfig {
  const config = defaults();
  const env = sources.env ?? {};
  const layers: Array<[string, Partial<Record<keyof SuiteConfig, string>>]> = [];
  const file = sources.file ?? env[`${ENV_PREFIX}CONFIG`];
  if (file) layers.push([`config file ${file}`, readConfigFile(file)]);
  layers.push(['environment', Object.fromEntries(SETTINGS.filter((setting) => env[ENV_PREFIX + setting.env] !== undefined).map((setting) => [setting.key, env[ENV_PREFIX + setting.env]!]))]);
  layers.push(['flags', sources.flags ?? {}]);
  const given = new Set<keyof SuiteConfig>();
  for (const [source, values] of layers)
    for (const setting of SETTINGS) {
      const value = values[setting.key];
      if (value !== undefined && value !== '') {
        (config as unknown as Record<string, unknown>)[setting.key] = setting.parse(value, `${source} (${setting.key})`);
        given.add(setting.key);
      }
    }
  if (config.baseUrl && !given.has('maxInstances')) config.maxInstances = REAL_TARGET_BUDGETS.maxInstances;
  if (config.baseUrl && !given.has('maxDatabases')) config.maxDatabases = REAL_TARGET_BUDGETS.maxDatabases;
  if (config.baseUrl && !given.has('consistencyWindowMs')) config.consistencyWindowMs = REAL_TARGET_CONSISTENCY_WINDOW_MS;
  if (config.readOnly && config.allowDestructive) throw new ConfigError('--read-only and --allow-destructive contradict each other: give one of them');
  if (config.baseUrl && !config.token) throw new ConfigError('a base URL needs a token: give --token or CONFORMANCE_TOKEN');
  if (config.baseUrl && config.emulatorFaults.length > 0) throw new ConfigError('emulator faults apply to the embedded emulator only: drop --base-url or --emulator-fault');
  if (config.baseUrl && config.emulatorVariations.length > 0) throw new ConfigError('emulator variations apply to the embedded emulator only: drop --base-url or --emulator-variation');
  return config;
}

/** The environment that hands a resolved configuration to vitest and its workers. */
export function toEnv(config: SuiteConfig): Record<string, string> {
  return { [`${ENV_PREFIX}RESOLVED`]: JSON.stringify(config) };
}

export function fromEnv(env: NodeJS.ProcessEnv = process.env): SuiteConfig {
  const resolved = env[`${ENV_PREFIX}RESOLVED`];
  return resolved ? (JSON.parse(resolved) as SuiteConfig) : resolveConfig({ env });
}
