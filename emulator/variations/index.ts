// A variation is a choice the documents leave open, made differently from the reference emulator's default — a
// choice a correct server might make. The variation matrix switches each on alone (`--variation ID`, repeatable, or
// CHS_EMULATOR_VARIATIONS=ID,ID) and expects the suite to report no fail and no error: a fail there is the suite
// claiming more than the documents say. Faults (../faults) are the opposite: deviations the suite must catch.
//
// `leaves` quotes the sentence of the documents that leaves the choice open, with its document and section.

import { defineVariations, D1, D2, D3, type VariationInfo } from './define.js';
import { AUDITED_READINGS, EIGHTEENTH_AUDIT_READINGS, NINETEENTH_AUDIT_READINGS, SEVENTEENTH_AUDIT_READINGS, SIXTEENTH_AUDIT_READINGS } from './audited.js';
import { NARROWED_READINGS } from './narrowed.js';
import { TIMING_READINGS } from './timing.js';

const catalogue = defineVariations({
  // ---------------------------------------------------------------- representation (server-wide)
  'members-reversed': {
    leaves: `${D1}, Common conventions 2: "Request and response bodies are JSON." (JSON objects are unordered; no member order is shown)`,
    does: 'writes the members of every JSON object of every response in reverse order',
  },
  'items-reversed': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with 'data' (array of resource objects), …" (no order of the items is shown)`,
    does: 'reverses the items of every list page',
  },
  'extra-members': {
    leaves: `${D2}, Compute instance: "Fields of the instance object beyond those above (such as its type) … as returned: not shown." (likewise "Other image fields: not shown", and the other resources)`,
    does: 'adds undocumented members to every non-empty object of every response',
  },
  'not-shown-ids-as-strings': {
    leaves: `${D3}, Firewall: "Firewall fields beyond those above (such as id) as returned: not shown.", Domain record (request fields): "Fields of a record as returned: not shown.", Monitoring client: "Other fields as returned: not shown." and Firewall device: "Fields of a device as returned: not shown." (Endpoints: "Path parameters: \`{domainId}\`, \`{recordId}\`, \`{clientId}\`, \`{firewallId}\`, \`{deviceId}\` are integers, …" gives the paths' type, not the answers')`,
    does: 'shows the id of every firewall, firewall device, domain record and monitoring client as a JSON string of digits ("17") in every answer of their paths; the paths still take 17',
  },
  'error-field-names-sent-member': {
    leaves: `${D1}, Errors 1: "Each has \`reason\` (string, …) and usually \`field\` (string: the request field at fault, …)" (which of two members a clash between them puts at fault is not shown)`,
    does: 'names the other member of a clash: type for a domain create or update to master or slave missing soa_email or master_ips, target for a null MX with a priority, compute_id for an address shared across regions and for a clone to an existing instance sending region, type, label or backups_enabled, virt_mode for a profile sending fullvirt with a slot sde to sdh',
  },
  'error-field-omitted': {
    leaves: `${D1}, Errors 1: "Each has 'reason' (string, …) and usually 'field' (…, or null when not specific to one element)."`,
    does: 'leaves `field` out of an error item instead of sending it as null',
  },
  'empty-list-page-zero': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with \`data\` (array of resource objects), \`page\` (integer, current page), \`pages\` (integer, total pages), \`results\` (integer, total number of results)." (which page an empty list, of no pages, is on is not shown)`,
    does: 'an empty list asked for its first page (or no page) answers `page: 0, pages: 0, results: 0`',
  },
  'oauth-thumbnail-path': {
    leaves: `${D1}, OAuth client: "thumbnail_url | string (URL) or null |" (whether the URL is absolute, or a path on the service as the events' entity \`url\` members are, is not shown)`,
    does: 'gives every OAuth client a thumbnail, its thumbnail_url the path /v4/account/oauth-clients/<id>/thumbnail (relative, no scheme or host)',
  },
  'datetime-fraction': {
    leaves: `${D1}, Common conventions 3: "Fields of type date-time are strings in a combined date and time format; samples carry no zone suffix."`,
    does: 'writes every date-time with milliseconds (2025-01-02T03:04:05.678)',
  },
  'datetime-zone-suffix': {
    leaves: `${D1}, Common conventions 3: "Fields of type date-time are strings in a combined date and time format; samples carry no zone suffix." (samples are not the format: a combined date and time may carry one)`,
    does: 'writes every date-time with the zone suffix Z (2025-01-02T03:04:05Z)',
  },
  'event-actions-new': {
    leaves: `${D1}, Events: "The action field takes one of these values (new values may be added)" and Versioning 4: "New event action values may be added in the future."`,
    does: 'records, right after every event, a second one of the same entity with a new action value (audit_record)',
  },
  // ---------------------------------------------------------------- status codes where none is shown
  'creates-201': {
    leaves: `${D2}/${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown."`,
    does: 'answers a successful POST to a collection (a create) with 201 Created',
  },
  'actions-202': {
    leaves: `${D2}/${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown."`,
    does: 'answers a successful POST that is not a create (boot, clone, shutdown, assign, …) with 202 Accepted',
  },
  'invalid-422': {
    leaves: `${D1}, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown."`,
    does: 'answers every validation or precondition error with 422 instead of 400 (the sixth concurrent clone keeps its documented 400)',
  },
  'conflicts-409': {
    leaves: `${D1}, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown."`,
    does: 'answers a clash with an existing resource (a label or name already used) with 409',
  },
  'unauthenticated-403': {
    leaves: `${D1}, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown." (Authentication names no code either)`,
    does: 'answers a missing or unknown token with 403 instead of 401',
  },
  'forbidden-401': {
    leaves: `${D1}, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown." (Authentication names no code either)`,
    does: 'answers a missing scope or a restricted user with 401 instead of 403',
  },
  // ---------------------------------------------------------------- lists
  'account-lists-25-per-page': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)."`,
    does: 'database and account lists hold 25 items per page when page_size is not given',
  },
  'account-lists-page-size-max-50': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)."`,
    does: 'database and account lists take page_size 25 to 50 (50 when not given) and refuse a larger one',
  },
  'account-lists-page-size-min-50': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)."`,
    does: 'database and account lists take page_size 50 to 100 (100 when not given) and refuse a smaller one',
  },
  'account-lists-any-page-size': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)."`,
    does: 'database and account lists take any page_size from 1 to 500',
  },
  // ---------------------------------------------------------------- defaults and values at the edges
  'default-label-64': {
    leaves: `${D2}, Compute instance: "If no label is supplied at creation a default is assigned." (its format is not shown; labels are 3..64 chars)`,
    does: 'gives a new instance without a label a 64-character default label of another format (instance-000…0<id>)',
  },
  'database-defaults-other': {
    leaves: `${D1}, Managed database (cluster): "Defaults of cluster_size, encrypted, replication_type and ssl_connection: not shown."`,
    does: 'a cluster created without them has cluster_size 3, encrypted true and ssl_connection true',
  },
  'database-topology-tied': {
    leaves: `${D1}, Managed database (cluster): "Conditions tying replication_type to cluster_size: not shown." and "Defaults of cluster_size, encrypted, replication_type and ssl_connection: not shown."`,
    does: 'a cluster created without them has cluster_size 3 and replication_type semi_synch; one node with a replicating type, or three with none, is refused',
  },
  'allow-list-rewritten': {
    leaves: `${D1}, Managed database (cluster): "allow_list | array of strings | each item is a single IP address or a CIDR range; … single addresses are shown with a /32 suffix in responses" (how an address is written back, and whether a repeated entry is kept, is not shown)`,
    does: 'keeps each allow-list entry once, its address in canonical text (IPv6 as RFC 5952 writes it: 2600:3c00::/32)',
  },
  'allow-list-updating': {
    leaves: `${D1}, Create body: "allow_list | … changes take a short time, so rapid successive updates are unsuitable" and Managed database status: "Transitions: not shown."`,
    does: 'a cluster whose allow list changed shows status updating for a minute (an update, which needs active, is refused meanwhile)',
  },
  'database-update-updating': {
    leaves: `${D1}, Managed database status: "Transitions: not shown." (which requests put an active cluster in updating)`,
    does: 'every update of a cluster (PUT) shows it updating for a simulated minute (a further update, which needs active, is refused meanwhile)',
  },
  'credentials-reset-updating': {
    leaves: `${D1}, POST credentials/reset: "takes several seconds" and Managed database status: "Transitions: not shown."`,
    does: 'a credentials reset shows the cluster updating for 30 simulated seconds (what needs active, a restore among them, is refused meanwhile)',
  },
  'database-provisioning-30-minutes': {
    leaves: `${D1}, Limits: "Database provisioning time | about 15 to 30 minutes"`,
    does: 'every cluster provisions for 30 minutes, the edge of the documented span',
  },
  'database-provisioning-40-minutes': {
    leaves: `${D1}, Limits: "Database provisioning time | about 15 to 30 minutes" ("about": how far past 30 is not said)`,
    does: 'every cluster provisions for 40 minutes',
  },
  // ---------------------------------------------------------------- readings of the documents the suite must not narrow
  'firewall-created-disabled': {
    leaves: `${D3}, Firewall: "status | string | 'enabled', 'disabled', 'deleted'; can be set to enabled or disabled, not to deleted" (the status of a new firewall is not shown)`,
    does: 'creates a firewall with status disabled',
  },
  'firewall-deleted-listed': {
    leaves: `${D3}, Firewall status: "'enabled' or 'disabled' | DELETE firewall | | 'deleted' (removed)" (a firewall with status deleted may still be shown)`,
    does: 'a deleted firewall stays in the list and its view, with status deleted',
  },
  'firewall-ids-reused': {
    leaves: `${D3}, Firewall: "Firewall fields beyond those above (such as id) as returned: not shown." (whether a deleted firewall's id may be given again is not shown)`,
    does: "a new firewall takes the lowest id no firewall holds: a deleted firewall's id is given again, its events still naming it",
  },
  'ids-reused': {
    leaves: `${D1}, What the service does: "Resources are addressed by ID in the path." (no document says an id names one resource for good: ${D2}, Image: "private images begin with \`private/\`"; ${D3}, Endpoints: "\`{domainId}\`, \`{recordId}\`, \`{clientId}\`, \`{firewallId}\`, \`{deviceId}\` are integers" and Firewall: "Firewall fields beyond those above (such as id) as returned: not shown."; whether a deleted resource's id may be given again is not shown)`,
    does: "a new resource of every kind a client creates and deletes (instance, configuration profile, disk, instance backup, domain, domain record, monitoring client, database cluster and backup, private image, firewall, firewall device) takes the lowest id no resource of its kind holds: a deleted resource's id is given again, the new resource starting clean (no grant, state or link of the old one; the old one's events still naming it)",
  },
  'captures-take-an-hour': {
    leaves: `${D2}, Image status: "'creating' | time | image being captured from a disk | 'available' | becomes available shortly" (how long is not shown)`,
    does: 'a captured image is creating for 60 minutes of simulated time before it is available',
  },
  'capture-available-at-once': {
    leaves: `${D2}, Image status: "'creating' | time | image being captured from a disk | 'available' | becomes available shortly"`,
    does: 'a captured image is available as soon as the capture answers',
  },
  'empty-boot-refused': {
    leaves: `${D2}, Instance create body: "booted | boolean | no | default true when created with an image or backup; set false to stay offline" (what booted true means without either is not shown; such instances "stay offline and must be started manually")`,
    does: 'refuses booted true on an instance created without an image or a backup',
  },
  'interfaces-need-image': {
    leaves: `${D2}, Instance create body: "interfaces | array of interface objects | no | see Resources" and "Creation modes: from an image (… default config …); … from a backup; attached to a private VLAN through \`interfaces\`; empty (offline, disks and configs created manually)" (whether interfaces go with a create that makes no configuration profile of its own is not shown)`,
    does: 'refuses interfaces (field interfaces) on an instance created without an image',
  },
  'auto-resize-shrinks': {
    leaves: `${D2}, Compute instance endpoints: "POST /v4/compute/instances/{computeId}/resize | … | body: type (string, required), allow_auto_disk_resize (boolean, default true)" (what an automatic disk resize does on a smaller type is not shown)`,
    does: 'with allow_auto_disk_resize true (the default), a resize to a smaller type shrinks the single data disk to fit instead of refusing',
  },
  'duplicates-name-first': {
    leaves: `${D1}, Errors 1: "… 'field' (the request field at fault, a dot-separated path …)" (of two interfaces with the same label, ipam_address or public purpose, which is at fault is not shown)`,
    does: 'an error about two interfaces clashing names the first of them, not the second',
  },
  'assign-region-in-items': {
    leaves: `${D3}, IP addresses: "Placement of region (beside the array or inside each item): not shown."`,
    does: 'ips/assign takes region only in each assignment item and refuses it beside the array',
  },
  'balancer-hostname-regional': {
    leaves: `${D2}, Load balancer: "hostname | string | begins with the IP address and ends with a fixed service domain suffix" (what may stand between them is not shown)`,
    does: "writes a load balancer's region between its address and the service domain: <address>.<region>.lb.chs-emulator.example",
  },
  'ipv4-assign-assignments-only': {
    leaves: `${D3}, IP addresses: "POST /v4/networking/ipv4/assign | … | \`assignments\` (array, required) | IPv4 only; use ips/assign for IPv6 ranges" (no region documented; whether an undocumented member is ignored or refused is not shown)`,
    does: 'refuses region on ipv4/assign, beside the array or in an assignment (ips/assign still requires it)',
  },
  'route-target-with-prefix': {
    leaves: `${D3}, IP addresses: "\`route_target\` (IPv6 SLAAC address the range routes to) … Full field lists of IP address, IPv6 pool, IPv6 range and VLAN objects as returned: not shown." (the request takes it "without \`/128\`"; how a response writes it is not shown)`,
    does: "shows a range's route_target with /128 after the SLAAC address (requests still take it bare)",
  },
  'clone-label-of-source': {
    leaves: `${D2}, Clone body: a label "only for a new instance", and otherwise "a default label applies" (which default: not shown)`,
    does: "a clone to a new instance without a label takes the source's label",
  },
  'instance-events-silent': {
    leaves: `${D1}, Events: "Which operations emit the other actions: not shown."`,
    does: 'instance create and delete emit no event',
    warns: ['P1.events.emission.instances'],
  },
  'unknown-tag-empty-list': {
    leaves: `${D2}, Tags: "GET /v4/tags/{label} | not shown | page, page_size | '{data: [...]}' paginated mixed list of tagged objects" (what an unknown label answers is not shown)`,
    does: 'answers the tagged objects list of a tag that does not exist with an empty list',
  },
  'existing-tag-created-again': {
    leaves: `${D2}, Tags: "POST /v4/tags | … | \`{label}\`; tags the listed objects" (what a create naming the label of an existing tag does is not shown)`,
    does: "a create naming an existing tag's label is accepted: it tags the listed objects with that tag (made once, kept)",
  },
  'public-image-description-empty': {
    leaves: `${D2}, Image: "description | string or null | 1..65000 chars" (bounds a caller may send; what a server returns is not bounded: recorded responses carry "")`,
    does: 'public images carry the description "" (an empty string) instead of null',
    warns: ['P2.image.description.min-1.returned'],
  },
  'legacy-names-listed': {
    leaves: `${D2}, Compute instance: "Instance labels: must begin and end with an alphanumeric character; only alphanumerics, dashes, underscores, periods; no two dashes, underscores or periods in a row." and ${D3}, Firewall: "label | string | 3..32 chars; begin and end alphanumeric; only alphanumerics, dashes, underscores, periods; no two dashes, underscores or periods in a row; unique; filterable" and Domain: "domain | string | 1..255 chars; labels up to 63 chars; RFC 1035; unique across the whole platform; filterable" (rules on what a caller sends: what an account holds from before them, or from a colleague on a shared account, is not bounded; RFC 1035's letters, digits and hyphens are its "preferred name syntax", its section 3.1 takes any octet)`,
    does: 'the seeded account also holds an instance old--box, a firewall fw__legacy and the master domains 0/25.2.0.192.in-addr.arpa (an RFC 2317 classless reverse zone) and _acme-challenge.example.org',
    warns: ['P2.instance.label.no-doubled-separators.returned', 'P3.firewall.label.no-double-punctuation.returned', 'P3.domain.domain.rfc-1035.returned'],
  },
  // ---------------------------------------------------------------- consistency
  'reads-lag-creates': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with 'data' (array of resource objects), …" (when a new resource first shows in reads is not shown; a real service reads from replicas)`,
    does: 'for 150 ms after a create, the list (when shown on one page) leaves the new resource out and its view answers 404 (the run is told of a 3-second consistency window)',
    consistencyWindowMs: 3_000,
  },
  'replica-reads': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with 'data' (array of resource objects), …" (when a change first shows in reads is not shown; a real service reads from replicas)`,
    does: 'a read repeated within 150 ms of its last answer, with a write in between, answers as before the write (the run is told of a 3-second consistency window)',
    consistencyWindowMs: 3_000,
    byHand: true,
  },
  'firewall-device-events-instance-first': {
    leaves: `${D1}, Event: "\`entity\` … of the affected entity" and "\`secondary_entity\` … present for events that involve a second entity" (which of a device event's two entities is the firewall is not shown)`,
    does: 'firewall_device_add and firewall_device_remove events name the instance as entity and the firewall as secondary_entity',
  },
  'firewall-rules-read-without-policies': {
    leaves: `${D3}, Firewalls: "GET /v4/networking/firewalls/{firewallId}/rules | … | inbound and outbound rules" (the policies are members of the firewall's rules; what this read answers beyond the rules is not shown)`,
    does: 'GET and PUT …/rules answer the inbound and outbound rules only, without the two policies',
    warns: ['P3.firewall-rules.fields'],
  },
  'firewall-view-devices-empty': {
    leaves: `${D3}, Firewall: "The firewall view does not return devices. Firewall fields beyond those above (such as id) as returned: not shown." (whether the view shows no \`devices\` member or one that lists none is not shown)`,
    does: 'the firewall view shows `devices: []` whatever devices the firewall has (they are listed under …/devices as before)',
  },
  'zone-starts-with-ns-records': {
    leaves: `${D3}, Domain record (request fields): "Fields of a record as returned: not shown." (whether a new zone starts with records of the service's own, such as its NS records, is not shown)`,
    does: 'a new master domain lists two NS records of the service (ns1/ns2.emulator.example) before any record is added',
  },
  'srv-parts-shown-as-given': {
    leaves: `${D3}, Domain record (request fields): "service | string or null | only for SRV, required; an underscore is prepended and a period appended automatically" and "Fields of a record as returned: not shown." (where the prepended underscore shows is not shown)`,
    does: 'an SRV record shows service and protocol as given (sip, tcp), the underscores and period in its composed name only (_sip._tcp)',
  },
  'secondary-entity-label-null': {
    leaves: `${D1}, Event: "secondary_entity | object | same members as entity; \`id\` may be a string; present for events that involve a second entity" (the members' types are not shown; an entity's label may be null)`,
    does: 'shows every secondary_entity with label null',
  },
  'domain-absolute-name-accepted': {
    leaves: `${D3}, Domain: "domain | string | 1..255 chars; labels up to 63 chars; RFC 1035; …" (RFC 1035 also writes a name absolute, with a final period, in master files; whether a domain's name may be given so is not shown)`,
    does: 'accepts a domain name given with a final period and stores it without',
  },
  'rule-needs-an-address': {
    leaves: `${D3}, Firewall: "addresses | object | yes | \`ipv4\` and \`ipv6\`: arrays of strings in IP/mask format; up to 255 addresses or networks per rule across both arrays; …" (whether both lists may be empty or left out is not shown)`,
    does: 'refuses a firewall rule listing no address (field …addresses)',
  },
  'rule-needs-both-lists': {
    leaves: `${D3}, Firewall rule: "addresses | object | yes | \`ipv4\` and \`ipv6\`: arrays of strings in IP/mask format; …" (whether either list may be left out is not shown)`,
    does: 'refuses a firewall rule whose addresses leave out ipv4 or ipv6 (field …addresses.ipv4 or …addresses.ipv6)',
  },
  'private-ipv4-needs-request': {
    leaves: `${D3}, IP addresses: "POST /v4/networking/ips | … | allocates an IPv4 address; the instance must be enabled for extra addresses through a support request first" (whether a private address counts as extra is not shown)`,
    does: 'refuses a private IPv4 address too for an instance not enabled for extra addresses',
  },
  'promotions-granted-only': {
    leaves: `${D1}, Account: "PUT /v4/account | … | body: any of active_promotions, … (types and limits as in the account resource)" (what an update of the promotions does is not shown)`,
    does: 'refuses an account update whose active_promotions are not the ones on file (field active_promotions)',
  },
  'allow-list-ipv4-only': {
    leaves: `${D1}, Managed database (cluster): "allow_list | array of strings | each item is a single IP address or a CIDR range; … single addresses are shown with a \`/32\` suffix in responses" (whether IPv6 entries are taken is not shown; a /32 suffix is IPv4's)`,
    does: 'refuses IPv6 allow-list entries (field allow_list.N)',
  },
  'allow-list-unicast-only': {
    leaves: `${D1}, Managed database (cluster): "allow_list | array of strings | each item is a single IP address or a CIDR range; …" (which addresses and networks a cluster takes is not shown)`,
    does: 'refuses allow-list entries that no connection comes from (unspecified, loopback, multicast, broadcast, link-local and reserved addresses: 240.0.0.0/4, the documentation networks) and networks wider than /8 (IPv4) or /16 (IPv6)',
  },
  'other-engines-own-projection': {
    leaves: `${D1}, Managed database (cluster): "The generic list of all clusters and the MySQL endpoints return these fields. \`instance_uri\` appears only in the generic list; \`port\`, \`replication_type\`, \`ssl_connection\` and \`updates\` appear in the MySQL projection." and "instance_uri | string | path of the cluster's own view endpoint" (the only view path shown is MySQL's, GET /v4/databases/mysql/instances/{instanceId}: what a cluster of another engine shows of those members, and its own view path, are not shown)`,
    does: 'lists a cluster of another engine than MySQL in the generic list with a projection of its own: port 5432, replication_type synch, updates.week_of_month null, instance_uri /v4/databases/<engine>/clusters/<id>',
  },
  'events-lag': {
    leaves: `${D1}, Events: "Which operations emit the other actions: not shown." (when an event first shows in reads is not shown; a real service records them asynchronously)`,
    does: 'an event shows in the events list and view 600 ms of wall-clock time after its action (the run is told of a 3-second consistency window)',
    consistencyWindowMs: 3_000,
  },
  // ---------------------------------------------------------------- readings the suite had narrowed (re-read in issue 12): narrowed.ts
  ...NARROWED_READINGS,
  // ---------------------------------------------------------------- found narrowed by the sixteenth audit: audited.ts
  ...SIXTEENTH_AUDIT_READINGS,
  // ---------------------------------------------------------------- found narrowed by the fourteenth and fifteenth audits: audited.ts
  ...AUDITED_READINGS,
  // ---------------------------------------------------------------- found narrowed by the seventeenth audit: audited.ts
  ...SEVENTEENTH_AUDIT_READINGS,
  ...EIGHTEENTH_AUDIT_READINGS,
  ...NINETEENTH_AUDIT_READINGS,
  // ---------------------------------------------------------------- when a change shows (narrowed readings too): timing.ts
  ...TIMING_READINGS,
  // ---------------------------------------------------------------- headers
  'rate-limit-headers': {
    leaves: `${D1}, Limits: "Rate limits: not shown."`,
    does: 'adds rate-limit headers (x-ratelimit-limit, x-ratelimit-remaining) to every response',
  },
  'json-without-charset': {
    leaves: `${D1}, Common conventions 2: "Request and response bodies are JSON." (no media type parameters are shown)`,
    does: 'sends Content-Type application/json without a charset parameter',
  },
} as const);

