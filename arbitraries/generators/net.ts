import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { unreserved } from './dns.js';
import { matching } from './text.js';

/**
 * Network-ish values for request bodies. The good generators stay inside forms every reader agrees on
 * (dotted quads without leading zeroes, lower-case hex IPv6 without embedded IPv4, CIDRs with the host
 * bits cleared, reserved example domains); each bad one is wrong under EVERY related format (`notIp()` is
 * neither `ip` nor `ip-or-cidr`, `notUrl()` is neither `uri` nor `http-url`), so any field using it rejects it.
 */

const octet = () => fc.integer({ min: 0, max: 255 });
const hextet = () => fc.integer({ min: 0, max: 0xffff });

function v4Text(parts: number[]): string {
  return parts.join('.');
}

function v6Text(groups: number[]): string {
  return groups.map((g) => g.toString(16)).join(':');
}

/** A dotted-quad IPv4 address. */
export function ipv4(): fc.Arbitrary<string> {
  return fc.tuple(octet(), octet(), octet(), octet()).map(v4Text);
}

/** An IPv6 address, either all eight groups or with one `::` run. */
export function ipv6(): fc.Arbitrary<string> {
  const full = fc.array(hextet(), { minLength: 8, maxLength: 8 }).map(v6Text);
  const compressed = fc
    .tuple(fc.array(hextet(), { minLength: 0, maxLength: 3 }), fc.array(hextet(), { minLength: 0, maxLength: 3 }))
    .map(([head, tail]) => `${v6Text(head)}::${v6Text(tail)}`);
  return fc.oneof(full, compressed);
}

/** Clears the bits of `bytes` past `prefix` (so the address is the network's). */
function maskBytes(bytes: number[], prefix: number, bitsPerPart: number): number[] {
  return bytes.map((value, i) => {
    const kept = Math.max(0, Math.min(bitsPerPart, prefix - i * bitsPerPart));
    const mask = kept === 0 ? 0 : ((2 ** bitsPerPart - 1) >> (bitsPerPart - kept)) << (bitsPerPart - kept);
    return value & mask;
  });
}

/** A network's parts (octets or hextets, host bits cleared) and prefix, before it is written out. */
interface NetworkParts {
  parts: number[];
  prefix: number;
}

const cidrText = ({ parts, prefix }: NetworkParts, family: 'ipv4' | 'ipv6') => `${family === 'ipv4' ? v4Text(parts) : v6Text(parts)}/${prefix}`;

function networkParts(family: 'ipv4' | 'ipv6'): fc.Arbitrary<NetworkParts> {
  const parts = family === 'ipv4' ? fc.tuple(octet(), octet(), octet(), octet()) : fc.array(hextet(), { minLength: 8, maxLength: 8 });
  const bits = family === 'ipv4' ? 8 : 16;
  return fc
    .tuple(parts, fc.integer({ min: 0, max: family === 'ipv4' ? 32 : 128 }))
    .map(([drawn, prefix]) => ({ parts: maskBytes(drawn, prefix, bits), prefix }));
}

/** An IPv4 network in CIDR notation (`203.0.113.0/24`), prefix 0..32. */
export function ipv4Cidr(): fc.Arbitrary<string> {
  return networkParts('ipv4').map((network) => cidrText(network, 'ipv4'));
}

/** The private IPv4 ranges of RFC 1918: first address and netmask bits. */
const PRIVATE_V4: Array<{ first: number; bits: number }> = [
  { first: 0x0a000000, bits: 8 },
  { first: 0xac100000, bits: 12 },
  { first: 0xc0a80000, bits: 16 },
];

/**
 * An interface address in CIDR form (`10.1.2.3/24`): a private (RFC 1918) IPv4 host address with a netmask of up to
 * 30 bits that keeps its network inside the range, never its network's own address nor its broadcast address. Which
 * addresses an `ipam_address` takes is not shown: this is what every reading takes.
 */
export function ipv4HostCidr(): fc.Arbitrary<string> {
  return fc.constantFrom(...PRIVATE_V4).chain(({ first, bits }) =>
    fc.tuple(fc.integer({ min: bits, max: 30 }), fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 })).map(([prefix, offset]) => {
      const hostBits = 2 ** (32 - prefix) - 1;
      let address = first + offset;
      if (address % (hostBits + 1) === 0) address += 1;
      else if (address % (hostBits + 1) === hostBits) address -= 1;
      return `${v4Text([address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255])}/${prefix}`;
    }),
  );
}

