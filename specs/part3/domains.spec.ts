// Document 3, "Domain", "Domain status" and "Domains": the rules of DNS zones that only a sequence of requests
// can show — status transitions, rounding of the four time values, platform-wide name uniqueness (domains-unique.ts), delete, clone,
// the slave / master member rules across an update, and the update body with a single member.
// Response bodies are not shown: a domain is read from its view, else from its list item; a field the target
// does not show makes the check `skip`, never `fail`.
import fc from 'fast-check';
import { describe } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { bodies } from '../../arbitraries/part3.js';
import { MASTER_NAMESERVER } from '../../arbitraries/generators/net.js';
import { deleteSeen, readAfterWrite, untilGone, untilShortlyDone, untilShortlyDoneSparingly } from '../../harness/consistency.js';
import { showsMade } from '../../harness/resources.js';
import { sameId } from '../../harness/ids.js';
import { unservedRule } from '../../harness/judge.js';
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import { check, type Check } from '../../harness/check.js';
import { listPages as listAll } from '../../harness/lists.js';
import { runProperty } from '../../harness/property.js';
import { SetupError, useFixtures } from '../../harness/fixtures.js';
import { addRecord, bareTarget, relativeName } from './records-support.js';
import type { Exchange } from '../../harness/http.js';
import { sameDomainName } from '../../harness/domain-names.js';
import { uniqueNameChecks } from './domains-unique.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part3-domains');

const SOA = 'hostmaster@example.com';
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

const isDomainOf = (body: unknown, id: number): body is Json => isObject(body) && (body.id === id || typeof body.domain === 'string');

/**
 * The domain as the target shows it: its view when that is the domain, else its list item. After a write, `settled`
 * says what the check expects to see: the read is repeated within the consistency window until it holds.
 */
async function domainView(c: Check, rule: string, id: number, settled: (domain: Json) => boolean = () => true): Promise<Json> {
  const view = await readAfterWrite(
    c,
    () => c.get(`/v4/domains/${id}`),
    (exchange) => unservedRule(exchange) !== undefined || (ok(exchange) && (!isDomainOf(exchange.body, id) || settled(exchange.body))),
  );
  // A view that is not served is evidence about its own rule: the list is the other documented read.
  const served = !unservedRule(view);
  if (served) c.expectSuccess(rule, view, `GET /v4/domains/${id}`);
  if (served && isDomainOf(view.body, id)) return view.body;
  const listed = await readAfterWrite(
    c,
    () => fx.find(c, '/v4/domains', (item) => item.id === id),
    (item) => item !== undefined && settled(item),
  );
  if (!listed) c.skip('neither the domain view nor the domain list shows the domain (response bodies are not shown)');
  return listed;
}

/** A member of a domain as shown; `skip` when the target does not show it. */
function shown(c: Check, domain: Json, member: string): unknown {
  if (!(member in domain)) c.skip(`the domain as returned shows no ${member}`);
  return domain[member];
}

/** Every domain of the list named `name` (case and a final period aside: `sameDomainName`). */
async function allNamed(c: Check, name: string): Promise<Json[]> {
  const { items } = await listAll(c, '/v4/domains', { ends: true });
  return items.filter((item) => sameDomainName(item.domain, name));
}

/** The domains named `name` once one shows: a list may lag the create that made it (within the consistency window). */
const namedAfterWrite = (c: Check, name: string) =>
  readAfterWrite(
    c,
    () => allNamed(c, name),
    (items) => items.length > 0,
  );

/** After a create that should have been refused: tracks whatever it made so it is deleted after the file. */
async function trackStray(c: Check, exchange: Exchange, name: string, keep: number[]): Promise<void> {
  if (!ok(exchange)) return;
  const ids = new Set<number>();
  if (isObject(exchange.body) && typeof exchange.body.id === 'number' && !keep.includes(exchange.body.id)) ids.add(exchange.body.id);
  for (const item of await namedAfterWrite(c, name)) if (typeof item.id === 'number' && !keep.includes(item.id)) ids.add(item.id);
  for (const id of ids) fx.track('domain', id, name);
}

