// Tags (document 2): create a tag and tag listed objects, delete a tag from every object, list tagged objects.
// A tag exists when it was created here or when any object carries it (instance and domain bodies take tags too).
import type { Area, RequestContext } from '../core/types.js';
import type { Store } from '../core/store.js';
import { asObject, reqString, optArray, fail } from '../core/validate.js';
import { paginate } from '../core/pagination.js';
import { canAccess, type EntityKind } from '../core/permissions.js';
import { listInstances, getInstance } from '../core/entities.js';
import { listVolumes, getVolume, listBalancers, getBalancer } from './compute/model.js';
import { listDomains, getDomain } from './domains/model.js';
import { faulty } from '../faults/index.js';
import { varied } from '../variations/index.js';
import { conflictStatus } from '../variations/responses.js';

interface Tag {
  label: string;
  created: string;
}
interface Tagged {
  tags: string[];
  updated?: string;
}

const TAGS = 'tags';
const tags = (s: Store) => s.table<Tag>(TAGS);

/** The kinds of tagged objects, in the order the tagged-objects list shows them. */
const KINDS: {
  key: string;
  grant: EntityKind;
  get: (s: Store, id: number) => (Tagged & { id: number }) | undefined;
  list: (s: Store) => (Tagged & { id: number })[];
}[] = [
  { key: 'computes', grant: 'compute', get: getInstance, list: listInstances },
  { key: 'domains', grant: 'domain', get: getDomain, list: listDomains },
  { key: 'volumes', grant: 'volume', get: getVolume, list: listVolumes },
  { key: 'balancers', grant: 'balancer', get: getBalancer, list: listBalancers },
];

/** The kinds in the order document 2's tag create body lists them. */
const DOCUMENT_ORDER = ['domains', 'computes', 'balancers', 'volumes'];

function exists(store: Store, label: string): boolean {
  return tags(store).has(label) || KINDS.some((k) => k.list(store).some((o) => o.tags.includes(label)));
}

function labelOr404(ctx: RequestContext): string {
  const label = ctx.params.label ?? '';
  if (!exists(ctx.store, label)) fail(`Not found: no tag "${label}"`, null, 404);
  return label;
}

/** Tags an object not carrying the label yet, bumping its `updated` (if it has one). */
function tagOne(obj: Tagged, label: string, now: string): void {
  if (obj.tags.includes(label)) return;
  obj.tags.push(label);
  if (obj.updated !== undefined) obj.updated = now;
}

function createHandler(ctx: RequestContext) {
  const { store } = ctx;
  const o = asObject(ctx.body ?? {});
  const label =
    faulty(store, 'P2.tag-create.label.required') && o.label === undefined
      ? `tag-${store.nextId('tag')}`
      : reqString(o, 'label', { min: faulty(store, 'P2.tag.label.min-3') ? 0 : 3, max: faulty(store, 'P2.tag.label.max-50') ? 100 : 50 });
  if (exists(store, label) && !varied(store, 'existing-tag-created-again')) fail(`A tag "${label}" already exists`, 'label', conflictStatus(store));
  // The fault creates the tag before the objects are checked: a refused create leaves it, tagging nothing.
  if (faulty(store, 'P2.tags.create.all-or-nothing~refused-creates-tag')) tags(store).set(label, { label, created: store.nowIso() });
  // All or nothing: every listed object is checked before any is tagged.
  const targets: Tagged[] = [];
  // The fault ~document-order checks and tags one kind at a time, in the order the document lists the kinds.
  const oneKindAtATime = faulty(store, 'P2.tags.create.all-or-nothing~document-order');
  const kinds = oneKindAtATime ? [...KINDS].sort((a, b) => DOCUMENT_ORDER.indexOf(a.key) - DOCUMENT_ORDER.indexOf(b.key)) : KINDS;
  for (const kind of kinds) {
    const ids = optArray(o, kind.key) ?? [];
    ids.forEach((id, i) => {
      const field = `${kind.key}.${i}`;
      if (typeof id !== 'number' || !Number.isSafeInteger(id)) fail(`${field} must be an integer ID`, field);
      const obj = kind.get(store, id);
      // The fault passes volume and balancer IDs on as if to another service, which skips those it does not know.
      if (!obj && (kind.key === 'volumes' || kind.key === 'balancers') && faulty(store, 'P2.tags.create.all-or-nothing~unknown-volumes-ignored')) return;
      if (!obj || !canAccess(ctx.principal, kind.grant, id, 'read_only')) fail(`No ${kind.grant} with ID ${id}`, field);
      if (!canAccess(ctx.principal, kind.grant, id, 'read_write')) fail(`You need read_write access to ${kind.grant} ${id} to tag it`, field, 403);
      // The fault tags each object as soon as it is checked: those before a refused one keep the tag.
      if (faulty(store, 'P2.tags.create.all-or-nothing') || oneKindAtATime) tagOne(obj, label, store.nowIso());
      if (!(kind.key === 'domains' && faulty(store, 'P2.tags.create.tags-objects'))) targets.push(obj);
    });
  }
  if (!tags(store).has(label)) tags(store).set(label, { label, created: store.nowIso() });
  const tagAll = (s: Store) => {
    // A tag deleted before its objects were tagged tags nothing.
    if (!tags(s).has(label)) return;
    const now = s.nowIso();
    for (const t of targets) tagOne(t, label, now);
  };
  // Under the variation tag-create-runs-a-while the listed objects carry the tag a simulated minute after the POST.
  if (varied(store, 'tag-create-runs-a-while')) store.schedule(new Date(store.now().getTime() + 60_000), tagAll);
  else tagAll(store);
  if (faulty(store, 'P2.tag.fields')) return { name: label };
  if (faulty(store, 'P2.tag.types')) return { label: [label] };
  if (faulty(store, 'P2.tags.create.returns-label')) return { label: [...label].reverse().join('') };
  return { label };
}

