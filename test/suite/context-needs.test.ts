// Each property file makes only what its document's bodies name (specs/properties/context-needs.ts): enough for every
// generator, and a generator reading a member its file does not make fails loudly, naming what to add. A member the
// file could not make on its target (no profile showed in time) throws why only where a body names it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodies as part1 } from '../../arbitraries/part1.js';
import { bodies as part2 } from '../../arbitraries/part2.js';
import { bodies as part3 } from '../../arbitraries/part3.js';
import type { BodyContext } from '../../arbitraries/types.js';
import { holds, SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { CONTEXT_NEEDS, MEMBERS_MADE, madeOnly, throwIfUnmade } from '../../specs/properties/context-needs.js';
import { SkipCheck } from '../../harness/check.js';

const BODIES = { part1, part2, part3 };

/** The sample context cut to what `document`'s file makes (`unmade`: what it could not, and why). */
function madeFor(document: keyof typeof BODIES, unmade = new Map<keyof BodyContext, unknown>()): BodyContext {
  const needs = CONTEXT_NEEDS[document];
  const members = [...MEMBERS_MADE.always, ...Object.keys(needs).flatMap((need) => MEMBERS_MADE[need as keyof typeof needs])];
  const made = members.filter((member) => !unmade.has(member));
  return madeOnly(Object.fromEntries(made.map((member) => [member, SAMPLE_CONTEXT[member]])), document, unmade);
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

  it('throws why a member was not made only where a body names it, and the generators that can go without it do', () => {
    const why = new SkipCheck('instance 9 lists no configuration profile yet');
    const unmade = new Map<keyof BodyContext, unknown>(['configId', 'diskId', 'backupId'].map((member) => [member as keyof BodyContext, why]));
    const context = madeFor('part2', unmade);
    expect(() => context.configId).toThrow(why);
    expect(holds(context, 'backupId')).toBe(false);
    expect(() => throwIfUnmade(context)).toThrow(why);
    expect(() => throwIfUnmade(madeFor('part2'))).not.toThrow();
    const sample = (schema: string) => fc.sample(part2[schema]!.valid(context), { numRuns: 200, seed: 1 }).map((body) => JSON.stringify(body));
    expect(sample('requests/instance-create').filter((body) => body.includes('backup_id'))).toEqual([]);
    expect(sample('requests/instance-clone').filter((body) => /"(configs|disks)":\[\d/.test(body))).toEqual([]);
    expect(sample('requests/config-create').filter((body) => /"disk_id":\d/.test(body))).toEqual([]);
    expect(() => fc.sample(part2['requests/instance-boot']!.valid(context), 1)).toThrow(why);
  });
});
