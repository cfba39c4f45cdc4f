// Document 3, "Firewall", "Firewall status", "Firewalls" and the firewall rows of "Limits": the lifecycle of a
// firewall (create, status changes, delete) and its events, devices and the one-enabled-firewall-per-instance rule,
// rules replacement and the rule limits (25 rules, 255 addresses, the ports grammar, ICMP without ports).
// Response bodies of the firewall endpoints are not shown beyond the firewall fields: created firewalls and devices
// are found again in their lists, and events by their action and entity.
import { describe } from 'vitest';
import { check } from '../../harness/check.js';
import { readAfterWrite, waitOutWindow } from '../../harness/consistency.js';
import { listItems as listAll } from '../../harness/lists.js';
import { useFixtures } from '../../harness/fixtures.js';
import { addDevice, addDeviceOnceFree } from '../../harness/devices.js';
import { integerId } from '../../harness/ids.js';
import { namesField } from '../../harness/error-bodies.js';
import {
  FW,
  devicesOf,
  firewallHelpers,
  firewallView,
  rulesOf,
  settledStatus,
  sourceEntries,
  statusOf,
  storedRules,
  tcpRule,
  type Json,
  policiesAre,
} from './firewalls-support.js';
import { otherFirewallChecks } from './firewalls-other.js';
import { portsChecks } from './firewalls-ports.js';

const fx = useFixtures('part3-firewalls');

/** The status changes a PUT makes (document 3, Firewall status), each with its event. */
const STATUS_CHANGES = [
  {
    from: 'enabled',
    to: 'disabled',
    rule: 'P3.firewall.status.enabled-to-disabled',
    event: 'firewall_disable',
    eventRule: 'P3.firewall.event.disable',
    title: 'PUT status disabled disables an enabled firewall and emits firewall_disable',
    when: 'on an enabled firewall',
  },
  {
    from: 'disabled',
    to: 'enabled',
    rule: 'P3.firewall.status.disabled-to-enabled',
    event: 'firewall_enable',
    eventRule: 'P3.firewall.event.enable',
    title: 'PUT status enabled enables a disabled firewall and emits firewall_enable',
    when: 'on a disabled firewall with no other enabled firewall on its instances',
  },
] as const;
const { findEvent, eventsNaming, noEventYet, createFirewall, firewallIn, judgeDelete } = firewallHelpers(fx);

