// Derives boundary cases from the schemas themselves: walks a schema alongside a valid sample and, for every
// length / range / count / enum constraint it reaches, builds values just inside and just outside the bound.
import { SCHEMA_BASE, loadContract } from './contract.js';

type Json = Record<string, unknown>;

export interface BoundaryCase {
  schema: string;
  /** JSON pointer of the mutated member inside the sample. */
  pointer: string;
  keyword: string;
  rule: string;
  /** Values that must not be reported under `rule`. */
  inside: unknown[];
  /** Values that must be reported under `rule`. */
  outside: unknown[];
  /** The member's form is also constrained (pattern, format, semantic check): a resized value may break a reading of it. */
  shaped: boolean;
}

const BOUND_KEYWORDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'enum'] as const;
const OTHER_CONSTRAINTS = ['pattern', 'format', 'x-check', 'const', 'not', 'oneOf', 'anyOf'];

function resolveRef(ref: string, current: Json): { node: Json; document: Json } {
  const [file, fragment] = ref.split('#');
  const contract = loadContract();
  const document = file
    ? contract.documents.get(
        file
          .replace(/^\/schemas\//, '')
          .replace(SCHEMA_BASE, '')
          .replace(/\.json$/, ''),
      )!
    : current;
  if (!document) throw new Error(`cannot resolve ${ref}`);
  let node: unknown = document;
  for (const part of (fragment ?? '').split('/').filter(Boolean)) node = (node as Json)[decodeURIComponent(part)];
  return { node: node as Json, document };
}

function ruleOfKeyword(node: Json, keyword: string): string | undefined {
  const mapped = (node['x-rules'] as Json | undefined)?.[keyword];
  return typeof mapped === 'string' ? mapped : (node['x-rule'] as string | undefined);
}

/** A string of length n shaped like `like`: keeps its first and last characters where it can. */
function resize(like: unknown, n: number): string {
  const text = typeof like === 'string' && like.length > 0 ? like : 'a';
  const filler = /[A-Za-z0-9]/.exec(text)?.[0] ?? 'a';
  if (n <= 0) return '';
  if (text.length === n) return text;
  if (text.length < n) return text[0] + filler.repeat(n - text.length) + text.slice(1);
  return n === 1 ? text[0]! : text[0] + text.slice(text.length - (n - 1));
}

function valuesFor(keyword: string, bound: unknown, current: unknown): { inside: unknown[]; outside: unknown[] } {
  const n = bound as number;
  switch (keyword) {
    case 'minLength':
      return { inside: [resize(current, n), resize(current, n + 1)], outside: n > 0 ? [resize(current, n - 1)] : [] };
    case 'maxLength':
      return { inside: [resize(current, n), resize(current, Math.max(0, n - 1))], outside: [resize(current, n + 1)] };
    case 'minimum':
      return { inside: [n], outside: [n - 1] };
    case 'maximum':
      return { inside: [n], outside: [n + 1] };
    case 'exclusiveMinimum':
      return { inside: [n + 1], outside: [n] };
    case 'exclusiveMaximum':
      return { inside: [n - 1], outside: [n] };
    case 'minItems': {
      const item = Array.isArray(current) ? current[0] : undefined;
      return { inside: [Array(n).fill(item)], outside: n > 0 ? [Array(n - 1).fill(item)] : [] };
    }
    case 'maxItems': {
      const item = Array.isArray(current) ? current[0] : undefined;
      return { inside: [Array(n).fill(item)], outside: [Array(n + 1).fill(item)] };
    }
    case 'enum': {
      const values = bound as unknown[];
      const strings = values.filter((value) => typeof value === 'string');
      const numbers = values.filter((value): value is number => typeof value === 'number');
      const outside = [...(strings.length ? ['zz-not-in-enum'] : []), ...(numbers.length ? [Math.max(...numbers) + 1] : [])];
      return { inside: values, outside };
    }
  }
  return { inside: [], outside: [] };
}

export function boundaryCases(schemaName: string, sample: unknown): BoundaryCase[] {
  const cases: BoundaryCase[] = [];
  const root = loadContract().documents.get(schemaName)!;
  const visit = (node: Json, document: Json, value: unknown, pointer: string, depth: number) => {
    if (depth > 12) return;
    if (typeof node.$ref === 'string') {
      const target = resolveRef(node.$ref, document);
      visit(target.node, target.document, value, pointer, depth + 1);
    }
    for (const part of (node.allOf as Json[] | undefined) ?? []) visit(part, document, value, pointer, depth + 1);
    for (const keyword of BOUND_KEYWORDS) {
      if (!(keyword in node)) continue;
      // Array-length mutations need a sample item to repeat.
      if ((keyword === 'minItems' || keyword === 'maxItems') && !(Array.isArray(value) && value.length)) continue;
      const rule = ruleOfKeyword(node, keyword);
      if (!rule) continue;
      const { inside, outside } = valuesFor(keyword, node[keyword], value);
      // At-bound values are judged only for rules of their own: a shared rule may also cover a pattern the resized value breaks.
      const shaped = OTHER_CONSTRAINTS.some((other) => other in node);
      const ownRule = typeof (node['x-rules'] as Json | undefined)?.[keyword] === 'string' || !shaped;
      cases.push({ schema: schemaName, pointer, keyword, rule, inside: ownRule ? inside : [], outside, shaped });
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && node.properties)
      for (const [key, subschema] of Object.entries(node.properties as Record<string, Json>))
        if (key in (value as Json)) visit(subschema, document, (value as Json)[key], `${pointer}/${key}`, depth + 1);
    if (Array.isArray(value) && value.length && node.items && typeof node.items === 'object')
      visit(node.items as Json, document, value[0], `${pointer}/0`, depth + 1);
  };
  visit(root, root, sample, '', 0);
  return cases;
}

/** A deep copy of `sample` with the member at `pointer` replaced. */
export function withValue(sample: unknown, pointer: string, value: unknown): unknown {
  if (!pointer) return value;
  const copy = structuredClone(sample) as Json;
  const parts = pointer.split('/').slice(1);
  let target: Json = copy;
  for (const part of parts.slice(0, -1)) target = target[part] as Json;
  target[parts.at(-1)!] = value;
  return copy;
}
