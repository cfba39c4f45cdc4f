// Maintenance of the account's instances and the account's notifications.
import type { Store } from '../../core/store.js';
import { parseIso } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { canAccess } from '../../core/permissions.js';
import { getInstance, instanceEntity } from '../../core/entities.js';
import { faulty } from '../../faults/index.js';
import { account, accountEntity, DAY_MS, state, T, type Maintenance } from './model.js';

function maintenanceView(s: Store, m: Maintenance) {
  const inst = getInstance(s, m.instanceId);
  if (inst === undefined) return undefined;
  // The fault names a managed database as the entity of the instance's maintenance.
  const entity = faulty(s, 'P1.maintenance.entity.compute-only')
    ? { id: 90_000 + inst.id, label: `db-${inst.id}`, type: 'database', url: `/v4/databases/mysql/instances/${90_000 + inst.id}` }
    : instanceEntity(inst);
  return { entity, reason: m.reason, status: m.status, type: m.type, when: m.when };
}

export function visibleMaintenance(ctx: RequestContext) {
  const out = [];
  for (const m of T.maintenance(ctx.store).values()) {
    if (!canAccess(ctx.principal, 'compute', m.instanceId, 'read_only') && !faulty(ctx.store, 'P1.maintenance.list.viewable-entities')) continue;
    const v = maintenanceView(ctx.store, m);
    if (v !== undefined) out.push(v);
  }
  return out;
}

export function notifications(ctx: RequestContext) {
  const s = ctx.store;
  const a = account(s);
  const out: unknown[] = [];
  for (const m of visibleMaintenance(ctx)) {
    out.push({
      body: null,
      entity: m.entity,
      label: 'Maintenance Scheduled',
      message: `Compute instance ${m.entity.label} has scheduled ${m.type.replace('_', ' ')} maintenance.`,
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
