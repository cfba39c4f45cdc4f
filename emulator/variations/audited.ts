// The variations of readings the audits found the suite had narrowed: part of the catalogue of index.ts, kept in a file
// of their own.
import { D1, D2, D3, defineVariations } from './define.js';

/** The fourteenth and fifteenth audits (2026-12-01): after the readings of narrowed.ts and those of the sixteenth. */
export const AUDITED_READINGS = defineVariations({
  'rescue-devices-required': {
    leaves: `${D2}, Compute instances: "POST /v4/compute/instances/{computeId}/rescue | compute:read_write | body: \`devices\` (device map with \`sda\` to \`sdg\`) |" (not marked optional, as boot's "\`config_id\` (integer, optional)" is: whether devices may be left out is not shown)`,
    does: 'refuses a rescue body without devices (field devices)',
  },
  'queued-clone-tags-at-once': {
    leaves: `${D2}, Clone body: "compute_id | integer | existing target instance; must have enough resources; its running or queued actions must complete first" and "Tags on the source are copied to the target." (when the tags are copied, and whether their copy is part of the clone that waits, is not shown)`,
    does: "accepts a clone onto a target with a running action (as clone-onto-busy-queued does), copies the source's tags to it at once, and copies the profiles and disks once the target's actions have completed",
  },
  'secondary-snapshot-needs-replicas': {
    leaves: `${D1}, Managed databases: "Snapshot create body: \`label\` (string, required, 3..64 chars), \`target\` (string, enum \`primary\`, \`secondary\`, default \`primary\`). Effect of choosing \`secondary\` on a high availability cluster: not shown." and Managed database (cluster): "cluster_size | integer | enum 1, 3; 3 means one primary node and two replica nodes" (what \`secondary\` does on a cluster of one node, which has no replica, is not shown)`,
    does: 'refuses a snapshot with target secondary of a cluster of one node, naming target (a cluster of three takes it)',
  },
  'auto-backups-swept-at-next-run': {
    leaves: `${D1}, Managed database backup: "\`auto\` backups are created every 24 hours at 00:00 UTC and each is kept 7 days" (kept at least 7 days: when a backup past its 7 days is removed, and whether \`created\` is the instant the backup starts or the moment it is stored, is not shown)`,
    does: "the daily job at 00:00 UTC first removes the automatic backups 7 days old or more, then takes the new one, stamped 5 minutes later (when complete): the one of 00:05 a week before is 6 days 23 hours 55 minutes old then, and stays until the next day's run",
  },
  'profile-writes-refused-while-busy': {
    leaves: `${D2}, Compute instances: "POST /v4/compute/instances/{computeId}/configs | compute:read_write | config body below |", "PUT /v4/compute/instances/{computeId}/configs/{configId} | compute:read_write | config body, no field required |" and "DELETE /v4/compute/instances/{computeId}/configs/{configId} | compute:read_write | none |" (no precondition given, where "POST …/shutdown | … | running or queued actions must finish first" and Resize preconditions: "no running or queued actions" give one: whether a profile may be written while its instance has a running or queued action is not shown)`,
    does: 'refuses to create, update or delete a profile (a 400 naming no field) while its instance has a running or queued action: a clone from or to it, and its own create or a shutdown where a variation makes those run a while',
  },
  'private-ipv4-shared-space': {
    leaves: `${D2}, Compute instance: "ipv4 | array of strings | IPv4 addresses: one public address on creation, possibly one private; filterable" and Create instance body: "private_ip | boolean | no | enables private networking and a private IPv4 address", and ${D3}, IP addresses: "GET /v4/networking/ips | ips:read_only | none | addresses of the account, private addresses excluded" (which ranges the private addresses come from is not shown: RFC 1918's are one choice)`,
    does: 'gives private IPv4 addresses (private_ip, POST ips with public false) from the shared address space 100.64.0.0/10 (RFC 6598; its 100.64.128.0/17), not from 192.168.128.0/17',
  },
  'account-closed-410': {
    leaves: `${D1}, Endpoints: "POST /v4/account/cancel | … | the service tries to charge the card on file for the remaining balance and fails with an error if the charge fails" and Errors 3: "HTTP status codes per condition, other than the 400 above: not shown." (what a cancelled account answers is not shown)`,
    does: 'a successful cancellation closes the account (as account-closed-on-cancel does, but its tokens stay known): every request sent with one of its tokens answers 410 Gone, with the error body, from then on',
  },
  'not-found-403': {
    leaves: `${D1}, Errors 3: "HTTP status codes per condition, other than the 400 above: not shown." (no document names a code for an id the account does not hold: never made, deleted, or not visible to the caller)`,
    does: 'answers 403, with the error body, wherever it would answer 404 for an id it does not hold (never made or deleted); a path that is no endpoint still answers 404',
  },
  'account-lists-page-size-max-20': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)."`,
    does: 'database and account lists take page_size 1 to 20 (20 when not given) and refuse a larger one, the engine and node type views too',
  },
  'page-past-last-refused': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with \`data\` (array of resource objects), \`page\` (integer, current page), \`pages\` (integer, total pages), \`results\` (integer, total number of results)." (what a page past the last answers is not shown)`,
    does: 'answers a page past the last (page above pages) of every list with 404 and the error body, field page',
  },
  'resize-refused-while-balance-owed': {
    leaves: `${D2}, Compute instances: "Resize preconditions: no pending migration; no outstanding balance on the account; …" and ${D1}, Account: "balance | number | US dollars" (whether any balance above 0 is outstanding, or only one past due, is not shown)`,
    does: 'refuses a resize (400 naming no field, a reason about the balance) while GET /v4/account shows a balance above 0, as the seeded account does (25.50)',
  },
  'upload-needs-token-404': {
    leaves: `${D2}, Images: "Upload rules: data goes by HTTP PUT to \`upload_to\` with header \`Content-type: application/octet-stream\`; …" (whether the PUT carries the caller's token is not shown, nor what one without it answers)`,
    does: "answers 404 to a data upload to upload_to without the caller's token (as upload-needs-token does with 401)",
  },
  'weak-password-worded-complexity': {
    leaves: `${D1}, Errors 2: "Known reasons: a root password that is too weak yields a reason that says it does not meet the strength requirement" (the words are not shown)`,
    does: 'refuses a weak root password with the reason "Password does not meet the complexity requirements."',
  },
  'absent-target-empty-priority-first': {
    leaves: `${D3}, Domain record: "priority | integer | 0..255; …; default 0 for MX; must be 0 for a null MX" and "MX | mail subdomain; empty string for a null MX | mail server, valid domain, required; empty string for a null MX" (whether an absent target is read as "", and which member of such a null MX with a name and a priority other than 0 an error names, is not shown)`,
    does: 'reads an MX record without target as one with target "" (as absent-target-empty does), and refuses such a null MX with a priority other than 0 naming priority, before its name',
  },
});

