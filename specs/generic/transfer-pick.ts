// The incoming entity transfer a valid accept takes: shown pending, from another account, not past its expiry by the
// target's present (what status an expired transfer shows is not shown: it may still show pending), and not accepted
// by any spec file of the run before (an accepted one may go on showing pending: harness/accepted-transfers.ts).
import { acceptedTransfers, noteAcceptedTransfer } from '../../harness/accepted-transfers.js';
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { presentOf, timeOf } from '../../harness/lists.js';

/** Notes an incoming transfer the check accepted, for every spec file of the run: a list read soon after may still show it pending. */
export const noteAccepted = (c: Check, token: string): void => noteAcceptedTransfer(c.target.info.config, token);

export async function pendingIncomingTransfer(c: Check, fx: Fixtures): Promise<string> {
  const present = await presentOf(c);
  const accepted = acceptedTransfers(c.target.info.config);
  // (a transfer showing no expiry is judged by the schema checks, not left out here)
  const unexpired = (expiry: unknown) => (timeOf(expiry) ?? Infinity) > present;
  const found = await fx.find(
    c,
    '/v4/account/entity-transfers',
    (item) => item.is_sender === false && item.status === 'pending' && unexpired(item.expiry) && !accepted.has(String(item.token)),
  );
  // Only another account can make one: a target without one lacks what the check needs.
  if (!found) c.skip('needs a pending, unexpired entity transfer from another account to accept');
  return String(found.token);
}
