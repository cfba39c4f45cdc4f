// The checks of an instance's other firewalls, declared from specs/part3/firewalls.spec.ts by `otherFirewallChecks`
// (a module of that spec file, not a spec file: its checks lend the file's instances and their plan keys name it):
// removing a device leaves the instance on its other firewalls, a deleted firewall frees its instances (within a
// short time), and a disabled firewall is deleted as an enabled one is.
import { describe } from 'vitest';
import { check } from '../../harness/check.js';
import { readAfterWrite, untilShortlyDone } from '../../harness/consistency.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { addDevice, addDeviceOnceFree } from '../../harness/devices.js';
import { FW, devicesOf, type firewallHelpers } from './firewalls-support.js';

type Helpers = Pick<ReturnType<typeof firewallHelpers>, 'firewallIn' | 'judgeDelete'>;

export function otherFirewallChecks(fx: Fixtures, helpers: Helpers): void {
  const { firewallIn, judgeDelete } = helpers;

  // "`enabled` or `disabled` | DELETE firewall | | `deleted` (removed) | … event firewall_delete": a disabled firewall
  // too. Gone from view and list, or kept and shown as `deleted`: both readings are allowed.
  describe('Firewalls: delete of a disabled firewall', () => {
    check(
      ['P3.firewall.status.delete-removes', 'P3.firewall.event.delete'],
      'DELETE removes a disabled firewall or shows it deleted, in view and list, and emits firewall_delete',
      async (c) => judgeDelete(c, await firewallIn(c, 'disabled', { moved: true }), 'disabled firewall'),
    );
  });

  describe('Firewall devices: other firewalls of the instance', () => {
    // "rules of other assigned firewalls stay": what is filtered is not observable, the assignment is. Its other
    // firewall, disabled, can then be enabled: no other enabled firewall is assigned to the instance (when the removed
    // one's rules leave it is not shown: the enable is sent again while a short time passes).
    check(
      ['P3.firewall.device.remove-keeps-other-firewalls', 'P3.firewall.status.disabled-to-enabled'],
      'removing an instance from one firewall leaves it a device of its other firewall, which can then be enabled',
      (c) =>
        fx.withLentInstances(c, 1, async ([instance]) => {
          const rule = 'P3.firewall.device.remove-keeps-other-firewalls';
          const [active, disabled] = [await firewallIn(c, 'enabled'), await firewallIn(c, 'disabled')];
          for (const firewall of [active, disabled])
            c.expectSuccess(
              rule,
              await addDeviceOnceFree(c, firewall.id, instance.id),
              `adding the instance to the ${firewall === active ? 'enabled' : 'disabled'} firewall`,
            );
          const device = (await devicesOf(c, active.id, [instance.id])).deviceOf(instance.id);
          if (!device || (typeof device.id !== 'number' && typeof device.id !== 'string'))
            throw new Error('setup: the added device has no id in the devices list');
          if (!(await devicesOf(c, disabled.id, [instance.id])).deviceOf(instance.id))
            throw new Error(`setup: instance ${instance.id} is not listed as a device of the disabled firewall ${disabled.id}`);
          c.expectSuccess(rule, await c.delete(`${FW}/${active.id}/devices/${device.id}`), 'DELETE the device of the enabled firewall');
          await readAfterWrite(
            c,
            () => devicesOf(c, active.id),
            (read) => !read.holds(instance.id),
          );
          c.expect(
            rule,
            (await devicesOf(c, disabled.id)).deviceOf(instance.id),
            `removing instance ${instance.id} from firewall ${active.id} also removed it from firewall ${disabled.id}`,
          );
          const enabled = await untilShortlyDone(
            c,
            () => c.put(`${FW}/${disabled.id}`, { status: 'enabled' }),
            (exchange) => exchange.status >= 200 && exchange.status < 300,
          );
          c.expectSuccess('P3.firewall.status.disabled-to-enabled', enabled, `enabling firewall ${disabled.id}, the instance's only firewall left`);
          // (the lent instance goes back under no enabled firewall, as it came)
          if (enabled.status >= 200 && enabled.status < 300) await c.put(`${FW}/${disabled.id}`, { status: 'disabled' });
        }),
    );

    // One active firewall per instance, and a deleted firewall is `deleted` (removed): it no longer holds the instance.
    // When its rules are removed from the instance is not shown: the add is sent again while a short time passes.
    check('P3.firewall.delete.frees-instances', 'after its enabled firewall is deleted, an instance can join another enabled firewall', (c) =>
      fx.withLentInstances(c, 1, async ([instance]) => {
        const rule = 'P3.firewall.delete.frees-instances';
        const first = await firewallIn(c, 'enabled');
        c.expectSuccess(rule, await addDeviceOnceFree(c, first.id, instance.id), 'adding the instance to an enabled firewall');
        if (!(await devicesOf(c, first.id, [instance.id])).deviceOf(instance.id))
          throw new Error(`setup: instance ${instance.id} is not listed as a device of firewall ${first.id}`);
        const second = await firewallIn(c, 'enabled');
        c.expectRejected(rule, await addDevice(c, second.id, instance.id), 'adding the instance to a second enabled firewall while the first exists');
        c.expectSuccess(rule, await c.delete(`${FW}/${first.id}`), 'DELETE the first firewall');
        const added = await untilShortlyDone(
          c,
          () => addDevice(c, second.id, instance.id),
          (exchange) => exchange.status >= 200 && exchange.status < 300,
        );
        c.expectSuccess(rule, added, `adding the instance to the enabled firewall ${second.id} after its firewall ${first.id} was deleted`);
        c.expect(
          rule,
          (await devicesOf(c, second.id, [instance.id])).deviceOf(instance.id),
          `instance ${instance.id} is not a device of firewall ${second.id} after an accepted add`,
        );
      }),
    );
  });
}