export type VariationId = keyof typeof catalogue;

export interface Variation extends VariationInfo {
  id: string;
}

export const VARIATIONS: readonly Variation[] = Object.entries(catalogue as Record<string, VariationInfo>).map(([id, info]) => ({ id, ...info }));

/** The variations the gate (the variation matrix of `npm test`) runs. */
export const GATED_VARIATIONS: readonly Variation[] = VARIATIONS.filter((variation) => !variation.byHand);

const BY_ID = new Map(VARIATIONS.map((variation) => [variation.id, variation]));

/** The ids not in the catalogue (for a clear start-up error). */
export function unknownVariations(ids: readonly string[]): string[] {
  return ids.filter((id) => !BY_ID.has(id));
}

/** The pairs of these ids that exclude each other (`excludes`, declared on either side). */
export function exclusivePairs(ids: readonly string[]): Array<[string, string]> {
  const excludes = (id: string, other: string) => BY_ID.get(id)?.excludes?.includes(other) ?? false;
  return ids.flatMap((id, index) =>
    ids
      .slice(index + 1)
      .filter((other) => excludes(id, other) || excludes(other, id))
      .map((other): [string, string] => [id, other]),
  );
}

/** Whether the emulator runs with this variation switched on. */
export function varied(store: { variations: ReadonlySet<string> }, id: VariationId): boolean {
  return store.variations.has(id);
}
