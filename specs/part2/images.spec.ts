// Document 2, "Images": who sees which images, capture and upload, the image state machine (creating →
// available, pending_upload → available or deleted after 24 hours), deployability, update and delete of private
// images only. Create responses are not shown beyond the upload's `upload_to`: new images are found again by label.
import { rawDiskImage } from './disk-image.js';
import { describe } from 'vitest';
import { CLOCK_LOCK, check, twice, type Check } from '../../harness/check.js';
import { readAfterWrite, untilOnClock, waitOutWindow } from '../../harness/consistency.js';
import { answersGone, showsMade, viewShowsAnother } from '../../harness/resources.js';
import { listItems as listAll } from '../../harness/lists.js';
import { SetupError, STRONG_PASSWORD, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { deepFind } from '../../harness/lists.js';
import { captureImage } from './compute-support.js';

const fx = useFixtures('part2-images');

type Json = Record<string, unknown>;

const DAY = 24 * 3600;
/** How long before its 24 hours an upload without data is looked at. */
const EARLY = 5 * 60;

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
/** "public images begin with `compute/`". */
const isPublic = (item: Json) => typeof item.id === 'string' && item.id.startsWith('compute/');

interface Uploaded {
  id: string;
  label: string;
  exchange: Exchange;
  uploadTo?: string;
}

/**
 * A check judging an upload that never gets data holds the clock: another spec file letting a day pass would expire
 * the upload under it (seen behind a lagging replica: the renamed upload read back as gone).
 */
const UPLOAD_KEPT = { exclusive: CLOCK_LOCK };

/** A private image made by upload (status pending_upload until data arrives), tracked for deletion. */
async function upload(c: Check, region = c.target.info.config.region): Promise<Uploaded> {
  const label = fx.label('img', 50);
  const exchange = await c.post('/v4/images/upload', { label, region, description: 'conformance upload' });
  if (!ok(exchange)) throw new SetupError(`could not upload an image: HTTP ${exchange.status}`);
  // Where upload_to sits is not shown: the image itself may carry it, or the image may come under `image` with upload_to beside it or in it.
  const body = bodyOf(exchange);
  const image = body.image && typeof body.image === 'object' ? (body.image as Json) : body;
  const uploadTo = body.upload_to ?? image.upload_to;
  let id = typeof image.id === 'string' ? image.id : undefined;
  if (!id) id = (await fx.find(c, '/v4/images', (item) => item.label === label))?.id as string | undefined;
  if (typeof id !== 'string') throw new SetupError('uploaded an image but cannot find its id');
  fx.track('image', id, label);
  return { id, label, exchange, ...(typeof uploadTo === 'string' ? { uploadTo } : {}) };
}

/**
 * Judges `image` gone (`rule`): its view, read by `readView` until `gone` holds, answers gone or shows another image (the
 * documents do not say an id is never given again: another file's upload may hold it), and the image list, read until
 * it does (a replica may answer as before), no longer shows it.
 */
async function expectImageGone(c: Check, rule: string, image: Uploaded, when: string, readView: (gone: (view: Exchange) => boolean) => Promise<Exchange>) {
  const made = { kind: 'image', id: image.id, label: image.label };
  const view = await readView((exchange) => !ok(exchange) || viewShowsAnother(exchange, made));
  c.expectGone(rule, view, `GET ${image.id} ${when}`, made);
  const shown = (items: Json[]) => items.some((item) => showsMade('image', item, made));
  const listed = await listAll(c, '/v4/images', undefined, { until: (items) => !shown(items) });
  c.expect(rule, !shown(listed), `the image ${image.id} is still listed ${when}`);
}

/** The path of `upload_to` on the target, or skip when it points elsewhere (the suite only talks to the target). */
function uploadPath(c: Check, image: Uploaded): string {
  if (!image.uploadTo) throw new SetupError('the upload response carries no upload_to');
  const base = c.target.info.baseUrl.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(image.uploadTo);
  } catch {
    throw new SetupError(`upload_to "${image.uploadTo}" is not an absolute URL`);
  }
  if (url.origin !== new URL(base).origin || !image.uploadTo.startsWith(base))
    c.skip(`upload_to (${url.origin}) is not on the target's base URL: the suite does not send data elsewhere`);
  return image.uploadTo.slice(base.length) || '/';
}

