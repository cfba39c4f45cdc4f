// How a setting's value is read from the string a flag, an environment variable or a config file gives
// (harness/settings.ts declares which reader each setting takes). Each refuses a bad value with one line naming its
// source, and never shows a secret it was given.

export class ConfigError extends Error {}

/** A string from a flag, the environment or a config file made a value; `source` names where it came from in the error. */
export type Parse<T> = (value: string, source: string) => T;

export const text: Parse<string> = (value) => value;
export const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export function integer(name: string, min: number, max: number): Parse<number> {
  return (value, source) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new ConfigError(`${source}: ${name} must be an integer from ${min} to ${max}, got "${value}"`);
    return Number(value);
  };
}
export function positiveNumber(name: string, max: number): Parse<number> {
  return (value, source) => {
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0 || Number(value) > max)
      throw new ConfigError(`${source}: ${name} must be a number above 0 and at most ${max}, got "${value}"`);
    return Number(value);
  };
}
/** `root`: a URL every documented path (/v4/…, /v4beta/…) is added to, so it holds no version segment, query or fragment. */
export function url(name: string, { root = false } = {}): Parse<string> {
  return (value, source) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(value);
    } catch {
      // refused below
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new ConfigError(`${source}: ${name} must be an http(s) URL, got "${value}"`);
    if (root && /\/v4(beta)?\/*$/.test(parsed.pathname))
      throw new ConfigError(
        `${source}: ${name} must not end with the version (${value}): every path the suite sends starts with /v4, give ${value.replace(/\/v4(beta)?\/*$/, '')}`,
      );
    if (root && (parsed.search || parsed.hash)) throw new ConfigError(`${source}: ${name} must hold no query or fragment, got "${value}"`);
    return value.replace(/\/+$/, '');
  };
}
export function boolean(name: string): Parse<boolean> {
  return (value, source) => {
    if (!/^(true|false|1|0)$/.test(value)) throw new ConfigError(`${source}: ${name} is true or false, got "${value}"`);
    return value === 'true' || value === '1';
  };
}
export function oneOf<const T extends string>(name: string, choices: readonly T[]): Parse<T> {
  return (value, source) => {
    if (!(choices as readonly string[]).includes(value)) throw new ConfigError(`${source}: ${name} is one of ${choices.join(', ')}, got "${value}"`);
    return value as T;
  };
}
export function budget(name: string): Parse<number | null> {
  return (value, source) => {
    if (value === 'unlimited') return null;
    if (!/^\d{1,6}$/.test(value)) throw new ConfigError(`${source}: ${name} must be an integer from 0 to 999999 or "unlimited", got "${value}"`);
    return Number(value);
  };
}
export const shard: Parse<string | null> = (value, source) => {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2]))
    throw new ConfigError(`${source}: shard is i/n with 1 <= i <= n (e.g. 2/3), got "${value}"`);
  return `${Number(match[1])}/${Number(match[2])}`;
};
export const runId: Parse<string> = (value, source) => {
  if (!/^[a-z0-9]{3,12}$/.test(value)) throw new ConfigError(`${source}: run id must be 3..12 lowercase letters or digits, got "${value}"`);
  return value;
};

/** Headers the suite writes itself on every request, or on each request as the check needs. */
const OWN_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'accept', 'host', 'connection', 'transfer-encoding']);

/** `Name: value` lines (or `Name=value`, as a config file's object is written): a header name is a token, so it holds neither. */
export const headers: Parse<Record<string, string>> = (value, source) => {
  const given: Record<string, string> = {};
  for (const line of value.split('\n').filter((item) => item.trim())) {
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*[:=]\s*(.*?)\s*$/.exec(line);
    if (!match || [...match[2]!].some((char) => (char < ' ' && char !== '\t') || char === '\x7f'))
      throw new ConfigError(
        `${source}: header must be "Name: value" with a token for its name and no control character in its value, got "${line.split(/[:=]/)[0]}: …"`,
      );
    const name = match[1]!;
    if (OWN_HEADERS.has(name.toLowerCase()))
      throw new ConfigError(`${source}: header ${name} is the suite's own to write (tokens are given with --token and --token-scoped)`);
    given[name] = match[2]!;
  }
  return given;
};

export function scopeKey(scopes: string[]): string {
  return [...scopes].sort().join(',');
}

/**
 * A token as the Authorization header carries it after "Bearer ": the whitespace around it (a file's last newline) is
 * left out; a token holding the scheme, or whitespace within, is refused without being shown (every request would be
 * refused, and judged so).
 */
export function token(name: string): Parse<string> {
  return (value, source) => {
    const trimmed = value.trim();
    if (/^bearer\s/i.test(trimmed)) throw new ConfigError(`${source}: ${name} is the token alone, without "Bearer " (the suite writes the scheme)`);
    if (!trimmed || [...trimmed].some((char) => char <= ' ' || char === '\x7f'))
      throw new ConfigError(
        `${source}: ${name} must be one word of visible characters (it was ${trimmed ? 'broken by whitespace or a control character' : 'empty'})`,
      );
    return trimmed;
  };
}

/** `scopes=token;scopes=token` where scopes are comma-separated; keyed by the sorted scopes. A token may hold `=` (base64 padding). */
export const scopedTokens: Parse<Record<string, string>> = (value, source) => {
  const tokens: Record<string, string> = {};
  for (const pair of value
    .split(';')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1)
      throw new ConfigError(`${source}: scoped tokens are written SCOPES=TOKEN (e.g. domains:read_only=abc), got "${pair.replace(/=.*/, '=…')}"`);
    tokens[scopeKey(list(pair.slice(0, at)))] = token(`the token of ${pair.slice(0, at)}`)(pair.slice(at + 1), source);
  }
  return tokens;
};
