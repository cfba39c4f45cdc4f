// Document 2, "Tags" and "Tagged objects": tag create tags the listed objects (all or nothing), tag delete removes
// the tag everywhere, the tagged objects list mixes instances, domains, volumes and load balancers, the instance
// volumes list holds the attached volumes. Volumes and load balancers have no documented operations: the suite
// only reads those it can reach (the volumes of visible instances, the objects carrying their tags).
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { isEmptyObject } from '../../harness/error-bodies.js';
import { readAfterWrite, untilShortlyDone } from '../../harness/consistency.js';
import { listPages } from '../../harness/lists.js';
import { rulesOfSchema } from '../../harness/contract.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { findEndpoint } from '../../harness/responses.js';
import { endpointRuleId } from '../../rules/endpoint-rules.js';
import { sameDomainName } from '../../harness/domain-names.js';

const fx = useFixtures('part2-tags');

type Json = Record<string, unknown>;

const tagPath = (label: string) => `/v4/tags/${encodeURIComponent(label)}`;

/**
 * Judges that the tag `label` does not exist, where a DELETE tells: when the DELETE of a label never made is refused,
 * the DELETE of `label` must be refused too. A server may answer `{}` to the DELETE of a label nothing carries (it
 * removes the label from nothing): then existence apart from the objects is not observable, and the checks of the
 * objects and of the tagged objects list judge alone. A tag whose create was refused ("the tag is not created and an
 * error returns") is judged at once; a deleted one ("removes the tag from all objects and deletes it"), with
 * `shortly`, sent again while a short time passes: when the deletion is done is not shown. An accepted DELETE deletes
 * the tag that should not have been there.
 */
async function judgeNoTag(c: Check, rule: string, label: string, what: string, { shortly = false } = {}): Promise<void> {
  const neverMade = fx.label('nt', 50);
  if (ok(await c.delete(tagPath(neverMade)))) return;
  const send = () => c.delete(tagPath(label));
  const removed = shortly ? await untilShortlyDone(c, send, (exchange) => !ok(exchange)) : await send();
  if (ok(removed)) return c.fail(rule, `${what}: DELETE /v4/tags/${label} was accepted${shortly ? ' (sent while a short time passed)' : ''}`, removed);
  c.expectRejected(rule, removed, `DELETE /v4/tags/${label}, ${what}`);
}
const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
const tagsOf = (item: Json | undefined): string[] => (Array.isArray(item?.tags) ? item.tags.filter((tag): tag is string => typeof tag === 'string') : []);

/**
 * Kinds recognised by members only that kind documents (no discriminator is documented). The instance's members are
 * themselves inferred ("Compute instance: as above"): which members an item carries is a SHOULD
 * (P2.tagged-objects.kinds), and an object the run made is found by its id together with its name (`listsInstance`,
 * `listsDomain`).
 */
const isInstance = (item: Json) => Array.isArray(item.ipv4) || item.specs !== undefined || item.hypervisor !== undefined;
const isDomain = (item: Json) => typeof item.domain === 'string';
const isVolume = (item: Json) => item.filesystem_path !== undefined || item.hardware_type !== undefined;
/** How many labels (counted from the end) every name of `names` ends with alike. */
function labelsAllEndWith(names: string[][]): number {
  const [first = []] = names;
  const labelFromEnd = (labels: string[], n: number) => labels[labels.length - 1 - n];
  let n = 0;
  while (n < first.length && names.every((labels) => labelFromEnd(labels, n) === labelFromEnd(first, n))) n++;
  return n;
}

const isBalancer = (item: Json) => item.hostname !== undefined || item.client_conn_throttle !== undefined;
/** The instance made, in a tagged objects list: its id and its label (an id alone may be a domain's too). */
const listsInstance = (items: Json[], instance: { id: number; label: string }) =>
  items.some((item) => item.id === instance.id && item.label === instance.label);
