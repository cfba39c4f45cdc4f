// The self-tests every document's body generators get: they cover exactly the document's request schemas, valid
// bodies pass the schema, each violation breaks exactly its rule (and names a sound field), server-judged ones are
// schema-valid, every rule the schemas can report is broken by some violation, and created names carry the prefix.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import type { BodyArbitraries, BodyContext, Violation } from '../../arbitraries/types.js';
import { fieldNamedBy } from '../../harness/error-bodies.js';
import { rulesOfSchema, validateValue } from '../../harness/contract.js';
import { endpoints, type Endpoint } from '../../rules/endpoints.js';
import { ruleById } from '../../rules/index.js';

export interface GeneratorCheckOptions {
  /** Contexts to generate in (default: the sample context). */
  contexts?: BodyContext[];
  /** Rules a schema can report that no violation breaks, each with why: a rule id, or `<schema> <rule id>` for one schema. */
  exempt?: Record<string, string>;
  /** [schema, member] pairs whose generated names must start with the context's label prefix where it fits. */
  prefixed?: Array<[string, string]>;
}

type Json = Record<string, unknown>;
const RUNS = { numRuns: 50 };

/**
 * `expect(actual, message()).toEqual(expected)`, made only when the two differ: an expect() (and its message) for each
 * of the thousands of generated bodies cost more than the checks themselves.
 */
function expectEqual(actual: unknown, expected: unknown, message: () => string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message()).toEqual(expected);
}

/** Whether `keys` lead to a member of `node`, or to a member missing from an object it has (`*`: some item). */
function leadsToMember(node: unknown, keys: string[]): boolean {
  if (!keys.length) return true;
  if (node === null || typeof node !== 'object') return false;
  const [key, ...rest] = keys as [string, ...string[]];
  if (key === '*') return Array.isArray(node) && node.some((item) => leadsToMember(item, rest));
  return Object.hasOwn(node, key) ? leadsToMember((node as Json)[key], rest) : rest.length === 0;
}

/** `field` (each of its places) names a member of the body, or a member missing from an object the body has. */
function fieldIsSound(violation: Violation, body: unknown): boolean {
  if (violation.field === null) return true;
  return violation.field.split('|').some((place) => leadsToMember(body, place.split('.')));
}

export function generatorChecks(document: Endpoint['document'], bodies: Record<string, BodyArbitraries>, options: GeneratorCheckOptions = {}): void {
  const schemas = [...new Set(endpoints.filter((endpoint) => endpoint.document === document && endpoint.request).map((endpoint) => endpoint.request!))].sort();
  const contexts = options.contexts ?? [SAMPLE_CONTEXT];
  /** One arbitrary per context, built once (building some generators is costly). */
  const inEveryContext = <T>(make: (context: BodyContext) => fc.Arbitrary<T>) => fc.oneof(...contexts.map(make));
  const exempt = options.exempt ?? {};

  describe(`${document} body generators`, () => {
    it('cover exactly the request schemas of the document', () => {
      expect(Object.keys(bodies).sort()).toEqual(schemas);
      for (const [name, body] of Object.entries(bodies)) expect(body.schema).toBe(name);
    });

    it.each(schemas)('%s: valid bodies are schema-valid', (schema) => {
      fc.assert(
        fc.property(
          inEveryContext((c) => bodies[schema]!.valid(c)),
          (body) => expectEqual(validateValue(schema, body), [], () => JSON.stringify(body).slice(0, 300)),
        ),
        RUNS,
      );
    });

    const cases = Object.values(bodies).flatMap((body) =>
      body.violations.map(
        (violation, i) =>
          [`${body.schema} #${i} ${violation.rule} ${violation.field ?? '(no field)'} [${violation.judgedBy}]`, body.schema, violation] as const,
      ),
    );
    it.each(cases)('%s', (_, schema, violation) => {
      expect(ruleById.has(violation.rule)).toBe(true);
      fc.assert(
        fc.property(
          inEveryContext((c) => violation.arbitrary(c)),
          (body) => {
            expectEqual(fieldIsSound(violation, body), true, () => `field ${violation.field} in ${JSON.stringify(body).slice(0, 200)}`);
            const found = validateValue(schema, body);
            if (violation.judgedBy === 'server') return expectEqual(found, [], () => JSON.stringify(body).slice(0, 300));
            expectEqual([...new Set(found.map((v) => v.rule))], [violation.rule], () => JSON.stringify(body).slice(0, 300));
            // a member a condition forbids (`not: {required}`) is reported at the object holding it
            if (violation.field !== null) {
              const field = violation.field;
              expectEqual(
                found.some((v) => v.path === '/' || fieldNamedBy(field, v.path.slice(1).split('/').join('.'))),
                true,
                () => JSON.stringify(found),
              );
            }
          },
        ),
        RUNS,
      );
    });

    it.each(schemas)('%s: every rule the schema can report is broken by a violation', (schema) => {
      const covered = new Set(bodies[schema]!.violations.map((violation) => violation.rule));
      expect(rulesOfSchema(schema).filter((id) => !covered.has(id) && !(id in exempt) && !(`${schema} ${id}` in exempt))).toEqual([]);
    });

    it('lists no stale exemption', () => {
      const reportable = new Set(schemas.flatMap((schema) => [...rulesOfSchema(schema), ...rulesOfSchema(schema).map((id) => `${schema} ${id}`)]));
      expect(Object.keys(exempt).filter((id) => !reportable.has(id))).toEqual([]);
    });

    it.runIf((options.prefixed ?? []).length > 0)('created names carry the context prefix where it fits', () => {
      const prefix = SAMPLE_CONTEXT.labelPrefix;
      for (const [schema, member] of options.prefixed ?? [])
        for (const body of fc.sample(bodies[schema]!.valid(SAMPLE_CONTEXT), 100)) {
          const value = body[member] as string | undefined;
          if (value !== undefined && value.length > prefix.length) expect(value.startsWith(prefix), value).toBe(true);
        }
    });
  });
}
