// Document 3, "Firewalls": firewalls, their rules and their devices (compute instances).
//
// Choices where the document is silent:
// - A firewall is `{id, label, status, tags, rules, created, updated}` (never `devices`); a device is
//   `{id, entity: {id, label, type: 'compute', url}, created, updated}`; GET/PUT rules return the rules object.
// - Label characters: begin and end alphanumeric (ASCII), only alphanumerics, `-`, `_`, `.`, and none of `--`,
//   `__`, `..`; labels are unique case-insensitively.
// - Rule addresses must carry a mask (`192.0.2.1/32`, `2001:db8::/32`); a rule always comes back with both
//   `addresses.ipv4` and `addresses.ipv6` arrays; `ports` appears only when given (never for ICMP).
// - An instance listed in `devices.computes` or added as a device that does not exist (or is invisible to a
//   restricted caller) → 400 on that member; visible read-only → 403.
// - PUT firewall ignores `rules` and `devices` (they "cannot be changed here"); `status: deleted` → 400.
//   firewall_update is emitted when label or tags are given; firewall_enable / firewall_disable on a status change.
import { emitEvent } from '../../core/events.js';
import { paginate } from '../../core/pagination.js';
import { canAccess, grantOwnership } from '../../core/permissions.js';
import type { Store } from '../../core/store.js';
import type { Area, RequestContext, Route } from '../../core/types.js';
import { asObject, fail, optArray, optObject, optString, reqInt, reqObject, reqString, tagList } from '../../core/validate.js';
import { getInstance, instanceEntity, instanceFromBody } from '../../core/entities.js';
import { route } from '../../core/routes.js';
import { deleteNowOrLater } from '../../core/deletions.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import {
  checkSingleEnabled,
  DELETED_HOLDING,
  deviceEvent,
  deviceForm,
  DEVICES,
  devicesOf,
  deviceView,
  entityOf,
  type Firewall,
  type FirewallDevice,
  type FirewallRules,
  firewalls,
  lowestFreeId,
  newDevice,
  RELEASE_MS,
  releaseDeletedInstance,
  RELEASING,
  removeInstanceFromFirewalls,
} from './model.js';
import { readLabel, readRules } from './validation.js';

function firewallOr404(ctx: RequestContext, level: 'read_only' | 'read_write'): Firewall {
  const raw = ctx.params['firewallId']!;
  const f = /^\d{1,15}$/.test(raw) ? firewalls(ctx.store).get(String(Number(raw))) : undefined;
  if (!f || !canAccess(ctx.principal, 'firewall', f.id, 'read_only')) fail(`Firewall ${raw} not found.`, null, 404);
  if (level === 'read_write' && !canAccess(ctx.principal, 'firewall', f.id, 'read_write')) {
    fail(`You have read-only access to firewall ${f.id}; read_write is needed.`, null, 403);
  }
  return f;
}

/** The device its path names: by the id it shows (its own, or the instance's in the request's form). */
function deviceOr404(ctx: RequestContext, f: Firewall): FirewallDevice {
  const raw = ctx.params['deviceId']!;
  const idOf = (x: FirewallDevice) => (deviceForm(ctx.store) === 'as-request' ? x.entity.id : x.id);
  const d = /^\d{1,15}$/.test(raw) ? devicesOf(ctx.store, f.id).find((x) => idOf(x) === Number(raw)) : undefined;
  if (!d) fail(`Device ${raw} not found on firewall ${f.id}.`, null, 404);
  return d;
}

/** The instances `devices.computes` lists, each visible, writable, listed once and free of another enabled firewall. */
function listedInstances(ctx: RequestContext, o: Record<string, unknown>, exceptFirewallId: number | null): number[] {
  const devices = optObject(o, 'devices');
  const computes = devices ? (optArray(devices, 'computes', { path: 'devices' }) ?? []) : [];
  const ids: number[] = [];
  computes.forEach((v, i) => {
    const field = `devices.computes.${i}`;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(`${field} must be an integer instance id.`, field);
    if (ids.includes(v)) fail(`Instance ${v} is listed twice.`, field);
    // (the fault ~first-only needs read_write on the first listed instance only)
    const lax = faulty(ctx.store, 'P3.firewall-create.grants') || (i > 0 && faulty(ctx.store, 'P3.firewall-create.grants~first-only'));
    instanceFromBody(ctx, v, field, lax ? 'read_only' : 'read_write');
    // (the fault ~create-first-only looks at the first listed instance only)
    if (i === 0 || !faulty(ctx.store, 'P3.firewall.device.one-active-per-instance~create-first-only'))
      checkSingleEnabled(ctx.store, v, exceptFirewallId, field);
    ids.push(v);
  });
  return ids;
}

