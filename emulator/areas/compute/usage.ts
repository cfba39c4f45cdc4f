// What an instance uses: statistics, network transfer and attached volumes.
import type { RequestContext } from '../../core/types.js';
import { fail } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';
import { canAccess } from '../../core/permissions.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { DAY_MS, instanceOr404, listVolumes, type Instance, type Volume } from './model.js';

/**
 * Validates `{year}/{month}` of the statistics or transfer view: integers, month 1..12, not after the current
 * (simulated) month, year within bounds; under the variation usage-from-creation not before the instance's month.
 */
function yearMonth(ctx: RequestContext, inst: Instance, kind: 'stats' | 'transfer', minYear: number, maxYear: number): { year: number; month: number } {
  const { store } = ctx;
  const y = ctx.params.year ?? '';
  const m = ctx.params.month ?? '';
  if (!/^[0-9]{1,6}$/.test(y)) fail('year must be an integer', 'year');
  if (!/^[0-9]{1,6}$/.test(m)) fail('month must be an integer', 'month');
  const year = Number(y);
  const month = Number(m);
  const lowestYear = kind === 'transfer' && faulty(store, 'P2.transfer.year.min-2000') ? 1970 : minYear;
  if (year < lowestYear || year > maxYear) fail(`year must be between ${minYear} and ${maxYear}`, 'year');
  if (month < 1 && !faulty(store, kind === 'stats' ? 'P2.stats.month.min-1' : 'P2.transfer.month.min-1')) fail('month must be between 1 and 12', 'month');
  if (month > 12 && !faulty(store, kind === 'stats' ? 'P2.stats.month.max-12' : 'P2.transfer.month.max-12')) fail('month must be between 1 and 12', 'month');
  const now = store.now();
  const cy = now.getUTCFullYear();
  const cm = now.getUTCMonth() + 1;
  // (the fault ~next-month takes the next month for the current one too)
  const future =
    year * 12 + month >
    cy * 12 + cm + (faulty(store, kind === 'stats' ? 'P2.stats.past-or-current~next-month' : 'P2.transfer.past-or-current~next-month') ? 1 : 0);
  if (future && !faulty(store, kind === 'stats' ? 'P2.stats.past-or-current' : 'P2.transfer.past-or-current'))
    fail('Only the current month or a past month can be requested', 'month');
  const created = new Date(inst.created.endsWith('Z') ? inst.created : `${inst.created}Z`);
  // Under the variation "past month" is read as the previous one: older months are refused.
  if (varied(store, 'usage-previous-month-only') && year * 12 + month < cy * 12 + cm - 1)
    fail('Only the current or the previous month can be requested', 'month');
  if (varied(store, 'usage-from-creation') && year * 12 + month < created.getUTCFullYear() * 12 + created.getUTCMonth() + 1)
    fail(`Instance ${inst.id} did not exist in ${year}/${month}`, 'month');
  return { year, month };
}

/** Deterministic series of [timestamp ms, value] points, one per hour. */
function series(from: number, to: number, seed: number, scale: number): [number, number][] {
  const out: [number, number][] = [];
  const step = 3_600_000;
  for (let t = Math.ceil(from / step) * step, i = 0; t <= to; t += step, i++) {
    out.push([t, Math.round((Math.sin(seed + i / 3) + 1) * scale * 100) / 100]);
  }
  return out;
}

function statsBody(inst: Instance, from: number, to: number) {
  const s = inst.status === 'running' ? 1 : 0;
  const mk = (k: number, scale: number) => series(from, to, inst.id * 7 + k, scale * s);
  return {
    title: `${inst.label} (${inst.id})`,
    cpu: mk(1, 5),
    io: { io: mk(2, 3), swap: mk(3, 0.2) },
    netv4: { in: mk(4, 800), out: mk(5, 400), private_in: mk(6, 20), private_out: mk(7, 20) },
    netv6: { in: mk(8, 200), out: mk(9, 100), private_in: mk(10, 0), private_out: mk(11, 0) },
  };
}

/** Under the variation an instance has no statistics for its first 5 simulated minutes. */
function requireStats(ctx: RequestContext, inst: Instance): void {
  if (varied(ctx.store, 'stats-after-a-while') && ctx.store.now().getTime() - Date.parse(inst.created) < 5 * 60_000)
    fail(`Statistics of instance ${inst.id} are not available yet; try again in a few minutes`, null);
}

export function statsHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  requireStats(ctx, inst);
  const to = ctx.store.now().getTime();
  return statsBody(inst, to - DAY_MS, to);
}

// Lowest year of the statistics view is not shown: the same 2000..2037 as transfer statistics.
export function statsMonthHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const { year, month } = yearMonth(ctx, inst, 'stats', 2000, 2037);
  requireStats(ctx, inst);
  const now = ctx.store.now();
  const current = year === now.getUTCFullYear() && month === now.getUTCMonth() + 1;
  const from = current ? now.getTime() - 30 * DAY_MS : Date.UTC(year, month - 1, 1);
  const to = current ? now.getTime() : Date.UTC(year, month, 1) - 1;
  return statsBody(inst, from, to);
}

function transferUsed(inst: Instance, year: number, month: number): number {
  if (inst.status !== 'running') return 0;
  return ((inst.id * 7919 + year * 13 + month * 31) % 1000) * 1_048_576;
}

/** Under the variation transfer-after-a-while an instance has no transfer statistics for its first 5 simulated minutes. */
function requireTransfer(ctx: RequestContext, inst: Instance): void {
  if (varied(ctx.store, 'transfer-after-a-while') && ctx.store.now().getTime() - Date.parse(inst.created) < 5 * 60_000)
    fail(`Transfer statistics of instance ${inst.id} are not available yet; try again in a few minutes`, null);
}

export function transferHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  requireTransfer(ctx, inst);
  const now = ctx.store.now();
  return { used: transferUsed(inst, now.getUTCFullYear(), now.getUTCMonth() + 1), quota: inst.specs.transfer, billable: 0 };
}

export function transferMonthHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const { year, month } = yearMonth(ctx, inst, 'transfer', 2000, 2037);
  requireTransfer(ctx, inst);
  const total = transferUsed(inst, year, month);
  const bytesIn = Math.floor(total / 2);
  return { bytes_in: bytesIn, bytes_out: total - bytesIn, bytes_total: total };
}

export function volumesHandler(ctx: RequestContext) {
  const inst = instanceOr404(ctx, ctx.params.computeId!, 'read_only');
  const attached = (v: Volume) => v.compute_id === inst.id || (v.compute_id === null && v.region === inst.region && faulty(ctx.store, 'P2.volumes.attached'));
  return paginate(
    ctx,
    listVolumes(ctx.store).filter((v) => attached(v) && canAccess(ctx.principal, 'volume', v.id, 'read_only')),
  );
}
