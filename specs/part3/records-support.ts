// Records the checks of document 3 make as preconditions: one POST, and the new record's id from the response or, as
// records as returned are not shown, from the list it joined.
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import type { Check } from '../../harness/check.js';
import { deleteSeen, readAfterWrite, untilGone, untilShortlyDone, untilShortlyDoneSparingly } from '../../harness/consistency.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { SetupError } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { integerId } from '../../harness/ids.js';
import { unservedRule } from '../../harness/judge.js';
import { listPages } from '../../harness/lists.js';
import { domainNameKey, sameDomainName } from '../../harness/domain-names.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;
export const recordsPath = (domainId: number) => `/v4/domains/${domainId}/records`;

export const SRV_MEMBERS = { type: 'SRV', service: 'sip', protocol: 'tcp', priority: 10, weight: 5, port: 5060 };

/** A record member as servers compare them (case and a final period aside). */
const recordMember = (member: unknown) => String(member).toLowerCase().replace(/\.$/, '');

/** A record body's type, name and target, each as servers compare them. */
const typeNameTarget = (body: Json): string => [body.type, body.name ?? '', body.target].map(recordMember).join(' ');

/**
 * What makes a record the same as one the domain has to a server that refuses a second: a CNAME's name (document 3:
 * "must be unique"), else its type, name and target (whether an identical record may be made again is not shown).
 */
export const recordIdentity = (body: Json): string =>
  String(body.type).toUpperCase() === 'CNAME' ? `cname ${recordMember(body.name ?? '')}` : typeNameTarget(body);

/**
 * A filter for generated record bodies sent to one domain: true for the first body of its type, name and target. A
 * server may refuse a record identical to one the domain has (only a CNAME name is said to be unique; the rest is not
 * shown), so a property sends none.
 */
