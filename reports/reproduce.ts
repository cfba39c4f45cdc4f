// How a failure is reproduced: one `conformance run` command that repeats the whole run's settings for just that
// check, and a curl command sending the failing request again. Neither ever holds a token: tokens are named as
// environment variables the user sets.
import { resolveConfig, type SuiteConfig } from '../harness/config.js';
import type { Exchange, TokenOwner } from '../harness/http.js';
import { REDACTED, withoutCredentials } from '../harness/redact.js';
import type { RunInfo } from './results.js';

/** The settings of a run that decide what a check does on its target (RunInfo.settings). */
export type ReplaySettings = Pick<
  SuiteConfig,
  | 'region'
  | 'vlanRegion'
  | 'instanceType'
  | 'largerInstanceType'
  | 'otherRegion'
  | 'noVlanRegion'
  | 'spareVlanRegion'
  | 'takenDomain'
  | 'controlUrl'
  | 'consistencyWindowMs'
  | 'timeoutMs'
  | 'maxInstances'
  | 'maxDatabases'
  | 'maxRps'
  | 'allowDestructive'
  | 'readOnly'
  | 'shrink'
> & {
  /** The scope sets the run had a token for (`domains:read_only`, …): never the tokens. */
  scopes: string[];
  restrictedToken: boolean;
  /** The names of the headers every request carried (`--header`): never their values. */
  headers?: string[];
};

/** Each replayed setting and its flag; `true` booleans are the flag alone, `null` budgets are "unlimited". */
const FLAGS: Array<[keyof Omit<ReplaySettings, 'scopes' | 'restrictedToken' | 'shrink' | 'headers'>, string]> = [
  ['region', '--region'],
  ['vlanRegion', '--vlan-region'],
  ['instanceType', '--instance-type'],
  ['largerInstanceType', '--larger-instance-type'],
  ['otherRegion', '--other-region'],
  ['noVlanRegion', '--region-without-vlans'],
  ['spareVlanRegion', '--spare-vlan-region'],
  ['takenDomain', '--taken-domain'],
  ['controlUrl', '--control-url'],
  ['consistencyWindowMs', '--consistency-window'],
  ['timeoutMs', '--timeout'],
  ['maxInstances', '--max-instances'],
  ['maxDatabases', '--max-databases'],
  ['maxRps', '--max-rps'],
  ['allowDestructive', '--allow-destructive'],
  ['readOnly', '--read-only'],
];

export function replaySettingsOf(config: SuiteConfig): ReplaySettings {
  const {
    region,
    vlanRegion,
    instanceType,
    largerInstanceType,
    otherRegion,
    noVlanRegion,
    spareVlanRegion,
    takenDomain,
    consistencyWindowMs,
    timeoutMs,
    maxInstances,
    maxDatabases,
    maxRps,
    allowDestructive,
    readOnly,
    shrink,
  } = config;
  return {
    region,
    vlanRegion,
    instanceType,
    largerInstanceType,
    otherRegion,
    noVlanRegion,
    spareVlanRegion,
    takenDomain,
    controlUrl: config.controlUrl && withoutCredentials(config.controlUrl),
    consistencyWindowMs,
    timeoutMs,
    maxInstances,
    maxDatabases,
    maxRps,
    allowDestructive,
    readOnly,
    shrink,
    scopes: Object.keys(config.scopedTokens),
    restrictedToken: config.restrictedToken !== null,
    headers: Object.keys(config.headers),
  };
}

