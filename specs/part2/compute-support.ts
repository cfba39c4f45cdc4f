// Helpers shared by the scenario specs of document 2's compute instances (compute, configs, backups, clone).
// Only documented members are relied on; where a response is "not shown" the created resource is found again
// in its list (by label, or by a tag the check put on it), and a missing member makes the check `skip`.
import { addressKey } from '../../harness/addresses.js';
import type { Check } from '../../harness/check.js';
import { settingFlag } from '../../harness/config.js';
import { requestMembers, validateValue, withMembers } from '../../harness/contract.js';
import { onceNotBusy, readAfterWrite, readOnClock, skipUnlessShownInTime, untilOnClock, untilShortlyDone } from '../../harness/consistency.js';
import { labelShown, viewShowsAnother } from '../../harness/resources.js';
import { SetupError, STRONG_PASSWORD, type Fixtures } from '../../harness/fixtures.js';
import type { Unlisted } from '../../harness/unlisted.js';
import type { Exchange } from '../../harness/http.js';
import { describeExchange, namesField } from '../../harness/error-bodies.js';
import { deepFind, listPages, monthOf } from '../../harness/lists.js';
import { onceSnapshotShows, postSnapshot, untilBackupSucceeded } from './snapshots-support.js';
import { INSTANCES, shutDown } from './instance-power.js';

// (the instance power helpers most compute specs use with these)
export { INSTANCES, shutDown };

export type Json = Record<string, unknown>;

/** An id no target hands out in a conformance run. */
export const UNKNOWN_ID = 999999937;

export const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

/**
 * DELETEs an instance the check expects deleted, sent again while refused for what may be a running action (its own
 * create, a clone from or to it): whether a server may refuse to delete a busy instance is not shown.
 */
export const deleteInstance = (c: Check, id: number): Promise<Exchange> => onceNotBusy(c, () => c.delete(`${INSTANCES}/${id}`));

/**
 * How long an instance a check cloned from may stay busy: a clone's length is not shown (45 minutes under the
 * variation clones-take-longer; a generic check's valid clone of a spec file's instance leaves it busy for the next).
 */
export const CLONE_BUSY_MINUTES = 60;
export const rejected = (exchange: Exchange) => exchange.status >= 400 && exchange.status < 500;

/**
 * POSTs a restore the caller expects accepted: sent again while the target may be busy (`onceNotBusy`), and once more
 * after the target is shut down where it is still refused (whether a restore's target may be running is not shown).
 * A first refusal naming the target is not sent again before the shutdown: no time ends it (under restore-needs-offline,
 * the window and ten minutes of the clock were spent in vain).
 */
export async function restoreOnto(c: Check, sourceId: number, backupId: number, body: { compute_id: number; overwrite: boolean }): Promise<Exchange> {
  const send = () => c.post(`${INSTANCES}/${sourceId}/backups/${backupId}/restore`, body);
  const first = await onceNotBusy(c, send, { refusedFor: (refusal) => namesField(refusal, 'compute_id') === true });
  if (!rejected(first)) return first;
  await shutDown(c, body.compute_id);
  // (a shutdown may run a while: the restore is sent again while the target may still be busy with it)
  return onceNotBusy(c, send);
}

/**
 * A disk of the instance to capture as an image. Disks are not shown, so it is looked for in the configuration
 * profiles' device maps; of the default two disks one is swap, which a server may refuse to capture. The disk in the
 * slot `sda` (the slot a profile boots from) is taken, by its slot name, never by member order or position; only
 * when no profile maps `sda` to a disk, any disk.
 */
export async function diskToCapture(c: Check, computeId: number | string): Promise<number> {
  // The instance is deployed from an image: its profiles may show only once it is provisioned (`deployedProfiles`).
  const configs = await deployedProfiles(c, Number(computeId));
  const sda = deepFind(configs, (item) => typeof (item.sda as Json | undefined)?.disk_id === 'number');
  const disk = sda ? (sda.sda as Json) : deepFind(configs, (item) => typeof item.disk_id === 'number');
  if (!disk) c.skip('cannot find a disk id of the instance (disks are not shown; looked in its configuration profiles)');
  return disk.disk_id as number;
}