/** The id of a domain a create-like request (clone, import) made, from its response or the list; tracked. */
async function adoptDomain(c: Check, exchange: Exchange, name: string): Promise<number | undefined> {
  if (!ok(exchange)) return undefined;
  let id = isObject(exchange.body) && sameDomainName(exchange.body.domain, name) && typeof exchange.body.id === 'number' ? exchange.body.id : undefined;
  id ??= (await namedAfterWrite(c, name)).map((item) => item.id).find((value): value is number => typeof value === 'number');
  if (id !== undefined) fx.track('domain', id, name);
  return id;
}

/** The property runner of the harness, at most 25 runs and no shrinking here: every run sends requests. */
const property = <T>(c: Check, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, maxRuns = 25) =>
  runProperty(c, arbitrary, predicate, { maxRuns, shrink: false });

// ------------------------------------------------------------------------------------------------ status

describe('Domain status', () => {
  check('P3.domain.status.default-active', 'a domain created without status is active', async (c) => {
    const domain = await fx.newDomain(c);
    const view = await domainView(c, 'P3.domain.status.default-active', domain.id);
    c.expect(
      'P3.domain.status.default-active',
      shown(c, view, 'status') === 'active',
      `a domain created without status shows status ${JSON.stringify(view.status)}`,
    );
  });

  check('P3.domain.status.default-active', 'a domain created with status disabled is disabled ("unless status says otherwise")', async (c) => {
    const domain = await fx.newDomain(c, { status: 'disabled' });
    const view = await domainView(c, 'P3.domain.status.default-active', domain.id);
    c.expect(
      'P3.domain.status.default-active',
      shown(c, view, 'status') === 'disabled',
      `a domain created with status disabled shows status ${JSON.stringify(view.status)}`,
    );
  });

  check('P3.domain.status.active-to-disabled', 'PUT status disabled moves an active domain to disabled', async (c) => {
    const rule = 'P3.domain.status.active-to-disabled';
    const domain = await fx.newDomain(c, { status: 'active' });
    if (shown(c, await domainView(c, rule, domain.id), 'status') !== 'active') throw new SetupError('a domain created with status active is not active');
    const put = await c.put(`/v4/domains/${domain.id}`, { status: 'disabled' });
    c.expectSuccess(rule, put, 'PUT status disabled on an active domain');
    const view = await domainView(c, rule, domain.id, (seen) => seen.status === 'disabled');
    c.expect(rule, view.status === 'disabled', `after PUT status disabled the domain shows status ${JSON.stringify(view.status)}`);
  });

  check('P3.domain.status.disabled-to-active', 'PUT status active moves a disabled domain to active', async (c) => {
    const rule = 'P3.domain.status.disabled-to-active';
    const domain = await fx.newDomain(c);
    // the way there is the other transition: a failure on it is that rule's
    const disable = await c.put(`/v4/domains/${domain.id}`, { status: 'disabled' });
    c.expectSuccess('P3.domain.status.active-to-disabled', disable, 'PUT status disabled on an active domain');
    c.expect(
      'P3.domain.status.active-to-disabled',
      shown(c, await domainView(c, rule, domain.id, (seen) => seen.status === 'disabled'), 'status') === 'disabled',
      'the domain is not disabled after PUT status disabled',
      disable,
    );
    const put = await c.put(`/v4/domains/${domain.id}`, { status: 'active' });
    c.expectSuccess(rule, put, 'PUT status active on a disabled domain');
    const view = await domainView(c, rule, domain.id, (seen) => seen.status === 'active');
    c.expect(rule, view.status === 'active', `after PUT status active the domain shows status ${JSON.stringify(view.status)}`);
  });

  check('P3.domain.status.disabled-to-active', 'a domain created disabled can be activated', async (c) => {
    const rule = 'P3.domain.status.disabled-to-active';
    const domain = await fx.newDomain(c, { status: 'disabled' });
    c.expectSuccess(rule, await c.put(`/v4/domains/${domain.id}`, { status: 'active' }), 'PUT status active on a domain created disabled');
    const view = await domainView(c, rule, domain.id, (seen) => seen.status === 'active');
    c.expect(rule, shown(c, view, 'status') === 'active', `after PUT status active the domain shows status ${JSON.stringify(view.status)}`);
  });
});

// ------------------------------------------------------------------------------------------------ time values

