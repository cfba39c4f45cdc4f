// Document 1, "Events" and the events endpoints of "Account": emission, the 90-day window, visibility by grants,
// and marking read / seen. Events are made with firewalls, whose operations the documents say emit events.
// Other spec files make and mark events at the same time: a check whose scenario another file can disturb
// (marking a newer event read) runs a second time on fresh events before it reports a failure. POST seen marks every
// event up to an id, whoever made it: every check that sends it, or judges which events are seen, holds the run's
// EVENTS_SEEN_LOCK. The lock does not hold other files' actions back: an event of theirs with a lower id may show
// only after the POST, so only the events listed before it are judged.
import { describe } from 'vitest';
import { check, twice, type Check } from '../../harness/check.js';
import { readAfterWrite, waitOutWindow } from '../../harness/consistency.js';
import { listItems as listAll, presentOf, timeOf } from '../../harness/lists.js';
import { findListed, readPage } from '../../harness/pages.js';
import { useFixtures } from '../../harness/fixtures.js';
import { EVENTS_SEEN_LOCK } from '../generic/valid-requests.js';
import { addDevice } from '../../harness/devices.js';
import { addedDeviceId, namesFirewall } from '../part3/firewalls-support.js';
import type { Exchange } from '../../harness/http.js';
import { integerId } from '../../harness/ids.js';
import { registerSecret } from '../../harness/redact.js';
import { controlAtBase, restrictedUser } from './restricted-users.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part1-events');

const DAY_MS = 86_400_000;
const WINDOW_MS = 90 * DAY_MS;
/**
 * How old a listed event may be: when an event past its 90 days leaves the list is not shown, and a server removing
 * them once a day lists one up to a day longer (as with database backups past their 7 days, databases-late.ts).
 */
const LISTED_AT_MOST_MS = WINDOW_MS + DAY_MS;

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

/**
 * The first event matching, searched from both ends of the list (`findListed`: a new event is first or last in either
 * order, however long the account's history); a page the list refuses is an error.
 */
async function findEvent(c: Check, match: (event: Json) => boolean, token?: string): Promise<Json | undefined> {
  const { found, refused } = await findListed(c, '/v4/account/events', match, token);
  if (refused && !ok(refused)) throw new Error(`GET /v4/account/events answered ${refused.status}`);
  return found;
}

/** Whether an event is of `action` on the firewall. */
const isEventOf = (action: string, firewall: { id: number; label: string }) => (event: Json) => event.action === action && namesFirewall(event, firewall);

/**
 * The event of `action` on the firewall, read again within the consistency window until it shows: when an event first
 * shows in reads is not shown (a service may record them asynchronously).
 */
const eventOf = (c: Check, action: string, firewall: { id: number; label: string }, token?: string): Promise<Json | undefined> =>
  readAfterWrite(
    c,
    () => findEvent(c, isEventOf(action, firewall), token),
    (found) => found !== undefined,
  );

/** Three new firewall_create events, oldest first (by id). */
async function threeEvents(c: Check): Promise<Json[]> {
  const events: Json[] = [];
  for (let i = 0; i < 3; i++) {
    const firewall = await fx.newFirewall(c);
    const event = await eventOf(c, 'firewall_create', firewall);
    if (!event || typeof event.id !== 'number') c.fail('P1.events.emission', `creating firewall ${firewall.id} recorded no firewall_create event with an id`);
    events.push(event);
  }
  return events.sort((a, b) => (a.id as number) - (b.id as number));
}

async function view(c: Check, id: unknown): Promise<Json> {
  const exchange = await c.get(`/v4/account/events/${String(id)}`);
  if (!ok(exchange)) throw new Error(`GET /v4/account/events/${String(id)} answered ${exchange.status}`);
  return bodyOf(exchange);
}

/** The event read back after marking it, once `member` (read or seen) is true (or the consistency window has passed). */
const viewMarked = (c: Check, id: unknown, member: 'read' | 'seen') =>
  readAfterWrite(
    c,
    () => view(c, id),
    (event) => event[member] === true,
  );