/**
 * PUTs data to the image's upload_to. Whether the PUT carries the caller's token is not shown (a presigned URL may
 * refuse one), nor what one without it answers (401, 403, or 404 as an upload not found): it goes without, and once
 * more with the token where that was refused (any 4xx); the answer with the token is the one judged.
 */
async function sendData(c: Check, image: Uploaded, data: Buffer = rawDiskImage(), contentType = 'application/octet-stream'): Promise<Exchange> {
  const put = (token?: null) => c.send('PUT', uploadPath(c, image), { raw: { data, contentType }, token });
  const anonymous = await put(null);
  return anonymous.status >= 400 && anonymous.status < 500 ? put() : anonymous;
}

/** The image's status; the image is expected to exist (one just made is read again within the consistency window). */
async function statusOf(c: Check, id: string): Promise<{ status: unknown; exchange: Exchange }> {
  const exchange = await readAfterWrite(c, () => c.get(c.target.imagePath(id)), ok);
  return { status: bodyOf(exchange).status, exchange };
}

/** Waits (simulated minutes, at most `minutes`) while the image is in `from`; returns its last view. */
const waitWhile = (c: Check, id: string, from: string, minutes: number, stepMinutes = 1): Promise<{ status: unknown; exchange: Exchange }> =>
  untilOnClock(
    c,
    () => statusOf(c, id),
    (view) => view.status !== from,
    { stepSeconds: stepMinutes * 60, mostSeconds: minutes * 60 },
  );

/** Minutes a capture is given to become available: "shortly" is all the documents say (three hours, five at a time). */
const CAPTURE_MINUTES = 180;

/**
 * Seconds an upload's data is given to be processed. How long processing takes is not shown: the only time document 2
 * gives the pending_upload state is the 24 hours within which the data must come.
 */
const PROCESSING_SECONDS = DAY;

/**
 * The image's view once the data sent to it is processed: read while it is pending_upload, the target's clock let run
 * between reads in steps growing from a minute (few reads for a long wait) for at most PROCESSING_SECONDS. Without the
 * clock hook: one read, then the first step skips.
 */
const whenProcessed = (c: Check, id: string) =>
  untilOnClock(
    c,
    () => statusOf(c, id),
    (view) => view.status !== 'pending_upload',
    { stepSeconds: 60, mostSeconds: PROCESSING_SECONDS, growing: true },
  );

/**
 * An uploaded private image whose data was sent: `available`. Another spec file may move the shared clock a day on
 * between the upload and its data, and the pending upload rightly expires: then a second upload is made.
 */
async function availableUpload(c: Check): Promise<Uploaded> {
  let image = await upload(c);
  let sent = await sendData(c, image);
  if (answersGone(sent, c.target.info.absentStatus) && answersGone(await c.get(c.target.imagePath(image.id)), c.target.info.absentStatus))
    sent = await sendData(c, (image = await upload(c)));
  if (!ok(sent)) throw new SetupError(`the data upload to upload_to was refused: HTTP ${sent.status}`);
  const view = await whenProcessed(c, image.id);
  if (view.status !== 'available') throw new SetupError(`the uploaded image is "${String(view.status)}" after its data was sent (up to 24 simulated hours)`);
  return image;
}

/** Captures an image from the file's instance's disk (`captureImage`). */
const capture = async (c: Check) => captureImage(c, fx, (await fx.instance(c)).id);

/** Tries to deploy an instance from `image`; tracks it when the target accepted. */
async function deploy(c: Check, image: string, region = c.target.info.config.region): Promise<Exchange> {
  const label = fx.label('vm', 64);
  const exchange = await c.post('/v4/compute/instances', { region, type: c.target.info.config.instanceType, label, image, root_pass: STRONG_PASSWORD });
  await fx.adopt(c, exchange, { kind: 'instance', list: '/v4/compute/instances', match: (item) => item.label === label, label });
  return exchange;
}