function deleteHandler(ctx: RequestContext) {
  const { store } = ctx;
  if (varied(store, 'tag-delete-unknown-ok') && !exists(store, ctx.params.label ?? '')) return {};
  const label = labelOr404(ctx);
  const remove = (s: Store) => {
    const now = s.nowIso();
    for (const kind of KINDS) {
      if (kind.key !== 'computes' && faulty(s, 'P2.tags.delete.removes-everywhere')) continue;
      for (const obj of kind.list(s)) {
        const i = obj.tags.indexOf(label);
        if (i >= 0) {
          obj.tags.splice(i, 1);
          if (obj.updated !== undefined) obj.updated = now;
        }
      }
    }
    if (!faulty(s, 'P2.tags.delete.removes-everywhere~delete-keeps-tag')) tags(s).delete(label);
  };
  // Under the variation tag-removal-runs-a-while the tag leaves its objects, and is deleted, a simulated minute later.
  if (varied(store, 'tag-removal-runs-a-while')) store.schedule(new Date(store.now().getTime() + 60_000), remove);
  else remove(store);
  return faulty(store, 'P2.tags.delete.returns-empty') ? { label } : {};
}

/**
 * An item of the tagged objects list under the variation tagged-objects-summary: instances as {id, label, region,
 * status, tags}, domains as {id, domain, type, status, tags} (their views show them whole); volumes and load balancers
 * as they are.
 */
function summaryOf(key: string, obj: Tagged & { id: number }): unknown {
  const pick = (members: string[]) => Object.fromEntries(members.map((m) => [m, (obj as unknown as Record<string, unknown>)[m]]));
  if (key === 'computes') return pick(['id', 'label', 'region', 'status', 'tags']);
  if (key === 'domains') return pick(['id', 'domain', 'type', 'status', 'tags']);
  return obj;
}

function taggedHandler(ctx: RequestContext) {
  const { store } = ctx;
  if (varied(store, 'unknown-tag-empty-list') && !exists(store, ctx.params['label'] ?? '')) return paginate(ctx, []);
  const label = labelOr404(ctx);
  // Document 2: "The list mixes objects of these kinds" — the objects themselves, not wrapped.
  const items: unknown[] = [];
  const summarised = varied(store, 'tagged-objects-summary');
  for (const kind of KINDS) {
    for (const obj of kind.list(store)) {
      if (obj.tags.includes(label) && canAccess(ctx.principal, kind.grant, obj.id, 'read_only')) {
        items.push(summarised ? summaryOf(kind.key, obj) : obj);
        if (kind.key === 'computes' && faulty(store, 'P2.tags.view.mixed-list')) items.push(obj);
      }
    }
  }
  return paginate(ctx, items);
}

export const area: Area = {
  name: 'tags',
  seed: (store) => {
    tags(store).set('seed', { label: 'seed', created: store.nowIso() });
  },
  routes: [
    { method: 'POST', path: '/v4/tags', scopes: ['account:read_write'], auth: 'token', unrestrictedOnly: true, handler: createHandler },
    { method: 'DELETE', path: '/v4/tags/{label}', scopes: ['account:read_write'], auth: 'token', unrestrictedOnly: true, handler: deleteHandler },
    // Scope not shown: any valid token may list the objects it can see.
    { method: 'GET', path: '/v4/tags/{label}', scopes: [], auth: 'not-shown', handler: taggedHandler },
  ],
};
