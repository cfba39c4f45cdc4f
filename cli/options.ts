// The settings (harness/settings.ts) as commander options of `run` and `plan`, and their parsed values back as the
// strings the config loader takes from every source.
import { Option } from 'commander';
import { ENV_PREFIX, GROUPS, SETTINGS, type Setting, type SettingKey } from '../harness/settings.js';
import { defaultedOnTargetWarning, resolveConfig, type SuiteConfig } from '../harness/config.js';

const DECLARED: readonly Setting[] = SETTINGS;

/** What commander parsed: `--config`, and per setting a string, a list (repeatable), or a switch. */
export type RunOptions = { config?: string } & Record<string, string | string[] | boolean | undefined>;

export function configFileOption(): Option {
  return new Option(
    '--config <file>',
    `a JSON config file whose members are the config keys (flags win over the environment, which wins over the file) [env: ${ENV_PREFIX}CONFIG]`,
  );
}

function optionOf(declared: Setting): Option {
  const repeatable = declared.repeat ? ' (repeatable)' : '';
  const shownDefault = declared.shownDefault ? ` (default ${declared.shownDefault})` : '';
  const option = new Option(declared.flag, `${declared.help}${repeatable}${shownDefault} [env: ${ENV_PREFIX}${declared.env}]`).helpGroup(
    `${GROUPS[declared.group]}:`,
  );
  return declared.repeat ? option.argParser((value: string, previous: string[] = []) => [...previous, value]) : option;
}

export function settingOptions(): Option[] {
  return DECLARED.map(optionOf);
}

/** One setting's option for another command (sweep), its help worded for that command ('' default: none shown). */
export function settingOption(key: SettingKey, wording: Pick<Setting, 'help' | 'shownDefault'>): Option {
  return optionOf({ ...DECLARED.find((declared) => declared.key === key)!, ...wording }).helpGroup('Options:');
}

/** The flags given, as strings: a repeated flag joined as its environment variable is, a switch given `true`, a `--no-` switch given `false`. */
function flagsOf(options: RunOptions): Partial<Record<SettingKey, string>> {
  const flags: Partial<Record<string, string>> = {};
  for (const declared of DECLARED) {
    const option = optionOf(declared);
    const value = options[option.attributeName()];
    // commander sets a `--no-` switch to true when it is absent: only its negation counts as given
    if (value === undefined || (option.negate && value === true)) continue;
    flags[declared.key] = Array.isArray(value) ? value.join(declared.repeat) : String(value);
  }
  return flags;
}

/** The run's configuration from what commander parsed, the environment and the config file. */
export function configFromOptions(options: RunOptions, env: NodeJS.ProcessEnv = process.env): SuiteConfig {
  return resolveConfig({ file: options.config, env, flags: flagsOf(options) });
}

/** The warning line for a target given by --base-url whose region or instance types were not named, or null. */
export function targetDefaultsWarning(options: RunOptions, config: SuiteConfig, env: NodeJS.ProcessEnv = process.env): string | null {
  return defaultedOnTargetWarning({ file: options.config, env, flags: flagsOf(options) }, config);
}