/** The domain made, in a tagged objects list: its id and its name (case and a final period aside). */
const listsDomain = (items: Json[], domain: { id: number; domain: string }) =>
  items.some((item) => item.id === domain.id && sameDomainName(item.domain, domain.domain));

/**
 * The tagged objects of `label`: the items, or none when the tag does not exist (4xx) or lists nothing. `until`:
 * what the list should show after a write; it is read again within the consistency window until it does.
 */
async function tagged(
  c: Check,
  label: string,
  until?: (listed: { items: Json[]; first: Exchange }) => boolean,
  { shortly = false } = {},
): Promise<{ items: Json[]; first: Exchange }> {
  if (!until) return listPages(c, tagPath(label));
  return (shortly ? untilShortlyDone : readAfterWrite)(c, () => listPages(c, tagPath(label)), until);
}

/**
 * How a tag create or delete changes its objects: when the objects (their views' `tags`, the tagged objects list) show
 * the tag come or go is not shown for either, so what one of them changes there is read while a short time passes.
 */
const SHORTLY = { shortly: true };

/** Creates a tag through a raw request, tracked for deletion. */
async function createTag(c: Check, body: Json, token?: string): Promise<{ label: string; exchange: Exchange }> {
  const label = typeof body.label === 'string' ? body.label : fx.label('tag', 50);
  const exchange = await c.post('/v4/tags', { ...body, label }, token ? { token } : {});
  if (ok(exchange)) fx.track('tag', label, label);
  return { label, exchange };
}

/**
 * The view of an object expected to exist, showing `until` (what a write just set): read again within the consistency
 * window until it does, or, `shortly`, while a short time passes (what a write changes elsewhere, when not shown).
 */
async function viewOf(
  c: Check,
  path: string,
  until: (body: Json) => boolean = () => true,
  { shortly = false } = {},
): Promise<{ body: Json; exchange: Exchange }> {
  const exchange = await (shortly ? untilShortlyDone : readAfterWrite)(
    c,
    () => c.get(path),
    (view) => ok(view) && until(bodyOf(view)),
  );
  // The object was just made (or seeded): the documents promise its view.
  const endpoint = findEndpoint(`GET ${path}`);
  if (!ok(exchange)) {
    if (endpoint) c.fail(endpointRuleId(endpoint, 'serves'), `${path} cannot be viewed: HTTP ${exchange.status}`, exchange);
    throw new SetupError(`could not view ${path}: HTTP ${exchange.status}`);
  }
  return { body: bodyOf(exchange), exchange };
}

/** Volumes and load balancers the suite can reach without changing anything it did not create. */
async function reachable(c: Check): Promise<{ instances: Json[]; volumesByInstance: Map<number, Json[]>; taggedObjects: Array<{ tag: string; item: Json }> }> {
  const { items: instances } = await listPages(c, '/v4/compute/instances');
  const volumesByInstance = new Map<number, Json[]>();
  for (const instance of instances.slice(0, 40)) {
    if (typeof instance.id !== 'number') continue;
    const { items, first } = await listPages(c, `/v4/compute/instances/${instance.id}/volumes`);
    if (ok(first)) volumesByInstance.set(instance.id, items);
  }
  const { items: domains } = await listPages(c, '/v4/domains');
  const labels = new Set<string>();
  for (const item of [...instances, ...domains, ...[...volumesByInstance.values()].flat()]) for (const tag of tagsOf(item)) labels.add(tag);
  const taggedObjects: Array<{ tag: string; item: Json }> = [];
  for (const tag of [...labels].slice(0, 20)) {
    const { items } = await tagged(c, tag);
    for (const item of items) taggedObjects.push({ tag, item });
  }
  return { instances, volumesByInstance, taggedObjects };
}

/*
 * The checks below share the file's instance (`fx.instance`), and one check a second one: each tags them with a label
 * of its own (an instance update replaces them all), so they need no instance of their own.
 */