/**
 * POSTs an image capture of a disk of `instanceId` the caller expects accepted: sent again while the instance may be
 * busy, and once more after it is shut down where it is still refused (whether its instance may be running is not shown).
 * A first refusal naming the disk is not sent again before the shutdown: no time ends it (under capture-needs-offline,
 * the window and ten minutes of the clock were spent in vain).
 */
async function captureOf(c: Check, instanceId: number, body: Json): Promise<Exchange> {
  const send = () => c.post('/v4/images', body);
  const first = await onceNotBusy(c, send, { refusedFor: (refusal) => namesField(refusal, 'disk_id') === true });
  if (!rejected(first)) return first;
  await shutDown(c, instanceId);
  return onceNotBusy(c, send);
}

/**
 * Captures an image from the disk of `instanceId`, tracked for deletion; the create response (not shown) is used when
 * it carries the image, else the list.
 */
export async function captureImage(c: Check, fx: Fixtures, instanceId: number): Promise<{ id: string; label: string; exchange: Exchange }> {
  const diskId = await diskToCapture(c, instanceId);
  const label = fx.label('cap', 50);
  // Capturing reads the disk; the instance may still be busy with its own create (whether a capture waits is not shown).
  const exchange = await captureOf(c, instanceId, { disk_id: diskId, label });
  if (!(exchange.status >= 200 && exchange.status < 300)) throw new SetupError(`could not capture an image from disk ${diskId}: HTTP ${exchange.status}`);
  const created = deepFind(exchange.body, (item) => item.label === label && typeof item.id === 'string');
  const id = (created?.id ?? (await fx.find(c, '/v4/images', (item) => item.label === label))?.id) as string | undefined;
  if (typeof id !== 'string') throw new SetupError('captured an image but cannot find its id');
  fx.track('image', id, label);
  return { id, label, exchange };
}

export const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
export const reasonOf = (exchange: Exchange): string =>
  ((bodyOf(exchange).errors as Array<{ reason?: unknown }> | undefined) ?? [])
    .map((error) => (typeof error?.reason === 'string' ? error.reason : ''))
    .join(' | ');

/** The id of a create another check judges: a refused one is not this check's finding. */
export function createdId(created: { exchange: Exchange; id?: number }, what: string): number {
  if (created.id === undefined) throw new SetupError(`could not create ${what}: ${describeExchange(created.exchange)}`);
  return created.id;
}

/** The members of alerts an update names (alert semantics): those of the update body's schema. */
export const ALERT_MEMBERS = requestMembers('requests/instance-update', 'alerts');

/** An instance's alerts read from a response, as a request may send them back: only the documented members. */
export const documentedAlerts = (alerts: unknown): Json => (withMembers(alerts, ALERT_MEMBERS) ?? {}) as Json;

/**
 * What makes `label` no valid instance label, one message per broken rule (none for a valid one): judged by the
 * instance schema's label, the definition every response is judged by (3..64 characters, any Unicode letter or digit
 * as an alphanumeric, only --, __ and .. counted as doubled separators). The whole schema's validator is the one the
 * run has compiled already (or precompiled): only what it finds at the label counts.
 */
export function instanceLabelBreaks(label: unknown): string[] {
  return validateValue('resources/compute-instance', { label })
    .filter((broken) => broken.path === '/label')
    .map((broken) => `${broken.rule}: ${broken.message}`);
}

/**
 * Whether an instance's IPv4 addresses can be "one public address on creation, possibly one private" (document 2,
 * Compute instance): one address, or two. Which ranges private addresses come from is not shown (RFC 1918's are one
 * choice, the shared address space 100.64.0.0/10 another), so which of two is the public one is not told here: document
 * 3's checks tell them apart by the IP list, which excludes private addresses.
 */
export const onePublicPossiblyOnePrivate = (ipv4: unknown[]): boolean => ipv4.length === 1 || ipv4.length === 2;

/**
 * Every item of a paginated list (`data` of each page). `until`: what the list should show after a write (a new
 * item in it, a deleted one gone); it is read again within the consistency window until it does.
 */
