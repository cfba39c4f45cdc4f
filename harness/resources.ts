// Where each kind of resource the run creates lives: one path function per kind, used by every create that tracks
// what it made, by the end-of-file cleanup and by `sweep`, so all three agree. An id is one path segment and is
// encoded whole: the image `private/27` is `/v4/images/private%2F27`, never `/v4/images/private` — unless the target
// serves image ids with their slash as it is (how such an id goes into a path is not shown): `discoverSlashedIdForm`.
// A delete counts only once a read confirms it: the resource's own path is refused as for what is not there
// (`answersGone`: a 404 or a 410, since no code is shown, or what the target answers for an id never made:
// `discoverAbsentStatus`) or, for an entity transfer, the transfer is no longer pending.
import { setTimeout as sleep } from 'node:timers/promises';
import { sameDomainName } from './domain-names.js';
import { HttpClient, type Exchange } from './http.js';
import { sameId } from './ids.js';
import type { TargetInfo } from './target.js';

type Id = string | number;
type Json = Record<string, unknown>;

const segment = (id: Id) => encodeURIComponent(String(id));
const success = (status: number) => status >= 200 && status < 300;

/** How an id holding a slash (images `compute/…`, kernels, database engines) goes into a path: one encoded segment, or its slash kept. */
export type SlashedIdForm = 'encoded' | 'raw';
/** The image's form: the name the rest of the harness knows it by. */
export type ImageIdForm = SlashedIdForm;

/** `collection` and the id in `form` (encoded by default). */
export function pathWithSlashedId(collection: string, id: string, form: SlashedIdForm = 'encoded'): string {
  return `${collection}/${form === 'raw' ? id.split('/').map(encodeURIComponent).join('/') : segment(id)}`;
}

/** The image's path: `/v4/images/` and its id in the target's form (`Target.imagePath`; encoded by default). */
export function imagePath(id: string, form: ImageIdForm = 'encoded'): string {
  return pathWithSlashedId('/v4/images', id, form);
}

/**
 * The form the target serves for the items of `collection`: a listed item whose id holds a slash read with the id
 * encoded, then with its slash as it is. Encoded unless only the raw form answers 2xx (or no listed id holds a slash).
 */
async function discoverSlashedIdForm(http: HttpClient, token: string, collection: string): Promise<SlashedIdForm> {
  const listed = await http.send({ method: 'GET', path: collection, token });
  const id = ((listed.body as Json | undefined)?.data as Json[] | undefined)
    ?.map((item) => item.id)
    .find((candidate) => typeof candidate === 'string' && candidate.includes('/'));
  if (typeof id !== 'string') return 'encoded';
  const served = async (path: string) => success((await http.send({ method: 'GET', path, token })).status);
  if (await served(pathWithSlashedId(collection, id, 'encoded'))) return 'encoded';
  return (await served(pathWithSlashedId(collection, id, 'raw'))) ? 'raw' : 'encoded';
}

/** How the target takes an image id in a path (a public image's id holds a slash). */
export const discoverImageIdForm = (http: HttpClient, token: string) => discoverSlashedIdForm(http, token, '/v4/images');

/** Each kind's path, the one a GET reads and a DELETE deletes. Child kinds take their parent's id. */
const PATHS = {
  instance: (id: Id) => `/v4/compute/instances/${segment(id)}`,
  config: (id: Id, computeId?: Id) => `/v4/compute/instances/${segment(need(computeId, 'config'))}/configs/${segment(id)}`,
  database: (id: Id) => `/v4/databases/mysql/instances/${segment(id)}`,
  domain: (id: Id) => `/v4/domains/${segment(id)}`,
  record: (id: Id, domainId?: Id) => `/v4/domains/${segment(need(domainId, 'record'))}/records/${segment(id)}`,
  firewall: (id: Id) => `/v4/networking/firewalls/${segment(id)}`,
  'firewall-device': (id: Id, firewallId?: Id) => `/v4/networking/firewalls/${segment(need(firewallId, 'firewall-device'))}/devices/${segment(id)}`,
  'monitor-client': (id: Id) => `/v4/monitor/clients/${segment(id)}`,
  image: (id: Id, _parent?: Id, form?: ImageIdForm) => imagePath(String(id), form),
  'oauth-client': (id: Id) => `/v4/account/oauth-clients/${segment(id)}`,
  tag: (label: Id) => `/v4/tags/${segment(label)}`,
  'entity-transfer': (token: Id) => `/v4/account/entity-transfers/${segment(token)}`,
  // Document 3: `{range}` is the IPv6 range without its prefix length.
  'ipv6-range': (range: Id) => `/v4/networking/ipv6/ranges/${segment(String(range).replace(/\/\d+$/, ''))}`,
} satisfies Record<string, (id: Id, parent?: Id, form?: ImageIdForm) => string>;