const secondInstance = (c: Check) => fx.shared('second instance', () => fx.newInstance(c));

describe('Tag create', () => {
  check(
    ['P2.tags.create.tags-objects', 'P2.tags.create.returns-label', 'P2.tags.view.mixed-list'],
    'tag create returns the label it was given and tags the listed instance and domain',
    async (c) => {
      const [instance, domain] = [await fx.instance(c), await fx.newDomain(c)];
      const { label, exchange } = await createTag(c, { computes: [instance.id], domains: [domain.id] });
      c.expectSuccess('P2.tags.create.tags-objects', exchange, 'POST /v4/tags with an instance and a domain');
      c.expect(
        'P2.tags.create.returns-label',
        bodyOf(exchange).label === label,
        `the tag created as "${label}" is answered as ${JSON.stringify(bodyOf(exchange).label)}`,
        exchange,
      );
      // When the objects carry the new tag is not shown (as when a deleted one leaves them): each is read while a short time passes.
      const instanceView = await viewOf(c, `/v4/compute/instances/${instance.id}`, (body) => tagsOf(body).includes(label), SHORTLY);
      c.expect(
        'P2.tags.create.tags-objects',
        tagsOf(instanceView.body).includes(label),
        `instance ${instance.id} does not carry the new tag "${label}"`,
        instanceView.exchange,
      );
      const domainView = await viewOf(c, `/v4/domains/${domain.id}`, (body) => tagsOf(body).includes(label), SHORTLY);
      c.expect(
        'P2.tags.create.tags-objects',
        tagsOf(domainView.body).includes(label),
        `domain ${domain.id} does not carry the new tag "${label}"`,
        domainView.exchange,
      );
      const { items, first } = await tagged(c, label, (listed) => ok(listed.first) && listed.items.length === 2, SHORTLY);
      c.expectSuccess('P2.tags.view.mixed-list', first, `GET /v4/tags/${label}`);
      c.expect('P2.tags.view.mixed-list', Array.isArray(bodyOf(first).data), 'the tagged objects list is not a {data: [...]} list', first);
      c.expect('P2.tags.create.tags-objects', listsInstance(items, instance), `the tagged objects list of "${label}" lacks instance ${instance.id}`, first);
      c.expect('P2.tags.create.tags-objects', listsDomain(items, domain), `the tagged objects list of "${label}" lacks domain ${domain.id}`, first);
      c.expect('P2.tags.view.mixed-list', items.length === 2, `the tagged objects list of "${label}" holds ${items.length} objects, not the 2 tagged`, first);
    },
  );

  check(
    ['P2.tags.view.mixed-list', 'P2.tagged-objects.kinds'],
    'the tagged objects lists reachable from visible objects hold only objects carrying the tag',
    async (c) => {
      const { taggedObjects } = await reachable(c);
      if (!taggedObjects.length) c.skip('no visible object carries a tag');
      for (const { tag, item } of taggedObjects) {
        // Which members tell the kinds apart is inferred (the instance's fields are): a SHOULD.
        c.expect(
          'P2.tagged-objects.kinds',
          isInstance(item) || isDomain(item) || isVolume(item) || isBalancer(item),
          `an item of the tagged objects list of "${tag}" is neither an instance, a domain, a volume nor a load balancer: ${JSON.stringify(item).slice(0, 200)}`,
        );
        if (Array.isArray(item.tags))
          c.expect(
            'P2.tags.view.mixed-list',
            tagsOf(item).includes(tag),
            `object ${String(item.id)} in the tagged objects list of "${tag}" does not carry that tag`,
          );
      }
    },
  );

  // The object that does not exist is of one kind, then of the other: a server checking and tagging one kind at a time
  // tags the objects of the kind it takes first, whichever that is. Volumes and load balancers, which the body lists too
  // but no other part of this document manages, are named by IDs that do not exist, each beside an instance that does.
  check('P2.tags.create.all-or-nothing', 'a tag listing an object the caller cannot write is not created, and tags nothing', async (c) => {
    const rule = 'P2.tags.create.all-or-nothing';
    const [instance, domain] = [await fx.instance(c), await fx.newDomain(c)];
    const missing = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    const cases: Array<[body: Json, refused: string, field: string, path: string]> = [
      [{ computes: [instance.id], domains: [missing] }, `instance ${instance.id} and domain ${missing}`, 'domains.0', `/v4/compute/instances/${instance.id}`],
      [{ domains: [domain.id], computes: [missing] }, `domain ${domain.id} and instance ${missing}`, 'computes.0', `/v4/domains/${domain.id}`],
      [{ computes: [instance.id], volumes: [missing] }, `instance ${instance.id} and volume ${missing}`, 'volumes.0', `/v4/compute/instances/${instance.id}`],
      [
        { computes: [instance.id], balancers: [missing] },
        `instance ${instance.id} and load balancer ${missing}`,
        'balancers.0',
        `/v4/compute/instances/${instance.id}`,
      ],
    ];
    for (const [body, listing, field, path] of cases) {
      const label = fx.label('tag', 50);
      const { exchange } = await createTag(c, { label, ...body });
      c.expectRejected(rule, exchange, `POST /v4/tags listing ${listing} (not the caller's)`, field);
      const view = await viewOf(c, path);
      c.expect(rule, !tagsOf(view.body).includes(label), `${path} carries tag "${label}" although the create was rejected`, view.exchange);
      const { items, first } = await tagged(c, label);
      c.expect(rule, !ok(first) || items.length === 0, `the tag "${label}" of a rejected create lists ${items.length} objects`, first);
      await judgeNoTag(c, rule, label, `the tag "${label}" of a rejected create exists`);
    }
  });

  check('P2.tags.create.all-or-nothing', 'a restricted user with read_write on one instance and read_only on another tags neither', async (c) => {
    const [writable, readable] = [await fx.instance(c), await secondInstance(c)];
    const token = await c.principal({
      scopes: '*',
      restricted: true,
      grants: { entities: { compute: { [String(writable.id)]: 'read_write', [String(readable.id)]: 'read_only' } } },
    });
    const label = fx.label('tag', 50);
    const { exchange } = await createTag(c, { label, computes: [writable.id, readable.id] }, token);
    c.expectRejected('P2.tags.create.all-or-nothing', exchange, 'POST /v4/tags by a restricted user listing an instance it can only read');
    for (const instance of [writable, readable]) {
      const view = await viewOf(c, `/v4/compute/instances/${instance.id}`);
      c.expect(
        'P2.tags.create.all-or-nothing',
        !tagsOf(view.body).includes(label),
        `instance ${instance.id} carries tag "${label}" although the create was rejected`,
        view.exchange,
      );
    }
    await judgeNoTag(c, 'P2.tags.create.all-or-nothing', label, `the tag "${label}" of a restricted user's rejected create exists`);
  });
});

