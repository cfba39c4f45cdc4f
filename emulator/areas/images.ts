// Images (document 2): public images (seeded, `compute/...`) and the account's private images (`private/...`),
// captured from a disk or uploaded through the `upload_to` URL the emulator itself serves.
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import type { Area, RequestContext, Route } from '../core/types.js';
import type { Store } from '../core/store.js';
import { asObject, optString, reqString, reqInt, fail, isPlainObject } from '../core/validate.js';
import { paginate } from '../core/pagination.js';
import { emitEvent } from '../core/events.js';
import { canAccess, grantOwnership } from '../core/permissions.js';
import { getDisk, getInstance, requireCreated } from '../core/entities.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';

export interface Image {
  id: string;
  label: string;
  description: string | null;
  status: 'creating' | 'pending_upload' | 'available';
  type: 'manual' | 'automatic';
  is_public: boolean;
  deprecated: boolean;
  /** MB */
  size: number;
  vendor: string | null;
  created_by: string;
  created: string;
  updated: string;
  expiry: string | null;
}

const IMAGES = 'images';
const images = (s: Store) => s.table<Image>(IMAGES);

function getImage(store: Store, id: string): Image | undefined {
  return images(store).get(id);
}

/** Images deleted, kept under the fault P2.images.delete.gone~deploy, which still deploys them. */
const DELETED = 'images_deleted';

/** The image an instance create deploys: `getImage`, or under the fault P2.images.delete.gone~deploy one deleted. */
export function deployableImage(store: Store, id: string): Image | undefined {
  return getImage(store, id) ?? (faulty(store, 'P2.images.delete.gone~deploy') ? store.table<Image>(DELETED).get(id) : undefined);
}

/** The region an image was uploaded to (internal: uploaded images can be used in any region). */
const uploadRegions = new WeakMap<Image, string>();
export function uploadRegion(img: Image): string | undefined {
  return uploadRegions.get(img);
}

const CAPTURE_MS = 60_000;
/** How long a capture runs under the variation captures-take-an-hour. */
const SLOW_CAPTURE_MS = 60 * 60_000;
const HOUR_MS = 3_600_000;
/** How long an upload's data is processed under the variations image-uploads-slow and image-uploads-take-hours. */
const SLOW_PROCESSING_MS = 20 * 60_000;
const HOURS_PROCESSING_MS = 3 * HOUR_MS;
/** Uploads whose data came (processed at once, or later under the variation). */
const dataReceived = new WeakSet<Image>();
const UPLOAD_WINDOW_MS = 24 * 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const UPLOAD_PATH = '/__upload/private/{imageNum}';
/**
 * Under ids-reused: an upload's own number in its upload_to (`u1`, `u2`, …, never given again) → the image it uploads to,
 * so that an upload_to of a deleted upload does not upload to a new image given its id.
 */
const UPLOADS = 'image_uploads';
const MB = 1024 * 1024;

const visible = (ctx: RequestContext, img: Image) => img.is_public || canAccess(ctx.principal, 'image', img.id, 'read_only');

/** Image ids contain a slash: they arrive URL-encoded in `{imageId}` or as two segments through the alias routes. */
function imageIdOf(ctx: RequestContext): string {
  return ctx.params.imageId ?? `${ctx.params.imageKind}/${ctx.params.imageName}`;
}

function imageOr404(ctx: RequestContext, level: 'read_only' | 'read_write'): Image {
  const id = imageIdOf(ctx);
  const img = getImage(ctx.store, id);
  const anonymous = ctx.principal === null;
  const peek = anonymous && faulty(ctx.store, 'P2.images.view.private-needs-auth');
  if (anonymous && id.startsWith('private/') && !peek) fail('Private images need authentication: send a token', null, 401);
  if (anonymous && img?.is_public && faulty(ctx.store, 'P2.images.view.public-without-auth')) fail('Send a token to view images', null, 401);
  if (!img || !(peek || visible(ctx, img))) fail(`Not found: no such image "${id}"`, null, 404);
  if (level === 'read_write') {
    if (img.is_public) fail('Public images cannot be changed or deleted; only private images can', null, 403);
    if (!canAccess(ctx.principal, 'image', img.id, 'read_write')) fail('You have read-only access to this image', null, 403);
  }
  return img;
}

/** An image as shown: under the variation image-upload-to-null with `upload_to: null` (the upload's answer carries its URL). */
function shown(store: Store, img: Image) {
  return varied(store, 'image-upload-to-null') ? { ...img, upload_to: null } : img;
}

function entity(img: Image) {
  return { id: img.id, label: img.label, type: 'image', url: `/v4/images/${img.id}` };
}

