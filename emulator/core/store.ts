// The emulator's whole state: a simulated clock with a queue of time-driven tasks, id counters, a seeded random
// source, lazily created tables, the token registry and the fixed catalogue (regions, instance types).
// One Store per server; `POST /__control/reset` replaces it with a fresh one (areas re-seed it).
import type { EntityGrants, Principal } from './types.js';
import { ApiError } from './types.js';
import { varied } from '../variations/index.js';

export interface Region {
  id: string;
  vlans: boolean;
  ipv6RangeSharing: boolean;
}

export interface InstanceType {
  id: string;
  disk: number;
  memory: number;
  vcpus: number;
  transfer: number;
}

export interface StoreOptions {
  /** The default user's personal access token (unrestricted, every scope). */
  token?: string;
  /** Fault ids that areas consult to simulate documented failures (e.g. a failing charge). */
  faults?: readonly string[];
  /** Variation ids: allowed choices the areas make differently from the default (../variations). */
  variations?: readonly string[];
  /** Seed of the random source; the same seed and the same requests give the same answers. */
  seed?: number;
}

/**
 * What one area's change means for another area's state, announced on the store instead of one area calling into
 * another (e.g. the ips and firewalls areas let go of an instance the compute area deletes).
 */
export interface Signals {
  /** Sent before the instance's own records are removed, so listeners can still read it. */
  'instance-deleted': { instanceId: number };
}

type Listener<S extends keyof Signals> = (payload: Signals[S]) => void;

const DEFAULT_USERNAME = 'emulator-user';
/** The default user's unrestricted personal access token with every scope (re-exported by server.ts). */
export const DEFAULT_TOKEN = 'chs-emulator-full-access';

interface Task {
  at: number;
  seq: number;
  run: (store: Store) => void;
}

/** Binary min-heap ordered by (at, seq): tasks due at the same instant run in the order they were scheduled. */
class TaskQueue {
  private heap: Task[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): Task | undefined {
    return this.heap[0];
  }

  push(task: Task): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  pop(): Task | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l]!, h[m]!)) m = l;
      if (r < h.length && before(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
    return top;
  }
}

function before(a: Task, b: Task): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** mulberry32: small, fast, good enough for passwords and keys that only have to look random. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGIONS: readonly Region[] = [
  { id: 'us-east', vlans: true, ipv6RangeSharing: true },
  { id: 'us-west', vlans: false, ipv6RangeSharing: true },
  { id: 'eu-central', vlans: true, ipv6RangeSharing: false },
  { id: 'ap-south', vlans: false, ipv6RangeSharing: false },
];

const INSTANCE_TYPES: readonly InstanceType[] = [
  { id: 'g6-nanode-1', disk: 25600, memory: 1024, vcpus: 1, transfer: 1000 },
  { id: 'g6-standard-1', disk: 51200, memory: 2048, vcpus: 1, transfer: 2000 },
  { id: 'g6-standard-2', disk: 81920, memory: 4096, vcpus: 2, transfer: 4000 },
  { id: 'g6-standard-4', disk: 163840, memory: 8192, vcpus: 4, transfer: 5000 },
];

/**
 * The id kinds a restricted user's grants name, with each one's grant kind and the grant's key for id n (the kind of
 * an event's entity too): under the variation ids-reused an id given again is fresh for them (Store.newId).
 */
const GRANTED: Record<string, { grants: keyof EntityGrants; key: (id: number) => string }> = {
  compute: { grants: 'compute', key: String },
  domain: { grants: 'domain', key: String },
  firewall: { grants: 'firewall', key: String },
  database: { grants: 'database', key: String },
  image: { grants: 'image', key: (id) => `private/${id}` },
};

/** Public IPv4 pool of each region: a /16 of its own, so 100 000 instances never exhaust it. */
const PUBLIC_POOLS: Record<string, [number, number]> = {
  'us-east': [45, 33],
  'us-west': [45, 56],
  'eu-central': [45, 79],
  'ap-south': [139, 162],
};

/** A date-time the emulator wrote (UTC, with or without milliseconds and the zone suffix Z of the variations). */
export function parseIso(iso: string): Date {
  return new Date(iso.endsWith('Z') ? iso : `${iso}Z`);
}

