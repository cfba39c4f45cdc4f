// The emulator's variations of images (captures, uploads, image ids) each do what they say.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { expect } from 'vitest';
import {
  advanceClock,
  AUTH,
  deleteAccepted,
  got,
  postAccepted,
  describeVariations,
  newInstance,
  sdaDiskOf,
  type Json,
  type Server,
  type VariationCase,
} from './variation-server.js';

/** A data upload to upload_to without the caller's token answers `status`; with it, 200. */
function uploadNeedsToken(status: number) {
  return async (server: Server): Promise<void> => {
    const upload = await postAccepted(server, '/v4/images/upload', { label: `with-token-${status}`, region: 'us-east' });
    const put = () =>
      request(server)
        .put(new URL(String(upload.upload_to)).pathname)
        .set('Content-Type', 'application/octet-stream');
    await put()
      .send(gzipSync(Buffer.from('disk')))
      .expect(status);
    await put()
      .set(AUTH)
      .send(gzipSync(Buffer.from('disk')))
      .expect(200);
  };
}

const cases: VariationCase[] = [
  [
    'image-content-checked',
    async (server) => {
      const uploadOf = async (data: Buffer, status: number) => {
        const upload = await postAccepted(server, '/v4/images/upload', { label: `content-${data.length}-${status}`, region: 'us-east' });
        await request(server)
          .put(new URL(String(upload.upload_to)).pathname)
          .set(AUTH)
          .set('Content-Type', 'application/octet-stream')
          .send(gzipSync(data))
          .expect(status);
      };
      await uploadOf(Buffer.alloc(64 * 1024, 0), 400);
      const mbr = Buffer.alloc(4096, 0);
      mbr[446 + 4] = 0x83;
      [mbr[510], mbr[511]] = [0x55, 0xaa];
      await uploadOf(mbr, 200);
      // (only the head is read: a large image is judged by its first sectors)
      const large = Buffer.alloc(16 * 1024 * 1024, 0);
      mbr.copy(large, 0, 0, 512);
      await uploadOf(large, 200);
      const gpt = Buffer.alloc(4096, 0);
      gpt.write('EFI PART', 512, 'latin1');
      await uploadOf(gpt, 200);
    },
  ],
  [
    'lacking-scope-anonymous',
    async (server) => {
      const minted = await request(server)
        .post('/__control/tokens')
        .send({ scopes: ['account:read_write'] })
        .expect(200);
      const lacking = { Authorization: `Bearer ${String(minted.body.token)}` };
      const ids = async (headers: Record<string, string>) =>
        ((await request(server).get('/v4/images').set(headers).expect(200)).body as { data: Json[] }).data.map((image) => String(image.id));
      expect((await ids(AUTH)).some((id) => id.startsWith('private/'))).toBe(true);
      const served = await ids(lacking);
      expect(served.length).toBeGreaterThan(0);
      expect(served.filter((id) => !id.startsWith('compute/'))).toEqual([]);
      await request(server).get('/v4/account').set(lacking).expect(200);
      await request(server).get('/v4/compute/instances').set(lacking).expect(403);
    },
  ],
  [
    'capture-needs-offline',
    async (server) => {
      const source = await newInstance(server, 'offline-capture');
      await advanceClock(server, 5 * 60);
      const disk_id = await sdaDiskOf(server, source.id);
      expect(((await request(server).post('/v4/images').set(AUTH).send({ disk_id }).expect(400)).body as { errors: Json[] }).errors[0]).toMatchObject({
        field: 'disk_id',
      });
      await request(server)
        .post(`/v4/compute/instances/${String(source.id)}/shutdown`)
        .set(AUTH)
        .expect(200);
      await advanceClock(server, 5 * 60);
      await postAccepted(server, '/v4/images', { disk_id, label: 'offline-capture' });
    },
  ],
  [
    'captures-take-an-hour',
    async (server) => {
      const source = await newInstance(server, 'capture-source');
      const image = await postAccepted(server, '/v4/images', { disk_id: await sdaDiskOf(server, source.id), label: 'slow-capture' });
      const status = async () => (await got(server, `/v4/images/${encodeURIComponent(String(image.id))}`)).status;
      await advanceClock(server, 59 * 60);
      expect(await status()).toBe('creating');
      await advanceClock(server, 2 * 60);
      expect(await status()).toBe('available');
    },
  ],
  [
    'capture-delete-waits',
    async (server) => {
      const source = await newInstance(server, 'capture-kept');
      const image = await postAccepted(server, '/v4/images', { disk_id: await sdaDiskOf(server, source.id), label: 'kept-capture' });
      const remove = () =>
        request(server)
          .delete(`/v4/images/${encodeURIComponent(String(image.id))}`)
          .set(AUTH);
      await remove().expect(400);
      await advanceClock(server, 60 * 60);
      await remove().expect(200);
    },
  ],
  [
    'image-disk-image-sized',
    async (server) => {
      const deploy = (body: Json) =>
        request(server)
          .post('/v4/compute/instances')
          .set(AUTH)
          .send({ region: 'us-east', image: 'compute/debian12', root_pass: 'q7#Vx9!mZ2@rT5$kW8%nB3&hJ6', ...body });
      const larger = (await deploy({ label: 'image-sized', type: 'g6-standard-2' }).expect(200)).body as Json;
      // 2,500 + 512 MB in use: the instance fits the smaller type
      await request(server)
        .post(`/v4/compute/instances/${String(larger.id)}/resize`)
        .set(AUTH)
        .send({ type: 'g6-standard-1', allow_auto_disk_resize: false })
        .expect(200);
      expect((await deploy({ label: 'no-room', type: 'g6-standard-1', swap_size: 49_000 }).expect(400)).body).toMatchObject({
        errors: [{ field: 'swap_size' }],
      });
    },
  ],
  [
    'image-uploads-slow',
    async (server) => {
      const upload = async (label: string) => await postAccepted(server, '/v4/images/upload', { label, region: 'us-east' });
      const status = async (image: Json) =>
        (
          (
            await request(server)
              .get(`/v4/images/${encodeURIComponent(String(image.id))}`)
              .set(AUTH)
          ).body as Json
        ).status;
      const clock = (seconds: number) => advanceClock(server, seconds);
      const sent = await upload('slow-processing');
      const waiting = await upload('never-sent');
      await request(server)
        .put(new URL(String(sent.upload_to)).pathname)
        .set('Content-Type', 'application/octet-stream')
        .send(gzipSync(Buffer.from('disk')))
        .expect(200);
      expect(await status(sent)).toBe('pending_upload');
      await clock(20 * 60);
      expect(await status(sent)).toBe('available');
      // swept at the first whole hour after its 24 hours
      await clock(24 * 3600 - 20 * 60 + 3600);
      await request(server)
        .get(`/v4/images/${encodeURIComponent(String(waiting.id))}`)
        .set(AUTH)
        .expect(404);
    },
  ],
  [
    'upload-expiry-swept-daily',
    async (server) => {
      const DAY = 86_400_000;
      const now = async () => Date.parse(`${String((await got(server, '/__control')).now)}Z`);
      const view = (image: Json) =>
        request(server)
          .get(`/v4/images/${encodeURIComponent(String(image.id))}`)
          .set(AUTH);
      // Uploaded at 01:00 UTC: its 24 hours end at 01:00 the next day, and the sweep comes at the midnight after.
      await advanceClock(server, Math.round((DAY - ((await now()) % DAY) + 3_600_000) / 1000));
      const waiting = await postAccepted(server, '/v4/images/upload', { label: 'swept-daily', region: 'us-east' });
      await advanceClock(server, 24 * 3600 + 60);
      await view(waiting).expect(200);
      expect(((await got(server, '/v4/images')).data as Json[]).some((image) => image.id === waiting.id)).toBe(true);
      await advanceClock(server, 22 * 3600);
      await view(waiting).expect(200);
      await advanceClock(server, 3600);
      await view(waiting).expect(404);
      expect(((await got(server, '/v4/images')).data as Json[]).some((image) => image.id === waiting.id)).toBe(false);
    },
  ],
  [
    'image-uploads-take-hours',
    async (server) => {
      const sent = await postAccepted(server, '/v4/images/upload', { label: 'hours-processing', region: 'us-east' });
      const status = async () => (await got(server, `/v4/images/${encodeURIComponent(String(sent.id))}`)).status;
      await request(server)
        .put(new URL(String(sent.upload_to)).pathname)
        .set('Content-Type', 'application/octet-stream')
        .send(gzipSync(Buffer.from('disk')))
        .expect(200);
      expect(await status()).toBe('pending_upload');
      await advanceClock(server, 3 * 3600 - 60);
      expect(await status()).toBe('pending_upload');
      await advanceClock(server, 60);
      expect(await status()).toBe('available');
      // processed data is not swept with the uploads that never got any
      await advanceClock(server, 24 * 3600);
      expect(await status()).toBe('available');
    },
  ],
  [
    'image-ids-raw-only',
    async (server) => {
      await request(server).get('/v4/images/compute/debian12').set(AUTH).expect(200);
      const encoded = await request(server).get('/v4/images/compute%2Fdebian12').set(AUTH).expect(404);
      expect((encoded.body as { errors: Json[] }).errors[0]!.reason).toMatch(/not found/i);
    },
  ],
  ['upload-needs-token', uploadNeedsToken(401)],
  ['upload-needs-token-404', uploadNeedsToken(404)],
  [
    'ids-reused',
    async (server) => {
      // Both create sites take a deleted private image's id again; a deleted upload's upload_to uploads to no new image.
      const source = await newInstance(server, 'capture-source');
      await advanceClock(server, 5 * 60);
      const disk_id = await sdaDiskOf(server, source.id);
      const path = (image: Json) => `/v4/images/${encodeURIComponent(String(image.id))}`;
      const captured = await postAccepted(server, '/v4/images', { disk_id, label: 'first-capture' });
      await deleteAccepted(server, path(captured));
      const first = await postAccepted(server, '/v4/images/upload', { label: 'first-upload', region: 'us-east' });
      expect(first.id).toBe(captured.id);
      await deleteAccepted(server, path(first));
      const second = await postAccepted(server, '/v4/images/upload', { label: 'second-upload', region: 'us-east' });
      expect(second.id).toBe(captured.id);
      const put = (image: Json) =>
        request(server)
          .put(new URL(String(image.upload_to)).pathname)
          .set('Content-Type', 'application/octet-stream')
          .send(gzipSync(Buffer.from('disk')));
      await put(first).expect(404);
      expect((await got(server, path(second))).status).toBe('pending_upload');
      await put(second).expect(200);
      expect((await got(server, path(second))).status).toBe('available');
      await deleteAccepted(server, path(second));
      expect((await postAccepted(server, '/v4/images', { disk_id, label: 'second-capture' })).id).toBe(captured.id);
    },
  ],
];

describeVariations('emulator variations: images', cases);