function description(store: Store, o: Record<string, unknown>, nullable: boolean): string | null | undefined {
  const min = faulty(store, 'P2.image.description.min-1') ? 0 : 1;
  return optString(o, 'description', { min, max: faulty(store, 'P2.image.description.max-65000') ? 70000 : 65000, nullable });
}

/** A new private image's id: the next number, or under ids-reused the lowest no image holds. */
function newPrivateId(store: Store, prefix = faulty(store, 'P2.image.id.private-prefix') ? 'image' : 'private'): string {
  return `${prefix}/${store.newId('image', (n) => images(store).has(`${prefix}/${n}`))}`;
}

function newPrivate(ctx: RequestContext, label: string, desc: string | null, status: Image['status'], size: number): Image {
  const { store } = ctx;
  const now = store.nowIso();
  const img: Image = {
    id: newPrivateId(store),
    label,
    description: desc,
    status,
    type: 'manual',
    is_public: false,
    deprecated: false,
    size,
    vendor: null,
    created_by: ctx.principal?.username ?? store.defaultUser,
    created: now,
    updated: now,
    expiry: null,
  };
  images(store).set(img.id, img);
  grantOwnership(ctx.principal, 'image', img.id);
  return img;
}

function listHandler(ctx: RequestContext) {
  const { store, principal } = ctx;
  const listed = (img: Image) =>
    principal === null && faulty(store, 'P2.images.list.public-without-auth')
      ? true
      : principal !== null && faulty(store, 'P2.images.list.private-with-auth')
        ? img.is_public
        : visible(ctx, img);
  return paginate(ctx, [...images(store).values()].filter(listed), (img) => shown(store, img));
}

function captureHandler(ctx: RequestContext) {
  const o = asObject(ctx.body ?? {});
  const diskId = reqInt(o, 'disk_id');
  const label = optString(o, 'label', { min: 1 });
  const desc = description(ctx.store, o, false);
  const disk = getDisk(ctx.store, diskId);
  if (!disk || !canAccess(ctx.principal, 'compute', disk.compute_id, 'read_only')) fail(`Disk ${diskId} not found`, 'disk_id');
  if (disk.filesystem === 'swap') fail('A swap disk cannot be captured as an image', 'disk_id');
  const source = getInstance(ctx.store, disk.compute_id);
  if (source) requireCreated(ctx.store, source);
  if (source && source.status !== 'offline' && varied(ctx.store, 'capture-needs-offline'))
    fail(`Instance ${source.id} is ${source.status}: shut it down before capturing its disk`, 'disk_id');
  const img = newPrivate(
    ctx,
    label ?? disk.label,
    desc ?? null,
    faulty(ctx.store, 'P2.image.status.capture-creating')
      ? 'pending_upload'
      : varied(ctx.store, 'capture-available-at-once') && !faulty(ctx.store, 'P2.image.status.creating-to-available')
        ? 'available'
        : 'creating',
    disk.size,
  );
  if (faulty(ctx.store, 'P2.images.capture.private')) img.is_public = true;
  ctx.store.schedule(new Date(ctx.store.now().getTime() + (varied(ctx.store, 'captures-take-an-hour') ? SLOW_CAPTURE_MS : CAPTURE_MS)), (s) => {
    // (the image itself: not one given its id since, under ids-reused)
    const i = getImage(s, img.id) === img ? img : undefined;
    if (i && i.status === 'creating' && !faulty(s, 'P2.image.status.creating-to-available')) {
      i.status = 'available';
      i.updated = s.nowIso();
    }
  });
  emitEvent(ctx.store, ctx.principal, {
    action: 'disk_imagize',
    status: 'started',
    entity: { id: disk.id, label: disk.label, type: 'disk', url: `/v4/compute/instances/${disk.compute_id}/disks/${disk.id}` },
    secondary_entity: entity(img),
  });
  return shown(ctx.store, img);
}

