// Emulator self-tests, document 2 "Tags": create (tagging listed objects, all or nothing), delete from every
// object, and the paginated mixed list of tagged objects.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { getStore } from '../../emulator/server.js';
import { expectError, useEmulator, withTokens } from './supertest-helpers.js';
import { listBalancers, listVolumes } from '../../emulator/areas/compute/model.js';
import { getInstance } from '../../emulator/core/entities.js';
import { listDomains } from '../../emulator/areas/domains/model.js';

const emulator = useEmulator();
const { get, post, del, token } = withTokens(emulator);

async function ids() {
  const store = getStore(emulator.app);
  const inst = (await get('/v4/compute/instances')).body.data[0];
  let domain = listDomains(store)[0];
  if (!domain) {
    const res = await post('/v4/domains', { domain: 'tags-test.example', type: 'master', soa_email: 'admin@tags-test.example' });
    expect(res.status).toBe(200);
    domain = listDomains(getStore(emulator.app))[0]!;
  }
  return { compute: inst.id as number, domain: domain.id, volume: listVolumes(store)[0]!.id, balancer: listBalancers(store)[0]!.id };
}

describe('tags', () => {
  it('creates a tag on the listed objects and lists them mixed by kind', async () => {
    const o = await ids();
    const res = await post('/v4/tags', { label: 'team-a', computes: [o.compute], domains: [o.domain], volumes: [o.volume], balancers: [o.balancer] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ label: 'team-a' });
    const list = await get('/v4/tags/team-a');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, pages: 1, results: 4 });
    // instance (hypervisor), domain (domain), volume (filesystem_path), balancer (hostname): the objects themselves
    expect(list.body.data.map((x: any) => ['hypervisor', 'domain', 'filesystem_path', 'hostname'].find((k) => k in x))).toEqual([
      'hypervisor',
      'domain',
      'filesystem_path',
      'hostname',
    ]);
    expect(list.body.data[0].id).toBe(o.compute);
    expect(list.body.data[0].tags).toContain('team-a');
    expect(list.body.data[1].tags).toContain('team-a');
    // a tag with no objects exists and lists nothing
    expect((await post('/v4/tags', { label: 'empty' })).status).toBe(200);
    expect((await get('/v4/tags/empty')).body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });

  it('label is required, 3..50 characters, and new', async () => {
    expectError(await post('/v4/tags', {}), 400, 'label');
    expectError(await post('/v4/tags', { label: 'ab' }), 400, 'label');
    expectError(await post('/v4/tags', { label: 'x'.repeat(51) }), 400, 'label');
    expectError(await post('/v4/tags', { label: 7 }), 400, 'label');
    expect((await post('/v4/tags', { label: 'abc' })).status).toBe(200);
    expect((await post('/v4/tags', { label: 'x'.repeat(50) })).status).toBe(200);
    expectError(await post('/v4/tags', { label: 'abc' }), 400, 'label');
    expectError(await post('/v4/tags', ['abc']), 400, null);
  });

  it('all or nothing: an unknown or invalid object id creates no tag and tags nothing', async () => {
    const o = await ids();
    expectError(await post('/v4/tags', { label: 'partial', computes: [o.compute, 999999] }), 400, 'computes.1');
    expectError(await post('/v4/tags', { label: 'partial', volumes: ['x'] }), 400, 'volumes.0');
    expectError(await post('/v4/tags', { label: 'partial', domains: 5 }), 400, 'domains');
    expectError(await post('/v4/tags', { label: 'partial', balancers: [999999] }), 400, 'balancers.0');
    expectError(await get('/v4/tags/partial'), 404);
    expect(getInstance(getStore(emulator.app), o.compute)!.tags).not.toContain('partial');
  });

  it('create and delete are for unrestricted users with account:read_write', async () => {
    const restricted = await token({ restricted: true });
    expectError(await post('/v4/tags', { label: 'nope' }, restricted), 403);
    const ro = await token({ scopes: ['account:read_only'] });
    expectError(await post('/v4/tags', { label: 'nope' }, ro), 403);
    expect((await post('/v4/tags', { label: 'yes-tag' })).status).toBe(200);
    expectError(await del('/v4/tags/yes-tag', restricted), 403);
    expectError(await request(emulator.server()).get('/v4/tags/yes-tag'), 401);
  });

  it('delete removes the tag from every object and deletes it', async () => {
    const o = await ids();
    await post('/v4/tags', { label: 'gone-soon', computes: [o.compute], domains: [o.domain], volumes: [o.volume], balancers: [o.balancer] });
    const res = await del('/v4/tags/gone-soon');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await get('/v4/tags/gone-soon'), 404);
    const store = getStore(emulator.app);
    expect(getInstance(store, o.compute)!.tags).not.toContain('gone-soon');
    expect(listDomains(store).some((d) => d.tags.includes('gone-soon'))).toBe(false);
    expect(listVolumes(store).some((v) => v.tags.includes('gone-soon'))).toBe(false);
    expect(listBalancers(store).some((b) => b.tags.includes('gone-soon'))).toBe(false);
    expectError(await del('/v4/tags/gone-soon'), 404);
  });

  it('tags set through an instance body are listed too; the list is paginated and filtered by visibility', async () => {
    for (let i = 0; i < 26; i++) {
      const r = await post('/v4/compute/instances', { region: 'us-west', type: 'g6-nanode-1', tags: ['fleet'] });
      expect(r.status).toBe(200);
    }
    const p2 = await get('/v4/tags/fleet?page=2&page_size=25');
    expect(p2.body).toMatchObject({ page: 2, pages: 2, results: 26 });
    expect(p2.body.data).toHaveLength(1);
    expectError(await get('/v4/tags/fleet?page_size=24'), 400, 'page_size');
    expectError(await get('/v4/tags/fleet?page=0'), 400, 'page');
    const first = (await get('/v4/tags/fleet')).body.data[0].id;
    const limited = await token({ restricted: true, grants: { entities: { compute: { [first]: 'read_only' } } } });
    expect((await get('/v4/tags/fleet', limited)).body.results).toBe(1);
    // the seeded tag lists the seeded objects of several kinds
    const seeded = await get('/v4/tags/seed');
    expect(new Set(seeded.body.data.map((x: any) => (x.hypervisor ? 'compute' : x.filesystem_path ? 'volume' : x.hostname ? 'balancer' : 'other')))).toEqual(
      new Set(['compute', 'volume', 'balancer']),
    );
  });
});
