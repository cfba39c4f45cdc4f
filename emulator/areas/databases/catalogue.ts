// The database engines and node types the emulator offers (GET /v4/databases/engines and /v4/databases/types).
import type { Store } from '../../core/store.js';
import { varied } from '../../variations/index.js';
export interface Engine {
  id: string;
  engine: string;
  version: string;
}

interface NodeType {
  id: string;
  label: string;
  class: string;
  deprecated: boolean;
  disk: number;
  memory: number;
  vcpus: number;
  engines: Record<string, { quantity: number; price: { hourly: number; monthly: number } }[]>;
}

export const ENGINES: readonly Engine[] = [
  { id: 'mysql/8.0.30', engine: 'mysql', version: '8.0.30' },
  { id: 'mysql/5.7.39', engine: 'mysql', version: '5.7.39' },
  { id: 'postgresql/13.2', engine: 'postgresql', version: '13.2' },
];

function nodeType(id: string, label: string, cls: string, disk: number, memory: number, vcpus: number, monthly: number, deprecated = false): NodeType {
  const prices = (m: number) => [
    { quantity: 1, price: { hourly: round(m / 730), monthly: m } },
    { quantity: 3, price: { hourly: round((m * 3) / 730), monthly: m * 3 } },
  ];
  return { id, label, class: cls, deprecated, disk, memory, vcpus, engines: { mysql: prices(monthly), postgresql: prices(monthly + 5) } };
}

function round(n: number): number {
  return Math.round(n * 10000) / 10000;
}

export const NODE_TYPES: readonly NodeType[] = [
  nodeType('g6-nanode-1', 'DBaaS - Nanode 1GB', 'nanode', 25600, 1024, 1, 15),
  nodeType('g6-standard-1', 'DBaaS - Linode 2GB', 'standard', 51200, 2048, 1, 30),
  nodeType('g6-standard-2', 'DBaaS - Linode 4GB', 'standard', 81920, 4096, 2, 60),
  nodeType('g6-dedicated-2', 'DBaaS - Dedicated 4GB', 'dedicated', 81920, 4096, 2, 65),
  nodeType('g6-dedicated-4', 'DBaaS - Dedicated 8GB', 'dedicated', 163840, 8192, 4, 130),
  nodeType('g5-dedicated-legacy-2', 'DBaaS - Legacy Dedicated 4GB', 'dedicated', 81920, 4096, 2, 70, true),
];

/** Under single-node-types the smallest type offers MySQL clusters of one node only. */
export const SINGLE_NODE_TYPE = 'g6-nanode-1';

/** The node types as the store offers them (copies). */
export function nodeTypes(store: Store): NodeType[] {
  return NODE_TYPES.map((t) => {
    const copy = structuredClone(t);
    if (t.id === SINGLE_NODE_TYPE && varied(store, 'single-node-types')) copy.engines.mysql = copy.engines.mysql!.filter((offer) => offer.quantity === 1);
    return copy;
  });
}