describe('Firewalls: create and its event', () => {
  check('P3.firewall.event.create', 'POST firewall emits firewall_create naming the new firewall', async (c) => {
    const firewall = await fx.newFirewall(c);
    c.expect(
      'P3.firewall.event.create',
      await findEvent(c, 'firewall_create', firewall),
      `no firewall_create event names firewall ${firewall.id} (${firewall.label})`,
    );
  });

  // A disabled firewall still exists (document 3, "Firewall status": only a DELETE removes one): it holds its label.
  for (const holder of ['enabled', 'disabled'] as const)
    check('P3.firewall.label.unique', `a label an ${holder} firewall holds is refused on create and on rename`, async (c) => {
      const first = await firewallIn(c, holder);
      const second = await fx.newFirewall(c);
      const duplicate = await createFirewall(c, { label: first.label });
      c.expectRejected('P3.firewall.label.unique', duplicate.exchange, `POST firewall with the label of an ${holder} firewall`, 'label');
      const rename = await c.put(`${FW}/${second.id}`, { label: first.label });
      c.expectRejected('P3.firewall.label.unique', rename, `PUT firewall renaming it to the label of an ${holder} firewall`, 'label');
      const view = await c.get(`${FW}/${second.id}`);
      c.expect(
        'P3.firewall.label.unique',
        (view.body as Json | undefined)?.label === second.label,
        'the firewall took the label of another firewall after a refused rename',
        view,
      );
      // Read until it lists the first firewall once (within the window): a replica may answer as before its create.
      const namedIn = (items: Json[]) => items.filter((item) => item.label === first.label);
      const named = namedIn(await listAll(c, FW, undefined, { until: (items) => namedIn(items).length === 1 }));
      c.expect('P3.firewall.label.unique', named.length === 1, `${named.length} firewalls are listed with the label ${first.label}`);
    });

  check('P3.firewall-create.devices.assigned', 'the instances of devices.computes become devices of the new firewall', (c) =>
    fx.withLentInstances(c, 2, async ([one, two]) => {
      const created = await createFirewall(c, { devices: { computes: [one.id, two.id] } }, { expected: true });
      c.expectSuccess('P3.firewall-create.devices.assigned', created.exchange, 'POST firewall with devices.computes');
      if (created.id === undefined) throw new Error('created a firewall but cannot find its id in the list');
      const devices = await devicesOf(c, created.id, [one.id, two.id]);
      if (devices.cannotTellAll([one.id, two.id])) {
        // Which device is which instance's is not shown (harness/devices.ts): every reading agrees there is one for each.
        const listed = devices.items.length;
        c.expect('P3.firewall-create.devices.assigned', listed === 2, `the new firewall lists ${listed} devices for the 2 instances in devices.computes`);
        return;
      }
      for (const instance of [one, two])
        c.expect(
          'P3.firewall-create.devices.assigned',
          devices.deviceOf(instance.id),
          `instance ${instance.id} given in devices.computes is not a device of the new firewall`,
        );
    }),
  );

  // The instance without read_write is listed after one with it: every listed instance needs the grant.
  check('P3.firewall-create.grants', 'creating a firewall on instances needs read_write on each', (c) =>
    fx.withLentInstances(c, 2, async ([instance, granted]) => {
      const global = { add_firewalls: true };
      const tokenWith = (level: 'read_only' | 'read_write') =>
        c.principal({
          scopes: '*',
          restricted: true,
          grants: { global, entities: { compute: { [String(granted.id)]: 'read_write', [String(instance.id)]: level } } },
        });
      const devices = { computes: [granted.id, instance.id] };
      const denied = await createFirewall(c, { devices }, { token: await tokenWith('read_only') });
      c.expectRejected(
        'P3.firewall-create.grants',
        denied.exchange,
        'POST firewall by a restricted user with read_write on the first listed instance, read_only on the second',
      );
      // (sent again while refused as for a busy instance: a firewall the check before deleted may hold them a while)
      const allowed = await createFirewall(c, { devices }, { token: await tokenWith('read_write'), expected: true });
      c.expectSuccess('P3.firewall-create.grants', allowed.exchange, 'POST firewall by a restricted user with read_write on both listed instances');
    }),
  );
});

