// Maintenance of the account's instances and the account's notifications.
import type { Store } from '../../core/store.js';
import { parseIso } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { canAccess } from '../../core/permissions.js';
import { paginate } from '../../core/pagination.js';
import { getInstance, instanceEntity } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { clusters } from '../databases/model.js';
import { account, accountEntity, DAY_MS, state, T, type Maintenance } from './model.js';

function maintenanceView(s: Store, m: Maintenance) {
  const inst = m.gone ? undefined : getInstance(s, m.instanceId);
  // A record of an instance deleted since stays listed, its entity as it was, under `maintenance-outlives-instance`.
  const kept = inst === undefined && m.entity !== undefined && varied(s, 'maintenance-outlives-instance') ? m.entity : undefined;
  if (inst === undefined && kept === undefined) return undefined;
  return { entity: kept ?? instanceEntity(inst!), reason: m.reason, status: m.status, type: m.type, when: m.when };
}

/** The fault lists the managed databases' maintenance windows too: each cluster, an entity of its own kind. */
function databaseMaintenance(s: Store) {
  return [...clusters(s).values()].map((c) => ({
    entity: { id: c.id, label: c.label, type: 'database', url: `/v4/databases/${c.engine}/instances/${c.id}` },
    reason: 'The maintenance window of this database cluster applies operating system updates.',
    status: 'scheduled',
    type: 'update',
    when: new Date(s.now().getTime() + DAY_MS).toISOString(),
  }));
}

/**
 * When an instance is deleted its maintenance goes (it showed only while the instance was there), or stays, marked
 * gone, under `maintenance-outlives-instance`: an instance given its id since (ids-reused) does not take it over.
 */
export function forgetMaintenance(s: Store, instanceId: number): void {
  const m = T.maintenance(s).get(String(instanceId));
  if (m === undefined) return;
  if (varied(s, 'maintenance-outlives-instance')) m.gone = true;
  else T.maintenance(s).delete(String(instanceId));
}

const viewable = (ctx: RequestContext, m: Maintenance) =>
  canAccess(ctx.principal, 'compute', m.instanceId, 'read_only') || faulty(ctx.store, 'P1.maintenance.list.viewable-entities');

function visibleMaintenance(ctx: RequestContext, { anyGrants = false } = {}) {
  const out = [];
  for (const m of T.maintenance(ctx.store).values()) {
    if (!anyGrants && !viewable(ctx, m)) continue;
    const v = maintenanceView(ctx.store, m);
    if (v !== undefined) out.push(v);
  }
  if (faulty(ctx.store, 'P1.maintenance.entity.compute-only')) out.push(...databaseMaintenance(ctx.store));
  return out;
}

/**
 * One page of the maintenance the caller may view. The fault counts and cuts the page from every record, then drops
 * those of instances a restricted user may not view from the page already cut.
 */
export function maintenancePage(ctx: RequestContext) {
  if (!ctx.principal?.restricted || !faulty(ctx.store, 'P1.conventions.list.pages-total~maintenance-grants')) return paginate(ctx, visibleMaintenance(ctx));
  const page = paginate(ctx, visibleMaintenance(ctx, { anyGrants: true }));
  return { ...page, data: page.data.filter((v) => canAccess(ctx.principal, 'compute', v.entity.id, 'read_only')) };
}

export function notifications(ctx: RequestContext) {
  const s = ctx.store;
  const a = account(s);
  const out: unknown[] = [];
  // Notifications disappear when their cause is resolved: none for completed maintenance.
  for (const m of visibleMaintenance(ctx).filter((v) => v.status !== 'completed')) {
    out.push({
      body: null,
      entity: m.entity,
      label: 'Maintenance Scheduled',
      message: `${m.entity.type === 'database' ? 'Database cluster' : 'Compute instance'} ${m.entity.label} has scheduled ${m.type.replace('_', ' ')} maintenance.`,
      severity: 'major',
      type: 'maintenance',
      until: null,
      when: m.when,
    });
  }
  if (a.balance !== 0) {
    out.push({
      body: null,
      entity: accountEntity(s),
      label: 'Payment due',
      message: `Your account has an outstanding balance of $${a.balance.toFixed(2)}; please make a payment.`,
      severity: 'major',
      type: 'payment_due',
      until: null,
      when: null,
    });
  }
  const seededAt = parseIso(state(s).seededAt).getTime();
  out.push({
    body: 'Network equipment in eu-central is upgraded; brief packet loss is possible.',
    entity: { id: 'eu-central', label: 'eu-central', type: 'region', url: '/v4/regions/eu-central' },
    label: 'Scheduled network upgrade',
    message: 'Scheduled network maintenance in eu-central.',
    severity: 'minor',
    type: 'notice',
    until: s.nowIso(new Date(seededAt + 8 * DAY_MS)),
    when: s.nowIso(new Date(seededAt + 7 * DAY_MS)),
  });
  return out;
}
