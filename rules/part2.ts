import { declareRules } from './declare.js';
import type { DeclaredRule } from './types.js';

// Ledger of document 2 (spec/part2-compute-images-tags.md): compute instances, images, tags.
// Per-endpoint rules (auth kind, scopes, unrestricted-only flag, /v4beta, page/page_size) are generated
// from the endpoint catalogue elsewhere and are not repeated here.

const { must, should } = declareRules(2);

// Sections (headings of document 2, exactly as written).
const INSTANCE = 'Compute instance';
const ALERTS = 'Alert semantics (update body)';
const IFACE = 'Network interface object';
const DEVMAP = 'Device map';
const IMAGE = 'Image';
const TAG = 'Tag';
const TAGGED = 'Tagged objects (from the tagged objects list)';
const IMAGE_STATUS = 'Image status';
const INSTANCE_STATUS = 'Compute instance status';
const VOLUME_STATUS = 'Volume status';
const COMPUTE = 'Compute instances';
const CREATE = 'Create instance body';
const UPDATE = 'Update instance body';
const CLONE = 'Clone body';
const CONFIG = 'Configuration profile body';
const IMAGES = 'Images';
const TAGS = 'Tags';
const LIMITS = 'Limits';

// Endpoints, exactly as in endpoints.tsv.
const I = '/v4/compute/instances';
const IID = `${I}/{computeId}`;
const LIST_I = `GET ${I}`;
const CREATE_I = `POST ${I}`;
const GET_I = `GET ${IID}`;
const PUT_I = `PUT ${IID}`;
const DEL_I = `DELETE ${IID}`;
const BK_LIST = `GET ${IID}/backups`;
const BK_CREATE = `POST ${IID}/backups`;
const BK_CANCEL = `POST ${IID}/backups/cancel`;
const BK_ENABLE = `POST ${IID}/backups/enable`;
const BK_GET = `GET ${IID}/backups/{backupId}`;
const BK_RESTORE = `POST ${IID}/backups/{backupId}/restore`;
const BOOT = `POST ${IID}/boot`;
const CLONE_I = `POST ${IID}/clone`;
const CFG_LIST = `GET ${IID}/configs`;
const CFG_CREATE = `POST ${IID}/configs`;
const CFG_GET = `GET ${IID}/configs/{configId}`;
const CFG_PUT = `PUT ${IID}/configs/{configId}`;
const CFG_DEL = `DELETE ${IID}/configs/{configId}`;
const RESCUE = `POST ${IID}/rescue`;
const RESIZE = `POST ${IID}/resize`;
const SHUTDOWN = `POST ${IID}/shutdown`;
const STATS = `GET ${IID}/stats`;
const STATS_YM = `GET ${IID}/stats/{year}/{month}`;
const TRANSFER = `GET ${IID}/transfer`;
const TRANSFER_YM = `GET ${IID}/transfer/{year}/{month}`;
const VOLUMES = `GET ${IID}/volumes`;
const KERNELS = 'GET /v4/compute/kernels';
const KERNEL = 'GET /v4/compute/kernels/{kernelId}';
const IMG_LIST = 'GET /v4/images';
const IMG_CAPTURE = 'POST /v4/images';
const IMG_UPLOAD = 'POST /v4/images/upload';
const IMG_GET = 'GET /v4/images/{imageId}';
const IMG_PUT = 'PUT /v4/images/{imageId}';
const IMG_DEL = 'DELETE /v4/images/{imageId}';
const TAG_CREATE = 'POST /v4/tags';
const TAG_DEL = 'DELETE /v4/tags/{label}';
const TAG_GET = 'GET /v4/tags/{label}';

/** Endpoints inferred to return a compute instance (list items, created, viewed, updated, tagged-objects items). */
const RETURNS_INSTANCE = [LIST_I, CREATE_I, GET_I, PUT_I, TAG_GET];
const INSTANCE_LABEL = [...RETURNS_INSTANCE, CLONE_I];
const RETURNS_IMAGE = [IMG_LIST, IMG_CAPTURE, IMG_UPLOAD, IMG_GET, IMG_PUT];
const INTERFACES = [CREATE_I, CFG_CREATE, CFG_PUT];
const DEVICES = [CFG_CREATE, CFG_PUT, RESCUE];
const CONFIG_BODY = [CFG_CREATE, CFG_PUT];

const NO_STATUS_VALUES = 'untestable: the values of instance status are not shown';
const NO_GUEST = 'untestable: needs observation inside the guest operating system';

