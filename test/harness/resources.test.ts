// One path per resource kind (ids with slashes are one segment) and a delete that counts only once a read confirms it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../harness/http.js';
import { deleteConfirmed, resourcePath } from '../../harness/resources.js';
import { startFakeServer, type FakeServer } from '../hostile/fake-servers.js';

describe('resourcePath', () => {
  it.each([
    ['image', 'private/27', undefined, '/v4/images/private%2F27'],
    ['ipv6-range', '2600:3c01::/64', undefined, '/v4/networking/ipv6/ranges/2600%3A3c01%3A%3A'],
    ['tag', 'a b/c', undefined, '/v4/tags/a%20b%2Fc'],
    ['record', 7, 3, '/v4/domains/3/records/7'],
    ['oauth-client', 'abc/def', undefined, '/v4/account/oauth-clients/abc%2Fdef'],
  ] as const)('%s %s', (kind, id, parent, path) => {
    expect(resourcePath(kind, id, parent)).toBe(path);
  });

  it('refuses a child kind without its parent', () => {
    expect(() => resourcePath('config', 1)).toThrow(/parent/);
  });
});

describe('deleteConfirmed', () => {
  /** Resources by path: a DELETE of a known path removes it; anything else is 404 (or the status `removed` holds for it). */
  const present = new Set<string>();
  const shownDeleted = new Set<string>();
  const removed = new Map<string, number>();
  let server: FakeServer;
  let http: HttpClient;
  beforeAll(async () => {
    server = await startFakeServer((request, response) => {
      const path = request.url ?? '';
      const known = present.has(path);
      if (request.method === 'DELETE' && known && path.includes('shown')) shownDeleted.add(path);
      if (request.method === 'DELETE' && known && !path.includes('sticky') && !path.includes('shown')) present.delete(path);
      const body = shownDeleted.has(path) ? '{"id":1,"status":"deleted"}' : '{"id":1}';
      const refused = removed.get(path) ?? 404;
      response.writeHead(known ? 200 : refused, { 'content-type': 'application/json' }).end(known ? body : '{"errors":[{"reason":"Not found"}]}');
    });
    http = new HttpClient(server.url, 2000);
  });
  afterAll(async () => {
    await http.close();
    await server.close();
  });
  const remove = (path: string, kind = 'image') => deleteConfirmed({ http, token: 't0k3n-abc', kind, path, windowMs: 300 });

  it('a delete the read confirms is deleted', async () => {
    present.add('/v4/images/private%2F27');
    expect(await remove('/v4/images/private%2F27')).toBe('deleted');
  });

  it('a resource already gone is gone; one still readable after a successful DELETE is not deleted', async () => {
    expect(await remove('/v4/images/private%2F99')).toBe('gone');
    present.add('/v4/images/sticky');
    expect(await remove('/v4/images/sticky')).toMatch(/DELETE answered HTTP 200 but GET still answers HTTP 200/);
  });

  it('a view answering 410 after the DELETE is deleted (no code is named), but not one answering 400, 401 or 403', async () => {
    for (const status of [410]) {
      removed.set(`/v4/domains/${status}`, status);
      present.add(`/v4/domains/${status}`);
      expect(await remove(`/v4/domains/${status}`, 'domain')).toBe('deleted');
    }
    for (const status of [400, 401, 403]) {
      removed.set(`/v4/domains/${status}`, status);
      present.add(`/v4/domains/${status}`);
      expect(await remove(`/v4/domains/${status}`, 'domain')).toMatch(new RegExp(`GET still answers HTTP ${status}`));
    }
  });

  it('a view answering what the target answers for an id never made (absentStatus) is deleted; 403 is not without it', async () => {
    removed.set('/v4/domains/absent-403', 403);
    present.add('/v4/domains/absent-403');
    expect(await deleteConfirmed({ http, token: 't0k3n-abc', kind: 'domain', path: '/v4/domains/absent-403', windowMs: 300, absentStatus: 403 })).toBe(
      'deleted',
    );
    expect(await deleteConfirmed({ http, token: 't0k3n-abc', kind: 'domain', path: '/v4/domains/absent-403', windowMs: 300, absentStatus: 403 })).toBe('gone');
    expect(await remove('/v4/domains/absent-403', 'domain')).toBe('DELETE answered HTTP 403');
  });

  it('a firewall still shown after its DELETE, with status deleted, is deleted (the documents allow it)', async () => {
    present.add('/v4/networking/firewalls/shown');
    expect(await remove('/v4/networking/firewalls/shown', 'firewall')).toBe('deleted');
    present.add('/v4/images/shown');
    expect(await remove('/v4/images/shown')).toMatch(/GET still answers HTTP 200/);
  });
});
