// The secrets of a managed database cluster (document 1, "Managed databases"): its root password and its CA
// certificate, as stored and as the ssl view shows it.
import type { Store } from '../../core/store.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';

export function password(store: Store): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let out = '';
  for (let i = 0; i < 24; i++) out += alphabet[Math.floor(store.random() * alphabet.length)];
  return out;
}

export function caCertificate(store: Store, id: number): string {
  const body = Buffer.from(`chs-database-ca-${id}-${store.randomHex(96)}`)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  const pem = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
  return Buffer.from(pem).toString('base64');
}

/** The certificate as the ssl view shows it: base64 of its PEM text, the PEM text itself (a variation), or colon-separated hex (a fault). */
export function caCertificateShown(store: Store, stored: string): string {
  if (faulty(store, 'P1.database-ssl.ca-certificate.base64')) return (Buffer.from(stored, 'base64').toString('hex').match(/../g) ?? []).join(':');
  return varied(store, 'ca-certificate-pem') ? Buffer.from(stored, 'base64').toString('utf8') : stored;
}