export type ResourceKind = keyof typeof PATHS;

/** The member of a kind's view that shows the label the suite gave it (a domain's: its name; a backup's too, though no clean-up deletes one). */
export const LABEL_MEMBER: Readonly<Record<string, string>> = {
  backup: 'label',
  instance: 'label',
  config: 'label',
  database: 'label',
  domain: 'domain',
  firewall: 'label',
  'monitor-client': 'label',
  image: 'label',
  'oauth-client': 'label',
};

/**
 * Whether a view of `made`'s kind shows another resource than the one the suite labelled `label` (or, renamed since,
 * one of `renamed`): the documents do not say a deleted resource's id is never given again, so the path of one deleted
 * may hold a new resource. False where the view or the kind shows no label, or the label is not known: what cannot be
 * told apart is not called another.
 */
function showsAnother(made: Labelled, body: unknown): boolean {
  const shown = labelShown(made.kind, body);
  if (made.label === undefined || shown === undefined) return false;
  const same = (label: string) => (made.kind === 'domain' ? sameDomainName(shown, label) : shown === label);
  return !same(made.label) && !(made.renamed ?? []).some(same);
}

/**
 * Kinds whose resource may go without a DELETE of its path or its parent's: an image whose upload never came (document
 * 2, Image status: "`pending_upload` | 24 hours pass | no data uploaded | image deleted"), an IPv6 range whose instance
 * is deleted (document 2: an instance's DELETE "releases IPs"; whether its range goes with it is not shown).
 */
export const GOES_BY_ITSELF: ReadonlySet<string> = new Set(['image', 'ipv6-range']);

/** The label a view or list item of `kind` shows (`LABEL_MEMBER`), if any. */
export function labelShown(kind: string, item: unknown): string | undefined {
  const member = LABEL_MEMBER[kind];
  const shown = member && item && typeof item === 'object' ? (item as Json)[member] : undefined;
  return typeof shown === 'string' ? shown : undefined;
}

/** A resource the suite made, as its view tells it: its kind and the label it was given. */
export interface Labelled {
  kind: string;
  label?: string | undefined;
  /** The labels the run gave it since (a 2xx update: `ViewsMade.asRenamed`). */
  renamed?: readonly string[];
}

/** Whether a view of a deleted resource's path answers 2xx showing another resource there (`showsAnother`). */
export const viewShowsAnother = (view: Pick<Exchange, 'status' | 'body'>, made: Labelled | undefined): boolean =>
  made !== undefined && success(view.status) && showsAnother(made, view.body);

/**
 * Whether a view or list item shows the resource `made` of `kind`: its id or its label, and no other label (the id
 * given again to another resource: `showsAnother`).
 */
export function showsMade(kind: string, item: Json, made: { id: unknown; label?: string | undefined }): boolean {
  if (showsAnother({ kind, label: made.label }, item)) return false;
  return sameId(item.id, made.id) || (made.label !== undefined && labelShown(kind, item) !== undefined);
}

function need(parent: Id | undefined, kind: string): Id {
  if (parent === undefined) throw new Error(`a ${kind} path needs the id of its parent`);
  return parent;
}

/**
 * The path that reads and deletes the resource `id` of `kind` (`parent`: the owner of a child kind; `imageIdForm`:
 * the target's, for an image).
 */
export function resourcePath(kind: ResourceKind, id: Id, parent?: Id, imageIdForm?: ImageIdForm): string {
  return PATHS[kind](id, parent, imageIdForm);
}

