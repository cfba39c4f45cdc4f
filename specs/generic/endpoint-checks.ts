// Checks every endpoint of one document gets from the catalogue alone: a valid request succeeds; token
// endpoints refuse no token and an unknown token; no-auth endpoints answer without one; the documented scopes
// are enough and each one is needed; restricted users are refused where the documents say so; beta endpoints
// answer under /v4beta; an id that does not exist is refused. Every response also passes the named checks.
import { describe } from 'vitest';
import { checkWaiting, SkipCheck, type Check } from '../../harness/check.js';
import { isEmptyObject } from '../../harness/error-bodies.js';
import { onceNotBusy } from '../../harness/consistency.js';
import { succeeded } from '../../harness/lists.js';
import { SetupError, useFixtures, type Fixtures } from '../../harness/fixtures.js';
import { unservedRule } from '../../harness/judge.js';
import { MissingCapability } from '../../harness/target.js';
import { endpointKey, endpoints, type Endpoint, type ParamKind } from '../../rules/endpoints.js';
import { endpointRuleId } from '../../rules/endpoint-rules.js';
import { ruleById } from '../../rules/index.js';
import { IPV6_RANGES_LOCK } from './locks.js';
import { validRequests, type Recipe, type ValidRequest } from './valid-requests.js';
import { busyLast } from '../../harness/run-order.js';
import { rulesOfSchema } from '../../harness/contract.js';
import { responseSchemaFor } from '../../harness/responses.js';
import { brokenRule } from '../../harness/judge.js';
import type { Exchange } from '../../harness/http.js';
import { RESTRICTED_USERS } from '../../harness/control-hooks.js';

const UNKNOWN: Record<ParamKind, string> = {
  integer: '999999937',
  string: 'conformance-no-such-id',
  uuid: '00000000-0000-4000-8000-00000000dead',
  'engine-id': 'nosuchengine/0.0',
  ip: '192.0.2.254',
  'ipv6-range': '2001:db8:dead::',
};

/** An unrelated scope, for a token that holds something but not what the endpoint needs. */
function lackingScopes(endpoint: Endpoint, missing: string): string[] {
  const rest = endpoint.scopes.filter((scope) => scope !== missing);
  const [area, level] = missing.split(':');
  // A read_write operation is refused to the same area's read_only scope; a read is refused to another area's scopes.
  if (level === 'read_write') return [...rest, `${area}:read_only`];
  return [...rest, area === 'account' ? 'domains:read_write' : 'account:read_write'];
}

/**
 * The concrete path with the endpoint's last path parameter replaced by an id that does not exist, and the path of the
 * object that id would name (the path up to it: `/v4/compute/instances/999999937` for an action on it).
 */
function withUnknownLastParam(endpoint: Endpoint, concrete: string): { path: string; named: string } {
  const names = Object.keys(endpoint.params).filter((name) => name !== 'year' && name !== 'month');
  const last = names.at(-1)!;
  const template = endpoint.path.split('/');
  const actual = concrete.split('/');
  const index = template.indexOf(`{${last}}`);
  const extra = actual.length - template.length;
  const named = [...actual.slice(0, index), encodeURIComponent(UNKNOWN[endpoint.params[last]!])];
  return { path: [...named, ...actual.slice(index + 1 + extra)].join('/'), named: named.join('/') };
}

/**
 * What the file keeps between the checks of recipes holding a lock, released by the last of them: its IPv6 range (one
 * per region per account). Those checks hold the lock throughout, handed from each to the next across their endpoints'
 * blocks, so that no other file's range check, which needs a region free, meets the file's range between them (the
 * handover ends after 10 s: on a slow target another check may still come between, and skip).
 */
const keptUnderLock: Record<string, (fx: Fixtures) => Promise<void>> = { [IPV6_RANGES_LOCK]: (fx) => fx.releaseIpv6Ranges() };
const releaseOfKept = (recipe: Recipe | undefined) => (recipe?.exclusive ? keptUnderLock[recipe.exclusive] : undefined);

/**
 * The valid request of a check that expects it refused (no token, a lacking scope, an unknown id): on a budget, the
 * endpoint's checks of that kind share one built request, since a refused request consumes nothing. Elsewhere each
 * builds its own, so one wrongly accepted request cannot change what the next check sees.
 */
