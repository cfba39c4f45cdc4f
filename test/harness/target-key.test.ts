// A run holding the same spec files for several targets names each copy `<file>?target=<key>`: the key must come back
// from the copy's name, and a plain spec file has none (it runs against the run's one target).
import { describe, expect, it } from 'vitest';
import { fileForTarget, targetKeyOf } from '../../harness/target-key.js';

describe('spec file copies for several targets', () => {
  it('a copy names its target, a plain file none', () => {
    expect(targetKeyOf(fileForTarget('/repo/specs/generic/part3.spec.ts', '17'))).toBe('17');
    expect(targetKeyOf('/repo/specs/generic/part3.spec.ts')).toBe('');
    expect(targetKeyOf(undefined)).toBe('');
  });
});
