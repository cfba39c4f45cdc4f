// The emulator's command-line flags, each declared once: how it is parsed and checked, the environment variable that
// adds to it, and its line of `--help`.
import { parseArgs } from 'node:util';
import { unknownFaults } from './faults/index.js';
import { exclusivePairs, unknownVariations } from './variations/index.js';

export class UsageError extends Error {}

/** What node:util's parseArgs gives for a flag: absent, a switch, a value, or the values of a repeatable flag. */
type Given = boolean | string | string[] | undefined;

interface Flag<T> {
  /** The value's name in `--help`; none: a switch. */
  value?: string;
  /** The value when the flag is absent. */
  initial?: string;
  /** May be given again (its values form a list). */
  repeatable?: true;
  /** An environment variable whose comma-separated values are added to the flag's. */
  env?: string;
  short?: string;
  help: string;
  /** The setting made of what was given (undefined: absent, without an initial value); throws UsageError. */
  read: (given: never) => T;
}

function flag<G extends Given, T>(declaration: Flag<T> & { read: (given: G) => T }): Flag<T> & { read: (given: G) => T } {
  return declaration;
}

/** 1..256 characters, no space. */
export const TOKEN = /^\S{1,256}$/;

/** Why these fault or variation ids cannot be served together, or '' when they can. */
export function idsProblem(kind: 'fault' | 'variation', ids: readonly string[]): string {
  const unknown = (kind === 'fault' ? unknownFaults : unknownVariations)(ids);
  if (unknown.length) return `unknown ${kind} ${unknown.join(', ')} (--list-${kind}s lists them)`;
  const [pair] = kind === 'variation' ? exclusivePairs(ids) : [];
  return pair ? `variations ${pair[0]} and ${pair[1]} exclude each other: they answer one question differently, and no one server makes both choices` : '';
}

function knownIds(kind: 'fault' | 'variation') {
  return (ids: string[] = []): string[] => {
    const problem = idsProblem(kind, ids);
    if (problem) throw new UsageError(problem);
    return ids;
  };
}

const switched = (value: boolean | undefined): boolean => value ?? false;

export const FLAGS = {
  port: flag({
    value: 'n',
    initial: '4010',
    help: 'the port to listen on, 0 for any free one',
    read: (value: string) => {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, not "${value}"`);
      return Number(value);
    },
  }),
  host: flag({ value: 'address', initial: '127.0.0.1', help: 'the address to listen on', read: (value: string) => value }),
  'no-control': flag({ help: 'serve without the control hooks (/__control: clock, seeding)', read: switched }),
  token: flag({
    value: 'token',
    help: 'the full-access token it accepts (default: a fixed one, printed at start)',
    read: (value: string | undefined) => {
      if (value !== undefined && !TOKEN.test(value)) throw new UsageError('--token must be 1..256 non-space characters');
      return value;
    },
  }),
  fault: flag({
    value: 'id',
    repeatable: true,
    env: 'CHS_EMULATOR_FAULTS',
    help: 'start with this deliberate deviation from the documents',
    read: knownIds('fault'),
  }),
  variation: flag({
    value: 'id',
    repeatable: true,
    env: 'CHS_EMULATOR_VARIATIONS',
    help: 'start with this choice the documents leave open, made differently',
    read: knownIds('variation'),
  }),
  'list-faults': flag({ help: 'print the faults (id, what it does) and exit', read: switched }),
  'list-variations': flag({ help: 'print the variations (id, what it does, what the documents leave open) and exit', read: switched }),
  'parent-pid': flag({
    value: 'pid',
    help: 'exit when that process is gone (a child emulator never outlives its parent, even one killed by SIGKILL)',
    read: (value: string | undefined) => {
      if (value !== undefined && !/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`--parent-pid must be a process id, not "${value}"`);
      return value === undefined ? undefined : Number(value);
    },
  }),
  instances: flag({ help: 'no emulator at first: each JSON line on standard input starts or closes one (see emulator/main.ts)', read: switched }),
  help: flag({ short: 'h', help: 'print this help and exit', read: switched }),
};

type Flags = typeof FLAGS;
export type EmulatorSettings = { [Name in keyof Flags]: ReturnType<Flags[Name]['read']> };

const DECLARED = Object.entries(FLAGS) as Array<[keyof Flags, Flag<unknown>]>;

function fromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** The settings of these arguments; throws UsageError with one line. */
export function readSettings(args: string[], env: NodeJS.ProcessEnv): EmulatorSettings {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        DECLARED.map(([name, declared]) => [
          name,
          { type: declared.value ? 'string' : 'boolean', multiple: declared.repeatable ?? false, ...(declared.short ? { short: declared.short } : {}) },
        ]),
      ),
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const settings: Record<string, unknown> = {};
  for (const [name, declared] of DECLARED) {
    const value = declared.env ? [...((values[name] as string[] | undefined) ?? []), ...fromEnv(env[declared.env])] : (values[name] ?? declared.initial);
    settings[name] = (declared.read as (given: unknown) => unknown)(value);
  }
  return settings as EmulatorSettings;
}

export function usage(): string {
  const lines = DECLARED.map(([name, declared]) => {
    const spelling = `${declared.short ? `-${declared.short}, ` : ''}--${name}${declared.value ? ` <${declared.value}>` : ''}`;
    const notes = [
      declared.initial && `default ${declared.initial}`,
      declared.repeatable && 'repeatable',
      declared.env && `also ${declared.env}, comma-separated`,
    ].filter(Boolean);
    return `  ${spelling.padEnd(24)} ${declared.help}${notes.length ? ` (${notes.join('; ')})` : ''}`;
  });
  return ['usage: npm run emulator -- [options]', '', 'options:', ...lines].join('\n');
}