export async function listAll(c: Check, path: string, until?: (items: Json[]) => boolean): Promise<Json[]> {
  return (await listPages(c, path, until ? { until } : {})).items;
}

/**
 * The instance's view; one that cannot be viewed is a setup error. The instance is expected to exist, and to show
 * `until` (what a write just set): either is read again within the consistency window.
 */
export async function viewInstance(c: Check, id: number, until: (view: Json) => boolean = () => true): Promise<Json> {
  const exchange = await readAfterWrite(
    c,
    () => c.get(`${INSTANCES}/${id}`),
    (view) => ok(view) && until(bodyOf(view)),
  );
  if (!ok(exchange)) throw new SetupError(`cannot view instance ${id}: HTTP ${exchange.status}`);
  return bodyOf(exchange);
}

/**
 * The month `id` was created in, by the target's own clock: its view's `created` (the create's answer is not shown,
 * and a run's clock moves may have taken the target past the calendar's month); undefined where the view shows none.
 */
export async function createdMonth(c: Check, id: number): Promise<{ year: number; month: number } | undefined> {
  return monthOf((await viewInstance(c, id)).created);
}

const EXTRA = { OTHER_REGION: 'otherRegion', VLAN_REGION: 'vlanRegion', NO_VLAN_REGION: 'noVlanRegion', SPARE_VLAN_REGION: 'spareVlanRegion' } as const;

/** A region setting a real target must name (the embedded emulator's seed provides them); `skip` when absent. */
export function extraSetting(c: Check, name: keyof typeof EXTRA): string {
  return c.setting(EXTRA[name], `needs ${name.toLowerCase().replace(/_/g, ' ')}: set ${settingFlag(EXTRA[name])} or CONFORMANCE_${name}`);
}

/**
 * Creates an instance through a raw request and tracks it for deletion. Returns the exchange and, when the create
 * succeeded, the instance id: from the response, else found in the list by label or by `findTag`, at once or while
 * the target's clock runs (`madeInstance`); `skip` when it never shows.
 */
export async function createInstance(
  c: Check,
  fx: Fixtures,
  body: Json,
  options: { token?: string; findTag?: string } = {},
): Promise<{ exchange: Exchange; id?: number }> {
  const exchange = await c.post(INSTANCES, body, options.token ? { token: options.token } : {});
  if (!ok(exchange)) return { exchange };
  return { exchange, id: await madeInstance(c, fx, { exchange, ...(await idOfCreated(c, fx, exchange, body, options.findTag)) }) };
}

const hasTag = (item: Json, tag: string) => Array.isArray(item.tags) && item.tags.includes(tag);

/** What a create or clone made, as found when it was accepted: its id, or the instance still awaited in the list. */
type Made = { id?: number; unlisted?: Unlisted };

/**
 * The instance a create or clone made: its id from the response when the response shows it is the instance, else from
 * the list. The instance is told by the label sent (unique in the run), else by `tag` among the instances not `known`
 * before, not tracked yet and not labelled as another create awaited (a clone copies its source's tags, as earlier
 * clones did); a response without the label sent is the instance also when it shows the region and type sent. What a
 * create or clone answers is not shown, nor when its instance first shows: a response that is not the instance (a job)
 * never gives its id, and an instance not listed yet is awaited (`madeInstance`, the clean-up).
 */