/** An IPv6 network in CIDR notation (`2600:3c00:0:0:0:0:0:0/32`), prefix 0..128. */
export function ipv6Cidr(): fc.Arbitrary<string> {
  return networkParts('ipv6').map((network) => cidrText(network, 'ipv6'));
}

/**
 * Address ranges (ipaddr.js names) no connection comes from, which a server may refuse in an access list or a firewall
 * rule: `reserved` holds 240.0.0.0/4 and the documentation networks.
 */
const NO_SOURCE = new Set(['unspecified', 'loopback', 'multicast', 'broadcast', 'linkLocal', 'reserved']);

/**
 * Whether connections can come from the address or network `entry` (`a.b.c.d`, `a.b.c.d/n`, IPv6 alike): its address
 * is in none of the NO_SOURCE ranges. Which addresses an access list or a firewall rule takes is not shown: a server
 * may refuse one no packet comes from (a documentation, multicast or loopback network).
 */
export function fromSomewhere(entry: string): boolean {
  return !NO_SOURCE.has(ipaddr.parse(entry.split('/')[0]!).range());
}

/**
 * An IPv6 network inside global unicast, 2000::/3 (RFC 4291), outside its special blocks (6to4, Teredo, ORCHID and
 * the like, which ipaddr.js names): the space outside it is reserved by IANA, and a server may refuse it as it may a
 * documentation network.
 */
function globalUnicast({ parts, prefix }: NetworkParts): NetworkParts {
  const wide = Math.max(prefix, 3);
  return { parts: maskBytes([0x2000 | (parts[0]! & 0x1fff), ...parts.slice(1)], wide, 16), prefix: wide };
}

/**
 * A network of one family in IP/mask form: any address (`/0`), or one connections can come from (as `fromSomewhere`
 * judges, here on the parts drawn: parsing the text back cost a full run about 0.3 s of CPU); an IPv6 one in global
 * unicast.
 */
export function networkFromSomewhere(family: 'ipv4' | 'ipv6'): fc.Arbitrary<string> {
  if (family === 'ipv6')
    return networkParts('ipv6')
      .map((network) => (network.prefix === 0 ? network : globalUnicast(network)))
      .filter(({ parts, prefix }) => prefix === 0 || new ipaddr.IPv6(parts).range() === 'unicast')
      .map((network) => cidrText(network, 'ipv6'));
  return networkParts('ipv4')
    .filter(({ parts, prefix }) => prefix === 0 || !NO_SOURCE.has(new ipaddr.IPv4(parts).range()))
    .map((network) => cidrText(network, 'ipv4'));
}

/**
 * An access-list entry every reading takes: an IPv4 address some connection can come from, or a network of them no
 * wider than /8. Which addresses a list takes is not shown, and "single addresses are shown with a /32 suffix" may be
 * read as IPv4 only.
 */
export function allowListEntry(): fc.Arbitrary<string> {
  const narrow = (entry: string) => !entry.includes('/') || Number(entry.split('/')[1]) >= 8;
  return fc.oneof(ipv4(), ipv4Cidr()).filter((entry) => narrow(entry) && fromSomewhere(entry));
}

/**
 * An IPv4 or IPv6 address a nameserver on the internet can have: global unicast (which addresses a domain's IP lists
 * take is not shown, and a server may refuse any other as a zone's master or transfer peer).
 */
export function nameserverAddress(): fc.Arbitrary<string> {
  return fc.oneof(unicastAddress('ipv4'), unicastAddress('ipv6'));
}

/**
 * A global unicast address of one family (ipaddr.js "unicast"): one a host on the internet can have, which every
 * reading of "IP address" takes (a server may refuse an A record pointing at 0.0.0.0 or a multicast group).
 */
export function unicastAddress(family: 'ipv4' | 'ipv6'): fc.Arbitrary<string> {
  return (family === 'ipv4' ? ipv4() : ipv6()).filter((address) => ipaddr.parse(address).range() === 'unicast');
}

/** a.root-servers.net: a nameserver on the internet (which refuses a transfer of the zone), for a slave's master_ips. */
export const MASTER_NAMESERVER = '198.41.0.4';

