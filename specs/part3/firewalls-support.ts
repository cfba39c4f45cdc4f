// Helpers of the firewall spec (firewalls.spec.ts): rule builders, reads of a firewall's status, devices, rules and events.
import { deleteSeen, onceNotBusy, readAfterWrite, untilShortlyDone, waitOutWindow } from '../../harness/consistency.js';
import { FirewallDevices, showsDeviceOf } from '../../harness/devices.js';
import type { Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { integerId } from '../../harness/ids.js';
import { listItems as listAll, timeOf } from '../../harness/lists.js';
import { findListed } from '../../harness/pages.js';
import { readEvery, type Answer, type Read } from '../../harness/reads.js';
import { showsMade, viewShowsAnother } from '../../harness/resources.js';

export type Json = Record<string, unknown>;

export const FW = '/v4/networking/firewalls';

const asObject = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/**
 * `n` distinct entries of a rule's `addresses` of one family, alternately networks (/24, /48) and single addresses (/32,
 * /128): "a network counts the same as a single IP". All global unicast (45.64.0.0/10, 2600:3c00::/32), as every
 * reading takes: which networks a rule takes is not shown, and a server may refuse one no traffic comes from (a
 * documentation, reserved or multicast network).
 */
export function sourceEntries(family: 'ipv4' | 'ipv6', n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    if (family === 'ipv4') return i % 2 ? `45.${64 + (i >> 8)}.${i & 255}.0/24` : `45.${64 + (i >> 8)}.${i & 255}.1/32`;
    return i % 2 ? `2600:3c00:${i.toString(16)}::/48` : `2600:3c00::${i.toString(16)}/128`;
  });
}

/**
 * A rule that is valid on its own; `ports` and the other members can be replaced. Its addresses carry both lists
 * (whether either may be left out is not shown), the IPv4 one a global unicast network (as `sourceEntries`).
 */
export function tcpRule(ports = '22', extra: Json = {}): Json {
  return { action: 'ACCEPT', protocol: 'TCP', ports, addresses: { ipv4: ['45.64.0.0/16'], ipv6: [] }, ...extra };
}

export function rulesOf(n: number, first = 1000): Json[] {
  return Array.from({ length: n }, (_, i) => tcpRule(String(first + i)));
}

/**
 * The firewall's devices (`FirewallDevices`: looked up by instance as every reading of a device agrees); `expected`:
 * instances just added, whose devices a lagging list is read again for.
 */
export async function devicesOf(c: Check, firewallId: number, expected: number[] = []): Promise<FirewallDevices> {
  const read = (items: Json[]) => new FirewallDevices(c, firewallId, items);
  const until = (items: Json[]) => read(items).settledFor(expected);
  return read(await listAll(c, `${FW}/${firewallId}/devices`, undefined, expected.length ? { until } : {}));
}

/**
 * The id of the device that `added` (a POST …/devices of `instanceId`) made on the firewall: the answer's id where the
 * answer is that device (what a device create answers is not shown: the firewall, say, or a device without its
 * instance), else the id its device shows in the firewall's devices list (`skip` where which one it is cannot be told).
 * Undefined where neither shows one.
 */
