// Which instance a firewall device is (harness/devices.ts): told by a member naming it, or by the add that answered
// it; a device in the request's shape ({id, type: 'compute'}) otherwise found by its id read as the instance's, never
// failed on that reading alone ("Fields of a device as returned: not shown": its id may be the device's own).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Check } from '../../harness/check.js';
import type { Exchange } from '../../harness/http.js';

type Devices = typeof import('../../harness/devices.js');

/** A fresh copy of the module: whether the target shows devices' own ids in the request's shape is learned once per run. */
let devices: Devices;
beforeEach(async () => {
  vi.resetModules();
  devices = await import('../../harness/devices.js');
});

/** A check on the target `baseUrl` whose GETs of a firewall's devices answer `listed()` (one page). */
const aCheck = (listed: () => object[] = () => [], baseUrl = 'http://target') =>
  ({
    target: { info: { baseUrl, config: { consistencyWindowMs: 0 } } },
    record: {},
    get: (path: string) => {
      const data = listed();
      return Promise.resolve({ status: 200, path, body: { data, page: 1, pages: 1, results: data.length } });
    },
  }) as unknown as Check;
const answered = (body: unknown, status = 200) => ({ status, body }) as Exchange;

describe('a device naming its instance', () => {
  it('is that instance, shown as 17 or "17", in entity.id, entity_id or compute_id', () => {
    const listed = new devices.FirewallDevices(aCheck(), 9, [
      { id: '3', entity: { id: '17', type: 'compute' } },
      { id: 4, entity_id: 18 },
      { id: 5, type: 'compute', compute_id: 19 },
    ]);
    expect([17, 18, 19].map((id) => listed.deviceOf(id)?.id)).toEqual(['3', 4, 5]);
    expect([listed.holds(17), listed.holds(3), listed.deviceOf(3), listed.mayHold(3)]).toEqual([true, false, undefined, false]);
  });
});

describe('a device in the request shape, no add of the check having answered it', () => {
  it("is found by its id read as the instance's, and judged nowhere else", () => {
    const listed = new devices.FirewallDevices(aCheck(), 9, [{ id: '17', type: 'compute' }]);
    expect(listed.deviceOf(17)).toEqual({ id: '17', type: 'compute' });
    expect(() => listed.deviceOf(5)).toThrow(/cannot be told/);
    expect(() => listed.holds(17)).toThrow(/cannot be told/);
    // (its id read as the instance's says no; the device's own id says nothing)
    expect(listed.holds(5)).toBe(false);
    expect(listed.mayHold(5)).toBe(true);
  });

  it('tells nothing once an add answered the shape with an id other than the instance sent (the device own)', async () => {
    await devices.noteDeviceAdd(aCheck(), 1, 40, answered({ id: 2, type: 'compute' }));
    const listed = new devices.FirewallDevices(aCheck(), 9, [{ id: 17, type: 'compute' }]);
    expect(() => listed.deviceOf(17)).toThrow(/cannot be told/);
    expect(() => listed.holds(5)).toThrow(/cannot be told/);
  });

  it('is told by neither an answer showing the instance id, nor a refused add', async () => {
    await devices.noteDeviceAdd(aCheck(), 1, 40, answered({ id: 40, type: 'compute' }));
    await devices.noteDeviceAdd(aCheck(), 1, 41, answered({ id: 2, type: 'compute' }, 400));
    expect(new devices.FirewallDevices(aCheck(), 9, [{ id: 17, type: 'compute' }]).deviceOf(17)).toBeDefined();
  });
});

describe("a device the check's add answered in the request shape", () => {
  it('is the instance added, on that firewall, in that check', async () => {
    const c = aCheck();
    await devices.noteDeviceAdd(c, 9, 40, answered({ id: '2', type: 'compute' }));
    await devices.noteDeviceAdd(c, 9, 41, answered({ id: 41, type: 'compute' }));
    const listed = new devices.FirewallDevices(c, 9, [
      { id: 2, type: 'compute' },
      { id: 41, type: 'compute' },
    ]);
    expect([listed.deviceOf(40)?.id, listed.deviceOf(41)?.id, listed.holds(2), listed.holds(40)]).toEqual([2, 41, false, true]);
    expect(devices.showsDeviceOf(c, 9, 40)({ id: '2', type: 'compute' })).toBe(true);
    expect(() => new devices.FirewallDevices(c, 10, [{ id: 2, type: 'compute' }]).deviceOf(40)).toThrow(/cannot be told/);
    expect(() => new devices.FirewallDevices(aCheck(), 9, [{ id: 2, type: 'compute' }]).deviceOf(40)).toThrow(/cannot be told/);
  });
});

