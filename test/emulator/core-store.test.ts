// Self-tests of the emulator core without a server: the store (clock, schedule queue, ids, addresses, signals),
// events, permissions and the validation helpers.
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { EVENTS_TABLE, emitEvent, type Event } from '../../emulator/core/events.js';
import { canAccess, grantOwnership, hasGlobalGrant } from '../../emulator/core/permissions.js';
import { Store } from '../../emulator/core/store.js';
import { ApiError, type Principal } from '../../emulator/core/types.js';
import * as v from '../../emulator/core/validate.js';
import { DEFAULT_TOKEN } from '../../emulator/server.js';

describe('store', () => {
  it('signals reach every listener of the signal, in the order they were added; a signal nobody heard is a no-op', () => {
    const store = new Store();
    store.send('instance-deleted', { instanceId: 1 });
    const heard: string[] = [];
    store.listen('instance-deleted', ({ instanceId }) => heard.push(`first ${instanceId}`));
    store.listen('instance-deleted', ({ instanceId }) => heard.push(`second ${instanceId}`));
    store.send('instance-deleted', { instanceId: 7 });
    expect(heard).toEqual(['first 7', 'second 7']);
  });

  it('the schedule queue runs tasks in time order, then insertion order, and only when due', () => {
    const store = new Store();
    const ran: number[] = [];
    const t0 = store.now().getTime();
    store.schedule(new Date(t0 + 3000), () => ran.push(3));
    store.schedule(new Date(t0 + 1000), () => ran.push(1));
    store.schedule(new Date(t0 + 2000), () => ran.push(21));
    store.schedule(new Date(t0 + 2000), () => ran.push(22));
    store.schedule(new Date(t0 - 1000), () => ran.push(0));
    store.runDue();
    expect(ran).toEqual([0]);
    store.advance(2.5);
    expect(ran).toEqual([0, 1, 21, 22]);
    store.advance(10);
    expect(ran).toEqual([0, 1, 21, 22, 3]);
    expect(store.pendingTasks).toBe(0);
  });

  it('a task may schedule another; a failing task does not stop the queue', () => {
    const store = new Store();
    const ran: string[] = [];
    const t0 = store.now().getTime();
    store.schedule(new Date(t0 + 1000), (s) => {
      ran.push('a');
      s.schedule(new Date(t0 + 1500), () => ran.push('b'));
      s.schedule(new Date(t0 + 5000), () => ran.push('late'));
    });
    store.schedule(new Date(t0 + 1200), () => {
      throw new Error('task failure (expected by the test)');
    });
    store.schedule(new Date(t0 + 1300), () => ran.push('c'));
    const write = process.stderr.write;
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      store.advance(2);
    } finally {
      process.stderr.write = write;
    }
    expect(ran).toEqual(['a', 'c', 'b']);
    expect(store.pendingTasks).toBe(1);
  });

  it('100 000 scheduled tasks run in order, quickly', () => {
    const store = new Store();
    const t0 = store.now().getTime();
    const rnd = store.random.bind(store);
    let last = -Infinity;
    let ordered = true;
    let count = 0;
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) {
      const at = t0 + 1000 + Math.floor(rnd() * 1_000_000);
      store.schedule(new Date(at), () => {
        if (at < last) ordered = false;
        last = at;
        count++;
      });
    }
    store.advance(2000);
    expect(count).toBe(100_000);
    expect(ordered).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('ids increase per kind; random is seeded and deterministic', () => {
    const a = new Store();
    const b = new Store();
    expect([a.nextId('x'), a.nextId('x'), a.nextId('y')]).toEqual([1, 2, 1]);
    const ra = [a.random(), a.random(), a.randomHex(8)];
    const rb = [b.random(), b.random(), b.randomHex(8)];
    expect(ra).toEqual(rb);
    expect(ra[0]).toBeGreaterThanOrEqual(0);
    expect(ra[0]).toBeLessThan(1);
    expect(ra[2]).toMatch(/^[0-9a-f]{16}$/);
  });

  it('tables are created lazily and shared by name', () => {
    const s = new Store();
    s.table<number>('t').set('1', 5);
    expect(s.table<number>('t').get('1')).toBe(5);
    expect(s.table('other').size).toBe(0);
  });

  it('nowIso has no zone and follows the simulated clock', () => {
    const s = new Store();
    expect(s.nowIso(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)))).toBe('2024-01-02T03:04:05');
    const before = s.now().getTime();
    s.advance(86400);
    expect(s.now().getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    expect(s.nowIso()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('IPv4 addresses are unique, valid, public or private as asked', () => {
    const s = new Store();
    const seen = new Set<string>();
    // The addresses breaking any of the expectations (one expect() for the 4,800 of them).
    const wrong: string[] = [];
    for (const region of s.regions.map((r) => r.id)) {
      for (let i = 0; i < 600; i++) {
        for (const isPublic of [true, false]) {
          const ip = s.allocateIpv4(region, isPublic);
          const valid = ipaddr.IPv4.isValidFourPartDecimal(ip);
          const parsed = valid ? ipaddr.IPv4.parse(ip) : undefined;
          const last = parsed?.octets[3];
          const inRange = isPublic ? parsed?.range() === 'unicast' : parsed?.match(ipaddr.IPv4.parseCIDR('192.168.128.0/17'));
          if (seen.has(ip) || !valid || last === 0 || last === 255 || !inRange) wrong.push(`${ip} (${region}, ${isPublic ? 'public' : 'private'})`);
          seen.add(ip);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('SLAAC addresses are valid IPv6, distinct per instance', () => {
    const s = new Store();
    const a = s.slaacFor(1);
    const b = s.slaacFor(0x12345);
    expect(a).toBe('2600:3c00::f03c:91ff:fe00:1');
    expect(b).toBe('2600:3c00::f03c:91ff:fe01:2345');
    expect(ipaddr.IPv6.isValid(a)).toBe(true);
    expect(ipaddr.parse(b).toString()).toBe(b);
  });

  it('regions and instance types are seeded as agreed', () => {
    const s = new Store();
    expect(s.regions).toEqual([
      { id: 'us-east', vlans: true, ipv6RangeSharing: true },
      { id: 'us-west', vlans: false, ipv6RangeSharing: true },
      { id: 'eu-central', vlans: true, ipv6RangeSharing: false },
      { id: 'ap-south', vlans: false, ipv6RangeSharing: false },
    ]);
    expect(s.instanceTypes.map((t) => t.id)).toEqual(['g6-nanode-1', 'g6-standard-1', 'g6-standard-2', 'g6-standard-4']);
    expect(s.instanceTypes[0]).toEqual({ id: 'g6-nanode-1', disk: 25600, memory: 1024, vcpus: 1, transfer: 1000 });
    expect(s.defaultUser).toBe('emulator-user');
    expect(s.tokens.get(DEFAULT_TOKEN)).toMatchObject({ scopes: '*', restricted: false, username: 'emulator-user' });
  });

  it('faults are exposed read-only', () => {
    expect(new Store({ faults: ['some-fault'] }).faults.has('some-fault')).toBe(true);
  });
});

describe('events', () => {
  it('emitEvent stores an event with increasing ids and drops it after 90 days', () => {
    const s = new Store();
    const p: Principal = { token: 't', username: 'alice', scopes: '*', restricted: false, grants: { global: {}, entities: {} } };
    const e1 = emitEvent(s, p, { action: 'firewall_create', entity: { id: 1, label: 'fw', type: 'firewall', url: '/v4/networking/firewalls/1' } });
    const e2 = emitEvent(s, null, {
      action: 'firewall_device_add',
      entity: { id: 1, label: 'fw', type: 'firewall', url: '/v4/networking/firewalls/1' },
      secondary_entity: { id: 9, label: 'vm', type: 'compute', url: '/v4/compute/instances/9' },
      status: 'notification',
      message: 'hello',
    });
    expect(e2.id).toBeGreaterThan(e1.id);
    expect(e1).toMatchObject({ action: 'firewall_create', status: 'finished', read: false, seen: false, username: 'alice' });
    expect(e1.secondary_entity).toBeNull();
    expect(e1.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(e2).toMatchObject({ username: 'emulator-user', status: 'notification', message: 'hello' });
    expect(e2.secondary_entity?.id).toBe(9);
    expect(Object.keys(e1).sort()).toEqual([
      'action',
      'created',
      'duration',
      'entity',
      'id',
      'message',
      'percent_complete',
      'rate',
      'read',
      'secondary_entity',
      'seen',
      'status',
      'time_remaining',
      'username',
    ]);
    const table = s.table<Event>(EVENTS_TABLE);
    expect(table.size).toBe(2);
    s.advance(89 * 86400);
    expect(table.size).toBe(2);
    s.advance(1 * 86400 + 1);
    expect(table.size).toBe(0);
  });
});

describe('permissions', () => {
  const restricted: Principal = {
    token: 'r',
    username: 'r',
    scopes: '*',
    restricted: true,
    grants: { global: { account_access: 'read_only', add_monitor: false }, entities: { domain: { '3': 'read_write' } } },
  };
  const full: Principal = { token: 'f', username: 'f', scopes: '*', restricted: false, grants: { global: {}, entities: {} } };

  it('unrestricted users can access everything; null principals nothing', () => {
    expect(canAccess(full, 'database', 77, 'read_write')).toBe(true);
    expect(hasGlobalGrant(full, 'add_computes')).toBe(true);
    expect(canAccess(null, 'compute', 1, 'read_only')).toBe(false);
    expect(hasGlobalGrant(null, 'add_computes')).toBe(false);
  });

  it('restricted users need per-entity grants; read_write satisfies read_only', () => {
    expect(canAccess(restricted, 'domain', 3, 'read_only')).toBe(true);
    expect(canAccess(restricted, 'domain', '3', 'read_write')).toBe(true);
    expect(canAccess(restricted, 'domain', 4, 'read_only')).toBe(false);
    expect(canAccess(restricted, 'compute', 3, 'read_only')).toBe(false);
    expect(hasGlobalGrant(restricted, 'account_access')).toBe(true);
    expect(hasGlobalGrant(restricted, 'add_monitor')).toBe(false);
    expect(hasGlobalGrant(restricted, 'add_computes')).toBe(false);
  });

  it('grantOwnership gives a restricted creator read_write; unrestricted users are untouched', () => {
    const p: Principal = { ...restricted, grants: { global: {}, entities: {} } };
    grantOwnership(p, 'firewall', 12);
    expect(canAccess(p, 'firewall', 12, 'read_write')).toBe(true);
    grantOwnership(full, 'firewall', 12);
    expect(full.grants.entities).toEqual({});
  });
});

describe('validation helpers', () => {
  const o = { s: 'abc', n: 5, b: true, a: [1, 2], obj: { x: 1 }, nul: null, f: 1.5, big: 2 ** 60 };
  const fieldOf = (fn: () => unknown): string | null => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toBe(400);
      return (e as ApiError).field;
    }
    throw new Error('expected a validation error');
  };

  it('strings: bounds inclusive, enum, pattern, nullable, required', () => {
    expect(v.optString(o, 's', { min: 3, max: 3 })).toBe('abc');
    expect(v.optString(o, 'missing')).toBeUndefined();
    expect(v.optString(o, 'nul', { nullable: true })).toBeNull();
    expect(fieldOf(() => v.optString(o, 'nul'))).toBe('nul');
    expect(fieldOf(() => v.optString(o, 's', { min: 4 }))).toBe('s');
    expect(fieldOf(() => v.optString(o, 's', { max: 2, path: 'p.0' }))).toBe('p.0.s');
    expect(fieldOf(() => v.optString(o, 's', { enum: ['x'] }))).toBe('s');
    expect(fieldOf(() => v.optString(o, 's', { pattern: /^\d+$/, patternReason: 'digits only' }))).toBe('s');
    expect(fieldOf(() => v.reqString(o, 'missing'))).toBe('missing');
    expect(fieldOf(() => v.reqString(o, 'n'))).toBe('n');
    expect(v.optString({ e: '😀😀😀' }, 'e', { max: 3 })).toBe('😀😀😀');
  });

  it('integers: type, safe range, bounds, enum', () => {
    expect(v.reqInt(o, 'n', { min: 5, max: 5 })).toBe(5);
    expect(fieldOf(() => v.reqInt(o, 'n', { min: 6 }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'n', { max: 4 }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'n', { enum: [1, 3] }))).toBe('n');
    expect(fieldOf(() => v.reqInt(o, 'f'))).toBe('f');
    expect(fieldOf(() => v.reqInt(o, 'big'))).toBe('big');
    expect(fieldOf(() => v.reqInt(o, 's'))).toBe('s');
    expect(v.optInt(o, 'nul', { nullable: true })).toBeNull();
  });

  it('booleans, arrays and objects', () => {
    expect(v.reqBool(o, 'b')).toBe(true);
    expect(fieldOf(() => v.reqBool(o, 'n'))).toBe('n');
    expect(v.reqArray(o, 'a', { min: 2, max: 2 })).toEqual([1, 2]);
    expect(fieldOf(() => v.reqArray(o, 'a', { max: 1 }))).toBe('a');
    expect(fieldOf(() => v.reqArray(o, 'a', { min: 3 }))).toBe('a');
    expect(fieldOf(() => v.reqArray(o, 'obj'))).toBe('obj');
    expect(v.reqObject(o, 'obj')).toEqual({ x: 1 });
    expect(fieldOf(() => v.reqObject(o, 'a'))).toBe('a');
    expect(fieldOf(() => v.asObject('x', 'body.x'))).toBe('body.x');
    expect(fieldOf(() => v.fail('nope', 'f'))).toBe('f');
    expect(() => v.fail('gone', null, 404)).toThrow(ApiError);
  });

  it('own members only (no prototype lookups)', () => {
    expect(v.optString({}, 'toString')).toBeUndefined();
    expect(fieldOf(() => v.reqString({}, 'constructor'))).toBe('constructor');
  });
});
