// The one redaction pass every string leaving the process goes through (check messages, evidence, the cleanup
// ledger, reports, Allure results, standard output and error). A secret — a token the run was given or minted, the
// `user:password` of a base URL — is replaced in its raw, JSON-escaped, URL-encoded, base64 (standard and URL-safe,
// padded or not, and at each of the three alignments inside a longer base64 blob) and hex forms.
import type { SuiteConfig } from './config.js';

export const REDACTED = '[REDACTED]';

/** Shorter secrets would match too much of ordinary text. */
const MIN_SECRET_LENGTH = 6;

/** The forms of a secret that are redacted: matched as they are, and in any letter case (hex, percent-encoding). */
interface Forms {
  exact: string[];
  anyCase: string[];
}

/** Each registered secret, with its forms. */
const secrets = new Map<string, Forms>();

interface Patterns {
  exact: RegExp | null;
  anyCase: RegExp | null;
  /**
   * The first characters of every form, in any case: text holding none of them holds no secret, and is spared the two
   * full passes (with a mutation batch's 128 targets, hundreds of forms that mostly share these few beginnings).
   */
  beginnings: RegExp | null;
}

/**
 * The patterns of the secrets registered so far: built when text is first redacted after a registration, not at each
 * one (a mutation batch's targets register hundreds of tokens, in bursts).
 */
let patterns: Patterns | null = null;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The characters of the base64 of `secret` that do not depend on its neighbours when it sits `offset` bytes into a
 * longer byte string (offset 0..2: every alignment), without the padding.
 */
function base64Core(secret: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString('base64');
  const first = Math.ceil((offset * 8) / 6);
  const last = Math.floor(((offset + secret.length) * 8) / 6);
  return encoded.slice(first, last);
}

function formsOf(secret: string): Forms {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = [0, 1, 2].map((offset) => base64Core(bytes, offset)).filter((core) => core.length >= MIN_SECRET_LENGTH);
  return {
    exact: [secret, JSON.stringify(secret).slice(1, -1), ...base64, ...base64.map((core) => core.replaceAll('+', '-').replaceAll('/', '_'))],
    anyCase: [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), bytes.toString('hex')],
  };
}

function alternation(forms: string[], flags: string): RegExp | null {
  const unique = [...new Set(forms)].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return unique.length ? new RegExp(unique.map(escapeRegExp).join('|'), flags) : null;
}

function currentPatterns(): Patterns {
  if (patterns) return patterns;
  const all = [...secrets.values()];
  return (patterns = {
    exact: alternation(
      all.flatMap((forms) => forms.exact),
      'g',
    ),
    anyCase: alternation(
      all.flatMap((forms) => forms.anyCase),
      'gi',
    ),
    beginnings: alternation(
      all.flatMap((forms) => [...forms.exact, ...forms.anyCase]).map((form) => form.slice(0, MIN_SECRET_LENGTH)),
      'i',
    ),
  });
}

export function registerSecret(secret: string | null | undefined): void {
  if (!secret || secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
  secrets.set(secret, formsOf(secret));
  patterns = null;
}

/** The `user:password@` of a URL: the password, and the pair as HTTP basic authentication encodes it. */
export function registerUrlCredentials(url: string | null | undefined): void {
  if (!url) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (!parsed.password && !parsed.username) return;
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  registerSecret(password);
  registerSecret(`${user}:${password}`);
}

/** Every secret a configuration holds: its tokens, the values of its headers and the credentials of its URLs. */
export function registerConfigSecrets(config: Pick<SuiteConfig, 'token' | 'scopedTokens' | 'restrictedToken' | 'baseUrl' | 'controlUrl' | 'headers'>): void {
  registerSecret(config.token);
  for (const value of Object.values(config.headers)) registerSecret(value);
  for (const token of Object.values(config.scopedTokens)) registerSecret(token);
  registerSecret(config.restrictedToken);
  registerUrlCredentials(config.baseUrl);
  registerUrlCredentials(config.controlUrl);
}

/** `text` with every form of every registered secret replaced by [REDACTED]. */
export function redactText(text: string): string {
  const { beginnings, exact, anyCase } = currentPatterns();
  if (!beginnings?.test(text)) return text;
  if (exact) text = text.replace(exact, REDACTED);
  if (anyCase) text = text.replace(anyCase, REDACTED);
  return text;
}

export function carriesSecret(text: string): boolean {
  return redactText(text) !== text;
}

/** A copy of `value` (JSON data: objects, arrays, strings…) with every string, member names included, redacted. */
export function redact<T>(value: T): T {
  if (!secrets.size) return value;
  if (typeof value === 'string') return redactText(value) as T;
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item)) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactText(key), redact(item)])) as T;
}

/** A URL as it may be shown: without its `user:password@` part. */
export function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url);
  }
  parsed.username = '';
  parsed.password = '';
  return parsed.toString().replace(/\/+$/, '');
}

/**
 * Standard output and error of this process, redacted: whatever prints (our lines, vitest's, a library's) cannot
 * show a registered secret. Installed once by the command line.
 */
export function redactStandardStreams(): void {
  for (const stream of [process.stdout, process.stderr] as Array<NodeJS.WriteStream & { redacted?: boolean }>) {
    if (stream.redacted) continue;
    stream.redacted = true;
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(
        typeof chunk === 'string' ? redactText(chunk) : Buffer.isBuffer(chunk) ? Buffer.from(redactText(chunk.toString('utf8'))) : chunk,
        ...rest,
      )) as typeof stream.write;
  }
}

/** What the target answered may reach an error's message (an echoed token): the error vitest and Allure keep is redacted. */
export function redactError(error: unknown): void {
  if (!(error instanceof Error) || !Object.isExtensible(error)) return;
  // Own properties: some errors (DOMException) have a message getter without a setter.
  for (const key of ['message', 'stack'] as const)
    if (typeof error[key] === 'string') Object.defineProperty(error, key, { value: redactText(error[key]), writable: true, configurable: true });
}
