// Target configuration: defaults ← config file ← environment (CONFORMANCE_*) ← command-line flags. The settings
// themselves are declared in harness/settings.ts.
import { readFileSync } from 'node:fs';
import {
  ConfigError,
  ENV_PREFIX,
  REAL_TARGET_BUDGETS,
  REAL_TARGET_CONSISTENCY_WINDOW_MS,
  SETTINGS,
  initialValue,
  type Setting,
  type SuiteConfig,
} from './settings.js';

export { ConfigError, REAL_TARGET_BUDGETS, REAL_TARGET_CONSISTENCY_WINDOW_MS, scopeKey } from './settings.js';
export type { ProgressMode, SuiteConfig } from './settings.js';

/** Where the run's global setup (same process as the command) leaves why it failed, for the reports and the exit code. */
export const SETUP_ERROR_ENV = `${ENV_PREFIX}SETUP_ERROR`;

const DECLARED: readonly Setting[] = SETTINGS;

export function defaults(): SuiteConfig {
  return Object.fromEntries(DECLARED.map((declared) => [declared.key, initialValue(declared)])) as SuiteConfig;
}

/** The reference emulator's seed, for the settings a real target must name. */
export function embeddedDefaults(config: SuiteConfig): SuiteConfig {
  return {
    ...config,
    allowDestructive: true,
    // (a second region: us-east where the run's region is the seed's us-west)
    otherRegion: config.otherRegion ?? (config.region === 'us-west' ? 'us-east' : 'us-west'),
    vlanRegion: config.vlanRegion ?? 'us-east',
    noVlanRegion: config.noVlanRegion ?? 'us-west',
    spareVlanRegion: config.spareVlanRegion ?? 'eu-central',
    takenDomain: config.takenDomain ?? 'taken-by-another-account.example',
  };
}

/** A setting's flag without its argument (`--other-region`), as a skip message names it. */
export function settingFlag(key: keyof SuiteConfig): string {
  return DECLARED.find((declared) => declared.key === key)!.flag.split(' ')[0]!;
}

/**
 * Settings a real target should name, which a run still defaults to the reference emulator's seed when they are not
 * given (the checks read them as strings throughout): `conformance run` warns about those left out with --base-url.
 */
const DEFAULTED_ON_TARGET = ['region', 'instanceType', 'largerInstanceType'] as const satisfies ReadonlyArray<keyof SuiteConfig>;

type Sources = { file?: string; env?: NodeJS.ProcessEnv; flags?: Partial<Record<keyof SuiteConfig, string>> };

/** Reads a JSON config file whose members are named like the settings (`baseUrl`, `token`, …). */
function readConfigFile(file: string): Partial<Record<keyof SuiteConfig, string>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(`cannot read config file ${file}: ${reason}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  const known = new Set<string>(DECLARED.map((declared) => declared.key));
  const out: Partial<Record<keyof SuiteConfig, string>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!known.has(key)) throw new ConfigError(`config file ${file}: unknown setting "${key}" (known: ${[...known].join(', ')})`);
    out[key as keyof SuiteConfig] =
      typeof value === 'object' && value !== null
        ? Object.entries(value)
            .map(([k, v]) => `${k}=${String(v)}`)
            .join(DECLARED.find((declared) => declared.key === key)?.repeat ?? ';')
        : String(value);
  }
  return out;
}

/** The sources' values, in the order they apply: config file, environment, flags. */
function layersOf(sources: Sources): Array<[string, Partial<Record<keyof SuiteConfig, string>>]> {
  const env = sources.env ?? {};
  const layers: Array<[string, Partial<Record<keyof SuiteConfig, string>>]> = [];
  const file = sources.file ?? env[`${ENV_PREFIX}CONFIG`];
  if (file) layers.push([`config file ${file}`, readConfigFile(file)]);
  layers.push([
    'environment',
    Object.fromEntries(
      DECLARED.filter((declared) => env[ENV_PREFIX + declared.env] !== undefined).map((declared) => [declared.key, env[ENV_PREFIX + declared.env]!]),
    ),
  ]);
  layers.push(['flags', sources.flags ?? {}]);
  return layers;
}

/**
 * The warning `conformance run` prints at start when a target given by --base-url is run without naming its region
 * or instance types (DEFAULTED_ON_TARGET): the flags and the defaults used. Null on the embedded emulator, or all given.
 */
export function defaultedOnTargetWarning(sources: Sources, config: SuiteConfig): string | null {
  if (!config.baseUrl) return null;
  const layers = layersOf(sources);
  const unnamed = DEFAULTED_ON_TARGET.filter((key) => layers.every(([, values]) => values[key] === undefined || values[key] === ''));
  if (!unnamed.length) return null;
  const used = unnamed.map((key) => `${settingFlag(key)} ${config[key]}`).join(', ');
  return `warning: regions and instance types cannot be discovered: name the target's (${unnamed.map(settingFlag).join(', ')}); this run uses the reference emulator's ${used}`;
}

/** Resolves the configuration; later sources win. Throws ConfigError with one clear line on bad input. */
export function resolveConfig(sources: Sources): SuiteConfig {
  const config = defaults();
  const layers = layersOf(sources);
  const given = new Set<keyof SuiteConfig>();
  for (const [source, values] of layers)
    for (const declared of DECLARED) {
      const key = declared.key as keyof SuiteConfig;
      const value = values[key];
      if (value !== undefined && value !== '') {
        (config as Record<string, unknown>)[key] = declared.parse(value, `${source} (${key})`);
        given.add(key);
      }
    }
  if (config.baseUrl && !given.has('maxInstances')) config.maxInstances = REAL_TARGET_BUDGETS.maxInstances;
  if (config.baseUrl && !given.has('maxDatabases')) config.maxDatabases = REAL_TARGET_BUDGETS.maxDatabases;
  if (config.baseUrl && !given.has('consistencyWindowMs')) config.consistencyWindowMs = REAL_TARGET_CONSISTENCY_WINDOW_MS;
  if (config.readOnly && config.allowDestructive) throw new ConfigError('--read-only and --allow-destructive contradict each other: give one of them');
  if (config.baseUrl && !config.token) throw new ConfigError('a base URL needs a token: give --token or CONFORMANCE_TOKEN');
  if (config.baseUrl && config.emulatorFaults.length > 0)
    throw new ConfigError('emulator faults apply to the embedded emulator only: drop --base-url or --emulator-fault');
  if (config.baseUrl && config.emulatorVariations.length > 0)
    throw new ConfigError('emulator variations apply to the embedded emulator only: drop --base-url or --emulator-variation');
  if (config.otherRegion !== null && config.otherRegion === config.region)
    throw new ConfigError(`--other-region names the run's own region (${config.region}): give a second region, or leave it out`);
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
