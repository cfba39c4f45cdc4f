// Under `invoices-monthly`: an invoice issued at each simulated month start (00:00 UTC on the 1st), raising the balance.
import type { Store } from '../../core/store.js';
import { account, state, T } from './model.js';

/** 00:00 UTC on the 1st of the month after the one `ms` (epoch milliseconds) is in. */
const nextMonthStart = (ms: number): number => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

const round2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * Schedules the invoice of the month that starts next after `fromMs`: when due, it is dated at that month start, covers
 * the month before, and its total (the account's balance_uninvoiced, no tax) is added to the balance. The estimate of
 * the new month stays as it was (the services go on); each invoice schedules the next, so a clock moved by months
 * issues one per month start passed.
 */
export function scheduleMonthlyInvoices(s: Store, fromMs: number = s.now().getTime()): void {
  const at = nextMonthStart(fromMs);
  s.schedule(new Date(at), (store) => {
    // A cancelled account is billed no more.
    if (state(store).cancelled) return;
    const a = account(store);
    const amount = round2(a.balance_uninvoiced);
    const from = store.nowIso(new Date(Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth() - 1, 1)));
    const to = store.nowIso(new Date(at));
    const id = store.nextId('invoice');
    T.invoices(store).set(String(id), { id, date: to, label: 'Invoice', subtotal: amount, tax: 0, total: amount });
    T.items(store).set(String(id), [
      { amount, from, label: 'Services of the month', quantity: 1, tax: 0, to, total: amount, type: 'misc', unit_price: amount },
    ]);
    a.balance = round2(a.balance + amount);
    scheduleMonthlyInvoices(store, at);
  });
}