describe('Tag delete', () => {
  check(['P2.tags.delete.returns-empty', 'P2.tags.delete.removes-everywhere'], 'tag delete returns {} and removes the tag from every object', async (c) => {
    const [instance, domain] = [await fx.instance(c), await fx.newDomain(c)];
    const { label, exchange } = await createTag(c, { computes: [instance.id], domains: [domain.id] });
    if (!ok(exchange)) throw new SetupError(`could not create a tag: HTTP ${exchange.status}`);
    const before = await tagged(c, label, (listed) => listed.items.length >= 2, SHORTLY);
    if (before.items.length < 2) throw new SetupError(`the new tag lists ${before.items.length} objects, not 2`);
    const deleted = await c.delete(tagPath(label));
    c.expectSuccess('P2.tags.delete.removes-everywhere', deleted, `DELETE /v4/tags/${label}`);
    const body = deleted.body;
    c.expect('P2.tags.delete.returns-empty', isEmptyObject(body), `tag delete returned ${JSON.stringify(body)?.slice(0, 200) ?? 'no body'}, not {}`, deleted);
    // When the tag leaves its objects is not shown: each is read while a short time passes.
    for (const path of [`/v4/compute/instances/${instance.id}`, `/v4/domains/${domain.id}`]) {
      const view = await viewOf(c, path, (body) => !tagsOf(body).includes(label), SHORTLY);
      c.expect('P2.tags.delete.removes-everywhere', !tagsOf(view.body).includes(label), `${path} still carries the deleted tag "${label}"`, view.exchange);
    }
    const after = await tagged(c, label, (listed) => !ok(listed.first) || listed.items.length === 0, SHORTLY);
    c.expect(
      'P2.tags.delete.removes-everywhere',
      !ok(after.first) || after.items.length === 0,
      `the deleted tag "${label}" still lists ${after.items.length} objects`,
      after.first,
    );
    await judgeNoTag(c, 'P2.tags.delete.removes-everywhere', label, `the deleted tag "${label}" still exists`, SHORTLY);
  });
});

