// An instance's addresses as its view (document 2) shows them, and the address an IPv6 range routes to (document 3):
// what the fixtures and the IP address checks tell ranges and instances apart by.
import ipaddr from 'ipaddr.js';
import type { Check } from './check.js';

type Json = Record<string, unknown>;

const norm6 = (address: string) => ipaddr.IPv6.parse(address.replace(/\/\d+$/, '')).toString();

/** The address a range routes to, normalised: its `route_target` bare or with `/128` (how a response writes it is not shown). */
export function routeTargetOf(range: Json | undefined): string | undefined {
  const shown = range?.route_target;
  if (typeof shown !== 'string') return undefined;
  const address = shown.replace(/\/128$/, '');
  return ipaddr.IPv6.isValid(address) ? norm6(address) : undefined;
}

/** The instance's IPv4 addresses and IPv6 SLAAC address, from its view (document 2). */
export async function addressesOf(c: Check, instanceId: number): Promise<{ ipv4: string[]; slaac: string | null }> {
  const body = (await c.get(`/v4/compute/instances/${instanceId}`)).body as Json | undefined;
  const ipv4 = Array.isArray(body?.ipv4) ? (body.ipv4 as unknown[]).filter((a): a is string => typeof a === 'string') : [];
  const slaac = typeof body?.ipv6 === 'string' && ipaddr.IPv6.isValid(body.ipv6.replace(/\/\d+$/, '')) ? norm6(body.ipv6) : null;
  return { ipv4, slaac };
}