describe('Image visibility', () => {
  check('P2.images.list.public-without-auth', 'without a token the images list holds only public images', async (c) => {
    await upload(c); // at least one private image exists on the account
    const items = await listAll(c, '/v4/images', null);
    // The documents promise no public image: an empty list is judged only where the caller's own list shows one.
    if (!items.length && !(await listAll(c, '/v4/images')).some(isPublic)) c.skip('the target lists no public image, with a token or without');
    c.expect('P2.images.list.public-without-auth', items.length > 0, 'the images list without a token is empty: public images should be listed');
    const privateOnes = items.filter((item) => !isPublic(item));
    c.expect(
      'P2.images.list.public-without-auth',
      privateOnes.length === 0,
      `without a token the list holds non-public images: ${privateOnes
        .map((item) => String(item.id))
        .slice(0, 5)
        .join(', ')}`,
    );
  });

  // An upload that receives no data expires after 24 hours: another spec file advancing the shared clock can remove
  // the image mid-check, hence twice().
  check(['P2.images.list.private-with-auth', 'P2.image.id.private-prefix'], 'with a token the images list holds private images too', (c) =>
    twice(c, async () => {
      const image = await upload(c);
      c.expect('P2.image.id.private-prefix', image.id.startsWith('private/'), `an uploaded image has the id "${image.id}", not private/…`, image.exchange);
      const items = await listAll(c, '/v4/images', undefined, { until: (listed) => listed.some((item) => item.id === image.id) });
      c.expect(
        'P2.images.list.private-with-auth',
        items.some((item) => item.id === image.id),
        `the private image ${image.id} is missing from the authenticated images list`,
      );
      // As above: judged where the list without a token shows a public image.
      if (!items.some(isPublic) && !(await listAll(c, '/v4/images', null)).some(isPublic)) return;
      c.expect('P2.images.list.private-with-auth', items.some(isPublic), 'the authenticated images list holds no public image');
    }),
  );

  check('P2.images.view.public-without-auth', 'a public image can be viewed with and without a token', async (c) => {
    const id = await fx.publicImage(c);
    const anonymous = await c.get(c.target.imagePath(id), { token: null });
    c.expectSuccess('P2.images.view.public-without-auth', anonymous, `GET ${id} without a token`);
    c.expect(
      'P2.images.view.public-without-auth',
      bodyOf(anonymous).id === undefined || bodyOf(anonymous).id === id,
      `GET ${id} without a token returned image ${String(bodyOf(anonymous).id)}`,
      anonymous,
    );
    const authenticated = await c.get(c.target.imagePath(id));
    c.expectSuccess('P2.images.view.public-without-auth', authenticated, `GET ${id} with a token`);
  });

  check('P2.images.view.private-needs-auth', 'a private image can be viewed only with a token', (c) =>
    twice(c, async () => {
      const image = await upload(c);
      const anonymous = await c.get(c.target.imagePath(image.id), { token: null });
      c.expectRejected('P2.images.view.private-needs-auth', anonymous, `GET private image ${image.id} without a token`);
      const authenticated = await c.get(c.target.imagePath(image.id));
      c.expectSuccess('P2.images.view.private-needs-auth', authenticated, `GET private image ${image.id} with a token`);
      c.expect(
        'P2.images.view.private-needs-auth',
        bodyOf(authenticated).id === undefined || bodyOf(authenticated).id === image.id,
        `GET ${image.id} returned image ${String(bodyOf(authenticated).id)}`,
        authenticated,
      );
    }),
  );
});

