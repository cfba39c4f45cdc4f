// Kernels (seeded, static). Their ids hold no slash, or (variation kernel-ids-slashed-raw-only) one, served as it is.
import type { Store } from '../../core/store.js';
import type { RequestContext } from '../../core/types.js';
import { varied } from '../../variations/index.js';
import { fail } from '../../core/validate.js';
import { paginate } from '../../core/pagination.js';

const DEFAULT_KERNEL = 'chs-latest-64bit';
const KERNELS = [
  {
    id: 'chs-latest-64bit',
    label: 'Latest 64 bit (6.8.9-x86_64-chs)',
    version: '6.8.9',
    architecture: 'x86_64',
    kvm: true,
    pvops: true,
    deprecated: false,
    built: '2024-05-01T00:00:00',
  },
  {
    id: 'chs-latest-32bit',
    label: 'Latest 32 bit (6.8.9-x86-chs)',
    version: '6.8.9',
    architecture: 'i386',
    kvm: true,
    pvops: true,
    deprecated: false,
    built: '2024-05-01T00:00:00',
  },
  { id: 'chs-grub2', label: 'GRUB 2', version: '2.06', architecture: 'x86_64', kvm: true, pvops: false, deprecated: false, built: '2022-08-29T00:00:00' },
  {
    id: 'chs-direct-disk',
    label: 'Direct Disk',
    version: '',
    architecture: 'x86_64',
    kvm: true,
    pvops: false,
    deprecated: false,
    built: '2015-05-04T00:00:00',
  },
  {
    id: 'chs-6.2.9-x86_64',
    label: '6.2.9-x86_64-chs',
    version: '6.2.9',
    architecture: 'x86_64',
    kvm: true,
    pvops: true,
    deprecated: true,
    built: '2023-03-30T00:00:00',
  },
  {
    id: 'chs-5.15.10-x86',
    label: '5.15.10-x86-chs',
    version: '5.15.10',
    architecture: 'i386',
    kvm: true,
    pvops: true,
    deprecated: true,
    built: '2021-12-20T00:00:00',
  },
];

const SLASHED = KERNELS.map((kernel) => ({ ...kernel, id: slashed(kernel.id) }));

function slashed(id: string): string {
  return id.replace(/^chs-/, 'chs/');
}

/** The kernels the store serves. */
export function kernelsOf(store: Store): typeof KERNELS {
  return varied(store, 'kernel-ids-slashed-raw-only') ? SLASHED : KERNELS;
}

/** The latest 64-bit kernel: a configuration profile's default. */
export function defaultKernel(store: Store): string {
  return varied(store, 'kernel-ids-slashed-raw-only') ? slashed(DEFAULT_KERNEL) : DEFAULT_KERNEL;
}

export function kernelsHandler(ctx: RequestContext) {
  return paginate(ctx, kernelsOf(ctx.store));
}

export function kernelViewHandler(ctx: RequestContext) {
  const k = kernelsOf(ctx.store).find((x) => x.id === ctx.params.kernelId);
  if (!k) fail('Not found: no such kernel', null, 404);
  return k;
}