function uploadHandler(ctx: RequestContext) {
  const { store } = ctx;
  const o = asObject(ctx.body ?? {});
  const label = faulty(store, 'P2.image-upload.label.required') && o.label === undefined ? 'upload' : reqString(o, 'label', { min: 1 });
  const region = faulty(store, 'P2.image-upload.region.required') && o.region === undefined ? store.regions[0]!.id : reqString(o, 'region');
  if (!store.regions.some((r) => r.id === region)) fail(`Unknown region "${region}"`, 'region');
  const desc = description(store, o, false);
  const img = newPrivate(ctx, label, desc ?? null, faulty(store, 'P2.image.status.upload-pending') ? 'available' : 'pending_upload', 0);
  uploadRegions.set(img, region);
  // Under the variation image-uploads-slow expired uploads are swept at the first whole hour after their 24 hours,
  // under upload-expiry-swept-daily at the first 00:00 UTC after them.
  const expires = store.now().getTime() + UPLOAD_WINDOW_MS - (faulty(store, 'P2.image.status.pending-upload-expires~early') ? HOUR_MS : 0);
  const sweep = varied(store, 'upload-expiry-swept-daily') ? DAY_MS : varied(store, 'image-uploads-slow') ? HOUR_MS : 0;
  store.schedule(new Date(sweep ? Math.ceil(expires / sweep) * sweep : expires), (s) => {
    const i = getImage(s, img.id) === img ? img : undefined;
    if (i && i.status === 'pending_upload' && !dataReceived.has(i) && !faulty(s, 'P2.image.status.pending-upload-expires')) images(s).delete(i.id);
  });
  emitEvent(store, ctx.principal, { action: 'image_upload', entity: entity(img), status: 'started' });
  const num = img.id.slice(img.id.indexOf('/') + 1);
  const uploadNum = varied(store, 'ids-reused') ? `u${store.nextId('image-upload')}` : num;
  if (uploadNum !== num) store.table<Image>(UPLOADS).set(uploadNum, img);
  const uploadPath = UPLOAD_PATH.replace('{imageNum}', uploadNum);
  const returned = { ...img, upload_to: faulty(store, 'P2.image.upload-to.url') ? uploadPath : `${ctx.baseUrl}${uploadPath}` };
  if (faulty(store, 'P2.image.upload.private')) returned.id = num;
  if (faulty(store, 'P2.image.upload-to.returned-on-upload')) return { ...returned, upload_to: undefined };
  return returned;
}

const gzipped = (data: Buffer) => data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;

/**
 * Whether the uploaded content is a disk with a partition table: an MBR signature with a partition entry of some
 * type, or a GPT header ("EFI PART" at sector 1). Only the head of gzip data is uncompressed (its first 4 KiB make a
 * few MB at most, however large the image or however well it compresses); gzip data that does not uncompress has none.
 * Data that is not gzip (let through by the fault P2.images.upload.gzip) is looked at as it is.
 */
