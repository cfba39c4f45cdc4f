// Which error `field` counts as naming the member at fault (P1.errors.body.field): the member, one holding it, one
// inside it, and for `*` any item; never an unrelated member.
import { describe, expect, it } from 'vitest';
import { namesField } from '../../harness/error-bodies.js';
import { exchange } from '../reports/sample-results.js';

const refused = (...fields: Array<string | null>) =>
  exchange('POST', '/v4/compute/instances', 400, { errors: fields.map((field) => ({ reason: 'no', field })) });

describe('namesField', () => {
  it.each([
    ['interfaces.1.label', 'interfaces.1.label'],
    ['interfaces.1.label', 'interfaces[1].label'],
    ['interfaces.1.label', 'interfaces'],
    ['devices.sdb', 'devices.sdb.volume_id'],
    ['interfaces.*.label', 'interfaces.0.label'],
    ['interfaces.*.label', 'interfaces.1.label'],
    ['region|assignments.*.region', 'region'],
    ['region|assignments.*.region', 'assignments.2.region'],
  ])('the member at fault %s is named by %s', (field, named) => {
    expect(namesField(refused(named), field)).toBe(true);
  });

  it.each([
    ['interfaces.1.label', 'interfaces.0.label'],
    ['interfaces.1.label', 'type'],
    ['interfaces.*.label', 'interfaces.0.purpose'],
    ['devices.sdb', 'devices.sda.disk_id'],
    ['label', 'labels'],
    ['region|assignments.*.region', 'assignments.0.address'],
  ])('the member at fault %s is not named by %s', (field, named) => {
    expect(namesField(refused(named), field)).toBe(false);
  });

  it('says nothing when the error names no field', () => {
    expect(namesField(refused(null), 'label')).toBeNull();
  });
});