async function idOfCreated(c: Check, fx: Fixtures, exchange: Exchange, sent: Json, tag?: string, known: ReadonlySet<unknown> = new Set()): Promise<Made> {
  const created = bodyOf(exchange);
  const label = typeof sent.label === 'string' ? sent.label : undefined;
  const others = fx.awaitedLabels();
  const isIt = (item: Json) =>
    !known.has(item.id) &&
    (label !== undefined ? item.label === label : tag !== undefined && hasTag(item, tag) && !others.has(String(item.label)) && !fx.tracks('instance', item.id));
  const showsSent = label === undefined && ['region', 'type'].every((member) => typeof sent[member] === 'string' && created[member] === sent[member]);
  let id = typeof created.id === 'number' && (isIt(created) || showsSent) ? created.id : undefined;
  // (the label it shows, where none was sent, tells it from another instance given its id again)
  let shown: Json | undefined = id !== undefined ? created : undefined;
  const answered = typeof created.id === 'number' && typeof created.label === 'string' ? created.id : undefined;
  if (id === undefined && label === undefined && answered !== undefined && !known.has(answered) && !fx.tracks('instance', answered)) {
    // An answer showing an id and a label but not what was sent (a summary: what it answers is not shown) is the
    // instance when the view of that id shows that label and the region sent: a job's id names no instance so labelled.
    const viewed = bodyOf(await c.get(`${INSTANCES}/${answered}`));
    if (viewed.id === answered && viewed.label === created.label && viewed.region === sent.region) [id, shown] = [answered, viewed];
  }
  if (id === undefined && (label !== undefined || tag !== undefined)) {
    shown = await findInstance(c, isIt);
    if (typeof shown?.id === 'number') id = shown.id;
  }
  if (id !== undefined) {
    fx.track('instance', id, label ?? labelShown('instance', shown));
    return { id };
  }
  if (label === undefined && tag === undefined) return {};
  return { unlisted: fx.awaitListed({ kind: 'instance', list: INSTANCES, match: isIt, ...(label !== undefined ? { label } : {}) }) };
}

/** `madeInstance`, undefined where no instance shows (what a clone that fails leaves is not shown). */
export async function madeInstanceIfAny(c: Check, fx: Fixtures, made: Made): Promise<number | undefined> {
  if (made.id !== undefined || !made.unlisted) return made.id;
  const id = await fx.listedOnClock(c, made.unlisted, CLONE_WAIT);
  return typeof id === 'number' ? id : undefined;
}

/**
 * The id of the instance an accepted create or clone made: as found when it was accepted, else read in the list while
 * the target's clock runs (`onceCopyShows`: a server may answer with a job and make the instance when the job ends);
 * `skip` with the reason when it never shows.
 */
export async function madeInstance(c: Check, fx: Fixtures, made: Made & { exchange: Exchange }): Promise<number> {
  const id = await madeInstanceIfAny(c, fx, made);
  if (id !== undefined) return id;
  const what = `${made.exchange.method} ${made.exchange.path} was accepted (HTTP ${made.exchange.status})`;
  if (!made.unlisted) return c.skip(`${what}, but neither its answer nor anything sent tells the instance it made`);
  return c.skip(
    `${what}, but its answer is not the instance and no instance labelled as sent is listed within ${CLONE_WAIT.mostSeconds / 3600} simulated hours (what it answers, and when its instance shows, is not shown)`,
  );
}

async function findInstance(c: Check, match: (item: Json) => boolean): Promise<Json | undefined> {
  return (await listAll(c, INSTANCES, (items) => items.some(match))).find(match);
}

/** A new instance (tracked) with body defaults: the config region and type, a run label; `image: true` deploys a public image. */
/** A create body deploying the target's public image in `region`, under a new label. */
export async function imageCreateBody(c: Check, fx: Fixtures, region = c.target.info.config.region): Promise<Json> {
  const config = c.target.info.config;
  return { region, type: config.instanceType, label: fx.label('vm', 64), image: await fx.publicImage(c), root_pass: STRONG_PASSWORD };
}

export async function newInstance(c: Check, fx: Fixtures, extra: Json & { image?: unknown } = {}): Promise<{ id: number; label: string }> {
  const config = c.target.info.config;
  const label = (extra.label as string | undefined) ?? fx.label('vm', 64);
  const body: Json = { region: config.region, type: config.instanceType, label, ...extra };
  if (body.image === true) {
    body.image = await fx.publicImage(c);
    body.root_pass ??= STRONG_PASSWORD;
  }
  const { exchange, id } = await createInstance(c, fx, body);
  if (id === undefined) throw new SetupError(`could not create an instance: HTTP ${exchange.status} ${reasonOf(exchange)}`);
  return { id, label };
}

