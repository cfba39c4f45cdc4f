// Helpers of the account spec files (account.spec.ts, account-cancel.spec.ts): what a cancellation is judged by.
import type { Check } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';
import { listItems } from '../../harness/lists.js';

/** A view refused as to a token that no longer works: a cancelled account may be closed (what it does is not shown). */
export const closed = (exchange: Exchange): boolean => exchange.status === 401 || exchange.status === 403;

/** The ids of the account's invoices: one issued between two reads of the balance may have raised it. */
export const invoiceIds = async (c: Check): Promise<Set<string>> => new Set((await listItems(c, '/v4/account/invoices')).map((invoice) => String(invoice.id)));
