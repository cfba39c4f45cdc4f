// A resize a check expects accepted, on an account that may owe: document 2's Resize preconditions name "no outstanding
// balance on the account", and document 1's Account shows "balance | number | US dollars" without saying whether any
// balance above 0 is outstanding or only one past due. A server of the first reading refuses every resize while the
// account shows a balance the run cannot pay off: such a refusal is not judged (`skip`, naming the balance).
import { type Check } from '../../harness/check.js';
import { namesField } from '../../harness/error-bodies.js';
import type { Exchange } from '../../harness/http.js';

/**
 * Why a refused resize may have been refused for the account's balance: a 4xx other than the not-served (404, 405) and
 * token (401, 403) ones, naming no field, while GET /v4/account shows a balance above 0. Undefined otherwise.
 */
export async function balanceOwed(c: Check, refusal: Exchange): Promise<string | undefined> {
  if (refusal.status < 400 || refusal.status >= 500 || [401, 403, 404, 405].includes(refusal.status) || namesField(refusal, '') !== null) return undefined;
  const balance = ((await c.get('/v4/account')).body as { balance?: unknown } | undefined)?.balance;
  if (typeof balance !== 'number' || !(balance > 0)) return undefined;
  return `the account shows a balance of ${balance} US dollars, which a server may take for the "outstanding balance on the account" a resize must not have (whether any balance above 0 is outstanding is not shown)`;
}

/** Expects `exchange`, a resize, accepted; refused for what `balanceOwed` names, the check skips with that reason. */
export async function expectResized(c: Check, rule: string, exchange: Exchange, what: string): Promise<void> {
  const why = exchange.status >= 400 && exchange.status < 500 ? await balanceOwed(c, exchange) : undefined;
  if (why) c.skip(`${what} was refused (HTTP ${exchange.status}) naming no field: ${why}`);
  c.expectSuccess(rule, exchange, what);
}