describe('Firewall status', () => {
  check('P3.firewall.status.update-not-deleted', 'status cannot be set to deleted by update', async (c) => {
    const firewall = await fx.newFirewall(c);
    const put = await c.put(`${FW}/${firewall.id}`, { status: 'deleted' });
    c.expectRejected('P3.firewall.status.update-not-deleted', put, 'PUT firewall with status deleted', 'status');
    const view = await c.get(`${FW}/${firewall.id}`);
    c.expectSuccess('P3.firewall.status.update-not-deleted', view, 'GET the firewall after a refused status deleted');
    c.expect(
      'P3.firewall.status.update-not-deleted',
      (view.body as Json | undefined)?.status !== 'deleted',
      'the firewall shows status deleted after a refused update',
      view,
    );
  });

  for (const { from, to, rule, event, eventRule, title, when } of STATUS_CHANGES)
    check([rule, eventRule], title, async (c) => {
      const firewall = await firewallIn(c, from);
      // A create may have recorded the status the firewall started in: the PUT is judged by one event more.
      const before = await eventsNaming(c, event, firewall);
      c.expectSuccess(rule, await c.put(`${FW}/${firewall.id}`, { status: to }), `PUT status ${to} ${when}`);
      const view = await firewallView(c, firewall.id, to);
      const shown = (view.body as Json | undefined)?.status;
      c.expect(rule, shown === to, `the firewall is "${String(shown)}" after PUT status ${to}`, view);
      const after = await eventsNaming(c, event, firewall, before + 1);
      c.expect(eventRule, after > before, `no new ${event} event names firewall ${firewall.id} after it was ${to} (${before} before the PUT, ${after} after)`);
    });

  check(
    ['P3.firewall.status.enable-blocked-by-active', 'P3.firewall.status.disabled-to-enabled'],
    'a disabled firewall cannot be enabled while another enabled one is assigned to any of its instances',
    (c) =>
      fx.withLentInstances(c, 2, async (instances) => {
        const waiting = await firewallIn(c, 'disabled');
        // Each of its two instances in turn holds another enabled firewall: a server looking at one of a firewall's
        // instances only (its first, its last) enables it on the other's turn.
        for (const [turn, instance] of instances.entries()) {
          const active = await firewallIn(c, 'enabled');
          c.expectSuccess('P3.firewall.device.listed', await addDeviceOnceFree(c, active.id, instance.id), 'adding the instance to an enabled firewall');
          if (turn === 0)
            for (const each of instances)
              c.expectSuccess(
                'P3.firewall.device.disabled-may-be-added',
                await addDevice(c, waiting.id, each.id),
                `adding instance ${each.id} to a disabled firewall`,
              );
          const blocked = await c.put(`${FW}/${waiting.id}`, { status: 'enabled' });
          c.expectRejected(
            'P3.firewall.status.enable-blocked-by-active',
            blocked,
            `enabling a firewall one of whose two instances (${instance.id}) has another enabled firewall`,
          );
          c.expect(
            'P3.firewall.status.enable-blocked-by-active',
            (await statusOf(c, waiting.id, 'disabled')) === 'disabled',
            'the firewall is not disabled after a refused enable',
          );
          // Once the other one is disabled, nothing on this instance blocks it.
          c.expectSuccess('P3.firewall.status.enabled-to-disabled', await c.put(`${FW}/${active.id}`, { status: 'disabled' }), 'disabling the other firewall');
          c.expect(
            'P3.firewall.status.enabled-to-disabled',
            (await statusOf(c, active.id, 'disabled')) === 'disabled',
            'the other firewall is not disabled after PUT status disabled',
          );
        }
        const enable = await c.put(`${FW}/${waiting.id}`, { status: 'enabled' });
        c.expectSuccess('P3.firewall.status.disabled-to-enabled', enable, 'enabling the firewall once the others were disabled');
        c.expect('P3.firewall.status.disabled-to-enabled', (await statusOf(c, waiting.id, 'enabled')) === 'enabled', 'the firewall is not enabled');
      }),
  );

  // "`deleted` (removed)": gone from view and list, or kept and shown as `deleted`; both readings are allowed.
  check(
    ['P3.firewall.status.delete-removes', 'P3.firewall.event.delete'],
    'DELETE removes the firewall or shows it deleted, in view and list, and emits firewall_delete',
    async (c) => judgeDelete(c, await fx.newFirewall(c), 'firewall'),
  );
});