export function firstOfItsKind(): (body: Json) => boolean {
  const seen = new Set<string>();
  return (body) => {
    const key = typeNameTarget(body);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

/** A valid record of each type the record endpoints take (PTR is set through reverse DNS), named `name`. */
export const RECORD_OF_TYPE = {
  A: (name) => ({ type: 'A', name, target: RECORD_ADDRESS.ipv4 }),
  AAAA: (name) => ({ type: 'AAAA', name, target: RECORD_ADDRESS.ipv6 }),
  NS: (name) => ({ type: 'NS', name, target: 'ns1.example.net' }),
  MX: (name) => ({ type: 'MX', name, target: 'mx.example.net', priority: 10 }),
  CNAME: (name) => ({ type: 'CNAME', name, target: 'www.example.net' }),
  TXT: (name) => ({ type: 'TXT', name, target: 'conformance' }),
  SRV: (_name: string) => ({ ...SRV_MEMBERS, target: 'sip.example.net' }), // an SRV record's name is unused (it is made of service and protocol)
  CAA: (name) => ({ type: 'CAA', name, tag: 'issue', target: 'ca.example.net' }),
} satisfies Record<string, (name: string) => Json>;

/**
 * A record name as the zone's own (relative, lower case, no trailing period): a name as returned may be relative or
 * fully qualified, "hostname or FQDN", and fields of a record as returned are not shown.
 */
export function relativeName(name: unknown, domain: string): unknown {
  if (typeof name !== 'string') return name;
  const bare = name.toLowerCase().replace(/\.$/, '');
  const zone = String(domainNameKey(domain));
  return bare === zone ? '' : bare.endsWith(`.${zone}`) ? bare.slice(0, -zone.length - 1) : bare;
}

/** A domain-name target written one way (lower case, no trailing period): it may be returned absolute. */
export const bareTarget = (target: unknown): unknown => (typeof target === 'string' ? target.toLowerCase().replace(/\.$/, '') : target);

/**
 * A record member as an update's read-back compares it: the name as the zone's own and the target written one way (a
 * record as returned may write them fully qualified), the others as they are.
 */
const updatedForm = (member: string, value: unknown, zone: string): unknown =>
  member === 'name' ? relativeName(value, zone) : member === 'target' ? bareTarget(value) : value;

/**
 * Judges a record of the zone `zone` read `after` an update sending the single member of `body`: that member reads
 * back as sent (P3.record.update.reflected; not the TTL, which has rules of its own), and each other of type, name,
 * target and priority is as it was `before` (`rule`).
 */
export function judgeSingleUpdate(c: Check, rule: string, body: Json, before: Json, after: Json, zone: string): void {
  const [member] = Object.keys(body) as [string];
  if (member !== 'ttl_sec' && member in after)
    c.expect(
      'P3.record.update.reflected',
      updatedForm(member, after[member], zone) === updatedForm(member, body[member], zone),
      `PUT ${JSON.stringify(body)}: the record shows ${member} ${JSON.stringify(after[member])}`,
    );
  for (const other of ['type', 'name', 'target', 'priority'].filter((candidate) => candidate !== member)) {
    if (other in before)
      c.expect(
        rule,
        JSON.stringify(after[other]) === JSON.stringify(before[other]),
        `PUT ${JSON.stringify(body)} changed ${other} from ${JSON.stringify(before[other])} to ${JSON.stringify(after[other])}`,
      );
  }
}

/**
 * A name as a zone file writes it, made absolute (lower case, no final period): `@` is the origin, a name without a
 * final period is relative to it.
 */
function absoluteIn(name: string, origin: string): string {
  const lower = name.toLowerCase();
  if (lower === '@') return origin;
  return lower.endsWith('.') ? lower.slice(0, -1) : `${lower}.${origin}`;
}

/**
 * The SRV records of a zone file written as a master file (RFC 1035): owner (an omitted one is the previous line's),
 * port and target, names absolute.
 */
function srvLines(zoneFile: unknown, domain: string): Array<{ owner: string; port: string; target: string }> {
  const lines = typeof zoneFile === 'string' ? zoneFile.split('\n') : Array.isArray(zoneFile) ? zoneFile.filter((line) => typeof line === 'string') : [];
  let origin = domain.toLowerCase().replace(/\.$/, '');
  let owner = origin;
  const found: Array<{ owner: string; port: string; target: string }> = [];
  for (const line of lines) {
    const text = line.replace(/;.*$/, '');
    const tokens = text.trim().split(/\s+/);
    if (tokens[0] === '' || tokens[0] === undefined) continue;
    if (tokens[0].toUpperCase() === '$ORIGIN' && tokens[1]) origin = absoluteIn(tokens[1], origin);
    if (tokens[0].startsWith('$')) continue;
    if (!/^\s/.test(text)) owner = absoluteIn(tokens[0], origin);
    const at = tokens.findIndex((token, i) => (i > 0 || /^\s/.test(text)) && token.toUpperCase() === 'SRV');
    if (at >= 0 && tokens[at + 4]) found.push({ owner, port: tokens[at + 3]!, target: absoluteIn(tokens[at + 4]!, origin) });
  }
  return found;
}

/**
 * The owner name and target of the domain's SRV record on `port` as its rendered zone shows them (names absolute,
 * lower case, no final period), for what a record as returned may leave to the zone ("Fields of a record as returned:
 * not shown"): the name composed of service and protocol, a subdomain target combined with the domain. "The zone file
 * of the last rendered zone": when a zone is rendered again is not shown, so it is read while a short time passes;
 * `skip` where it shows no SRV line on that port (the zone file's format is not shown either).
 */
export async function renderedSrv(c: Check, domain: { id: number; domain: string }, port: number, shown: string): Promise<{ owner: string; target: string }> {
  const onPort = (exchange: Exchange) =>
    ok(exchange)
      ? srvLines(isObject(exchange.body) ? exchange.body.zone_file : exchange.body, domain.domain).find((line) => line.port === String(port))
      : undefined;
  const zone = await untilShortlyDone(
    c,
    () => c.get(`/v4/domains/${domain.id}/zone-file`),
    (exchange) => onPort(exchange) !== undefined,
  );
  return onPort(zone) ?? c.skip(`${shown}, and the zone file shows no SRV record on port ${port} (its format is not shown)`);
}

/**
 * Whether a record create's answer is the record sent: it shows the type or the name sent (a name case and a final
 * period aside), as a valid request's adoption tells one (`adoptChild`). What the create answers is not shown, and the
 * domain (type master or slave), an event or a job it may answer with carry ids that are no record's.
 */
const answersRecord = (body: unknown, sent: Json): body is Json =>
  isObject(body) && (body.type === sent.type || (typeof sent.name === 'string' && sameDomainName(body.name, sent.name)));

/** A listed record as what it holds: an id given again (whether a deleted record's id may be is not shown) holds another. */
const recordShown = (item: Json) => JSON.stringify([item.type, item.name, item.target]);

/**
 * POSTs a record; on success its id (from the response when it is the record, else the id the list gained: of the
 * records new in the list, the one showing the type or name sent, as other checks may add records to the same domain
 * meanwhile), else undefined. A record is new where its id was not listed before, or was listed holding another record
 * (the list read before may lag a deletion whose id the create was given again).
 */
async function postRecord(c: Check, domainId: number, body: Json): Promise<{ exchange: Exchange; id?: number }> {
  const before = new Map((await listPages(c, recordsPath(domainId))).items.map((item) => [integerId(item.id), recordShown(item)]));
  const exchange = await c.post(recordsPath(domainId), body);
  if (!ok(exchange)) return { exchange };
  const answered = answersRecord(exchange.body, body) ? integerId(exchange.body.id) : undefined;
  if (answered !== undefined) return { exchange, id: answered };
  const made = (items: Json[]) => {
    const fresh = items.filter((item) => integerId(item.id) !== undefined && before.get(integerId(item.id)) !== recordShown(item));
    const telling = fresh.filter((item) => answersRecord(item, body));
    return telling.length === 1 ? telling[0] : fresh.length === 1 ? fresh[0] : undefined;
  };
  const id = integerId(made((await listPages(c, recordsPath(domainId), { until: (items) => made(items) !== undefined })).items)?.id);
  return { exchange, ...(id !== undefined ? { id } : {}) };
}

/**
 * A record the rule says is accepted: a refusal is the rule's failure, or a skip where `refusalSkips` says why the
 * request could not be accepted there.
 */
export async function acceptedRecord(
  c: Check,
  rule: string,
  domainId: number,
  body: Json,
  what: string,
  { refusalSkips, afterDeletion }: { refusalSkips?: string | undefined; afterDeletion?: true } = {},
): Promise<number> {
  // After a deletion the record needs gone, sent again while refused for a short time: a deletion may run a while
  // (when it is done is not shown), and a view answering 404 may be a read lagging the record's create, not its end.
  const send = () => postRecord(c, domainId, body);
  const { exchange, id } = afterDeletion ? await untilShortlyDoneSparingly(c, send, (made) => ok(made.exchange)) : await send();
  if (refusalSkips && (exchange.status < 200 || exchange.status >= 300)) c.skip(`${what} was refused: ${refusalSkips}`);
  c.expectSuccess(rule, exchange, what);
  if (id === undefined) throw new SetupError(`${what}: created, but its id is neither in the response nor new in the list`);
  return id;
}

/** A record the check needs as a precondition (a failure is a setup error, not the rule's). */
export async function addRecord(c: Check, domainId: number, body: Json): Promise<number> {
  const { exchange, id } = await postRecord(c, domainId, body);
  if (!ok(exchange)) throw new SetupError(`could not create a ${String(body.type)} record ${JSON.stringify(body)}: HTTP ${exchange.status}`);
  if (id === undefined) throw new SetupError(`created a ${String(body.type)} record but cannot find its id`);
  return id;
}

/**
 * Deletes a record the check needs gone (a record still viewable after its DELETE, read while a short time passes, is a
 * setup error here): whether it is gone when the DELETE answers or once the deletion has run is not shown (`untilGone`).
 * Deleted once its view has shown it (`deleteSeen`): a read answering as before its create would pass for its deletion
 * (replica-reads seed 331: the MX after a null MX's deletion refused, the deletion still running).
 */
export async function removeRecord(c: Check, domainId: number, id: number): Promise<void> {
  const removed = await deleteSeen(c, `${recordsPath(domainId)}/${id}`);
  if (!ok(removed)) throw new SetupError(`could not delete record ${id}: HTTP ${removed.status}`);
  const after = await untilGone(c, `${recordsPath(domainId)}/${id}`);
  if (ok(after)) throw new SetupError(`record ${id} is still viewable after its DELETE (read while a short time passed)`);
}

const isRecordOf = (body: unknown, id: number): body is Json => isObject(body) && (integerId(body.id) === id || 'type' in body);

/**
 * The record as the target shows it: its view, else its list item; `skip` when neither shows it. After a write,
 * `settled` says what the check expects to see: the read is repeated within the consistency window until it holds.
 */
export async function recordView(c: Check, rule: string, domainId: number, id: number, settled: (record: Json) => boolean = () => true): Promise<Json> {
  const view = await readAfterWrite(
    c,
    () => c.get(`${recordsPath(domainId)}/${id}`),
    (exchange) => unservedRule(exchange) !== undefined || (ok(exchange) && (!isRecordOf(exchange.body, id) || settled(exchange.body))),
  );
  // A view that is not served is evidence about its own rule: the list is the other documented read.
  const served = !unservedRule(view);
  if (served) c.expectSuccess(rule, view, `GET record ${id}`);
  if (served && isRecordOf(view.body, id)) return view.body;
  const find = async () => (await listPages(c, recordsPath(domainId))).items.find((item) => integerId(item.id) === id);
  const listed = await readAfterWrite(c, find, (item) => item !== undefined && settled(item));
  if (!listed) c.skip('neither the record view nor the record list shows the record (fields of a record as returned are not shown)');
  return listed;
}

/** A member of a record as returned; `skip` when the target does not show it (record fields are not shown). */
export function shown(c: Check, record: Json, member: string): unknown {
  if (!(member in record)) c.skip(`the record as returned shows no ${member} (fields of a record as returned are not shown)`);
  return record[member];
}

/**
 * The path of a record of `type` in the spec file's domain, made once per file (the A record of `fx.record` for A and
 * for a type the endpoints do not take).
 */
export async function recordPathOfType(c: Check, fx: Fixtures, type: unknown): Promise<string> {
  const make =
    typeof type === 'string' && type !== 'A' && Object.hasOwn(RECORD_OF_TYPE, type) ? RECORD_OF_TYPE[type as keyof typeof RECORD_OF_TYPE] : undefined;
  const { domainId, id } = make
    ? await fx.shared(`record of type ${String(type)}`, async () => {
        const domainId = (await fx.domain(c)).id;
        return { domainId, id: await addRecord(c, domainId, make(fx.label(String(type).toLowerCase(), 60))) };
      })
    : await fx.record(c);
  return `${recordsPath(domainId)}/${id}`;
}

/**
 * A new domain holding no MX record: which records a new zone starts with is not shown, and one the service adds (an
 * MX of its own) would make a null MX refused ("first remove all other MX records"), so any is removed first.
 */
export async function domainWithoutMx(c: Check, fx: Fixtures): Promise<{ id: number; domain: string }> {
  const domain = await fx.newDomain(c);
  const { items } = await listPages(c, recordsPath(domain.id));
  // (a record's id type is not shown: digits in a string are taken too)
  for (const item of items) {
    const id = integerId(item.id);
    if (item.type === 'MX' && id !== undefined) await removeRecord(c, domain.id, id);
  }
  return domain;
}
