// Which events name a firewall (specs/part3/firewalls-support.ts `namesFirewall`): by label, by id only where the
// entity shows no label. A deleted firewall's id may be given again (not shown; variation `firewall-ids-reused`), and
// its events still name that id under its own label.
import { describe, expect, it } from 'vitest';
import { namesFirewall } from '../../specs/part3/firewalls-support.js';

const FIREWALL = { id: 7, label: 'run1-fw-new' };
const event = (entity: Record<string, unknown>, secondary: Record<string, unknown> | null = null) => ({
  action: 'firewall_delete',
  entity,
  secondary_entity: secondary,
});

describe('namesFirewall', () => {
  const cases: Array<[string, ReturnType<typeof event>, boolean, boolean]> = [
    ['its label', event({ id: 7, label: 'run1-fw-new', type: 'firewall' }), true, true],
    ['its label on another id', event({ id: 8, label: 'run1-fw-new', type: 'firewall' }), true, true],
    ["the id under another firewall's label (the id given again)", event({ id: 7, label: 'run1-fw-old', type: 'firewall' }), false, false],
    ['the id with no label shown', event({ id: 7, label: null, type: 'firewall' }), true, false],
    ['the id of an instance with no label shown', event({ id: 7, label: null, type: 'compute' }), false, false],
    [
      'its label as the second entity of a device event',
      event({ id: 3, label: 'web', type: 'compute' }, { id: 7, label: 'run1-fw-new', type: 'firewall' }),
      true,
      true,
    ],
  ];
  for (const [what, given, named, byLabel] of cases)
    it(`${what}: ${named ? 'names it' : 'does not name it'}${byLabel === named ? '' : `, ${byLabel ? 'names it' : 'does not name it'} by label only`}`, () => {
      expect(namesFirewall(given, FIREWALL)).toBe(named);
      expect(namesFirewall(given, FIREWALL, true)).toBe(byLabel);
    });
});
