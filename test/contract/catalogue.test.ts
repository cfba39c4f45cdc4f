import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../harness/contract.js';
import { endpointKey, endpoints } from '../../rules/endpoints.js';
import { responseSchemaFor } from '../../harness/responses.js';

const inventory = readFileSync(new URL('../../../shared/inventory/endpoints.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .slice(1)
  .map((line) => line.split('\t'));

describe('endpoint catalogue', () => {
  it('has the 127 endpoints of the inventory', () => {
    expect(inventory).toHaveLength(127);
    expect(endpoints).toHaveLength(127);
  });

  it.each(inventory.map((row, i) => [`${row[0]} ${row[1]}`, row, i] as const))('%s matches the inventory row', (_, row, i) => {
    const [method, path, scope, auth, document, section, line, flags] = row;
    const endpoint = endpoints[i]!;
    expect({
      method: endpoint.method,
      path: endpoint.path,
      scope: endpoint.scopes.length ? endpoint.scopes.join(', ') : endpoint.auth === 'not-shown' ? 'not shown' : 'none',
      auth: endpoint.auth,
      document: endpoint.document,
      section: endpoint.section,
      line: String(endpoint.line),
      flags: endpoint.flags.join(','),
    }).toEqual({ method, path, scope, auth, document, section, line, flags: flags ?? '' });
  });

  it('declares a kind for every path parameter', () => {
    for (const endpoint of endpoints)
      expect(Object.keys(endpoint.params).sort(), endpointKey(endpoint)).toEqual([...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
  });

  it('names only existing schemas for requests and responses', () => {
    const names = new Set(loadContract().names);
    const missing = endpoints.flatMap((endpoint) => {
      const refs = [
        endpoint.request,
        endpoint.response.kind === 'resource' ? endpoint.response.schema : endpoint.response.kind === 'list' ? endpoint.response.item : null,
      ];
      return refs.filter((ref): ref is string => !!ref && !names.has(ref)).map((ref) => `${endpointKey(endpoint)}: ${ref}`);
    });
    expect(missing).toEqual([]);
  });

  it('compiles the response schema of every endpoint and status (lists composed with their items)', () => {
    const unjudged = endpoints.filter((endpoint) => {
      for (const status of [200, 400, 500]) {
        const schema = responseSchemaFor(endpoint, status);
        if (schema) loadContract().validator(schema.ref);
      }
      return endpoint.response.kind !== 'not-shown' && !responseSchemaFor(endpoint, 200);
    });
    expect(unjudged.map(endpointKey)).toEqual([]);
  });

  it('gives a request schema to every request schema file, and a body only to POST and PUT', () => {
    const used = new Set(endpoints.map((endpoint) => endpoint.request).filter(Boolean));
    const shared = new Set(['requests/interfaces', 'requests/device-map']);
    expect(loadContract().names.filter((name) => name.startsWith('requests/') && !used.has(name) && !shared.has(name))).toEqual([]);
    expect(endpoints.filter((endpoint) => endpoint.request && !['POST', 'PUT'].includes(endpoint.method)).map(endpointKey)).toEqual([]);
  });
});