const dnsLabel = () => matching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/).map(unreserved);

/** An address at a reserved example domain (`jo.ann@mail.example.com`). */
export function email(): fc.Arbitrary<string> {
  const local = fc.array(matching(/^[a-z0-9](?:[a-z0-9_+-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }).map((words) => words.join('.'));
  const domain = fc
    .tuple(fc.option(dnsLabel(), { nil: undefined }), fc.constantFrom('example.com', 'example.org', 'example.net'))
    .map(([sub, base]) => (sub ? `${sub}.${base}` : base));
  return fc.tuple(local, domain).map(([l, d]) => `${l}@${d}`);
}

/**
 * A URL of one of `schemes` at a reserved example domain, with a path of one to three segments: a server writing URLs
 * back in a normal form shows an empty path as "/" (RFC 3986, 6.2.3), so none is sent.
 */
export function httpUrl(schemes: readonly string[]): fc.Arbitrary<string> {
  const path = fc.array(matching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 3 }).map((parts) => parts.map((p) => `/${p}`).join(''));
  return fc
    .tuple(fc.constantFrom(...schemes), fc.option(dnsLabel(), { nil: undefined }), fc.constantFrom('example.com', 'example.org'), path)
    .map(([scheme, sub, base, p]) => `${scheme}://${sub ? `${sub}.` : ''}${base}${p}`);
}

/**
 * Not an IP address in any notation (and not a CIDR either). The inet_aton forms (1.2.3, 01.2.3.4) are left out: many
 * address parsers read them as addresses (variation ipv4-loose-forms); so is "", which may be read as absent.
 */
export function notIp(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('256.1.1.1', '1.2.3.4.5', 'localhost', '1:2:3:4:5:6:7:8:9', 'gggg::1', '1.2.3.-4'),
    fc.integer({ min: 256, max: 999 }).map((big) => `10.${big}.0.1`),
    matching(/^[a-z]{1,12}$/),
  );
}

/** Not a CIDR, nor a bare address (so `ip-or-cidr` rejects it as well). */
export function notCidr(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('10.0.0.0/', '/24', '10.0.0.0/abc', '::/', 'gggg::/64', '10.0.0.0/24/8', 'localhost/8'),
    fc.integer({ min: 33, max: 999 }).map((bits) => `10.0.0.0/${bits}`),
    fc.integer({ min: 129, max: 999 }).map((bits) => `2600:3c00::/${bits}`),
  );
}

/** Not an e-mail address; never "", which may be read as absent (blank-optional-absent). */
export function notEmail(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('@example.com', 'jo@', 'jo@@example.com', 'jo ann@example.com', 'jo@exa mple.com', 'jo@example..com'),
    matching(/^[a-z0-9.]{1,16}$/),
  );
}

/** Neither a URI nor an http(s) URL (no scheme, or a broken one); never "", which may be read as absent (blank-optional-absent). */
export function notUrl(): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom('example.com/path', 'http//example.com', '://example.com', 'not a url', '/relative/path'), matching(/^[a-z]{1,12}$/));
}

const EXAMPLE_DOMAIN = 'example.com';

/**
 * An e-mail address of exactly `length` characters (13..140): local part up to 64, then a sub-domain label
 * (up to 63) of example.com. For length bounds such as "email max 128".
 */
export function emailOfLength(length: number): fc.Arbitrary<string> {
  const fixed = 1 + EXAMPLE_DOMAIN.length;
  const rest = length - fixed;
  if (rest < 1 || rest > 64 + 64) throw new Error(`no e-mail address of ${length} characters here`);
  const localLength = Math.min(rest, 64);
  const subLength = rest - localLength - 1; // minus the dot before example.com
  const word = (n: number) => fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), { minLength: n, maxLength: n }).map((c) => c.join(''));
  if (rest > 64 && subLength < 1) {
    // rest = 65 would leave a dot and no label: shorten the local part by one instead
    return fc.tuple(word(63), word(1)).map(([local, sub]) => `${local}@${sub}.${EXAMPLE_DOMAIN}`);
  }
  return fc
    .tuple(word(localLength), subLength > 0 ? word(subLength) : fc.constant(''))
    .map(([local, sub]) => `${local}@${sub ? `${sub}.` : ''}${EXAMPLE_DOMAIN}`);
}
