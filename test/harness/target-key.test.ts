// A run holding the same spec files for several targets names each copy `<file>?target=<key>`: the key must come back
// from the copy's name, and a plain spec file has none (it runs against the run's one target).
import { describe, expect, it } from 'vitest';
import { fileForTarget, targetKeyOf, withoutTargetKey } from '../../harness/target-key.js';

describe('spec file copies for several targets', () => {
  it('a copy names its target, a plain file none', () => {
    expect(targetKeyOf(fileForTarget('/repo/specs/generic/part3.spec.ts', '17'))).toBe('17');
    expect(targetKeyOf('/repo/specs/generic/part3.spec.ts')).toBe('');
    expect(targetKeyOf(undefined)).toBe('');
  });

  it("a copy's check keeps the plain file's name (its plan key and property seed)", () => {
    const name = 'specs/part3/records.spec.ts > Records > [P3.record.priority.max-255] a body breaking only P3.record.priority.max-255 is rejected';
    expect(withoutTargetKey(name.replace('.spec.ts', `.spec.ts?target=17`))).toBe(name);
    expect(withoutTargetKey(name)).toBe(name);
  });
});
