// Every setting of `conformance run` and `plan`, declared once: its config key, flag, environment variable, default,
// parser and help. The commander options (cli/options.ts), the config loader (harness/config.ts), `--help` and the
// README's configuration table (`npm run docs:settings`) are produced from this table.
import { randomBytes } from 'node:crypto';
import { boolean, budget, headers, integer, list, oneOf, positiveNumber, runId, scopedTokens, shard, text, token, url, type Parse } from './setting-values.js';

export { ConfigError, scopeKey } from './setting-values.js';

export const ENV_PREFIX = 'CONFORMANCE_';

const FAIL_ON = ['must', 'warning'] as const;

const PROGRESS_MODES = ['tty', 'plain', 'quiet', 'jsonl'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];

/** Budgets on a target given by --base-url unless set: a full run creates hundreds of instances (fast-check runs). */
export const REAL_TARGET_BUDGETS = { maxInstances: 20, maxDatabases: 4 } as const;

/** A real server may serve reads from replicas that lag behind writes by a second or two; the emulator never does. */
export const REAL_TARGET_CONSISTENCY_WINDOW_MS = 5000;

/** The headings of `--help`, in this order. */
export const GROUPS = {
  target: 'Target',
  principals: 'Principals (tokens)',
  selection: 'Selection',
  budgets: 'Budgets',
  reports: 'Reports',
  safety: 'Safety',
} as const;

/**
 * One setting. `T` is what its parser makes of a string; its value is a `T`, or null when the default (`I`) is null
 * (nothing given, and nothing to assume).
 */
export interface Setting<K extends string = string, T = unknown, I extends T | null = T | null> {
  /** The member of the configuration and of a config file. */
  key: K;
  /** The commander flag: `--name <value>`, a switch `--name`, or `--no-name` for a setting that is on by default. */
  flag: string;
  /** The environment variable, after CONFORMANCE_. */
  env: string;
  group: keyof typeof GROUPS;
  help: string;
  /** The default as `--help` and the README tell it. */
  shownDefault: string;
  /** The default value (a function: drawn anew for each configuration). */
  initial: I | (() => I);
  parse: Parse<T>;
  /** A repeatable flag: its values are joined with this separator, as the environment writes them. */
  repeat?: ',' | ';' | '\n';
}

function setting<const K extends string, T, const I extends T | null>(declaration: Setting<K, T, I>): Setting<K, T, I> {
  return declaration;
}

// Fresh for each configuration, so that no two share a mutable default.
const noIds = (): string[] => [];
const noTokens = (): Record<string, string> => ({});
const noHeaders = (): Record<string, string> => ({});