describe('Instance tags', () => {
  check('P2.tags.instance-update.tags-replaced', 'tags given in an instance update become its tags', async (c) => {
    const instance = await fx.instance(c);
    const [a, b] = [fx.label('ta', 50), fx.label('tb', 50)];
    for (const label of [a, b]) fx.track('tag', label, label);
    const set = await c.put(`/v4/compute/instances/${instance.id}`, { tags: [a, b] });
    c.expectSuccess('P2.tags.instance-update.tags-replaced', set, 'PUT instance tags [a, b]');
    let view = await viewOf(c, `/v4/compute/instances/${instance.id}`, (body) => [...tagsOf(body)].sort().join(',') === [a, b].sort().join(','));
    c.expect(
      'P2.tags.instance-update.tags-replaced',
      [...tagsOf(view.body)].sort().join(',') === [a, b].sort().join(','),
      `the instance's tags are ${JSON.stringify(view.body.tags)}, not [${a}, ${b}]`,
      view.exchange,
    );
    const replaced = await c.put(`/v4/compute/instances/${instance.id}`, { tags: [b] });
    c.expectSuccess('P2.tags.instance-update.tags-replaced', replaced, 'PUT instance tags [b]');
    view = await viewOf(c, `/v4/compute/instances/${instance.id}`, (body) => tagsOf(body).join(',') === b);
    c.expect(
      'P2.tags.instance-update.tags-replaced',
      tagsOf(view.body).join(',') === b,
      `the instance's tags are ${JSON.stringify(view.body.tags)} after replacing them by [${b}]`,
      view.exchange,
    );
    const { items } = await tagged(c, b, (listed) => listed.items.some((item) => item.id === instance.id));
    c.expect(
      'P2.tags.instance-update.tags-replaced',
      items.some((item) => item.id === instance.id),
      `the tagged objects list of "${b}" lacks instance ${instance.id}`,
    );
  });
});

