// The variations of when a change shows (readings the suite had narrowed, as in narrowed.ts): an operation whose effect,
// deletion or release shows at once or a while later, and what a resource refuses while its last change still runs. Part of
// the catalogue of index.ts, kept in a file of their own.
import { D1, D2, D3, defineVariations } from './define.js';

export const TIMING_READINGS = defineVariations({
  'snapshots-take-minutes': {
    leaves: `${D2}, Compute instance: "the fields of backup … as returned: not shown" and Create body: "backup_id | … backup status must be successful" (how long a snapshot takes to succeed is not shown)`,
    does: 'a snapshot shows status pending for 5 minutes before successful; until then it can be neither restored nor deployed',
  },
  'copies-made-on-completion': {
    leaves: `${D2}, Compute instance status: "Status values and transitions: not shown." (when the target of a clone, a restore or a deploy from a backup shows what is copied, at once or when the copy completes, is not shown)`,
    does: "what a clone copies (disks, profiles, VLANs, the source's tags on an existing target) appears when the clone completes (10 simulated minutes); what a restore or a deploy from a backup copies, 5 simulated minutes after it is accepted",
  },
  'clone-onto-busy-queued': {
    leaves: `${D2}, Clone body: "compute_id | integer | existing target instance; must have enough resources; its running or queued actions must complete first" (refused until they complete, or accepted and run once they have: not shown)`,
    does: "accepts a clone onto a target with a running action and runs it (copies, tags) once the target's actions have completed",
  },
  'backups-reenabled-after-a-day': {
    leaves: `${D2}, Compute instances: "POST …/backups/enable | … | enables backups" and "…/backups/cancel | cancels backup service; deletes all existing backups permanently" (when a cancelled service may be enabled again is not shown)`,
    does: "refuses to enable an instance's backup service again within 24 simulated hours of its cancel",
  },
  'shutdown-takes-a-minute': {
    leaves: `${D2}, Compute instances: "POST …/shutdown | … | running or queued actions must finish first" and Compute instance status: "Status values and transitions: not shown." (how long a shutdown runs is not shown)`,
    does: 'a shutdown runs one simulated minute: boot, rescue, resize, a restore, clone or capture onto or from the instance are refused meanwhile',
  },
  'clones-take-longer': {
    leaves: `${D2}, Compute instance status: "Status values and transitions: not shown." (how long a clone runs is not shown)`,
    does: 'a clone runs 45 minutes of simulated time (10 by default), its source and target busy meanwhile',
  },
  'image-uploads-slow': {
    leaves: `${D2}, Image status: "pending_upload | upload completed and processed | … | available" and "pending_upload | 24 hours pass | no data uploaded | image deleted" (how long processing takes, and how soon after the 24 hours the image goes, are not shown)`,
    does: "an upload's data is processed for 20 minutes (pending_upload meanwhile); an expired upload is swept at the first whole hour after its 24 hours",
  },
  'create-runs-a-while': {
    leaves: `${D2}, Compute instances: "POST …/shutdown | … | running or queued actions must finish first" and Resize preconditions: "no running or queued actions" (whether an instance's own create counts as one, and for how long, is not shown)`,
    does: "an instance's create runs as an action for 2 minutes of simulated time: boot, shutdown, rescue, resize, a restore onto it, a clone onto or from it, a snapshot and an image capture of its disks are refused meanwhile",
  },
  'database-restore-queued': {
    leaves: `${D1}, Managed databases: "States: … restoring, failed … Transitions: not shown." and "Restoring a backup after credentials were reset results in a failed cluster." (when the status changes after a restore is accepted is not shown)`,
    does: 'a restore is queued for 2 simulated minutes (the cluster shows active meanwhile) before it runs: restoring for 10 minutes, or failed after a credentials reset',
  },
  'patch-takes-hours': {
    leaves: `${D1}, Managed databases: "POST …/patch | … | applies operating system security patches now; single-node clusters have downtime" and "Transitions: not shown." (how long a patch runs is not shown; the default maintenance window lasts 3 hours)`,
    does: 'a single-node cluster is patched, and shows updating, for two simulated hours',
  },
  'database-restore-takes-an-hour': {
    leaves: `${D1}, Managed databases: "States: … restoring, failed … Transitions: not shown." and "Restoring a backup after credentials were reset results in a failed cluster." (how long a restore runs before the cluster shows where it ends is not shown)`,
    does: 'a restore runs 60 simulated minutes (restoring) before the cluster is active again, or failed after a credentials reset',
  },
  'credentials-reset-busy': {
    leaves: `${D1}, Managed databases: "a new random root password is generated, readable through credentials view; takes several seconds" (what the view answers meanwhile is not shown)`,
    does: 'for 30 simulated seconds after a credentials reset, the credentials view answers 409 "being reset"',
  },
  'database-snapshot-one-at-a-time': {
    leaves: `${D1}, Managed databases: "POST …/backups | … | creates a \`snapshot\` backup that takes several minutes" (whether a second snapshot may be asked for while one is being taken is not shown)`,
    does: 'refuses a database snapshot while another snapshot of the cluster is being taken (its first 5 simulated minutes)',
  },
  'database-snapshots-take-minutes': {
    leaves: `${D1}, Managed databases: "POST …/backups | … | creates a \`snapshot\` backup that takes several minutes" (what a restore of a snapshot still being taken answers is not shown)`,
    does: 'lists a database snapshot at once but refuses to restore it for its first 5 simulated minutes',
  },
  'backup-deletions-run-a-while': {
    leaves: `${D2}, Compute instances: "POST …/backups | … | creates a snapshot; an existing snapshot of the instance is deleted" and "POST …/backups/cancel | … | cancels backup service; deletes all existing backups permanently" (when those deletions are done is not shown)`,
    does: 'the backups a cancel or a new snapshot deletes stay viewable for a simulated minute, their deletion running (listed too, after a cancel)',
  },
  'tag-removal-runs-a-while': {
    leaves: `${D2}, Tags: "DELETE /v4/tags/{label} | … | \`{}\`; removes the tag from all objects and deletes it" (when that is done is not shown)`,
    does: 'a tag deleted leaves its objects, and its own list, a simulated minute after the DELETE is answered',
  },
  'database-snapshots-listed-when-taken': {
    leaves: `${D1}, Managed databases: "POST …/backups | … | creates a \`snapshot\` backup that takes several minutes" (when the snapshot first shows in the backups list is not shown)`,
    does: 'shows a database snapshot in the backups list, and answers its view, only once it is taken, 5 simulated minutes after the request (its view answers 404 until then)',
  },
  'allow-list-applied-later': {
    leaves: `${D1}, Managed database cluster create and update: "allow_list … changes take a short time, so rapid successive updates are unsuitable" (what the cluster shows meanwhile is not shown)`,
    does: 'an accepted allow_list, given to a create or an update, is shown (and applied) a simulated minute later; the cluster shows the old (or an empty) list meanwhile, and an updated one stays active',
  },
  'auto-backups-stamped-late': {
    leaves: `${D1}, Managed database backup: "\`auto\` backups are created every 24 hours at 00:00 UTC" (whether \`created\` is the instant the backup starts or the moment it is stored is not shown)`,
    does: 'stamps each automatic backup 5 minutes after 00:00 UTC (when it is complete)',
  },
  'auto-backups-swept-later': {
    leaves: `${D1}, Managed database backup: "\`auto\` backups are created every 24 hours at 00:00 UTC and each is kept 7 days" (when a backup past its 7 days is removed is not shown)`,
    does: 'removes the automatic backups past their 7 days at 06:00 UTC, six hours after the new one is made',
  },
  'stats-after-a-while': {
    leaves: `${D2}, Compute instances: "GET …/stats | … | CPU, IO, IPv4, IPv6 statistics for the past 24 hours" (what an instance with no history yet answers is not shown)`,
    does: 'answers 400 "not available yet" to an instance\'s statistics (24 hours and by month) for its first 5 simulated minutes',
  },
  'empty-clones-instant': {
    leaves: `${D2}, Clone body and Limits: "At most 5 clone operations from one source run concurrently; more returns HTTP 400." (how long a clone runs is not shown)`,
    does: 'a clone that copies no disk (of an instance with none, or with configs []) finishes at once: it never counts against the five',
  },
  'hosts-null-while-provisioning': {
    leaves: `${D1}, Managed database (cluster): "hosts | object | \`primary\` (string), \`secondary\` (string); assigned after provisioning completes" (what a cluster shows before that is not shown)`,
    does: "shows hosts null (not an object of nulls) while a cluster's hosts are not assigned",
  },
  'instance-delete-takes-a-while': {
    leaves: `${D2}, Compute instances: "DELETE /v4/compute/instances/{computeId} | … | irreversible; releases IPs; deletes disks, backups, configs" and Compute instance status: "Status values and transitions: not shown." (whether the instance is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted instance is still shown, with status deleting, for 5 seconds (simulated clock) before it is gone with its addresses, disks, profiles and backups',
  },
  'delete-refused-while-busy': {
    leaves: `${D2}, Compute instances: "DELETE /v4/compute/instances/{computeId} | … | irreversible; releases IPs; deletes disks, backups, configs" (whether an instance with a running action, a clone from or to it, may be deleted is not shown)`,
    does: 'refuses to delete an instance while it has a running or queued action: a clone from or to it (10 minutes of simulated time), and its own create or a shutdown where a variation makes those run a while',
  },
  'failed-cluster-repaired': {
    leaves: `${D1}, Managed database status: "Transitions: not shown." (whether a failed cluster stays failed is not shown)`,
    does: 'a failed cluster is repaired and shows active again 30 simulated minutes after it failed',
  },
  'zone-file-after-first-render': {
    leaves: `${D3}, Domains: "GET /v4/domains/{domainId}/zone-file | … | the zone file of the last rendered zone" (when a new domain's zone is first rendered, and what the zone file answers before, is not shown)`,
    does: "a new domain's zone file answers 404 until its zone is first rendered, 2 simulated minutes after the create",
  },
  'capture-delete-waits': {
    leaves: `${D2}, Image status: "\`creating\` | time | image being captured from a disk | \`available\` | becomes available shortly" and Images: "DELETE /v4/images/{imageId} | … | private images only; irreversible" (whether an image still being captured may be deleted is not shown)`,
    does: 'refuses to delete an image still being captured (status creating)',
  },
  'tag-create-runs-a-while': {
    leaves: `${D2}, Tags: "POST /v4/tags | … | \`{label}\`; tags the listed objects; caller needs read_write on all listed objects or the tag is not created" (when the objects carry the new tag is not shown)`,
    does: 'a tag created shows on its objects (their tags, and its tagged objects list) a simulated minute after the POST is answered',
  },
  'instance-delete-releases-later': {
    leaves: `${D2}, Compute instances: "DELETE /v4/compute/instances/{computeId} | … | irreversible; releases IPs; deletes disks, backups, configs" (when the addresses are released and the backups deleted is not shown)`,
    does: "a deleted instance is gone at once, but its IPv4 addresses stay allocated (listed in the account's addresses) and its backups usable (an instance may be created from one) until a simulated minute after the DELETE",
  },
  'cluster-delete-shows-a-while': {
    leaves: `${D1}, Managed databases: "DELETE /v4/databases/mysql/instances/{instanceId} | databases:read_write | none | \`{}\`" and Managed database status: "Transitions: not shown." (whether the cluster is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted cluster is still viewed and listed, its status unchanged, for 5 seconds (simulated clock) before it is gone with its backups',
  },
  'allow-list-changes-spaced': {
    leaves: `${D1}, Create body: "allow_list | … changes take a short time, so rapid successive updates are unsuitable" (what a server does with an update that follows another too soon is not shown)`,
    does: 'a cluster shows a new allow list at once and stays active, but an update carrying allow_list within a simulated minute of its last accepted allow-list change is refused (409, field null)',
  },
  'credentials-reset-spaced': {
    leaves: `${D1}, Managed databases: "POST /v4/databases/mysql/instances/{instanceId}/credentials/reset | … | a new random root password is generated, readable through credentials view; takes several seconds" (what a reset sent while the last one may still run answers is not shown)`,
    does: 'refuses (409, field null) a credentials reset of a cluster within 30 simulated seconds of its last accepted reset',
  },
  'clones-instant': {
    leaves: `${D2}, Clone body and Limits: "At most 5 clone operations from one source run concurrently; more returns HTTP 400." (how long a clone runs is not shown: a copy-on-write store may finish one within its request)`,
    does: 'every clone finishes within its request (its copies made, its target idle): no clone is ever running when the next one comes',
  },
  'image-layout-when-provisioned': {
    leaves: `${D2}, Create instance body: "Creation modes: from an image (running when provisioned; default config with two disks, one a 512 swap disk unless swap_size is set)" (when the default config and its disks show, as the create answers or once the instance is provisioned, is not shown)`,
    does: 'an instance deployed from an image shows its default profile and its two disks 2 simulated minutes after the create is answered (none before)',
  },
  'instance-snapshots-listed-when-taken': {
    leaves: `${D2}, Compute instance: "the fields of backup … as returned: not shown" and Create instance body: "backup_id | … backup status must be successful" (when a snapshot first shows in the backups list and its view is not shown)`,
    does: "shows an instance snapshot in the backups list, and answers its view, only once it is taken, 5 simulated minutes after the request (its view answers 404 until then; the request's answer is the pending snapshot)",
  },
  'snapshot-keeps-cluster-busy': {
    leaves: `${D1}, Managed databases: "POST …/backups | … | \`{}\`; creates a \`snapshot\` backup that takes several minutes" and Managed database status: "Transitions: not shown." (what the cluster refuses while a snapshot is being taken is not shown)`,
    does: 'refuses (409, field null) a credentials reset or a patch of a cluster within 5 simulated minutes of its last accepted snapshot request, the cluster showing active meanwhile',
  },
  'domain-delete-runs-a-while': {
    leaves: `${D3}, Domains: "DELETE /v4/domains/{domainId} | domains:read_write | none | removes the domain from the nameservers shortly after, and deletes all its records" (whether the domain and its records are gone when the DELETE answers or once the deletion has run shortly after is not shown)`,
    does: 'a deleted domain is still viewed and listed, with its records (list and views) and its name taken, for a simulated minute after the DELETE before it is gone with them',
  },
  'firewall-delete-releases-later': {
    leaves: `${D3}, Firewall status: "'enabled' or 'disabled' | DELETE firewall | | 'deleted' (removed) | rules are removed from the instances; event firewall_delete" (when the rules are removed is not shown)`,
    does: "a deleted enabled firewall still counts as its instances' enabled firewall for a simulated minute after the DELETE: adding one of them to another enabled firewall (or enabling a firewall holding one) is refused until then",
  },
  'range-release-later': {
    leaves: `${D3}, IP addresses: "DELETE /v4/networking/ipv6/ranges/{range} | … | disconnects the range from assigned instances; shared ranges cannot be deleted" and IPv6 range rules: "one range per region per account" (when a deleted range's region may hold a range again is not shown)`,
    does: "a deleted range is gone from its view and the list at once, but its region's one range stays taken (a create there refused as for a second range) until a simulated minute after the DELETE",
  },
  'assign-runs-a-while': {
    leaves: `${D3}, IP addresses: "POST /v4/networking/ips/assign | … | reorganizes IPv4 addresses and IPv6 ranges across instances of one region" and Assignment rules: "assigning an IPv6 range re-targets the range to the SLAAC address of the receiving instance" (whether the addresses have moved when the request answers or once the assignment has run is not shown)`,
    does: 'an accepted assignment (ips/assign, ipv4/assign), judged when it is sent, takes effect a simulated minute later: until then the instances show their addresses, and the ranges their route targets, as before',
  },
  'clone-instance-made-on-completion': {
    leaves: `${D2}, Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." and Compute instance status: "Status values and transitions: not shown." (what a clone to a new instance answers, and when the new instance first shows, is not shown)`,
    does: 'answers a clone to a new instance with the job it queued, as clone-answers-its-job does, and makes the new instance (with its copies) only when the clone completes, 10 simulated minutes later: until then no instance is listed for it',
  },
  'oauth-client-delete-shows-a-while': {
    leaves: `${D1}, OAuth client status: "States: \`active\`, \`disabled\`, \`suspended\`. Transitions: not shown. Deleting a client invalidates all tokens issued to it …" and Account endpoints: "DELETE /v4/account/oauth-clients/{clientId} | account:read_write | none | \`{}\`" (whether the client is gone, and its tokens refused, when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted OAuth client is still viewed and listed, its status unchanged, and the tokens issued to it still work, for 5 seconds (simulated clock) before it is gone and they are refused',
  },
  'enrolment-shown-later': {
    leaves: `${D2}, Create instance body: "backups_enabled | boolean | no | enrols in the paid backup service; …" and Clone body: "backups_enabled | boolean | only when cloning to a new instance" and Compute instance status: "Status values and transitions: not shown." (whether the new instance is enrolled, and shows it, as the create or clone answers or once it is provisioned, is not shown)`,
    does: 'an instance created, or cloned to a new instance, with backups_enabled true is enrolled in the backup service 5 simulated minutes after the request (backups.schedule.day null until then, then Scheduling)',
  },
  'image-uploads-take-hours': {
    leaves: `${D2}, Image status: "pending_upload | upload completed and processed | data uploaded within 24 hours | available" and Upload rules: "upload must finish within 24 hours or the upload is cancelled and the image deleted" (how long processing takes once the data has come is not shown: the only time given in that state is the 24 hours)`,
    does: "an upload's data is processed for 3 simulated hours (pending_upload meanwhile), as image-uploads-slow does for 20 minutes; the upload is not swept meanwhile",
  },
  'share-runs-a-while': {
    leaves: `${D3}, IP addresses: "POST /v4beta/networking/ips/share (beta) | … | configures IP failover sharing" and "DELETE /v4/networking/ipv6/ranges/{range} | … | disconnects the range from assigned instances; shared ranges cannot be deleted" and Share rules: "an empty array removes all shared addresses" (whether the addresses are shared, or no longer shared, when the request answers or once the share has run is not shown)`,
    does: 'an accepted share (ips/share, ipv4/share), an empty one included, judged when it is sent, takes effect a simulated minute later: until then the instance shares what it shared before (a range shared meanwhile can still be deleted, one unshared is still refused)',
  },
  'allow-list-applied-when-provisioned': {
    leaves: `${D1}, Managed database cluster create: "allow_list … changes take a short time, so rapid successive updates are unsuitable" and Managed database provisioning: "about 15 to 30 minutes" (what a provisioning cluster shows, and whether a create's list is applied before provisioning ends, is not shown)`,
    does: "a create's allow_list is shown (and applied) when provisioning ends; the cluster shows an empty list until then",
  },
  'ip-allocate-runs-a-while': {
    leaves: `${D3}, IP addresses: "POST /v4/networking/ips | ips:read_write, compute:read_write | … | allocates an IPv4 address; the instance must be enabled for extra addresses through a support request first" and Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (whether the instance shows the new address when the request answers or once the allocation has run is not shown)`,
    does: "an accepted allocation answers the new address's object at once; the instance's ipv4 (and the address list) show the address a simulated minute later",
  },
  'record-delete-runs-a-while': {
    leaves: `${D3}, Domains: "DELETE /v4/domains/{domainId}/records/{recordId} | domains:read_write | none | |" with an empty rules column, and Endpoints: "Response bodies and status codes for the operations below, unless described in the rules column: not shown." (whether the record is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted domain record stays viewable and listed for a simulated minute after the DELETE is answered, then goes',
  },
  'monitor-client-delete-runs-a-while': {
    leaves: `${D3}, Monitoring: "DELETE /v4/monitor/clients/{clientId} | monitor:read_write | none | all stored data of the client is lost; the agent is not uninstalled" (whether the client is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted monitoring client stays viewable and listed for a simulated minute after the DELETE is answered, then goes',
  },
  'firewall-delete-runs-a-while': {
    leaves: `${D3}, Firewall status: "\`enabled\` or \`disabled\` | DELETE firewall | | \`deleted\` (removed) | rules are removed from the instances; event firewall_delete" (whether the firewall is removed when the DELETE answers or once the deletion has run is not shown)`,
    does: 'a deleted firewall is still viewed and listed, with its old status and devices, for a simulated minute after the DELETE is answered (its firewall_delete event at once), then removed and its rules off its instances',
  },
  'range-delete-runs-a-while': {
    leaves: `${D3}, IP addresses: "DELETE /v4/networking/ipv6/ranges/{range} | ips:read_write | none | disconnects the range from assigned instances; shared ranges cannot be deleted" (whether the range is gone when the DELETE answers or once the deletion has run is not shown)`,
    does: "a deleted IPv6 range stays viewable and listed, routed as before and holding its region's one range, for a simulated minute after the DELETE is answered, then goes",
  },
});