export class Store {
  readonly tokens = new Map<string, Principal>();
  readonly faults: ReadonlySet<string>;
  readonly variations: ReadonlySet<string>;
  readonly regions: Region[] = REGIONS.map((r) => ({ ...r }));
  readonly instanceTypes: InstanceType[] = INSTANCE_TYPES.map((t) => ({ ...t }));
  readonly defaultUser = DEFAULT_USERNAME;
  readonly defaultToken: string;
  /**
   * A past-due balance that blocks resizes. The documents give no way to run one up, so no request sets it: it
   * stays false unless an emulator test sets it directly (the seed's balance is current, not past due).
   */
  pastDueBalance = false;

  private offsetMs = 0;
  private readonly counters = new Map<string, number>();
  private readonly tables = new Map<string, Map<string, unknown>>();
  private readonly queue = new TaskQueue();
  private taskSeq = 0;
  private running = false;
  private readonly rand: () => number;
  /** Next host number per pool key (`public:<region>` / `private`). */
  private readonly ipCounters = new Map<string, number>();
  private readonly listeners = new Map<keyof Signals, Listener<never>[]>();
  /** Under ids-reused: `<kind>:<id>` → how many remains of a deleted resource still hold that id (Store.holdId). */
  private readonly heldIds = new Map<string, number>();
  /** Under ids-reused: `<grant kind>:<key>` → how many times that id was given again (Store.generationOf). */
  private readonly generations = new Map<string, number>();

  constructor(opts: StoreOptions = {}) {
    const token = opts.token ?? DEFAULT_TOKEN;
    this.faults = new Set(opts.faults ?? []);
    this.variations = new Set(opts.variations ?? []);
    this.rand = mulberry32(opts.seed ?? 0x5eed1234);
    this.defaultToken = token;
    this.tokens.set(token, {
      token,
      username: DEFAULT_USERNAME,
      scopes: '*',
      restricted: false,
      grants: { global: {}, entities: {} },
    });
  }

  /** Simulated now: real time plus everything `advance` added. */
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** `YYYY-MM-DDTHH:MM:SS` in UTC, no zone suffix, of `d` (default: simulated now); with milliseconds or a zone suffix Z under a variation. */
  nowIso(d?: Date): string {
    const digits = varied(this, 'datetime-fraction') ? 23 : varied(this, 'datetime-minutes') ? 16 : 19;
    return (d ?? this.now()).toISOString().slice(0, digits) + (varied(this, 'datetime-zone-suffix') ? 'Z' : '');
  }

  /** Moves the simulated clock forward and runs every task that became due. */
  advance(seconds: number): void {
    this.offsetMs += Math.round(seconds * 1000);
    this.runDue();
  }