describe('Event emission', () => {
  check('P1.events.emission', 'the firewall operations record firewall_create, _disable, _enable, _device_add, _device_remove and _delete', async (c) => {
    const rule = 'P1.events.emission';
    const firewall = await fx.newFirewall(c);
    const expectEvent = async (action: string) =>
      c.expect(rule, await eventOf(c, action, firewall), `no ${action} event names firewall ${firewall.id} ("${firewall.label}")`);
    await expectEvent('firewall_create');
    const path = `/v4/networking/firewalls/${firewall.id}`;
    // Whether a new firewall starts enabled or disabled is not shown: it is moved away from where it starts, and back.
    const started = bodyOf(
      await readAfterWrite(
        c,
        () => c.get(path),
        (read) => ['enabled', 'disabled'].includes(String(bodyOf(read).status)),
      ),
    ).status;
    for (const status of started === 'disabled' ? ['enabled', 'disabled'] : ['disabled', 'enabled']) {
      c.expectSuccess(rule, await c.put(path, { status }), `PUT firewall status ${status}`);
      await expectEvent(status === 'enabled' ? 'firewall_enable' : 'firewall_disable');
    }
    const instance = await fx.newInstance(c);
    const added = await addDevice(c, firewall.id, instance.id);
    c.expectSuccess(rule, added, 'POST firewall device');
    await expectEvent('firewall_device_add');
    const deviceId = await addedDeviceId(c, firewall.id, instance.id, added);
    if (deviceId === undefined) throw new Error('cannot find the id of the firewall device just added (its fields are not shown)');
    c.expectSuccess(rule, await c.delete(`${path}/devices/${String(deviceId)}`), 'DELETE firewall device');
    await expectEvent('firewall_device_remove');
    c.expectSuccess(rule, await c.delete(path), 'DELETE firewall');
    await expectEvent('firewall_delete');
  });
});

describe('Event window and visibility', () => {
  check('P1.events.window-90-days', 'the events list holds no event older than 90 days (and a day), and holds a new one', async (c) => {
    const rule = 'P1.events.window-90-days';
    const firewall = await fx.newFirewall(c);
    const cutoff = (await presentOf(c)) - LISTED_AT_MOST_MS;
    const isNew = isEventOf('firewall_create', firewall);
    const inWindow = (event: Json) => {
      const created = timeOf(event.created);
      return created === undefined || created >= cutoff;
    };
    // A replica may still show the list as it was before another file moved the clock (the window's lag): read again
    // within the window while an event older than the cutoff is listed. A list longer than the page cap is judged on
    // its ends (`ends`): the new event is first or last, and so is the oldest, whatever the order.
    const events = await listAll(c, '/v4/account/events', undefined, { until: (items) => items.some(isNew) && items.every(inWindow), ends: true });
    for (const event of events) {
      c.expect(rule, inWindow(event), `event ${String(event.id)} (${String(event.action)}) of ${String(event.created)} is older than 91 days`);
    }
    c.expect(rule, events.some(isNew), `the event of the firewall created just now (${firewall.id}) is not in the list`);
  });

  check(
    ['P1.events.list.by-grants', 'P1.account.serves.get-account-events-id'],
    'a restricted user sees the event of a firewall only with a grant on that firewall, and may view it',
    async (c) => {
      const rule = 'P1.events.list.by-grants';
      const firewall = await fx.newFirewall(c);
      if (!(await eventOf(c, 'firewall_create', firewall))) c.fail('P1.events.emission', `creating firewall ${firewall.id} recorded no firewall_create event`);
      // Which grant shows an entity's events is not shown: read_write on the firewall and account_access read_write show
      // it in every reading (a server may ask more than read_only).
      const granted = await restrictedUser(
        c,
        { global: { account_access: 'read_write' }, entities: { firewall: { [String(firewall.id)]: 'read_write' } } },
        fx.label('ru', 30),
      );
      const listed = await eventOf(c, 'firewall_create', firewall, granted);
      c.expect(
        rule,
        listed,
        `a restricted user with read_write on firewall ${firewall.id} and account_access read_write does not see its firewall_create event`,
      );
      // An event its list shows it may view too: the view is kept to no users ("unrestricted users only" is the logins').
      if (listed) {
        const viewed = await c.get(`/v4/account/events/${String(listed.id)}`, { token: granted });
        c.expectSuccess('P1.account.serves.get-account-events-id', viewed, `GET event ${String(listed.id)}, listed to the restricted user, by that user`);
      }
      // Read once: a restricted user already sees the event, so waiting out the consistency window for it to show to one
      // without grants would prove nothing more (and cost the window on every correct server).
      const without = await restrictedUser(c, {}, fx.label('ru', 30));
      c.expect(
        rule,
        !(await findEvent(c, isEventOf('firewall_create', firewall), without)),
        `a restricted user without grants sees the firewall_create event of firewall ${firewall.id}`,
      );
    },
  );
});

