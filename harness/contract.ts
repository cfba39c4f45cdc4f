import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, _ } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import ipaddr from 'ipaddr.js';
import { checks as part1Checks } from './checks/part1.js';
import { checks as part2Checks } from './checks/part2.js';
import { checks as part3Checks } from './checks/part3.js';
import type { SemanticCheck } from './checks/types.js';

const addFormats = formatsPlugin.default;

export const SCHEMA_BASE = 'https://chs-conformance.test/schemas/';
export const SCHEMAS_DIR = fileURLToPath(new URL('../schemas/', import.meta.url));

/** Rule reported when a value breaks a constraint that carries no rule of its own (a schema authoring gap). */
const UNMAPPED_RULE = 'P1.conventions.json-bodies';

export const semanticChecks: Record<string, SemanticCheck> = { ...part1Checks, ...part2Checks, ...part3Checks };

/** One way a body breaks the documents: the rule, where (JSON pointer into the body), and what. */
export interface Violation {
  rule: string;
  path: string;
  message: string;
  /** The schema keyword that failed (`maxLength`, `required`, `x-check`…). */
  keyword?: string;
}

/** Schema keywords that constrain a value (everything else is structure or annotation). */
export const CONSTRAINT_KEYWORDS = [
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'minProperties',
  'maxProperties',
  'not',
  'oneOf',
  'anyOf',
  'x-check',
  'dependentRequired',
  'additionalProperties',
  'propertyNames',
  'contains',
  'multipleOf',
] as const;

function listSchemaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listSchemaFiles(full);
    return name.endsWith('.json') ? [full] : [];
  });
}

function schemaId(name: string): string {
  return `${SCHEMA_BASE}${name}.json`;
}

type Json = Record<string, unknown>;

const SCHEMA_VALUED = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const SCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

/** Calls `visit` on every subschema of `schema` (not on `schema` itself), with its JSON-pointer-like location. */
export function forEachSubschema(schema: Json, where: string, visit: (subschema: Json, where: string) => void): void {
  const visitIfSchema = (value: unknown, at: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) visit(value as Json, at);
  };
  for (const key of SCHEMA_VALUED) visitIfSchema(schema[key], `${where}/${key}`);
  for (const key of SCHEMA_ARRAYS) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((item, i) => visitIfSchema(item, `${where}/${key}/${i}`));
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (map && typeof map === 'object') for (const [name, value] of Object.entries(map)) visitIfSchema(value, `${where}/${key}/${name}`);
  }
}

/**
 * Gives every subschema the rule of its nearest ancestor that names one (`x-rule`), so that a failing
 * keyword always knows its rule. A `$ref` target keeps its own rules.
 */
function inheritRules(schema: Json, inherited?: string): void {
  if (typeof schema['x-rule'] === 'string') inherited = schema['x-rule'];
  else if (inherited) schema['x-rule'] = inherited;
  forEachSubschema(schema, '', (subschema) => inheritRules(subschema, inherited));
}

function checkFormat(test: (value: string) => boolean) {
  return {
    type: 'string' as const,
    validate: (value: string) => {
      try {
        return test(value);
      } catch {
        return false;
      }
    },
  };
}

/** `address/bits` with a strict address (dotted quad without leading zeroes, or IPv6) and a decimal mask in range. */
function isCidr(value: string, kind?: 'ipv4' | 'ipv6'): boolean {
  const match = /^([^/]+)\/(0|[1-9]\d{0,2})$/.exec(value);
  if (!match || !isStrictIp(match[1]!)) return false;
  const family = match[1]!.includes(':') ? 'ipv6' : 'ipv4';
  if (Number(match[2]) > (family === 'ipv4' ? 32 : 128)) return false;
  return kind ? family === kind : true;
}

/**
 * `source`: keep each validator's code, for the precompiled module (`precompiledValidatorsSource`), whose code reaches
 * the formats and the semantic checks through its `deps` parameter.
 */