/** Quotes a shell word unless it is plainly safe. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The environment variable a replay reads the token of a scope set from: `domains:read_only` → CONFORMANCE_TOKEN_DOMAINS_READ_ONLY. */
function scopedTokenVariable(scopes: string): string {
  return `CONFORMANCE_TOKEN_${scopes
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
}

/** The environment variable a replay reads a header's value from: `X-Api-Key` → CONFORMANCE_HEADER_X_API_KEY. */
function headerVariable(name: string): string {
  return `CONFORMANCE_HEADER_${name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '')}`;
}

/** Flags for the settings that differ from what a run against the same target would take by default. */
function settingFlags(run: RunInfo): string[] {
  const settings = run.settings;
  if (!settings) return [];
  const standard = resolveConfig({ flags: run.baseUrl ? { baseUrl: run.baseUrl, token: 'unused' } : {} });
  const words: string[] = [];
  for (const [key, flag] of FLAGS) {
    const value = settings[key];
    if (value === standard[key]) continue;
    if (typeof value === 'boolean') words.push(value ? flag : '');
    else words.push(flag, shellWord(value === null ? 'unlimited' : String(value)));
  }
  if (!settings.shrink) words.push('--no-shrink');
  return words.filter(Boolean);
}

/** Tokens and header values as environment variables (double-quoted, so the shell expands them; never the secret itself). */
function tokenFlags(run: RunInfo): string[] {
  if (!run.baseUrl) return [];
  const words = ['--token', '"$CONFORMANCE_TOKEN"'];
  for (const scopes of run.settings?.scopes ?? []) words.push('--token-scoped', `"${scopes}=$${scopedTokenVariable(scopes)}"`);
  if (run.settings?.restrictedToken) words.push('--restricted-token', '"$CONFORMANCE_RESTRICTED_TOKEN"');
  for (const name of run.settings?.headers ?? []) words.push('--header', `"${name}: $${headerVariable(name)}"`);
  return words;
}

/**
 * `npx conformance run … --seed <seed>`: the same target, seed, runs and settings (regions, instance types, control
 * URL, consistency window, budgets, destructive and read-only), tokens from the environment; the whole run (with its
 * order of spec files when it was shuffled), or `only` one rule's checks of one spec file.
 */
export function runCommand(run: RunInfo, only?: { rule: string; file: string }): string {
  const words = ['npx', 'conformance', 'run'];
  if (run.baseUrl) words.push('--base-url', shellWord(run.baseUrl));
  words.push(...tokenFlags(run));
  for (const fault of run.emulatorFaults) words.push('--emulator-fault', shellWord(fault));
  for (const variation of run.emulatorVariations ?? []) words.push('--emulator-variation', shellWord(variation));
  words.push(...settingFlags(run));
  if (only) words.push('--rules', shellWord(only.rule));
  words.push('--seed', String(run.seed));
  if (!only && run.shuffle) words.push('--shuffle', String(run.shuffle));
  const standard = resolveConfig({});
  if (run.runs !== standard.runs) words.push('--runs', String(run.runs));
  if (run.violationRuns !== standard.violationRuns) words.push('--violation-runs', String(run.violationRuns));
  if (only?.file) words.push(shellWord(only.file));
  return words.join(' ');
}

/** `npx conformance run … --rules <rule> --seed <seed> <spec file>`: one rule's checks of one spec file, as the run made them. */
export const replayCommand = (run: RunInfo, rule: string, file: string): string => runCommand(run, { rule, file });

/** Request headers a curl reproduction leaves to curl (or replaces: the token). */
const LEFT_TO_CURL = new Set(['authorization', 'content-length', 'host', 'user-agent', 'connection', 'accept-encoding']);

/** Inside double quotes the shell still reads $, `, " and \. */
const doubleQuoted = (text: string) => `"${text.replace(/[$`"\\]/g, '\\$&')}"`;

/** The environment variable a curl reproduction reads a request's token from, by whose it was (`$TOKEN`: the run's own). */
function tokenVariable(owner: TokenOwner | undefined): string | undefined {
  if (!owner || owner.token === 'full') return 'TOKEN';
  if (owner.token === 'scoped') return scopedTokenVariable(owner.scopes);
  return owner.token === 'restricted' ? 'CONFORMANCE_RESTRICTED_TOKEN' : undefined;
}

/**
 * `curl` sending `exchange` again: to the run's base URL (`$BASE_URL` for the embedded emulator), its token from an
 * environment variable when it carried one (`$TOKEN` the run's own, the replay command's names for a scoped or
 * restricted token). None for a binary body, whose bytes the evidence does not keep, nor for a token the run minted or
 * made, which is gone after the run (the replay command reproduces either).
 */
export function curlCommand(exchange: Exchange, baseUrl: string | null): string | undefined {
  if (exchange.rawBody === 'binary') return undefined;
  const url = baseUrl ? shellWord(`${baseUrl}${exchange.path}`) : `"$BASE_URL"${doubleQuoted(exchange.path)}`;
  const words = ['curl', '-sS', '-i', '-X', exchange.method, url];
  if (Object.keys(exchange.requestHeaders).some((name) => name.toLowerCase() === 'authorization')) {
    const variable = tokenVariable(exchange.tokenOwner);
    if (!variable) return undefined;
    words.push('-H', `"Authorization: Bearer $${variable}"`);
  }
  // A value the evidence shows redacted is a header every request carried (`--header`): read from the replay's variable.
  for (const [name, value] of Object.entries(exchange.requestHeaders))
    if (!LEFT_TO_CURL.has(name.toLowerCase())) words.push('-H', value === REDACTED ? `"${name}: $${headerVariable(name)}"` : shellWord(`${name}: ${value}`));
  if (exchange.requestBody !== undefined)
    words.push('--data-raw', shellWord(exchange.rawBody ? String(exchange.requestBody) : JSON.stringify(exchange.requestBody)));
  return words.join(' ');
}