describe('Marking events', () => {
  check('P1.events.read.marks-one', 'POST read marks that event read and leaves the others as they were', async (c) => {
    const rule = 'P1.events.read.marks-one';
    await twice(c, async () => {
      const [first, middle, last] = await threeEvents(c);
      const before = [first!.read, last!.read];
      c.expectSuccess(rule, await c.post(`/v4/account/events/${String(middle!.id)}/read`), `POST read of event ${String(middle!.id)}`);
      c.expect(rule, (await viewMarked(c, middle!.id, 'read')).read === true, `event ${String(middle!.id)} is not read after POST read`);
      // The list shows the mark too (nothing documented un-reads an event); an event the list's ends no longer hold is not judged.
      const listed = await readAfterWrite(
        c,
        () => findEvent(c, (event) => event.id === middle!.id),
        (event) => event === undefined || event.read === true,
      );
      c.expect(
        rule,
        listed === undefined || listed.read === true,
        `the events list shows event ${String(middle!.id)} with read ${JSON.stringify(listed?.read)} after POST read`,
      );
      const after = [(await view(c, first!.id)).read, (await view(c, last!.id)).read];
      c.expect(
        rule,
        after[0] === before[0] && after[1] === before[1],
        `POST read of event ${String(middle!.id)} changed read of events ${String(first!.id)} and ${String(last!.id)} from ${JSON.stringify(before)} to ${JSON.stringify(after)}`,
      );
    });
  });

  check(
    'P1.events.seen.marks-up-to-id',
    'POST seen marks every event up to and including the id seen',
    async (c) => {
      await twice(c, async () => {
        const [first, middle] = await threeEvents(c);
        const upToMiddle = (events: Json[]) => events.filter((event) => typeof event.id === 'number' && event.id <= (middle!.id as number));
        // The events listed before the POST: they exist when it is sent in every reading. One with a lower id that shows
        // only after it (an event takes its id when its action happens and may be recorded later, another file's too)
        // may stay unseen: whether "all events up to this ID" are those existing at the POST or any later one is not shown.
        const listedBefore = new Set(upToMiddle(await listAll(c, '/v4/account/events', undefined, { ends: true })).map((event) => event.id));
        c.expectSuccess(
          'P1.events.seen.marks-up-to-id',
          await c.post(`/v4/account/events/${String(middle!.id)}/seen`),
          `POST seen of event ${String(middle!.id)}`,
        );
        for (const event of [first!, middle!])
          c.expect(
            'P1.events.seen.marks-up-to-id',
            (await viewMarked(c, event.id, 'seen')).seen === true,
            `event ${String(event.id)} is not seen after POST seen of event ${String(middle!.id)}`,
          );
        const unseenIn = (events: Json[]) => upToMiddle(events).filter((event) => listedBefore.has(event.id) && event.seen !== true);
        // Each event listed before the POST and read after it is judged: a list longer than the page cap on its ends
        // (`ends`), the events around the two marked.
        const unseen = unseenIn(await listAll(c, '/v4/account/events', undefined, { until: (events) => !unseenIn(events).length, ends: true }));
        c.expect(
          'P1.events.seen.marks-up-to-id',
          !unseen.length,
          `after POST seen of event ${String(middle!.id)} the list still shows events ${unseen.map((event) => String(event.id)).join(', ')} unseen`,
        );
      });
    },
    { exclusive: EVENTS_SEEN_LOCK },
  );

  // The later event is the check's own, made after the earlier one (a higher id): with the lock held no other file
  // marks it. Whether a new event starts unseen is not shown: one that is already seen when made is not judged.
  check(
    'P1.events.seen.later-unseen',
    'POST seen of an event leaves a later unseen event unseen',
    async (c) => {
      const rule = 'P1.events.seen.later-unseen';
      // (every later one shown, the check's two and those the list's first page shows (others' events, an action
      // recorded beside each): a server marking one event too many marks the next, whichever it is)
      const [earlier, ...laterOnes] = await threeEvents(c);
      const firstPage = (bodyOf(await readPage(c, '/v4/account/events', 1)).data as Json[] | undefined) ?? [];
      const nextOnes = firstPage.filter((event) => typeof event.id === 'number' && event.id > (earlier!.id as number) && event.seen === false);
      const unseen: Json[] = [...nextOnes];
      for (const event of laterOnes) if (!unseen.some((shown) => shown.id === event!.id) && (await view(c, event!.id)).seen === false) unseen.push(event!);
      if (!unseen.length) c.skip(`the new events ${laterOnes.map((event) => String(event!.id)).join(', ')} show seen before any mark: nothing to tell`);
      c.expectSuccess(rule, await c.post(`/v4/account/events/${String(earlier!.id)}/seen`), `POST seen of event ${String(earlier!.id)}`);
      const marked = await viewMarked(c, earlier!.id, 'seen');
      if (marked.seen !== true) c.skip(`event ${String(earlier!.id)} is not seen after POST seen (P1.events.seen.marks-up-to-id judges it)`);
      // What is judged is that nothing changed: a read within the window may answer as before the mark (replica-reads
      // hid the fault so), so the reads come once it has passed.
      await waitOutWindow(c);
      for (const later of unseen) {
        const after = await c.get(`/v4/account/events/${String(later.id)}`);
        c.expect(
          rule,
          ok(after) && bodyOf(after).seen === false,
          `POST seen of event ${String(earlier!.id)} marked the later event ${String(later.id)} seen (it shows seen ${JSON.stringify(bodyOf(after).seen)})`,
          after,
        );
        // (an event the list's ends no longer hold, others' events made since, is not judged there)
        const listed = await findEvent(c, (event) => event.id === later.id);
        if (listed) c.expect(rule, listed.seen === false, `the events list shows the later event ${String(later.id)} with seen ${JSON.stringify(listed.seen)}`);
      }
    },
    { exclusive: EVENTS_SEEN_LOCK },
  );
});