function buildRefusable(c: Check, fx: Fixtures, endpoint: Endpoint, recipe: Recipe): Promise<ValidRequest> {
  if (c.target.info.config.maxInstances === null && c.target.info.config.maxDatabases === null) return recipe.build(c, fx);
  // (what the file keeps under a lock, its range, is deleted and made again by the endpoint's other checks)
  if (releaseOfKept(recipe)) return recipe.build(c, borrowing(fx));
  return fx.shared(`refusable ${endpointKey(endpoint)}`, () => recipe.build(c, borrowing(fx)));
}

/** Fixtures whose "a new …" is the file's shared one: a request that is refused needs a resource, not its own. */
function borrowing(fx: Fixtures): Fixtures {
  return Object.create(fx, {
    newInstance: { value: (c: Check) => fx.instance(c) },
    newEntityTransfer: { value: (c: Check) => fx.entityTransfer(c) },
    newActiveDatabase: { value: (c: Check) => fx.activeDatabase(c) },
    newDomain: { value: (c: Check) => fx.domain(c) },
    newFirewall: { value: (c: Check) => fx.firewall(c) },
    databaseBackup: { value: (c: Check) => fx.databaseBackup(c) },
    ipv6Range: { value: (c: Check) => fx.ipv6Range(c) },
  }) as Fixtures;
}

/**
 * Sends a request of `recipe` a check expects accepted: again while refused where the recipe says it may be (`mayBeBusy`,
 * `sentAgain`). `refusedFor`: a refusal judged at once (`onceNotBusy`).
 */
function sendAsRecipeSays(c: Check, recipe: Recipe, send: () => Promise<Exchange>, refusedFor?: (refusal: Exchange) => boolean): Promise<Exchange> {
  if (recipe.mayBeBusy) return onceNotBusy(c, send, { untimed: recipe.mayBeBusy === 'untimed', ...(refusedFor ? { refusedFor } : {}) });
  return recipe.sentAgain ? recipe.sentAgain(c, send) : send();
}

/**
 * `sendAsRecipeSays`, with what the recipe puts in place after a refusal (`afterRefusal`) put in place on the first
 * refusal, before any wait while busy: without the clock hook the wait would spend the check's time on a refusal no
 * wait ends (an instance not enrolled in the backup service, a restore's target still running). What it puts in
 * place may itself be refused while the resource is busy: it is put in place again once the wait ends.
 */
export async function sendAfterRefusalAsRecipeSays(
  c: Check,
  fx: Fixtures,
  recipe: Recipe,
  request: ValidRequest,
  send: () => Promise<Exchange>,
  refusedFor?: (refusal: Exchange) => boolean,
): Promise<Exchange> {
  const attempt = () => sendAsRecipeSays(c, recipe, send, refusedFor);
  if (!recipe.afterRefusal) return attempt();
  const refused = (exchange: Exchange) => exchange.status >= 400 && exchange.status < 500;
  // (only the wait while busy comes after the precondition: a request sent again another way is sent so first)
  const first = await (recipe.mayBeBusy ? send() : attempt());
  if (!refused(first)) return first;
  if (await recipe.afterRefusal(c, fx, request)) return attempt();
  if (!recipe.mayBeBusy) return first;
  const waited = await attempt();
  return refused(waited) && (await recipe.afterRefusal(c, fx, request)) ? attempt() : waited;
}

async function sendValid(c: Check, fx: Fixtures, endpoint: Endpoint, recipe: Recipe, token?: string | null, refused = false) {
  if (recipe.destructive) c.needsDestructive();
  const send = async () => {
    const request = await (refused ? buildRefusable(c, fx, endpoint, recipe) : recipe.build(c, fx));
    const once = () => c.send(endpoint.method, request.path, { json: request.json, query: request.query, token });
    const exchange = await (refused ? once() : sendAfterRefusalAsRecipeSays(c, fx, recipe, request, once));
    await recipe.adopt?.(c, fx, request, exchange);
    return exchange;
  };
  return recipe.exclusive ? c.exclusively(recipe.exclusive, send) : send();
}

