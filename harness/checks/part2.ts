import ipaddr from 'ipaddr.js';
import type { SemanticCheck, SemanticProblem } from './types.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `address/bits` with a valid address of either family and a decimal prefix length in range. */
function isCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (rest.length || !address || !bits || !/^\d{1,3}$/.test(bits)) return false;
  try {
    ipaddr.parseCIDR(value);
  } catch {
    return false;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
}

/** The address part of a CIDR (or a bare address), normalised, for comparing; the raw text when unparseable. */
function addressKey(value: string): string {
  const address = value.split('/')[0] ?? value;
  try {
    return ipaddr.parse(address).toNormalizedString();
  } catch {
    return value;
  }
}

/** Constraints of document 2 that JSON Schema cannot express, named by `"x-check"` in the schemas. */
export const checks: Record<string, SemanticCheck> = {
  /** Interface `ipam_address`: CIDR form IP/netmask when given (empty or null means none). */
  'p2-ipam-address': (value) => {
    if (typeof value !== 'string' || value === '') return [];
    return isCidr(value) ? [] : [{ rule: 'P2.interfaces.ipam-address.cidr', message: `"${value}" is not in CIDR form IP/netmask` }];
  },

  /** Interfaces array: one public interface at most; labels and ipam addresses unique among the interfaces. */
  'p2-interfaces': (value) => {
    if (!Array.isArray(value)) return [];
    const problems: SemanticProblem[] = [];
    const labels = new Map<string, number>();
    const addresses = new Map<string, number>();
    let publicSeen = -1;
    value.forEach((item, index) => {
      if (!isObject(item)) return;
      if (item.purpose === 'public') {
        if (publicSeen >= 0)
          problems.push({ rule: 'P2.interfaces.public.max-1', message: `interfaces ${publicSeen} and ${index} are both public`, path: `/${index}/purpose` });
        else publicSeen = index;
      }
      if (typeof item.label === 'string' && item.label !== '') {
        const first = labels.get(item.label);
        if (first !== undefined)
          problems.push({ rule: 'P2.interfaces.label.unique', message: `label "${item.label}" repeats interface ${first}`, path: `/${index}/label` });
        else labels.set(item.label, index);
      }
      if (typeof item.ipam_address === 'string' && item.ipam_address !== '') {
        const key = addressKey(item.ipam_address);
        const first = addresses.get(key);
        if (first !== undefined)
          problems.push({
            rule: 'P2.interfaces.ipam-address.unique',
            message: `ipam_address "${item.ipam_address}" repeats interface ${first}`,
            path: `/${index}/ipam_address`,
          });
        else addresses.set(key, index);
      }
    });
    return problems;
  },

  /** Volume: filesystem_path is a fixed prefix followed by the label; compute_label is set exactly when compute_id is. */
  'p2-volume': (value) => {
    if (!isObject(value)) return [];
    const problems: SemanticProblem[] = [];
    const { filesystem_path: path, label, compute_id: computeId, compute_label: computeLabel } = value;
    if (typeof path === 'string' && typeof label === 'string' && label !== '' && !path.endsWith(label))
      problems.push({
        rule: 'P2.volume.filesystem-path.label',
        message: `filesystem_path "${path}" does not end with the label "${label}"`,
        path: '/filesystem_path',
      });
    const attached = typeof computeId === 'number';
    const labelled = typeof computeLabel === 'string';
    if ((computeId === null || attached) && (computeLabel === null || labelled) && attached !== labelled)
      problems.push({
        rule: 'P2.volume.compute-label.attached',
        message: attached
          ? `compute_id is ${String(computeId)} but compute_label is null`
          : `compute_label is "${String(computeLabel)}" but compute_id is null`,
        path: '/compute_label',
      });
    return problems;
  },

  /** Load balancer: hostname begins with its IPv4 address (dotted, or with dashes for dots). */
  'p2-balancer-hostname': (value) => {
    if (!isObject(value)) return [];
    const { hostname, ipv4 } = value;
    if (typeof hostname !== 'string' || typeof ipv4 !== 'string' || !ipaddr.IPv4.isValidFourPartDecimal(ipv4)) return [];
    const prefixes = [ipv4, ipv4.replaceAll('.', '-')];
    if (prefixes.some((prefix) => hostname.startsWith(prefix) && /^([.-]|$)/.test(hostname.slice(prefix.length)))) return [];
    return [{ rule: 'P2.load-balancer.hostname.ip-prefix', message: `hostname "${hostname}" does not begin with the IP address ${ipv4}`, path: '/hostname' }];
  },
};
