// Orders of judging an assignment body other than the emulator's own (document 3, IP addresses, "Assignment rules"),
// each under a variation: which of a body's faults a server names first is not shown.
import { isIPv4 } from 'node:net';
import { getInstance } from '../core/entities.js';
import type { Store } from '../core/store.js';
import { fail } from '../core/validate.js';
import { faulty } from '../faults/index.js';
import { isPrivate4, ownerOf4, parseRange, ranges } from './ips-model.js';

type Json = Record<string, unknown>;
const itemsOf = (o: Json): unknown[] => (Array.isArray(o['assignments']) ? (o['assignments'] as unknown[]) : []);
const asItem = (item: unknown): Json => (item !== null && typeof item === 'object' ? (item as Json) : {});

/** ipv4/assign under the variation ipv4-assign-assignments-only: `region`, which its body does not document, is refused. */
export function refuseRegionMember(o: Json): void {
  if (o['region'] !== undefined) fail('ipv4/assign takes assignments only: region is not a member of its body.', 'region');
  const index = itemsOf(o).findIndex((item) => asItem(item)['region'] !== undefined);
  if (index >= 0) fail('ipv4/assign takes address and compute_id in each assignment: region is not one of them.', `assignments.${index}.region`);
}

/**
 * Under the variation assign-items-first the list is judged before anything else: not empty, and every address an
 * item names held on the account (the first one that is not is named).
 */
export function judgeItemsFirst(store: Store, o: Json): void {
  if (Array.isArray(o['assignments']) && o['assignments'].length === 0) fail('assignments must name at least one address.', 'assignments');
  itemsOf(o).forEach((item, i) => {
    const address = asItem(item)['address'];
    if (typeof address !== 'string') return;
    const known = address.includes('/') ? ranges(store).has(parseRange(address)?.range ?? '') : ownerOf4(store, address) !== undefined;
    if (!known) fail(`No address ${address} on the account.`, `assignments.${i}.address`);
  });
}

/**
 * Under the variation assign-end-states-first the end states are judged first, from the items whose address and
 * compute_id are well formed ("every instance involved must end with at least one public IPv4 address"): an instance
 * left without one is named by the item that takes its last public address.
 */
export function judgeEndStatesFirst(store: Store, o: Json): void {
  const held = new Map<number, string[]>();
  const lastTaken = new Map<number, number>();
  const holding = (id: number) => held.get(id) ?? held.set(id, [...(getInstance(store, id)?.ipv4 ?? [])]).get(id)!;
  itemsOf(o).forEach((item, i) => {
    const { address, compute_id: to } = asItem(item);
    const owner = typeof address === 'string' && isIPv4(address) ? ownerOf4(store, address) : undefined;
    if (!owner || typeof to !== 'number' || !getInstance(store, to)) return;
    holding(owner.id);
    for (const [id, list] of held) {
      const at = list.indexOf(address as string);
      if (at < 0) continue;
      list.splice(at, 1);
      lastTaken.set(id, i);
    }
    holding(to).push(address as string);
  });
  // (the fault lets an instance end without one here too: the emulator's own judgment after this one skips it)
  if (faulty(store, 'P3.assign.end-public-ipv4')) return;
  for (const [id, list] of held)
    if (lastTaken.has(id) && !list.some((a) => !isPrivate4(a) || faulty(store, 'P3.assign.end-public-ipv4~any-ipv4')))
      fail(`Instance ${id} would end without a public IPv4 address; every instance needs at least one.`, `assignments.${lastTaken.get(id)}.address`);
}
