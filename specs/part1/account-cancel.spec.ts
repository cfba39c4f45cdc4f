// Document 1, "Account": the account's cancellation that is expected to succeed. What a cancelled account does is not
// shown: a server may close it, and every later request of the run would then be refused. So the run cancels once,
// from this file, started last and waiting until every other spec file has ended (harness/run-order.ts); the generic
// checks expecting the cancellation's success are these two (specs/generic/endpoint-checks.ts leaves them out).
// Cancellations expected refused (no token, a lacking scope, a restricted user, a declined charge) are sent where
// their rules are, as any refused request.
import { beforeAll, describe, expect } from 'vitest';
import { bodies } from '../../arbitraries/part1.js';
import type { BodyContext } from '../../arbitraries/types.js';
import { check, type Check } from '../../harness/check.js';
import { untilShortlyDone } from '../../harness/consistency.js';
import type { Exchange } from '../../harness/http.js';
import { runProperty } from '../../harness/property.js';
import { LAST_FILE_TIMEOUT_MS, untilOtherFilesEnded } from '../../harness/run-order.js';
import { target } from '../../harness/target.js';
import { endpointByKey } from '../../rules/endpoints.js';
import { endpointRuleId } from '../../rules/endpoint-rules.js';
import { failOnBrokenShape, successShapeRules } from '../generic/endpoint-checks.js';
import { closed, invoiceIds } from './account-support.js';

const KEY = 'POST /v4/account/cancel';
const endpoint = endpointByKey.get(KEY)!;
const shapeRules = successShapeRules(endpoint);
const serves = endpointRuleId(endpoint, 'serves');
const scope = endpointRuleId(endpoint, 'scope');
const CHARGES = 'P1.account.cancel.charges-balance';

const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
const balanceOf = (view: Exchange): unknown =>
  view.body && typeof view.body === 'object' && !Array.isArray(view.body) ? (view.body as Record<string, unknown>).balance : undefined;

/** The cancellation body names nothing of the target (only `comments`): its generator is given no context. */
const NO_CONTEXT = new Proxy({} as BodyContext, {
  get: (_, member) => {
    throw new Error(`the cancellation body has no use for the body context's ${String(member)}`);
  },
});

describe('Account cancellation, last in the run', () => {
  /** Why the cancellation cannot be the run's last request (null: it is). */
  let notLast: string | null = null;
  /** The run's one cancellation, once sent. */
  let cancellation: Exchange | undefined;
  /** The balance and the invoices just before it, to judge its charge. */
  let before: { balance: unknown; invoices: Set<string> } | undefined;

  beforeAll(async () => {
    const { config, limits } = target().info;
    if (config.allowDestructive && !config.readOnly) notLast = await untilOtherFilesEnded(config, limits?.deadline ?? null, expect.getState().testPath!);
  }, LAST_FILE_TIMEOUT_MS);

  /** Sends the run's one cancellation, with a generated valid body (one run of the property: one cancellation). */
  const cancelOnce = async (c: Check, token?: string): Promise<Exchange> => {
    c.needsDestructive('cancels the account');
    if (notLast) c.skip(notLast);
    before = { balance: balanceOf(await c.get('/v4/account')), invoices: await invoiceIds(c) };
    await runProperty(
      c,
      bodies['requests/account-cancel']!.valid(NO_CONTEXT),
      async (body) => {
        cancellation = await c.post('/v4/account/cancel', body, { token });
      },
      { runs: 1 },
    );
    return cancellation!;
  };

  check(
    [scope, 'P1.auth.token-kinds', ...shapeRules],
    'a valid cancellation with a token holding exactly account:read_write succeeds, with the documented response',
    async (c) => {
      const token = await c.principal({ scopes: endpoint.scopes });
      const exchange = await cancelOnce(c, token);
      c.expectServed(exchange, `${KEY} with exactly ${endpoint.scopes.join(', ')}`);
      c.alsoBreaks(['P1.auth.token-kinds'], () => c.expectSuccess(scope, exchange, `${KEY} with exactly ${endpoint.scopes.join(', ')}`));
      failOnBrokenShape(c, shapeRules);
    },
  );

  check([serves, ...shapeRules], 'a valid cancellation succeeds, with the documented response (the one above, or with the full-access token)', async (c) => {
    c.needsDestructive('cancels the account');
    const exchange = cancellation ?? (await cancelOnce(c));
    c.expectSuccess(serves, exchange, `${KEY} (valid)`);
    failOnBrokenShape(c, shapeRules);
  });

  // "the service tries to charge the card on file for the remaining balance and fails with an error if the charge
  // fails": a cancellation that succeeded charged it, so an account that still answers owes nothing (read while a short
  // time passes: when the charge shows is not shown). A closed account, or an invoice issued meanwhile, is not judged.
  check(CHARGES, 'a successful cancellation charges the remaining balance: an account that still answers owes nothing', async (c) => {
    c.needsDestructive('cancels the account');
    const exchange = cancellation ?? (await cancelOnce(c));
    if (!ok(exchange)) c.skip(`the cancellation was refused (HTTP ${exchange.status}; judged by the checks above): nothing was charged`);
    const owed = before?.balance;
    if (typeof owed !== 'number' || owed <= 0) c.skip(`the account had no remaining balance to charge (balance ${JSON.stringify(owed)})`);
    const after = await untilShortlyDone(
      c,
      () => c.get('/v4/account'),
      (view) => closed(view) || balanceOf(view) === 0,
    );
    if (closed(after)) c.skip(`the cancelled account answers no more (HTTP ${after.status}; a server may close it): its balance cannot be read`);
    const issued = [...(await invoiceIds(c))].filter((id) => !before!.invoices.has(id));
    if (issued.length) c.skip(`invoice ${issued.join(', ')} was issued meanwhile: what the account owes now is not the balance the cancellation charged`);
    c.expect(
      CHARGES,
      balanceOf(after) === 0,
      `the account was cancelled with a remaining balance of ${String(owed)}, which the card on file was to be charged, and still shows a balance of ${JSON.stringify(balanceOf(after))} (read while a short time passed)`,
      after,
    );
  });
});