describe('Event username', () => {
  // "username: user who caused the event". The user behind the suite's token cannot be read (profile endpoints are
  // not shown), so on any target: the events one token causes carry one name. With control hooks at the base URL a
  // user of a name of its own is minted, and the event it causes must carry that name.
  check('P1.event.username.causing-user', "the events a user causes carry that user's name", async (c) => {
    const rule = 'P1.event.username.causing-user';
    const mine = await Promise.all([fx.newFirewall(c), fx.newFirewall(c)].map(async (made) => eventOf(c, 'firewall_create', await made)));
    if (mine.some((event) => !event)) c.fail('P1.events.emission', 'creating a firewall recorded no firewall_create event');
    const names = mine.map((event) => event!.username);
    c.expect(rule, typeof names[0] === 'string' && names[0] === names[1], `two events the same token caused name the users ${JSON.stringify(names)}`);
    if (!controlAtBase(c)) return;
    const username = fx.label('evu', 30);
    const minted = await c.post('/__control/tokens', { scopes: '*', username }, { token: null });
    const token = bodyOf(minted).token;
    if (minted.status !== 200 || typeof token !== 'string') throw new Error(`the control hook POST /__control/tokens answered ${minted.status}`);
    registerSecret(token);
    const label = fx.label('fw', 32);
    const created = await c.post('/v4/networking/firewalls', { label, rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT' } }, { token });
    c.expectSuccess('P1.events.emission', created, `POST /v4/networking/firewalls as user ${username}`);
    // What a create answers is not shown: its id is the firewall's only when it shows the label sent.
    const id =
      (bodyOf(created).label === label ? integerId(bodyOf(created).id) : undefined) ??
      integerId((await fx.find(c, '/v4/networking/firewalls', (item) => item.label === label))?.id);
    if (id === undefined) throw new Error('cannot find the id of the new firewall');
    fx.track('firewall', id, label);
    const event =
      (await eventOf(c, 'firewall_create', { id, label })) ?? c.fail('P1.events.emission', `creating firewall ${id} recorded no firewall_create event`);
    c.expect(rule, event.username === username, `the firewall_create event caused by user ${username} names ${JSON.stringify(event.username)}`);
    c.expect(rule, event.username !== names[0], `events of user ${username} and of the suite's user both name ${JSON.stringify(names[0])}`);
  });
});
