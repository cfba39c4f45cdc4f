// What `conformance run` settles before the first request of a run, and `conformance plan` before it plans: nothing
// typed wrong is ever green. A filter that matches no rule of the ledger, a fault the emulator does not know, a target
// that cannot be reached or that refuses the token: one line, exit 2.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, type Dispatcher } from 'undici';
import { endpoints } from '../rules/endpoints.js';
import { ledger } from '../rules/index.js';
import { ConfigError, type SuiteConfig } from '../harness/config.js';
import { ExpectationsError, readExpectations } from '../reports/expectations.js';
import { emulatorCommand } from '../harness/emulator-command.js';
import { dispatcherFor } from '../harness/http.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The pre-flight request gets at most this long: an unreachable target is told within seconds. */
const PREFLIGHT_MS = 5000;

/** Transport errors that mean no connection could be made (a reset or a slow answer means the target is there). */
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT)$|CERT|TLS|SSL/;

/** Filter items (`--rules`, `--areas`) that select no rule of the ledger: the same matching as the checks use. */
function unmatchedFilters(filters: string[] | null): string[] {
  return (filters ?? []).filter((filter) => !ledger.some((rule) => rule.id === filter || rule.id.startsWith(`${filter}.`)));
}

/** Faults the reference emulator does not know: asked of the emulator itself (the suite never imports it). */
async function unknownEmulatorFaults(faults: string[]): Promise<string[]> {
  if (!faults.length) return [];
  const listed = spawnSync(process.execPath, [...(await emulatorCommand()), '--list-faults'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  if (listed.status !== 0)
    throw new ConfigError(`cannot list the emulator's faults: ${(listed.stderr || String(listed.error ?? listed.signal)).trim().split('\n')[0]}`);
  const known = new Set(listed.stdout.split('\n').map((line) => line.split('\t')[0]));
  return faults.filter((fault) => !known.has(fault));
}

/** HTTP statuses that send the client elsewhere (the suite follows none: each answer is judged as it comes). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What one GET (at most `timeoutMs`) to the target answered, or the transport error's code and message. */
type Answer = { status: number; location?: string } | { code?: string; message?: string };

async function ask(agent: Dispatcher, url: URL, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  try {
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body.dump();
    const location = response.headers.location;
    return { status: response.statusCode, location: typeof location === 'string' ? location : undefined };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { code, message };
  }
}

/**
 * Why the base URL cannot be reached (null when it answered, anything, or connected), and the origin it redirects to
 * when that is another (a base URL typed with http:// for an https:// server, or an old host name): every request
 * would then be answered with that redirect.
 */
function reachOf(answer: Answer, url: URL): { unreachable: string | null; redirectsTo?: string } {
  if (!('status' in answer)) {
    const { code, message } = answer;
    return { unreachable: code && UNREACHABLE.test(code) ? `${code}${message && message !== code ? ` (${message})` : ''}` : null };
  }
  if (!REDIRECTS.has(answer.status) || answer.location === undefined) return { unreachable: null };
  const target = URL.canParse(answer.location, url) ? new URL(answer.location, url).origin : undefined;
  return target && target !== url.origin ? { unreachable: null, redirectsTo: target } : { unreachable: null };
}

/**
 * Two documented reads a full-access token must be served (their scopes, account:read_only and domains:read_only,
 * are different areas): when both refuse it (401 or 403, as a request without a token), the token is wrong (a typo, another
 * environment's, expired) and every check would judge that refusal, not the target.
 */
export const TOKEN_READS = ['/v4/account', '/v4/domains'];
const TOKEN_REFUSED = new Set([401, 403]);

/**
 * A read a token holding `scopes` must be served: a list taking a token whose scopes it all holds (none for a token
 * holding only read_write scopes: whether one grants reads is not shown).
 */
function readServedTo(scopes: string[]): string | undefined {
  return endpoints.find(
    (endpoint) =>
      endpoint.method === 'GET' &&
      endpoint.auth === 'token' &&
      !Object.keys(endpoint.params).length &&
      !endpoint.flags.includes('unrestricted-only') &&
      endpoint.scopes.length > 0 &&
      endpoint.scopes.every((scope) => scopes.includes(scope)),
  )?.path;
}

/**
 * The other tokens given and a read each must be served: a scoped token's list of its own area, the restricted user's
 * list of instances ("visible to the caller"). Refused where the full-access token is served, a token given wrong would
 * turn every check that wants it refused into a false pass, and every check that wants it served into a false fail.
 */
function givenTokens(config: SuiteConfig): Array<{ name: string; token: string; path: string }> {
  const scoped = Object.entries(config.scopedTokens).map(([scopes, token]) => ({
    name: `the token given for ${scopes} (--token-scoped)`,
    token,
    path: readServedTo(scopes.split(',')),
  }));
  const restricted = config.restrictedToken
    ? [{ name: "the restricted user's token (--restricted-token)", token: config.restrictedToken, path: '/v4/compute/instances' }]
    : [];
  return [...scoped, ...restricted].filter((given): given is { name: string; token: string; path: string } => given.path !== undefined);
}

/** The token, then each other token given, refused where it must be served: one line naming it. */
async function checkTokens(config: SuiteConfig & { token: string }, read: (path: string, token: string) => Promise<Answer>): Promise<void> {
  const given = givenTokens(config);
  // What the full-access token is answered on every read asked: its own two, and the other tokens' reads.
  const paths = [...new Set([...TOKEN_READS, ...given.map(({ path }) => path)])];
  const [full, theirs] = await Promise.all([
    Promise.all(paths.map((path) => read(path, config.token))),
    Promise.all(given.map(({ token, path }) => read(path, token))),
  ]);
  const statusOf = (answer: Answer) => ('status' in answer ? answer.status : 0);
  const fullStatus = (path: string) => statusOf(full[paths.indexOf(path)]!);
  if (TOKEN_READS.every((path) => TOKEN_REFUSED.has(fullStatus(path))))
    throw new ConfigError(
      `the token was refused: ${TOKEN_READS.map((path) => `GET ${path} answered ${fullStatus(path)}`).join(', ')}; give a full-access token of an unrestricted user (--token or CONFORMANCE_TOKEN)${Object.keys(config.headers).length ? '' : ', and --header if a gateway in front of the target wants one of its own'}`,
    );
  given.forEach(({ name, path }, index) => {
    const served = fullStatus(path);
    const refused = statusOf(theirs[index]!);
    if (served >= 200 && served < 300 && TOKEN_REFUSED.has(refused))
      throw new ConfigError(
        `${name} was refused: GET ${path} answered ${refused} with it, ${served} with --token; give it again (every check using it would judge that refusal), or leave it out to run without it`,
      );
  });
}

async function checkTarget(config: SuiteConfig & { baseUrl: string; token: string }): Promise<void> {
  const timeoutMs = Math.min(config.timeoutMs, PREFLIGHT_MS);
  const timeouts = { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const agent = dispatcherFor(config.baseUrl, timeouts, () => new Agent(timeouts));
  try {
    const control = new URL(`${config.baseUrl}/__control`);
    const { unreachable: why, redirectsTo } = reachOf(await ask(agent, control, config.headers, timeoutMs), control);
    // A staging server's certificate is often signed by the company's own authority, which Node does not know.
    const trust = why && /CERT|TLS|SSL/.test(why) ? '; to trust a private certificate authority, give its PEM file as NODE_EXTRA_CA_CERTS=<file>' : '';
    if (why) throw new ConfigError(`cannot reach ${control.origin}: ${why}${trust}`);
    if (redirectsTo)
      throw new ConfigError(
        `${control.origin} redirects its requests to ${redirectsTo}: give that as the base URL (the suite follows no redirect, it judges each answer as it comes)`,
      );
    await checkTokens(config, (path, token) =>
      ask(agent, new URL(`${config.baseUrl}${path}`), { ...config.headers, authorization: `Bearer ${token}` }, timeoutMs),
    );
  } finally {
    await agent.destroy();
  }
}

/** Throws a ConfigError naming the first problem; sends a few requests (to a target given by URL), each bounded. */
export async function preflight(config: SuiteConfig): Promise<void> {
  if (config.expectations) {
    try {
      readExpectations(config.expectations);
    } catch (error) {
      throw error instanceof ExpectationsError ? new ConfigError(error.message) : error;
    }
  }
  for (const [flag, filters] of [
    ['--rules', config.rules],
    ['--areas', config.areas],
  ] as const) {
    const unmatched = unmatchedFilters(filters);
    if (unmatched.length)
      throw new ConfigError(
        `${flag} ${unmatched.join(',')} matches no rule of the ledger (\`conformance rules\` lists them; a filter is a rule id or an id prefix such as P3.firewall)`,
      );
  }
  const unknown = await unknownEmulatorFaults(config.emulatorFaults);
  if (unknown.length) throw new ConfigError(`unknown emulator fault ${unknown.join(', ')} (\`npm run emulator -- --list-faults\` lists them)`);
  // A base URL comes with a token (the configuration refuses one without).
  if (config.baseUrl && config.token) await checkTarget({ ...config, baseUrl: config.baseUrl, token: config.token });
}
