// Emulator self-tests, document 2 "Images": list/view with and without a token, capture, upload (and the
// emulator's own upload target), update, delete, and the image state machine on the simulated clock.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectError, useEmulator, withTokens } from './supertest-helpers.js';

const STRONG = 'Str0ng!Pass';

const emulator = useEmulator();
const { get, post, put, del, token } = withTokens(emulator);
const enc = (id: string) => `/v4/images/${encodeURIComponent(id)}`;

async function advance(seconds: number): Promise<void> {
  expect((await post('/__control/clock', { advance_seconds: seconds })).status).toBe(200);
}
async function diskOfNewInstance(): Promise<number> {
  const inst = (await post('/v4/compute/instances', { region: 'us-east', type: 'g6-nanode-1', image: 'compute/debian12', root_pass: STRONG })).body;
  const cfg = (await get(`/v4/compute/instances/${inst.id}/configs`)).body.data[0];
  return cfg.devices.sda.disk_id as number;
}
/** The upload target path of an `upload_to` URL. */
const uploadPath = (url: string) => new URL(url).pathname;

describe('list and view', () => {
  it('without a token only public images; with a token private ones too', async () => {
    const anon = await get('/v4/images', null);
    expect(anon.status).toBe(200);
    expect(anon.body.data.length).toBeGreaterThan(0);
    expect(anon.body.data.every((i: any) => i.id.startsWith('compute/') && i.is_public)).toBe(true);
    const authed = await get('/v4/images');
    expect(authed.body.results).toBe(anon.body.results + 1);
    expect(authed.body.data.some((i: any) => i.id.startsWith('private/'))).toBe(true);
    expectError(await get('/v4/images', 'unknown-token'), 401);
    expectError(await get('/v4/images?page_size=24'), 400, 'page_size');
    expect((await get('/v4/images?page_size=25&page=2')).body.data).toEqual([]);
  });

  it('restricted users see private images only with a grant', async () => {
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    const none = await token({ restricted: true });
    expect((await get('/v4/images', none)).body.data.some((i: any) => i.id === priv.id)).toBe(false);
    expectError(await get(enc(priv.id), none), 404);
    const ro = await token({ restricted: true, grants: { entities: { image: { [priv.id]: 'read_only' } } } });
    expect((await get(enc(priv.id), ro)).status).toBe(200);
    expectError(await put(enc(priv.id), { label: 'x' }, ro), 403);
    expectError(await del(enc(priv.id), ro), 403);
  });

  it('views a public image with or without a token, a private one only with a token', async () => {
    const pub = await get(enc('compute/debian12'), null);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ id: 'compute/debian12', status: 'available', is_public: true });
    // the slash of the id may also be sent unencoded
    expect((await get('/v4/images/compute/debian12', null)).body).toEqual(pub.body);
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    expect((await get(enc(priv.id))).body.id).toBe(priv.id);
    expectError(await get(enc(priv.id), null), 401);
    expectError(await get(enc('compute/nothing')), 404);
    expectError(await get(enc('private/999999')), 404);
  });
});

describe('capture from a disk', () => {
  it('creates a private image, creating then available after a simulated minute', async () => {
    const disk = await diskOfNewInstance();
    const res = await post('/v4/images', { disk_id: disk, description: 'golden' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'creating', is_public: false, label: 'Debian 12 Disk', description: 'golden' });
    expect(res.body.id).toMatch(/^private\/\d+$/);
    // not deployable yet
    const deploy = { region: 'us-east', type: 'g6-nanode-1', image: res.body.id, root_pass: STRONG };
    expectError(await post('/v4/compute/instances', deploy), 400, 'image');
    await advance(61);
    expect((await get(enc(res.body.id))).body.status).toBe('available');
    expect((await post('/v4/compute/instances', deploy)).status).toBe(200);
    const named = await post('/v4/images', { disk_id: disk, label: 'my-image' });
    expect(named.body.label).toBe('my-image');
  });

  it('validates the capture body and needs both scopes', async () => {
    const disk = await diskOfNewInstance();
    expectError(await post('/v4/images', {}), 400, 'disk_id');
    expectError(await post('/v4/images', { disk_id: 'x' }), 400, 'disk_id');
    expectError(await post('/v4/images', { disk_id: 999999 }), 400, 'disk_id');
    expectError(await post('/v4/images', { disk_id: disk, label: '' }), 400, 'label');
    expectError(await post('/v4/images', { disk_id: disk, description: '' }), 400, 'description');
    expectError(await post('/v4/images', { disk_id: disk, description: 'd'.repeat(65001) }), 400, 'description');
    expect((await post('/v4/images', { disk_id: disk, description: 'd'.repeat(65000) })).status).toBe(200);
    expect((await post('/v4/images', { disk_id: disk, description: 'd' })).status).toBe(200);
    const imagesOnly = await token({ scopes: ['images:read_write'] });
    expectError(await post('/v4/images', { disk_id: disk }, imagesOnly), 403);
    const both = await token({ scopes: ['images:read_write', 'compute:read_only'] });
    expect((await post('/v4/images', { disk_id: disk }, both)).status).toBe(200);
  });
});

