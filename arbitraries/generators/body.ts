// Building blocks of every body generator: a valid body with some members replaced or removed, and the violation
// entries built from it.
import fc from 'fast-check';
import type { BodyContext, Violation } from '../types.js';

export type Body = Record<string, unknown>;
export type BodyGen = (context: BodyContext) => fc.Arbitrary<Body>;
export type ValueGen = (context: BodyContext) => fc.Arbitrary<unknown>;

/** A plain object (fast-check records have a null prototype) of the members generated, optional ones sometimes. */
export function optionalRecord(model: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Body> {
  return fc.record(model, { requiredKeys: required }).map((record) => ({ ...record }) as Body);
}

/** Merges the objects made by several generators into one body. */
export function merged(...parts: Array<fc.Arbitrary<Body>>): fc.Arbitrary<Body> {
  return fc.tuple(...parts).map((objects) => Object.assign({}, ...objects) as Body);
}

/**
 * An update body with at least one member: whether an update carrying nothing is accepted is not shown ("all
 * optional", "none required" may be read as "any one of them").
 */
export function nonEmpty(body: fc.Arbitrary<Body>): fc.Arbitrary<Body> {
  return body.filter((members) => Object.keys(members).length > 0);
}

/** Marks a member to delete in `replacing`. */
export const ABSENT = Symbol('absent');
export type Change = ValueGen | typeof ABSENT;

export const constant =
  (value: unknown): ValueGen =>
  () =>
    fc.constant(value);
export const oneOf =
  (...values: unknown[]): ValueGen =>
  () =>
    fc.constantFrom(...values);

/** Sets (or, for ABSENT, deletes) the member at a dot path, creating the objects and arrays on the way. */
function setPath(body: Body, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = body;
  keys.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    node = node[key] as Body;
  });
  const last = keys[keys.length - 1]!;
  if (value === ABSENT) delete node[last];
  else node[last] = value;
}

/** A valid body with the members at the given dot paths replaced (in order) or removed. */
export function replacing(valid: BodyGen, changes: Record<string, Change>): BodyGen {
  const entries = Object.entries(changes);
  return (context) =>
    fc.tuple(valid(context), ...entries.map(([, change]) => (change === ABSENT ? fc.constant(ABSENT) : change(context)))).map(([body, ...values]) => {
      const copy = structuredClone(body);
      entries.forEach(([path], i) => setPath(copy, path, values[i]));
      return copy;
    });
}

/** The schema rejects it: `field` (null when no single member is at fault) defaults to the first changed path. */
export function broken(rule: string, valid: BodyGen, changes: Record<string, Change>, field: string | null = Object.keys(changes)[0] ?? null): Violation {
  return { rule, field, judgedBy: 'schema', arbitrary: replacing(valid, changes) };
}

/** Schema-valid, but the server must reject it (strength, existence, uniqueness, real codes). */
export function serverJudged(rule: string, valid: BodyGen, changes: Record<string, Change>, field: string | null = Object.keys(changes)[0] ?? null): Violation {
  return { rule, field, judgedBy: 'server', arbitrary: replacing(valid, changes) };
}

/** "" for an optional member that cannot be empty: refused, or read as not given (see Violation.blankMember). */
export function blank(rule: string, valid: BodyGen, member: string): Violation {
  return { ...broken(rule, valid, { [member]: constant('') }), blankMember: member };
}

export const missing = (rule: string, valid: BodyGen, member: string): Violation => broken(rule, valid, { [member]: ABSENT });

export type JsonKind = 'string' | 'nullable-string' | 'integer' | 'boolean' | 'array' | 'object';

/**
 * Values of other JSON types than each kind that no server reads as one of that kind. Left out: null (an optional
 * member given null may be read as absent), scalars a lenient reader converts (42 or true to a string, "7" to an
 * integer, "true", 1 or 0 to a boolean), and for an array any single value, which a lenient reader takes as an array of
 * that one item: whether a server does is not shown (variations lenient-scalars, lenient-arrays). An array is sent an
 * object whose key is no index ({"0": …} is a list to some readers).
 */
export const WRONG_TYPED: Record<JsonKind, unknown[]> = {
  string: [['text'], { text: 'text' }],
  'nullable-string': [['text'], { text: 'text' }],
  integer: ['seven', [7], { value: 7 }],
  boolean: ['maybe', [true], { value: true }],
  array: [{ item: 'a' }, { items: [] }],
  object: ['text', 42, true, []],
};

/**
 * One violation of a type rule per member: a value of another JSON type. Members with an enum are left out by the
 * callers (a value of another type breaks the enum too, so the rejection could not be pinned on one rule).
 */
export function wrongTypes(rule: string, valid: BodyGen, members: Array<[path: string, kind: JsonKind]>): Violation[] {
  return members.map(([path, kind]) => broken(rule, valid, { [path]: () => fc.constantFrom(...WRONG_TYPED[kind]).map((value) => structuredClone(value)) }));
}