describe('Image upload', () => {
  // The upload may expire mid-check when another spec file advances the shared clock a day, hence twice() (and below).
  check(['P2.image.status.upload-pending', 'P2.image.id.private-prefix'], 'an uploaded image is pending_upload until its data arrives', (c) =>
    twice(c, async () => {
      const image = await upload(c);
      c.expect('P2.image.id.private-prefix', image.id.startsWith('private/'), `an uploaded image has the id "${image.id}", not private/…`, image.exchange);
      const returned = bodyOf(image.exchange).status;
      if (returned !== undefined)
        c.expect(
          'P2.image.status.upload-pending',
          returned === 'pending_upload',
          `the upload returned status "${String(returned)}", not pending_upload`,
          image.exchange,
        );
      const view = await statusOf(c, image.id);
      c.expectSuccess('P2.image.status.upload-pending', view.exchange, 'viewing the uploaded image');
      c.expect(
        'P2.image.status.upload-pending',
        view.status === 'pending_upload',
        `an image without data is "${String(view.status)}", not pending_upload`,
        view.exchange,
      );
    }),
  );

  check(
    ['P2.images.upload.put-octet-stream', 'P2.images.upload.gzip', 'P2.image.status.pending-upload-to-available'],
    'gzip data sent by PUT as application/octet-stream makes the image available',
    (c) =>
      twice(c, async () => {
        const image = await upload(c);
        const sent = await sendData(c, image);
        c.expectSuccess('P2.images.upload.put-octet-stream', sent, 'PUT of gzip data (application/octet-stream) to upload_to');
        const view = await whenProcessed(c, image.id);
        c.expect(
          'P2.image.status.pending-upload-to-available',
          view.status === 'available',
          `the image is "${String(view.status)}" after its data was uploaded (up to 24 simulated hours), not available`,
          view.exchange,
        );
      }),
  );

  // The raw disk image itself: a server that looks at the uncompressed content (what it looks for is not shown) finds
  // a partition table there, and only the missing compression is left to refuse.
  check('P2.images.upload.gzip', 'data that is not gzip-compressed (the raw disk image itself) does not make the image available', async (c) => {
    const image = await upload(c);
    const sent = await sendData(c, image, rawDiskImage({ compressed: false }));
    // Data accepted may still be processed (how long is not shown): judged once it no longer is, as gzip data is.
    const view = ok(sent) ? await whenProcessed(c, image.id) : await statusOf(c, image.id);
    c.expect(
      'P2.images.upload.gzip',
      !(ok(sent) && view.status === 'available'),
      `data that is not gzip-compressed was accepted (HTTP ${sent.status}) and the image became available`,
      view.exchange,
    );
    c.expect('P2.images.upload.gzip', view.status !== 'available', 'the image became available from data that is not gzip-compressed', view.exchange);
  });

  check('P2.images.upload.any-region', 'an uploaded image deploys in another region than its upload region', async (c) => {
    const { region } = c.target.info.config;
    // The run's second region (--other-region), as every check needing one: not one seen on the account, which may lack the type.
    const other = c.setting('otherRegion', 'needs a second region: set --other-region');
    const image = await availableUpload(c);
    const deployed = await deploy(c, image.id, other);
    c.expectSuccess('P2.images.upload.any-region', deployed, `deploying the image uploaded in ${region} to ${other}`);
  });
});

describe('Deploying images', () => {
  check(
    'P2.image.deploy.available-only',
    'an image that is pending_upload cannot be deployed',
    async (c) => {
      const image = await upload(c);
      const view = await statusOf(c, image.id);
      c.expect(
        'P2.image.status.upload-pending',
        view.status === 'pending_upload',
        `the new upload is "${String(view.status)}", not pending_upload`,
        view.exchange,
      );
      const deployed = await deploy(c, image.id);
      c.expectRejected('P2.image.deploy.available-only', deployed, `creating an instance from the pending_upload image ${image.id}`, 'image');
    },
    UPLOAD_KEPT,
  );

  check(
    ['P2.image.deploy.available-only', 'P2.images.delete.gone'],
    'an available private image can be deployed (control of the check above), and no longer once deleted',
    async (c) => {
      const image = await availableUpload(c);
      const deployed = await deploy(c, image.id);
      c.expectSuccess('P2.image.deploy.available-only', deployed, `creating an instance from the available image ${image.id}`);
      // Whether an image may be deleted while an instance is deployed from it is not shown: a refusal judges nothing.
      if (!ok(await c.delete(c.target.imagePath(image.id)))) return;
      // ids may be given again (not shown otherwise): a view showing another image under the id leaves nothing to judge.
      const made = { kind: 'image', id: image.id, label: image.label };
      const showsAnother = (view: Exchange) => viewShowsAnother(view, made);
      const view = await readAfterWrite(
        c,
        () => c.get(c.target.imagePath(image.id)),
        (read) => !ok(read) || showsAnother(read),
      );
      // Still shown: its deletion may wait for the new instance's copy (whether an image in use may be deleted is not
      // shown; that a deleted image is gone is judged on an unused one): nothing to judge.
      if (showsAnother(view) || ok(view)) return;
      const again = await deploy(c, image.id);
      if (ok(again) && showsAnother(await c.get(c.target.imagePath(image.id)))) return;
      c.expectRejected('P2.images.delete.gone', again, `creating an instance from the deleted image ${image.id}`, 'image');
    },
  );
});