/** The valid request with its last id replaced by one that does not exist (the template when no real id can be had). */
async function sendWithUnknownId(c: Check, fx: Fixtures, endpoint: Endpoint, recipe: Recipe) {
  let request: ValidRequest;
  try {
    const build = () => buildRefusable(c, fx, endpoint, recipe);
    request = await (recipe.exclusive ? c.exclusively(recipe.exclusive, build) : build());
  } catch (error) {
    // (a fixture the target lacks, a pending transfer from another account say: the path's template names the id)
    const noTemplate = error instanceof SetupError || error instanceof MissingCapability || error instanceof SkipCheck;
    if (!noTemplate || Object.keys(endpoint.params).length !== 1 || endpoint.request) throw error;
    request = { path: endpoint.path };
  }
  const { path, named } = withUnknownLastParam(endpoint, request.path);
  // An id "that does not exist" is one no object holds on this target: a change sent to one a colleague's object holds
  // (the ids are the target's to give) would change or delete it. Read first; a view showing one skips the check.
  if (endpoint.method !== 'GET') {
    const view = await c.get(named);
    // (a tag's view lists what it tags: an unknown label may answer an empty list)
    const data = (view.body as { data?: unknown } | undefined)?.data;
    if (view.status >= 200 && view.status < 300 && !(Array.isArray(data) && !data.length))
      c.skip(`GET ${named} shows an object: the id taken for one that does not exist is held on this target, and left alone`);
  }
  return c.send(endpoint.method, path, { json: request.json, query: request.query });
}

/**
 * The success a check of another rule expects of a valid request (a token's scopes, no token where none is needed):
 * a 404 or 405 says the endpoint is not served, which fails its own `serves` check, not this one.
 */
function expectServedSuccess(c: Check, rule: string, exchange: Exchange, what: string): void {
  c.expectServed(exchange, what);
  c.expectSuccess(rule, exchange, what);
}

/** The image list or view answered `how` shows public images only (what a request without a token may see). */
function expectPublicImagesOnly(c: Check, rule: string, exchange: Exchange, how: string): void {
  const images = (exchange.body as { data?: Array<{ id?: unknown }> } | undefined)?.data ?? [exchange.body as { id?: unknown }];
  const privateOnes = images.filter((image) => typeof image?.id === 'string' && !image.id.startsWith('compute/'));
  c.expect(rule, privateOnes.length === 0, `${how} it shows ${privateOnes.map((image) => String(image.id)).join(', ')}, which are not public`, exchange);
}

/** A served request refused for what the recipe says it cannot control: nothing to judge (`skip`, with the reason). */
async function skipExcusedRefusal(c: Check, recipe: Recipe, exchange: Exchange): Promise<void> {
  if (!recipe.refusable || exchange.status < 400 || exchange.status >= 500 || unservedRule(exchange) !== undefined) return;
  const why = typeof recipe.refusable === 'string' ? recipe.refusable : await recipe.refusable(c, exchange);
  if (why) c.skip(`the valid request was refused (HTTP ${exchange.status}), perhaps because ${why}`);
}

/** The rules a success body of the endpoint is judged against (its schema's, and JSON bodies). */
export function successShapeRules(endpoint: Endpoint): string[] {
  const shape = responseSchemaFor(endpoint, 200);
  return [...(shape ? rulesOfSchema(shape.ref) : []), 'P1.conventions.json-bodies'];
}

/** A fail of the first of `shapeRules` the check's responses broke (the named checks on every response found it). */
export function failOnBrokenShape(c: Check, shapeRules: readonly string[]): void {
  const broken = brokenRule(c.record.findings, [...shapeRules]);
  if (broken) c.fail(broken.rule, `${broken.request} ${broken.path}: ${broken.message}`);
}

/**
 * The scopes an endpoint needs in another reading of the documents, tried when those its table names are refused; null:
 * one reading only. A change whose table names only read_only ones (marking events read or seen): "a read_write scope is
 * required for operations that change data". A scope outside the forms "<area>:read_only or <area>:read_write" (the
 * IPv6 range view's `ips:read`): its read_only form, which a server issuing only those forms takes for it.
 */
function otherReading(endpoint: Endpoint): { scopes: string[]; why: string } | null {
  const readOnly = endpoint.method !== 'GET' && endpoint.scopes.length > 0 && endpoint.scopes.every((scope) => scope.endsWith(':read_only'));
  if (readOnly) return { scopes: endpoint.scopes.map((scope) => scope.replace(/:read_only$/, ':read_write')), why: 'the operation changes data' };
  const outsideForms = endpoint.scopes.some((scope) => !/:read_(only|write)$/.test(scope));
  return outsideForms ? { scopes: endpoint.scopes.map((scope) => scope.replace(/:read$/, ':read_only')), why: 'the documented scope forms' } : null;
}