describe('a device showing no instance in any of the forms read', () => {
  it('leaves a lookup of any instance nothing to judge, and a lagging list no reason to be read again', () => {
    const listed = new devices.FirewallDevices(aCheck(), 9, [{ id: '3' }]);
    expect(() => listed.deviceOf(17)).toThrow(/cannot be told/);
    expect(listed.settledFor([17])).toBe(true);
    expect(new devices.FirewallDevices(aCheck(), 9, []).settledFor([17])).toBe(false);
  });
});

describe("a device the check's add did not answer (the firewall, say)", () => {
  /** A firewall listing `before`, then `after` once the add is sent. */
  const firewall = (before: object[], after: object[]) => {
    let added = false;
    return { c: aCheck(() => (added ? after : before)), add: () => (added = true) };
  };
  const firewallAnswer = answered({ id: 9, label: 'fw', status: 'enabled' });

  it('is the one new device in the request shape its list shows after, where the list was read before the add', async () => {
    const { c, add } = firewall(
      [{ id: 3, type: 'compute' }],
      [
        { id: 3, type: 'compute' },
        { id: 4, type: 'compute' },
      ],
    );
    await devices.readDevicesBeforeAdd(c, 9);
    add();
    await devices.noteDeviceAdd(c, 9, 40, firewallAnswer);
    const listed = new devices.FirewallDevices(c, 9, [
      { id: 3, type: 'compute' },
      { id: 4, type: 'compute' },
    ]);
    expect(listed.deviceOf(40)?.id).toBe(4);
    // (its id is the device's own: the other device, in the same shape, names no instance now)
    expect(() => listed.deviceOf(3)).toThrow(/cannot be told/);
  });

  it('stays untold where two devices are new, or the list was not read before the add', async () => {
    const two = firewall(
      [],
      [
        { id: 4, type: 'compute' },
        { id: 5, type: 'compute' },
      ],
    );
    await devices.readDevicesBeforeAdd(two.c, 9);
    two.add();
    await devices.noteDeviceAdd(two.c, 9, 40, firewallAnswer);
    expect(() => new devices.FirewallDevices(two.c, 9, [{ id: 4, type: 'compute' }]).deviceOf(40)).toThrow(/cannot be told/);
    const unread = firewall([], [{ id: 4, type: 'compute' }]);
    unread.add();
    await devices.noteDeviceAdd(unread.c, 9, 40, firewallAnswer);
    expect(() => new devices.FirewallDevices(unread.c, 9, [{ id: 4, type: 'compute' }]).deviceOf(40)).toThrow(/cannot be told/);
  });

  it("is none the check's lists of that firewall showed before (a replica answering as before a device's removal)", async () => {
    const { c, add } = firewall([], [{ id: 6, type: 'compute' }]);
    // an earlier read of the check showed device 6 (removed since; a lagging replica lists it again after the add)
    new devices.FirewallDevices(c, 9, [{ id: 6, type: 'compute' }]);
    await devices.readDevicesBeforeAdd(c, 9);
    add();
    await devices.noteDeviceAdd(c, 9, 40, firewallAnswer);
    expect(() => new devices.FirewallDevices(c, 9, [{ id: 6, type: 'compute' }]).deviceOf(40)).toThrow(/cannot be told/);
  });

  it('needs no list read before an add once the target answered an add with the device, and learns per target', async () => {
    let reads = 0;
    const counting = aCheck(() => (reads++, []));
    await devices.noteDeviceAdd(counting, 9, 40, answered({ id: 2, entity: { id: 40, type: 'compute' } }));
    await devices.readDevicesBeforeAdd(counting, 9);
    expect(reads).toBe(0);
    await devices.readDevicesBeforeAdd(
      aCheck(() => (reads++, []), 'http://another'),
      9,
    );
    expect(reads).toBeGreaterThan(0);
  });

  it("needs no list read before an add once a list of the target named a device's instance", async () => {
    let reads = 0;
    const c = aCheck(() => (reads++, [{ id: 2, entity: { id: 40, type: 'compute' } }]));
    await devices.readDevicesBeforeAdd(c, 9);
    await devices.readDevicesBeforeAdd(c, 10);
    await devices.noteDeviceAdd(c, 10, 41, answered({ id: 10, label: 'fw' }));
    expect(reads).toBe(1);
  });
});