describe('Firewall devices', () => {
  check(
    ['P3.firewall.device.listed', 'P3.firewall.event.device-add', 'P3.firewall.view.no-devices'],
    "an added device is listed, can be viewed, and firewall_device_add is emitted; the firewall's view shows no device",
    (c) =>
      fx.withLentInstances(c, 1, async ([instance]) => {
        const firewall = await fx.newFirewall(c);
        const added = await addDeviceOnceFree(c, firewall.id, instance.id);
        c.expectSuccess('P3.firewall.device.listed', added, 'POST device');
        const device = (await devicesOf(c, firewall.id, [instance.id])).deviceOf(instance.id);
        c.expect('P3.firewall.device.listed', device, `instance ${instance.id} is not in the devices list of firewall ${firewall.id}`);
        const deviceId = device!.id ?? (added.body as Json | undefined)?.id;
        if (typeof deviceId === 'number' || typeof deviceId === 'string') {
          const view = await c.get(`${FW}/${firewall.id}/devices/${deviceId}`);
          c.expectSuccess('P3.firewall.device.listed', view, 'GET the device');
        }
        // (judged by the view's schema: no device shown while the firewall has one)
        await c.get(`${FW}/${firewall.id}`);
        c.expect(
          'P3.firewall.event.device-add',
          await findEvent(c, 'firewall_device_add', firewall),
          `no firewall_device_add event names firewall ${firewall.id}`,
        );
      }),
  );

  check('P3.firewall.device.many-instances', 'one firewall is assigned to several instances', (c) =>
    fx.withLentInstances(c, 3, async (instances) => {
      const firewall = await fx.newFirewall(c);
      for (const instance of instances)
        c.expectSuccess('P3.firewall.device.many-instances', await addDeviceOnceFree(c, firewall.id, instance.id), `adding instance ${instance.id}`);
      const devices = await devicesOf(
        c,
        firewall.id,
        instances.map((instance) => instance.id),
      );
      for (const instance of instances)
        c.expect('P3.firewall.device.many-instances', devices.deviceOf(instance.id), `instance ${instance.id} is not a device of the firewall`);
    }),
  );

  check('P3.firewall.device.one-active-per-instance', 'a second enabled firewall cannot be assigned to an instance', (c) =>
    fx.withLentInstances(c, 2, async ([instance, free]) => {
      const first = await firewallIn(c, 'enabled');
      c.expectSuccess(
        'P3.firewall.device.one-active-per-instance',
        await addDeviceOnceFree(c, first.id, instance.id),
        'adding the instance to the first enabled firewall',
      );
      const second = await firewallIn(c, 'enabled');
      const refused = await addDevice(c, second.id, instance.id);
      c.expectRejected('P3.firewall.device.one-active-per-instance', refused, 'adding the instance to a second enabled firewall', 'id');
      c.expect(
        'P3.firewall.device.one-active-per-instance',
        !(await devicesOf(c, second.id)).holds(instance.id),
        'the instance is a device of the second enabled firewall after a refused add',
      );
      // The instance with an enabled firewall is listed after a free one: every listed instance is held to the rule.
      // (sent again while the refusal names the free instance: a firewall the check before deleted may hold it a while)
      const created = await createFirewall(
        c,
        { devices: { computes: [free.id, instance.id] } },
        { refusedFor: (refusal) => namesField(refusal, 'devices.computes.0') !== true },
      );
      if (created.exchange.status >= 200 && created.exchange.status < 300) {
        // A server that creates firewalls disabled may assign this one: a disabled firewall may join the instance.
        // (Created enabled without the instance, it broke devices.assigned, judged with free instances.)
        const onIt = async (id: number) => {
          const devices = await devicesOf(c, id, [free.id, instance.id]);
          // (where which device is which instance's cannot be told, two devices are the two instances)
          return devices.cannotTellAll([free.id, instance.id]) ? devices.items.length === 2 : devices.deviceOf(instance.id) !== undefined;
        };
        const enabledOnIt = created.id !== undefined && (await settledStatus(c, created.id)) === 'enabled' && (await onIt(created.id));
        c.expect(
          'P3.firewall.device.one-active-per-instance',
          !enabledOnIt,
          `POST firewall listing instances ${free.id} and ${instance.id}, the latter with an enabled firewall, created a second enabled firewall on it`,
          created.exchange,
        );
      } else
        c.expectRejected(
          'P3.firewall.device.one-active-per-instance',
          created.exchange,
          'POST an (enabled) firewall listing a free instance and one that has an enabled firewall',
          'devices.computes.1',
        );
    }),
  );

  check('P3.firewall.device.disabled-may-be-added', 'a disabled firewall can be added to an instance that has an active one', (c) =>
    fx.withLentInstances(c, 1, async ([instance]) => {
      const active = await firewallIn(c, 'enabled');
      c.expectSuccess(
        'P3.firewall.device.disabled-may-be-added',
        await addDeviceOnceFree(c, active.id, instance.id),
        'adding the instance to an enabled firewall',
      );
      const disabled = await firewallIn(c, 'disabled');
      const added = await addDevice(c, disabled.id, instance.id);
      c.expectSuccess('P3.firewall.device.disabled-may-be-added', added, 'adding the instance to a disabled firewall while it has an enabled one');
      c.expect(
        'P3.firewall.device.disabled-may-be-added',
        (await devicesOf(c, disabled.id, [instance.id])).deviceOf(instance.id),
        'the instance is not a device of the disabled firewall',
      );
      c.expect(
        'P3.firewall.device.disabled-may-be-added',
        (await devicesOf(c, active.id, [instance.id])).deviceOf(instance.id),
        'the instance left its enabled firewall',
      );
    }),
  );

  check(['P3.firewall.device.remove', 'P3.firewall.event.device-remove'], 'DELETE device removes it from the list and emits firewall_device_remove', (c) =>
    fx.withLentInstances(c, 2, async ([instance, other]) => {
      const firewall = await fx.newFirewall(c);
      for (const each of [instance, other]) c.expectSuccess('P3.firewall.device.remove', await addDeviceOnceFree(c, firewall.id, each.id), 'adding a device');
      const device = (await devicesOf(c, firewall.id, [instance.id, other.id])).deviceOf(instance.id);
      if (!device || (typeof device.id !== 'number' && typeof device.id !== 'string')) throw new Error('setup: the added device has no id in the devices list');
      c.expect(
        'P3.firewall.event.device-remove',
        await noEventYet(c, 'firewall_device_remove', firewall),
        'a firewall_device_remove event names a firewall that lost no device',
      );
      c.expectSuccess('P3.firewall.device.remove', await c.delete(`${FW}/${firewall.id}/devices/${device.id}`), 'DELETE device');
      const devices = await readAfterWrite(
        c,
        () => devicesOf(c, firewall.id),
        (read) => !read.holds(instance.id),
      );
      c.expect('P3.firewall.device.remove', !devices.holds(instance.id), 'the removed instance is still a device of the firewall');
      c.expect('P3.firewall.device.remove', devices.deviceOf(other.id), 'removing one device removed another one too');
      const view = await readAfterWrite(
        c,
        () => c.get(`${FW}/${firewall.id}/devices/${device.id}`),
        (read) => read.status >= 400 && read.status < 500,
      );
      c.expect('P3.firewall.device.remove', view.status >= 400 && view.status < 500, `GET a removed device answered HTTP ${view.status}`, view);
      c.expect(
        'P3.firewall.event.device-remove',
        await findEvent(c, 'firewall_device_remove', firewall),
        `no firewall_device_remove event names firewall ${firewall.id}`,
      );
    }),
  );
});