/** The sixteenth audit's, by the response schemas and the not-shown reads (2026-12-04): right after narrowed.ts. */
export const SIXTEENTH_AUDIT_READINGS = defineVariations({
  'balancer-ipv6-with-prefix': {
    leaves: `${D2}, Tagged objects, Load balancer: "ipv6 | string or null | public IPv6" (whether the address carries a prefix length, as the instance's "ipv6 | string or null | the instance's IPv6 SLAAC address" may, is not shown)`,
    does: 'gives each seeded load balancer a public IPv6 address written with its prefix length (2600:3c00:1::1/128) instead of null',
  },
  'image-upload-to-null': {
    leaves: `${D2}, Image: "upload_to | string | URL for the data upload; returned by image upload" (what an image shows for upload_to elsewhere is not shown)`,
    does: "shows upload_to: null on every image of the list, the view, a capture's and an update's answer (the upload's answer alone carries the URL)",
  },
  'ranges-without-route-target': {
    leaves: `${D3}, IP address, IPv6 pool, IPv6 range, VLAN: "Members that the rules mention: … \`route_target\` (IPv6 SLAAC address the range routes to), \`prefix_length\`. Full field lists of IP address, IPv6 pool, IPv6 range and VLAN objects as returned: not shown." (a member the rules mention is not said to be returned: whether a range shows its route_target is not shown)`,
    does: 'shows an IPv6 range (in the list, the view and the create answer) without its route_target; requests still take route_target',
  },
  'record-create-answers-event': {
    leaves: `${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." and Domain record (request fields): "Fields of a record as returned: not shown." (what a record create answers is not shown)`,
    does: "answers a record create with the dns_record_create event it recorded (its id is the event's), not the record; the record is listed, and viewed, as before",
  },
});

/** The seventeenth audit's, of document 1's request bodies (2026-12-05): after audited.ts's first two. */
export const SEVENTEENTH_AUDIT_READINGS = defineVariations({
  'ipv4-loose-forms': {
    leaves: `${D1}, Managed database (cluster): "allow_list | array of strings | each item is a single IP address or a CIDR range" and ${D3}, Domain: "master_ips | array of strings | master DNS IPs; at least one required for \`slave\` domains" (how an IPv4 address may be written is not shown: the classic inet_aton forms 1.2.3 and 01.2.3.4 are read by many address parsers, ipaddr.js among them)`,
    does: 'takes an IPv4 address in an inet_aton form (1.2.3, 01.2.3.4, 0x7f.1, as ipaddr.js reads them) in an allow list, master_ips, axfr_ips and an A record target',
  },
  'blank-optional-absent': {
    leaves: `${D1}, Update body (PUT cluster): "… All members optional.", Snapshot create body: "\`target\` (string, enum \`primary\`, \`secondary\`, default \`primary\`)" and PUT /v4/account/oauth-clients/{clientId}: "body: label, public, redirect_uri, all optional" (whether "" for an optional member that cannot be empty is refused or read as not given is not shown, as null is not for lenient-scalars)`,
    does: 'reads "" for an optional string member that cannot be empty (a label of 3..32 characters, an enum, a URL; a record update\'s name or target where its type needs one) as absent: a default on a create, no change on an update',
  },
});