const TIME_FIELDS = [
  { field: 'expire_sec', roundUp: 'P3.domain.expire-sec.round-up', zero: 'P3.domain.expire-sec.zero-means-default-1209600', fallback: 1209600 },
  { field: 'refresh_sec', roundUp: 'P3.domain.refresh-sec.round-up', zero: 'P3.domain.refresh-sec.zero-means-default-14400', fallback: 14400 },
  { field: 'retry_sec', roundUp: 'P3.domain.retry-sec.round-up', zero: 'P3.domain.retry-sec.zero-means-default-14400', fallback: 14400 },
  { field: 'ttl_sec', roundUp: 'P3.domain.ttl-sec.round-up', zero: 'P3.domain.ttl-sec.zero-means-default-86400', fallback: 86400 },
] as const;

/** Sent → shown: below, at and above valid values (rounded UP, never down, never to 0). */
const ROUND_UP_CASES: Array<[sent: number, shown: number]> = [
  [1, 300],
  [299, 300],
  [300, 300],
  [301, 3600],
  [3599, 3600],
  [3601, 7200],
  [7201, 14400],
  [28799, 28800],
  [57601, 86400],
  [86401, 172800],
  [172801, 345600],
  [345601, 604800],
  [604801, 1209600],
  [1209601, 2419200],
  [2419199, 2419200],
  [2419200, 2419200],
];

describe('Domain time values', () => {
  for (const { field, roundUp, zero, fallback } of TIME_FIELDS) {
    check(roundUp, `${field} on create is rounded up to the next valid value (301 → 3600, 1 → 300), a valid one kept (3600)`, async (c) => {
      for (const [sent, expected] of [
        [301, 3600],
        [1, 300],
        [3600, 3600],
      ] as const) {
        const domain = await fx.newDomain(c, { [field]: sent });
        const value = shown(c, await domainView(c, roundUp, domain.id), field);
        c.expect(roundUp, value === expected, `a domain created with ${field} ${sent} shows ${field} ${JSON.stringify(value)} (expected ${expected})`);
      }
    });

    check(roundUp, `${field} on update: values below, at and above each valid value`, async (c) => {
      const domain = await fx.newDomain(c);
      for (const [sent, expected] of ROUND_UP_CASES) {
        const put = await c.put(`/v4/domains/${domain.id}`, { [field]: sent });
        c.expectSuccess(roundUp, put, `PUT ${field} ${sent}`);
        const value = shown(c, await domainView(c, roundUp, domain.id, (seen) => seen[field] === expected), field);
        c.expect(roundUp, value === expected, `after PUT ${field} ${sent} the domain shows ${field} ${JSON.stringify(value)} (expected ${expected})`, put);
      }
    });

    check(zero, `${field} 0 means the default (${fallback}): shown as 0 or ${fallback}`, async (c) => {
      const domain = await fx.newDomain(c, { [field]: 0 });
      const created = shown(c, await domainView(c, zero, domain.id), field);
      c.expect(
        zero,
        created === 0 || created === fallback,
        `a domain created with ${field} 0 shows ${field} ${JSON.stringify(created)} (0 or the default ${fallback})`,
      );
      // a value set before does not survive a 0: 0 is the default, not "keep" nor a value to round up
      const other = fallback === 14400 ? 3600 : 7200;
      c.expectSuccess(zero, await c.put(`/v4/domains/${domain.id}`, { [field]: other }), `PUT ${field} ${other}`);
      if (shown(c, await domainView(c, zero, domain.id, (seen) => seen[field] === other), field) !== other)
        throw new SetupError(`${field} ${other} (a valid value) was not kept`);
      const put = await c.put(`/v4/domains/${domain.id}`, { [field]: 0 });
      c.expectSuccess(zero, put, `PUT ${field} 0`);
      const updated = shown(c, await domainView(c, zero, domain.id, (seen) => seen[field] === 0 || seen[field] === fallback), field);
      c.expect(
        zero,
        updated === 0 || updated === fallback,
        `after PUT ${field} 0 the domain shows ${field} ${JSON.stringify(updated)} (0 or the default ${fallback})`,
        put,
      );
    });
  }
});

uniqueNameChecks(fx, { allNamed, trackStray });

// ------------------------------------------------------------------------------------------------ master / slave

/** An update sending only `type` clashes with a member the domain lacks: either may be named at fault. */
const TYPE_OR = (missing: string) => [missing, 'type'];

