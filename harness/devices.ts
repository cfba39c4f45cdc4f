// A firewall device's instance (document 3, "Firewall device": "Request members: `id` (integer, entity ID), `type`
// (enum `compute`). … Fields of a device as returned: not shown."): what the fixtures and the firewall checks tell
// devices apart by.
import { integerId } from './ids.js';

type Json = Record<string, unknown>;

/**
 * The instance a device is, in the forms the suite reads (a device's fields are not shown): entity.id, entity_id,
 * compute_id, or else id with type compute (the request's own form; beside one of the others, id is the device's);
 * shown as 17 or "17" (`integerId`).
 */
export function instanceOfDevice(item: Json): number | undefined {
  return integerId((item.entity as Json | undefined)?.id ?? item.entity_id ?? item.compute_id ?? (item.type === 'compute' ? item.id : undefined));
}
