// The compute area's seed: one running instance with its disks and profile (two under legacy-names-listed), three
// volumes, two load balancers (in two regions, both tagged seed).
import type { Store } from '../../core/store.js';
import { seedContext } from '../../core/types.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { makeInstance } from './instances.js';
import { emptyDevices, newConfig, newDisk } from './layout.js';
import { stateOf, T, typeById, type Balancer, type Instance, type Volume } from './model.js';

/** What follows the address in a load balancer's hostname: one service domain, under a variation after the region. */
function serviceDomain(store: Store, label: string, regionId: string): string {
  if (faulty(store, 'P2.load-balancer.hostname.fixed-suffix')) return `${label}.example`;
  return varied(store, 'balancer-hostname-regional') ? `${regionId}.lb.chs-emulator.example` : 'lb.chs-emulator.example';
}

/** A running Debian instance in the first region, with its disks and the profile it last booted. */
function seedInstance(store: Store, label: string, tags: string[]): Instance {
  const seedCtx = seedContext(store);
  const type = typeById(store, 'g6-standard-1');
  const inst = makeInstance(seedCtx, { region: store.regions[0]!, type, label, image: 'compute/debian12', status: 'running', tags });
  const main = newDisk(store, inst.id, 'Debian 12 Disk', type.disk - 512, 'ext4');
  const swap = newDisk(store, inst.id, '512 MB Swap Image', 512, 'swap');
  const devices = emptyDevices();
  devices.sda = { disk_id: main.id, volume_id: null };
  devices.sdb = { disk_id: swap.id, volume_id: null };
  const cfg = newConfig(store, inst, { label: 'My Debian 12 Profile', devices });
  stateOf(store, inst.id).lastBootedConfig = cfg.id;
  return inst;
}

export function seed(store: Store): void {
  const now = store.nowIso();
  const region = store.regions[0]!;
  const inst = seedInstance(store, varied(store, 'labels-unicode-alphanumerics') ? 'seed-wéb-1' : 'seed-web-1', ['seed']);
  // Under the variation the account also holds an instance labelled before the label rules (or by another path).
  if (varied(store, 'legacy-names-listed')) seedInstance(store, 'old--box', []);

  const volumes = store.table<Volume>(T.volumes);
  const vol = (label: string, regionId: string, size: number, attached: Instance | null, tags: string[]) => {
    const v: Volume = {
      id: store.nextId('volume'),
      label,
      region: regionId,
      size,
      status: faulty(store, 'P2.volume.status.enum') ? ('ready' as Volume['status']) : 'active',
      hardware_type: faulty(store, 'P2.volume.hardware-type.enum') ? ('ssd' as Volume['hardware_type']) : 'nvme',
      filesystem_path: `/dev/disk/by-id/scsi-0CHS_Volume_${label}`,
      compute_id: attached?.id ?? null,
      compute_label: attached?.label ?? null,
      tags,
      created: now,
      updated: now,
    };
    if (faulty(store, 'P2.volume.types')) Object.assign(v, { size: String(size) });
    volumes.set(String(v.id), v);
  };
  vol('seed-data-1', region.id, 20, inst, ['seed']);
  vol('seed-data-2', region.id, 40, null, []);
  vol('seed-archive', store.regions[1]?.id ?? region.id, 100, null, ['seed']);

  const balancers = store.table<Balancer>(T.balancers);
  const lb = (label: string, regionId: string, tags: string[]) => {
    const ipv4 = store.allocateIpv4(regionId, true);
    const id = store.nextId('balancer');
    const b: Balancer = {
      id,
      label,
      region: regionId,
      ipv4,
      ipv6: faulty(store, 'P2.load-balancer.ipv6.format') ? ipv4 : varied(store, 'balancer-ipv6-with-prefix') ? `2600:3c00:1::${id.toString(16)}/128` : null,
      hostname: `${faulty(store, 'P2.load-balancer.hostname.ip-prefix') ? label : ipv4.replace(/\./g, '-')}.${serviceDomain(store, label, regionId)}`,
      client_conn_throttle: faulty(store, 'P2.load-balancer.client-conn-throttle.max-20') ? 25 : 0,
      transfer: { in: null, out: null, total: null },
      tags,
      created: now,
      updated: now,
    };
    balancers.set(String(b.id), b);
  };
  lb('seed-lb-1', region.id, ['seed']);
  lb('seed-lb-2', store.regions[1]?.id ?? region.id, ['seed']);
}