describe('Members a domain type needs', () => {
  check('P3.domain.master-ips.required-for-slave', 'an update making a master without master_ips a slave is rejected', async (c) => {
    const rule = 'P3.domain.master-ips.required-for-slave';
    const domain = await fx.newDomain(c);
    const put = await c.put(`/v4/domains/${domain.id}`, { type: 'slave' });
    c.expectRejected(rule, put, 'PUT type slave on a master domain that has no master_ips', TYPE_OR('master_ips'));
    const view = await domainView(c, rule, domain.id);
    c.expect(rule, view.type !== 'slave' || (Array.isArray(view.master_ips) && view.master_ips.length > 0), 'the domain shows type slave without master IPs');
  });

  check('P3.domain.master-ips.required-for-slave', 'emptying master_ips of a slave is rejected', async (c) => {
    const rule = 'P3.domain.master-ips.required-for-slave';
    const domain = await fx.newDomain(c, { type: 'slave', master_ips: [MASTER_NAMESERVER], soa_email: undefined });
    const put = await c.put(`/v4/domains/${domain.id}`, { master_ips: [] });
    c.expectRejected(rule, put, 'PUT master_ips [] on a slave domain', 'master_ips');
  });

  check('P3.domain.soa-email.required-for-master', 'an update making a slave without soa_email a master is rejected', async (c) => {
    const rule = 'P3.domain.soa-email.required-for-master';
    const domain = await fx.newDomain(c, { type: 'slave', master_ips: [MASTER_NAMESERVER], soa_email: undefined });
    const before = await domainView(c, rule, domain.id);
    if (typeof before.soa_email === 'string' && before.soa_email.length > 0)
      c.skip('the slave domain shows an soa_email it was not given: a change to master would have one');
    const put = await c.put(`/v4/domains/${domain.id}`, { type: 'master' });
    c.expectRejected(rule, put, 'PUT type master on a slave domain that has no soa_email', TYPE_OR('soa_email'));
  });

  check('P3.domain.soa-email.required-for-master', 'an update making a slave with soa_email a master is accepted', async (c) => {
    const rule = 'P3.domain.soa-email.required-for-master';
    const domain = await fx.newDomain(c, { type: 'slave', master_ips: [MASTER_NAMESERVER], soa_email: undefined });
    const put = await c.put(`/v4/domains/${domain.id}`, { type: 'master', soa_email: SOA });
    c.expectSuccess(rule, put, 'PUT type master with soa_email on a slave domain');
    const view = await domainView(c, rule, domain.id, (seen) => seen.type === 'master');
    c.expect(rule, shown(c, view, 'type') === 'master', `after PUT type master the domain shows type ${JSON.stringify(view.type)}`);
  });
});

// ------------------------------------------------------------------------------------------------ update body

describe('PUT /v4/domains/{domainId}: no member required', () => {
  const rule = 'P3.domain-update.none-required';

  check(rule, 'an update body with any single domain member is accepted', async (c) => {
    const domain = await fx.newDomain(c);
    const context = { ...SAMPLE_CONTEXT, labelPrefix: `${fx.prefix}s`, domainId: domain.id }; // `s`: names apart from the property files' (same seed)
    const single = bodies['requests/domain-update']!.valid(context)
      .filter((body) => Object.keys(body).length > 0)
      .chain((body) => fc.constantFrom(...Object.keys(body)).map((key) => ({ [key]: body[key] }) as Json))
      // the domain is a master with no master IPs: becoming a slave breaks another rule
      .map((body) => ('type' in body ? { type: 'master' } : body))
      // no valid time value lies above 2419200, so nothing to round a larger one up to (the generator makes some)
      .filter((body) => !Object.values(body).some((value) => typeof value === 'number' && value > 2419200));
    await property(c, single, async (body) => {
      const sent: Json = { ...body };
      if ('tags' in sent) {
        // tags the run creates carry its prefix and are deleted after the file
        sent.tags = (sent.tags as unknown[]).map(() => fx.label('tag', 50));
        for (const tag of sent.tags as string[]) fx.track('tag', tag, tag);
      }
      const put = await c.put(`/v4/domains/${domain.id}`, sent);
      c.expectSuccess(rule, put, `PUT with the single member ${Object.keys(sent)[0]}`);
    });
  });

  check([rule, 'P3.domain.update.reflected'], 'an update body with one member changes that member only, to what it sent', async (c) => {
    // a group before, so that a domain showing its group shows the one the update replaces
    const domain = await fx.newDomain(c, { description: 'before', group: 'before' });
    const before = await domainView(c, rule, domain.id);
    c.expectSuccess(rule, await c.put(`/v4/domains/${domain.id}`, { group: 'conformance' }), 'PUT with the single member group');
    const after = await domainView(c, rule, domain.id, (seen) => seen.group === 'conformance');
    if ('group' in after)
      c.expect(
        'P3.domain.update.reflected',
        after.group === 'conformance',
        `after PUT {group: "conformance"} the domain shows group ${JSON.stringify(after.group)}`,
      );
    for (const member of ['domain', 'type', 'soa_email', 'status', 'description'] as const) {
      if (member in before)
        c.expect(
          rule,
          JSON.stringify(after[member]) === JSON.stringify(before[member]),
          `PUT {group} changed ${member} from ${JSON.stringify(before[member])} to ${JSON.stringify(after[member])}`,
        );
    }
  });
});

