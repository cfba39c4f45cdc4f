// A firewall device's instance (document 3, "Firewall device": "Request members: `id` (integer, entity ID), `type`
// (enum `compute`). … Fields of a device as returned: not shown."): what the fixtures and the firewall checks tell
// devices apart by. A device naming its instance in a member of its own (entity.id, entity_id, compute_id) tells it.
// One in the request's own shape, {id, type: 'compute'}, does not: its id is the instance's (the request's form) or
// the device's own (the {deviceId} of its path), both allowed readings. Only what every reading agrees on is judged.
import { SkipCheck, type Check } from './check.js';
import { onceNotBusy, readAfterWrite } from './consistency.js';
import type { Exchange } from './http.js';
import { integerId } from './ids.js';
import { itemsRead, walkList } from './pages.js';
import { onTarget } from './target-key.js';

type Json = Record<string, unknown>;

/** The instance a device names in a member of its own: entity.id, entity_id or compute_id (shown as 17 or "17"). */
function namedInstance(item: Json): number | undefined {
  return integerId((item.entity as Json | undefined)?.id ?? item.entity_id ?? item.compute_id);
}

/** The id of a device in the request's shape ({id, type: 'compute'}, naming no instance otherwise); else undefined. */
function flattenedId(item: Json): number | undefined {
  return item.type === 'compute' && namedInstance(item) === undefined ? integerId(item.id) : undefined;
}

/**
 * The targets (`onTarget`) that answered a device add in the request's shape with an id other than the instance sent,
 * or listed such a device new after an add: there the id is the device's own, and a device in that shape names no
 * instance unless the add that made it told which. (An answer showing the instance's id proves nothing either way: a
 * device's own id may be that number.)
 */
const flattenedIdsAreOwn = new Set<string>();

/** Per check: `firewall id/device id` → the instance whose add answered that device in the request's shape. */
const addsOfCheck = new WeakMap<Check, Map<string, number>>();

const addKey = (firewallId: number | string, deviceId: number) => `${String(firewallId)}/${deviceId}`;

/**
 * The targets that tell a device's instance without its list read around the add: an add answered with the device (by
 * its instance or in the request's shape), or a listed device naming its instance. Until one has, an add reads the
 * firewall's devices first (`readDevicesBeforeAdd`), so that a device its answer does not show (the firewall, say) is
 * told by the one new device its list shows after.
 */
const devicesTold = new Set<string>();

/** What the module remembers of the check's target (one process may run the suite against several). */
const targetOf = (c: Check) => onTarget(c, 'firewall devices');

/** Per check: `firewall id` → every device id its lists showed the check (a device new after an add is none of these). */
const listedOfCheck = new WeakMap<Check, Map<string, Set<string>>>();

function noteListed(c: Check, firewallId: number | string, items: Json[]): void {
  const listed = listedOfCheck.get(c) ?? new Map<string, Set<string>>();
  listedOfCheck.set(c, listed);
  const ids = listed.get(String(firewallId)) ?? new Set<string>();
  listed.set(String(firewallId), ids);
  for (const item of items) if (item.id !== undefined) ids.add(String(item.id));
  if (items.some((item) => namedInstance(item) !== undefined)) devicesTold.add(targetOf(c));
}

const listDevices = async (c: Check, firewallId: number | string): Promise<Json[]> =>
  itemsRead(await walkList(c, `/v4/networking/firewalls/${String(firewallId)}/devices`));

/** Before a device add: the firewall's devices as listed, noted for the check, unless the target tells devices' instances (`devicesTold`). */
export async function readDevicesBeforeAdd(c: Check, firewallId: number | string): Promise<void> {
  if (!devicesTold.has(targetOf(c))) noteListed(c, firewallId, await listDevices(c, firewallId));
}

/**
 * Notes what a device add (POST …/devices of `instanceId`) tells of the device it made: its answer, else, where the
 * firewall's devices were read before it (`readDevicesBeforeAdd`), the one device in the request's shape its list
 * shows (read again within the consistency window) that no list of the check showed before nor an add told. Two or
 * more such leave the device untold.
 */
export async function noteDeviceAdd(c: Check, firewallId: number | string, instanceId: unknown, added: Exchange): Promise<void> {
  const answer = added.body && typeof added.body === 'object' ? (added.body as Json) : undefined;
  const instance = integerId(instanceId);
  if (added.status < 200 || added.status >= 300 || instance === undefined) return;
  if (answer && (flattenedId(answer) !== undefined || namedInstance(answer) !== undefined)) devicesTold.add(targetOf(c));
  const deviceId = (answer && flattenedId(answer)) ?? (await newDeviceListed(c, firewallId));
  if (deviceId === undefined) return;
  if (deviceId !== instance) flattenedIdsAreOwn.add(targetOf(c));
  const adds = addsOfCheck.get(c) ?? new Map<string, number>();
  addsOfCheck.set(c, adds.set(addKey(firewallId, deviceId), instance));
}

/**
 * The id of the one device new to the check's lists of the firewall (none they showed, none an add told), where they were
 * read before an add, if it is in the request's shape (one naming its instance is told by the list already).
 */
async function newDeviceListed(c: Check, firewallId: number | string): Promise<number | undefined> {
  const listed = listedOfCheck.get(c)?.get(String(firewallId));
  if (!listed || devicesTold.has(targetOf(c))) return undefined;
  const adds = addsOfCheck.get(c);
  const told = (id: unknown) => adds?.has(addKey(firewallId, integerId(id) ?? NaN));
  const fresh = (items: Json[]) => items.filter(({ id }) => id !== undefined && !listed.has(String(id)) && !told(id));
  const items = await readAfterWrite(
    c,
    () => listDevices(c, firewallId),
    (read) => fresh(read).length > 0,
  );
  const found = fresh(items);
  noteListed(c, firewallId, items);
  return found.length === 1 ? flattenedId(found[0]!) : undefined;
}