/** The eighteenth audit's, of documents 2 and 3 (2026-12-05). */
export const EIGHTEENTH_AUDIT_READINGS = defineVariations({
  'tag-delete-unknown-ok': {
    leaves: `${D2}, Tags: "DELETE /v4/tags/{label} | account:read_write | none | \`{}\`; removes the tag from all objects and deletes it; unrestricted users only |" and "Method, path, scope and response shape of the operation that lists tags (a paginated list of the account's tags): not shown." (a tag is named by its label, not an ID; whether removing a label nothing carries is refused or answers \`{}\` is not shown)`,
    does: 'answers {} to the DELETE of a label no object carries and no create made (never made, or deleted): it removes the label from nothing',
  },
  'assign-end-states-first': {
    leaves: `${D3}, IP addresses: "Assignment rules: every instance involved must end with at least one public IPv4 address, at most one private IPv4 address and at most one IPv6 range; …" (which of a body's faults a server names first, and by which member, is not shown)`,
    does: 'judges the end states of an assignment first, from the items whose address and compute_id are well formed, and names an instance left without a public IPv4 address by the item that takes its last one (assignments.N.address)',
  },
  'domain-names-underscore': {
    leaves: `${D3}, Domain: "domain | string | 1..255 chars; labels up to 63 chars; RFC 1035; unique across the whole platform; filterable" (RFC 1035's letters, digits and hyphens are its "preferred name syntax", its section 3.1 takes any octet, and RFC 2181 names such as \`_dmarc.example.com\` hold underscores: whether a domain's name may hold one is not shown)`,
    does: 'takes a domain name whose labels hold underscores (a_x.example.com), on a create, an update and a clone',
  },
  'record-ttl-zero-default': {
    leaves: `${D3}, Domain record (request fields): "ttl_sec | integer | valid values 300, 3600, …; other values rounded to the nearest valid value" and Domain: "The value 0 means the default: expire_sec 1209600, refresh_sec 14400, retry_sec 14400, ttl_sec 86400." (whether a record's 0 is rounded, or means the default as a domain's does, is not shown)`,
    does: "keeps a record's ttl_sec 0 as 0 (the domain's default TTL applies), on a create and an update",
  },
  'null-mx-create-only': {
    leaves: `${D3}, Domain record (request fields): "Null MX record: first remove all other MX records, then create an MX record with empty \`target\` and \`name\`." and Domains: "PUT /v4/domains/{domainId}/records/{recordId} | domains:read_write | record fields, none required |" (a null MX is documented as created: what "" for an MX's name and target means on an update is not shown)`,
    does: 'reads "" for the name and the target of an MX record\'s update as no change (a null MX is made by a create only)',
  },
  'zone-starts-with-mx-record': {
    leaves: `${D3}, Domain record (request fields): "Fields of a record as returned: not shown." and "Null MX record: first remove all other MX records, then create an MX record with empty \`target\` and \`name\`." (whether a new zone starts with records of the service's own, such as an MX record, is not shown)`,
    does: 'a new master domain lists an MX record of its own (mail.<domain>, priority 10) before any record is added',
  },
  'datetime-minutes': {
    leaves: `${D1}, Common conventions 3: "Fields of type date-time are strings in a combined date and time format; samples carry no zone suffix." (ISO 8601's combined format may be written to the minute, a reduced precision: whether seconds are written is not shown)`,
    does: "writes every date-time to the minute, without seconds (2025-01-02T03:04), and takes a date-time sent in the samples' form",
  },
  'profile-defaults-null': {
    leaves: `${D2}, Configuration profile body: "root_device | string | no | default \`/dev/sda\` when absent or invalid; …", "run_level | string | no | enum \`default\`, \`single\`, \`binbash\`; default \`default\`" and Compute instance: "the fields of backup, configuration profile, statistics, transfer, kernel and list-volume items as returned: not shown." (whether a profile shows a member not given as its default or as null, the default applying, is not shown)`,
    does: 'shows root_device, run_level, virt_mode and helpers.devtmpfs_automount null on a profile created without them (root_device also when the one given is invalid, on a create or an update); the defaults apply all the same',
  },
});

