// Configuration profiles of document 2's compute instances, for the scenario specs (configs, compute, backups, clone)
// and the VLAN spec: made, written and deleted where the check expects it accepted; and the VLANs their interfaces make.
import { type Check } from '../../harness/check.js';
import { namesField } from '../../harness/error-bodies.js';
import { onceNotBusy } from '../../harness/consistency.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { INSTANCES, bodyOf, deployedProfiles, listAll, ok, reasonOf, shutDown, type Json } from './compute-support.js';

/**
 * A profile create, update or delete (`send`, of `body`) the check expects accepted. The configs endpoints give no
 * precondition, where a shutdown or a resize waits for "running or queued actions": whether a profile may be written
 * while its instance has one (its own create, a shutdown, a clone from or to it) is not shown, so a refusal is sent
 * again while the instance may be busy (`onceNotBusy`). One naming a member of `body` is judged at once: no busy
 * instance explains it, and sending it again would cost a correct server's run the time allowed.
 */
function profileWrite(c: Check, send: () => Promise<Exchange>, body: Json = {}): Promise<Exchange> {
  return onceNotBusy(c, send, { refusedFor: (refusal) => Object.keys(body).some((member) => namesField(refusal, member) === true) });
}

/** PUTs `body` to the profile at `path` (a profile of an instance), expecting it accepted (`profileWrite`). */
export const updateProfile = (c: Check, path: string, body: Json): Promise<Exchange> => profileWrite(c, () => c.put(path, body), body);

/** DELETEs the profile at `path` (a profile of an instance), expecting it accepted (`profileWrite`). */
export const deleteProfileAt = (c: Check, path: string): Promise<Exchange> => profileWrite(c, () => c.delete(path));

/**
 * Creates a configuration profile; returns the exchange and its id (from the response or the profiles list). Sent
 * again while refused for what may be a busy instance (`profileWrite`), unless `once` (a refusal is what the caller
 * looks for: sent once, a refusal for a busy instance then stands for it, which the check accepts either way).
 */
export async function createConfig(
  c: Check,
  computeId: number,
  extra: Json = {},
  label?: string,
  { once }: { once?: true } = {},
): Promise<{ exchange: Exchange; id?: number; label: string }> {
  const profileLabel = label ?? `cfg${Math.random().toString(36).slice(2, 10)}`;
  const body = { label: profileLabel, devices: {}, ...extra };
  const send = () => c.post(`${INSTANCES}/${computeId}/configs`, body);
  const exchange = await (once ? send() : profileWrite(c, send, body));
  if (!ok(exchange)) return { exchange, label: profileLabel };
  const mine = (item: Json) => item.label === profileLabel;
  // The create's answer is not shown: its id is the profile's only when it shows the label sent.
  const created = bodyOf(exchange);
  if (typeof created.id === 'number' && mine(created)) return { exchange, id: created.id, label: profileLabel };
  const found = (await listAll(c, `${INSTANCES}/${computeId}/configs`, (items) => items.some(mine))).find(mine);
  if (typeof found?.id !== 'number') throw new SetupError('created a configuration profile but cannot find its id');
  return { exchange, id: found.id, label: profileLabel };
}

/** The id of the profile `createConfig` made; a refused create is a setup error. */
export function profileMade(made: Awaited<ReturnType<typeof createConfig>>): number {
  if (made.id === undefined) throw new SetupError(`could not create a configuration profile: HTTP ${made.exchange.status} ${reasonOf(made.exchange)}`);
  return made.id;
}

export async function newConfig(c: Check, computeId: number, extra: Json = {}, label?: string): Promise<{ id: number; label: string }> {
  const made = await createConfig(c, computeId, extra, label);
  return { id: profileMade(made), label: made.label };
}

/**
 * The path of a profile created fullvirt on the file's instance (the one whose disk generated bodies name), made once
 * per file. Profiles as returned are not shown: its mode is the one its create sent.
 */
export async function fullvirtProfilePath(c: Check, fx: Fixtures): Promise<string> {
  const { id: computeId } = await fx.instance(c);
  const profile = await fx.shared('fullvirt profile', () => newConfig(c, computeId, { virt_mode: 'fullvirt' }, fx.label('fv', 48)));
  return `${INSTANCES}/${computeId}/configs/${profile.id}`;
}