/** The disk allocation of an instance's type (MB), as its view shows it (`specs.disk`); `skip` where it shows none. */
export async function diskAllocation(c: Check, id: number): Promise<number> {
  const disk = ((await viewInstance(c, id)).specs as Json | undefined)?.disk;
  if (typeof disk !== 'number' || disk <= 0) return c.skip(`instance ${id} shows no specs.disk (its disk allocation)`);
  return disk;
}

/**
 * An instance deployed from an image whose disks take more than `moreThan` MB in every reading: how big the image's
 * disk is, the documents do not show (it may fill the allocation or hold only the image), but the swap disk is the
 * size the body asks for, `moreThan + 1` MB. `skip` where the target refuses that swap disk (bounds not shown). Returned
 * once its default config shows (`deployedProfiles`): its disks take the space only then; `skip` where none comes.
 */
export async function instanceWithSwapOver(c: Check, fx: Fixtures, moreThan: number, extra: Json = {}): Promise<{ id: number; label: string }> {
  const body = { ...(await imageCreateBody(c, fx)), ...extra };
  const swap = moreThan + 1;
  const { exchange, id } = await createInstance(c, fx, { ...body, swap_size: swap });
  if (id !== undefined) {
    if (!(await deployedProfiles(c, id)).length)
      c.skip(`instance ${id} deployed from an image lists no profile (judged by P2.instance-create.image.default-config)`);
    return { id, label: body.label as string };
  }
  if (rejected(exchange))
    return c.skip(
      `the target refused an instance with a ${swap} MB swap disk (HTTP ${exchange.status} ${reasonOf(exchange)}; bounds of swap_size are not shown)`,
    );
  throw new SetupError(`could not create an instance: HTTP ${exchange.status} ${reasonOf(exchange)}`);
}

/**
 * Clones `sourceId` to a new instance (config region and type unless given), tracking what it made. The new
 * instance is found by its label, or by `findTag` (a tag of the source, copied to the clone) when no label is sent: at
 * once, or, when it is not listed yet (a clone may answer its job and make the instance when it completes), awaited
 * (`madeInstance` waits for it; else the clean-up finds it).
 * A refused clone is sent again while the source may still be busy with its own create (`onceNotBusy`), unless
 * `once` (a refusal is what the caller looks for) or the refusal is one `refusedFor` (the member at fault named).
 */
export async function cloneToNew(...args: Parameters<typeof sendClone>): Promise<Made & { exchange: Exchange; label?: string }> {
  const { exchange, label, made } = await sendClone(...args);
  return { exchange, label, ...(await made()) };
}

/**
 * `cloneToNew`'s request, the instance it made looked for on demand (`made`; none where the clone was refused): clones
 * sent together then look for their instances together, each a read that may wait the consistency window.
 */
export async function sendClone(
  c: Check,
  fx: Fixtures,
  sourceId: number,
  extra: Json = {},
  options: { token?: string; findTag?: string; once?: true; refusedFor?: (exchange: Exchange) => boolean } = {},
): Promise<{ exchange: Exchange; label?: string; made: () => Promise<Made> }> {
  const config = c.target.info.config;
  const body: Json = { region: config.region, type: config.instanceType, label: fx.label('cl', 64), ...extra };
  const label = typeof body.label === 'string' ? body.label : undefined;
  const { findTag } = options;
  // Without a label the clone is told by the tag it copies from its source: the instances already carrying it are not it.
  const known = new Set<unknown>([sourceId]);
  if (label === undefined && findTag !== undefined) for (const item of await listAll(c, INSTANCES)) if (hasTag(item, findTag)) known.add(item.id);
  const send = () => c.post(`${INSTANCES}/${sourceId}/clone`, body, options.token ? { token: options.token } : {});
  const exchange = await (options.once ? send() : onceNotBusy(c, send, { refusedFor: options.refusedFor }));
  // (The instance is waited for only by a check that needs it, `madeInstance`: the clone must often still be running.)
  const made = async (): Promise<Made> => (ok(exchange) ? idOfCreated(c, fx, exchange, body, findTag, known) : {});
  return { exchange, label, made };
}