// ---------------------------------------------------------------------------------------------- routes

const R = 'firewall:read_only';
const W = 'firewall:read_write';
const BASE = '/v4/networking/firewalls';

const routes: Route[] = [
  route('GET', BASE, R, (ctx) =>
    paginate(
      ctx,
      [...firewalls(ctx.store).values()].filter((f) => canAccess(ctx.principal, 'firewall', f.id, 'read_only')),
    ),
  ),
  route('POST', BASE, W, (ctx) => {
    const o = asObject(ctx.body ?? {});
    const label = readLabel(ctx.store, o, true)!;
    const rules = readRules(ctx.store, reqObject(o, 'rules'), true, null, 'rules');
    const tags = tagList(ctx, o) ?? [];
    const listed = listedInstances(ctx, o, null);
    const ids = faulty(ctx.store, 'P3.firewall-create.devices.assigned') ? [] : listed;
    const now = ctx.store.nowIso();
    const f: Firewall = {
      id:
        varied(ctx.store, 'firewall-ids-reused') && !varied(ctx.store, 'ids-reused')
          ? lowestFreeId(firewalls(ctx.store))
          : ctx.store.newId('firewall', (n) => firewalls(ctx.store).has(String(n))),
      label,
      status: varied(ctx.store, 'firewall-created-disabled') ? 'disabled' : 'enabled',
      tags,
      rules,
      created: now,
      updated: now,
    };
    firewalls(ctx.store).set(String(f.id), f);
    // (a list of its own: not one a deleted firewall of this id left, under ids-reused)
    ctx.store.table<FirewallDevice[]>(DEVICES).set(String(f.id), []);
    const list = devicesOf(ctx.store, f.id);
    for (const id of ids) list.push(newDevice(ctx.store, getInstance(ctx.store, id)!));
    grantOwnership(ctx.principal, 'firewall', f.id);
    if (!faulty(ctx.store, 'P3.firewall.event.create')) emitEvent(ctx.store, ctx.principal, { action: 'firewall_create', entity: entityOf(f) });
    // Under the variation firewall-state-event-on-create the status it starts in is recorded too.
    if (varied(ctx.store, 'firewall-state-event-on-create'))
      emitEvent(ctx.store, ctx.principal, { action: f.status === 'enabled' ? 'firewall_enable' : 'firewall_disable', entity: entityOf(f) });
    return f;
  }),
  route('GET', `${BASE}/{firewallId}`, R, (ctx) => {
    const f = firewallOr404(ctx, 'read_only');
    if (faulty(ctx.store, 'P3.firewall.view.no-devices')) return { ...f, devices: devicesOf(ctx.store, f.id) };
    return varied(ctx.store, 'firewall-view-devices-empty') ? { ...f, devices: [] } : f;
  }),
  route('PUT', `${BASE}/{firewallId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const o = asObject(ctx.body ?? {});
    const label = readLabel(ctx.store, o, false, f.id);
    const tags = tagList(ctx, o);
    if (faulty(ctx.store, 'P1.errors.rejected-write-no-effect~firewall'))
      Object.assign(f, label !== undefined ? { label } : {}, tags !== undefined ? { tags } : {});
    if (o['status'] === 'deleted' && !faulty(ctx.store, 'P3.firewall.status.update-not-deleted'))
      fail('status cannot be set to deleted; delete the firewall instead.', 'status');
    const statuses = faulty(ctx.store, 'P3.firewall.status.update-not-deleted')
      ? (['enabled', 'disabled', 'deleted'] as const)
      : (['enabled', 'disabled'] as const);
    let status = optString(o, 'status', { enum: statuses }) as Firewall['status'] | undefined;
    if (status === 'enabled' && f.status !== 'enabled' && !faulty(ctx.store, 'P3.firewall.status.enable-blocked-by-active')) {
      const devices = devicesOf(ctx.store, f.id);
      const looked = faulty(ctx.store, 'P3.firewall.status.enable-blocked-by-active~first-device')
        ? devices.slice(0, 1)
        : faulty(ctx.store, 'P3.firewall.status.enable-blocked-by-active~last-device')
          ? devices.slice(-1)
          : devices;
      for (const d of looked) checkSingleEnabled(ctx.store, d.entity.id, f.id, 'status');
    }
    if (status === 'disabled' && faulty(ctx.store, 'P3.firewall.status.enabled-to-disabled')) status = undefined;
    if (status === 'enabled' && faulty(ctx.store, 'P3.firewall.status.disabled-to-enabled')) status = undefined;
    if (o['rules'] !== undefined && faulty(ctx.store, 'P3.firewall-update.devices-rules-unchanged'))
      f.rules = readRules(ctx.store, asObject(o['rules'], 'rules'), false, f.rules, 'rules');
    if (o['devices'] !== undefined && faulty(ctx.store, 'P3.firewall-update.devices-rules-unchanged~devices')) {
      const listed = listedInstances(ctx, o, f.id);
      ctx.store.table<FirewallDevice[]>(DEVICES).set(
        String(f.id),
        listed.map((id) => newDevice(ctx.store, getInstance(ctx.store, id)!)),
      );
    }
    if (label !== undefined && !faulty(ctx.store, 'P3.firewall.update.reflected~label')) f.label = label;
    if (tags !== undefined && !faulty(ctx.store, 'P3.firewall.update.reflected'))
      f.tags = faulty(ctx.store, 'P3.firewall.update.tags-replaced') ? [...new Set([...f.tags, ...tags])] : tags;
    const changed = status !== undefined && status !== f.status;
    if (status !== undefined) f.status = status;
    if (label !== undefined || tags !== undefined || changed) f.updated = ctx.store.nowIso();
    if (label !== undefined || tags !== undefined) emitEvent(ctx.store, ctx.principal, { action: 'firewall_update', entity: entityOf(f) });
    if (changed && status === 'enabled') {
      emitEvent(ctx.store, ctx.principal, {
        action: faulty(ctx.store, 'P3.firewall.event.enable') ? 'firewall_update' : 'firewall_enable',
        entity: entityOf(f),
      });
    }
    if (changed && status !== 'enabled' && !faulty(ctx.store, 'P3.firewall.event.disable'))
      emitEvent(ctx.store, ctx.principal, { action: 'firewall_disable', entity: entityOf(f) });
    if (changed && status === 'disabled' && faulty(ctx.store, 'P3.firewall.event.delete~early'))
      emitEvent(ctx.store, ctx.principal, { action: 'firewall_delete', entity: entityOf(f) });
    return f;
  }),
  route('DELETE', `${BASE}/{firewallId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const silent = f.status === 'disabled' && faulty(ctx.store, 'P3.firewall.event.delete~disabled');
    // Removed at once, or (variation firewall-delete-runs-a-while) a simulated minute later, as it is then.
    const remove = (store: Store) => {
      if (firewalls(store).get(String(f.id)) !== f) return;
      if (f.status === 'enabled' && faulty(store, 'P3.firewall.delete.frees-instances'))
        for (const d of devicesOf(store, f.id)) store.table<number>(DELETED_HOLDING).set(String(d.entity.id), f.id);
      if (f.status === 'enabled' && varied(store, 'firewall-delete-releases-later'))
        for (const d of devicesOf(store, f.id))
          store
            .table<{ firewallId: number; until: number }>(RELEASING)
            .set(String(d.entity.id), { firewallId: f.id, until: store.now().getTime() + RELEASE_MS });
      // The faults keep the firewall as it was (a disabled one only: ~disabled), under the variation too.
      const kept =
        faulty(store, 'P3.firewall.status.delete-removes') || (f.status === 'disabled' && faulty(store, 'P3.firewall.status.delete-removes~disabled'));
      if (kept) return;
      if (varied(store, 'firewall-deleted-listed')) Object.assign(f, { status: 'deleted' });
      else {
        firewalls(store).delete(String(f.id));
        store.table<FirewallDevice[]>(DEVICES).delete(String(f.id));
      }
    };
    if (!deleteNowOrLater(ctx.store, 'firewall-delete-runs-a-while', String(f.id), remove)) return {};
    if (!silent)
      emitEvent(ctx.store, ctx.principal, {
        action: faulty(ctx.store, 'P3.firewall.event.delete') ? 'firewall_update' : 'firewall_delete',
        entity: entityOf(f),
      });
    return {};
  }),
  route('GET', `${BASE}/{firewallId}/devices`, R, (ctx) =>
    paginate(ctx, devicesOf(ctx.store, firewallOr404(ctx, 'read_only').id), (d) => deviceView(ctx.store, d)),
  ),
  route('POST', `${BASE}/{firewallId}/devices`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const o = asObject(ctx.body ?? {});
    const id = reqInt(o, 'id');
    reqString(o, 'type', faulty(ctx.store, 'P3.firewall-device.type.enum') ? {} : { enum: ['compute'] as const });
    const inst = instanceFromBody(ctx, id, 'id');
    const list = devicesOf(ctx.store, f.id);
    if (list.some((d) => d.entity.id === id)) fail(`Instance ${id} is already a device of firewall ${f.id}.`, 'id');
    if (list.length > 0 && faulty(ctx.store, 'P3.firewall.device.many-instances')) fail(`Firewall ${f.id} already has a device.`, 'id');
    const checked =
      f.status === 'enabled' ? !faulty(ctx.store, 'P3.firewall.device.one-active-per-instance') : faulty(ctx.store, 'P3.firewall.device.disabled-may-be-added');
    if (checked) checkSingleEnabled(ctx.store, id, f.id, 'id');
    const d = newDevice(ctx.store, inst);
    list.push(d);
    const action = faulty(ctx.store, 'P3.firewall.event.device-add') ? 'firewall_update' : 'firewall_device_add';
    if (!faulty(ctx.store, 'P1.events.emission~device-add'))
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, action, entityOf(f), instanceEntity(inst)));
    if (faulty(ctx.store, 'P3.firewall.event.device-remove~early'))
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, 'firewall_device_remove', entityOf(f), instanceEntity(inst)));
    return varied(ctx.store, 'device-add-answers-firewall') ? f : deviceView(ctx.store, d);
  }),
  route('GET', `${BASE}/{firewallId}/devices/{deviceId}`, R, (ctx) => {
    const f = firewallOr404(ctx, 'read_only');
    if (faulty(ctx.store, 'P3.firewall.device.listed')) fail(`Device ${ctx.params['deviceId']} not found on firewall ${f.id}.`, null, 404);
    return deviceView(ctx.store, deviceOr404(ctx, f));
  }),
  route('DELETE', `${BASE}/{firewallId}/devices/{deviceId}`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const d = deviceOr404(ctx, f);
    const t = ctx.store.table<FirewallDevice[]>(DEVICES);
    if (faulty(ctx.store, 'P3.firewall.device.remove-keeps-other-firewalls')) removeInstanceFromFirewalls(ctx.store, d.entity.id);
    else if (!faulty(ctx.store, 'P3.firewall.device.remove')) {
      t.set(
        String(f.id),
        devicesOf(ctx.store, f.id).filter((x) => x.id !== d.id),
      );
      // (the fault leaves the instance under the enabled firewall it left, unlisted)
      if (f.status === 'enabled' && faulty(ctx.store, 'P3.firewall.status.disabled-to-enabled~held-after-device-removal'))
        ctx.store.table<number>(DELETED_HOLDING).set(String(d.entity.id), f.id);
    }
    if (!faulty(ctx.store, 'P3.firewall.event.device-remove')) {
      emitEvent(ctx.store, ctx.principal, deviceEvent(ctx.store, 'firewall_device_remove', entityOf(f), { ...d.entity }));
    }
    return {};
  }),
  route('GET', `${BASE}/{firewallId}/rules`, R, (ctx) => rulesShown(ctx.store, firewallOr404(ctx, 'read_only').rules)),
  route('PUT', `${BASE}/{firewallId}/rules`, W, (ctx) => {
    const f = firewallOr404(ctx, 'read_write');
    const body = asObject(ctx.body ?? {});
    // (the fault reads a direction given as an empty list as not given: its stored rules stay, and count toward the 25)
    const emptyListsKept = faulty(ctx.store, 'P3.firewall.rules-update.replaces');
    const given = emptyListsKept ? Object.fromEntries(Object.entries(body).filter(([, v]) => !(Array.isArray(v) && v.length === 0))) : body;
    f.rules = readRules(ctx.store, given, false, f.rules);
    f.updated = ctx.store.nowIso();
    return rulesShown(ctx.store, f.rules);
  }),
];

/** A firewall's rules as GET and PUT …/rules answer them: "inbound and outbound rules", without the policies under that variation. */
function rulesShown(store: Store, rules: FirewallRules): FirewallRules | Pick<FirewallRules, 'inbound' | 'outbound'> {
  return varied(store, 'firewall-rules-read-without-policies') ? { inbound: rules.inbound, outbound: rules.outbound } : rules;
}

/** Under the variation legacy-names-listed the account holds a firewall labelled before the label rules. */
function seed(store: Store): void {
  if (!varied(store, 'legacy-names-listed')) return;
  const now = store.nowIso();
  const id = store.newId('firewall', (n) => firewalls(store).has(String(n)));
  const rules: FirewallRules = { inbound: [], inbound_policy: 'ACCEPT', outbound: [], outbound_policy: 'ACCEPT' };
  firewalls(store).set(String(id), { id, label: 'fw__legacy', status: 'enabled', tags: [], rules, created: now, updated: now });
}

export const area: Area = {
  name: 'firewalls',
  routes,
  seed,
  listen: (store) => store.listen('instance-deleted', ({ instanceId }) => releaseDeletedInstance(store, instanceId)),
};
