// The type rules of the request schemas that no hand-written violation breaks, worked out from the schemas and the
// valid bodies (see typeViolationsOf). Working them out takes ~0.3 s of a worker's start-up (sampling bodies, compiling
// the request schemas): a run reads them from specs/plan/type-violations.json, which `npm run plan:costs` writes and
// test/suite/type-violations.test.ts keeps equal to what the schemas and generators give.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import type { BodyArbitraries } from '../../arbitraries/types.js';
import { loadContract, validateValue } from '../../harness/contract.js';
import { WRONG_TYPED, type JsonKind } from '../../arbitraries/generators/body.js';

type Json = Record<string, unknown>;

/** A type rule broken by a body that is not an object (`field` null) or by one top-level member of another JSON type. */
export interface TypeViolation {
  rule: string;
  field: string | null;
}

/** Request schema name → its type violations. */
export type TypeViolationTable = Record<string, TypeViolation[]>;

export const TYPE_VIOLATIONS_FILE = fileURLToPath(new URL('../plan/type-violations.json', import.meta.url));

let table: TypeViolationTable | undefined;

/** The type violations of `schema`: from the table, or worked out where the table has none (a body it does not know). */
export function typeViolationsOf(schema: string, generators: BodyArbitraries): TypeViolation[] {
  table ??= existsSync(TYPE_VIOLATIONS_FILE) ? (JSON.parse(readFileSync(TYPE_VIOLATIONS_FILE, 'utf8')) as TypeViolationTable) : {};
  return table[schema] ?? workOutTypeViolations(schema, generators);
}

/** A value of another JSON type than the member's schema declares (following a `$ref` to its target), as WRONG_TYPED picks them. */
export function wrongTypedValue(node: Json): unknown {
  let declared = node.type;
  if (declared === undefined && typeof node.$ref === 'string')
    declared = loadContract().documents.get(node.$ref.replace(/^\/schemas\//, '').replace(/\.json.*$/, ''))?.type;
  const types = new Set(Array.isArray(declared) ? declared : [declared]);
  const kind: JsonKind | undefined = types.has('string')
    ? 'string'
    : types.has('integer') || types.has('number')
      ? 'integer'
      : (['boolean', 'array', 'object'] as const).find((type) => types.has(type));
  return kind === undefined ? undefined : structuredClone(WRONG_TYPED[kind][0]);
}

/**
 * The body's own type rule (a body that is not an object), and for every top-level member that valid bodies hold, the
 * rule the schema reports for that member of another JSON type, where exactly one rule is reported and no hand-written
 * violation breaks it.
 */
function workOutTypeViolations(schema: string, generators: BodyArbitraries): TypeViolation[] {
  const document = loadContract().documents.get(schema);
  const handWritten = new Set(generators.violations.map((violation) => violation.rule));
  const samples = fc.sample(generators.valid(SAMPLE_CONTEXT), { numRuns: 40, seed: 1 });
  const sample = samples[0]!;
  const found: TypeViolation[] = [];
  const rootRule = document?.['x-rule'];
  if (typeof rootRule === 'string' && !handWritten.has(rootRule)) found.push({ rule: rootRule, field: null });
  for (const [member, node] of Object.entries((document?.properties ?? {}) as Record<string, Json>)) {
    if ('enum' in node || 'const' in node || node['x-invalid-means-default'] === true) continue;
    const wrong = wrongTypedValue(node);
    if (wrong === undefined) continue;
    const rules = [...new Set(validateValue(schema, { ...sample, [member]: wrong }).map((violation) => violation.rule))];
    // A member valid bodies seldom hold would make the filter of its bodies search long: it gets no check of its own.
    if (rules.length !== 1 || handWritten.has(rules[0]!) || samples.filter((body) => member in body).length < samples.length / 10) continue;
    found.push({ rule: rules[0]!, field: member });
  }
  return found;
}

/** The table for every request body of the three documents (what `npm run plan:costs` writes). */
export async function workOutTypeViolationTable(): Promise<TypeViolationTable> {
  // Imported here only: a worker loads the generators of its own spec files, not all three documents'.
  const parts = await Promise.all([import('../../arbitraries/part1.js'), import('../../arbitraries/part2.js'), import('../../arbitraries/part3.js')]);
  const bodies = parts.flatMap((part) => Object.entries(part.bodies));
  return Object.fromEntries(bodies.map(([schema, generators]) => [schema, workOutTypeViolations(schema, generators)]));
}
