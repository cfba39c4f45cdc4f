// Helpers of the account spec files (account.spec.ts, account-cancel.spec.ts): what a cancellation is judged by.
import type { Check } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';
import { listItems } from '../../harness/lists.js';

/**
 * The account's view (GET /v4/account with the full-access token, which answered 2xx before the cancel) refused after
 * it: a cancelled account may be closed, and what it then answers is not shown (document 1, POST /v4/account/cancel;
 * Errors 3: "HTTP status codes per condition, other than the 400 above: not shown"): 401 or 403 as to a token that no
 * longer works, 410 Gone, 404, 402 or 423 are all a closed account's. Any 4xx but 429 (a request not processed).
 */
export const closed = (exchange: Exchange): boolean => exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429;

/** The ids of the account's invoices: one issued between two reads of the balance may have raised it. */
export const invoiceIds = async (c: Check): Promise<Set<string>> => new Set((await listItems(c, '/v4/account/invoices')).map((invoice) => String(invoice.id)));