function createAjv({ source = false } = {}): Ajv2020 {
  // Without ajv's optimising pass over the generated code a schema compiles in half the time (each worker compiles the
  // schemas it meets: ~0.25 → ~0.13 s); the validators it makes are as fast on bodies of this size.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    verbose: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    code: { optimize: false, source, formats: _`deps.formats` },
  });
  addFormats(ajv, ['ipv4', 'ipv6', 'email', 'uri', 'uri-reference', 'uuid', 'date']);
  // Document 1's "combined date and time format": ISO 8601's, whose precision may be reduced to the minute (ajv-formats'
  // iso-date-time needs the seconds; a value to the minute is judged as the same value at second 0).
  const isoDateTime = formatsPlugin.default.get('iso-date-time') as { validate: (value: string) => boolean };
  ajv.addFormat(
    'combined-date-time',
    checkFormat((value) => isoDateTime.validate(value.replace(/^(\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2})(?=$|[Zz+-])/, '$1:00'))),
  );
  ajv.addFormat(
    'ip',
    checkFormat((value) => !value.includes('/') && isStrictIp(value)),
  );
  ajv.addFormat(
    'ipv4-cidr',
    checkFormat((value) => isCidr(value, 'ipv4')),
  );
  ajv.addFormat(
    'ipv6-cidr',
    checkFormat((value) => isCidr(value, 'ipv6')),
  );
  ajv.addFormat(
    'ip-or-cidr',
    checkFormat((value) => (value.includes('/') ? isCidr(value) : isStrictIp(value))),
  );
  ajv.addFormat(
    'ipv6-or-cidr',
    checkFormat((value) => (value.includes('/') ? isCidr(value, 'ipv6') : value.includes(':') && isStrictIp(value))),
  );
  ajv.addFormat(
    'http-url',
    checkFormat((value) => /^https?:$/.test(new URL(value).protocol)),
  );
  ajv.addKeyword({ keyword: 'x-rule', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-rules', schemaType: 'object' });
  ajv.addKeyword({ keyword: 'x-note', schemaType: 'string' });
  // A member an invalid value of which the documents take as its default (not refused): no type violation is judged.
  ajv.addKeyword({ keyword: 'x-invalid-means-default', schemaType: 'boolean' });
  // A semantic check (harness/checks/) reports each of its problems as an error of its own, with the rule it breaks.
  ajv.addKeyword({
    keyword: 'x-check',
    schemaType: 'string',
    error: {
      message: ({ params }) => _`${params.problem}.message`,
      params: ({ params }) => _`{rule: ${params.problem}.rule, path: ${params.problem}.path ?? ""}`,
    },
    code(cxt) {
      const name = cxt.schema as string;
      if (!semanticChecks[name]) throw new Error(`unknown x-check "${name}"`);
      const check = cxt.gen.scopeValue('keyword', { key: name, ref: semanticChecks[name], code: _`deps.checks[${name}]` });
      const problems = cxt.gen.const('problems', _`${check}(${cxt.data})`);
      cxt.gen.forOf('problem', problems, (problem) => cxt.error(true, { problem }));
    },
  });
  return ajv;
}

/** Addresses already judged: responses repeat the same few addresses thousands of times, and parsing one is slow. */
const strictIps = new Map<string, boolean>();

/** Dotted-quad IPv4 (no leading zeroes, four parts) or an IPv6 address. */
function isStrictIp(value: string): boolean {
  let strict = strictIps.get(value);
  if (strict === undefined) {
    // Each family's parser is asked only about text that may be of its family: ipaddr.js tells an invalid address by
    // throwing, and an exception (its stack captured) costs about ten times the parse (30 µs against 3).
    strict = value.includes(':') ? ipaddr.IPv6.isValid(value) : /^[\d.]+$/.test(value) && ipaddr.IPv4.isValidFourPartDecimal(value) && !/(^|\.)0\d/.test(value);
    if (strictIps.size >= 50_000) strictIps.clear();
    strictIps.set(value, strict);
  }
  return strict;
}

export interface Contract {
  names: string[];
  /** Raw (rule-inherited) schema documents by name. */
  documents: Map<string, Json>;
  validator(ref: string): ValidateFunction;
}

let cached: Contract | undefined;

/** `lists/<item schema>`: the list envelope whose `data` items are the named resource. */
export const LIST_PREFIX = 'lists/';
export const ENVELOPE = 'common/list-envelope';

function listSchema(item: string): Json {
  return {
    $id: schemaId(`${LIST_PREFIX}${item}`),
    type: 'object',
    allOf: [{ $ref: `/schemas/${ENVELOPE}.json` }],
    properties: { data: { type: 'array', items: { $ref: `/schemas/${item}.json` } } },
  };
}

/**
 * The path of the validators compiled ahead with the suite's compiled copy (bin/typescript.mjs sets it, under this
 * name, for its process and the processes it starts); unset when the sources run through tsx or vite.
 */
const PRECOMPILED_ENV = 'CONFORMANCE_PRECOMPILED_VALIDATORS';

type Validators = Record<string, ValidateFunction>;

/** The precompiled validators by ref (from `file`), or null when there are none. */
export function precompiledValidators(file = process.env[PRECOMPILED_ENV]): Validators | null {
  if (!file || !existsSync(file)) return null;
  const require = createRequire(import.meta.url);
  const factory = require(file) as (deps: { formats: unknown; checks: typeof semanticChecks; require: NodeJS.Require }) => Validators;
  return factory({ formats: createAjv().formats, checks: semanticChecks, require });
}

/** The contract loaded once per process (with the precompiled validators when there are). */
export function loadContract(): Contract {
  cached ??= buildContract({ precompiled: precompiledValidators() });
  return cached;
}

/**
 * The members a request body's schema names for the object at `path` (`items` steps into an array's items): what a
 * request may send of a value a response showed. A response may show more members, and whether a request may name
 * them is not shown.
 */
export function requestMembers(document: string, ...path: string[]): readonly string[] {
  let node = loadContract().documents.get(document) as Record<string, unknown> | undefined;
  for (const step of path)
    node = (step === 'items' ? node?.items : (node?.properties as Record<string, unknown> | undefined)?.[step]) as Record<string, unknown> | undefined;
  const properties = node?.properties;
  if (!properties || typeof properties !== 'object') throw new Error(`${document} names no members at ${path.join('.')}`);
  return Object.keys(properties);
}

/** `value` (an object a response showed) with only `members`, to be sent back; not an object: as it is. */
export function withMembers(value: unknown, members: readonly string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([member]) => members.includes(member)));
}

