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

const aCheck = () => ({}) as Check;
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

  it('tells nothing once an add answered the shape with an id other than the instance sent (the device own)', () => {
    devices.noteDeviceAdd(aCheck(), 1, 40, answered({ id: 2, type: 'compute' }));
    const listed = new devices.FirewallDevices(aCheck(), 9, [{ id: 17, type: 'compute' }]);
    expect(() => listed.deviceOf(17)).toThrow(/cannot be told/);
    expect(() => listed.holds(5)).toThrow(/cannot be told/);
  });

  it('is told by neither an answer showing the instance id, nor a refused add', () => {
    devices.noteDeviceAdd(aCheck(), 1, 40, answered({ id: 40, type: 'compute' }));
    devices.noteDeviceAdd(aCheck(), 1, 41, answered({ id: 2, type: 'compute' }, 400));
    expect(new devices.FirewallDevices(aCheck(), 9, [{ id: 17, type: 'compute' }]).deviceOf(17)).toBeDefined();
  });
});

describe("a device the check's add answered in the request shape", () => {
  it('is the instance added, on that firewall, in that check', () => {
    const c = aCheck();
    devices.noteDeviceAdd(c, 9, 40, answered({ id: '2', type: 'compute' }));
    devices.noteDeviceAdd(c, 9, 41, answered({ id: 41, type: 'compute' }));
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