/**
 * Judges P2.instance-create.booted.default-true on an instance deployed (from an image or a backup) without `booted`
 * that lists exactly one profile. Instance status values are not shown: that it booted is told by the boot rules. Booted,
 * its one profile is the last booted, so after a shutdown, with a second profile added, a boot without config_id uses
 * that one; never booted, that boot is an error (configs.spec judges an instance deployed with booted false so). The
 * second profile is deleted when done (sent again while the boot may still run: `profileWrite`): the instance keeps
 * only its own profile (a file's shared instance may be observed by other checks). `deployedFrom`: what it was
 * deployed from, for the messages.
 */
export async function judgeBootedByDefault(c: Check, computeId: number, deployedFrom: string): Promise<void> {
  const second = await newConfig(c, computeId);
  let removed: Exchange | undefined;
  try {
    await shutDown(c, computeId);
    c.expectSuccess(
      'P2.instance-create.booted.default-true',
      // (a shutdown may run a while: the boot is sent again while the instance may still be busy with it)
      await onceNotBusy(c, () => c.post(`${INSTANCES}/${computeId}/boot`, {})),
      `booting without config_id an instance deployed from ${deployedFrom} by default (booted: its one profile), after a second profile was added`,
    );
  } finally {
    removed = await deleteProfileAt(c, `${INSTANCES}/${computeId}/configs/${second.id}`);
  }
  if (!ok(removed)) throw new SetupError(`could not delete the profile ${second.id} added to instance ${computeId}: HTTP ${removed.status}`);
}

/**
 * The item of the account's VLAN list that mentions `label` (the VLAN object's fields are not shown). `until`: what
 * it should show after a write (that it is listed, that it lists an instance); read again within the window until it does.
 */
export async function vlanListed(c: Check, label: string, until?: (vlan: Json | undefined) => boolean): Promise<Json | undefined> {
  const find = (items: Json[]) => items.find((item) => JSON.stringify(item).includes(`"${label}"`));
  return find(await listAll(c, '/v4beta/networking/vlans', until && ((items) => until(find(items)))));
}

/** A fresh VLAN label (ASCII letters, digits, dashes; 1..64). */
export function vlanLabel(fx: Fixtures): string {
  return fx.label('vlan', 64).replace(/[^A-Za-z0-9-]/g, '-');
}

const DEVICE_SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'];

/**
 * A device map read from a response, as a request may send it back: only the documented slots (sda..sdh), each with
 * only disk_id and volume_id. A response may carry members the documents do not show; a request names only theirs.
 */
export function documentedDevices(devices: unknown): Json {
  const map = devices && typeof devices === 'object' ? (devices as Record<string, unknown>) : {};
  const slotOf = (slot: Record<string, unknown>): Json =>
    Object.fromEntries(['disk_id', 'volume_id'].filter((member) => member in slot).map((member) => [member, slot[member]]));
  return Object.fromEntries(
    DEVICE_SLOTS.filter((slot) => map[slot] && typeof map[slot] === 'object').map((slot) => [slot, slotOf(map[slot] as Record<string, unknown>)]),
  );
}

/** The disk slots of a device map as shown (`{ sda: { disk_id } }`), or undefined when it shows none. */
export function diskSlotsOf(devices: unknown): Json | undefined {
  const slots = Object.entries((devices ?? {}) as Record<string, unknown>).filter(
    (entry): entry is [string, Json] => typeof (entry[1] as Json | null)?.disk_id === 'number',
  );
  return slots.length ? Object.fromEntries(slots.map(([slot, device]) => [slot, { disk_id: device.disk_id }])) : undefined;
}

/**
 * Judges P2.instance-create.image.two-disks on an instance deployed from an image without swap_size: "default config
 * with two disks, one a 512 swap disk". A profile's fields as returned are not shown: judged where its one profile's
 * device map shows disk ids (`diskSlotsOf`, by slot, never by position), which then name two distinct disks.
 */
export async function judgeTwoDisks(c: Check, computeId: number): Promise<void> {
  const [profile, ...more] = await deployedProfiles(c, computeId, (items) => items.length === 1);
  if (!profile || more.length) return c.skip(`instance ${computeId} lists not one profile (judged by P2.instance-create.image.default-config)`);
  const slots = diskSlotsOf(profile.devices);
  if (!slots) return c.skip(`the default profile of instance ${computeId} shows no disk id (a profile's fields are not shown)`);
  const disks = new Set(Object.values(slots).map((slot) => (slot as Json).disk_id));
  const shown = `maps ${disks.size} distinct disks, not two: ${JSON.stringify(slots)}`;
  c.expect('P2.instance-create.image.two-disks', disks.size === 2, `the default profile of instance ${computeId} (from an image) ${shown}`);
}