// ------------------------------------------------------------------------------------------------ delete

describe('DELETE /v4/domains/{domainId}', () => {
  // "removes the domain from the nameservers shortly after, and deletes all its records": the deletion may finish a
  // short while after the DELETE answers, so what it removes is read while a short time passes (`untilShortlyDone`).
  check('P3.domain.delete.gone', 'a deleted domain is neither viewable nor listed', async (c) => {
    const rule = 'P3.domain.delete.gone';
    const domain = await fx.newDomain(c);
    c.expectSuccess(rule, await deleteSeen(c, `/v4/domains/${domain.id}`), 'DELETE the domain');
    const made = { kind: 'domain', id: domain.id, label: domain.domain };
    c.expectGone(rule, await untilGone(c, `/v4/domains/${domain.id}`, made), 'GET a deleted domain', made);
    const listed = await untilShortlyDone(
      c,
      () => fx.findOnce(c, '/v4/domains', (item) => showsMade('domain', item, made)),
      (item) => item === undefined,
    );
    c.expect(rule, listed === undefined, `the deleted domain ${domain.domain} is still listed`);
  });

  check('P3.domain.delete.removes-records', 'the records of a deleted domain are gone', async (c) => {
    const rule = 'P3.domain.delete.removes-records';
    const domain = await fx.newDomain(c);
    const records = [
      { type: 'A', name: 'www', target: RECORD_ADDRESS.ipv4 },
      { type: 'TXT', name: 'note', target: 'conformance' },
    ];
    const made: Array<(typeof records)[number] & { id: number }> = [];
    for (const record of records) made.push({ ...record, id: await addRecord(c, domain.id, record) });
    c.expectSuccess(
      rule,
      await deleteSeen(
        c,
        `/v4/domains/${domain.id}`,
        made.map(({ id }) => `/v4/domains/${domain.id}/records/${id}`),
      ),
      'DELETE the domain',
    );
    // A record shown with another type or name than the one made with its id is another: ids may be given again, and
    // a domain given the deleted one's id lists its own records there.
    const isMade = (item: Json | undefined, record: (typeof made)[number]) =>
      sameId(item?.id, record.id) &&
      (typeof item?.type !== 'string' || item.type.toUpperCase() === record.type) &&
      (typeof item?.name !== 'string' || relativeName(item.name, domain.domain) === record.name);
    // The record list of a deleted domain may be refused (the domain is gone) or answer without its records.
    const shows = (list: Exchange) =>
      ok(list) && ((list.body as { data?: Json[] } | undefined)?.data ?? []).some((item) => made.some((record) => isMade(item, record)));
    const list = await untilShortlyDone(
      c,
      () => c.get(`/v4/domains/${domain.id}/records`),
      (read) => !shows(read),
    );
    c.expect(rule, !shows(list), 'the record list of the deleted domain still shows its records', list);
    for (const record of made) {
      const viewable = (view: Exchange) => ok(view) && isMade(view.body as Json | undefined, record);
      const view = await untilShortlyDone(
        c,
        () => c.get(`/v4/domains/${domain.id}/records/${record.id}`),
        (read) => !viewable(read),
      );
      c.expect(rule, !viewable(view), `record ${record.id} of the deleted domain is still viewable`, view);
    }
    // "deletes all its records": a domain made later with the same name starts without them (a new zone's own records
    // aside). The name may stay taken a while after the delete (not shown): asked for again while a short time passes.
    const again = await untilShortlyDoneSparingly(
      c,
      () => c.post('/v4/domains', { domain: domain.domain, type: 'master', soa_email: 'hostmaster@example.com' }),
      ok,
    );
    const sameName = await adoptDomain(c, again, domain.domain);
    if (sameName === undefined) return;
    const key = (record: Json) => recordKey(record, domain.domain, []);
    const showsDeleted = (items: Json[]) => items.some((item) => made.some((record) => key(item) === key(record)));
    const { items } = await listAll(c, `/v4/domains/${sameName}/records`, { until: (listed) => !showsDeleted(listed) });
    c.expect(rule, !showsDeleted(items), `domain ${sameName}, made again with the deleted one's name, lists the deleted one's records`);
  });
});

