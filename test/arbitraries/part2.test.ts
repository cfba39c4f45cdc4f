// Self-tests of the document 2 body generators against the request schemas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { label, labelBadBeginEnd, labelBadChar, labelDoubledSeparator } from '../../arbitraries/generators/labels.js';
import { isStrongPassword, strongPassword, weakPassword } from '../../arbitraries/generators/passwords.js';
import { bodies } from '../../arbitraries/part2.js';
import type { BodyContext } from '../../arbitraries/types.js';
import { loadContract, validateValue } from '../../harness/contract.js';
import { ruleById } from '../../rules/index.js';
import { namedRules, walkSchema } from '../contract/audit.js';

const RUNS = 50;

/** The sample, and a target whose VLAN region differs and whose prefix holds separators other than a dash. */
const CONTEXTS: BodyContext[] = [
  SAMPLE_CONTEXT,
  { ...SAMPLE_CONTEXT, region: 'us-west', vlanRegion: 'eu-central', labelPrefix: 'run_42.', computeIds: [7, 8, 9] },
];
const context = fc.constantFrom(...CONTEXTS);

const BODY_SCHEMAS = [
  'instance-create', 'instance-update', 'instance-clone', 'instance-snapshot-create', 'backup-restore', 'instance-boot',
  'instance-rescue', 'instance-resize', 'config-create', 'config-update', 'image-capture', 'image-upload', 'image-update', 'tag-create',
].map((name) => `requests/${name}`);
/** Pieces the bodies share through `$ref`: their rules count as the document's too. */
const SHARED_SCHEMAS = ['requests/interfaces', 'requests/device-map'];

/**
 * Type-level shape rules: breaking them means sending a value of another JSON type, which says nothing about
 * the document's constraints; the schema self-tests cover them.
 */
const SHAPE_RULES_EXEMPT = [
  'P2.instance-create.types',
  'P2.instance-update.types',
  'P2.instance-clone.types',
  'P2.instance-snapshot-create.types',
  'P2.backup-restore.types',
  'P2.instance-boot.types',
  'P2.instance-rescue.types',
  'P2.instance-resize.types',
  'P2.config-create.types',
  'P2.config-update.types',
  'P2.image-capture.types',
  'P2.image-upload.types',
  'P2.image-update.types',
  'P2.tag-create.types',
  'P2.interfaces.types',
  'P2.device-map.types',
];

/** The value at a dot path, or `undefined` when some step is missing. */
function at(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), body);
}

/** A field names the member at fault: it is in the body, or it is a member missing from an object of the body. */
function fieldIsSound(body: Record<string, unknown>, field: string): boolean {
  if (at(body, field) !== undefined) return true;
  const parent = field.includes('.') ? at(body, field.replace(/\.[^.]+$/, '')) : body;
  return parent !== null && typeof parent === 'object' && !Array.isArray(parent);
}

describe('document 2 body generators', () => {
  it('cover every request body of the document', () => {
    expect(Object.keys(bodies).sort()).toEqual([...BODY_SCHEMAS].sort());
    for (const [name, body] of Object.entries(bodies)) expect(body.schema).toBe(name);
  });

  for (const [name, body] of Object.entries(bodies)) {
    describe(name, () => {
      it('makes schema-valid bodies', () => {
        fc.assert(
          fc.property(context.chain((c) => body.valid(c)), (value) => {
            expect(validateValue(name, value)).toEqual([]);
          }),
          { numRuns: RUNS },
        );
      });

      for (const violation of body.violations) {
        it(`breaks ${violation.rule} only (${violation.judgedBy}, ${violation.field ?? 'no single field'})`, () => {
          expect(ruleById.has(violation.rule)).toBe(true);
          fc.assert(
            fc.property(context.chain((c) => violation.arbitrary(c)), (value) => {
              const found = validateValue(name, value);
              if (violation.judgedBy === 'schema') {
                expect([...new Set(found.map((v) => v.rule))]).toEqual([violation.rule]);
              } else {
                expect(found).toEqual([]);
              }
              if (violation.field !== null) expect(fieldIsSound(value, violation.field)).toBe(true);
            }),
            { numRuns: RUNS },
          );
        });
      }
    });
  }

  it('has a violation for every rule the request schemas name, shape rules aside', () => {
    const { documents } = loadContract();
    const named = new Set<string>();
    for (const name of [...BODY_SCHEMAS, ...SHARED_SCHEMAS]) walkSchema(documents.get(name)!, name, (node) => namedRules(node).forEach((id) => named.add(id)));
    const covered = new Set(Object.values(bodies).flatMap((body) => body.violations.map((v) => v.rule)));
    const uncovered = [...named].filter((id) => !covered.has(id) && !SHAPE_RULES_EXEMPT.includes(id));
    expect(uncovered).toEqual([]);
    // The exemptions are all named somewhere (no stale entries).
    expect(SHAPE_RULES_EXEMPT.filter((id) => !named.has(id))).toEqual([]);
  });
});

describe('document 2 shared generators', () => {
  /** Stricter than the schema: valid labels avoid mixed separator pairs too. */
  const INSTANCE_LABEL = /^(?![-_.])(?!.*[-_.]$)(?!.*[-_.]{2})[A-Za-z0-9_.-]{3,64}$/;

  it('labels follow the instance label rules and carry the prefix when it fits', () => {
    fc.assert(
      fc.property(label(3, 64, 'cf7a3-'), (text) => {
        expect(text).toMatch(INSTANCE_LABEL);
        if (text.length > 'cf7a3-'.length) expect(text.startsWith('cf7a3-')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('each bad label keeps its length and the prefix inside it', () => {
    for (const bad of [labelBadChar, labelBadBeginEnd, labelDoubledSeparator]) {
      fc.assert(
        fc.property(bad(3, 32, 'cf7a3-'), (text) => {
          expect(text.length).toBeGreaterThanOrEqual(3);
          expect(text.length).toBeLessThanOrEqual(32);
          expect(text).toContain('cf7a3-');
          expect(text).not.toMatch(INSTANCE_LABEL);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('strong passwords pass the strength rule and weak ones fail it, all 7..128 long', () => {
    const inBounds = (text: string) => text.length >= 7 && text.length <= 128;
    fc.assert(fc.property(strongPassword(), (p) => inBounds(p) && isStrongPassword(p)), { numRuns: 200 });
    fc.assert(fc.property(weakPassword(), (p) => inBounds(p) && !isStrongPassword(p)), { numRuns: 200 });
  });
});