/**
 * After an action was accepted while a clone of `sourceId` should still have been running: was the clone really
 * still running? Probes with further clones: five at most may run at once from one source ("more returns HTTP 400"),
 * so with the check's one clone from it still running the fifth probe is refused with 400. Returns why it cannot be
 * told to run (undefined where it ran): every probe accepted (the clone had ended), or an earlier probe refused, not
 * for the limit but for what the accepted action started (a resize of the source: a server may refuse to clone it
 * meanwhile, with any 4xx).
 */
async function whyNotRunning(c: Check, fx: Fixtures, sourceId: number): Promise<string | undefined> {
  // Probe clones take the source's current type: a smaller one would be refused for size, not for the limit.
  const type = (await viewInstance(c, sourceId)).type;
  const extra: Json = typeof type === 'string' ? { type } : {};
  const LIMIT = 5;
  const accepted: Array<() => Promise<Made>> = [];
  try {
    for (let probes = 1; probes <= LIMIT; probes++) {
      const probe = await sendClone(c, fx, sourceId, extra, { once: true });
      if (ok(probe.exchange)) {
        accepted.push(probe.made);
        continue;
      }
      if (probes === LIMIT && probe.exchange.status === 400) return undefined;
      return `clone ${probes} of ${LIMIT} probing whether the clones from instance ${sourceId} still ran was refused (${describeExchange(probe.exchange)}): perhaps for the accepted action, not the limit`;
    }
    return `the clones from instance ${sourceId} had ended when the action was accepted (${LIMIT} more were accepted), no other spec file moving the clock meanwhile: a clone may finish within its request (how long one runs is not shown)`;
  } finally {
    // The probes' instances are looked for once the probing is done: a list read between two probes may wait the
    // window (an instance made only when its clone ends), and the clone probed for runs on meanwhile.
    await Promise.all(accepted.map((made) => made()));
  }
}

/**
 * `act` (an action a running clone blocks) on what `start` set cloning, then whether the clones still ran when it was
 * accepted (`skip` where that cannot be told). The clock is held throughout (on a target whose clock the run drives):
 * another spec file's advance would end the clones. `cloning`: the sources of the clones that must all still run.
 * Returns what the start made and the action's answer, for the check to judge.
 */
export function whileCloning<S>(
  c: Check,
  fx: Fixtures,
  start: () => Promise<S & { cloning: number[] }>,
  act: (started: S & { cloning: number[] }) => Promise<Exchange>,
): Promise<{ started: S & { cloning: number[] }; exchange: Exchange }> {
  return c.holdingClock(async () => {
    const started = await start();
    const exchange = await act(started);
    if (!ok(exchange)) return { started, exchange };
    for (const sourceId of started.cloning) {
      const why = await whyNotRunning(c, fx, sourceId);
      if (why) c.skip(why);
    }
    return { started, exchange };
  });
}

/** How long a clone is waited for: five minutes of the target's clock at a time, for at most three hours (not shown). */
export const CLONE_WAIT = { stepSeconds: 5 * 60, mostSeconds: 3 * 3600 };

/**
 * `attempt` (an action a running clone blocks) sent again while the target's clock runs (`CLONE_WAIT`) until it is
 * accepted: how long a clone runs is not shown. Returns the last exchange.
 */
export const onceClonesEnd = (c: Check, attempt: () => Promise<Exchange>) => untilOnClock(c, attempt, ok, CLONE_WAIT);

/**
 * What a clone, a restore or a deploy from a backup made on its target, read until `made` holds: at once, or while the
 * target's clock runs (`CLONE_WAIT`, `readOnClock`): whether a target shows what is copied when the request is accepted
 * or only when the copy completes is not shown.
 */
export const onceCopyShows = <T>(c: Check, read: () => Promise<T>, made: (value: T) => boolean) => readOnClock(c, read, made, CLONE_WAIT);

/** The profiles of an instance (all pages); `until` as for listAll. */
export const configsOf = (c: Check, computeId: number, until?: (profiles: Json[]) => boolean) => listAll(c, `${INSTANCES}/${computeId}/configs`, until);

