// Samples and cases of document 2 (compute instances, images, tags). Samples hold every optional member;
// cases are data: documented values that validate, and values that break exactly one named rule.

type Json = Record<string, unknown>;
type Case = { schema: string; value: unknown; valid: true; note: string } | { schema: string; value: unknown; rule: string; note: string };

const slot = (disk: number | null, volume: number | null) => ({ disk_id: disk, volume_id: volume });

const instance: Json = {
  alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
  backups: { schedule: { day: 'Saturday', window: 'W10' } },
  created: '2018-01-01T00:01:01',
  group: 'Web',
  hypervisor: 'kvm',
  id: 123,
  image: 'compute/debian9',
  ipv4: ['203.0.113.1', '192.0.2.1'],
  ipv6: 'c001:d00d::1337/128',
  label: 'compute123',
  region: 'us-east',
  specs: { disk: 81920, memory: 4096, transfer: 4000, vcpus: 2 },
  status: 'running',
  tags: ['example tag', 'another example'],
  watchdog_enabled: true,
};
const image: Json = {
  id: 'private/15',
  label: 'Debian 9 capture',
  description: 'Example image description.',
  status: 'available',
  upload_to: 'https://upload.example.com/images/private-15',
};
const volume: Json = {
  created: '2018-01-01T00:01:01',
  filesystem_path: '/dev/disk/by-id/scsi-0Volume_my-volume',
  hardware_type: 'nvme',
  id: 12345,
  label: 'my-volume',
  compute_id: 123,
  compute_label: 'compute123',
  region: 'us-east',
  size: 30,
  status: 'active',
  tags: ['example tag'],
  updated: '2018-01-01T00:01:01',
};
const balancer: Json = {
  client_conn_throttle: 5,
  created: '2018-01-01T00:01:01',
  hostname: '192-0-2-1.ip.balancer.example.net',
  id: 10,
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  label: 'balancer12345',
  region: 'us-east',
  tags: ['example tag'],
  transfer: { in: 28.91, out: 3.28, total: 32.19 },
};
const domain: Json = {
  axfr_ips: [],
  description: 'Example domain',
  domain: 'example.org',
  expire_sec: 300,
  group: 'Example',
  id: 1234,
  master_ips: [],
  refresh_sec: 300,
  retry_sec: 300,
  soa_email: 'admin@example.org',
  status: 'active',
  tags: ['example tag'],
  ttl_sec: 300,
  type: 'master',
};
const vlan = { purpose: 'vlan', label: 'vlan-1', ipam_address: '10.0.0.1/24' };
const pub = { purpose: 'public', label: null, ipam_address: null };
const interfaces = [vlan, pub];
const devices = {
  sda: slot(124458, null),
  sdb: slot(null, 3),
  sdc: slot(124459, null),
  sdd: null,
  sde: slot(124460, null),
  sdf: slot(null, 4),
  sdg: null,
  sdh: slot(124461, null),
};
const instanceCreate: Json = {
  region: 'us-east',
  type: 'g6-standard-2',
  label: 'compute123',
  image: 'compute/debian9',
  root_pass: 'aComplexP@ssword',
  authorized_keys: ['ssh-rsa AAAA_valid_public_ssh_key_123456785== user@their-computer'],
  authorized_users: ['myUser', 'secondaryUser'],
  script_id: 10079,
  script_data: { gh_username: 'example' },
  swap_size: 512,
  booted: true,
  backups_enabled: true,
  private_ip: true,
  interfaces,
  group: 'Web',
  tags: ['example tag'],
};
const fromBackup: Json = {
  region: 'us-east',
  type: 'g6-standard-2',
  label: 'restored-01',
  backup_id: 1234,
  booted: false,
  backups_enabled: false,
  private_ip: false,
  interfaces: [pub],
  group: 'Web',
  tags: ['example tag'],
};
const configCreate: Json = {
  label: 'My Config',
  devices,
  comments: 'This is my main Config',
  helpers: { devtmpfs_automount: false, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
  interfaces,
  kernel: 'compute/latest-64bit',
  memory_limit: 2048,
  root_device: '/dev/sda',
  run_level: 'default',
  virt_mode: 'paravirt',
};
const { virt_mode: _virtMode, ...configUpdate } = configCreate;
const cloneNew: Json = {
  backups_enabled: true,
  configs: [23456],
  disks: [25674],
  group: 'Web',
  label: 'cloned-compute123',
  region: 'us-east',
  type: 'g6-standard-2',
};
const cloneExisting: Json = { compute_id: 124, configs: [23456], disks: [25674], group: 'Web' };

export const samples: Record<string, unknown[]> = {
  'resources/compute-instance': [
    instance,
    { ...instance, backups: { schedule: { day: 'Scheduling', window: 'Scheduling' } }, image: null, ipv6: null, label: 'web_server.01', ipv4: ['203.0.113.1'] },
  ],
  'resources/image': [image, { id: 'compute/debian11', label: 'Debian 11', description: null, status: 'creating' }],
  // upload_to on the image, beside it, or in it under `image`: where it sits is not shown
  'resources/image-upload': [
    { ...image, status: 'pending_upload' },
    { image: { ...(({ upload_to: _u, ...rest }) => rest)(image), status: 'pending_upload' }, upload_to: image.upload_to },
    { image: { ...image, status: 'pending_upload' } },
  ],
  'resources/tag': [{ label: 'example tag' }],
  'resources/volume': [volume, { ...volume, compute_id: null, compute_label: null, hardware_type: 'hdd', status: 'creating' }],
  'resources/load-balancer': [
    balancer,
    { ...balancer, hostname: '192.0.2.1.balancer.example.net', ipv6: null, transfer: { in: null, out: null, total: null } },
  ],
  'resources/tagged-object': [instance, domain, volume, balancer],
  'requests/interfaces': [interfaces],
  'requests/device-map': [devices],
  'requests/instance-create': [instanceCreate, fromBackup],
  'requests/instance-update': [
    {
      alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
      backups: { schedule: { day: 'Saturday', window: 'W22' } },
      group: 'Web',
      label: 'compute123',
      tags: ['example tag'],
      watchdog_enabled: true,
    },
  ],
  'requests/instance-clone': [cloneNew, cloneExisting],
  'requests/instance-snapshot-create': [{ label: 'SnapshotLabel' }],
  'requests/backup-restore': [{ compute_id: 123, overwrite: true }],
  'requests/instance-boot': [{ config_id: 140 }],
  'requests/instance-rescue': [{ devices: { ...devices, sdh: null } }],
  'requests/instance-resize': [{ type: 'g6-standard-4', allow_auto_disk_resize: true }],
  'requests/config-create': [configCreate, { ...configCreate, virt_mode: 'fullvirt', devices: { ...devices, sde: null, sdf: null, sdg: null, sdh: null } }],
  'requests/config-update': [configUpdate],
  'requests/image-capture': [{ disk_id: 42, label: 'Debian 9 capture', description: 'My image.' }],
  'requests/image-upload': [{ label: 'Uploaded image', region: 'us-east', description: 'Raw disk, gzip-compressed.' }],
  'requests/image-update': [
    { description: 'Updated description.', label: 'Renamed image', status: 'available' },
    { description: null, label: 'Renamed image' },
  ],
  'requests/tag-create': [{ label: 'example tag', domains: [564], computes: [123, 456], balancers: [7], volumes: [9] }],
};

const ok = (schema: string, value: unknown, note: string): Case => ({ schema, value, valid: true, note });
const bad = (schema: string, value: unknown, rule: string, note: string): Case => ({ schema, value, rule, note });
const without = (value: Json, key: string): Json => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

const I = 'resources/compute-instance';
const inst = (over: Json) => ({ ...instance, ...over });
const schedule = (day: unknown, window: unknown) => ({ backups: { schedule: { day, window } } });
const IMG = 'resources/image';
const VOL = 'resources/volume';
const LB = 'resources/load-balancer';
const TO = 'resources/tagged-object';
const IF = 'requests/interfaces';
const DM = 'requests/device-map';
const IC = 'requests/instance-create';
const create = (over: Json) => ({ region: 'us-east', type: 'g6-standard-2', ...over });
const CL = 'requests/instance-clone';
const CC = 'requests/config-create';

export const cases: Case[] = [
  bad(
    'resources/image-upload',
    { id: 'private/16', label: 'upload', description: null, status: 'pending_upload' },
    'P2.image.upload-to.returned-on-upload',
    'upload answer without upload_to',
  ),
  bad(
    'resources/image-upload',
    { ...image, id: 'compute/debian12', status: 'pending_upload' },
    'P2.image.upload.private',
    'upload answer with a public image id',
  ),
  bad(
    'resources/image-upload',
    { image: { id: 'private/16', label: 'upload', description: null, status: 'pending_upload' } },
    'P2.image.upload-to.returned-on-upload',
    'image under `image`, upload_to nowhere',
  ),
  bad(
    'resources/image-upload',
    { image: { ...image, id: 'compute/debian12', status: 'pending_upload' } },
    'P2.image.upload.private',
    'image under `image` with a public id',
  ),
  bad(
    'resources/image-upload',
    { image: { ...image, status: 'pending_upload' }, upload_to: '/upload/16' },
    'P2.image.upload-to.url',
    'upload_to beside the image, not a URL',
  ),
  bad('resources/image-upload', { ...image, upload_to: 'ftp://upload.example.com/x' }, 'P2.image.upload-to.url', 'upload_to not HTTP'),
  bad('resources/image-upload', { ...image, upload_to: 'not a url' }, 'P2.image.upload-to.url', 'upload_to not a URL'),
  bad('resources/image-upload', { ...image, upload_to: null }, 'P2.image.types', 'upload_to null in the upload answer'),
  bad('resources/image-upload', { image: { ...image, upload_to: 'not a url' } }, 'P2.image.upload-to.url', 'upload_to in the image under `image`, not a URL'),
  ok(
    'resources/image-upload',
    { image: { ...image, upload_to: null }, upload_to: image.upload_to },
    'upload_to beside the image, the image showing its own as null (as any image may)',
  ),
  // ---- compute instance
  ok(I, inst({ image: 'compute/debian9' }), 'public image ID compute/… as shown'),
  ok(I, inst({ image: 'private/1234' }), 'private image ID private/…'),
  ok(I, inst({ image: null }), 'image null: created without an image'),
  ok(I, inst(schedule('Sunday', 'W10')), 'window W10 (10:00 to 12:00 UTC)'),
  ok(I, inst(schedule(null, null)), 'schedule day and window null'),
  ok(I, inst(schedule('Scheduling', 'W0')), 'Scheduling until a day is chosen'),
  ok(I, inst({ created: '2018-01-01T00:01:01' }), 'zone-less date-time as in the samples'),
  ok(I, inst({ ipv6: '2001:db8::f03c:91ff:fe24:3a2f' }), 'ipv6 without a prefix length'),
  ok(I, inst({ ipv6: 'c001:d00d::1337/128' }), 'ipv6 with a /128 suffix'),
  ok(I, inst({ label: 'a-b_c.d' }), 'label with each separator once'),
  ok(I, inst({ label: 'ABC' }), 'label of exactly 3 alphanumerics'),
  bad(I, inst({ label: 'ab' }), 'P2.instance.label.min-3', 'label of 2 characters'),
  bad(I, inst({ label: 'a'.repeat(65) }), 'P2.instance.label.max-64', 'label of 65 characters'),
  ok(I, inst({ label: 'zürich-wéb-1' }), 'Unicode letters are alphanumerics too (ASCII is not said)'),
  bad(I, inst({ label: 'web server' }), 'P2.instance.label.chars', 'space in a label'),
  bad(I, inst({ label: 'web!' }), 'P2.instance.label.chars', 'punctuation other than - _ . (also at the end: reported as chars)'),
  bad(I, inst({ label: 'web-' }), 'P2.instance.label.begin-end-alphanumeric', 'label ending with a dash'),
  bad(I, inst({ label: '_web' }), 'P2.instance.label.begin-end-alphanumeric', 'label beginning with an underscore'),
  bad(I, inst({ label: '.web01' }), 'P2.instance.label.begin-end-alphanumeric', 'label beginning with a period'),
  bad(I, inst({ label: 'web--01' }), 'P2.instance.label.no-doubled-separators', 'two dashes in a row'),
  bad(I, inst({ label: 'web..01' }), 'P2.instance.label.no-doubled-separators', 'two periods in a row'),
  bad(I, inst({ label: 'web__01' }), 'P2.instance.label.no-doubled-separators', 'two underscores in a row'),
  ok(I, inst({ label: 'web-_01' }), 'dash then underscore: ambiguous in the document, so not judged'),
  ok(I, inst({ label: 'web._01' }), 'period then underscore: ambiguous in the document, so not judged'),
  bad(I, inst({ hypervisor: 'xen' }), 'P2.instance.hypervisor.enum', 'hypervisor other than kvm'),
  bad(I, inst(schedule('Someday', 'W10')), 'P2.instance.backups.schedule.day.enum', 'unknown day'),
  bad(I, inst(schedule('sunday', 'W10')), 'P2.instance.backups.schedule.day.enum', 'day is case-sensitive'),
  bad(I, inst(schedule('Sunday', 'W1')), 'P2.instance.backups.schedule.window.enum', 'odd window hour'),
  bad(I, inst(schedule('Sunday', 'W24')), 'P2.instance.backups.schedule.window.enum', 'window W24'),
  bad(I, inst({ image: 'debian9' }), 'P2.instance.image.image-id', 'image without compute/ or private/'),
  bad(I, inst({ ipv4: ['203.0.113.300'] }), 'P2.instance.ipv4.format', 'not an IPv4 address'),
  bad(I, inst({ ipv4: ['2001:db8::1'] }), 'P2.instance.ipv4.format', 'IPv6 in ipv4'),
  bad(I, inst({ ipv6: '192.0.2.1' }), 'P2.instance.ipv6.format', 'IPv4 in ipv6'),
  bad(I, inst({ ipv6: '2001:db8::1/129' }), 'P2.instance.ipv6.format', 'prefix length above 128'),
  bad(I, without(instance, 'label'), 'P2.instance.fields', 'label missing'),
  bad(I, inst({ backups: { schedule: { day: 'Sunday' } } }), 'P2.instance.fields', 'schedule.window missing'),
  bad(I, inst({ specs: { disk: 81920, memory: 4096, transfer: 4000, vcpus: '2' } }), 'P2.instance.types', 'specs.vcpus not an integer'),
  bad(I, inst({ watchdog_enabled: 'yes' }), 'P2.instance.types', 'watchdog_enabled not a boolean'),
  bad(I, inst({ alerts: { cpu: 90.5, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 } }), 'P2.instance.types', 'alerts.cpu not an integer'),

  // ---- image
  ok(IMG, { ...image, id: 'compute/debian9' }, 'public image ID compute/…'),
  ok(IMG, { ...image, id: 'private/15' }, 'private image ID private/…'),
  ok(IMG, { ...image, description: null }, 'description null'),
  ok(IMG, without(image, 'upload_to'), 'upload_to absent outside the upload response'),
  ok(IMG, { ...image, upload_to: null }, 'upload_to null outside the upload response (not shown)'),
  ok(IMG, { ...image, upload_to: '/upload/15' }, 'a stale or relative upload_to outside the upload response (not shown)'),
  ok(IMG, { ...image, status: 'pending_upload' }, 'status pending_upload'),
  bad(IMG, { ...image, id: 'linode/debian9' }, 'P2.image.id.prefix', 'ID with another prefix'),
  bad(IMG, { ...image, id: 'private/' }, 'P2.image.id.prefix', 'prefix alone'),
  bad(IMG, { ...image, description: '' }, 'P2.image.description.min-1', 'empty description'),
  bad(IMG, { ...image, description: 'd'.repeat(65001) }, 'P2.image.description.max-65000', 'description of 65001 characters'),
  bad(IMG, { ...image, status: 'deleted' }, 'P2.image.status.enum', 'unknown status'),
  bad(IMG, without(image, 'status'), 'P2.image.fields', 'status missing'),

  // ---- tag
  ok('resources/tag', { label: 'abc' }, 'tag label of 3 characters'),
  bad('resources/tag', { label: 'ab' }, 'P2.tag.label.min-3', 'tag label of 2 characters'),
  bad('resources/tag', { label: 't'.repeat(51) }, 'P2.tag.label.max-50', 'tag label of 51 characters'),
  bad('resources/tag', {}, 'P2.tag.fields', 'label missing'),

  // ---- volume
  ok(VOL, { ...volume, compute_id: null, compute_label: null }, 'detached volume'),
  bad(VOL, { ...volume, hardware_type: 'ssd' }, 'P2.volume.hardware-type.enum', 'unknown hardware type'),
  bad(VOL, { ...volume, status: 'deleting' }, 'P2.volume.status.enum', 'unknown status'),
  bad(VOL, { ...volume, label: '', filesystem_path: '/dev/disk/by-id/scsi-0Volume_' }, 'P2.volume.label.min-1', 'empty label'),
  bad(
    VOL,
    { ...volume, label: 'v'.repeat(33), filesystem_path: `/dev/disk/by-id/scsi-0Volume_${'v'.repeat(33)}` },
    'P2.volume.label.max-32',
    'label of 33 characters',
  ),
  bad(
    VOL,
    { ...volume, filesystem_path: '/dev/disk/by-id/scsi-0Volume_other' },
    'P2.volume.filesystem-path.label',
    'filesystem_path not derived from the label',
  ),
  bad(VOL, { ...volume, compute_label: null }, 'P2.volume.compute-label.attached', 'attached (compute_id) without compute_label'),
  bad(VOL, { ...volume, compute_id: null }, 'P2.volume.compute-label.attached', 'compute_label without compute_id'),
  bad(VOL, { ...volume, size: 30.5 }, 'P2.volume.types', 'size not an integer'),

  // ---- load balancer
  ok(LB, { ...balancer, client_conn_throttle: 0 }, 'throttling disabled'),
  ok(LB, { ...balancer, hostname: '192.0.2.1.balancer.example.net' }, 'hostname beginning with the dotted address'),
  ok(LB, { ...balancer, transfer: { in: null, out: null, total: null } }, 'transfer members null'),
  ok(LB, { ...balancer, ipv6: '2001:db8::1/128' }, 'ipv6 with a /128 suffix (a prefix length is not shown either way)'),
  bad(LB, { ...balancer, client_conn_throttle: -1 }, 'P2.load-balancer.client-conn-throttle.min-0', 'throttle below 0'),
  bad(LB, { ...balancer, client_conn_throttle: 21 }, 'P2.load-balancer.client-conn-throttle.max-20', 'throttle above 20'),
  bad(LB, { ...balancer, hostname: '198-51-100-1.ip.balancer.example.net' }, 'P2.load-balancer.hostname.ip-prefix', 'hostname of another address'),
  bad(LB, { ...balancer, hostname: 'lb.balancer.example.net' }, 'P2.load-balancer.hostname.ip-prefix', 'hostname without the address'),
  bad(LB, { ...balancer, ipv4: '203.0.113', hostname: '203.0.113.balancer.example.net' }, 'P2.load-balancer.ipv4.format', 'ipv4 not an address'),
  bad(LB, { ...balancer, ipv6: '192.0.2.1' }, 'P2.load-balancer.ipv6.format', 'IPv4 in ipv6'),
  bad(LB, { ...balancer, ipv6: '2001:db8::1/129' }, 'P2.load-balancer.ipv6.format', 'prefix length above 128'),
  bad(LB, { ...balancer, label: 'lb' }, 'P2.load-balancer.label.min-3', 'label of 2 characters'),
  bad(LB, { ...balancer, label: 'l'.repeat(33) }, 'P2.load-balancer.label.max-32', 'label of 33 characters'),
  bad(LB, { ...balancer, transfer: { in: '28', out: 3.28, total: 32.19 } }, 'P2.load-balancer.types', 'transfer.in a string'),
  bad(LB, { ...balancer, transfer: { in: 1, out: 2 } }, 'P2.load-balancer.fields', 'transfer.total missing'),

  // ---- tagged objects
  ok(TO, instance, 'an instance'),
  ok(TO, domain, 'a domain'),
  ok(TO, volume, 'a volume'),
  ok(TO, balancer, 'a load balancer'),
  bad(TO, { id: 1, label: 'something' }, 'P2.tagged-objects.kinds', 'an object of none of the four kinds'),
  bad(TO, 'compute123', 'P2.tagged-objects.kinds', 'not an object'),
  bad(TO, { ...volume, status: 'deleting' }, 'P2.volume.status.enum', 'a volume judged by the volume rules'),
  bad(TO, inst({ label: 'web--01' }), 'P2.instance.label.no-doubled-separators', 'an instance judged by the instance rules'),
  bad(TO, { ...balancer, client_conn_throttle: 21 }, 'P2.load-balancer.client-conn-throttle.max-20', 'a load balancer judged by its rules'),

  // ---- interfaces
  ok(IF, [], 'empty array: only the default public interface'),
  ok(IF, [pub, vlan], 'public in eth0, vlan in eth1'),
  ok(IF, [{ purpose: 'public', label: '', ipam_address: '' }], 'public with empty label and ipam_address'),
  ok(IF, [{ purpose: 'public' }], 'public with label and ipam_address absent'),
  ok(IF, [{ purpose: 'vlan', label: 'v' }], 'vlan label of 1 character, no ipam_address'),
  ok(IF, [{ purpose: 'vlan', label: 'vlan-a', ipam_address: 'fd00::1/64' }], 'IPv6 CIDR ipam_address'),
  ok(
    IF,
    [pub, { purpose: 'vlan', label: 'vlan-a', ipam_address: '10.0.0.1/24' }, { purpose: 'vlan', label: 'vlan-b', ipam_address: '10.0.0.2/24' }],
    'three interfaces with distinct labels and addresses',
  ),
  bad(
    IF,
    [
      { purpose: 'vlan', label: 'a' },
      { purpose: 'vlan', label: 'b' },
      { purpose: 'vlan', label: 'c' },
      { purpose: 'vlan', label: 'd' },
    ],
    'P2.interfaces.max-3',
    'four interfaces',
  ),
  bad(IF, [{ label: 'vlan-1' }], 'P2.interfaces.purpose.required', 'purpose missing'),
  bad(IF, [{ purpose: 'private' }], 'P2.interfaces.purpose.enum', 'unknown purpose'),
  bad(IF, [{ purpose: 'vlan' }], 'P2.interfaces.label.required-for-vlan', 'vlan without a label'),
  bad(IF, [{ purpose: 'vlan', label: null }], 'P2.interfaces.label.required-for-vlan', 'vlan with a null label'),
  bad(IF, [{ purpose: 'vlan', label: '' }], 'P2.interfaces.label.min-1', 'vlan with an empty label'),
  bad(IF, [{ purpose: 'vlan', label: 'v'.repeat(65) }], 'P2.interfaces.label.max-64', 'label of 65 characters'),
  bad(IF, [{ purpose: 'vlan', label: 'my_vlan' }], 'P2.interfaces.label.chars', 'underscore in a label'),
  bad(IF, [{ purpose: 'vlan', label: 'vlän' }], 'P2.interfaces.label.chars', 'non-ASCII letter in a label'),
  bad(IF, [{ purpose: 'public', label: 'internet' }], 'P2.interfaces.label.empty-for-public', 'public with a label'),
  bad(IF, [{ purpose: 'public', ipam_address: '10.0.0.1/24' }], 'P2.interfaces.ipam-address.vlan-only', 'public with an ipam_address'),
  bad(IF, [{ purpose: 'vlan', label: 'vlan-1', ipam_address: '10.0.0.1' }], 'P2.interfaces.ipam-address.cidr', 'ipam_address without a netmask'),
  bad(IF, [{ purpose: 'vlan', label: 'vlan-1', ipam_address: '10.0.0.1/33' }], 'P2.interfaces.ipam-address.cidr', 'IPv4 netmask above 32'),
  bad(IF, [{ purpose: 'vlan', label: 'vlan-1', ipam_address: '10.0.0/24' }], 'P2.interfaces.ipam-address.cidr', 'incomplete address'),
  bad(
    IF,
    [
      { purpose: 'vlan', label: 'vlan-1' },
      { purpose: 'vlan', label: 'vlan-1' },
    ],
    'P2.interfaces.label.unique',
    'two interfaces with one label',
  ),
  bad(
    IF,
    [
      { purpose: 'vlan', label: 'vlan-a', ipam_address: '10.0.0.1/24' },
      { purpose: 'vlan', label: 'vlan-b', ipam_address: '10.0.0.1/16' },
    ],
    'P2.interfaces.ipam-address.unique',
    'two interfaces with one address',
  ),
  bad(IF, [pub, { ...pub }], 'P2.interfaces.public.max-1', 'two public interfaces'),

  // ---- device map
  ok(DM, {}, 'empty device map (no devices)'),
  ok(DM, { sda: slot(null, null) }, 'slot with both members null'),
  ok(DM, { sda: { volume_id: 7 } }, 'slot with volume_id only'),
  bad(DM, { sda: slot(1, 2) }, 'P2.device-map.slot.one-type', 'slot with a disk and a volume'),
  bad(DM, { sda: 'disk-1' }, 'P2.device-map.types', 'slot not an object'),
  bad(DM, { sdb: { disk_id: '1' } }, 'P2.device-map.types', 'disk_id not an integer'),

  // ---- instance create
  ok(IC, create({}), 'empty instance: region and type only'),
  ok(IC, create({ image: 'compute/debian9', root_pass: 'aComplexP@ssword' }), 'from a public image'),
  ok(IC, create({ image: 'private/15', root_pass: 'aComplexP@ssword' }), 'from a private image'),
  ok(IC, create({ backup_id: 1234 }), 'from a backup (no root_pass needed)'),
  ok(
    IC,
    create({ image: 'compute/debian9', root_pass: 'aComplexP@ssword', script_id: 10079, script_data: {} }),
    'from a deployment script with a public image',
  ),
  ok(IC, create({ interfaces: [pub, vlan] }), 'attached to a private VLAN'),
  bad(IC, { type: 'g6-standard-2' }, 'P2.instance-create.region.required', 'region missing'),
  bad(IC, { region: 'us-east' }, 'P2.instance-create.type.required', 'type missing'),
  bad(IC, create({ image: 'compute/debian9' }), 'P2.instance-create.root-pass.required-with-image', 'image without root_pass'),
  bad(
    IC,
    create({ image: 'compute/debian9', root_pass: 'aComplexP@ssword', backup_id: 1234 }),
    'P2.instance-create.image.exclusive-backup-id',
    'image and backup_id together',
  ),
  bad(IC, create({ script_id: 10079, backup_id: 1234 }), 'P2.instance-create.script-id.exclusive-backup-id', 'script_id with a backup'),
  bad(IC, create({ script_id: 10079 }), 'P2.instance-create.script-id.requires-image', 'script_id without an image'),
  bad(
    IC,
    create({ script_id: 10079, image: 'private/15', root_pass: 'aComplexP@ssword' }),
    'P2.instance-create.script-id.not-private-image',
    'script_id with a private image',
  ),
  bad(IC, create({ image: 'debian9', root_pass: 'aComplexP@ssword' }), 'P2.image.id.prefix', 'image neither compute/… nor private/…'),
  bad(IC, create({ image: 'compute/debian9', root_pass: 'abc123' }), 'P2.instance-create.root-pass.min-7', 'root_pass of 6 characters'),
  bad(IC, create({ image: 'compute/debian9', root_pass: 'p'.repeat(129) }), 'P2.instance-create.root-pass.max-128', 'root_pass of 129 characters'),
  bad(IC, create({ label: 'my--compute' }), 'P2.instance.label.no-doubled-separators', 'label rules as in the resource'),
  bad(IC, create({ swap_size: '512' }), 'P2.instance-create.types', 'swap_size not an integer'),
  bad(IC, create({ script_data: '{"a":1}' }), 'P2.instance-create.types', 'script_data not an object'),
  bad(IC, create({ interfaces: [pub, pub] }), 'P2.interfaces.public.max-1', 'two public interfaces'),

  // ---- instance update
  ok('requests/instance-update', {}, 'all members optional'),
  ok('requests/instance-update', { alerts: { cpu: 0, io: 0, network_in: 0, network_out: 0, transfer_quota: 0 } }, '0 disables each alert'),
  bad('requests/instance-update', { alerts: { cpu: 'high' } }, 'P2.instance-update.types', 'alerts.cpu not an integer'),
  bad('requests/instance-update', schedule('Funday', 'W2'), 'P2.instance.backups.schedule.day.enum', 'unknown day'),
  bad('requests/instance-update', schedule('Monday', 'W3'), 'P2.instance.backups.schedule.window.enum', 'unknown window'),
  bad('requests/instance-update', { label: 'ab' }, 'P2.instance.label.min-3', 'label of 2 characters'),

  // ---- clone
  ok(CL, { region: 'us-east', type: 'g6-standard-2' }, 'new instance: region and type'),
  ok(CL, { compute_id: 124 }, 'existing target instance'),
  ok(CL, { region: 'us-east', type: 'g6-standard-2', configs: [] }, 'configs empty: none cloned'),
  bad(CL, { type: 'g6-standard-2' }, 'P2.instance-clone.region.required-for-new', 'new instance without region'),
  bad(CL, { region: 'us-east' }, 'P2.instance-clone.type.required-for-new', 'new instance without type'),
  bad(CL, { compute_id: 124, region: 'us-east' }, 'P2.instance-clone.region.not-with-compute-id', 'region with compute_id'),
  bad(CL, { compute_id: 124, type: 'g6-standard-2' }, 'P2.instance-clone.type.not-with-compute-id', 'type with compute_id'),
  // "only for a new instance" (not "otherwise not allowed"): with compute_id they may be refused or ignored
  ok(CL, { compute_id: 124, label: 'clone-1' }, 'label with compute_id (refused or ignored: judged by a scenario)'),
  ok(CL, { compute_id: 124, backups_enabled: true }, 'backups_enabled with compute_id (refused or ignored)'),
  bad(CL, { compute_id: 124, configs: ['23456'] }, 'P2.instance-clone.types', 'configs items not integers'),
  bad(CL, { region: 'us-east', type: 'g6-standard-2', label: 'clone__1' }, 'P2.instance.label.no-doubled-separators', 'label rules as in the resource'),

  // ---- small bodies
  bad('requests/instance-snapshot-create', {}, 'P2.instance-snapshot-create.label.required', 'label missing'),
  bad('requests/instance-snapshot-create', { label: '' }, 'P2.instance-snapshot-create.label.min-1', 'empty label'),
  bad('requests/instance-snapshot-create', { label: 's'.repeat(256) }, 'P2.instance-snapshot-create.label.max-255', 'label of 256 characters'),
  ok('requests/instance-snapshot-create', { label: 's' }, 'label of 1 character'),
  bad('requests/backup-restore', { overwrite: true }, 'P2.backup-restore.compute-id.required', 'compute_id missing'),
  bad('requests/backup-restore', { compute_id: 123, overwrite: 'yes' }, 'P2.backup-restore.types', 'overwrite not a boolean'),
  ok('requests/backup-restore', { compute_id: 123 }, 'overwrite optional'),
  ok('requests/instance-boot', {}, 'config_id optional'),
  bad('requests/instance-boot', { config_id: '140' }, 'P2.instance-boot.types', 'config_id not an integer'),
  ok('requests/instance-rescue', { devices: { sda: slot(124458, null), sdg: slot(null, 3) } }, 'sda to sdg'),
  ok('requests/instance-rescue', { devices: { sdh: null } }, 'sdh null'),
  bad('requests/instance-rescue', { devices: { sdh: slot(124458, null) } }, 'P2.instance-rescue.devices.sdh-reserved', 'sdh is reserved'),
  bad('requests/instance-rescue', { devices: { sda: slot(1, 2) } }, 'P2.device-map.slot.one-type', 'device map rules apply'),
  bad('requests/instance-resize', { allow_auto_disk_resize: false }, 'P2.instance-resize.type.required', 'type missing'),
  bad('requests/instance-resize', { type: 'g6-standard-4', allow_auto_disk_resize: 'no' }, 'P2.instance-resize.types', 'allow_auto_disk_resize not a boolean'),

  // ---- configuration profiles
  ok(CC, { label: 'My Config', devices: {} }, 'devices may be empty'),
  ok(CC, { label: 'c', devices: {}, virt_mode: 'fullvirt' }, 'fullvirt without devices'),
  ok(CC, { label: 'c', devices: { sdd: slot(1, null) }, virt_mode: 'fullvirt' }, 'fullvirt with sda to sdd'),
  ok(CC, { label: 'c', devices: { sdh: slot(1, null) }, virt_mode: 'paravirt' }, 'paravirt with sdh'),
  ok(CC, { label: 'c', devices: { sdh: slot(1, null) } }, 'virt_mode absent (default paravirt) with sdh'),
  bad(CC, { devices: {} }, 'P2.config-create.label.required', 'label missing'),
  bad(CC, { label: 'My Config' }, 'P2.config-create.devices.required', 'devices missing'),
  bad(CC, { label: '', devices: {} }, 'P2.config.label.min-1', 'empty label'),
  bad(CC, { label: 'c'.repeat(49), devices: {} }, 'P2.config.label.max-48', 'label of 49 characters'),
  bad(CC, { label: 'c', devices: {}, run_level: 'multiuser' }, 'P2.config.run-level.enum', 'unknown run_level'),
  bad(CC, { label: 'c', devices: {}, virt_mode: 'hvm' }, 'P2.config.virt-mode.enum', 'unknown virt_mode'),
  bad(CC, { label: 'c', devices: { sde: slot(1, null) }, virt_mode: 'fullvirt' }, 'P2.config.devices.fullvirt-sda-to-sdd', 'sde in fullvirt'),
  bad(CC, { label: 'c', devices: { sdh: slot(null, 2) }, virt_mode: 'fullvirt' }, 'P2.config.devices.fullvirt-sda-to-sdd', 'sdh in fullvirt'),
  bad(CC, { label: 'c', devices: {}, helpers: { network: 'yes' } }, 'P2.config-create.types', 'helper not a boolean'),
  bad(CC, { label: 'c', devices: {}, comments: 5 }, 'P2.config-create.types', 'comments not a string or null'),
  bad(CC, { label: 'c', devices: {}, interfaces: [{ purpose: 'vlan' }] }, 'P2.interfaces.label.required-for-vlan', 'interface rules apply'),
  ok('requests/config-update', {}, 'no field required on update'),
  ok('requests/config-update', { virt_mode: 'fullvirt', devices: { sdh: slot(1, null) } }, 'virt_mode on update: not shown, not judged'),
  bad('requests/config-update', { label: 'c'.repeat(49) }, 'P2.config.label.max-48', 'label of 49 characters'),
  bad('requests/config-update', { run_level: 'multiuser' }, 'P2.config.run-level.enum', 'unknown run_level'),

  // ---- images
  bad('requests/image-capture', { label: 'x' }, 'P2.image-capture.disk-id.required', 'disk_id missing'),
  ok('requests/image-capture', { disk_id: 42 }, 'label and description optional'),
  bad('requests/image-capture', { disk_id: 42, description: '' }, 'P2.image.description.min-1', 'empty description'),
  bad('requests/image-upload', { label: 'Uploaded image' }, 'P2.image-upload.region.required', 'region missing'),
  bad('requests/image-upload', { region: 'us-east' }, 'P2.image-upload.label.required', 'label missing'),
  bad(
    'requests/image-upload',
    { label: 'x', region: 'us-east', description: 'd'.repeat(65001) },
    'P2.image.description.max-65000',
    'description of 65001 characters',
  ),
  ok('requests/image-update', {}, 'all members optional'),
  ok('requests/image-update', { description: null }, 'description null'),
  bad('requests/image-update', { status: 'deleted' }, 'P2.image.status.enum', 'unknown status'),
  bad('requests/image-update', { description: '' }, 'P2.image.description.min-1', 'empty description'),
  bad('requests/image-update', { label: 7 }, 'P2.image-update.types', 'label not a string'),

  // ---- tags
  ok('requests/tag-create', { label: 'abc' }, 'label only'),
  bad('requests/tag-create', { computes: [123] }, 'P2.tag-create.label.required', 'label missing'),
  bad('requests/tag-create', { label: 'ab' }, 'P2.tag.label.min-3', 'label of 2 characters'),
  bad('requests/tag-create', { label: 't'.repeat(51) }, 'P2.tag.label.max-50', 'label of 51 characters'),
  bad('requests/tag-create', { label: 'abc', computes: ['123'] }, 'P2.tag-create.types', 'IDs not integers'),
];
