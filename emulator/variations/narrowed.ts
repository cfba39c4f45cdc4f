// The variations of readings the suite had narrowed (re-read in issue 12 and in the audits after it): part of the
// catalogue of index.ts, kept in a file of their own.
import { D1, D2, D3, defineVariations } from './define.js';

export const NARROWED_READINGS = defineVariations({
  'scope-forms-only': {
    leaves: `${D1}, Authentication 2: "Scopes have the form \`<area>:read_only\` or \`<area>:read_write\`. … One endpoint (IPv6 range view) names the scope \`ips:read\`." (whether a token can hold \`ips:read\` itself is not shown)`,
    does: 'a token holds only scopes of the two documented forms (a scope written ips:read counts for nothing); the IPv6 range view takes ips:read_only or ips:read_write',
  },
  'bare-token-accepted': {
    leaves: `${D1}, Authentication 1: "Authenticated requests carry the header 'Authorization: Bearer <ACCESS_TOKEN>'." (what a token sent without the scheme answers is not shown; refusing it is an inferred SHOULD)`,
    does: 'also accepts a token sent without "Bearer " (Authorization: <token>)',
    warns: ['P1.auth.bearer-only'],
  },
  'unversioned-paths-served': {
    leaves: `${D1}, Versioning 1: "The version is the first path segment: '/v4'." (what a path without it answers is not shown)`,
    does: 'serves a path without the version segment as its /v4 path',
    warns: ['P1.versioning.unversioned-not-served'],
  },
  'transfer-accept-pending': {
    leaves: `${D1}, Entity transfer status: "Meaning of each transfer status: not shown." and "Transitions: not shown."`,
    does: 'an accepted transfer still shows pending until it completes a minute later',
  },
  'boot-running-refused': {
    leaves: `${D2}, Compute instance status: "Status values and transitions: not shown." (booting an instance that is already running is not covered by the boot rules)`,
    does: 'refuses to boot an instance that is already running (shut it down first)',
  },
  'shutdown-offline-refused': {
    leaves: `${D2}, Compute instances: "POST …/shutdown | … | running or queued actions must finish first" (what a shutdown of an instance already offline does is not shown)`,
    does: 'refuses to shut down an instance that is already offline',
  },
  'rescue-running-refused': {
    leaves: `${D2}, Compute instance status: "Status values and transitions: not shown." (rescuing an instance that is running is not covered by the rescue rules)`,
    does: 'refuses to rescue an instance that is running (shut it down first)',
  },
  'device-compute-id': {
    leaves: `${D3}, Firewall devices: "Fields of a device as returned: not shown."`,
    does: 'shows a firewall device as {id, compute_id, created, updated}',
  },
  'device-typed-own-id': {
    leaves: `${D3}, Firewall device: "Request members: \`id\` (integer, entity ID), \`type\` (enum \`compute\`). … Fields of a device as returned: not shown."`,
    does: "shows a firewall device as {id, type: 'compute', compute_id, created, updated}: id is the device's own (the {deviceId} of its path)",
  },
  'record-type-fixed': {
    leaves: `${D3}, Domain record (request fields): "type | string | required on create; enum …" (whether an update may change a record's type is not shown)`,
    does: "refuses a record update whose type differs from the stored record's, naming type",
  },
  'import-transfer-first': {
    leaves: `${D3}, Domains: "POST /v4/domains/import | … | the remote nameserver must allow zone transfers (AXFR) from …" (the order in which a server judges the body and tries the transfer is not shown)`,
    does: 'tries the zone transfer before judging the domain name, and no nameserver allows it: every import naming a domain and a nameserver (strings) is refused, naming remote_nameserver',
  },
  'image-disk-image-sized': {
    leaves: `${D2}, Create instance body: "from an image (… default config with two disks, one a 512 swap disk unless swap_size is set)" (the size of the image's disk is not shown)`,
    does: "an instance deployed from an image gets a disk the image's size (2,500 MB) beside the swap disk, leaving the rest of its allocation free",
  },
  'zip-by-country': {
    leaves: `${D1}, Account: "zip | string | format restrictions: not shown"`,
    does: "refuses an account update whose resulting zip is not a postal code of the resulting country (fourteen countries' formats; a zip on file does not follow a country change)",
  },
  'lacking-scope-anonymous': {
    leaves: `${D2}, Images: "GET /v4/images | images:read_only | … | without authentication only public images; with authentication private images too" (whether a token lacking the scope is refused or served as no token is not shown)`,
    does: 'serves a token lacking images:read_only on the image list and view as a request without a token: public images only',
  },
  'zip-by-state': {
    leaves: `${D1}, Account: "zip | string | format restrictions: not shown" and "state | string | … for US or CA addresses only the two-letter state or province code is accepted"`,
    does: "refuses an account update whose resulting US zip or Canadian postal code cannot belong to the resulting state or province (a zip's first digit, a postal code's first letter)",
  },
  'redirect-uri-https': {
    leaves: `${D1}, OAuth client: "redirect_uri | string (URL) | … must accept an OAuth exchange code" (which schemes a server takes is not shown)`,
    does: 'refuses an OAuth client redirect_uri that is not an https URL',
  },
  'weak-password-worded-otherwise': {
    leaves: `${D1}, Errors: "a root password that is too weak yields a reason that says it does not meet the strength requirement" (the words are not shown)`,
    does: 'refuses a weak root password with the reason "Password is too weak: use a longer one with more kinds of characters."',
  },
  'snapshot-needs-backups': {
    leaves: `${D2}, Compute instances: "POST …/backups | … | creates a snapshot; an existing snapshot of the instance is deleted" (whether the instance must be enrolled in the backup service is not shown)`,
    does: 'refuses a snapshot of an instance not enrolled in the backup service',
  },
  'events-need-write-grant': {
    leaves: `${D1}, Account: "GET /v4/account/events | … | list of events from the last 90 days; which events appear depends on the caller's grants" (which grant shows an entity's events is not shown)`,
    does: "shows a restricted user an entity's events only with a read_write grant on that entity (read_only is not enough)",
  },
  'lenient-scalars': {
    leaves: `${D1}, Errors: "Preconditions in this document (required status, grants, mutually exclusive fields, missing required fields) produce an error response." (a value of another type is not among them: whether null for an optional member means absent, or "7" and "true" are read as 7 and true, is not shown)`,
    does: 'reads null for a member that takes no null as absent, a number or a boolean as its text, a string of digits as the integer and "true" / "false" as the boolean',
  },
  'lenient-arrays': {
    leaves: `${D1}, Errors: "Preconditions in this document (required status, grants, mutually exclusive fields, missing required fields) produce an error response." (a value of another type is not among them: whether a single value given for an array is read as an array of that item, as some JSON readers do, is not shown)`,
    does: 'reads a string, number or boolean given for an array member as an array of that one item (then judged as such)',
  },
  'email-any-text': {
    leaves: `${D1}, Account: "email | string | max 128 chars" (that it holds an email address is told by its name only)`,
    does: 'takes any text of at most 128 characters as the account email',
    warns: ['P1.account.email.format'],
  },
  'domain-ips-unicast-only': {
    leaves: `${D3}, Domain: "axfr_ips | array of strings | IPs allowed to transfer the zone" and "master_ips | … | master DNS IPs" (which addresses are taken is not shown)`,
    does: 'refuses a master or transfer address no nameserver on the internet has: any outside the global unicast range (ipaddr.js "unicast"; documentation, reserved, private, loopback, link-local, multicast … addresses)',
  },
  'record-targets-host-addresses': {
    leaves: `${D3}, Domain record per type: "A, AAAA | … | IP address, required" (which addresses a record may point at is not shown)`,
    does: 'refuses an A or AAAA record target no host can have: an unspecified, broadcast or multicast address, or one in 240.0.0.0/4',
  },
  'slave-soa-email-empty': {
    leaves: `${D3}, Domain: "soa_email | string (email) | required for \`master\` domains" (what "" means on a slave domain, which needs none, is not shown)`,
    does: 'takes soa_email "" on a slave domain as none',
  },
  'srv-protocol-tcp-udp-only': {
    leaves: `${D3}, Domain record (request fields): "protocol | string or null | only for SRV; an underscore is prepended automatically" (which protocols are taken is not shown)`,
    does: "refuses an SRV record whose protocol is other than 'tcp' or 'udp' (null still taken)",
  },
  'identical-records-refused': {
    leaves: `${D3}, Domain record (request fields), per record type: "CNAME | hostname, must be unique, required | …" (only a CNAME name is said to be unique; whether a record identical to one the domain has is taken is not shown)`,
    does: 'refuses a record whose type, name, target and type-specific members equal those of a record of the domain (TTL aside; case and a final period aside)',
  },
  'remote-addr-behind-proxy': {
    leaves: `${D3}, Domain record (request fields), per record type: "A, AAAA | … | the literal \`[remote_addr]\` submits the IPv4 address of the request" (the address the server sees: behind a proxy on its host, the proxy's)`,
    does: '[remote_addr] submits 172.17.0.1, the address a proxy publishing the server from a container connects from',
  },
  'account-text-not-blank': {
    leaves: `${D1}, Account: "first_name | string | max 50 chars" (and the other contact members: a maximum, no minimum shown)`,
    does: 'refuses an account update setting first_name, last_name, address_1, city, phone or tax_id to ""',
  },
  'ca-certificate-pem': {
    leaves: `${D1}, Managed database CA certificate: "ca_certificate (string, base64-encoded certificate)" (PEM text is base64 between its armour lines; whether the value is that text or base64 of it is not shown)`,
    does: 'shows the CA certificate as PEM text (-----BEGIN CERTIFICATE----- armour around base64 lines)',
  },
  'dns-strict': {
    leaves: `${D3}, Domain record (request fields): NS, MX and CNAME targets a "valid domain"; MX name "mail subdomain; empty string for a null MX"; SRV service format not shown`,
    does: 'refuses an NS, MX or CNAME target that is not fully qualified (the last label letters), an ordinary MX with an empty name, and an SRV service over 15 characters or with two hyphens in a row (RFC 6335)',
  },
  'icmp-ports-names-protocol': {
    leaves: `${D3}, Rule object: "ports | string | required for TCP and UDP; not allowed for ICMP" (which of the two clashing members an error names is not shown)`,
    does: 'refuses an ICMP rule with ports naming its protocol (…protocol), not its ports',
  },
  'icmp-ports-shown-empty': {
    leaves: `${D3}, Rule object: "ports | string | required for TCP and UDP; not allowed for ICMP" (how a response shows an ICMP rule, without ports or with an empty value, is not shown)`,
    does: 'shows every ICMP rule with ports "" and takes that back in a request ("" or null: no ports)',
  },
  'rule-label-charset': {
    leaves: `${D3}, Rule object: "label | string | no | 3..32 chars" (which characters it takes is not shown; the firewall's own label has rules)`,
    does: "refuses a firewall rule label that breaks the firewall label's rules (alphanumeric ends; letters, digits, - _ .; no two in a row)",
  },
  'record-names-absolute': {
    leaves: `${D3}, Domain record: "Fields of a record as returned: not shown." (a name may be a "hostname or FQDN")`,
    does: 'shows record names fully qualified (name.domain, the domain itself for an empty name) and NS, MX, CNAME and SRV targets with a trailing period',
  },
  'maintenance-window-whole': {
    leaves: `${D1}, Managed database cluster: "updates has the members frequency, duration, hour_of_day, day_of_week, week_of_month … Allowed values and units: not shown." (whether an update may give some of them is not shown)`,
    does: 'refuses a cluster update whose updates object leaves out any of its five members, naming the first missing one',
  },
  'weekly-window-keeps-week': {
    leaves: `${D1}, Managed database cluster: "updates has the members frequency, duration, hour_of_day, day_of_week, week_of_month … Allowed values and units: not shown." (what week_of_month means in a weekly window is not shown)`,
    does: 'keeps the week_of_month a weekly maintenance window had: one sent with a weekly window is taken but not stored',
  },
  'maintenance-window-other-units': {
    leaves: `${D1}, Managed database cluster: "Members are integers except \`frequency\` (string or null). Allowed values and units: not shown." and "Default maintenance window: every week on Sunday at 20:00 UTC, lasting 3 hours"`,
    does: 'a maintenance window gives its duration in minutes (30 to 1440; 180 by default) and days of the week 0 to 6 (Sunday 0), members checked in the order frequency, duration, hour_of_day, day_of_week, week_of_month',
  },
  'password-score-long': {
    leaves: `${D2}, Compute instance create: "root_pass | … | 7..128 chars; must meet an internally calculated strength score" (the score is not shown)`,
    does: 'refuses a root_pass shorter than 20 characters as too weak, whatever its character classes',
  },
  'upload-needs-token': {
    leaves: `${D2}, Images: "data goes by HTTP PUT to \`upload_to\` with header \`Content-type: application/octet-stream\`" (whether the PUT carries the caller's token is not shown)`,
    does: "answers 401 to a data upload to upload_to without the caller's token",
  },
  'vlan-ipam-cidr-or-nothing': {
    leaves: `${D2}, Network interface object: "ipam_address | string or null | no | CIDR form IP/netmask; only for \`vlan\`; empty or null for \`public\`" (an empty string is named for public interfaces only)`,
    does: 'refuses an empty ipam_address on a vlan interface (field interfaces.N.ipam_address)',
  },
  'ipam-private-hosts': {
    leaves: `${D2}, Interface object: "ipam_address | string or null | no | CIDR form IP/netmask; only for \`vlan\`" (which addresses and netmasks are taken is not shown)`,
    does: "refuses an ipam_address that is not a private (RFC 1918) IPv4 host address with a netmask of 8..30 bits (its network's own or broadcast address, a public address, /0)",
  },
  'backups-enrolment-not-shown': {
    leaves: `${D2}, Compute instance: "\`backups\` | object | contains \`schedule\` with \`day\` and \`window\`" (whether an instance is enrolled in the backup service is not shown, nor whether a snapshot or a schedule needs it)`,
    does: "shows an instance's backups as the documents do (the schedule only, no enabled member) and refuses snapshots and backup schedules of an instance not enrolled in the backup service",
  },
  'backup-service-changes-only': {
    leaves: `${D2}, Endpoints: "POST …/backups/cancel | … | cancels backup service; deletes all existing backups permanently" and "POST …/backups/enable | … | enables backups" (cancelling a service not enrolled, or enabling one enrolled, is not covered)`,
    does: 'refuses cancelling the backups of an instance not enrolled in the backup service, and enabling them on one already enrolled',
  },
  'schedule-needs-backups': {
    leaves: `${D2}, Instance update: "\`backups\` (object with \`schedule.day\`, \`schedule.window\`) … All optional." (whether a schedule may be set on an instance not enrolled in the backup service is not shown)`,
    does: 'refuses an instance update carrying backups.schedule for an instance not enrolled in the backup service (field backups.schedule)',
  },
  'clone-answers-its-job': {
    leaves: `${D2}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (what a clone to a new instance answers is not shown)`,
    does: 'answers a clone to a new instance with the job it queued ({id, action: "clone", status: "queued"}, the id a job number), not the new instance',
  },
  'single-node-types': {
    leaves: `${D1}, Managed database node type: "engines … each value is an array of objects with \`price\` … and \`quantity\` (integer, number of nodes)" (which types offer which cluster sizes is not shown)`,
    does: 'the smallest node type (g6-nanode-1) offers MySQL with one node only and refuses a 3-node cluster of it (field cluster_size)',
  },
  'rule-lists-distinct': {
    leaves: `${D3}, Rule object: "ports … single port, range, or comma-separated list" and "addresses … ipv4 / ipv6 lists" (whether a list may repeat a port, overlap a range or repeat an address is not shown)`,
    does: 'refuses a rule whose ports name a port twice (repeated or within a listed range) or whose ipv4 or ipv6 list repeats an address',
  },
  'restore-needs-offline': {
    leaves: `${D2}, Compute instances: "POST …/backups/{backupId}/restore | … | \`compute_id\` (integer, required, target), \`overwrite\` (boolean)" (whether the target may be running is not shown)`,
    does: 'refuses a restore onto a running instance (field compute_id)',
  },
  'image-ids-raw-only': {
    leaves: `${D2}, Images: "{imageId} are strings" and image ids "compute/…" or "private/…" (how an id holding a slash goes into a path is not shown)`,
    does: 'serves an image id in a path with its slash as it is (/v4/images/private/27) and answers 404 to a slash encoded as %2F',
  },
  'held-boot-not-last': {
    leaves: `${D2}, Configuration profile: "devices | device map | yes | may be empty; with no devices boot holds until a device exists" and Compute instances: boot "without config_id: the only profile is used; else the last booted profile" (whether a boot that holds makes its profile the last booted is not shown)`,
    does: 'a boot of a profile with no device is accepted and holds: the instance stays as it was and the profile does not become the last booted',
  },
  'usage-from-creation': {
    leaves: `${D2}, Compute instances: "…/stats/{year}/{month} | … | month 1..12; past month or current month" and "…/transfer/{year}/{month} | … | year 2000..2037; month 1..12; past or current month" (what a month before the instance existed answers is not shown)`,
    does: 'refuses statistics and transfer of a month before the one the instance was created in (field month)',
  },
  'empty-update-refused': {
    leaves: `${D1}, ${D2}, ${D3}: update bodies "all optional" (oauth client, instance), "no field required" (configuration profile), "none required" (domain, record) or with no member marked required (what an update carrying no member answers is not shown)`,
    does: 'refuses every PUT whose JSON body is an empty object (400, "Nothing to update")',
  },
  'tags-normalised': {
    leaves: `${D2}, Instance: "tags | array of strings | filterable" and Tag: "\`label\` (string, 3..50 chars on create)" (which characters a tag may hold, and whether it is stored as given, is not shown)`,
    does: 'stores every tag of an object lowercased, and refuses a tag holding a character other than letters, digits, spaces and . _ : -',
  },
  'subscription-named-by-plan': {
    leaves: `${D3}, Monitoring subscription (plan): "IDs: \`monitor-3\`, … Other subscription fields: not shown." (which member of a subscription object holds its ID is not shown)`,
    does: 'shows every subscription object (list, view, plan view and update) with its ID in monitor_subscription instead of id',
    warns: ['P3.monitor-subscription.fields'],
  },
  'schedule-whole': {
    leaves: `${D2}, Instance update: "\`backups\` (object with \`schedule.day\`, \`schedule.window\`) … All optional." (only the top-level members are said to be optional: whether a schedule may be sent with one of its members is not shown)`,
    does: 'refuses an instance update whose backups carries no schedule, or a schedule without its day or its window (field backups.schedule.day or .window)',
  },
  'schedule-chosen-days-only': {
    leaves: `${D2}, Instance: "backups.schedule.day | string or null | enum \`Scheduling\`, \`Sunday\`, …; \`Scheduling\` is returned until a day is automatically chosen" (whether a caller may send \`Scheduling\` or null is not shown)`,
    does: 'refuses an instance update whose backups.schedule day or window is Scheduling or null',
  },
  'script-data-needs-script': {
    leaves: `${D2}, Instance create body: "script_data | object | when the script needs input | valid JSON" (whether it is taken without script_id is not shown)`,
    does: 'refuses script_data on a create without script_id (field script_data)',
  },
  'labels-unicode-alphanumerics': {
    leaves: `${D2}, Instance labels: "only alphanumerics, dashes, underscores, periods" and ${D3}, Firewall: the same words (where the VLAN label says "ASCII letters, digits, dashes", these do not say ASCII)`,
    does: 'takes any Unicode letter or digit as an alphanumeric in instance and firewall labels; the seeded instance is labelled seed-wéb-1',
  },
  'empty-name-is-apex': {
    leaves: `${D3}, Domain record: "name | string | 1..100 chars; meaning per type below" with A, AAAA "hostname or FQDN", NS "subdomain, if any", TXT "hostname", and CAA "omit or empty string for the whole domain" (whether an empty name means the whole domain for the others too is not shown)`,
    does: 'takes an empty name on A, AAAA, NS and TXT records as the whole domain',
  },
  'root-device-any-invalid': {
    leaves: `${D2}, Configuration profile: "root_device | string | no | default \`/dev/sda\` when absent or invalid" (whether a value of another type is invalid, taken as the default, or refused is not shown)`,
    does: 'takes a root_device that is not a string as /dev/sda, as it does a bad path',
  },
  'account-closed-on-cancel': {
    leaves: `${D1}, Endpoints: "POST /v4/account/cancel | … | the service tries to charge the card on file for the remaining balance and fails with an error if the charge fails" (what a cancelled account does, and what a second cancellation does, is not shown)`,
    does: 'a successful cancellation closes the account: every token of it is refused (401) from then on',
  },
  'card-numbers-processor-checked': {
    leaves: `${D1}, Credit card body: "\`card_number\` (digit string, 14..24 chars, no spaces or dashes, required)" and POST /v4/account/credit-card "adds a card" (whether the card is checked with a card processor when it is added is not shown)`,
    does: "adds a card only when a card processor's test mode knows its number (the networks' published test numbers) and its cvv has the network's length (4 digits for American Express, 3 for the others); any other is declined (400, field card_number or cvv)",
  },
  'read-only-changes-need-read-write': {
    leaves: `${D1}, Authentication: "A \`read_write\` scope is required for operations that change data; \`read_only\` for reads." against the table's \`events:read_only\` for POST …/events/{eventId}/read and …/seen (the documents give both)`,
    does: 'a change whose table names only read_only scopes (marking events read or seen) needs the read_write scope of the same area',
  },
  'capture-needs-offline': {
    leaves: `${D2}, Images: "POST /v4/images | … | captures a private image from a disk" (whether the disk's instance may be running is not shown)`,
    does: 'refuses to capture a disk of an instance that is not offline (400, field disk_id)',
  },
  'vlan-clone-fails-later': {
    leaves: `${D2}, Network interfaces: "VLANs are supported only in VLAN-capable data centers (migrating or cloning an instance with a VLAN to another kind fails)" (whether it fails at the request or when the clone's job runs, and what a failed clone leaves, is not shown)`,
    does: 'accepts the clone of an instance with a VLAN to a region without VLANs; when its job ends nothing is copied and a compute_clone event says failed',
  },
  'enums-any-case': {
    leaves: `${D1}, Common conventions 2: "Request and response bodies are JSON." and the enums of the three documents' tables (whether a value in another letter case is taken is not shown; DNS, for one, ignores case)`,
    does: 'reads an enum string of a request body (those the common reader checks) whatever its letter case, as the listed spelling',
  },
  'engine-ids-encoded-only': {
    leaves: `${D1}, Endpoints: "\`{engineId}\` is a string of the form \`<engine>/<version>\` (it contains a slash)" (whether its slash goes into the path as it is or encoded as %2F is not shown)`,
    does: 'serves a database engine only with its slash encoded (/v4/databases/engines/mysql%2F8.0.26); the raw slash answers 404',
  },
  'kernel-ids-slashed-raw-only': {
    leaves: `${D2}, Compute instances: "\`{kernelId}\`, \`{imageId}\` are strings" (what a kernel id looks like, and how one holding a slash goes into a path, is not shown)`,
    does: 'kernel ids hold a slash (chs/latest-64bit), served in a path as it is (/v4/compute/kernels/chs/latest-64bit); a slash encoded as %2F answers 404',
  },
  'clone-extras-ignored': {
    leaves: `${D2}, Clone body: label and backups_enabled "only for a new instance" (only region and type are "otherwise not allowed")`,
    does: 'a clone to an existing instance (compute_id) ignores label and backups_enabled instead of refusing them',
  },
  'assign-no-op-refused': {
    leaves: `${D3}, IP assignment: "\`compute_id\` (integer, required; the instance that receives the address; the previous holder loses it)" and "reorganizes IPv4 addresses and IPv6 ranges across instances of one region" (what an assignment that moves nothing answers is not shown)`,
    does: 'refuses an assignment that changes nothing (every address already held by the instance it names), naming assignments',
  },
  'interface-labels-unique-per-instance': {
    leaves: `${D2}, Network interfaces: "label | … | unique among the instance's interfaces" and "ipam_address | … | unique among the instance's interfaces" (whether that is among one profile's interfaces or all the instance's profiles' is not shown)`,
    does: 'refuses a profile whose vlan label or ipam_address another profile of the same instance already holds',
  },
  'non-api-paths-html': {
    leaves: `${D1}, Versioning: "The version is the first path segment: '/v4'." and "Every path below is appended to {base_url}" (what a path outside the API answers is not shown: the documents describe the API only)`,
    does: 'answers a path outside /v4 and /v4beta with an HTML 404 page, as a web framework does by default',
  },
  'device-slots-strict': {
    leaves: `${D2}, Device map: "Each slot is null or an object with \`disk_id\` (integer or null) or \`volume_id\` (integer or null)" and "Slots \`sde\` to \`sdh\` are unavailable in \`fullvirt\` mode." (whether an object naming neither, or an unavailable slot named as null, is taken is not shown)`,
    does: 'refuses a device slot object naming neither disk_id nor volume_id ({}), and any mention of sde to sdh in a fullvirt profile, even as null',
  },
  'domain-unset-members-null': {
    leaves: `${D3}, Domains: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (how a domain shows a member without a value: left out, "" or null)`,
    does: "shows a domain's description and group without a value as null, and a slave's soa_email without one as null",
  },
  'account-without-card': {
    leaves: `${D1}, Account: "credit_card | object | \`expiry\` (string), \`last_four\` (integer)" (how an account without a card on file shows it is not shown)`,
    does: 'starts with no card on file: credit_card shows expiry and last_four as null until a card is added',
  },
  'account-without-address': {
    leaves: `${D1}, Account: "country | string | two-letter ISO 3166 code" (how an account never given an address shows it, and whether an update may clear it, is not shown)`,
    does: 'starts with no address, phone or tax id on file (each shown as ""), and takes country "" to clear the country',
  },
  'firewall-rule-unset-members-null': {
    leaves: `${D3}, Firewall: "Rule object: … description | string | no | 1..100 chars" and "label | string | no | 3..32 chars" (how a rule shows an optional member it was given without is not shown: left out or null)`,
    does: "shows a firewall rule's description and label it was given without as null",
  },
  'redirect-uri-normalised': {
    leaves: `${D1}, OAuth client: "redirect_uri | string (URL) | …" (how a stored URL is written back is not shown; RFC 3986 takes an empty path and "/" as one)`,
    does: 'keeps a redirect_uri as the URL parser writes it: an empty path as "/", the host in lower case',
  },
  'caa-iodef-http-mailto-only': {
    leaves: `${D3}, Record types: "CAA | … | for \`iodef\` a contact or submission URL (http or mailto)" (whether https is taken as http is not shown)`,
    does: 'refuses an iodef CAA target that is an https URL (http or mailto only, as written)',
  },
  'srv-name-refused': {
    leaves: `${D3}, Record types: "SRV | unused (use \`service\`) | …" (whether a name sent anyway is ignored or refused is not shown)`,
    does: 'refuses an SRV record body that names a name (400, field name)',
  },
  'absent-target-empty': {
    leaves: `${D3}, Record types: "MX | mail subdomain; empty string for a null MX | mail server, valid domain, required; empty string for a null MX" (whether a server tells an absent target from "" is not shown)`,
    does: 'reads an MX record without target as one with target "": a null MX with a name, refused naming name',
  },
  'assign-items-first': {
    leaves: `${D3}, IP assignment: "Assignment item (in \`assignments\`): \`address\` (string, required; … must be accessible in the region …), \`compute_id\` (integer, required …)" (in which order a server judges a body's members and items is not shown)`,
    does: 'judges the assignments list before anything else: an empty list is refused naming assignments, an item whose address the account does not hold naming its address',
  },
  'usage-previous-month-only': {
    leaves: `${D2}, Compute instances: statistics "past month or current month" and transfer "year 2000..2037; month 1..12; past or current month" (whether "past month" is any past month or the previous one is not shown)`,
    does: 'answers statistics and transfer for the current and the previous month only; an older month is refused (400, field month)',
  },
  'rdns-default-null': {
    leaves: `${D3}, IP addresses: "setting null on a public IPv4 address resets it to the default under {default_rdns_domain}" and "Full field lists of IP address … as returned: not shown." (whether a view writes the default name out or shows null is not shown)`,
    does: "shows a public IPv4 address's rdns as null while its default name applies (before any is set, and after a reset)",
  },
  'vlan-joined-at-first-boot': {
    leaves: `${D2}, Creation modes: "from an image (running when provisioned …); … attached to a private VLAN through \`interfaces\`" and Network interfaces: "changes take effect on reboot" (when a new instance joins the VLAN of its interface, at its create or when it first boots once provisioned, and how long provisioning takes, is not shown)`,
    does: 'a new instance deployed from an image or a backup shows status provisioning and joins the VLANs of its interfaces at its first boot, 2 simulated minutes after its create (a boot or shutdown before then takes its place)',
  },
  'redirect-uri-no-loopback': {
    leaves: `${D1}, OAuth client: "redirect_uri | string (URL) | where a successful login … is redirected" (which hosts a server takes is not shown; RFC 8252 calls "localhost" NOT RECOMMENDED)`,
    does: 'refuses a redirect_uri whose host is a loopback name or address (localhost, 127.x.x.x, [::1])',
  },
  'account-lists-page-size-clamped': {
    leaves: `${D1}, Limits: "Bounds of page and page_size on database and account lists: not shown (bounds that are shown appear in documents 2 and 3)." (whether a page_size out of bounds is refused or read as the nearest bound is not shown)`,
    does: 'database and account lists read a page_size below 50 as 50 (a page holds up to 50 items), refusing none',
    // A server reading 10 as 50 yet refusing 21 (pages of 20 for a page_size of 10) reads page_size two ways at once.
    excludes: ['account-lists-page-size-max-20'],
  },
  'alerts-whole': {
    leaves: `${D2}, Update instance body: "\`alerts\` (object, members as in alert semantics) … All optional." (only the top-level members are said to be optional: whether alerts may be sent with some of its thresholds is not shown)`,
    does: 'refuses an instance update whose alerts leave out any of cpu, io, network_in, network_out and transfer_quota (field alerts.<member>)',
  },
  'vlan-region-checked-first': {
    leaves: `${D2}, Network interface object: "VLANs are supported only in VLAN-capable data centers" (which of a body's faults a server names first is not shown)`,
    does: 'refuses interfaces holding a vlan item in a region without VLANs before judging any item (field interfaces.<i>.purpose of the first vlan item); its run uses the region us-west, which has none',
    region: 'us-west',
  },
  'range-create-answers-empty': {
    leaves: `${D3}, IP address, IPv6 pool, IPv6 range, VLAN: "Full field lists of IP address, IPv6 pool, IPv6 range and VLAN objects as returned: not shown." (what the range create answers is not shown)`,
    does: 'answers an IPv6 range create with {} (the range is listed, and viewed, as before)',
  },
  'extra-ipv4-checked-first': {
    leaves: `${D3}, IP addresses: "POST /v4/networking/ips | … | allocates an IPv4 address; the instance must be enabled for extra addresses through a support request first" (which of a body's faults a server names first is not shown)`,
    does: "judges whether the instance is enabled for an extra address (field public) before the body's type, and before its public (field compute_id, when public is missing or not a boolean)",
  },
  'range-limit-checked-first': {
    leaves: `${D3}, IPv6 range rules: "one range per region per account; … more through a support request" (which of a body's faults a server names first is not shown)`,
    does: "judges the region's one range per account (field compute_id or route_target) before the body's prefix_length",
  },
  'record-targets-underscore': {
    leaves: `${D3}, Domain record (request fields): "NS | subdomain, if any | name server, valid domain" and "CNAME | hostname, … | alias, valid domain" (which names count as a valid domain for a record target is not shown; only the domain's own name is held to RFC 1035)`,
    does: 'takes underscores in the labels of NS, MX, CNAME and SRV targets (RFC 2181 names, such as _dmarc.example.com)',
  },
  'domain-clone-answers-empty': {
    leaves: `${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (what a domain clone answers is not shown)`,
    does: 'answers a domain clone with {} (the new domain is listed, and viewed, as before)',
  },
  'cluster-label-charset': {
    leaves: `${D1}, Managed database (cluster): "label | string | 3..32 characters; user-defined; unique; filterable" (which characters a label may hold is not shown)`,
    does: 'refuses a cluster label (create or update) that does not begin with a letter or holds characters other than letters, digits, - and _',
  },
  'helpers-whole': {
    leaves: `${D2}, Configuration profile body: "helpers | object | no | booleans \`devtmpfs_automount\` (default false), \`distro\`, \`modules_dep\`, \`network\`, \`updatedb_disabled\`" (only devtmpfs_automount has a default: whether helpers may be sent without the others is not shown)`,
    does: 'refuses a profile create or update whose helpers leave out any of distro, modules_dep, network and updatedb_disabled (field helpers.<member>)',
  },
  'record-type-ignored-on-update': {
    leaves: `${D3}, Domain record (request fields): "type | string | required on create; enum …" (whether an update may change a record's type, or reads type at all, is not shown)`,
    does: "ignores the type of a record update (its value is not judged): the body is judged as the stored record's type",
  },
  'profile-delete-needs-offline': {
    leaves: `${D2}, Compute instances: "DELETE /v4/compute/instances/{computeId}/configs/{configId} | compute:read_write | none |" and "Status values and transitions: not shown." (whether the profile a running instance booted may be deleted is not shown)`,
    does: 'refuses to delete the profile a running instance booted last until the instance is shut down',
  },
  'deleted-view-gone-410': {
    leaves: `${D1}, Errors 3: "Preconditions in this document (…) produce an error response. HTTP status codes per condition, other than the 400 above: not shown." (what the view of a deleted resource answers is not shown: no 404 is named anywhere)`,
    does: 'answers 410 Gone, with the error body, to a GET of what a successful DELETE removed (the path it was sent to, or a path under it); an id never deleted still answers 404',
  },
  'srv-target-shown-as-given': {
    leaves: `${D3}, Domain record (request fields): "SRV | unused (use \`service\`) | target domain or subdomain, required; a subdomain is combined with the domain …" and "Fields of a record as returned: not shown." (whether a record shows its target combined, or as sent and combined where the zone is rendered, is not shown)`,
    does: 'shows an SRV subdomain target as sent (sipserver) and combines it with the domain in the zone it renders',
  },
  'default-label-unicode': {
    leaves: `${D2}, Compute instance: "Instance labels: … only alphanumerics, dashes, underscores, periods; … If no label is supplied at creation a default is assigned." and Clone body: "label | string | 3..64 chars; only for a new instance; a default label applies if omitted" (the default's format is not shown; "alphanumerics" is not said to be ASCII)`,
    does: 'gives a new instance or clone without a label the default label nœud-<id> (a non-ASCII letter), and takes any Unicode letter or digit in instance labels as labels-unicode-alphanumerics does',
  },
  'alerts-extra-member-strict': {
    leaves: `${D2}, Compute instance: "alerts | object | \`cpu\`, \`io\`, \`network_in\`, \`network_out\`, \`transfer_quota\` (all integers; see update rules)" and "Fields of the instance object beyond those above (such as its type) … as returned: not shown." and Update instance body: "\`alerts\` (object, members as in alert semantics)" (whether alerts shows more members, and whether an update naming a member beyond alert semantics is refused, is not shown)`,
    does: "shows a sixth member cpu_window (120) in an instance's alerts and refuses an update whose alerts name any member beyond the five documented ones (400, field alerts.<member>)",
  },
  'instance-create-answers-summary': {
    leaves: `${D2}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (what an instance create answers is not shown; the view is the read whose fields the Compute instance table shows)`,
    does: 'answers an instance create with a summary of the new instance, {id, label, status}: no ipv4, created or other member (the view and the list show it whole)',
  },
  'instance-status-other-words': {
    leaves: `${D2}, Compute instance: "… the values of status … as returned: not shown." and Compute instance status: "Status values and transitions: not shown."`,
    does: "shows an instance's status offline as stopped and running as started (its other states as they are)",
  },
  'profile-list-summaries': {
    leaves: `${D2}, Compute instance: "… the fields of backup, configuration profile, statistics, transfer, kernel and list-volume items as returned: not shown." (what an item of the configuration profile list carries is not shown; the view is the other read)`,
    does: "the configuration profile list shows summaries, each item {id, label}; the profile's view shows it whole (devices and all)",
  },
  'backups-listed-without-label': {
    leaves: `${D2}, Compute instance: "… the fields of backup, configuration profile, statistics, transfer, kernel and list-volume items as returned: not shown."`,
    does: "the backups list shows its backups without their label (the snapshot's answer and the backup's view still show it)",
  },
  'instance-null-members-omitted': {
    leaves: `${D2}, Compute instance: "Fields shown for an instance object: … image | string or null | image ID the disk was deployed from; … ipv6 | string or null | …; null if none" (that every field is present is only inferred, a SHOULD: a server may leave out a member whose value is null)`,
    does: 'leaves out of the instance view and list every top-level member whose value is null (image of an instance made without one, ipv6 when it has none)',
    warns: ['P2.instance.fields'],
  },
  'window-extra-member-strict': {
    leaves: `${D1}, Managed database cluster: "\`updates\` has the members \`frequency\`, \`duration\`, \`hour_of_day\`, \`day_of_week\`, \`week_of_month\`." and Update body: "\`updates\` (object with the members listed under the cluster resource)" (whether the window shown carries other members, and what an update sending a member not listed answers, is not shown)`,
    does: "shows a cluster's maintenance window with one more member (pending: []) and refuses an update whose updates names a member other than the five listed (400, field updates.<member>)",
  },
  'srv-parts-composed-in-zone': {
    leaves: `${D3}, Domain record (request fields): "protocol | string or null | only for SRV; an underscore is prepended automatically", "service | string or null | only for SRV, required; an underscore is prepended and a period appended automatically" and "Fields of a record as returned: not shown." (where the prepended underscores show is not shown)`,
    does: 'an SRV record shows service and protocol as given (sip, tcp) and name null; the zone it renders carries the composed owner name (_sip._tcp.<domain>.)',
  },
  'domain-list-summary': {
    leaves: `${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (what an item of the domain list carries is not shown; the view is the other read)`,
    does: 'the domain list shows summaries, each item {id, domain, type, status, tags}; the view shows the whole domain',
    warns: ['P3.domain.fields'],
  },
  'firewall-state-event-on-create': {
    leaves: `${D3}, Firewalls: "POST /v4/networking/firewalls | … | needs read_write grants on the listed instances; emits firewall_create" and "PUT /v4/networking/firewalls/{firewallId} | … | a status change emits firewall_enable or firewall_disable" (whether a create that starts a firewall in a status also records that status is not shown)`,
    does: 'a firewall create records firewall_enable beside firewall_create, or firewall_disable when it starts disabled (firewall-created-disabled)',
  },
  'rule-addresses-routable-only': {
    leaves: `${D3}, Rule object: "addresses | object | yes | \`ipv4\` and \`ipv6\`: arrays of strings in IP/mask format; …" (which networks a rule takes is not shown)`,
    does: 'refuses a rule address whose network no traffic comes from, naming it: its address unspecified, loopback, multicast, broadcast, link-local or reserved (240.0.0.0/4, the documentation networks) by ipaddr.js, or an IPv6 one outside global unicast 2000::/3 (reserved by IANA), except 0.0.0.0/0 and ::/0',
  },
  'device-add-answers-firewall': {
    leaves: `${D3}, Firewall device: "Assigns a firewall to an entity. … Fields of a device as returned: not shown." and Firewalls: "POST /v4/networking/firewalls/{firewallId}/devices | … | emits firewall_device_add" (what a device create answers is not shown)`,
    does: 'answers a device create with the firewall (its view), not the device',
  },
  'windowed-items-at-edge': {
    leaves: `${D1}, Account endpoints: "GET /v4/account/events | … | list of events from the last 90 days" and "GET /v4/account/logins | … | list of successful logins of all users in the last 90 days" and Common conventions 1: "A list response is an object with 'data' (array of resource objects), …" (no order of the items is shown; an item listed now may be the next to leave the window)`,
    does: 'seeds an event and a login 89 days and 23 hours old, each listed first (events are listed oldest first): an hour of the clock later, neither is listed nor viewable',
  },
  'military-state-needs-military-city': {
    leaves: `${D1}, Account: "state | string | max 24 chars; for US or CA addresses only the two-letter state or province code is accepted; for US military addresses AA, AE or AP; otherwise the province" (the codes are for military addresses: whether one is taken for an address whose city is not a military post office is not shown)`,
    does: 'refuses an account update whose resulting US address has the state AA, AE or AP and a city other than APO, FPO or DPO (field state, else city, else country: what the update sent)',
  },
  'promotion-members-strict': {
    leaves: `${D1}, Account: "active_promotions | array of objects | members: credit_monthly_cap (string), credit_remaining (string), description (string), expire_dt (date-time), image_url (string), service_type (string), summary (string), this_month_credit_remaining (string)" and "PUT /v4/account | … | body: any of active_promotions, … (types and limits as in the account resource)" (whether a promotion as returned carries more members, and what an update sending a member not listed answers, is not shown)`,
    does: 'shows each active promotion with a member of its own (promotion_id), and refuses an account update whose active_promotions items carry a member other than the eight listed (field active_promotions.<i>.<member>)',
  },
  'expired-transfer-shown-pending': {
    leaves: `${D1}, Entity transfer status: "States: \`accepted\`, \`cancelled\`, \`completed\`, \`failed\`, \`pending\`, \`stale\`. Transitions: not shown. A transfer expires 24 hours after creation." and Entity transfer: "Meaning of each transfer status: not shown." (what status an expired transfer shows is not shown)`,
    does: 'an expired transfer keeps showing status pending (it never goes stale), and its accept is refused; another account sends a new one while fewer than two incoming ones are pending and unexpired',
  },
  'account-country-without-state': {
    leaves: `${D1}, Account: "state | string | max 24 chars; for US or CA addresses only the two-letter state or province code is accepted; …" (what an update takes; what an account never given a state shows, and whether an update may leave it blank, is not shown)`,
    does: 'starts with country US and state "" (never given), and takes an update leaving a US or CA address without a state (state "" or not sent); a state given must still be a code',
  },
  'ip-allocate-answers-instance-ips': {
    leaves: `${D3}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." and IP addresses: "POST /v4/networking/ips | … | allocates an IPv4 address; …" (what the allocation answers is not shown)`,
    does: "answers an IPv4 allocation with all of the instance's addresses, {ipv4: {public: [...], private: [...]}, ipv6: {slaac: ...}} (address objects, the public ones first), not the new address alone",
  },
  'ranges-without-region': {
    leaves: `${D3}, IP address, IPv6 pool, IPv6 range, VLAN: "Members that the rules mention: \`address\` (IP), \`rdns\` (string, reverse DNS), \`range\` (IPv6 range, prefix length omitted in paths), \`route_target\` (IPv6 SLAAC address the range routes to), \`prefix_length\`. Full field lists of IP address, IPv6 pool, IPv6 range and VLAN objects as returned: not shown." (region is not a member the rules mention: whether a range shows it is not shown)`,
    does: 'shows an IPv6 range (in the list, the view and the create answer) without its region; the one-range-per-region limit holds as before',
  },
  'long-history': {
    leaves: `${D1}, Common conventions 1: "A list response is an object with \`data\` (array of resource objects), \`page\` (integer, current page), \`pages\` (integer, total pages), \`results\` (integer, total number of results)." and Entity transfer: "Meaning of each transfer status: not shown." and Account endpoints: "GET /v4/account/events | events:read_only | page, page_size | list of events from the last 90 days; …" (no order of the items is shown, nor that a cancelled transfer leaves the list, nor a limit on how many events 90 days hold: an account may have a long history)`,
    does: 'the account starts with 5,200 cancelled outgoing entity transfers and 5,200 events of the last 60 days; both lists show the oldest first (53 pages of 100: a new item is on the last page)',
  },
  'province-checked': {
    leaves: `${D1}, Account: "state | string | max 24 chars; for US or CA addresses only the two-letter state or province code is accepted; for US military addresses AA, AE or AP; otherwise the province" (whether a server holds each country's provinces, and refuses text naming none, is not shown)`,
    does: 'refuses an account update whose resulting address outside the US and CA has a state naming no subdivision of its country (twelve countries\' lists of names, English and local; any other country takes any state; "" is none given), field state, else country',
  },
  'windowed-items-swept-daily': {
    leaves: `${D1}, Account endpoints: "GET /v4/account/events | … | list of events from the last 90 days" and "GET /v4/account/logins | … | list of successful logins of all users in the last 90 days" and Limits: "Events and login history | last 90 days" (when an item past its 90 days leaves the list is not shown)`,
    does: 'removes the events and logins past their 90 days once a day, at 00:00 UTC (the lists and views show them until then); the account starts with an event and a login a minute past each of the 14 midnights from 90 days before the last one',
  },
  'domain-names-absolute': {
    leaves: `${D3}, Domain: "domain | string | 1..255 chars; labels up to 63 chars; RFC 1035; unique across the whole platform; filterable" and Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (RFC 1035 writes a name absolute, with a final period, in master files; how a domain's name is written back is not shown)`,
    does: 'shows every domain name absolute, with a final period (example.com.), in the list, the view and the answers of create, update, clone and import; takes a name given so as the same name',
  },
  'tcp-ports-names-protocol': {
    leaves: `${D3}, Rule object: "ports | string | required for TCP and UDP; not allowed for ICMP" (which of the two members an error about a TCP or UDP rule without ports names is not shown: the ports missing, or the protocol needing them)`,
    does: 'refuses a TCP or UDP rule without ports naming its protocol (…protocol), not its ports',
  },
  'record-missing-member-names-type': {
    leaves: `${D1}, Errors 1: "Each has \`reason\` (string, …) and usually \`field\` (string: the request field at fault, …)" and ${D3}, Domain record (request fields): "priority | integer | …; required for SRV", "service | string or null | only for SRV, required", "tag | string or null | only for CAA, required" and "CNAME | hostname, must be unique, required" (a member missing that the type sent requires is a clash between the two: which one an error names is not shown)`,
    does: 'refuses a record body naming its type but missing a member that type requires (SRV priority, weight, port or service; CAA tag; CNAME name) naming type, not the member (a missing target still names target)',
  },
  'clone-source-free': {
    leaves: `${D2}, Clone body: "compute_id | integer | existing target instance; must have enough resources; its running or queued actions must complete first" and "At most 5 clone operations from one source run concurrently; more returns HTTP 400." and Resize preconditions: "no running or queued actions" (whether a running clone is an action of its source, or of its target only, is not shown)`,
    does: 'a running clone keeps its target busy, not its source: a resize, boot, shutdown or rescue of the source, and a restore or a clone onto it, are taken while clones from it run',
  },
  'enable-runs-a-while': {
    leaves: `${D2}, Compute instances: "POST …/backups/enable | compute:read_write | none | enables backups" and Compute instance: "backups.schedule.day | string or null | … \`Scheduling\` is returned until a day is automatically chosen" (whether the instance shows the enrolment when the request answers or once it has run is not shown)`,
    does: 'an accepted backups/enable enrols the instance a simulated minute later (its schedule day stays null until then), unless the service is cancelled meanwhile',
  },
  'private-ip-when-provisioned': {
    leaves: `${D2}, Create instance body: "private_ip | boolean | no | enables private networking and a private IPv4 address" and Compute instance: "ipv4 | array of strings | IPv4 addresses: one public address on creation, possibly one private" (whether the private address shows when the create answers or once the instance is provisioned is not shown)`,
    does: 'an instance created with private_ip true shows its private IPv4 address 2 simulated minutes after the create (its public one at once)',
  },
  'transfer-after-a-while': {
    leaves: `${D2}, Compute instances: "GET …/transfer | compute:read_only | none | network transfer pool statistics for the current month" and "GET …/transfer/{year}/{month} | … | year 2000..2037; month 1..12; past or current month" (what an instance with no history yet answers is not shown)`,
    does: 'answers 400 "not available yet" to an instance\'s transfer (the current month and by month) for its first 5 simulated minutes',
  },
  'profile-delete-runs-a-while': {
    leaves: `${D2}, Compute instances: "DELETE /v4/compute/instances/{computeId}/configs/{configId} | compute:read_write | none |" with an empty rules column, and Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (whether the profile is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted configuration profile stays listed and viewable for a simulated minute after the DELETE is answered, then goes',
  },
  'device-as-request': {
    leaves: `${D3}, Firewall device: "Request members: \`id\` (integer, entity ID), \`type\` (enum \`compute\`). … Fields of a device as returned: not shown."`,
    does: "shows a firewall device in the request's own form, {id, type: 'compute', created, updated}, id being the instance's; the device's path ({deviceId}) is that instance id",
  },
  'device-own-id-only': {
    leaves: `${D3}, Firewall device: "Request members: \`id\` (integer, entity ID), \`type\` (enum \`compute\`). … Fields of a device as returned: not shown."`,
    does: "shows a firewall device as {id, type: 'compute', created, updated}, id being the device's own (the {deviceId} of its path): nothing names its instance",
  },
  'tagged-objects-summary': {
    leaves: `${D2}, Tagged objects (from the tagged objects list): "The list mixes objects of these kinds. Compute instance: as above. Domain: see document 3." and Endpoints: "GET /v4/tags/{label} | not shown | page, page_size | \`{data: [...]}\` paginated mixed list of tagged objects (instances, domains, volumes, load balancers)" (which members an item of the list carries is not shown; the views are the other reads, and the instance fields as returned are themselves inferred)`,
    does: 'the tagged objects list shows instances as summaries {id, label, region, status, tags} and domains as {id, domain, type, status, tags}; the views show them whole',
    warns: ['P2.tagged-objects.kinds', 'P3.domain.fields'],
  },
  'upload-expiry-swept-daily': {
    leaves: `${D2}, Image status: "\`pending_upload\` | 24 hours pass | no data uploaded | image deleted | the upload is cancelled" and Images, Upload rules: "… upload must finish within 24 hours or the upload is cancelled and the image deleted" (how soon after the 24 hours the image goes is not shown)`,
    does: 'removes the uploads that received no data in their 24 hours once a day, at the first 00:00 UTC after their 24 hours (the view and the list show them until then)',
  },
  'record-targets-global-unicast': {
    leaves: `${D3}, Domain record per type: "A, AAAA | hostname or FQDN | IP address, required; …" (which addresses a record may point at is not shown: a server may take only those a host on the internet can have)`,
    does: 'refuses an A or AAAA record target outside the global unicast range (ipaddr.js "unicast"): a documentation (192.0.2.0/24, 2001:db8::/32 …), private, loopback, link-local, reserved, multicast or unspecified address',
  },
  'mx-priority-makes-ordinary': {
    leaves: `${D3}, Domain record (request fields): "priority | integer | 0..255; …; must be 0 for a null MX" and per record type: "MX | mail subdomain; empty string for a null MX | mail server, valid domain, required; empty string for a null MX" (an MX with empty name and target and a priority other than 0 clashes with both: which member an error names is not shown)`,
    does: 'reads an MX with an empty name and a priority other than 0 as an ordinary MX, and refuses it naming name (the mail subdomain it lacks), before judging its target',
  },
  'maintenance-outlives-instance': {
    leaves: `${D1}, Maintenance: "\`entity\` (object: id, label, type, url), \`reason\` (string), \`status\` (string), \`type\` (string), \`when\` (date-time). Values of status and type: not shown. Only compute instances appear as entities." (whether the maintenance of an instance leaves the list once it is done, or once the instance is deleted, is not shown)`,
    does: 'keeps listing the maintenance of instances deleted since, their entity as it was; the account starts with one such record first in the list: the completed reboot, 10 days old, of an instance no longer there (its view answers 404)',
  },
  'invoices-monthly': {
    leaves: `${D1}, Account: "balance | number | US dollars" and "balance_uninvoiced | number | US dollars; estimate of the current invoice; excludes transfer charges" and Account endpoints: "GET /v4/account/invoices | account:read_only | page, page_size | list of invoices" (when invoices are issued, and so when the balance changes, is not shown)`,
    does: "at each simulated month start (00:00 UTC on the 1st) issues an invoice of the month's charges, balance_uninvoiced (one item, no tax), listed last, and adds its total to balance; balance_uninvoiced, the estimate of the new month's, stays as it was (the services go on)",
  },
  'events-seen-marks-shown': {
    leaves: `${D1}, Account endpoints: "POST /v4/account/events/{eventId}/seen | … | marks all events up to and including this ID as seen" and Events: "The \`action\` field takes one of these values (new values may be added)" and "Which operations emit the other actions: not shown." (when an event first shows in reads is not shown, nor whether an event taking its id before the POST but shown only after it is marked)`,
    does: "records, right before the event of every action, an audit record of the same entity (action audit_record) that takes the lower id but shows 2 s of wall-clock time after the action, the action's event 600 ms after (the run is told of a 3-second consistency window); POST seen marks the events shown at that moment with ids up to the one given, then shows the records still pending, unseen (lower ids too)",
    consistencyWindowMs: 3_000,
  },
  'transfer-accept-once': {
    leaves: `${D1}, Entity transfer: "Meaning of each transfer status: not shown." and Entity transfer status: "Transitions: not shown." and Common conventions 1: "A list response is an object with \`data\` (array of resource objects), …" (what an accepted transfer shows, what a second accept of it answers, and the order of a list's items are not shown)`,
    does: 'an accepted transfer still shows pending until it completes at its expiry, and a second accept of it is refused; the four incoming transfers are seeded a minute apart (the last one made expires last), other accounts send two more, a minute apart, only when none unaccepted is pending and unexpired, and the transfer list shows the newest first',
  },
  'state-of-other-country-names-country': {
    leaves: `${D1}, Account: "state | string | max 24 chars; for US or CA addresses only the two-letter state or province code is accepted" and Errors 1: "usually \`field\` (string: the request field at fault, …)" (a state code of the other country, NY with CA, breaks the pair: which of the two members is the offending one is not shown)`,
    does: 'refuses a US address with a Canadian province code, or a CA address with a US state code, naming country rather than state',
  },
});
