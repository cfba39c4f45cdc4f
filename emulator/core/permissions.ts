// Restricted users and grants (document 1 "Authentication" 5): unrestricted users may do everything; restricted
// users need a per-entity grant, and global grants for some operations (add_computes, monitor_subscription, ...).
import type { EntityGrants, Principal } from './types.js';

export type EntityKind = keyof EntityGrants & ('compute' | 'domain' | 'volume' | 'balancer' | 'image' | 'firewall' | 'database');
export type GrantLevel = 'read_only' | 'read_write';

export function canAccess(principal: Principal | null, kind: EntityKind, id: number | string, level: GrantLevel): boolean {
  if (principal === null) return false;
  if (!principal.restricted) return true;
  const held = principal.grants.entities[kind]?.[String(id)];
  if (held === undefined) return false;
  return level === 'read_only' ? held === 'read_only' || held === 'read_write' : held === 'read_write';
}

/** A restricted user who creates an entity gets read_write on it. */
export function grantOwnership(principal: Principal | null, kind: EntityKind, id: number | string): void {
  if (principal === null || !principal.restricted) return;
  const byId = (principal.grants.entities[kind] ??= {});
  byId[String(id)] = 'read_write';
}

/** A global grant such as `add_computes`; `account_access` counts when it is read_only or read_write. */
export function hasGlobalGrant(principal: Principal | null, name: string): boolean {
  if (principal === null) return false;
  if (!principal.restricted) return true;
  const v = principal.grants.global[name];
  return v === true || v === 'read_only' || v === 'read_write';
}