describe('upload', () => {
  it('returns pending_upload with upload_to; gzip data by PUT makes it available', async () => {
    const res = await post('/v4/images/upload', { label: 'uploaded', region: 'us-east', description: 'from a file' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending_upload', label: 'uploaded', description: 'from a file', is_public: false });
    expect(res.body.upload_to).toMatch(/^http:\/\/.+\/__upload\//);
    expect((await get(enc(res.body.id))).body).not.toHaveProperty('upload_to');
    const target = uploadPath(res.body.upload_to);
    const data = gzipSync(Buffer.alloc(4096, 7));
    expectError(await request(emulator.server()).put(target).set('Content-Type', 'application/json').send('{}'), 415);
    expectError(
      await request(emulator.server()).put(target).set('Content-Type', 'application/octet-stream').send(Buffer.from('plain text')),
      400,
      null,
      /gzip/,
    );
    const ok = await request(emulator.server()).put(target).set('Content-Type', 'application/octet-stream').send(data);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({});
    expect((await get(enc(res.body.id))).body.status).toBe('available');
    expectError(await request(emulator.server()).put(target).set('Content-Type', 'application/octet-stream').send(data), 400);
    expectError(await request(emulator.server()).put('/__upload/private/999999').set('Content-Type', 'application/octet-stream').send(data), 404);
  });

  it('is deleted when 24 simulated hours pass without data', async () => {
    const res = await post('/v4/images/upload', { label: 'late', region: 'us-east' });
    await advance(24 * 3600 - 10);
    expect((await get(enc(res.body.id))).status).toBe(200);
    await advance(20);
    expectError(await get(enc(res.body.id)), 404);
    const target = uploadPath(res.body.upload_to);
    expectError(
      await request(emulator.server())
        .put(target)
        .set('Content-Type', 'application/octet-stream')
        .send(gzipSync(Buffer.from('x'))),
      404,
    );
  });

  it('refuses a body over the emulator limit with 413', async () => {
    const res = await post('/v4/images/upload', { label: 'big', region: 'us-east' });
    const big = Buffer.alloc(64 * 1024 * 1024 + 1);
    big[0] = 0x1f;
    big[1] = 0x8b;
    expectError(await request(emulator.server()).put(uploadPath(res.body.upload_to)).set('Content-Type', 'application/octet-stream').send(big), 413);
  });

  it('validates the upload body', async () => {
    expectError(await post('/v4/images/upload', { region: 'us-east' }), 400, 'label');
    expectError(await post('/v4/images/upload', { label: 'x' }), 400, 'region');
    expectError(await post('/v4/images/upload', { label: 'x', region: 'nowhere' }), 400, 'region');
    expectError(await post('/v4/images/upload', { label: 'x', region: 'us-east', description: '' }), 400, 'description');
    expectError(await post('/v4/images/upload', { label: 'x', region: 'us-east', description: 'd'.repeat(65001) }), 400, 'description');
    expectError(await post('/v4/images/upload', []), 400, null);
    const ro = await token({ scopes: ['images:read_only'] });
    expectError(await post('/v4/images/upload', { label: 'x', region: 'us-east' }, ro), 403);
  });
});

describe('update and delete', () => {
  it('updates a private image: description 1..65000 or null, label, status enum', async () => {
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    const path = enc(priv.id);
    const res = await put(path, { label: 'renamed', description: 'd'.repeat(65000), status: 'available' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: 'renamed', status: 'available' });
    expect((await put(path, { description: null })).body.description).toBeNull();
    expect((await put(path, { description: 'x' })).body.description).toBe('x');
    expectError(await put(path, { description: '' }), 400, 'description');
    expectError(await put(path, { description: 'd'.repeat(65001) }), 400, 'description');
    expectError(await put(path, { status: 'deleted' }), 400, 'status');
    expectError(await put(path, { label: 5 }), 400, 'label');
    expectError(await put(path, 'x'), 400, null);
    // the unencoded form works too
    expect((await put(`/v4/images/${priv.id}`, { label: 'again' })).body.label).toBe('again');
  });

  it('public images cannot be updated or deleted', async () => {
    expectError(await put(enc('compute/debian12'), { label: 'mine' }), 403);
    expectError(await del(enc('compute/debian12')), 403);
    expectError(await put(enc('private/999999'), { label: 'x' }), 404);
  });

  it('deletes a private image', async () => {
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    const res = await del(enc(priv.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expectError(await get(enc(priv.id)), 404);
    expectError(await del(enc(priv.id)), 404);
    expectError(await request(emulator.server()).delete(enc('compute/debian12')), 401);
  });

  it('garbage bodies never give a 5xx', async () => {
    const priv = (await get('/v4/images')).body.data.find((i: any) => !i.is_public);
    for (const g of [[], 'x', 1, null, { disk_id: 1e300 }, { label: {}, region: [] }, { description: [1] }, { status: 3 }]) {
      for (const [m, p] of [
        ['post', '/v4/images'],
        ['post', '/v4/images/upload'],
        ['put', enc(priv.id)],
      ] as const) {
        expect((await (m === 'post' ? post(p, g) : put(p, g))).status).toBeLessThan(500);
      }
    }
  });
});