type Declaration = [rules: string | string[], title: string, body: (c: Check) => Promise<void>];

/** Declares an endpoint's checks; `releasesKept`: the last declared releases what the file keeps under the recipe's lock. */
function declareEndpointChecks(fx: Fixtures, recipe: Recipe, declarations: Declaration[], releasesKept: boolean): void {
  const release = releaseOfKept(recipe);
  const options = release ? { exclusive: recipe.exclusive, handedAcrossBlocks: true as const } : {};
  declarations.forEach(([rules, title, body], index) => {
    const releasing = release && releasesKept && index === declarations.length - 1;
    const thenReleased = async (c: Check) => {
      try {
        await body(c);
      } finally {
        // (a deletion that fails leaves the range to the file's clean-up, which reports what it cannot delete)
        await release!(fx).catch(() => undefined);
      }
    };
    checkWaiting(recipe.realTimeWaits ?? 1)(rules, title, releasing ? thenReleased : body, options);
  });
}

export function endpointChecks(document: Endpoint['document']): void {
  const fx = useFixtures(`generic-${document}`);
  const ofDocument = busyLast(
    endpoints.filter((candidate) => candidate.document === document),
    (candidate) => validRequests[endpointKey(candidate)]?.keepsBusy,
  );
  const lastKeeping = ofDocument.filter((endpoint) => releaseOfKept(validRequests[endpointKey(endpoint)])).at(-1);
  for (const endpoint of ofDocument) {
    const key = endpointKey(endpoint);
    const recipe = validRequests[key];
    if (!recipe) throw new Error(`no valid request recipe for ${key}`);
    describe(key, () => {
      const declarations: Declaration[] = [];
      const endpointCheck = (...declaration: Declaration) => void declarations.push(declaration);
      // Also tagged with the rules its success body is judged against, so `--rules <response rule>` runs a check
      // whose response can break it (the named checks on the response report the finding).
      const shapeRules = successShapeRules(endpoint);
      // (a request that may close the account is sent with success expected once, last in the run: account-cancel.spec.ts)
      if (!recipe.closesAccount)
        endpointCheck(
          [endpointRuleId(endpoint, 'serves'), ...shapeRules],
          'a valid request with a full-access token succeeds, with the documented response',
          async (c) => {
            const exchange = await sendValid(c, fx, endpoint, recipe);
            await skipExcusedRefusal(c, recipe, exchange);
            c.expectSuccess(endpointRuleId(endpoint, 'serves'), exchange, `${key} (valid)`);
            failOnBrokenShape(c, shapeRules);
          },
        );

      if (endpoint.auth === 'token') {
        const rule = endpointRuleId(endpoint, 'auth');
        endpointCheck([rule, 'P1.auth.bearer-header'], 'a request without a token is refused', async (c) => {
          c.expectRejected(rule, await sendValid(c, fx, endpoint, recipe, null, true), `${key} without a token`);
        });
        endpointCheck(rule, 'a request with an unknown token is refused', async (c) => {
          c.expectRejected(rule, await sendValid(c, fx, endpoint, recipe, 'conformance-unknown-token-0000', true), `${key} with an unknown token`);
        });
      }
      if (endpoint.auth === 'none') {
        const rule = endpointRuleId(endpoint, 'auth');
        endpointCheck(rule, 'answers without a token', async (c) => {
          const exchange = await sendValid(c, fx, endpoint, recipe, null, true);
          await skipExcusedRefusal(c, recipe, exchange);
          expectServedSuccess(c, rule, exchange, `${key} without a token`);
        });
      }
      if (endpoint.auth === 'optional') {
        const rule = endpointRuleId(endpoint, 'auth');
        endpointCheck(rule, 'answers without a token with public images only', async (c) => {
          const exchange = await sendValid(c, fx, endpoint, recipe, null);
          await skipExcusedRefusal(c, recipe, exchange);
          expectServedSuccess(c, rule, exchange, `${key} without a token`);
          expectPublicImagesOnly(c, rule, exchange, 'without a token');
        });
        endpointCheck(rule, 'answers with a token too', async (c) => {
          const exchange = await sendValid(c, fx, endpoint, recipe);
          await skipExcusedRefusal(c, recipe, exchange);
          expectServedSuccess(c, rule, exchange, `${key} with a token`);
        });
      }

      if (endpoint.auth !== 'none' && endpoint.scopes.length) {
        const rule = endpointRuleId(endpoint, 'scope');
        const other = otherReading(endpoint);
        if (!recipe.closesAccount)
          endpointCheck(
            [rule, 'P1.auth.token-kinds'],
            `a token holding exactly ${endpoint.scopes.join(' + ')}${other ? ` (or ${other.scopes.join(' + ')}: ${other.why})` : ''} is accepted`,
            async (c) => {
              let scopes = endpoint.scopes;
              let exchange = await sendValid(c, fx, endpoint, recipe, await c.principal({ scopes }));
              if (other && exchange.status >= 400 && exchange.status < 500)
                exchange = await sendValid(c, fx, endpoint, recipe, await c.principal({ scopes: (scopes = other.scopes) }));
              // Refused, a token of the OAuth kind holding what the endpoint names was not accepted.
              await skipExcusedRefusal(c, recipe, exchange);
              c.alsoBreaks(['P1.auth.token-kinds'], () => expectServedSuccess(c, rule, exchange, `${key} with exactly ${scopes.join(', ')}`));
            },
          );
        for (const missing of endpoint.scopes) {
          const scopes = lackingScopes(endpoint, missing);
          const general = [
            'P1.auth.oauth.scope-required',
            ...(endpoint.scopes.length > 1 ? ['P1.auth.scope.several-all-needed'] : []),
            ...(missing.endsWith(':read_write') ? ['P1.auth.scope.read-write-changes'] : []),
          ];
          // An endpoint that takes no token at all may serve a token lacking its scope as no token (what that does is
          // not shown): refused, or answered with public images only.
          const optional = endpoint.auth === 'optional';
          endpointCheck(
            [rule, ...general],
            `a token lacking ${missing} (holding ${scopes.join(', ')}) is refused${optional ? ' or served as no token' : ''}`,
            async (c) => {
              const token = await c.principal({ scopes });
              const exchange = await sendValid(c, fx, endpoint, recipe, token, true);
              c.alsoBreaks(general, () => {
                if (optional && exchange.status >= 200 && exchange.status < 300) expectPublicImagesOnly(c, rule, exchange, `with ${scopes.join(', ')}`);
                else c.expectRejected(rule, exchange, `${key} with ${scopes.join(', ')}`);
              });
            },
          );
        }
      }

      if (endpoint.flags.includes('unrestricted-only')) {
        const rule = endpointRuleId(endpoint, 'unrestricted-only');
        const general = endpoint.path.startsWith('/v4/account/logins') ? ['P1.auth.restricted.login-history'] : [];
        for (const [who, spec] of RESTRICTED_USERS)
          endpointCheck([rule, ...general], `${who} is refused whatever its scopes`, async (c) => {
            const token = await c.principal(spec);
            const exchange = await sendValid(c, fx, endpoint, recipe, token, true);
            c.alsoBreaks(general, () => c.expectRejected(rule, exchange, `${key} as ${who}`));
          });
      }

      if (endpoint.flags.includes('beta')) {
        const rule = endpointRuleId(endpoint, 'beta');
        endpointCheck(rule, 'answers under /v4beta', async (c) => {
          const exchange = await sendValid(c, fx, endpoint, recipe);
          c.expect(rule, exchange.path.startsWith('/v4beta/'), `the request went to ${exchange.path}`);
          c.expectSuccess(rule, exchange, `${key} under /v4beta`);
        });
      }

      const unknownId = ruleById.get(endpointRuleId(endpoint, 'unknown-id'));
      if (unknownId && !unknownId.check.startsWith('untestable')) {
        const rule = unknownId.id;
        const deletes = endpoint.method === 'DELETE';
        endpointCheck(rule, `an id that does not exist is refused with an error body${deletes ? ', or answered {}' : ''}`, async (c) => {
          const exchange = await sendWithUnknownId(c, fx, endpoint, recipe);
          if (!deletes || !succeeded(exchange)) return c.expectRejected(rule, exchange, `${key} with an unknown id`);
          // A DELETE may leave what is not there gone and answer as an operation returning no resource does: `{}`.
          c.expect(
            rule,
            isEmptyObject(exchange.body),
            `${key} with an unknown id answered HTTP ${exchange.status} with ${JSON.stringify(exchange.body)?.slice(0, 80)}: neither a refusal nor {}`,
            exchange,
          );
        });
      }
      declareEndpointChecks(fx, recipe, declarations, endpoint === lastKeeping);
    });
  }
}