// ------------------------------------------------------------------------------------------------ clone

/** The members of a record as returned (not shown) that a copy of it shows as the record does. */
const RECORD_MEMBERS = ['priority', 'weight', 'port', 'service', 'protocol', 'tag', 'ttl_sec'];

/** What identifies a record across domains: its type, name (relative to its domain), target and `members` where shown. */
function recordKey(record: Json, domain: string, members = RECORD_MEMBERS): string {
  return JSON.stringify([record.type, relativeName(record.name, domain), bareTarget(record.target), ...members.map((member) => record[member] ?? null)]);
}

/** Valid time values, none the default nor 0: a clone given defaults shows others. */
const SOURCE_TIMES = { expire_sec: 604800, refresh_sec: 7200, retry_sec: 3600, ttl_sec: 300 };

/**
 * Sources to clone, each with the members it is given: the clone must show them as the source does. The clone's id,
 * name, status (a new domain is active "unless status says otherwise"), tags, description and group are not compared.
 */
const CLONE_SOURCES: Array<[kind: string, members: Json]> = [
  ['master', { type: 'master', soa_email: 'clone-source@example.com', axfr_ips: ['192.5.5.241', '2001:500:2f::f'], ...SOURCE_TIMES }],
  ['slave', { type: 'slave', soa_email: undefined, master_ips: [MASTER_NAMESERVER], axfr_ips: ['192.5.5.241'], ...SOURCE_TIMES }],
];

/** A member as shown, address lists in any order. */
const comparable = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...value].sort() : value);