otherFirewallChecks(fx, { firewallIn, judgeDelete });

describe('Firewall update and rules update', () => {
  check('P3.firewall-update.devices-rules-unchanged', 'rules and devices given to PUT firewall leave them as they were', (c) =>
    fx.withLentInstances(c, 2, async ([instance, other]) => {
      const rules = { inbound_policy: 'DROP', outbound_policy: 'ACCEPT', inbound: [tcpRule('22')], outbound: [tcpRule('443')] };
      const created = await createFirewall(c, { rules, devices: { computes: [instance.id] } }, { expected: true });
      if (created.id === undefined) throw new Error(`setup: could not create a firewall with a device (HTTP ${created.exchange.status})`);
      const before = await devicesOf(c, created.id, [instance.id]);
      const assigned = `instance ${instance.id} given in devices.computes is not a device of the new firewall`;
      c.expect('P3.firewall-create.devices.assigned', before.mayHold(instance.id), assigned);
      await c.put(`${FW}/${created.id}`, {
        label: fx.label('fw', 32),
        rules: { inbound_policy: 'ACCEPT', outbound_policy: 'DROP', inbound: [tcpRule('8080'), tcpRule('8081')], outbound: [] },
        devices: { computes: [other.id] },
      });
      // (read once the window has passed: a read lagging the PUT shows what must not change unchanged, replica-reads)
      await waitOutWindow(c);
      for (const { what, value: after, exchange } of await storedRules(c, created.id)) {
        const inbound = after.inbound as Json[] | undefined;
        const outbound = after.outbound as Json[] | undefined;
        c.expect(
          'P3.firewall-update.devices-rules-unchanged',
          policiesAre(after, 'DROP', 'ACCEPT'),
          `${what}: the policies changed through PUT firewall (${String(after.inbound_policy)}/${String(after.outbound_policy)})`,
          exchange,
        );
        c.expect(
          'P3.firewall-update.devices-rules-unchanged',
          inbound?.length === 1 && inbound[0]?.ports === '22',
          `${what}: the inbound rules changed through PUT firewall: ${JSON.stringify(inbound)}`,
          exchange,
        );
        c.expect(
          'P3.firewall-update.devices-rules-unchanged',
          outbound?.length === 1 && outbound[0]?.ports === '443',
          `${what}: the outbound rules changed through PUT firewall: ${JSON.stringify(outbound)}`,
          exchange,
        );
      }
      // The devices are told by their own ids: which instance a device is may not be shown (a device's fields are not).
      const idsOf = (items: Json[]) => items.map((device) => integerId(device.id));
      const [was, now] = [idsOf(before.items), idsOf((await devicesOf(c, created.id)).items)];
      const ids = `devices ${JSON.stringify(was)} before the PUT, ${JSON.stringify(now)} after`;
      c.expect(
        'P3.firewall-update.devices-rules-unchanged',
        was.every((id) => now.includes(id)),
        `the firewall lost its device through PUT firewall (${ids})`,
      );
      c.expect(
        'P3.firewall-update.devices-rules-unchanged',
        now.every((id) => was.includes(id)),
        `PUT firewall added a device (${ids})`,
      );
    }),
  );

  check(
    ['P3.firewall.rules-update.replaces', 'P3.firewall.rules-update.omitted-unchanged'],
    'PUT rules replaces the directions given and keeps the others',
    async (c) => {
      const created = await createFirewall(c, {
        rules: { inbound_policy: 'ACCEPT', outbound_policy: 'DROP', inbound: [tcpRule('22'), tcpRule('80')], outbound: [tcpRule('53', { protocol: 'UDP' })] },
      });
      if (created.id === undefined) throw new Error(`setup: could not create a firewall with rules (HTTP ${created.exchange.status})`);
      const put = await c.put(`${FW}/${created.id}/rules`, { inbound: [tcpRule('443')] });
      c.expectSuccess('P3.firewall.rules-update.replaces', put, 'PUT rules with inbound only');
      for (const { what, value: rules, exchange } of await storedRules(c, created.id, (read) => (read?.inbound as Json[] | undefined)?.[0]?.ports === '443')) {
        const inbound = rules.inbound as Json[] | undefined;
        c.expect(
          'P3.firewall.rules-update.replaces',
          inbound?.length === 1 && inbound[0]?.ports === '443',
          `${what}: inbound should be exactly the one rule given, got ${JSON.stringify(inbound)}`,
          exchange,
        );
        const outbound = rules.outbound as Json[] | undefined;
        c.expect(
          'P3.firewall.rules-update.omitted-unchanged',
          outbound?.length === 1 && outbound[0]?.ports === '53' && outbound[0]?.protocol === 'UDP',
          `${what}: outbound (not given) changed: ${JSON.stringify(outbound)}`,
          exchange,
        );
        c.expect('P3.firewall.rules-update.omitted-unchanged', policiesAre(rules, 'ACCEPT', 'DROP'), `${what}: policies not given changed`, exchange);
      }
      // Replacing with an empty list empties the direction.
      c.expectSuccess(
        'P3.firewall.rules-update.replaces',
        await c.put(`${FW}/${created.id}/rules`, { outbound: [], outbound_policy: 'ACCEPT' }),
        'PUT rules with an empty outbound',
      );
      // (a read showing no policies shows the PUT only by its outbound: policiesAre holds before it too)
      const outboundEmpty = (rules: Json) =>
        Array.isArray(rules.outbound) ? (rules.outbound as unknown[]).length === 0 : rules.outbound === undefined || rules.outbound === null;
      for (const { what, value: emptied, exchange } of await storedRules(
        c,
        created.id,
        (read) => read !== undefined && policiesAre(read, 'ACCEPT', 'ACCEPT') && outboundEmpty(read),
      )) {
        c.expect(
          'P3.firewall.rules-update.replaces',
          outboundEmpty(emptied),
          `${what}: outbound should be empty, got ${JSON.stringify(emptied.outbound)}`,
          exchange,
        );
        const outboundPolicy = emptied.outbound_policy ?? 'ACCEPT';
        c.expect('P3.firewall.rules-update.replaces', outboundPolicy === 'ACCEPT', `${what}: the outbound policy given was not applied`, exchange);
        c.expect(
          'P3.firewall.rules-update.omitted-unchanged',
          (emptied.inbound as Json[] | undefined)?.length === 1,
          `${what}: inbound (not given) changed`,
          exchange,
        );
      }
    },
  );
});