export async function addedDeviceId(c: Check, firewallId: number, instanceId: number, added: Exchange): Promise<number | string | undefined> {
  const answer = asObject(added.body);
  const id = answer && showsDeviceOf(c, firewallId, instanceId)(answer) ? answer.id : (await devicesOf(c, firewallId, [instanceId])).deviceOf(instanceId)?.id;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

const statusIn = (view: Exchange) => (view.body as Json | undefined)?.status;

/** The firewall's view, read again within the consistency window until its status is `expected` (what the check awaits). */
export function firewallView(c: Check, firewallId: number, expected: string): Promise<Exchange> {
  return readAfterWrite(
    c,
    () => c.get(`${FW}/${firewallId}`),
    (view) => statusIn(view) === expected,
  );
}

export async function statusOf(c: Check, firewallId: number, expected: string): Promise<unknown> {
  return statusIn(await firewallView(c, firewallId, expected));
}

/** The documents' two reads of a firewall's rules: GET …/rules and the `rules` member of the firewall's view. */
const ruleReads = (firewallId: number): Read<Json>[] => [
  { what: `GET ${FW}/${firewallId}/rules`, path: `${FW}/${firewallId}/rules`, pick: asObject },
  { what: `the rules of GET ${FW}/${firewallId}`, path: `${FW}/${firewallId}`, pick: (body) => asObject(asObject(body)?.rules) },
];

/**
 * The firewall's rules as every documented read that answers shows them, each read again within the consistency
 * window until `settled` holds (what the check awaits); `skip` when no read shows them.
 */
export function storedRules(c: Check, firewallId: number, settled?: (rules: Json | undefined) => boolean): Promise<Answer<Json>[]> {
  return readEvery(c, ruleReads(firewallId), settled);
}

/**
 * Whether a read of a firewall's rules shows these policies. A read showing no policy member is not judged on it:
 * GET …/rules answers "inbound and outbound rules" (whether with the policies is not shown).
 */
export const policiesAre = (rules: Json, inbound: string, outbound: string): boolean =>
  (rules.inbound_policy === undefined || rules.inbound_policy === inbound) && (rules.outbound_policy === undefined || rules.outbound_policy === outbound);

/**
 * An event names the firewall as its entity or second entity (which of a device event's two is the firewall is not
 * shown): by label, or, where the entity shows no label, by id with a firewall type. Whether a deleted firewall's id
 * may be given again is not shown: an entity showing another label is the firewall that held the id before (the run's
 * labels are its own). `byLabelOnly` where an event must not be there: an entity showing no label is not counted.
 */
export function namesFirewall(event: Json, firewall: { id: number; label: string }, byLabelOnly = false): boolean {
  return [event.entity, event.secondary_entity].some((entity) => {
    if (!entity || typeof entity !== 'object') return false;
    const e = entity as Json;
    if (typeof e.label === 'string' || byLabelOnly) return e.label === firewall.label;
    return String(e.id) === String(firewall.id) && (typeof e.type !== 'string' || /firewall/i.test(e.type));
  });
}

/** The status a firewall settles in (a new one may start `enabled` or `disabled`: which one is not shown). */
export async function settledStatus(c: Check, firewallId: number): Promise<unknown> {
  return statusIn(
    await readAfterWrite(
      c,
      () => c.get(`${FW}/${firewallId}`),
      (view) => statusIn(view) === 'enabled' || statusIn(view) === 'disabled',
    ),
  );
}

/** The helpers that create firewalls or find their events, built once from the spec file's fixtures (`useFixtures` stays there). */
export function firewallHelpers(fx: Fixtures) {
  async function findEvent(c: Check, action: string, firewall: { id: number; label: string }): Promise<Json | undefined> {
    return fx.find(c, '/v4/account/events', (event) => event.action === action && namesFirewall(event, firewall));
  }

  /**
   * Whether a page of events is older than the firewall: each made before its firewall_create event, once a page read
   * showed that event. No event naming the firewall lies beyond such a page from the end it was read from, in the order
   * of time either way; in another order (not shown either) one may, and the walks it ends find fewer: it ends only
   * walks where finding fewer can fail nothing (a count before a change, a search for what must not be there yet).
   */
  function olderThan(firewall: { id: number; label: string }): (events: Json[]) => boolean {
    let createdAt: number | undefined;
    return (events) => {
      const create = events.find((event) => event.action === 'firewall_create' && namesFirewall(event, firewall));
      createdAt ??= create && timeOf(create.created);
      return createdAt !== undefined && events.length > 0 && events.every((event) => (timeOf(event.created) ?? Infinity) < createdAt!);
    };
  }

  /**
   * How many events of `action` name the firewall in the events list (read back to the firewall's create); `atLeast`:
   * read until that many show (no further than they do), again within the consistency window while fewer show. A
   * count taken before a change, to be compared after it: a create may record the status the firewall starts in as
   * well (whether it does is not shown). Read once before: on a target whose events lag, a create's event showing only
   * later makes the count after one higher, so a PUT that recorded nothing may pass there; a correct server never fails.
   */
  async function eventsNaming(c: Check, action: string, firewall: { id: number; label: string }, atLeast = 0): Promise<number> {
    const count = (events: Json[]) => events.filter((event) => event.action === action && namesFirewall(event, firewall)).length;
    // Counted on the pages read: a list longer than the cap is read from its ends, where a new event is.
    const walk = atLeast > 0 ? { until: (events: Json[]) => count(events) >= atLeast, untilFromPart: true as const } : { endDone: olderThan(firewall) };
    return count(await listAll(c, '/v4/account/events', undefined, { ends: true, ...walk }));
  }

  /**
   * No event of `action` names the firewall yet (by its label: `namesFirewall`), in the events list read back to the
   * firewall's create (`olderThan`); read once the consistency window has passed (`waitOutWindow`): a read within it
   * may answer as before the write that emitted an event (under events-lag, an early firewall_delete went unseen).
   */
  async function noEventYet(c: Check, action: string, firewall: { id: number; label: string }): Promise<boolean> {
    await waitOutWindow(c);
    const named = (event: Json) => event.action === action && namesFirewall(event, firewall, true);
    return (await findListed(c, '/v4/account/events', named, undefined, olderThan(firewall))).found === undefined;
  }

  /**
   * Creates a firewall through a raw request (tracked for deletion); the exchange and, on success, its id. `expected`:
   * the check expects it accepted, and it is sent again while refused, as `addDeviceOnceFree` is (its devices may be held
   * a while by an enabled firewall another check deleted).
   */
  /**
   * POSTs a firewall (by `token` where given); `expected`: sent again while refused as for a busy instance (a deleted
   * firewall may hold its instances a while), `refusedFor` telling the refusals that are the answer.
   */
  async function createFirewall(
    c: Check,
    body: Json,
    { expected = false, refusedFor, token }: { expected?: boolean; refusedFor?: (refusal: Exchange) => boolean; token?: string } = {},
  ): Promise<{ exchange: Exchange; id?: number; label: string }> {
    const label = typeof body.label === 'string' ? body.label : fx.label('fw', 32);
    const send = () => c.post(FW, { label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' }, ...body }, token ? { token } : {});
    const exchange = await (expected || refusedFor ? onceNotBusy(c, send, refusedFor ? { refusedFor } : {}) : send());
    if (exchange.status < 200 || exchange.status >= 300) return { exchange, label };
    const created = (exchange.body ?? {}) as Json;
    // What a create answers is not shown: its id is the firewall's only when it shows the label sent (a job's id is none).
    const id = (created.label === label ? integerId(created.id) : undefined) ?? integerId((await fx.find(c, FW, (item) => item.label === label))?.id);
    if (id !== undefined) fx.track('firewall', id, label);
    return { exchange, label, ...(id !== undefined ? { id } : {}) };
  }

  /**
   * A new firewall in `status`, moved there by PUT when it did not start in it (a refused move fails that transition's
   * rule). `moved`: moved there by PUT even when it started in it, out of it first (what the move emits is judged: under
   * firewall-created-disabled a firewall never disabled by PUT left an early firewall_delete nothing to show).
   */
  async function firewallIn(c: Check, status: 'enabled' | 'disabled', { moved = false } = {}): Promise<{ id: number; label: string }> {
    const firewall = await fx.newFirewall(c);
    const moveTo = async (to: 'enabled' | 'disabled') => {
      const rule = to === 'enabled' ? 'P3.firewall.status.disabled-to-enabled' : 'P3.firewall.status.enabled-to-disabled';
      const put = await c.put(`${FW}/${firewall.id}`, { status: to });
      c.expectSuccess(rule, put, `PUT status ${to} on a new firewall`);
      c.expect(rule, (await statusOf(c, firewall.id, to)) === to, `firewall ${firewall.id} is not ${to} after PUT status ${to}`, put);
    };
    if ((await settledStatus(c, firewall.id)) === status) {
      if (!moved) return firewall;
      await moveTo(status === 'enabled' ? 'disabled' : 'enabled');
    }
    await moveTo(status);
    return firewall;
  }

  /**
   * DELETEs `firewall` (once seen: `deleteSeen`) and judges what the status table says of it, whichever status it had:
   * "`deleted` (removed)", gone from view and list or kept and shown as `deleted` (both readings are allowed), once the
   * deletion has run (whether it has when the DELETE answers is not shown: view and list are read while a short time
   * passes), and the firewall_delete event, which named it not before. `what` names it in the messages.
   */
  async function judgeDelete(c: Check, firewall: { id: number; label: string }, what: string): Promise<void> {
    c.expect('P3.firewall.event.delete', await noEventYet(c, 'firewall_delete', firewall), `a firewall_delete event names a ${what} that was not deleted`);
    c.expectSuccess('P3.firewall.status.delete-removes', await deleteSeen(c, `${FW}/${firewall.id}`), `DELETE a ${what}`);
    // (a view showing another firewall: its id given again)
    const made = { kind: 'firewall', id: firewall.id, label: firewall.label };
    const deleted = (read: Exchange) => (read.status >= 400 && read.status < 500) || statusIn(read) === 'deleted' || viewShowsAnother(read, made);
    const view = await untilShortlyDone(c, () => c.get(`${FW}/${firewall.id}`), deleted);
    c.expect(
      'P3.firewall.status.delete-removes',
      deleted(view),
      `GET a deleted ${what} answered HTTP ${view.status} with status ${JSON.stringify(statusIn(view))} (read while a short time passed)`,
      view,
    );
    const find = async () => (await listAll(c, FW)).find((item) => showsMade('firewall', item, made));
    const listed = await untilShortlyDone(c, find, (item) => item === undefined || item.status === 'deleted');
    c.expect(
      'P3.firewall.status.delete-removes',
      !listed || listed.status === 'deleted',
      `the deleted ${what} ${firewall.id} is still listed with status ${String(listed?.status)}`,
    );
    c.expect('P3.firewall.event.delete', await findEvent(c, 'firewall_delete', firewall), `no firewall_delete event names the ${what} ${firewall.id}`);
  }

  return { findEvent, eventsNaming, noEventYet, createFirewall, firewallIn, judgeDelete };
}