// One row per rule: the formatter leaves the table alone.
// prettier-ignore
export const rules: DeclaredRule[] = [
  // ---------------------------------------------------------------- Compute instance (resource)
  should('P2.instance.fields', INSTANCE, 'inferred: an instance object as returned has the fields alerts, backups, created, group, hypervisor, id, image, ipv4, ipv6, label, region, specs, status, tags and watchdog_enabled, with the documented members of alerts, backups.schedule and specs.', RETURNS_INSTANCE),
  must('P2.instance.types', INSTANCE, 'Instance fields, when present, have the documented types (alerts members, specs members and id integers; image and ipv6 string or null; ipv4 and tags arrays of strings; watchdog_enabled boolean; created a date-time).', RETURNS_INSTANCE),
  must('P2.instance.backups.schedule.day.enum', INSTANCE, 'backups.schedule.day is null or one of Scheduling, Sunday, Monday, Tuesday, Wednesday, Thursday, Friday, Saturday.', [...RETURNS_INSTANCE]),
  must('P2.instance.backups.schedule.day.scheduling-until-chosen', INSTANCE, '`Scheduling` is returned for backups.schedule.day until a day is automatically chosen, after which a weekday is returned.', [GET_I, BK_ENABLE], 'scenario', ['long-wait']),
  must('P2.instance.backups.schedule.window.enum', INSTANCE, 'backups.schedule.window is null or one of Scheduling, W0, W2, W4, W6, W8, W10, W12, W14, W16, W18, W20, W22.', [...RETURNS_INSTANCE]),
  must('P2.instance.backups.schedule.window.two-hour-utc', INSTANCE, 'A backup window Wn is the two-hour UTC span starting at hour n (W10 = 10:00 to 12:00).', [PUT_I], 'untestable: when the backup service runs inside its window is not observable (backup fields are not shown)', ['clock']),
  must('P2.instance.hypervisor.enum', INSTANCE, 'hypervisor is `kvm`.', RETURNS_INSTANCE),
  should('P2.instance.image.image-id', INSTANCE, 'inferred: image, when not null, is an image ID, so it begins with `compute/` or `private/`.', RETURNS_INSTANCE),
  must('P2.instance.image.deployed-from', INSTANCE, 'image is the ID of the image the disk was deployed from (null for an instance created without an image).', [CREATE_I, GET_I], 'scenario'),
  must('P2.instance.ipv4.format', INSTANCE, 'Each ipv4 item is an IPv4 address.', RETURNS_INSTANCE),
  must('P2.instance.ipv4.one-public-on-create', INSTANCE, 'A new instance has one public IPv4 address in ipv4 (and possibly one private address).', [CREATE_I, GET_I], 'scenario'),
  must('P2.instance.ipv6.format', INSTANCE, 'ipv6 is the instance\'s IPv6 SLAAC address, or null if none.', RETURNS_INSTANCE, 'code'),
  must('P2.instance.label.min-3', INSTANCE, 'An instance label has at least 3 characters.', INSTANCE_LABEL),
  must('P2.instance.label.max-64', INSTANCE, 'An instance label has at most 64 characters.', INSTANCE_LABEL),
  must('P2.instance.label.chars', INSTANCE, 'An instance label contains only alphanumerics, dashes, underscores and periods.', INSTANCE_LABEL),
  must('P2.instance.label.begin-end-alphanumeric', INSTANCE, 'An instance label must begin and end with an alphanumeric character.', INSTANCE_LABEL),
  must('P2.instance.label.no-doubled-separators', INSTANCE, 'An instance label has no two dashes, underscores or periods in a row. The sentence is ambiguous for mixed pairs (`-_`, `._`), so only `--`, `__` and `..` are judged; a mixed pair is asserted neither way.', INSTANCE_LABEL),
  must('P2.instance.label.default-assigned', INSTANCE, 'If no label is supplied at creation a default label is assigned.', [CREATE_I], 'scenario'),
  must('P2.instance.region.migration-only', INSTANCE, 'An instance\'s region is changed only by cross data center migration (an update or resize leaves it unchanged).', [PUT_I, RESIZE, GET_I], 'scenario'),
  must('P2.instance.status.may-change', INSTANCE, 'status is a short description of the current state and may change without caller action.', [GET_I], NO_STATUS_VALUES),
  must('P2.instance.watchdog.reboots', INSTANCE, 'When watchdog_enabled is true the instance is rebooted if it powers off unexpectedly.', [PUT_I], 'untestable: an unexpected power-off cannot be caused from outside the guest'),
  must('P2.instance.watchdog.gives-up', LIMITS, 'The watchdog gives up after more than 5 boot jobs within 15 minutes.', [PUT_I], 'untestable: an unexpected power-off cannot be caused from outside the guest', ['clock']),
  must('P2.instance.filters', INSTANCE, 'group, id, image, ipv4, label, region and tags are filterable.', [LIST_I], 'untestable: the filter request syntax is not shown'),
  should('P2.instance.update.persists', UPDATE, 'inferred: the group and backups schedule set by an instance update are returned by the next view (group is deprecated, and `Scheduling` "is returned until a day is automatically chosen" leaves open whether a day the caller sets is shown at once).', [PUT_I, GET_I], 'scenario'),

  // ---------------------------------------------------------------- Alert semantics
  must('P2.alerts.cpu.default-90-per-core', ALERTS, 'The default cpu alert threshold is 90 multiplied by the number of cores (specs.vcpus).', [CREATE_I, GET_I], 'scenario'),
  must('P2.alerts.cpu.threshold', ALERTS, 'A cpu alert fires when the two-hour average CPU percent (capacity 100 per core) exceeds the threshold; 0 disables it.', [PUT_I], 'untestable: sustained guest load and alert delivery are not observable from the API', ['long-wait']),
  must('P2.alerts.io.threshold', ALERTS, 'An io alert fires when the two-hour average of disk operations per second exceeds the threshold; 0 disables it.', [PUT_I], 'untestable: sustained guest load and alert delivery are not observable from the API', ['long-wait']),
  must('P2.alerts.network.threshold', ALERTS, 'network_in and network_out alerts fire when the two-hour average Mbit/s exceeds the threshold; 0 disables them.', [PUT_I], 'untestable: sustained guest traffic and alert delivery are not observable from the API', ['long-wait']),
  must('P2.alerts.transfer-quota.threshold', ALERTS, 'A transfer_quota alert fires when the percent of network transfer used exceeds the threshold; 0 disables it.', [PUT_I], 'untestable: transfer usage and alert delivery are not observable from the API', ['long-wait']),
  should('P2.alerts.zero-accepted', ALERTS, 'inferred: 0 (disable) is an accepted value of every alert member in an update.', [PUT_I], 'property'),

  // ---------------------------------------------------------------- Network interface object
  must('P2.interfaces.types', IFACE, 'interfaces is an array of objects with purpose (string), label (string or null) and ipam_address (string or null).', INTERFACES),
  must('P2.interfaces.max-3', IFACE, 'An interfaces array has at most 3 items.', INTERFACES),
  must('P2.interfaces.purpose.required', IFACE, 'Each interface has a purpose.', INTERFACES),
  must('P2.interfaces.purpose.enum', IFACE, 'An interface purpose is `public` or `vlan`.', INTERFACES),
  must('P2.interfaces.label.required-for-vlan', IFACE, 'A `vlan` interface has a label (a string).', INTERFACES),
  must('P2.interfaces.label.min-1', IFACE, 'A vlan interface label has at least 1 character.', INTERFACES),
  must('P2.interfaces.label.max-64', IFACE, 'An interface label has at most 64 characters.', INTERFACES),
  must('P2.interfaces.label.chars', IFACE, 'An interface label contains only ASCII letters, digits and dashes.', INTERFACES),
  must('P2.interfaces.label.unique', IFACE, 'Interface labels are unique among the instance\'s interfaces.', INTERFACES, 'code'),
  must('P2.interfaces.label.empty-for-public', IFACE, 'The label of a `public` interface must be empty or null.', INTERFACES),
  must('P2.interfaces.label.new-creates-vlan', IFACE, 'A vlan interface with a new label creates a VLAN.', INTERFACES, 'scenario'),
  must('P2.interfaces.ipam-address.cidr', IFACE, 'ipam_address, when given, is in CIDR form IP/netmask.', INTERFACES, 'code'),
  must('P2.interfaces.ipam-address.vlan-only', IFACE, 'ipam_address is only for `vlan` interfaces: empty or null for `public`.', INTERFACES),
  must('P2.interfaces.ipam-address.unique', IFACE, 'ipam_address values are unique among the instance\'s interfaces.', INTERFACES, 'code'),
  must('P2.interfaces.public.max-1', IFACE, 'Only one `public` interface per instance.', INTERFACES, 'code'),
  must('P2.interfaces.public.default-ipv4', IFACE, 'The default public IPv4 address goes to the public interface.', INTERFACES, 'untestable: the address assignment of each interface is not shown in any response'),
  must('P2.interfaces.public.eth0-reachable', IFACE, 'An instance is reachable from the internet on boot only if a public interface is in the first (eth0) position; index 0 is eth0, 1 eth1, 2 eth2.', INTERFACES, NO_GUEST),
  must('P2.interfaces.empty-default-public', IFACE, 'An empty interfaces array yields only the default public interface.', INTERFACES, 'scenario'),
  must('P2.interfaces.update-redefines-all', IFACE, 'On update every interface must be redefined: the interfaces given replace the previous ones.', [CFG_PUT], 'scenario'),
  must('P2.interfaces.effective-on-reboot', IFACE, 'Interface changes take effect on reboot; ipam_address is applied on reboot when the network helper is on.', INTERFACES, NO_GUEST),
  must('P2.interfaces.vlan.capable-regions', IFACE, 'VLANs are supported only in VLAN-capable data centers; migrating or cloning an instance with a VLAN to another kind fails.', [...INTERFACES, CLONE_I], 'scenario'),
  must('P2.interfaces.vlan.max-10-per-region', LIMITS, 'There are at most 10 VLANs per region; an interface that would create an eleventh is rejected.', INTERFACES, 'scenario'),

  // ---------------------------------------------------------------- Device map
  must('P2.device-map.types', DEVMAP, 'A device map is an object whose slots sda..sdh are each null or an object with disk_id (integer or null) and/or volume_id (integer or null).', DEVICES),
  must('P2.device-map.slot.one-type', DEVMAP, 'A slot names only one type of device: not both a disk_id and a volume_id.', DEVICES),
  must('P2.config.devices.fullvirt-sda-to-sdd', DEVMAP, 'Slots sde to sdh are unavailable in `fullvirt` mode: a profile created fullvirt, or updated while fullvirt, maps no device there.', [CFG_CREATE, CFG_PUT]),
  must('P2.instance-rescue.devices.sdh-reserved', COMPUTE, 'Rescue takes devices sda to sdg; sdh is reserved and unavailable.', [RESCUE]),

  // ---------------------------------------------------------------- Image (resource)
  should('P2.image.fields', IMAGE, 'inferred: an image as returned has id, label, description and status.', RETURNS_IMAGE),
  must('P2.image.types', IMAGE, "Image fields, when present, have the documented types (id, label, status strings; description string or null; upload_to a string in the upload's answer).", RETURNS_IMAGE),
  must('P2.image.id.prefix', IMAGE, 'An image ID begins with `compute/` (public images) or `private/` (private images); the create instance image is `compute/...` or `private/...`.', [...RETURNS_IMAGE, CREATE_I]),
  must('P2.image.id.private-prefix', IMAGE, 'Images captured or uploaded by the caller are private, so their IDs begin with `private/`.', [IMG_CAPTURE, IMG_UPLOAD], 'scenario'),
  must('P2.image.description.min-1', IMAGE, 'An image description has at least 1 character.', RETURNS_IMAGE),
  must('P2.image.description.max-65000', IMAGE, 'An image description has at most 65000 characters.', RETURNS_IMAGE),
  must('P2.image.status.enum', IMAGE, 'Image status is one of `creating`, `pending_upload`, `available` (returned and in an image update).', RETURNS_IMAGE),
  must('P2.image.upload-to.url', IMAGE, 'upload_to is the (HTTP) URL for the data upload.', [IMG_UPLOAD]),
  must('P2.image.upload-to.returned-on-upload', IMAGES, 'Image upload creates a private image and returns it with upload_to.', [IMG_UPLOAD]),
  must('P2.image.upload.private', IMAGES, 'Image upload creates a private image: the returned id begins with `private/`.', [IMG_UPLOAD]),
  must('P2.image.deploy.available-only', IMAGE_STATUS, 'Only `available` images can be deployed: creating an instance from a `creating` or `pending_upload` image is rejected.', [CREATE_I], 'scenario'),
  must('P2.image.filters', IMAGE, 'Image label is filterable.', [IMG_LIST], 'untestable: the filter request syntax is not shown'),

  // ---------------------------------------------------------------- Image status
  must('P2.image.status.capture-creating', IMAGE_STATUS, 'An image being captured from a disk has status `creating`, and becomes `available` "shortly" (how soon is not shown): a captured image shows `creating`, or `available` once captured, never another status.', [IMG_CAPTURE, IMG_GET], 'scenario'),
  must('P2.image.status.creating-to-available', IMAGE_STATUS, 'A `creating` image becomes `available` shortly.', [IMG_CAPTURE, IMG_GET], 'scenario', ['long-wait']),
  must('P2.image.status.upload-pending', IMAGE_STATUS, 'An uploaded image is `pending_upload` until its data has been uploaded and processed.', [IMG_UPLOAD, IMG_GET], 'scenario'),
  must('P2.image.status.pending-upload-to-available', IMAGE_STATUS, 'A `pending_upload` image becomes `available` once data uploaded within 24 hours is processed.', [IMG_UPLOAD, IMG_GET], 'scenario', ['long-wait']),
  must('P2.image.status.pending-upload-expires', IMAGE_STATUS, 'A `pending_upload` image with no data uploaded after 24 hours is deleted and the upload cancelled.', [IMG_UPLOAD, IMG_GET], 'scenario', ['clock']),

  // ---------------------------------------------------------------- Tag, tagged objects
  must('P2.tag.fields', TAGS, 'Tag create returns `{label}`.', [TAG_CREATE]),
  must('P2.tag.types', TAG, 'A tag label is a string.', [TAG_CREATE]),
  must('P2.tag.label.min-3', TAG, 'A tag label has at least 3 characters on create.', [TAG_CREATE]),
  must('P2.tag.label.max-50', TAG, 'A tag label has at most 50 characters on create.', [TAG_CREATE]),
  should('P2.tagged-objects.kinds', TAGGED, 'Each item of the tagged objects list is a compute instance, a domain, a volume or a load balancer (inferred: with no discriminator documented, the kind is recognised by a member only that kind documents).', [TAG_GET]),
  should('P2.volume.fields', TAGGED, 'inferred: a volume has created, filesystem_path, hardware_type, id, label, compute_id, compute_label, region, size, status, tags and updated.', [TAG_GET, VOLUMES]),
  must('P2.volume.types', TAGGED, 'Volume fields, when present, have the documented types (id, size integers; compute_id integer or null; compute_label string or null; tags array of strings; created, updated date-times).', [TAG_GET, VOLUMES]),
  should('P2.volume.filesystem-path.label', TAGGED, 'inferred: filesystem_path is derived from a fixed prefix and the volume label, so it ends with the label.', [TAG_GET, VOLUMES], 'code'),
  must('P2.volume.hardware-type.enum', TAGGED, 'Volume hardware_type is `hdd` or `nvme`.', [TAG_GET, VOLUMES]),
  should('P2.volume.label.min-1', TAGGED, 'inferred: a volume label has at least 1 character (a bound of the resource table, and the caller never sends a volume here: only returned values are judged).', [TAG_GET, VOLUMES]),
  should('P2.volume.label.max-32', TAGGED, 'inferred: a volume label has at most 32 characters (a bound of the resource table, and the caller never sends a volume here: only returned values are judged).', [TAG_GET, VOLUMES]),
  should('P2.volume.compute-label.attached', TAGGED, 'inferred: compute_label (attached instance label) is null exactly when compute_id (attached instance) is null.', [TAG_GET, VOLUMES], 'code'),
  must('P2.volume.status.enum', VOLUME_STATUS, 'Volume status is one of `creating`, `active`, `resizing`, `contact_support`.', [TAG_GET, VOLUMES]),
  must('P2.volume.filters', TAGGED, 'Volume label and tags are filterable.', [VOLUMES], 'untestable: the filter request syntax is not shown'),
  should('P2.load-balancer.fields', TAGGED, 'inferred: a load balancer has client_conn_throttle, created, hostname, id, ipv4, ipv6, label, region, tags and transfer (in, out, total).', [TAG_GET]),
  must('P2.load-balancer.types', TAGGED, 'Load balancer fields, when present, have the documented types (transfer members numbers or null; ipv6 string or null).', [TAG_GET]),
  must('P2.load-balancer.client-conn-throttle.min-0', TAGGED, 'client_conn_throttle is at least 0 (0 disables throttling).', [TAG_GET]),
  must('P2.load-balancer.client-conn-throttle.max-20', LIMITS, 'client_conn_throttle is at most 20 connections per second.', [TAG_GET]),
  must('P2.load-balancer.hostname.ip-prefix', TAGGED, 'A load balancer hostname begins with its IP address.', [TAG_GET], 'code'),
  must('P2.load-balancer.hostname.fixed-suffix', TAGGED, 'A load balancer hostname ends with a fixed service domain suffix, the same for every load balancer.', [TAG_GET], 'scenario'),
  must('P2.load-balancer.ipv4.format', TAGGED, 'Load balancer ipv4 is a public IPv4 address.', [TAG_GET]),
  must('P2.load-balancer.ipv6.format', TAGGED, 'Load balancer ipv6 is a public IPv6 address or null.', [TAG_GET]),
  should('P2.load-balancer.label.min-3', TAGGED, 'inferred: a load balancer label has at least 3 characters (a bound of the resource table, and the caller never sends a load balancer here: only returned values are judged).', [TAG_GET]),
  should('P2.load-balancer.label.max-32', TAGGED, 'inferred: a load balancer label has at most 32 characters (a bound of the resource table, and the caller never sends a load balancer here: only returned values are judged).', [TAG_GET]),
  must('P2.load-balancer.label.unique', TAGGED, 'A load balancer label is unique on the account.', [TAG_GET], 'untestable: load balancer operations are not in the documents'),
  must('P2.load-balancer.region.backends', TAGGED, 'Load balancer backends must be in the same region as the balancer.', [], 'untestable: load balancer operations are not in the documents'),
  must('P2.load-balancer.filters', TAGGED, 'Load balancer ipv4, region and tags are filterable.', [], 'untestable: the filter request syntax is not shown'),

  // ---------------------------------------------------------------- Compute instance status
  must('P2.instance.status.offline-without-image', INSTANCE_STATUS, 'Instances created without an image stay offline and must be started manually.', [CREATE_I], 'untestable: status values are not shown, and an instance created without an image has no profile it could have booted, so "stays offline" leaves no trace a boot could show (booted false on an image deploy is judged by P2.instance-create.booted.default-true)'),

  // ---------------------------------------------------------------- Compute instances (endpoints)
  must('P2.instances.list.visible', COMPUTE, 'The instances list is the paginated list of instances visible to the caller: a restricted user without a grant on an instance does not see it.', [LIST_I], 'scenario', ['restricted-user', 'grants']),
  must('P2.instances.create.add-computes', COMPUTE, 'Creating an instance needs the `add_computes` grant.', [CREATE_I], 'scenario', ['restricted-user', 'grants']),
  must('P2.instances.create.charge', COMPUTE, 'Creating an instance incurs a charge.', [CREATE_I], 'untestable: billing is not observable within a run', ['destructive']),
  must('P2.instances.update.tags-unrestricted', COMPUTE, 'Changing an instance\'s tags needs an unrestricted user.', [PUT_I], 'scenario', ['restricted-user']),
  must('P2.instances.delete.gone', COMPUTE, 'Deleting an instance is irreversible: it can no longer be viewed.', [DEL_I, GET_I], 'scenario'),
  must('P2.instances.delete.releases', COMPUTE, 'Deleting an instance deletes its disks and configs (its IPs and backups: the two rules below).', [DEL_I], 'untestable: disks are not shown, and the configs of a deleted instance are no longer addressable (its configs list answers for no instance)'),
  must('P2.instances.delete.releases-ips', COMPUTE, 'Deleting an instance releases its IPs: afterwards none of its public IPv4 addresses is among the account\'s addresses (document 3, GET /v4/networking/ips) unless another instance of the account now shows it in ipv4.', [DEL_I, 'GET /v4/networking/ips', LIST_I], 'scenario'),
  must('P2.instances.delete.deletes-backups', COMPUTE, 'Deleting an instance deletes its backups: a backup of the deleted instance can no longer be deployed (a create with its backup_id is refused).', [DEL_I, CREATE_I], 'scenario', ['long-wait']),
  must('P2.instances.delete.billing-stops', COMPUTE, 'Billing stops on deletion; time used in the period is billed.', [DEL_I], 'untestable: billing is not observable within a run', ['destructive']),
  must('P2.backups.snapshot.creates', COMPUTE, 'Snapshot create creates a snapshot backup of the instance.', [BK_CREATE, BK_LIST], 'scenario', ['long-wait']),
  must('P2.backups.snapshot.replaces-previous', COMPUTE, 'Creating a snapshot deletes an existing snapshot of the instance.', [BK_CREATE, BK_LIST], 'scenario', ['long-wait']),
  must('P2.backups.cancel.deletes-all', COMPUTE, 'Cancelling backups cancels the backup service and deletes all existing backups permanently.', [BK_CANCEL, BK_LIST], 'scenario'),
  should('P2.backups.enable.enables', COMPUTE, 'inferred: after backups are enabled, snapshots and the backup schedule are available for the instance.', [BK_ENABLE, BK_CREATE], 'scenario'),
  must('P2.backups.restore.overwrite-true', COMPUTE, 'Restore with overwrite true deletes all disks and configs on the target first.', [BK_RESTORE, CFG_LIST], 'scenario', ['long-wait']),
  should('P2.backups.of-its-instance', COMPUTE, "inferred: a backup is addressed under its own instance's path (resources are addressed by ID in the path): the backup view under another instance's path does not show it, and a restore sent under another instance's path restores nothing of it.", [BK_GET, BK_RESTORE], 'scenario'),
  must('P2.backups.restore.insufficient-space', COMPUTE, 'Restore with overwrite false onto a target with insufficient space returns an insufficient-space error.', [BK_RESTORE], 'scenario', ['long-wait']),
  must('P2.boot.only-profile', COMPUTE, 'Boot without config_id uses the only configuration profile when there is one.', [BOOT], 'scenario'),
  must('P2.boot.last-booted', COMPUTE, 'Boot without config_id uses the last booted profile when there are several.', [BOOT], 'scenario'),
  must('P2.boot.ambiguous-error', COMPUTE, 'Boot without config_id returns an error when several profiles exist and none was last booted (never booted, or it was deleted).', [BOOT, CFG_DEL], 'scenario'),
  should('P2.boot.config-id', COMPUTE, 'inferred: boot with a config_id boots that profile; an unknown config_id (or one of another instance) is rejected.', [BOOT], 'scenario'),
  must('P2.clone.add-computes', COMPUTE, 'Cloning needs the `add_computes` grant.', [CLONE_I], 'scenario', ['restricted-user', 'grants']),
  must('P2.clone.charge', COMPUTE, 'Cloning to a new instance incurs a charge.', [CLONE_I], 'untestable: billing is not observable within a run', ['destructive']),
  must('P2.rescue.boots-recovery', COMPUTE, 'Rescue boots a recovery environment with the given devices.', [RESCUE], NO_GUEST),
  must('P2.resize.no-pending-migration', CONFIG, 'Resize requires that no migration is pending.', [RESIZE], 'untestable: migration operations are not shown'),
  must('P2.resize.no-balance', CONFIG, 'Resize requires no outstanding balance on the account.', [RESIZE], 'untestable: an outstanding balance cannot be arranged safely', ['destructive']),
  must('P2.resize.no-running-actions', CONFIG, 'Resize requires no running or queued actions on the instance.', [RESIZE], 'scenario', ['long-wait']),
  must('P2.resize.disk-allocation', CONFIG, 'Resize requires that the instance\'s disk allocation does not exceed what the new type allows (delete or shrink disks first).', [RESIZE], 'scenario', ['long-wait']),
  must('P2.resize.auto-disk-resize-default', COMPUTE, 'allow_auto_disk_resize defaults to true.', [RESIZE], 'untestable: disk operations and disk sizes are not shown', ['long-wait']),
  must('P2.shutdown.actions-finish', COMPUTE, 'Shutdown waits for running or queued actions to finish first.', [SHUTDOWN], 'untestable: a shutdown accepted during a running action may be queued or refused, and instance status values are not shown, so whether it waited cannot be observed', ['long-wait']),
  must('P2.stats.past-24-hours', COMPUTE, 'Instance statistics cover CPU, IO, IPv4 and IPv6 for the past 24 hours.', [STATS], 'untestable: the statistics object as returned is not shown'),
  must('P2.stats.month.min-1', COMPUTE, 'The statistics month is at least 1.', [STATS_YM], 'scenario'),
  must('P2.stats.month.max-12', COMPUTE, 'The statistics month is at most 12.', [STATS_YM], 'scenario'),
  must('P2.stats.past-or-current', COMPUTE, 'Monthly statistics are for a past month or the current month; a future month is rejected.', [STATS_YM], 'scenario'),
  must('P2.stats.current-month-30-days', COMPUTE, 'For the current month the statistics cover the past 30 days.', [STATS_YM], 'untestable: the statistics object as returned is not shown'),
  must('P2.transfer.current-month', COMPUTE, 'Transfer gives the network transfer pool statistics for the current month.', [TRANSFER], 'untestable: the transfer object as returned is not shown'),
  must('P2.transfer.year.min-2000', LIMITS, 'The transfer statistics year is at least 2000.', [TRANSFER_YM], 'scenario'),
  must('P2.transfer.year.max-2037', LIMITS, 'The transfer statistics year is at most 2037.', [TRANSFER_YM], 'scenario'),
  must('P2.transfer.month.min-1', COMPUTE, 'The transfer statistics month is at least 1.', [TRANSFER_YM], 'scenario'),
  must('P2.transfer.month.max-12', COMPUTE, 'The transfer statistics month is at most 12.', [TRANSFER_YM], 'scenario'),
  must('P2.transfer.past-or-current', COMPUTE, 'Monthly transfer statistics are for a past month or the current month; a future month is rejected.', [TRANSFER_YM], 'scenario'),
  must('P2.volumes.attached', COMPUTE, 'The instance volumes list holds the block storage volumes attached to the instance.', [VOLUMES], 'scenario'),
  should('P2.kernels.view', COMPUTE, 'inferred: every kernel listed can be viewed by its ID.', [KERNELS, KERNEL], 'scenario'),
  must('P2.rebuild.body', COMPUTE, 'An operation takes authorized_keys, authorized_users, booted (default true), image (required), root_pass (7..128, required), script_data and script_id.', [], 'untestable: its method, path and name are not shown'),
  should('P2.path.integer-ids', 'Endpoints', 'inferred: {computeId}, {backupId}, {configId}, {year} and {month} are integers, so a non-integer value is rejected.', [GET_I, BK_GET, CFG_GET, STATS_YM, TRANSFER_YM], 'scenario'),

  // ---------------------------------------------------------------- Create instance body
  must('P2.instance-create.types', CREATE, 'Create instance members have the documented types (strings region, type, label, image, root_pass, group; integers backup_id, script_id, swap_size; booleans booted, backups_enabled, private_ip; arrays of strings authorized_keys, authorized_users, tags; object script_data).', [CREATE_I]),
  must('P2.instance-create.region.required', CREATE, 'region is required.', [CREATE_I]),
  must('P2.instance-create.type.required', CREATE, 'type is required.', [CREATE_I]),
  should('P2.instance-create.type.known', CREATE, 'inferred: type is an instance type ID; an unknown type is rejected.', [CREATE_I], 'scenario'),
  must('P2.instance-create.image.exclusive-backup-id', CREATE, 'image and backup_id are mutually exclusive.', [CREATE_I]),
  must('P2.instance-create.image.private-permission', CREATE, 'Deploying a private image needs read_only or read_write permission on it.', [CREATE_I], 'scenario', ['restricted-user', 'grants']),
  must('P2.instance-create.backup-id.permission', CREATE, 'Creating from backup_id needs read_write on the instance the backup belongs to.', [CREATE_I], 'scenario', ['restricted-user', 'grants']),
  must('P2.instance-create.backup-id.successful', CREATE, 'The backup\'s status must be successful.', [CREATE_I], 'untestable: backups are made by the service and their fields (status) are not shown, so no backup that is not successful can be produced or recognised', ['long-wait']),
  must('P2.instance-create.backup-id.same-region', CREATE, 'An instance created from a backup must be in the same region as the backup.', [CREATE_I], 'scenario', ['long-wait']),
  must('P2.instance-create.backup-id.big-enough', CREATE, 'An instance created from a backup must be big enough for it.', [CREATE_I], 'scenario', ['long-wait']),
  must('P2.instance-create.backup-id.copies', CREATE, 'Disks and root password of an instance created from a backup copy the source (its config: P2.instance-create.backup-id.copies-config).', [CREATE_I], 'untestable: disks are not shown and the root password is not readable', ['long-wait']),
  must('P2.instance-create.backup-id.copies-config', CREATE, 'The config of an instance created from a backup copies the source: it has as many configuration profiles as the source had when the backup was taken.', [CREATE_I, CFG_LIST], 'scenario', ['long-wait']),
  must('P2.instance-create.root-pass.required-with-image', CREATE, 'root_pass is required when deploying from an image, including with a script.', [CREATE_I]),
  must('P2.instance-create.root-pass.min-7', CREATE, 'root_pass has at least 7 characters.', [CREATE_I]),
  must('P2.instance-create.root-pass.max-128', CREATE, 'root_pass has at most 128 characters.', [CREATE_I]),
  must('P2.instance-create.root-pass.strength', CREATE, 'root_pass must meet an internally calculated strength score, or the error says the password does not meet the strength requirement.', [CREATE_I], 'scenario'),
  must('P2.instance-create.authorized-keys.appended', CREATE, 'authorized_keys and the SSH keys of authorized_users are appended for root when deploying from an image.', [CREATE_I], NO_GUEST),
  must('P2.instance-create.script-id.requires-image', CREATE, 'Deploying from a deployment script needs an image (and so root_pass).', [CREATE_I]),
  must('P2.instance-create.script-id.compatible-image', CREATE, 'script_id needs an image compatible with the script.', [CREATE_I], 'untestable: no documented endpoint lists or creates deployment scripts, so no script id and its compatible images can be known'),
  must('P2.instance-create.script-id.exclusive-backup-id', CREATE, 'script_id cannot be used with a backup.', [CREATE_I]),
  must('P2.instance-create.script-id.not-private-image', CREATE, 'script_id cannot be used with a private image.', [CREATE_I]),
  must('P2.instance-create.script-data.when-needed', CREATE, 'script_data (valid JSON) is required when the script needs input.', [CREATE_I], 'untestable: no documented endpoint lists or creates deployment scripts, so no script that needs input can be known'),
  must('P2.instance-create.swap-size.default-512', LIMITS, 'swap_size defaults to 512 and is used only when deploying from an image (a default config with two disks, one the swap disk).', [CREATE_I], 'untestable: disks and configs as returned are not shown'),
  must('P2.instance-create.booted.default-true', CREATE, 'booted defaults to true when created with an image or backup; false keeps the instance offline. Status values are not shown, so it is judged by the boot rules: deployed with booted false the instance never booted (with a second profile added, a boot without config_id is an error); deployed by default it booted its one profile, the default config of an image or the one a backup holds (after a shutdown, with a second profile added, a boot without config_id uses that one).', [CREATE_I, BOOT], 'scenario'),
  must('P2.instance-create.image.default-config', CREATE, 'An instance deployed from an image gets a default config: its configuration profiles list holds exactly one profile.', [CREATE_I, CFG_LIST], 'scenario'),
  must('P2.instance-create.image.two-disks', CREATE, 'An instance deployed from an image gets a default config with two disks: where its one profile\'s device map shows disk ids (the fields of a profile as returned are not shown), it maps two distinct disks.', [CREATE_I, CFG_LIST], 'scenario'),
  must('P2.instance-create.empty.no-configs', CREATE, 'An instance created empty (no image, no backup) has its disks and configs "created manually": its configuration profiles list is empty.', [CREATE_I, CFG_LIST], 'scenario'),
  must('P2.instance-create.backups-enabled.enrols', CREATE, 'backups_enabled true enrols the new instance in the paid backup service: like an instance whose backups were enabled, it shows backups.schedule.day `Scheduling` (until a day is chosen) or a weekday, not null. When the enrolment shows (as the create answers or once the instance is provisioned) is not shown: it is read while a short time passes.', [CREATE_I, GET_I], 'scenario'),
  must('P2.instance-create.backups-enabled.account-setting', CREATE, 'backups_enabled is always treated true if the account-wide setting is true.', [CREATE_I], 'untestable: the account settings operations are not shown', ['destructive']),
  must('P2.instance-create.private-ip', CREATE, 'private_ip true enables private networking and adds a private IPv4 address to ipv4.', [CREATE_I, GET_I], 'scenario'),
  must('P2.instance-create.tags-shown', CREATE, 'Tags given at create are the new instance\'s tags (an unrestricted user adds them).', [CREATE_I], 'scenario'),
  must('P2.instance-create.tags-unrestricted', CREATE, 'Only unrestricted users may add or modify tags (a restricted user creating with tags is rejected).', [CREATE_I], 'scenario', ['restricted-user']),
  must('P2.instance-create.vlan-mode', CREATE, 'An instance created with a vlan interface is attached to that private VLAN.', [CREATE_I], 'scenario'),
  must('P2.instance-create.mail-ports', CREATE, 'Outbound connections on ports 25, 465 and 587 are restricted for accounts created after 5 November 2019.', [CREATE_I], NO_GUEST),

  // ---------------------------------------------------------------- Update instance body
  // The update body's members are the instance's fields of the same names: an update sets them.
  must('P2.instance-update.label.sets', UPDATE, 'An instance update with label sets the instance\'s label: the next view shows the label sent.', [PUT_I, GET_I], 'scenario'),
  must('P2.instance-update.alerts.sets', UPDATE, 'An instance update with alerts sets those thresholds (members as in alert semantics; the instance\'s alerts "see update rules"): the next view shows each alerts member sent.', [PUT_I, GET_I], 'scenario'),
  must('P2.instance-update.watchdog-enabled.sets', UPDATE, 'An instance update with watchdog_enabled sets it: the next view shows the value sent.', [PUT_I, GET_I], 'scenario'),
  must('P2.instance-update.tags.sets', UPDATE, 'An instance update with tags changes the instance\'s tags (an unrestricted user): each tag sent is among the tags the next view shows.', [PUT_I, GET_I], 'scenario'),
  should('P2.instance-update.omitted-unchanged', UPDATE, 'inferred from "all optional": a member the instance update leaves out keeps its value (an update is no replacement: one naming only label leaves tags, watchdog_enabled, alerts and group as they were).', [PUT_I, GET_I], 'scenario'),
  must('P2.instance-update.types', UPDATE, 'Update instance members have the documented types (alerts members integers; backups.schedule day and window strings; group, label strings; tags array of strings; watchdog_enabled boolean); all are optional.', [PUT_I]),

  // ---------------------------------------------------------------- Clone body
  must('P2.instance-clone.types', CLONE, 'Clone members have the documented types (configs and disks arrays of integers; compute_id integer; backups_enabled boolean; group, label, region, type strings).', [CLONE_I]),
  must('P2.instance-clone.region.required-for-new', CLONE, 'region is required when cloning to a new instance (no compute_id).', [CLONE_I]),
  must('P2.instance-clone.type.required-for-new', CLONE, 'type is required when cloning to a new instance (no compute_id).', [CLONE_I]),
  must('P2.instance-clone.region.not-with-compute-id', CLONE, 'region is not allowed when cloning to an existing instance (compute_id).', [CLONE_I]),
  must('P2.instance-clone.type.not-with-compute-id', CLONE, 'type is not allowed when cloning to an existing instance (compute_id).', [CLONE_I]),
  must('P2.instance-clone.label.new-instance-only', CLONE, 'label is only for a new instance. Unlike region and type ("otherwise not allowed"), a label sent with compute_id may be refused or ignored; either way it never renames the existing target.', [CLONE_I], 'scenario'),
  must('P2.instance-clone.backups-enabled.enrols', CLONE, 'backups_enabled true on a clone to a new instance enrols the new instance in the backup service (as on create): it shows backups.schedule.day `Scheduling` or a weekday, not null. Whether that shows when the clone is accepted or once it completes is not shown: it is read while the clone may run.', [CLONE_I, GET_I], 'scenario', ['long-wait']),
  must('P2.instance-clone.backups-enabled.new-instance-only', CLONE, 'backups_enabled is only for cloning to a new instance (sent with compute_id it may be refused or ignored: not "otherwise not allowed" like region and type).', [CLONE_I], 'untestable: no documented member shows that an instance is not enrolled in the backup service (an enrolled one shows a schedule day, but what one not enrolled shows is not shown), so applying the member to an existing target cannot be told from ignoring it'),
  must('P2.clone.region.as-requested', CLONE, 'A clone to a new instance is made in the region requested (region is required for it): the new instance shows that region. Its type is not shown, so only the region is judged.', [CLONE_I, GET_I], 'scenario'),
  must('P2.clone.label.default', CLONE, 'A default label applies to a new clone when label is omitted.', [CLONE_I], 'scenario'),
  must('P2.clone.configs.absent-all', CLONE, 'With configs absent all configs and their disks are cloned.', [CLONE_I, CFG_LIST], 'scenario', ['long-wait']),
  must('P2.clone.configs.empty-none', CLONE, 'With configs empty no configs are cloned.', [CLONE_I, CFG_LIST], 'scenario', ['long-wait']),
  must('P2.clone.configs.listed', CLONE, 'With configs non-empty those configs and their disks are cloned.', [CLONE_I, CFG_LIST], 'scenario', ['long-wait']),
  must('P2.clone.disks.extra', CLONE, 'disks lists extra disks cloned in addition to config disks; absent or empty: no extra disks.', [CLONE_I], 'untestable: disk operations are not shown', ['long-wait']),
  must('P2.clone.compute-id.enough-resources', CLONE, 'An existing target instance must have enough resources.', [CLONE_I], 'scenario', ['long-wait']),
  must('P2.clone.compute-id.actions-complete', CLONE, 'The target instance\'s running or queued actions must complete first.', [CLONE_I], 'scenario', ['long-wait']),
  must('P2.clone.tags-copied', CLONE, 'Tags on the source are copied to the target.', [CLONE_I, GET_I], 'scenario', ['long-wait']),
  must('P2.clone.max-5-concurrent', CLONE, 'At most 5 clone operations from one source run concurrently; more returns HTTP 400.', [CLONE_I], 'scenario', ['long-wait']),

  // ---------------------------------------------------------------- Configuration profile body
  must('P2.config-create.types', CONFIG, 'Configuration profile members have the documented types (label, kernel, root_device, run_level, virt_mode strings; comments string or null; helpers members booleans; memory_limit integer; devices a device map; interfaces an array).', [CFG_CREATE]),
  must('P2.config-update.types', CONFIG, 'Configuration profile update members have the documented types; no field is required.', [CFG_PUT]),
  must('P2.config-create.label.required', CONFIG, 'label is required on create.', [CFG_CREATE]),
  must('P2.config-create.devices.required', CONFIG, 'devices is required on create (it may be empty).', [CFG_CREATE]),
  must('P2.config.label.min-1', CONFIG, 'A configuration profile label has at least 1 character.', CONFIG_BODY),
  must('P2.config.label.max-48', LIMITS, 'A configuration profile label has at most 48 characters.', CONFIG_BODY),
  must('P2.config.run-level.enum', CONFIG, 'run_level is `default`, `single` or `binbash`.', CONFIG_BODY),
  must('P2.config.virt-mode.enum', CONFIG, 'virt_mode is `paravirt` or `fullvirt`.', [CFG_CREATE]),
  must('P2.config.update.nothing-required', CONFIG, 'No field of a configuration profile update is required: an update with any single field is accepted.', [CFG_PUT], 'property'),
  must('P2.config.devices.empty-holds-boot', CONFIG, 'With no devices, boot holds until a device exists.', [CFG_CREATE, BOOT], NO_STATUS_VALUES),
  must('P2.config.kernel.default-latest-64', CONFIG, 'kernel defaults to the latest 64-bit kernel.', [CFG_CREATE], 'untestable: the kernel fields (its version, whether it is 64-bit) are not shown, so which kernel is the latest 64-bit one cannot be told'),
  should('P2.config.kernel.known', CONFIG, 'inferred: kernel is a kernel ID (one GET /v4/compute/kernels lists), so an unknown kernel is rejected on profile create and update.', CONFIG_BODY, 'scenario'),
  must('P2.config.memory-limit.default-total', CONFIG, 'memory_limit defaults to the total RAM of the instance.', [CFG_CREATE], 'untestable: the profile as returned is not shown, and a shown memory_limit may stand for the total RAM by a value other than specs.memory (0, no limit), so the default cannot be told from the view'),
  must('P2.config.root-device.default-sda', CONFIG, 'root_device defaults to /dev/sda when absent or invalid: a profile create with an invalid root_device is not refused, and a profile view that shows root_device shows /dev/sda for a profile created without one or with an invalid one (the profile as returned is not shown: a view without the member, or showing it null, is not judged).', [CFG_CREATE, CFG_GET], 'scenario'),
  must('P2.config.root-device.nothing-mounted', CONFIG, 'If nothing is mounted at root_device the instance does not boot.', [CFG_CREATE, BOOT], NO_STATUS_VALUES),
  must('P2.config.run-level.default', CONFIG, 'run_level defaults to `default`: a profile created without it, when its view shows run_level, shows `default` (a view without the member, or showing it null, is not judged).', [CFG_CREATE, CFG_GET], 'scenario'),
  must('P2.config.virt-mode.default', CONFIG, 'virt_mode defaults to `paravirt`: a profile created without it, when its view shows virt_mode, shows `paravirt` (a view without the member, or showing it null, is not judged), and takes a disk in slot sde (unavailable in `fullvirt` mode).', [CFG_CREATE, CFG_GET], 'scenario'),
  must('P2.config.helpers.devtmpfs-default', CONFIG, 'helpers.devtmpfs_automount defaults to false: a profile created without helpers, when its view shows helpers.devtmpfs_automount, shows false (a view without the member, or showing it null, is not judged).', [CFG_CREATE, CFG_GET], 'scenario'),
  must('P2.config.listed', CONFIG, 'A created configuration profile can be viewed and appears in the profiles list; a deleted one (DELETE configs/{configId}) can no longer be viewed and is no longer listed.', [CFG_CREATE, CFG_LIST, CFG_GET, CFG_DEL], 'scenario'),

  // ---------------------------------------------------------------- Other request bodies
  must('P2.instance-snapshot-create.types', COMPUTE, 'The snapshot label is a string.', [BK_CREATE]),
  must('P2.instance-snapshot-create.label.required', COMPUTE, 'The snapshot label is required.', [BK_CREATE]),
  must('P2.instance-snapshot-create.label.min-1', COMPUTE, 'The snapshot label has at least 1 character.', [BK_CREATE]),
  must('P2.instance-snapshot-create.label.max-255', LIMITS, 'The snapshot label has at most 255 characters.', [BK_CREATE]),
  must('P2.backup-restore.types', COMPUTE, 'Restore compute_id is an integer and overwrite a boolean.', [BK_RESTORE]),
  must('P2.backup-restore.compute-id.required', COMPUTE, 'Restore compute_id (the target) is required.', [BK_RESTORE]),
  must('P2.instance-boot.types', COMPUTE, 'Boot config_id is an integer.', [BOOT]),
  must('P2.instance-rescue.types', COMPUTE, 'Rescue devices is a device map.', [RESCUE]),
  must('P2.instance-resize.types', COMPUTE, 'Resize type is a string and allow_auto_disk_resize a boolean.', [RESIZE]),
  must('P2.instance-resize.type.required', COMPUTE, 'Resize type is required.', [RESIZE]),

  // ---------------------------------------------------------------- Images (endpoints and bodies)
  must('P2.images.list.public-without-auth', IMAGES, 'Without authentication the images list holds only public images.', [IMG_LIST], 'scenario'),
  must('P2.images.list.private-with-auth', IMAGES, 'With authentication the images list holds private images too.', [IMG_LIST], 'scenario'),
  must('P2.images.view.public-without-auth', IMAGES, 'A public image can be viewed with or without authentication.', [IMG_GET], 'scenario'),
  must('P2.images.view.private-needs-auth', IMAGES, 'A private image can be viewed only with authentication.', [IMG_GET], 'scenario'),
  must('P2.images.capture.private', IMAGES, 'Image capture creates a private image from a disk.', [IMG_CAPTURE], 'scenario', ['long-wait']),
  must('P2.images.capture.label-default', IMAGES, 'The captured image label defaults to the disk\'s label.', [IMG_CAPTURE], 'untestable: disks are not shown'),
  must('P2.images.update.private-only', IMAGES, 'Only private images can be updated.', [IMG_PUT], 'scenario'),
  must('P2.images.delete.private-only', IMAGES, 'Only private images can be deleted.', [IMG_DEL], 'scenario'),
  must('P2.images.delete.gone', IMAGES, 'Deleting an image is irreversible: it can no longer be viewed, nor deployed (only available images can be).', [IMG_DEL, IMG_GET, CREATE_I], 'scenario'),
  must('P2.images.upload.put-octet-stream', IMAGES, 'Image data goes by HTTP PUT to upload_to with header Content-type: application/octet-stream.', [IMG_UPLOAD], 'scenario', ['long-wait']),
  must('P2.images.upload.gzip', IMAGES, 'Uploaded image data must be gzip-compressed and its uncompressed content a raw disk image.', [IMG_UPLOAD], 'scenario', ['long-wait']),
  must('P2.images.upload.max-5gb', LIMITS, 'The compressed upload is at most 5 GB.', [IMG_UPLOAD], 'untestable: needs an upload of more than 5 GB', ['long-wait']),
  must('P2.images.upload.any-region', IMAGES, 'Once uploaded the image can be used in any region.', [IMG_UPLOAD, CREATE_I], 'scenario', ['long-wait']),
  must('P2.image-capture.types', IMAGES, 'Capture disk_id is an integer; label and description strings.', [IMG_CAPTURE]),
  must('P2.image-capture.disk-id.required', IMAGES, 'Capture disk_id is required.', [IMG_CAPTURE]),
  must('P2.image-upload.types', IMAGES, 'Upload label, region and description are strings.', [IMG_UPLOAD]),
  must('P2.image-upload.label.required', IMAGES, 'Upload label is required.', [IMG_UPLOAD]),
  must('P2.image-upload.region.required', IMAGES, 'Upload region is required.', [IMG_UPLOAD]),
  must('P2.image-update.types', IMAGES, 'Image update description is a string or null, label a string, status a string.', [IMG_PUT]),

  // ---------------------------------------------------------------- Tags (endpoints and body)
  must('P2.tag-create.types', TAGS, 'Tag create label is a string; domains, computes, balancers and volumes are arrays of integer IDs.', [TAG_CREATE]),
  must('P2.tag-create.label.required', TAGS, 'Tag create label is required.', [TAG_CREATE]),
  must('P2.tags.create.tags-objects', TAGS, 'Tag create tags the listed objects (they then carry the tag and appear in the tagged objects list).', [TAG_CREATE, TAG_GET, GET_I], 'scenario'),
  must('P2.tags.create.returns-label', TAGS, 'Tag create returns `{label}`: the label of the tag it created, the one sent.', [TAG_CREATE], 'scenario'),
  must('P2.tags.create.all-or-nothing', TAGS, 'The caller needs read_write on all listed objects, or the tag is not created and an error returns.', [TAG_CREATE, TAG_GET], 'scenario', ['restricted-user', 'grants']),
  must('P2.tags.delete.returns-empty', TAGS, 'Tag delete returns `{}` (checked against schemas/common/empty.json).', [TAG_DEL], 'scenario'),
  must('P2.tags.delete.removes-everywhere', TAGS, 'Tag delete removes the tag from all objects and deletes it.', [TAG_DEL, GET_I, TAG_GET], 'scenario'),
  must('P2.tags.view.mixed-list', TAGS, 'The tagged objects list is a paginated `{data: [...]}` list mixing the tagged instances, domains, volumes and load balancers.', [TAG_GET], 'scenario'),
  should('P2.tags.instance-update.tags-replaced', UPDATE, 'inferred: tags given in an instance update become the instance\'s tags.', [PUT_I, GET_I], 'scenario'),
];
