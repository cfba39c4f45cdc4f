// An OpenAPI 3.1 document generated from the endpoint catalogue and the schemas, so other tools (Prism,
// Schemathesis, client generators) read the same contract. JSON Schema 2020-12 is OpenAPI 3.1's dialect: every
// schema goes under components/schemas as it is, its $refs rewritten to point there.
import { readFileSync } from 'node:fs';
import { ENVELOPE, SCHEMAS_DIR, loadContract } from './contract.js';
import { endpointKey, endpoints, type Endpoint, type ParamKind } from '../rules/endpoints.js';
import { DOCUMENTS_VERSION, ledger } from '../rules/index.js';

type Json = Record<string, unknown>;

/** Component key of a schema name: `requests/domain-create` → `requests.domain-create` (keys allow no slash). */
const componentName = (name: string): string => name.replace(/\//g, '.');
const componentRef = (name: string, fragment = ''): Json => ({ $ref: `#/components/schemas/${componentName(name)}${fragment}` });

/** Rewrites `/schemas/<name>.json#/frag` and local `#/frag` references of document `self` into component references. */
function rewriteRefs(node: unknown, self: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, self));
  if (!node || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') {
      const [file, fragment = ''] = value.split('#');
      const target = file ? file.replace(/^\/schemas\//, '').replace(/\.json$/, '') : self;
      copy.$ref = componentRef(target, fragment).$ref;
    } else copy[key] = rewriteRefs(value, self);
  }
  return copy;
}

const PARAM_SCHEMAS: Record<ParamKind, Json> = {
  integer: { type: 'integer' },
  string: { type: 'string' },
  uuid: { type: 'string', format: 'uuid' },
  'engine-id': { type: 'string', description: '`<engine>/<version>`, e.g. `mysql/8.0.26`: the slash is part of the path' },
  ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
  'ipv6-range': { type: 'string', description: 'an IPv6 range, `<address>/<prefix length>`' },
};

/**
 * The paging parameters of a list, as its document gives them. Documents 2 and 3: "`page` (integer >= 1, default 1)
 * and `page_size` (integer 25..100, default 100)"; document 1: "Bounds of page and page_size on database and account
 * lists: not shown".
 */
function pageParams(endpoint: Endpoint): Json[] {
  const param = (name: string, schema: Json, more: Json) => ({ name, in: 'query', required: false, schema, ...more });
  if (endpoint.document === 'part1') {
    const notShown = { description: 'Bounds and default not shown in document 1 ("Bounds of page and page_size on database and account lists: not shown")' };
    return [param('page', { type: 'integer' }, notShown), param('page_size', { type: 'integer' }, notShown)];
  }
  const part = endpoint.document === 'part2' ? 'P2' : 'P3';
  return [
    param('page', { type: 'integer', minimum: 1, default: 1 }, { 'x-rules': [`${part}.pagination.page.min-1`, `${part}.pagination.page.default-1`] }),
    param(
      'page_size',
      { type: 'integer', minimum: 25, maximum: 100, default: 100 },
      { 'x-rules': [`${part}.pagination.page-size.min-25`, `${part}.pagination.page-size.max-100`, `${part}.pagination.page-size.default-100`] },
    ),
  ];
}

function successResponse(endpoint: Endpoint): Json {
  const spec = endpoint.response;
  const inferred = 'level' in spec && spec.level === 'SHOULD' ? ' (shape inferred: a divergence is a warning)' : '';
  const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
  switch (spec.kind) {
    case 'resource':
      return { description: `Success${inferred}`, ...json(componentRef(spec.schema)) };
    case 'list': {
      const data = spec.item ? { type: 'array', items: componentRef(spec.item) } : { type: 'array', description: 'item fields not shown' };
      return { description: `A page of the list${inferred}`, ...json({ allOf: [componentRef(ENVELOPE)], properties: { data } }) };
    }
    case 'empty':
      return { description: 'Success: `{}`', ...json(componentRef('common/empty')) };
    case 'not-shown':
      return { description: 'Success (any 2xx); the documents do not show the response body' };
  }
}

function security(endpoint: Endpoint): Json[] | undefined {
  switch (endpoint.auth) {
    case 'token':
      return [{ token: endpoint.scopes }];
    case 'none':
      return [];
    case 'optional':
      return [{}, { token: endpoint.scopes }];
    case 'not-shown':
      return undefined;
  }
}

function operation(endpoint: Endpoint, rulesOf: Map<string, string[]>): Json {
  const key = endpointKey(endpoint);
  const parameters = [
    ...Object.entries(endpoint.params).map(([name, kind]) => ({ name, in: 'path', required: true, schema: PARAM_SCHEMAS[kind] })),
    ...(endpoint.paginated ? pageParams(endpoint) : []),
  ];
  return {
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: key,
    tags: [endpoint.section],
    ...(endpoint.flags.includes('deprecated') ? { deprecated: true } : {}),
    ...(security(endpoint) ? { security: security(endpoint) } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(endpoint.request ? { requestBody: { required: true, content: { 'application/json': { schema: componentRef(endpoint.request) } } } } : {}),
    responses: {
      '2XX': successResponse(endpoint),
      '4XX': {
        description: 'Rejected (any 4xx; a sixth concurrent clone is HTTP 400)',
        content: { 'application/json': { schema: componentRef('common/error-body') } },
      },
    },
    'x-document': { part: endpoint.document, section: endpoint.section, line: endpoint.line },
    'x-flags': endpoint.flags,
    'x-rules': rulesOf.get(key) ?? [],
  };
}

/** The whole contract as one OpenAPI 3.1 document. */
export function openApiDocument(): Json {
  const contract = loadContract();
  const rulesOf = new Map<string, string[]>();
  for (const rule of ledger) for (const key of rule.endpoints) rulesOf.set(key, [...(rulesOf.get(key) ?? []), rule.id]);
  const paths: Record<string, Json> = {};
  for (const endpoint of endpoints) (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(endpoint, rulesOf);
  // The files as written (the loaded contract carries every inherited x-rule, which only repeats them).
  const raw = (name: string) => JSON.parse(readFileSync(`${SCHEMAS_DIR}${name}.json`, 'utf8')) as Json;
  const schemas = Object.fromEntries(contract.names.map((name) => [componentName(name), rewriteRefs(raw(name), name)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cloud Hosting Service API',
      version: DOCUMENTS_VERSION,
      description:
        'Generated by chs-conformance from its endpoint catalogue and JSON Schemas. `x-rule`/`x-rules` name the ledger rule a constraint ' +
        "belongs to; `x-check` names a semantic check only the package's validate() applies. Success is any 2xx and a rejection any 4xx: " +
        'the documents show no other codes.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas,
      securitySchemes: {
        token: { type: 'http', scheme: 'bearer', description: 'Personal access token; the security requirement lists the OAuth scopes the endpoint needs' },
      },
    },
  };
}