describe('Image capture', () => {
  check(
    ['P2.images.capture.private', 'P2.image.id.private-prefix', 'P2.image.status.capture-creating', 'P2.image.deploy.available-only'],
    'a captured image is private and creating (or already available), and cannot be deployed while creating',
    async (c) => {
      const image = await capture(c);
      c.expect('P2.image.id.private-prefix', image.id.startsWith('private/'), `a captured image has the id "${image.id}", not private/…`, image.exchange);
      const returned = deepFind(image.exchange.body, (item) => item.id === image.id)?.status;
      const view = await statusOf(c, image.id);
      const status = returned ?? view.status;
      // "becomes available shortly": how soon is not shown, so a capture already done may show available at once.
      c.expect(
        'P2.image.status.capture-creating',
        status === 'creating' || status === 'available',
        `a captured image is "${String(status)}", neither creating (being captured) nor available (captured)`,
        returned !== undefined ? image.exchange : view.exchange,
      );
      // The authenticated list first, read until it shows the image: a list read before the capture shows (a replica
      // lagging its create) would leave it out with a token or without.
      const authenticated = await listAll(c, '/v4/images', undefined, { until: (listed) => listed.some((item) => item.id === image.id) });
      c.expect(
        'P2.images.capture.private',
        authenticated.some((item) => item.id === image.id),
        `the captured image ${image.id} is missing from the authenticated list`,
      );
      const anonymous = await listAll(c, '/v4/images', null);
      c.expect(
        'P2.images.capture.private',
        !anonymous.some((item) => item.id === image.id),
        `the captured image ${image.id} is listed without a token (it should be private)`,
      );
      if (view.status === 'creating') {
        const deployed = await deploy(c, image.id);
        // Simulated time is shared: if another file moved it on, the image may have become available meanwhile (read
        // within the consistency window: a replica may still answer "creating", as to the read just before).
        const isAvailable = (read: { status: unknown }) => read.status === 'available';
        const becameAvailable = ok(deployed) && isAvailable(await readAfterWrite(c, () => statusOf(c, image.id), isAvailable));
        if (!becameAvailable) c.expectRejected('P2.image.deploy.available-only', deployed, `creating an instance from the creating image ${image.id}`, 'image');
      }
    },
  );

  check('P2.image.status.creating-to-available', 'a captured image becomes available shortly', async (c) => {
    const image = await capture(c);
    const view = await waitWhile(c, image.id, 'creating', CAPTURE_MINUTES, 5);
    c.expect(
      'P2.image.status.creating-to-available',
      view.status === 'available',
      `the captured image is "${String(view.status)}" ${CAPTURE_MINUTES} simulated minutes after capture, not available`,
      view.exchange,
    );
  });
});