describe('POST /v4/domains/{domainId}/clone', () => {
  check('P3.domain.clone.copies-domain', "the clone shows the source's type, SOA email, addresses and time values", async (c) => {
    const rule = 'P3.domain.clone.copies-domain';
    for (const [kind, members] of CLONE_SOURCES) {
      const source = await fx.newDomain(c, members);
      const before = await domainView(c, rule, source.id);
      const compared = Object.keys(members).filter((member) => members[member] !== undefined && member in before);
      if (!compared.length) c.skip('the domain as returned shows none of the members a clone carries over');
      const name = `${fx.label('cl', 40)}.example.com`;
      const clone = await c.post(`/v4/domains/${source.id}/clone`, { domain: name });
      c.expectSuccess(rule, clone, `POST clone of a ${kind} domain`);
      const cloneId = await adoptDomain(c, clone, name);
      if (cloneId === undefined) return c.fail(rule, `the clone ${name} is not in the domain list`, clone);
      const differs = (view: Json) => compared.filter((member) => comparable(view[member]) !== comparable(before[member]));
      const view = await domainView(c, rule, cloneId, (seen) => differs(seen).length === 0);
      const wrong = differs(view).map((member) => `${member} ${JSON.stringify(view[member])} (the source ${JSON.stringify(before[member])})`);
      c.expect(rule, wrong.length === 0, `the clone of a ${kind} domain shows ${wrong.join(', ')}`);
    }
  });

  check('P3.domain.clone.copies-records', 'the clone has every record of the source', async (c) => {
    const rule = 'P3.domain.clone.copies-records';
    const source = await fx.newDomain(c);
    const records: Json[] = [
      { type: 'A', name: 'www', target: RECORD_ADDRESS.ipv4 },
      { type: 'AAAA', name: 'www', target: RECORD_ADDRESS.ipv6 },
      { type: 'MX', name: 'mail', target: 'mx.example.net', priority: 10 },
      { type: 'TXT', name: 'note', target: 'conformance clone' },
      { type: 'CNAME', name: 'alias', target: 'www.example.net' },
      { type: 'CAA', name: 'certs', tag: 'issue', target: 'ca.example.net' },
      { type: 'NS', name: 'delegated', target: 'ns1.example.net' },
      { type: 'SRV', service: 'sip', protocol: 'tcp', priority: 10, weight: 5, port: 5060, target: 'sip.example.net' },
      { type: 'TXT', name: 'timed', target: 'an hour', ttl_sec: 3600 },
    ];
    for (const record of records) await addRecord(c, source.id, record);
    const sourceRecords = (await listAll(c, `/v4/domains/${source.id}/records`, { until: (items) => items.length >= records.length })).items;
    if (sourceRecords.length < records.length) throw new SetupError(`the source lists ${sourceRecords.length} of its ${records.length} records`);

    const name = `${fx.label('cl', 40)}.example.com`;
    const clone = await c.post(`/v4/domains/${source.id}/clone`, { domain: name });
    c.expectSuccess(rule, clone, 'POST clone');
    const cloneId = await adoptDomain(c, clone, name);
    c.expect(rule, cloneId !== undefined, `the clone ${name} is not in the domain list`, clone);
    const { first: exchange, items } = await listAll(c, `/v4/domains/${cloneId}/records`, { until: (listed) => listed.length >= sourceRecords.length });
    c.expectSuccess(rule, exchange, 'GET the records of the clone');
    c.expect(rule, items.length >= sourceRecords.length, `the clone has ${items.length} records, the source ${sourceRecords.length}`, exchange);
    const comparable = sourceRecords.every((record) => 'type' in record && 'target' in record);
    if (!comparable) return; // records as returned are not shown: the count is all that can be judged
    const cloned = new Set(items.map((record) => recordKey(record, name)));
    for (const record of sourceRecords)
      c.expect(
        rule,
        cloned.has(recordKey(record, source.domain)),
        `the clone lacks the ${String(record.type)} record ${JSON.stringify(record.name)} → ${JSON.stringify(record.target)}`,
        exchange,
      );
  });

  check('P3.domain.clone.copies-records', 'the clone of a one-record domain has that record, and the source keeps it', async (c) => {
    const rule = 'P3.domain.clone.copies-records';
    const source = await fx.newDomain(c);
    const record = { type: 'TXT', name: 'first', target: 'one' };
    await addRecord(c, source.id, record);
    const name = `${fx.label('cl', 40)}.example.com`;
    const clone = await c.post(`/v4/domains/${source.id}/clone`, { domain: name });
    c.expectSuccess(rule, clone, 'POST clone');
    const cloneId = await adoptDomain(c, clone, name);
    if (cloneId === undefined) throw new SetupError(`the clone ${name} is not in the domain list`);
    // Whether a new zone starts with records of the service's own (its NS records) is not shown: the record is looked
    // for among them (any record, where records as returned show no type and target).
    const holdsIt = (domain: string) => (items: Json[]) =>
      items.some((item) => !('type' in item && 'target' in item) || recordKey(item, domain, []) === recordKey(record, domain, []));
    const cloneHolds = holdsIt(name);
    const cloneRecords = (await listAll(c, `/v4/domains/${cloneId}/records`, { until: cloneHolds })).items;
    c.expect(rule, cloneHolds(cloneRecords), `the clone of a domain with one TXT record lacks it (${cloneRecords.length} records)`);
    const sourceHolds = holdsIt(source.domain);
    const sourceRecords = (await listAll(c, `/v4/domains/${source.id}/records`, { until: sourceHolds })).items;
    c.expect(rule, sourceHolds(sourceRecords), `after the clone the source lacks its TXT record (${sourceRecords.length} records)`);
  });
});

// "{domainId}, {recordId}, {clientId}, {firewallId}, {deviceId} are integers": that a non-integer is rejected is
// inferred (a warning at most). An id the account holds followed by letters catches a server reading only its
// leading digits.
describe('Path parameters', () => {
  check('P3.path.integer-ids', 'non-integer path ids are rejected', async (c) => {
    const [domain, firewall] = [await fx.domain(c), await fx.firewall(c)];
    const paths = [
      '/v4/domains/abc',
      `/v4/domains/${domain.id}abc`,
      `/v4/domains/${domain.id}/records/abc`,
      '/v4/monitor/clients/abc',
      '/v4/networking/firewalls/abc',
      `/v4/networking/firewalls/${firewall.id}abc`,
      `/v4/networking/firewalls/${firewall.id}/devices/abc`,
    ];
    for (const path of paths) c.expectRejected('P3.path.integer-ids', await c.get(path), `GET ${path}`);
  });
});
