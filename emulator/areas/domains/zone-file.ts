// The zone file of a domain, re-rendered after every change while the domain is active.
import type { Store } from '../../core/store.js';
import { faulty } from '../../faults/index.js';
import { NAMESERVERS, stateOf, TIME_DEFAULTS, type Domain } from './model.js';

function fqdn(name: string, zone: string): string {
  if (name === '') return `${zone}.`;
  if (name.endsWith('.')) return name;
  if (zone === '') return `${name}.`;
  if (name.toLowerCase() === zone.toLowerCase() || name.toLowerCase().endsWith(`.${zone.toLowerCase()}`)) return `${name}.`;
  return `${name}.${zone}.`;
}

/** Renders the zone when the domain is active; a disabled domain keeps its last rendered zone. */
export function render(store: Store, d: Domain): void {
  if (d.status !== 'active') return;
  const eff = (k: keyof typeof TIME_DEFAULTS) => d[k] || TIME_DEFAULTS[k];
  const serial = d.updated.slice(0, 10).replace(/-/g, '') + '01';
  const email = d.soa_email ? d.soa_email.replace('@', '.') + '.' : `hostmaster.${d.domain}.`;
  const lines = [
    `; ${d.domain} [${d.id}]`,
    `$TTL ${eff('ttl_sec')}`,
    `@\tIN\tSOA\t${NAMESERVERS[0]}. ${email} ${serial} ${eff('refresh_sec')} ${eff('retry_sec')} ${eff('expire_sec')} ${eff('ttl_sec')}`,
    ...NAMESERVERS.map((ns) => `@\t\tNS\t${ns}.`),
  ];
  for (const r of stateOf(store, d.id).records) {
    const owner = r.type === 'SRV' ? fqdn(r.name, d.domain) : r.name === '' ? '@' : r.name;
    let data: string;
    switch (r.type) {
      case 'MX':
        data = `${r.priority} ${r.target === '' ? '.' : fqdn(r.target, '')}`;
        break;
      case 'SRV': {
        // A target kept as a bare subdomain (srv-target-shown-as-given) is combined with the domain here (under the fault
        // …~zone it is taken for a name of its own).
        const ownName = r.target.includes('.') || faulty(store, 'P3.record.srv.target.subdomain-combined~zone');
        data = `${r.priority} ${r.weight} ${r.port} ${fqdn(r.target, ownName ? '' : d.domain)}`;
        break;
      }
      case 'CAA':
        data = `0 ${r.tag} "${r.target}"`;
        break;
      case 'TXT':
        data = JSON.stringify(r.target);
        break;
      case 'NS':
      case 'CNAME':
        data = fqdn(r.target, '');
        break;
      default:
        data = r.target;
    }
    lines.push(`${owner}\t${r.ttl_sec}\tIN\t${r.type}\t${data}`);
  }
  stateOf(store, d.id).zone = lines;
}

/** Marks the domain updated and renders its zone again. */
export function touch(store: Store, d: Domain): void {
  d.updated = store.nowIso();
  render(store, d);
}