/**
 * The profiles of an instance deployed from an image, once its default config shows: at once, or while time passes
 * (`untilShortlyDone`: the target's clock a minute at a time for at most an hour, or a minute and a half of real time
 * without the clock hook): "from an image (running when provisioned; default config with two disks …)" does not show
 * whether the config and its disks exist when the create answers or only once the instance is provisioned. Then read
 * again within the consistency window until `until` holds (as `configsOf`). Returns what is listed, each item as its
 * view shows it where the item shows no device map, none where no profile came: the caller judges or skips (without
 * the clock hook it skips: when the profile shows is not shown, and no more time can pass).
 */
export async function deployedProfiles(c: Check, computeId: number, until?: (profiles: Json[]) => boolean): Promise<Json[]> {
  const shown = await untilShortlyDone(
    c,
    () => configsOf(c, computeId),
    (profiles) => profiles.length > 0,
    60,
  );
  const listed = until && !until(shown) ? await configsOf(c, computeId, until) : shown;
  return wholeProfiles(c, computeId, listed);
}

/** Listed profiles of `computeId` read whole: a list of summaries ({id, label}) is a choice (list items are not shown). */
export function wholeProfiles(c: Check, computeId: number, listed: Json[]): Promise<Json[]> {
  const whole = async (item: Json) => {
    if ('devices' in item || typeof item.id !== 'number') return item;
    const view = await c.get(`${INSTANCES}/${computeId}/configs/${item.id}`);
    return ok(view) ? bodyOf(view) : item;
  };
  return Promise.all(listed.map(whole));
}

/** A snapshot a check took: the label it sent and, where it was found, the backup's id. */
type Taken = { label: string; id?: number | undefined };

/**
 * Takes a snapshot with a fresh label; returns the label and, when it can be found, the backup id: from the answer
 * where it shows the label sent (it is then the backup: what it answers is not shown, and a job's id is no backup's),
 * else from the backups list.
 */
export async function snapshot(c: Check, fx: Fixtures, computeId: number): Promise<{ exchange: Exchange; label: string; id?: number }> {
  const label = fx.label('snap', 255);
  const exchange = await postSnapshot(c, computeId, label);
  if (!ok(exchange)) return { exchange, label };
  const found = deepFind(exchange.body, (item) => item.label === label && typeof item.id === 'number') ?? (await listedBackup(c, computeId, { label })).found;
  if (typeof found?.id === 'number') await untilBackupSucceeded(c, computeId, found.id, label);
  return { exchange, label, id: found?.id as number | undefined };
}

/** A snapshot of the file's instance, once it can be restored or deployed. */
export async function instanceBackup(c: Check, fx: Fixtures): Promise<{ computeId: number; backupId: number }> {
  const instance = await fx.instance(c);
  // A snapshot holds what the instance has when it is taken: its default config and disks, once they show.
  await deployedProfiles(c, instance.id);
  const { id } = await snapshot(c, fx, instance.id);
  if (id === undefined) return c.skip('cannot find the id of a new snapshot (neither its answer nor the backups list tells it; backup fields are not shown)');
  return { computeId: instance.id, backupId: id };
}

/**
 * Whether a listed backup is `taken`: by its label, or, where the item shows none (a backup's fields as returned are
 * not shown), by the id the snapshot's answer showed.
 */
const isTaken = (taken: Taken) => (item: Json) =>
  typeof item.label === 'string' ? item.label === taken.label : taken.id !== undefined && item.id === taken.id;

/**
 * The backups list's item that is `taken`, and whether the list cannot tell: it lists backups, none showing a label,
 * and the snapshot's id is not known.
 */
async function backupOnce(c: Check, computeId: number, taken: Taken): Promise<{ found?: Json | undefined; untold: boolean }> {
  const listed = (await c.get(`${INSTANCES}/${computeId}/backups`)).body;
  const backup = (labelled: boolean) => (item: Json) => typeof item.id === 'number' && (!labelled || typeof item.label === 'string');
  const untold = taken.id === undefined && deepFind(listed, backup(false)) !== undefined && deepFind(listed, backup(true)) === undefined;
  return { found: deepFind(listed, isTaken(taken)), untold };
}

/**
 * The backup `taken`: one just taken, which may be listed only once it is taken (when a snapshot first shows is not
 * shown), so a miss is read again within the window, then while time passes (`onceSnapshotShows`).
 */
