// The incoming entity transfer a valid accept takes: shown pending, from another account, not past its expiry by the
// target's present (what status an expired transfer shows is not shown: it may still show pending), and not accepted
// by the spec file before.
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { presentOf, timeOf } from '../../harness/lists.js';

/** The incoming transfers each spec file accepted: a list read soon after may still show them pending. */
const acceptedTransfers = new WeakMap<Fixtures, Set<string>>();
const acceptedBy = (fx: Fixtures) => acceptedTransfers.get(fx) ?? acceptedTransfers.set(fx, new Set()).get(fx)!;

export const noteAccepted = (fx: Fixtures, token: string): void => void acceptedBy(fx).add(token);

export async function pendingIncomingTransfer(c: Check, fx: Fixtures): Promise<string> {
  const present = await presentOf(c);
  // (a transfer showing no expiry is judged by the schema checks, not left out here)
  const unexpired = (expiry: unknown) => (timeOf(expiry) ?? Infinity) > present;
  const found = await fx.find(
    c,
    '/v4/account/entity-transfers',
    (item) => item.is_sender === false && item.status === 'pending' && unexpired(item.expiry) && !acceptedBy(fx).has(String(item.token)),
  );
  // Only another account can make one: a target without one lacks what the check needs.
  if (!found) c.skip('needs a pending, unexpired entity transfer from another account to accept');
  return String(found.token);
}