/** Adds the instance to the firewall's devices (POST …/devices in the request's form), noting what the answer tells. */
export async function addDevice(c: Check, firewallId: number, instanceId: number): Promise<Exchange> {
  await readDevicesBeforeAdd(c, firewallId);
  const added = await c.post(`/v4/networking/firewalls/${firewallId}/devices`, { id: instanceId, type: 'compute' });
  await noteDeviceAdd(c, firewallId, instanceId, added);
  return added;
}

/**
 * `addDevice` where the check expects the add accepted, sent again while refused (`onceNotBusy`): an enabled firewall of
 * the (lent) instance that another check deleted may hold it a while, since when a deleted firewall's rules leave its
 * instances is not shown (the cleanup lets the target's clock run a minute after such a deletion, which it cannot
 * without the clock hook: harness/deletions.ts).
 */
export const addDeviceOnceFree = (c: Check, firewallId: number, instanceId: number): Promise<Exchange> =>
  onceNotBusy(c, () => addDevice(c, firewallId, instanceId));

/** A device read: the instance it names or its add told (`told`), else the one its id names in the request's form (`asRequest`). */
interface Reading {
  device: Json;
  told?: number;
  asRequest?: number;
}

/**
 * A firewall's devices as listed (or a device add's answer), read with what the check's device adds told. Which
 * instance a device in the request's shape is, where its add did not tell, is judged only where both readings of its
 * id agree: a lookup finds it by its id read as the instance's (it passes, never fails, on that reading alone), and
 * fails only where no reading could find it; a device it cannot tell leaves the check nothing to judge (`skip`).
 */
export class FirewallDevices {
  private readonly readings: Reading[];

  constructor(
    c: Check,
    private readonly firewallId: number | string,
    readonly items: Json[],
    listed = true,
  ) {
    if (listed) noteListed(c, firewallId, items);
    const adds = addsOfCheck.get(c);
    this.readings = items.map((device) => {
      const named = namedInstance(device);
      if (named !== undefined) return { device, told: named };
      const id = flattenedId(device);
      const told = id === undefined ? undefined : adds?.get(addKey(firewallId, id));
      if (told !== undefined) return { device, told };
      return id !== undefined && !flattenedIdsAreOwn.has(targetOf(c)) ? { device, asRequest: id } : { device };
    });
  }

  /** The device of the instance, where a reading finds one; undefined where no reading can; `skip` otherwise. */
  deviceOf(instanceId: number): Json | undefined {
    const found = this.findDevice(instanceId);
    if (found || this.untold().length === 0) return found;
    throw new SkipCheck(this.cannotTell(this.untold()[0]!, instanceId));
  }

  /** Whether some of these instances no reading finds a device of, where a device cannot be told (`deviceOf` would skip). */
  cannotTellAll(instanceIds: number[]): boolean {
    return instanceIds.some((id) => !this.findDevice(id)) && this.untold().length > 0;
  }

  /** Whether the instance is a device, where every reading agrees (`skip` where they do not). */
  holds(instanceId: number): boolean {
    if (this.readings.some((r) => r.told === instanceId)) return true;
    const either = this.untold().find((r) => r.asRequest === undefined || r.asRequest === instanceId);
    if (either) throw new SkipCheck(this.cannotTell(either, instanceId));
    return false;
  }

  /** Whether a reading may take the instance for a device (what excuses a refusal for it). */
  mayHold(instanceId: number): boolean {
    return this.readings.some((r) => r.told === instanceId) || this.untold().length > 0;
  }

  /** Whether a lagging list needs no further read for these instances: each is found, or a device cannot be told. */
  settledFor(instanceIds: number[]): boolean {
    const expected = (r: Reading) => r.asRequest !== undefined && instanceIds.includes(r.asRequest);
    return instanceIds.every((id) => this.findDevice(id)) || this.untold().some((r) => !expected(r));
  }

  /** The device of the instance, where a reading finds one (told, else its id read as the instance's). */
  findDevice(instanceId: number): Json | undefined {
    return (this.readings.find((r) => r.told === instanceId) ?? this.readings.find((r) => r.asRequest === instanceId))?.device;
  }

  private untold(): Reading[] {
    return this.readings.filter((r) => r.told === undefined);
  }

  private cannotTell({ device }: Reading, instanceId: number): string {
    const shown = JSON.stringify(device).slice(0, 200);
    const why =
      flattenedId(device) === undefined
        ? 'it shows its instance in none of entity.id, entity_id, compute_id, id with type compute'
        : "it shows {id, type: 'compute'}, and whether that id is the instance's (the request's form) or the device's own (the {deviceId} of its path) is not shown, nor did an add in this check answer it";
    return `whether instance ${instanceId} is a device of firewall ${String(this.firewallId)} cannot be told from its device ${shown}: ${why} ("Fields of a device as returned: not shown")`;
  }
}

/** Whether an item (a listed device, a device add's answer) is the firewall's device of the instance, on some reading. */
export function showsDeviceOf(c: Check, firewallId: number | string, instanceId: unknown): (item: Json) => boolean {
  return (item) => {
    const instance = integerId(instanceId);
    // (one item, an add's answer as often as a listed device: not a list of the firewall the check read)
    return instance !== undefined && new FirewallDevices(c, firewallId, [item], false).findDevice(instance) !== undefined;
  };
}
