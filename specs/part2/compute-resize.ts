// The checks of "Resize preconditions", declared from specs/part2/compute.spec.ts by `resizeChecks` (a module of that
// spec file, not a spec file: its checks share the file's fixtures and their plan keys name it): a resize to a type
// smaller than the disk allocation, and one during a running clone.
import { describe } from 'vitest';
import { check } from '../../harness/check.js';
import { onceNotBusy } from '../../harness/consistency.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { cloningBothWays } from './clone-busy.js';
import { diskAllocation, instanceWithSwapOver, INSTANCES, newInstance, ok, onceClonesEnd, whileCloning } from './compute-support.js';
import { sendAtRest } from './instance-power.js';
import { expectResized } from './resize-support.js';

export function resizeChecks(fx: Fixtures): void {
  describe('Resize preconditions', () => {
    check('P2.resize.disk-allocation', 'a resize to a type smaller than the disk allocation is rejected', async (c) => {
      const config = c.target.info.config;
      // Its swap disk alone exceeds the smaller type's allocation, however big its image's disk is (not shown).
      const smaller = await diskAllocation(c, (await fx.instance(c)).id);
      const full = await instanceWithSwapOver(c, fx, smaller, { type: config.largerInstanceType });
      // Without the automatic disk resize (default true): what it does on a smaller type is not shown, perhaps shrink.
      // Sent once the instance is idle and offline, as the control's empty instance is: not refused for its own create.
      const refused = await sendAtRest(c, [full.id], () =>
        c.post(`${INSTANCES}/${full.id}/resize`, { type: config.instanceType, allow_auto_disk_resize: false }),
      );
      c.expectRejected(
        'P2.resize.disk-allocation',
        refused,
        `resizing a ${config.largerInstanceType} with a swap disk over ${smaller} MB down to ${config.instanceType} (${smaller} MB)`,
      );
      const empty = await newInstance(c, fx, { type: config.largerInstanceType });
      await expectResized(
        c,
        'P2.resize.disk-allocation',
        await onceNotBusy(c, () => c.post(`${INSTANCES}/${empty.id}/resize`, { type: config.instanceType })),
        `resizing an instance without disks down to ${config.instanceType}`,
      );
      // At the bound: deployed from an image on the smaller type, its disks fit it ("does not exceed"; filling it is the
      // usual layout), and a resize up without the automatic disk resize leaves them so: back down is taken.
      const deployed = await newInstance(c, fx, { image: true });
      for (const type of [config.largerInstanceType, config.instanceType])
        await expectResized(
          c,
          'P2.resize.disk-allocation',
          await sendAtRest(c, [deployed.id], () => c.post(`${INSTANCES}/${deployed.id}/resize`, { type, allow_auto_disk_resize: false })),
          `resizing an instance deployed from an image on ${config.instanceType} to ${type} without the automatic disk resize`,
        );
    });

    // Whether a running clone is an action of its source or of its target is not shown: the instance is both at once.
    check('P2.resize.no-running-actions', 'a resize during a running clone is rejected', async (c) => {
      const config = c.target.info.config;
      const {
        started: { id },
        exchange: resize,
      } = await whileCloning(
        c,
        fx,
        () => cloningBothWays(c, fx),
        ({ id }) => c.post(`${INSTANCES}/${id}/resize`, { type: config.largerInstanceType }),
      );
      if (ok(resize)) c.fail('P2.resize.no-running-actions', 'a resize was accepted while a clone onto the instance and one from it were running', resize);
      c.expectRejected('P2.resize.no-running-actions', resize, 'resizing during a clone onto the instance and one from it');
      await expectResized(
        c,
        'P2.resize.no-running-actions',
        await onceClonesEnd(c, () => c.post(`${INSTANCES}/${id}/resize`, { type: config.largerInstanceType })),
        'the same resize once the clones had time to finish',
      );
    });
  });
}