/** The nineteenth audit (2026-12-05): readings the eighteenth's notes left. */
export const NINETEENTH_AUDIT_READINGS = defineVariations({
  'account-lists-page-size-capped-20': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)." (whether a page_size above a list's bound is refused or read as that bound is not shown)`,
    does: 'database and account lists take any page_size of 1 or more and read one above 20 as 20 (a page holds up to 20 items; 20 when not given), refusing none',
    excludes: [
      'account-lists-page-size-max-20',
      'account-lists-page-size-clamped',
      'account-lists-page-size-min-50',
      'account-lists-page-size-max-50',
      'account-lists-any-page-size',
      'account-lists-25-per-page',
    ],
  },
  'phone-and-tax-id-checked': {
    leaves: `${D1}, Account: "phone | string | max 32 chars" and "tax_id | string | max 100 chars" (only a length is given: whether a server holds them to a phone's or a tax id's form is not shown)`,
    does: 'refuses a phone that is not 7 to 15 digits (an optional leading +; spaces, dashes, dots and parentheses aside) and a tax_id holding fewer than 2 digits or other characters than letters, digits, spaces, dots, dashes and slashes, naming the member ("" is none given)',
  },
  'password-length-policy': {
    leaves: `${D2}, Create instance body: "root_pass | … | 7..128 chars; must meet an internally calculated strength score or the error says the password does not meet the strength requirement" (the score is not shown: a length alone may meet it, as NIST SP 800-63B's policies have it)`,
    does: 'scores a root_pass by its length first: one of 10 characters or more meets the strength requirement whatever its characters (aaaaaaaaaa among them); a shorter one needs three of the four kinds of characters',
  },
  'backups-reenabled-after-a-week': {
    leaves: `${D2}, Compute instances: "POST …/backups/enable | … | enables backups" and "…/backups/cancel | cancels backup service; deletes all existing backups permanently" (when a cancelled service may be enabled again is not shown)`,
    does: "refuses to enable an instance's backup service again within 7 simulated days of its cancel",
    excludes: ['backups-reenabled-after-a-day'],
  },
  'clone-replaces-target-layout': {
    leaves: `${D2}, Clone body: "compute_id | integer | existing target instance; must have enough resources; …" (whether the target keeps its own disks and profiles, as a restore with overwrite false does, or the clone replaces them, as one with overwrite true does, is not shown)`,
    does: "a clone onto an existing instance deletes the target's disks and profiles first: it must fit the target's whole allocation, not its free space",
  },
  'cloned-profiles-relabelled': {
    leaves: `${D2}, Clone body: "configs | array of integers | absent: all configs and their disks cloned; empty: none; non-empty: those configs and their disks" and Compute instances: "the fields of … configuration profile … items as returned: not shown" (what a cloned profile is labelled is not shown)`,
    does: 'labels each profile a clone copies "<its label> clone" (the label cut to 42 characters first)',
  },
  'image-content-checked': {
    leaves: `${D2}, Upload rules: "data must be gzip-compressed; the uncompressed content is a raw disk image" and Image status: "\`pending_upload\` | upload completed and processed | … | \`available\`" (what processing looks for in a raw disk image is not shown)`,
    does: 'refuses upload data whose uncompressed content has no partition table (no MBR signature with a partition, no GPT header), 400 naming no field: 64 KiB of zeros among them',
  },
  'delete-unknown-ok': {
    leaves: `${D1}, Common conventions 2: "Operations that return no resource return \`{}\`." and Endpoints: "Resources are addressed by ID in the path.", and ${D2}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (no document says what an id no resource holds answers; HTTP's DELETE is idempotent: deleting what is not there may leave it gone and answer \`{}\`)`,
    does: 'answers 200 {} to a DELETE wherever it would answer 404 (an id no resource holds, never made or deleted), deleting nothing',
  },
  'address-moves-unrestricted-only': {
    leaves: `${D3}, Assignment rules: "the caller needs read_write on all addresses and instances" and POST …/ipv4/share: "caller needs access to all", and ${D1}, Authentication 5: "Users also have grants, which gate some operations (for example \`add_computes\` …)" (the grants a restricted user may hold on addresses are not shown: a server may give none)`,
    does: 'refuses an IP assignment or share by a restricted user whatever grants on instances it holds (403 naming no field): no restricted user holds read_write on addresses',
  },
  'backups-account-wide': {
    leaves: `${D2}, Create instance body: "backups_enabled | boolean | no | enrols in the paid backup service; always treated true if the account-wide setting is true" and ${D1}, Account: "Other account endpoints (payment methods, settings, …): not shown." (a target's account may have the account-wide setting on; what enabling an enrolled instance's service again answers is not shown)`,
    does: 'the account-wide backup setting is on: every instance created, or cloned to a new one, is enrolled in the backup service whatever backups_enabled says, and an enable of an enrolled instance is refused (400 naming no field); a cancel ends the enrolment as it does elsewhere',
  },
});