function partitioned(data: Buffer): boolean {
  let disk = data;
  if (gzipped(data))
    try {
      disk = gunzipSync(data.subarray(0, 4096), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch {
      return false;
    }
  const mbr = disk.length >= 512 && disk[510] === 0x55 && disk[511] === 0xaa && [0, 1, 2, 3].some((n) => disk[446 + 16 * n + 4] !== 0);
  return mbr || disk.subarray(512, 520).toString('latin1') === 'EFI PART';
}

/** PUT to `upload_to`: gzip data (magic bytes 1f 8b) as application/octet-stream; the core caps the body at 64 MB. */
function uploadDataHandler(ctx: RequestContext) {
  const upload = ctx.store.table<Image>(UPLOADS).get(ctx.params.imageNum ?? '');
  const img = varied(ctx.store, 'ids-reused')
    ? upload && getImage(ctx.store, upload.id) === upload
      ? upload
      : undefined
    : getImage(ctx.store, `${faulty(ctx.store, 'P2.image.id.private-prefix') ? 'image' : 'private'}/${ctx.params.imageNum}`);
  if (!img) fail('Not found: no such upload (it may have expired after 24 hours)', null, 404);
  if (img.status !== 'pending_upload' || dataReceived.has(img)) fail(`The image is ${img.status}; data can only be uploaded once`, null);
  const data = ctx.body;
  if (!Buffer.isBuffer(data) || faulty(ctx.store, 'P2.images.upload.put-octet-stream')) fail('Send the image data as application/octet-stream', null, 415);
  if (!gzipped(data) && !faulty(ctx.store, 'P2.images.upload.gzip')) fail('The image data must be gzip-compressed', null);
  if (varied(ctx.store, 'image-content-checked') && !partitioned(data)) fail('The uncompressed data is not a raw disk image: it has no partition table', null);
  if (faulty(ctx.store, 'P2.image.status.pending-upload-to-available')) return {};
  const processed = () => {
    img.status = 'available';
    img.size = Math.max(1, Math.ceil(data.length / MB));
    img.updated = ctx.store.nowIso();
  };
  dataReceived.add(img);
  const processing = varied(ctx.store, 'image-uploads-take-hours') ? HOURS_PROCESSING_MS : varied(ctx.store, 'image-uploads-slow') ? SLOW_PROCESSING_MS : 0;
  if (processing) ctx.store.schedule(new Date(ctx.store.now().getTime() + processing), processed);
  else processed();
  return {};
}

function viewHandler(ctx: RequestContext) {
  const img = imageOr404(ctx, 'read_only');
  const view = shown(ctx.store, img);
  return !img.is_public && faulty(ctx.store, 'P2.image.status.enum~view') ? { ...view, status: 'ready' } : view;
}

function updateHandler(ctx: RequestContext) {
  const img = imageOr404(ctx, faulty(ctx.store, 'P2.images.update.private-only') ? 'read_only' : 'read_write');
  const o = faulty(ctx.store, 'P2.image-update.types') && !isPlainObject(ctx.body) ? {} : asObject(ctx.body ?? {});
  const desc = description(ctx.store, o, true);
  const label = optString(o, 'label', { min: 1 });
  const status = optString(o, 'status', { enum: faulty(ctx.store, 'P2.image.status.enum') ? undefined : ['creating', 'pending_upload', 'available'] }) as
    Image['status'] | undefined;
  if (desc !== undefined) img.description = desc;
  if (label !== undefined) img.label = label;
  if (status !== undefined) img.status = status;
  else if (img.status === 'pending_upload' && faulty(ctx.store, 'P2.image.status.upload-pending~update')) img.status = 'available';
  img.updated = ctx.store.nowIso();
  emitEvent(ctx.store, ctx.principal, { action: 'image_update', entity: entity(img) });
  return shown(ctx.store, img);
}

function deleteHandler(ctx: RequestContext) {
  const img = imageOr404(ctx, faulty(ctx.store, 'P2.images.delete.private-only') ? 'read_only' : 'read_write');
  // Under the variation capture-delete-waits an image still being captured is not deleted.
  if (img.status === 'creating' && varied(ctx.store, 'capture-delete-waits'))
    fail(`Image ${img.id} is still being captured: delete it once it is available`, null);
  if (!faulty(ctx.store, 'P2.images.delete.gone')) images(ctx.store).delete(img.id);
  if (faulty(ctx.store, 'P2.images.delete.gone~deploy')) ctx.store.table<Image>(DELETED).set(img.id, img);
  emitEvent(ctx.store, ctx.principal, { action: 'image_delete', entity: entity(img) });
  return {};
}

function seed(store: Store): void {
  const now = store.nowIso();
  const pub = (id: string, label: string, vendor: string, size: number, deprecated = false) => {
    images(store).set(`compute/${id}`, {
      id: `compute/${id}`,
      label,
      description: faulty(store, 'P2.image.types') ? (false as unknown as null) : varied(store, 'public-image-description-empty') ? '' : null,
      status: 'available',
      type: 'manual',
      is_public: true,
      deprecated,
      size,
      vendor,
      created_by: 'chs',
      created: '2024-01-15T00:00:00',
      updated: '2024-01-15T00:00:00',
      expiry: null,
    });
  };
  pub('debian12', 'Debian 12', 'Debian', 1300);
  pub('ubuntu24.04', 'Ubuntu 24.04 LTS', 'Ubuntu', 2500);
  pub('alpine3.20', 'Alpine 3.20', 'Alpine', 200);
  pub('centos7', 'CentOS 7', 'CentOS', 2200, true);
  const id = newPrivateId(store, 'private');
  images(store).set(id, {
    id,
    label: 'seed-golden-image',
    description: 'A private image seeded by the emulator',
    status: 'available',
    type: 'manual',
    is_public: false,
    deprecated: false,
    size: 1500,
    vendor: null,
    created_by: store.defaultUser,
    created: now,
    updated: now,
    expiry: null,
  });
}

const r = (method: Route['method'], path: string, scopes: string[], auth: Route['auth'], handler: Route['handler']): Route => ({
  method,
  path,
  scopes,
  auth,
  handler,
});
const ro = ['images:read_only'];
const rw = ['images:read_write'];
const BY_ID = '/v4/images/{imageId}';
const ALIAS = '/v4/images/{imageKind}/{imageName}';

export const area: Area = {
  name: 'images',
  seed,
  routes: [
    r('GET', '/v4/images', ro, 'optional', listHandler),
    r('POST', '/v4/images', ['images:read_write', 'compute:read_only'], 'token', captureHandler),
    r('POST', '/v4/images/upload', rw, 'token', uploadHandler),
    r('GET', '/v4/images/{imageId}', ro, 'optional', viewHandler),
    r('PUT', '/v4/images/{imageId}', rw, 'token', updateHandler),
    r('DELETE', '/v4/images/{imageId}', rw, 'token', deleteHandler),
    // Not API endpoints: the same three operations with the image id's slash left unencoded (with their faults), and the
    // upload target.
    { ...r('GET', ALIAS, ro, 'optional', viewHandler), serves: BY_ID },
    { ...r('PUT', ALIAS, rw, 'token', updateHandler), serves: BY_ID },
    { ...r('DELETE', ALIAS, rw, 'token', deleteHandler), serves: BY_ID },
    r('PUT', UPLOAD_PATH, [], 'none', uploadDataHandler),
  ],
};
