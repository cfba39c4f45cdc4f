// An instance's addresses as its view (document 2) shows them, and the address an IPv6 range routes to (document 3):
// what the fixtures and the IP address checks tell ranges and instances apart by.
import ipaddr from 'ipaddr.js';
import type { Check } from './check.js';

type Json = Record<string, unknown>;

const norm6 = (address: string) => ipaddr.IPv6.parse(address.replace(/\/\d+$/, '')).toString();

/** An address as lists compare it: an IPv6 one normalised, without a prefix length; anything else as it is. */
export function addressKey(address: unknown): unknown {
  if (typeof address !== 'string') return address;
  const bare = address.replace(/\/\d+$/, '');
  return ipaddr.IPv6.isValid(bare) ? norm6(bare) : address;
}

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

/**
 * Targets of A and AAAA records every reading takes: global unicast addresses (in 45.64.0.0/10 and 2600:3c00::/32, as
 * the firewall checks' rule sources), which a host on the internet can have. "IP address" is all the documents say of
 * a target; a server may refuse a documentation (192.0.2.0/24, 2001:db8::/32), private, reserved or multicast one.
 * `otherIpv4` is a second IPv4 target, for an update that changes it.
 */
export const RECORD_ADDRESS = { ipv4: '45.64.0.10', otherIpv4: '45.64.0.11', ipv6: '2600:3c00::10' } as const;