describe('Firewall limits', () => {
  check('P3.firewall.rules.max-25', '25 rules across both directions are accepted, 26 are refused', async (c) => {
    const ok = await createFirewall(c, { rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: rulesOf(13), outbound: rulesOf(12, 2000) } });
    c.expectSuccess('P3.firewall.rules.max-25', ok.exchange, 'POST firewall with 13 inbound + 12 outbound rules');
    const over = await createFirewall(c, { rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: rulesOf(13), outbound: rulesOf(13, 2000) } });
    c.expectRejected('P3.firewall.rules.max-25', over.exchange, 'POST firewall with 13 inbound + 13 outbound rules', 'rules');
    const overOneSide = await createFirewall(c, { rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: rulesOf(26) } });
    c.expectRejected('P3.firewall.rules.max-25', overOneSide.exchange, 'POST firewall with 26 inbound rules', 'rules');
    const firewall = await fx.newFirewall(c);
    c.expectRejected(
      'P3.firewall.rules.max-25',
      await c.put(`${FW}/${firewall.id}/rules`, { inbound: rulesOf(20), outbound: rulesOf(6, 2000) }),
      'PUT rules with 20 inbound + 6 outbound',
    );
    c.expectSuccess(
      'P3.firewall.rules.max-25',
      await c.put(`${FW}/${firewall.id}/rules`, { inbound: rulesOf(20), outbound: rulesOf(5, 2000) }),
      'PUT rules with 20 inbound + 5 outbound',
    );
  });

  check('P3.firewall.rules.max-25-stored', 'replacing one direction so that the stored total exceeds 25 is refused', async (c) => {
    const created = await createFirewall(c, { rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', inbound: rulesOf(20) } });
    if (created.id === undefined) throw new Error(`setup: could not create a firewall with 20 rules (HTTP ${created.exchange.status})`);
    const over = await c.put(`${FW}/${created.id}/rules`, { outbound: rulesOf(6, 2000) });
    c.expectRejected('P3.firewall.rules.max-25-stored', over, 'PUT 6 outbound rules on a firewall holding 20 inbound ones');
    for (const { what, value: rules, exchange } of await storedRules(c, created.id)) {
      const count = ((rules.inbound as unknown[] | undefined)?.length ?? 0) + ((rules.outbound as unknown[] | undefined)?.length ?? 0);
      c.expect('P3.firewall.rules.max-25-stored', count === 20, `${what}: the firewall holds ${count} rules after a refused update (20 before)`, exchange);
    }
    c.expectSuccess(
      'P3.firewall.rules.max-25-stored',
      await c.put(`${FW}/${created.id}/rules`, { outbound: rulesOf(5, 2000) }),
      'PUT 5 outbound rules on a firewall holding 20 inbound ones',
    );
  });

  check('P3.firewall.rule.addresses.max-255', 'a rule takes 255 addresses or networks across ipv4 and ipv6, not 256', async (c) => {
    const v4 = (n: number) => sourceEntries('ipv4', n);
    const v6 = (n: number) => sourceEntries('ipv6', n);
    const firewall = await fx.newFirewall(c);
    const path = `${FW}/${firewall.id}/rules`;
    c.expectSuccess(
      'P3.firewall.rule.addresses.max-255',
      await c.put(path, { inbound: [tcpRule('22', { addresses: { ipv4: v4(200), ipv6: v6(55) } })] }),
      'a rule with 200 IPv4 + 55 IPv6 entries',
    );
    c.expectSuccess(
      'P3.firewall.rule.addresses.max-255',
      await c.put(path, { inbound: [tcpRule('22', { addresses: { ipv4: v4(255), ipv6: [] } })] }),
      'a rule with 255 IPv4 entries',
    );
    c.expectRejected(
      'P3.firewall.rule.addresses.max-255',
      await c.put(path, { inbound: [tcpRule('22', { addresses: { ipv4: v4(200), ipv6: v6(56) } })] }),
      'a rule with 200 IPv4 + 56 IPv6 entries',
      'inbound.0.addresses',
    );
    c.expectRejected(
      'P3.firewall.rule.addresses.max-255',
      await c.put(path, { inbound: [tcpRule('22', { addresses: { ipv4: [], ipv6: v6(256) } })] }),
      'a rule with 256 IPv6 entries',
      'inbound.0.addresses',
    );
    const created = await createFirewall(c, {
      rules: { inbound_policy: 'ACCEPT', outbound_policy: 'ACCEPT', outbound: [tcpRule('22', { addresses: { ipv4: v4(128), ipv6: v6(128) } })] },
    });
    c.expectRejected(
      'P3.firewall.rule.addresses.max-255',
      created.exchange,
      'POST firewall with a rule of 128 IPv4 + 128 IPv6 entries',
      'rules.outbound.0.addresses',
    );
  });
});

portsChecks(fx);