/**
 * Real time a deletion may still run after its DELETE answers (ms), for a kind whose documents do not say it is done
 * by then: an instance (document 2: its status values and transitions are not shown), a configuration profile
 * (document 2: its DELETE's rules column is empty, and what it answers is not shown; a minute, as its checks read a
 * short time), a database cluster and an OAuth client (document 1: their DELETE answers `{}`, and "Transitions: not
 * shown"), a domain (document 3: the DELETE
 * "removes the domain from the nameservers shortly after, and deletes all its records"; a minute, as its checks read
 * "shortly"), and a domain record, a monitoring client, a firewall and an IPv6 range (document 3: a record's DELETE has
 * an empty rules column, a client's "all stored data of the client is lost", a firewall goes "`deleted` (removed)" and
 * its "rules are removed from the instances", a range's DELETE "disconnects the range from assigned instances": when,
 * none says; a minute, as their checks read a short time).
 */
const DELETION_RUNS_MS: Readonly<Record<string, number>> = {
  instance: 30_000,
  config: 60_000,
  database: 30_000,
  'oauth-client': 30_000,
  domain: 60_000,
  record: 60_000,
  'monitor-client': 60_000,
  firewall: 60_000,
  'ipv6-range': 60_000,
};
export const deletionRunsMs = (kind: string): number => DELETION_RUNS_MS[kind] ?? 0;

/**
 * Whether a deletion may still run after its DELETE answers, with the clock hook (the target's clock is let run for
 * it): the kinds of DELETION_RUNS_MS, and a tag (when its removal from all objects is done is not shown; without the
 * hook it is confirmed within the window, as other kinds are).
 */
export const deletionMayRun = (kind: string): boolean => deletionRunsMs(kind) > 0 || kind === 'tag';

/**
 * An invoice id no account holds (`{invoiceId}` is an integer): the view of an id never made that needs no fixture.
 */
const NEVER_MADE_INVOICE = '/v4/account/invoices/999999937';

/**
 * What the target answers to the full-access token's GET of an id it never made (`NEVER_MADE_INVOICE`), found once
 * per run: a 4xx but 401 (a token refused), 405 (a method) and 429 (not processed). The documents name no code for it
 * (document 1, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown"): a target may answer
 * 403 there as for a resource the account does not hold. Undefined when it answers anything else (a 2xx, a 5xx).
 */
export async function discoverAbsentStatus(http: HttpClient, token: string): Promise<number | undefined> {
  const { status } = await http.send({ method: 'GET', path: NEVER_MADE_INVOICE, token });
  return status >= 400 && status < 500 && ![401, 405, 429].includes(status) ? status : undefined;
}

/**
 * Whether a read answers as for what is not there: 404 (Not Found) or 410 (Gone), HTTP's two codes for it, or
 * `absent`, what the target answers for an id never made (`discoverAbsentStatus`; `Target.info.absentStatus`). The
 * documents name none (document 1, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown"):
 * the view of a deleted resource may answer any of them. Any other refusal (a 400 for a path form the target does not
 * take, a 401 or 403 for the token on a target answering 404 for an id never made) is no proof of a deletion: nothing
 * is counted deleted on it and left on the target.
 */
export const answersGone = (exchange: Pick<Exchange, 'status'>, absent?: number): boolean =>
  exchange.status === 404 || exchange.status === 410 || (absent !== undefined && exchange.status === absent);

/** Whether a read of the resource's path shows it gone. */
export function goneIn(kind: string, view: Exchange, absent?: number): boolean {
  if (answersGone(view, absent)) return true;
  if (!success(view.status)) return false;
  const body = view.body as Json | undefined;
  // A transfer stays listed once cancelled, expired or ended; only a pending one holds anything.
  if (kind === 'entity-transfer') return typeof body?.status === 'string' && body.status !== 'pending';
  // A tag's view lists what it tags (whether an unknown label answers 404 is not shown): nothing tagged is gone.
  if (kind === 'tag') return Array.isArray(body?.data) && body.data.length === 0;
  // "`deleted` (removed)": a deleted firewall may still be shown, with that status.
  if (kind === 'firewall') return body?.status === 'deleted';
  return false;
}

