// Helpers of the IP address spec (ip-addresses.spec.ts): an instance's addresses as its view (document 2) shows them.
import ipaddr from 'ipaddr.js';
import type { Check } from '../../harness/check.js';

type Json = Record<string, unknown>;

export const isPrivate = (address: string) => ipaddr.IPv4.isValid(address) && ipaddr.IPv4.parse(address).range() === 'private';
export const norm6 = (address: string) => ipaddr.IPv6.parse(address.replace(/\/\d+$/, '')).toString();

/** The instance's IPv4 addresses and IPv6 SLAAC address, from its view (document 2). */
export async function addressesOf(c: Check, instanceId: number): Promise<{ ipv4: string[]; slaac: string | null }> {
  const body = (await c.get(`/v4/compute/instances/${instanceId}`)).body as Json | undefined;
  const ipv4 = Array.isArray(body?.ipv4) ? (body.ipv4 as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  const slaac = typeof body?.ipv6 === 'string' && ipaddr.IPv6.isValid(body.ipv6.replace(/\/\d+$/, '')) ? norm6(body.ipv6) : null;
  return { ipv4, slaac };
}

export async function publicOf(c: Check, instanceId: number): Promise<string> {
  const found = (await addressesOf(c, instanceId)).ipv4.find((a) => !isPrivate(a));
  if (!found) throw new Error(`setup: instance ${instanceId} shows no public IPv4 address`);
  return found;
}

export async function privateOf(c: Check, instanceId: number): Promise<string> {
  const found = (await addressesOf(c, instanceId)).ipv4.find(isPrivate);
  if (!found) throw new Error(`setup: instance ${instanceId} created with private_ip shows no private IPv4 address`);
  return found;
}

export async function slaacOf(c: Check, instanceId: number): Promise<string> {
  const { slaac } = await addressesOf(c, instanceId);
  if (!slaac) c.skip(`instance ${instanceId} has no IPv6 SLAAC address`);
  return slaac;
}

/** The instance's addresses as a sorted string, to see that nothing changed. */
export async function snapshot(c: Check, ids: number[]): Promise<string> {
  const parts = [];
  for (const id of ids) parts.push(`${id}:${(await addressesOf(c, id)).ipv4.slice().sort().join(',')}`);
  return parts.join(' ');
}