  /** Ids start at 1 and increase per kind; never reused. */
  nextId(kind: string): number {
    const next = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, next);
    return next;
  }

  /**
   * The id of a new resource of `kind` a client creates (and may delete): `nextId(kind)`, or under the variation
   * ids-reused the lowest n ≥ 1 that no resource of its kind holds (`held(n)` reads the kind's own table) and no remains
   * of a deleted one hold (`holdId`). An id given again starts clean: every principal's grant on it is dropped, and
   * the events of the resource that held it before stop showing through a grant on it (`generationOf`).
   */
  newId(kind: string, held: (id: number) => boolean): number {
    if (!varied(this, 'ids-reused')) return this.nextId(kind);
    let id = 1;
    while (held(id) || this.heldIds.has(`${kind}:${id}`)) id++;
    const highest = this.counters.get(kind) ?? 0;
    // (the counter keeps the highest id given, so that nextId never gives one newId gave)
    if (id > highest) this.counters.set(kind, id);
    const granted = GRANTED[kind];
    if (id <= highest && granted !== undefined) {
      const key = granted.key(id);
      for (const principal of this.tokens.values()) delete principal.grants.entities[granted.grants]?.[key];
      this.generations.set(`${granted.grants}:${key}`, this.generationOf(granted.grants, key) + 1);
    }
    return id;
  }

  /** Under ids-reused: remains of a deleted resource hold its id until `releaseId` (a release that runs a while). */
  holdId(kind: string, id: number): void {
    this.heldIds.set(`${kind}:${id}`, (this.heldIds.get(`${kind}:${id}`) ?? 0) + 1);
  }

  releaseId(kind: string, id: number): void {
    const left = (this.heldIds.get(`${kind}:${id}`) ?? 0) - 1;
    if (left > 0) this.heldIds.set(`${kind}:${id}`, left);
    else this.heldIds.delete(`${kind}:${id}`);
  }

  /** How many times the id `key` of an entity of that grant kind (an event entity's type) was given again (ids-reused). */
  generationOf(kind: string, key: string): number {
    return this.generations.get(`${kind}:${key}`) ?? 0;
  }

  /** Seeded, in [0, 1). */
  random(): number {
    return this.rand();
  }

  randomHex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++)
      out += Math.floor(this.rand() * 256)
        .toString(16)
        .padStart(2, '0');
    return out;
  }

  /** A named table keyed by String(id), created on first use. */
  table<T>(name: string): Map<string, T> {
    let t = this.tables.get(name);
    if (t === undefined) {
      t = new Map<string, unknown>();
      this.tables.set(name, t);
    }
    return t as Map<string, T>;
  }

  /** Calls `listener` on every `signal` sent on this store, in the order listeners were added. */
  listen<S extends keyof Signals>(signal: S, listener: Listener<S>): void {
    this.listeners.set(signal, [...(this.listeners.get(signal) ?? []), listener]);
  }

  send<S extends keyof Signals>(signal: S, payload: Signals[S]): void {
    for (const listener of this.listeners.get(signal) ?? []) (listener as Listener<S>)(payload);
  }

  /** Runs `task` once, the first time the simulated clock is at or past `at` (checked before every request). */
  schedule(at: Date, task: (store: Store) => void): void {
    this.queue.push({ at: at.getTime(), seq: this.taskSeq++, run: task });
  }

  /** Number of tasks waiting (for tests and diagnostics). */
  get pendingTasks(): number {
    return this.queue.size;
  }

  runDue(): void {
    if (this.running) return; // a task that triggers runDue must not re-enter the queue walk
    this.running = true;
    try {
      const now = this.now().getTime();
      for (let top = this.queue.peek(); top !== undefined && top.at <= now; top = this.queue.peek()) {
        this.queue.pop();
        try {
          top.run(this);
        } catch (err) {
          process.stderr.write(`emulator: scheduled task failed: ${(err as Error)?.stack ?? String(err)}\n`);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * A globally unique IPv4 address: public from the region's own /16, private from the shared 192.168.128.0/17
   * (variation private-ipv4-shared-space: 100.64.128.0/17, in the shared address space of RFC 6598).
   */
  allocateIpv4(region: string, isPublic: boolean): string {
    // Addresses are keys of the IP endpoints, so the private pool is shared by all regions (globally unique).
    const known = Object.prototype.hasOwnProperty.call(PUBLIC_POOLS, region);
    const key = isPublic ? `public:${known ? region : '(other)'}` : 'private';
    let n = this.ipCounters.get(key) ?? 0;
    // Host numbers whose last octet would be 0 or 255 are skipped (network/broadcast-looking addresses).
    do n++;
    while ((n & 0xff) === 0 || (n & 0xff) === 0xff);
    this.ipCounters.set(key, n);
    if (isPublic) {
      const pool = known ? PUBLIC_POOLS[region]! : [198, 18];
      if (n > 0xffff) throw new ApiError(400, `No public IPv4 addresses are left in region ${region}.`, 'region');
      return `${pool[0]}.${pool[1]}.${n >> 8}.${n & 0xff}`;
    }
    if (n > 0x7fff) throw new ApiError(400, `No private IPv4 addresses are left in region ${region}.`, 'region');
    return `${varied(this, 'private-ipv4-shared-space') ? '100.64' : '192.168'}.${128 + (n >> 8)}.${n & 0xff}`;
  }

  /** The instance's SLAAC IPv6 address (no prefix length), derived from its id. */
  slaacFor(instanceId: number): string {
    const low = instanceId & 0xffffff;
    return `2600:3c00::f03c:91ff:fe${(low >> 16).toString(16).padStart(2, '0')}:${(low & 0xffff).toString(16)}`;
  }
}