/** Every schema document under `schemasDir`, by name, with the rules its nodes inherit. */
function readDocuments(schemasDir: string): Map<string, Json> {
  const documents = new Map<string, Json>();
  for (const file of listSchemaFiles(schemasDir)) {
    const name = relative(schemasDir, file)
      .split(sep)
      .join('/')
      .replace(/\.json$/, '');
    const document = JSON.parse(readFileSync(file, 'utf8')) as Json;
    if (document.$id !== schemaId(name)) throw new Error(`${file}: $id must be ${schemaId(name)}`);
    inheritRules(document);
    documents.set(name, document);
  }
  return documents;
}

/**
 * Loads every schema under schemas/; a validator is the precompiled one when given, else compiled on first use (the
 * schemas registered with ajv then, once).
 */
export function buildContract({
  precompiled = null,
  schemasDir = SCHEMAS_DIR,
  source = false,
}: { precompiled?: Validators | null; schemasDir?: string; source?: boolean } = {}): Contract & { ajv(): Ajv2020 } {
  const documents = readDocuments(schemasDir);
  let ajv: Ajv2020 | undefined;
  const withSchemas = (): Ajv2020 => {
    if (!ajv) {
      ajv = createAjv({ source });
      for (const document of documents.values()) ajv.addSchema(document);
    }
    return ajv;
  };
  const compiled = new Map<string, ValidateFunction>();
  return {
    names: [...documents.keys()].sort(),
    documents,
    ajv: withSchemas,
    validator(ref: string) {
      let validate = compiled.get(ref) ?? precompiled?.[ref];
      if (!validate) {
        const ajv = withSchemas();
        if (ref.startsWith(LIST_PREFIX) && !ajv.getSchema(schemaId(ref))) ajv.addSchema(listSchema(ref.slice(LIST_PREFIX.length)));
        const id = ref.startsWith('https://') ? ref : schemaId(ref);
        validate = ajv.getSchema(id);
        if (!validate) throw new Error(`no schema ${ref}`);
      }
      compiled.set(ref, validate);
      return validate;
    },
  };
}

/**
 * The CommonJS source of the precompiled validators (written by bin/typescript.mjs beside the compiled copy): a
 * function of the formats and semantic checks that returns a validator for every schema and every resource list, by
 * ref. Compiling them is most of a worker thread's start-up cost (~0.8 s of CPU in a full run).
 */
export async function precompiledValidatorsSource(schemasDir = SCHEMAS_DIR): Promise<string> {
  // CommonJS whose module.exports is the function, while its type declarations describe an ES default export.
  const standaloneCode = (await import('ajv/dist/standalone/index.js')).default.default;
  const contract = buildContract({ schemasDir, source: true });
  const refs = [...contract.names, ...contract.names.filter((name) => name.startsWith('resources/')).map((name) => `${LIST_PREFIX}${name}`)];
  for (const ref of refs) contract.validator(ref);
  const code = standaloneCode(contract.ajv(), Object.fromEntries(refs.map((ref) => [ref, schemaId(ref)])));
  // The code's own `require` (of ajv's runtime helpers) is the contract module's: the file may sit anywhere.
  return `"use strict";\nmodule.exports = function validators(deps) {\nconst require = deps.require;\nconst exports = {};\n${code}\nreturn exports;\n};\n`;
}