describe('Volumes and load balancers', () => {
  check('P2.volumes.attached', 'a new instance has no volumes attached', async (c) => {
    const instance = await fx.newInstance(c);
    const { items, first } = await listPages(c, `/v4/compute/instances/${instance.id}/volumes`, { until: (volumes) => volumes.length === 0 });
    c.expectSuccess('P2.volumes.attached', first, 'GET the volumes of a new instance');
    c.expect('P2.volumes.attached', items.length === 0, `a new instance lists ${items.length} attached volumes`, first);
  });

  check(
    ['P2.volumes.attached', 'P2.volume.filesystem-path.label', 'P2.volume.compute-label.attached'],
    'each instance lists the volumes attached to it, and only those',
    async (c) => {
      const { volumesByInstance, taggedObjects } = await reachable(c);
      const listed = [...volumesByInstance.entries()].flatMap(([computeId, volumes]) => volumes.map((volume) => ({ computeId, volume })));
      const taggedVolumes = taggedObjects.map(({ item }) => item).filter(isVolume);
      if (!listed.length && !taggedVolumes.length) c.skip('no volume is reachable on the target (no visible instance lists one, no tagged object is one)');
      for (const { computeId, volume } of listed) {
        if (volume.compute_id !== undefined)
          c.expect(
            'P2.volumes.attached',
            volume.compute_id === computeId,
            `volume ${String(volume.id)} (compute_id ${String(volume.compute_id)}) is listed among the volumes of instance ${computeId}`,
          );
      }
      for (const volume of taggedVolumes) {
        if (typeof volume.id !== 'number' || !('compute_id' in volume)) continue;
        const attachedTo = volume.compute_id;
        for (const [computeId, volumes] of volumesByInstance) {
          const there = volumes.some((item) => item.id === volume.id);
          if (computeId === attachedTo)
            c.expect('P2.volumes.attached', there, `volume ${volume.id} is attached to instance ${computeId} (compute_id) but missing from its volumes list`);
          else
            c.expect(
              'P2.volumes.attached',
              !there,
              `volume ${volume.id} (compute_id ${String(attachedTo)}) is listed among the volumes of instance ${computeId}`,
            );
        }
      }
    },
  );

  // Volumes and load balancers are only ever read in the tagged objects lists: every response is judged against the
  // documented shape (the named checks), so each kind's shape rules get a check that reaches such objects.
  const SHAPES: Array<{ schema: string; kind: string; is: (item: Json) => boolean }> = [
    { schema: 'resources/volume', kind: 'volume', is: isVolume },
    { schema: 'resources/load-balancer', kind: 'load balancer', is: isBalancer },
  ];
  for (const shape of SHAPES) {
    check(rulesOfSchema(shape.schema), `each ${shape.kind} reachable through the tagged objects lists has the documented shape`, async (c) => {
      const { taggedObjects } = await reachable(c);
      if (!taggedObjects.some(({ item }) => shape.is(item))) c.skip(`no ${shape.kind} is reachable (none carries a tag a visible object carries)`);
    });
  }

  check(
    ['P2.load-balancer.hostname.fixed-suffix', 'P2.load-balancer.hostname.ip-prefix'],
    'load balancer hostnames end with one fixed service domain suffix',
    async (c) => {
      const { taggedObjects } = await reachable(c);
      const balancers = new Map<unknown, Json>();
      for (const { item } of taggedObjects) if (isBalancer(item)) balancers.set(item.id, item);
      if (!balancers.size) c.skip('no load balancer is reachable (none carries a tag a visible object carries)');
      // The fixed suffix is what every hostname ends with; what stands between the address and it (a region, say) may vary.
      const domains: string[][] = [];
      for (const balancer of balancers.values()) {
        const { hostname, ipv4 } = balancer;
        if (typeof hostname !== 'string' || typeof ipv4 !== 'string') continue;
        const prefix = [ipv4, ipv4.replaceAll('.', '-')].find((p) => hostname.startsWith(p));
        if (!prefix) continue; // judged by P2.load-balancer.hostname.ip-prefix on the response
        const rest = hostname.slice(prefix.length);
        c.expect(
          'P2.load-balancer.hostname.fixed-suffix',
          /^[.-][A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(rest),
          `load balancer ${String(balancer.id)}: hostname "${hostname}" does not end with a service domain after its IP address`,
        );
        domains.push(rest.slice(1).toLowerCase().split('.'));
      }
      c.expect(
        'P2.load-balancer.hostname.fixed-suffix',
        domains.length < 2 || labelsAllEndWith(domains) >= 2,
        `the load balancers' hostnames end with no common service domain: ${domains.map((labels) => labels.join('.')).join(', ')}`,
      );
    },
  );
});