const listedBackup = (c: Check, computeId: number, taken: Taken) =>
  onceSnapshotShows(
    c,
    () => backupOnce(c, computeId, taken),
    (read) => read.found !== undefined || read.untold,
  );

const untoldReason = (taken: Taken) =>
  `the backups list shows no labels and the answer to the snapshot "${taken.label}" showed no id: nothing tells that backup (backup fields are not shown)`;

/** The listed backup `taken` (`listedBackup`); `skip` where the list cannot tell it, or shows it not yet in the time a check can wait. */
export async function findBackup(c: Check, computeId: number, taken: Taken): Promise<Json | undefined> {
  const { found, untold } = await listedBackup(c, computeId, taken);
  if (untold) c.skip(untoldReason(taken));
  skipUnlessShownInTime(c, found !== undefined, `the snapshot "${taken.label}" is not listed yet`);
  return found;
}

/**
 * Whether the backup `taken` is no longer listed (after a cancel or a new snapshot deleted it: when that deletion is
 * done is not shown, so one still listed is read again while a short time passes, `untilShortlyDone`); undefined where
 * the list cannot tell it.
 */
export async function backupListedGone(c: Check, computeId: number, taken: Taken): Promise<boolean | undefined> {
  const { found, untold } = await untilShortlyDone(
    c,
    () => backupOnce(c, computeId, taken),
    (read) => read.found === undefined || read.untold,
  );
  return untold ? undefined : found === undefined;
}

/** `backupListedGone`, `skip` where the list cannot tell the backup. */
export async function backupGone(c: Check, computeId: number, taken: Taken): Promise<boolean> {
  return (await backupListedGone(c, computeId, taken)) ?? c.skip(untoldReason(taken));
}

/** The view of a backup a cancel or a new snapshot deleted, read until it is refused while a short time passes. */
export function deletedBackupView(c: Check, computeId: number, backup: { id: number; label: string }): Promise<Exchange> {
  const gone = (view: Exchange) => rejected(view) || viewShowsAnother(view, { kind: 'backup', label: backup.label });
  return untilShortlyDone(c, () => c.get(`${INSTANCES}/${computeId}/backups/${backup.id}`, { gone: true }), gone);
}

/**
 * The instance `id` as the tagged objects list shows it (document 2: the objects themselves, instances among them),
 * under a new tag given to it alone; none where the tag is refused or the list does not show it. When the objects
 * carry a new tag is not shown: the list is read while a short time passes, as the tag checks read it (read within
 * the window only, it passed in vain under tag-create-runs-a-while, and the list went unjudged).
 */
export async function asTagged(c: Check, fx: Fixtures, id: number): Promise<Json[]> {
  const label = fx.label('tag', 50);
  if (!ok(await c.post('/v4/tags', { label, computes: [id] }))) return [];
  fx.track('tag', label, label);
  const listed = await untilShortlyDone(
    c,
    () => listPages(c, `/v4/tags/${encodeURIComponent(label)}`),
    ({ items }) => items.some((item) => item.id === id),
  );
  return listed.items.filter((item) => item.id === id);
}

/**
 * Those of `addresses` the account's address list still holds although no instance but the deleted one (`isDeleted`:
 * told by its label too, since another instance may take its id and with it an address derived from the id) shows them.
 */
export async function addressesStillHeld(c: Check, isDeleted: (item: Json) => boolean, addresses: string[]): Promise<string[]> {
  if (!addresses.length) return [];
  const listed = new Set((await listAll(c, '/v4/networking/ips')).map((item) => addressKey(item.address)));
  const candidates = addresses.filter((address) => listed.has(addressKey(address)));
  if (!candidates.length) return [];
  const held = (item: Json) => [...(Array.isArray(item.ipv4) ? (item.ipv4 as unknown[]) : []), item.ipv6].map(addressKey);
  const owned = new Set((await listAll(c, INSTANCES)).filter((item) => !isDeleted(item)).flatMap(held));
  return candidates.filter((address) => !owned.has(addressKey(address)));
}
