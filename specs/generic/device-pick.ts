// The firewalls and devices the device recipes take: a fresh disabled firewall each time, and the file's instance.
import type { Check } from '../../harness/check.js';
import { addDevice, readDevicesBeforeAdd } from '../../harness/devices.js';
import { SetupError, type Fixtures } from '../../harness/fixtures.js';
import { addedDeviceId } from '../part3/firewalls-support.js';

/**
 * A fresh firewall, disabled: added to the file's shared instance it never gives the instance a second enabled
 * firewall (a disabled one may be added to an instance that has an active one), so a device needs no instance of its own.
 */
async function disabledFirewall(c: Check, fx: Fixtures): Promise<{ id: number }> {
  const firewall = await fx.newFirewall(c);
  const put = await c.put(`/v4/networking/firewalls/${firewall.id}`, { status: 'disabled' });
  if (put.status < 200 || put.status >= 300) throw new SetupError(`could not disable a new firewall: HTTP ${put.status}`);
  return firewall;
}

/** What a device add sends, its firewall's devices read first (`readDevicesBeforeAdd`: what tells the device it makes). */
export async function deviceToAdd(c: Check, fx: Fixtures): Promise<{ firewallId: number; instanceId: number }> {
  const [firewall, instance] = [await disabledFirewall(c, fx), await fx.instance(c)];
  await readDevicesBeforeAdd(c, firewall.id);
  return { firewallId: firewall.id, instanceId: instance.id };
}

/** A device added for the check (for its removal). */
export async function addedDevice(c: Check, fx: Fixtures): Promise<{ firewallId: number; id: number | string }> {
  const [firewall, instance] = [await disabledFirewall(c, fx), await fx.instance(c)];
  const id = await addedDeviceId(c, firewall.id, instance.id, await addDevice(c, firewall.id, instance.id));
  if (id === undefined) throw new SetupError('cannot find the id of a new firewall device (devices as returned are not shown)');
  return { firewallId: firewall.id, id };
}