export interface DeleteRequest {
  http: HttpClient;
  token: string;
  kind: string;
  path: string;
  /** How long a deleted resource may still be readable (the consistency window, ms). */
  windowMs: number;
  /** Real time the deletion may still run beyond the window (ms; `deletionRunsMs`), on a target whose clock is not let run instead. */
  runsMs?: number;
  /** Sent after the run budget is spent (the run's own cleanup). */
  ignoreRunBudget?: boolean;
  /**
   * For a resource the run made and has not seen gone: how long (ms, the consistency window) a view answering gone
   * (`answersGone`) after a refused DELETE may be a read lagging the create (a cluster refused while it provisions,
   * just made), read again meanwhile before it counts as gone.
   */
  lagMs?: number;
  /** What the target answers for an id never made (`discoverAbsentStatus`): a read answering it shows the resource gone. */
  absentStatus?: number;
  /**
   * A DELETE of it already answered 2xx: none is sent again, its deletion is only confirmed (a second could delete what
   * the path holds since: its id given again).
   */
  answered?: boolean;
  /** The label the suite gave it (and gave it since: `renamed`): a read showing another there (its id given again) shows it gone. */
  label?: string | undefined;
  renamed?: readonly string[];
}

/**
 * Deletes a resource and reads it back: 'deleted' or 'gone' (it was already) once a read confirms it, else why not.
 * A 404 (or what answers for an id never made) on the DELETE proves nothing by itself: the read of the resource's own path decides.
 */
export async function deleteConfirmed(request: DeleteRequest): Promise<'deleted' | 'gone' | string> {
  return (await deleteThenConfirm(request))();
}

/**
 * Sends the DELETE (none where one already answered 2xx: `answered`); returns the read-back that confirms it (see
 * deleteConfirmed), to be awaited later, with whether the DELETE answered 2xx: many deletes sent one after another in
 * order can then be confirmed at once, each waiting out its own lag.
 */
export async function deleteThenConfirm(request: DeleteRequest): Promise<(() => Promise<'deleted' | 'gone' | string>) & { answered: boolean }> {
  const send = (method: 'GET' | 'DELETE') =>
    request.http.send({ method, path: request.path, token: request.token, ...(request.ignoreRunBudget ? { ignoreRunBudget: true } : {}) });
  const answer = (exchange: Pick<Exchange, 'status' | 'error'>) => (exchange.status ? `HTTP ${exchange.status}` : (exchange.error ?? 'nothing'));
  const deleted: Pick<Exchange, 'status' | 'error'> = request.answered ? { status: 200 } : await send('DELETE');
  const gone = (view: Exchange) => answersGone(view, request.absentStatus);
  const refused = !success(deleted.status) && deleted.status !== 404 && deleted.status !== request.absentStatus;
  const until = Date.now() + request.windowMs + (request.runsMs ?? 0);
  const lagUntil = Date.now() + (request.lagMs ?? 0);
  const confirm = async () => {
    for (let pause = 50; ; pause = Math.min(pause * 2, 1000)) {
      const view = await send('GET');
      const lagging = refused && gone(view) && Date.now() < lagUntil;
      // (another resource shown after a DELETE that answered 2xx: the id given again; after a refusal, the one refused)
      const another = success(deleted.status) && viewShowsAnother(view, request);
      if ((goneIn(request.kind, view, request.absentStatus) || another) && !lagging) return success(deleted.status) ? 'deleted' : 'gone';
      if (refused && !lagging) return `DELETE answered ${answer(deleted)}`;
      const left = Math.max(until, lagging ? lagUntil : 0) - Date.now();
      if (left <= 0) return `DELETE answered ${answer(deleted)} but GET still answers ${answer(view)}`;
      await sleep(Math.min(pause, left));
    }
  };
  return Object.assign(confirm, { answered: success(deleted.status) });
}

/**
 * The target's description with how it takes image, kernel and engine ids in a path, and what it answers for an id
 * never made, read once before the checks.
 */
export async function withIdForms(info: TargetInfo): Promise<TargetInfo> {
  const http = new HttpClient(info.baseUrl, { timeoutMs: info.config.timeoutMs, headers: info.config.headers });
  try {
    const [[imageIdForm, kernelIdForm, engineIdForm], absentStatus] = await Promise.all([
      Promise.all(['/v4/images', '/v4/compute/kernels', '/v4/databases/engines'].map((collection) => discoverSlashedIdForm(http, info.token, collection))),
      discoverAbsentStatus(http, info.token),
    ]);
    return { ...info, imageIdForm, kernelIdForm, engineIdForm, ...(absentStatus !== undefined ? { absentStatus } : {}) };
  } finally {
    await http.close();
  }
}