// Public images are the platform's, not the run's: a target that wrongly accepted a write on one would change a real
// image. The update's refusal is judged on an update that changes nothing (the image's own label and description sent
// back); the delete's refusal cannot be, so it runs only with --allow-destructive.
describe('Image update and delete', () => {
  check(
    ['P2.images.update.private-only', 'P2.image.status.upload-pending'],
    'a public image cannot be updated (not even to what it holds); a private one can, a pending upload staying pending_upload',
    async (c) => {
      const publicId = await fx.publicImage(c);
      const current = bodyOf(await c.get(c.target.imagePath(publicId)));
      // A description shown as "" is not sent back: a body may not hold it (1..65000 chars), and its refusal would
      // stand for the one judged here.
      const unchanged = Object.fromEntries(
        ['label', 'description'].filter((member) => current[member] !== undefined && current[member] !== '').map((member) => [member, current[member]]),
      );
      const put = await c.put(c.target.imagePath(publicId), unchanged);
      c.expectRejected(
        'P2.images.update.private-only',
        put,
        `PUT public image ${publicId} with its own ${Object.keys(unchanged).join(' and ') || 'members (none shown)'}`,
      );
      const image = await upload(c);
      const label = fx.label('ren', 50);
      const renamed = await c.put(c.target.imagePath(image.id), { label, description: 'conformance: updated' });
      c.expectSuccess('P2.images.update.private-only', renamed, `PUT private image ${image.id}`);
      fx.track('image', image.id, label);
      const view = await readAfterWrite(
        c,
        () => c.get(c.target.imagePath(image.id)),
        (exchange) => bodyOf(exchange).label === label,
      );
      c.expect(
        'P2.images.update.private-only',
        bodyOf(view).label === label,
        `the private image's label is "${String(bodyOf(view).label)}" after the update, not "${label}"`,
        view,
      );
      // An update that leaves status out moves no state: only data uploaded and processed makes an upload available.
      c.expect(
        'P2.image.status.upload-pending',
        bodyOf(view).status === 'pending_upload',
        `an upload without data is "${String(bodyOf(view).status)}" after an update of its label and description, not pending_upload`,
        view,
      );
    },
    UPLOAD_KEPT,
  );

  check('P2.images.delete.private-only', 'a public image cannot be deleted', async (c) => {
    c.needsDestructive('deleting a public image, which the run did not create (a target wrongly accepting it would delete a platform image)');
    const publicId = await fx.publicImage(c);
    const deleted = await c.delete(c.target.imagePath(publicId));
    c.expectRejected('P2.images.delete.private-only', deleted, `DELETE public image ${publicId}`);
    const view = await c.get(c.target.imagePath(publicId), { token: null });
    c.expectSuccess('P2.images.delete.private-only', view, `viewing public image ${publicId} after a rejected delete`);
  });

  check(['P2.images.delete.gone', 'P2.images.delete.private-only'], 'a deleted private image can no longer be viewed', async (c) => {
    // An upload without data expires after 24 simulated hours: another file moving the shared clock may expire it
    // before the delete (judged twice, with a new upload).
    let image!: Awaited<ReturnType<typeof upload>>;
    await twice(c, async () => {
      image = await upload(c);
      c.expectSuccess('P2.images.delete.private-only', await c.delete(c.target.imagePath(image.id)), `DELETE private image ${image.id}`);
    });
    await expectImageGone(c, 'P2.images.delete.gone', image, 'after its delete', (gone) => readAfterWrite(c, () => c.get(c.target.imagePath(image.id)), gone));
  });
});

describe('Upload expiry (24 simulated hours: last in the file)', () => {
  check('P2.image.status.pending-upload-expires', 'an upload without data stays its 24 hours, is deleted after them; an uploaded one stays', async (c) => {
    const done = await availableUpload(c);
    // "upload must finish within 24 hours": 5 minutes before they end the upload is still there to finish. The clock is
    // held from the upload on, so that no other spec file's advance makes it older than that.
    const waiting = await c.holdingClock(async () => {
      const made = await upload(c);
      await c.advanceClock(DAY - EARLY);
      await waitOutWindow(c);
      const early = await statusOf(c, made.id);
      c.expect(
        'P2.image.status.pending-upload-expires',
        early.status === 'pending_upload',
        `an upload without data is "${String(early.status)}" 23 hours 55 minutes after it (HTTP ${early.exchange.status}), not pending_upload`,
        early.exchange,
      );
      await c.advanceClock(EARLY);
      return made;
    });
    // How soon after its 24 hours an upload goes is not shown (a server may sweep expired uploads once a day): it is
    // looked for in steps growing from 5 minutes for up to 24 more hours. The clock's day takes no real time: the
    // consistency window is waited out first, since a replica may still answer the upload's view as before its create,
    // 404 where its id held an image deleted a moment before (ids may be given again).
    await waitOutWindow(c);
    await expectImageGone(c, 'P2.image.status.pending-upload-expires', waiting, '24 to 48 hours after an upload that never received data', (gone) =>
      untilOnClock(c, () => c.get(c.target.imagePath(waiting.id), { gone: true }), gone, { stepSeconds: 5 * 60, mostSeconds: DAY, growing: true }),
    );
    const kept = await statusOf(c, done.id);
    c.expect(
      'P2.image.status.pending-upload-expires',
      kept.status === 'available',
      `an image whose data was uploaded is "${String(kept.status)}" 24 hours later, not available`,
      kept.exchange,
    );
  });
});
