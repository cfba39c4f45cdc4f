// Each property file makes only what its document's bodies name (specs/properties/context-needs.ts): enough for every
// generator, and a generator reading a member its file does not make fails loudly, naming what to add.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { bodies as part1 } from '../../arbitraries/part1.js';
import { bodies as part2 } from '../../arbitraries/part2.js';
import { bodies as part3 } from '../../arbitraries/part3.js';
import type { BodyContext } from '../../arbitraries/types.js';
import { CONTEXT_NEEDS, MEMBERS_MADE, madeOnly } from '../../specs/properties/context-needs.js';

const BODIES = { part1, part2, part3 };

/** The sample context cut to what `document`'s file makes. */
function madeFor(document: keyof typeof BODIES): BodyContext {
  const needs = CONTEXT_NEEDS[document];
  const members = [...MEMBERS_MADE.always, ...Object.keys(needs).flatMap((need) => MEMBERS_MADE[need as keyof typeof needs])];
  return madeOnly(Object.fromEntries(members.map((member) => [member, SAMPLE_CONTEXT[member]])), document);
}

describe('the context a property file makes', () => {
  it.each(Object.keys(BODIES) as Array<keyof typeof BODIES>)('is enough for every generator of %s', (document) => {
    const context = madeFor(document);
    for (const [schema, generators] of Object.entries(BODIES[document])) {
      expect(() => fc.sample(generators.valid(context), { numRuns: 30, seed: 1 }), schema).not.toThrow();
      for (const violation of generators.violations)
        expect(() => fc.sample(violation.arbitrary(context), { numRuns: 10, seed: 1 }), `${schema} ${violation.rule}`).not.toThrow();
    }
  });

  it('throws on a member its file does not make, naming where to add it', () => {
    const context = madeFor('part3');
    expect(() => context.backupId).toThrow(
      'specs/properties/part3.spec.ts makes no backupId for its bodies: add it to CONTEXT_NEEDS in specs/properties/context-needs.ts',
    );
    // (not a member of the context: a promise resolved with it asks for `then`)
    expect((context as unknown as Record<string, unknown>).then).toBeUndefined();
  });
});
