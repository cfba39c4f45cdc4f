// A concrete path finds its catalogue endpoint, with an id holding a slash encoded or, where the target takes it so, raw.
import { describe, expect, it } from 'vitest';
import { endpointKey, endpoints, type ParamKind } from '../../rules/endpoints.js';
import { findEndpoint } from '../../harness/responses.js';

const SAMPLE: Record<ParamKind, string> = {
  integer: '7',
  string: 'some-label',
  uuid: '00000000-0000-4000-8000-000000000007',
  'engine-id': 'mysql/8.0.26',
  ip: '192.0.2.7',
  'ipv6-range': '2001:db8::',
};
/** Ids the documents show with a slash (images), or that may hold one (kernels: what one looks like is not shown). */
const SLASHED: Record<string, string> = { imageId: 'private/27', kernelId: 'chs/latest-64bit' };

function concrete(path: string, params: Record<string, ParamKind>, form: 'encoded' | 'raw'): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = SLASHED[name] ?? SAMPLE[params[name]!];
    return form === 'raw' ? id : encodeURIComponent(id);
  });
}

describe('findEndpoint', () => {
  it.each(endpoints.flatMap((endpoint) => (['encoded', 'raw'] as const).map((form) => [endpointKey(endpoint), form, endpoint] as const)))(
    '%s (%s)',
    (_, form, endpoint) => {
      expect(findEndpoint(`${endpoint.method} ${concrete(endpoint.path, endpoint.params, form)}?page=2`)).toBe(endpoint);
    },
  );

  it.each([
    ['GET /v4/images/private/15', 'GET /v4/images/{imageId}'],
    ['PUT /v4/images/private/15', 'PUT /v4/images/{imageId}'],
    ['DELETE /v4/images/private/15', 'DELETE /v4/images/{imageId}'],
    ['GET /v4/images/compute/ubuntu-24.04', 'GET /v4/images/{imageId}'],
    ['POST /v4/images/upload', 'POST /v4/images/upload'],
    ['POST /v4/images', 'POST /v4/images'],
    ['GET /v4/compute/kernels/chs/latest-64bit', 'GET /v4/compute/kernels/{kernelId}'],
    ['GET /v4/images/private/15/more', undefined],
    ['POST /v4/images/private/15', undefined],
    ['GET /v4/compute/instances/7/configs', 'GET /v4/compute/instances/{computeId}/configs'],
    ['GET /v4/domains/7/records', 'GET /v4/domains/{domainId}/records'],
  ])('%s → %s', (spec, key) => {
    const endpoint = findEndpoint(spec);
    expect(endpoint && endpointKey(endpoint)).toBe(key);
  });
});