export const SETTINGS = [
  setting({
    key: 'baseUrl',
    flag: '--base-url <url>',
    env: 'BASE_URL',
    group: 'target',
    initial: null,
    parse: url('base URL', { root: true }),
    shownDefault: 'none: the embedded reference emulator',
    help: 'the API base URL, e.g. https://api.staging.example.com',
  }),
  setting({
    key: 'controlUrl',
    flag: '--control-url <url>',
    env: 'CONTROL_URL',
    group: 'target',
    initial: null,
    parse: url('control URL'),
    shownDefault: 'probe the base URL',
    help: 'control hooks base URL',
  }),
  setting({
    key: 'headers',
    flag: '--header <name: value>',
    env: 'HEADERS',
    group: 'target',
    repeat: '\n',
    initial: noHeaders,
    parse: headers,
    shownDefault: 'none',
    help: 'a header every request to the target carries, e.g. "X-Api-Key: …" for a gateway in front of it; its value is a secret, redacted as tokens are; the environment gives one a line, a config file an object',
  }),
  setting({
    key: 'timeoutMs',
    flag: '--timeout <ms>',
    env: 'TIMEOUT_MS',
    group: 'target',
    initial: 10_000,
    parse: integer('timeout (ms)', 1, 600_000),
    shownDefault: '10000',
    help: 'per-request timeout in ms (connect, headers and the whole body)',
  }),
  setting({
    key: 'consistencyWindowMs',
    flag: '--consistency-window <ms>',
    env: 'CONSISTENCY_WINDOW_MS',
    group: 'target',
    initial: 0,
    parse: integer('consistency window (ms)', 0, 600_000),
    shownDefault: `${REAL_TARGET_CONSISTENCY_WINDOW_MS} with --base-url, 0 on the embedded emulator`,
    help: 'reads after writes are retried for up to this long before a fail is declared',
  }),
  // Regions and instance types are not discoverable through the documented endpoints: a real target names them.
  setting({
    key: 'region',
    flag: '--region <id>',
    env: 'REGION',
    group: 'target',
    initial: 'us-east',
    parse: text,
    shownDefault: 'us-east (with --base-url a warning at start names it when not given)',
    help: 'a region of the target',
  }),
  setting({
    key: 'vlanRegion',
    flag: '--vlan-region <id>',
    env: 'VLAN_REGION',
    group: 'target',
    initial: null,
    parse: text,
    shownDefault: 'none; us-east on the embedded emulator',
    help: 'a VLAN-capable region; without it the checks needing one report skip and generated bodies name no VLAN',
  }),
  setting({
    key: 'instanceType',
    flag: '--instance-type <id>',
    env: 'INSTANCE_TYPE',
    group: 'target',
    initial: 'g6-standard-1',
    parse: text,
    shownDefault: 'g6-standard-1 (with --base-url a warning at start names it when not given)',
    help: 'an instance type',
  }),
  setting({
    key: 'largerInstanceType',
    flag: '--larger-instance-type <id>',
    env: 'LARGER_INSTANCE_TYPE',
    group: 'target',
    initial: 'g6-standard-2',
    parse: text,
    shownDefault: 'g6-standard-2 (with --base-url a warning at start names it when not given)',
    help: 'a larger instance type, for resize',
  }),
  setting({
    key: 'otherRegion',
    flag: '--other-region <id>',
    env: 'OTHER_REGION',
    group: 'target',
    initial: null,
    parse: text,
    shownDefault: 'none; us-west on the embedded emulator (us-east where --region is us-west)',
    help: 'a second region, not --region (backups are bound to theirs); without it the checks needing one report skip',
  }),
  // Not `--no-vlan-region`: commander reads a `--no-` flag as the negation of `--vlan-region`.
  setting({
    key: 'noVlanRegion',
    flag: '--region-without-vlans <id>',
    env: 'NO_VLAN_REGION',
    group: 'target',
    initial: null,
    parse: text,
    shownDefault: 'none; us-west on the embedded emulator',
    help: 'a region without VLAN support',
  }),
  setting({
    key: 'spareVlanRegion',
    flag: '--spare-vlan-region <id>',
    env: 'SPARE_VLAN_REGION',
    group: 'target',
    initial: null,
    parse: text,
    shownDefault: 'none; eu-central on the embedded emulator',
    help: 'a VLAN-capable region other than the VLAN region, whose VLAN quota a check may use up',
  }),
  setting({
    key: 'takenDomain',
    flag: '--taken-domain <name>',
    env: 'TAKEN_DOMAIN',
    group: 'target',
    initial: null,
    parse: text,
    shownDefault: 'none; taken-by-another-account.example on the embedded emulator',
    help: 'a domain name another account holds on the platform: creating it must be refused (unique on the platform)',
  }),
  setting({
    key: 'emulatorFaults',
    flag: '--emulator-fault <id>',
    env: 'EMULATOR_FAULTS',
    group: 'target',
    repeat: ',',
    initial: noIds,
    parse: list,
    shownDefault: 'none',
    help: 'start the embedded emulator with this deliberate deviation (`npm run emulator -- --list-faults` lists them)',
  }),
  setting({
    key: 'emulatorVariations',
    flag: '--emulator-variation <id>',
    env: 'EMULATOR_VARIATIONS',
    group: 'target',
    repeat: ',',
    initial: noIds,
    parse: list,
    shownDefault: 'none',
    help: 'start the embedded emulator with this allowed choice the documents leave open, made differently (`npm run emulator -- --list-variations` lists them)',
  }),

  setting({
    key: 'token',
    flag: '--token <token>',
    env: 'TOKEN',
    group: 'principals',
    initial: null,
    parse: token('token'),
    shownDefault: 'none; needed with --base-url',
    help: 'a full-access token (unrestricted user, every scope)',
  }),
  setting({
    key: 'scopedTokens',
    flag: '--token-scoped <scopes=token>',
    env: 'SCOPED_TOKENS',
    group: 'principals',
    repeat: ';',
    initial: noTokens,
    parse: scopedTokens,
    shownDefault: 'none',
    help: 'a token holding exactly these scopes, e.g. domains:read_only=abc; the environment joins several with `;`, a config file gives an object',
  }),
  setting({
    key: 'restrictedToken',
    flag: '--restricted-token <token>',
    env: 'RESTRICTED_TOKEN',
    group: 'principals',
    initial: null,
    parse: token('restricted token'),
    shownDefault: 'none',
    help: "a restricted user's token (no grants beyond what the user created)",
  }),

  setting({
    key: 'rules',
    flag: '--rules <ids>',
    env: 'RULES',
    group: 'selection',
    initial: null,
    parse: list,
    shownDefault: 'all',
    help: 'only checks of these rule ids or id prefixes, comma-separated (the others report disabled)',
  }),
  setting({
    key: 'areas',
    flag: '--areas <prefixes>',
    env: 'AREAS',
    group: 'selection',
    initial: null,
    parse: list,
    shownDefault: 'all',
    help: 'only checks of these areas, e.g. P3.firewall,P1.database',
  }),
  setting({
    key: 'shard',
    flag: '--shard <i/n>',
    env: 'SHARD',
    group: 'selection',
    initial: null,
    parse: shard,
    shownDefault: 'none',
    help: 'run only the i-th of n slices of the spec files (vitest sharding, e.g. 2/3): a partial run, for spreading a run over CI machines',
  }),
  setting({
    key: 'runs',
    flag: '--runs <n>',
    env: 'RUNS',
    group: 'selection',
    initial: 100,
    parse: integer('runs', 1, 100_000),
    shownDefault: '100',
    help: 'fast-check runs per property of valid bodies',
  }),
  setting({
    key: 'violationRuns',
    flag: '--violation-runs <n>',
    env: 'VIOLATION_RUNS',
    group: 'selection',
    initial: 10,
    parse: integer('violation runs', 1, 100_000),
    shownDefault: '10',
    help: 'fast-check runs per property of bodies breaking one rule (there are hundreds of them)',
  }),
  setting({
    key: 'seed',
    flag: '--seed <n>',
    env: 'SEED',
    group: 'selection',
    initial: () => 1 + (randomBytes(4).readUInt32BE() % (2 ** 31 - 2)),
    parse: integer('seed', 1, 2 ** 31 - 1),
    shownDefault: 'random, printed',
    help: 'fast-check seed',
  }),
  setting({
    key: 'shuffle',
    flag: '--shuffle <seed>',
    env: 'SHUFFLE',
    group: 'selection',
    initial: null,
    parse: integer('shuffle seed', 1, 2 ** 31 - 1),
    shownDefault: "off: vitest's order (earlier runs' durations, else sizes)",
    help: "run the spec files in an order drawn from this seed (each file's checks in their own order): spec files share the target, so a new order can show a verdict that depends on what another file did first; the same seed gives the same order",
  }),
  setting({
    key: 'shrink',
    flag: '--no-shrink',
    env: 'SHRINK',
    group: 'selection',
    initial: true,
    parse: boolean('shrink'),
    shownDefault: 'counterexamples shrunk',
    help: "report a property's first counterexample without shrinking it (each shrinking step sends requests: faster on a slow target)",
  }),

  setting({
    key: 'maxInstances',
    flag: '--max-instances <n>',
    env: 'MAX_INSTANCES',
    group: 'budgets',
    initial: null,
    parse: budget('max instances'),
    shownDefault: `${REAL_TARGET_BUDGETS.maxInstances} with --base-url, unlimited on the embedded emulator; per shard`,
    help: 'new instances the run may create (creates and clones), or "unlimited"; beyond it a check needing more reports skip',
  }),
  setting({
    key: 'maxDatabases',
    flag: '--max-databases <n>',
    env: 'MAX_DATABASES',
    group: 'budgets',
    initial: null,
    parse: budget('max databases'),
    shownDefault: `${REAL_TARGET_BUDGETS.maxDatabases} with --base-url, unlimited on the embedded emulator; per shard`,
    help: 'new database clusters the run may create, or "unlimited"',
  }),
  setting({
    key: 'maxRps',
    flag: '--max-rps <n>',
    env: 'MAX_RPS',
    group: 'budgets',
    initial: null,
    parse: positiveNumber('max requests per second', 100_000),
    shownDefault: 'no cap',
    help: 'requests per second the whole run sends at most, shared out among the workers; a 429 is retried after its Retry-After either way',
  }),
  setting({
    key: 'workers',
    flag: '--workers <n>',
    env: 'WORKERS',
    group: 'budgets',
    initial: null,
    parse: integer('workers', 1, 32),
    shownDefault: '2; 1 for a run narrowed by --rules',
    help: 'spec files run at once, each sending its requests one after another: more shorten a run against a distant target, which then has as many requests in flight; budgets and --max-rps are shared among them',
  }),
  setting({
    key: 'runBudgetMs',
    flag: '--run-budget <ms>',
    env: 'RUN_BUDGET_MS',
    group: 'budgets',
    initial: null,
    parse: integer('run budget (ms)', 1, 7 * 86_400_000),
    shownDefault: 'none',
    help: 'wall-clock budget of the checks: past it no request is sent, the remaining checks report error, and cleanup still runs',
  }),

  setting({
    key: 'out',
    flag: '--out <dir>',
    env: 'OUT',
    group: 'reports',
    initial: 'reports/out',
    parse: text,
    shownDefault: 'reports/out',
    help: 'output folder: reports, and the cleanup ledger',
  }),
  setting({
    key: 'html',
    flag: '--html <file>',
    env: 'HTML',
    group: 'reports',
    initial: null,
    parse: text,
    shownDefault: '<out>/compliance.html',
    help: 'the compliance report',
  }),
  setting({
    key: 'junit',
    flag: '--junit <file>',
    env: 'JUNIT',
    group: 'reports',
    initial: null,
    parse: text,
    shownDefault: '<out>/junit.xml',
    help: 'the JUnit XML report',
  }),
  setting({
    key: 'json',
    flag: '--json <file>',
    env: 'JSON',
    group: 'reports',
    initial: null,
    parse: text,
    shownDefault: '<out>/results.json',
    help: 'the results',
  }),
  setting({
    key: 'allure',
    flag: '--no-allure',
    env: 'ALLURE',
    group: 'reports',
    initial: true,
    parse: boolean('allure'),
    shownDefault: 'Allure results and report written',
    help: 'skip the Allure results and their single-file report (<out>/allure-report/index.html: about 1.5 s of a full run, 3 s of its CPU)',
  }),
  setting({
    key: 'progress',
    flag: '--progress <mode>',
    env: 'PROGRESS',
    group: 'reports',
    initial: null,
    parse: oneOf('progress', PROGRESS_MODES),
    shownDefault: 'tty on a terminal, else plain',
    help: 'terminal progress: tty (lines per area updated in place), plain (printed every few seconds), quiet (the summary line only), jsonl (one JSON object per finished check on standard output)',
  }),
  setting({
    key: 'failOn',
    flag: '--fail-on <level>',
    env: 'FAIL_ON',
    group: 'reports',
    initial: 'must',
    parse: oneOf('fail-on', FAIL_ON),
    shownDefault: 'must',
    help: 'what makes the run exit 1: must (a MUST rule failed) or warning (also a SHOULD rule with a finding)',
  }),
  setting({
    key: 'expectations',
    flag: '--expectations <file>',
    env: 'EXPECTATIONS',
    group: 'reports',
    initial: null,
    parse: text,
    shownDefault: 'none',
    help: 'a JSON file of rules expected to fail (rule id → reason, or {"reason", "expires": "YYYY-MM-DD"}): their fails show as expected and do not fail the run',
  }),
  setting({
    key: 'strictExpectations',
    flag: '--strict-expectations',
    env: 'STRICT_EXPECTATIONS',
    group: 'reports',
    initial: false,
    parse: boolean('strict-expectations'),
    shownDefault: 'off',
    help: 'also exit 1 when a rule the expectations file expects to fail passes',
  }),

  setting({
    key: 'readOnly',
    flag: '--read-only',
    env: 'READ_ONLY',
    group: 'safety',
    initial: false,
    parse: boolean('read-only'),
    shownDefault: 'off',
    help: 'send only requests that change nothing (GET): safe against production; every check needing a write reports disabled, control hooks are not used',
  }),
  setting({
    key: 'allowDestructive',
    flag: '--allow-destructive',
    env: 'ALLOW_DESTRUCTIVE',
    group: 'safety',
    initial: false,
    parse: boolean('allow-destructive'),
    shownDefault: 'off; always on for the embedded emulator',
    help: "also run irreversible or billable operations and changes to the account itself: account cancel, credit card, entity-transfer accept, PUT /v4/account, PUT /v4/monitor/plan, marking the account's events seen; without it those checks report disabled",
  }),
  setting({
    key: 'leftoversWaitMs',
    flag: '--wait-for-leftovers <ms>',
    env: 'WAIT_FOR_LEFTOVERS_MS',
    group: 'safety',
    initial: 0,
    parse: integer('wait for leftovers (ms)', 0, 86_400_000),
    shownDefault: '0: the closing line names the sweep instead',
    help: 'on a target given by --base-url, the run ends by sweeping what it made and could not delete, waiting up to this long for what the target refuses to delete while busy (a cluster provisioning, an instance a clone runs from or to)',
  }),
  setting({
    key: 'runId',
    flag: '--run-id <id>',
    env: 'RUN_ID',
    group: 'safety',
    initial: () => `r${randomBytes(3).toString('hex')}`,
    parse: runId,
    shownDefault: 'random, printed',
    help: 'run id: labels carry it as a prefix and the cleanup ledger is filed under it',
  }),
] as const;

