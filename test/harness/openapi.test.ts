// The exported OpenAPI document's paging parameters, per document: documents 2 and 3 bound page and page_size
// ("`page` (integer >= 1, default 1) and `page_size` (integer 25..100, default 100)"); document 1 does not ("Bounds
// of page and page_size on database and account lists: not shown").
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../harness/openapi.js';
import { endpoints } from '../../rules/endpoints.js';

type Parameter = { name: string; in: string; schema: Record<string, unknown>; description?: string; 'x-rules'?: string[] };
const document = openApiDocument() as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
const paging = (path: string) => {
  const parameters = document.paths[path]!.get!.parameters ?? [];
  return Object.fromEntries(parameters.filter((parameter) => parameter.in === 'query').map((parameter) => [parameter.name, parameter]));
};

describe('the OpenAPI document pages lists as each document says', () => {
  it('documents 2 and 3: page >= 1, default 1; page_size 25..100, default 100, naming their rules', () => {
    for (const [path, part] of [
      ['/v4/compute/kernels', 'P2'],
      ['/v4/networking/firewalls', 'P3'],
    ] as const) {
      const { page, page_size } = paging(path);
      expect(page!.schema).toEqual({ type: 'integer', minimum: 1, default: 1 });
      expect(page!['x-rules']).toEqual([`${part}.pagination.page.min-1`, `${part}.pagination.page.default-1`]);
      expect(page_size!.schema).toEqual({ type: 'integer', minimum: 25, maximum: 100, default: 100 });
      expect(page_size!['x-rules']).toEqual([
        `${part}.pagination.page-size.min-25`,
        `${part}.pagination.page-size.max-100`,
        `${part}.pagination.page-size.default-100`,
      ]);
    }
  });

  it('document 1: integers with no bounds and no default, saying they are not shown', () => {
    for (const path of ['/v4/account/events', '/v4/databases/types']) {
      const { page, page_size } = paging(path);
      for (const parameter of [page!, page_size!]) {
        expect(parameter.schema).toEqual({ type: 'integer' });
        expect(parameter.description).toMatch(/not shown/);
      }
    }
  });

  it('every paginated endpoint has both, none bounded beyond what its document gives', () => {
    for (const endpoint of endpoints.filter((candidate) => candidate.paginated)) {
      const { page, page_size } = paging(endpoint.path);
      expect(page, endpoint.path).toBeDefined();
      expect(page_size, endpoint.path).toBeDefined();
      if (endpoint.document === 'part1') expect(page_size!.schema, endpoint.path).toEqual({ type: 'integer' });
      else expect(page_size!.schema.maximum, endpoint.path).toBe(100);
    }
  });
});