/** The rule a failing keyword breaks: `x-rules[keyword]` (optionally keyed by the property at fault), else the node's `x-rule`. */
function ruleOfError(error: ErrorObject): string {
  if (error.keyword === 'x-check' && typeof error.params?.rule === 'string') return error.params.rule;
  const parent = (error.parentSchema ?? {}) as Json;
  const mapped = (parent['x-rules'] as Json | undefined)?.[error.keyword];
  if (typeof mapped === 'string') return mapped;
  if (mapped && typeof mapped === 'object') {
    const key = String(error.params?.missingProperty ?? error.params?.additionalProperty ?? '');
    const byProperty = (mapped as Json)[key];
    if (typeof byProperty === 'string') return byProperty;
  }
  return typeof parent['x-rule'] === 'string' ? parent['x-rule'] : UNMAPPED_RULE;
}

/** Keywords whose failure only echoes a more precise failure below them. */
const ECHO_KEYWORDS = new Set(['if', 'anyOf', 'oneOf', 'allOf', 'then', 'else']);

function violationsOf(errors: ErrorObject[] | null | undefined): Violation[] {
  const all = errors ?? [];
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of all) {
    if (error.keyword === 'if') continue;
    if (
      ECHO_KEYWORDS.has(error.keyword) &&
      all.some(
        (other) =>
          other !== error &&
          other.instancePath.startsWith(error.instancePath) &&
          other.schemaPath.startsWith(error.schemaPath.replace(/\/[^/]+$/, '')) &&
          !ECHO_KEYWORDS.has(other.keyword),
      )
    )
      continue;
    let path = error.instancePath;
    if (error.keyword === 'required') path += `/${String(error.params.missingProperty)}`;
    if (error.keyword === 'x-check' && error.params?.path) path += String(error.params.path);
    const violation = { rule: ruleOfError(error), path: path || '/', message: error.message ?? error.keyword, keyword: error.keyword };
    const key = `${violation.rule}|${violation.path}|${violation.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      violations.push(violation);
    }
  }
  return violations;
}

const rulesCache = new Map<string, string[]>();

/**
 * Every rule a schema (and what it references) can report: its `x-rule`/`x-rules` ids and the ids its semantic
 * checks name. Validating a body against the schema exercises all of them.
 */
export function rulesOfSchema(ref: string): string[] {
  const cached = rulesCache.get(ref);
  if (cached) return cached;
  const contract = loadContract();
  const found = new Set<string>();
  const seen = new Set<string>();
  /** Visits the node a `$ref` names: a whole document, or only the fragment its JSON pointer picks. */
  const visitRef = (ref: string) => {
    if (seen.has(ref)) return;
    seen.add(ref);
    const [file, pointer = ''] = ref.replace(/^\/schemas\//, '').split('#');
    let node: unknown = contract.documents.get(file!.replace(/\.json$/, ''));
    for (const key of pointer.split('/').filter(Boolean)) node = (node as Json | undefined)?.[decodeURIComponent(key)];
    if (node && typeof node === 'object') visit(node as Json);
  };
  const visit = (node: Json) => {
    const mapped = Object.values((node['x-rules'] as Json | undefined) ?? {}).flatMap((value) =>
      typeof value === 'string' ? [value] : Object.values(value as Json),
    );
    for (const id of [node['x-rule'], ...mapped]) if (typeof id === 'string') found.add(id);
    if (typeof node['x-check'] === 'string') for (const id of rulesNamedBy(semanticChecks[node['x-check']])) found.add(id);
    if (typeof node.$ref === 'string' && node.$ref.startsWith('/schemas/')) visitRef(node.$ref);
    forEachSubschema(node, '', (subschema) => visit(subschema));
  };
  if (ref.startsWith(LIST_PREFIX)) {
    visitRef(`/schemas/${ENVELOPE}.json`);
    visitRef(`/schemas/${ref.slice(LIST_PREFIX.length)}.json`);
  } else visitRef(`/schemas/${ref}.json`);
  const rules = [...found].sort();
  rulesCache.set(ref, rules);
  return rules;
}

/** The rule ids a semantic check reports: the rule-id literals in its source. */
export function rulesNamedBy(check: SemanticCheck | undefined): string[] {
  return check ? [...new Set(String(check).match(/P[123]\.[a-z0-9-]+(?:\.[a-z0-9-]+)+/g) ?? [])] : [];
}

/** Validates a value against a schema by name (`resources/account`) or full id. */
export function validateValue(ref: string, value: unknown): Violation[] {
  const validate = loadContract().validator(ref);
  return validate(value) ? [] : violationsOf(validate.errors);
}