type Declared = (typeof SETTINGS)[number];

export type SuiteConfig = { [S in Declared as S['key']]: S extends Setting<string, infer T, infer I> ? T | Extract<I, null> : never };

export type SettingKey = keyof SuiteConfig;

/** The setting's default value; a function default is drawn anew. */
export function initialValue(declared: Setting): unknown {
  return typeof declared.initial === 'function' ? (declared.initial as () => unknown)() : declared.initial;
}

/** The README's configuration table, one row per setting, grouped as `--help` is. */
function settingsTable(): string {
  const cell = (value: string) => value.replace(/[|<>]/g, (character) => `\\${character}`);
  const rows = SETTINGS.map((declared: Setting) => {
    const flag = `\`${declared.flag}\`${declared.repeat ? ' (repeatable)' : ''}`;
    return `| ${GROUPS[declared.group]} | ${flag} | \`${ENV_PREFIX}${declared.env}\` | \`${declared.key}\` | ${cell(declared.shownDefault)} | ${cell(declared.help)} |`;
  });
  return ['| group | flag | environment | config key | default | what it does |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

const TABLE_BEGIN = '<!-- settings table: generated from harness/settings.ts by `npm run docs:settings` -->';
const TABLE_END = '<!-- end of settings table -->';

/** The README with its configuration table (between the markers) rewritten from this table. */
export function withSettingsTable(readme: string): string {
  const begin = readme.indexOf(TABLE_BEGIN);
  const end = readme.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the settings table markers: ${TABLE_BEGIN} … ${TABLE_END}`);
  return `${readme.slice(0, begin)}${TABLE_BEGIN}\n${settingsTable()}\n${readme.slice(end)}`;
}
