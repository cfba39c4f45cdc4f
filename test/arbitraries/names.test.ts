// Generated host names keep to what every reading takes: no label with hyphens in its third and fourth places, which
// IDNA reserves for its encoded names (a URL parser refuses `https://xn--0.example.com/0`: the emulator refused a valid
// OAuth client's redirect_uri so).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainName } from '../../arbitraries/generators/dns.js';
import { email, httpUrl } from '../../arbitraries/generators/net.js';

const reservedLabels = (host: string) => host.split('.').filter((label) => label.slice(2, 4) === '--');

describe('generated host names', () => {
  it('URLs parse, and no label of a URL, an e-mail domain or a domain name is reserved', () => {
    const urls = fc.sample(httpUrl(['http', 'https']), { numRuns: 20_000, seed: 3 });
    expect(urls.filter((url) => !URL.canParse(url))).toEqual([]);
    const hosts = [
      ...urls.map((url) => new URL(url).hostname),
      ...fc.sample(email(), { numRuns: 5_000, seed: 3 }).map((address) => address.split('@')[1]!),
      ...fc.sample(domainName('r1a2b3-pd'), { numRuns: 5_000, seed: 3 }),
    ];
    expect(hosts.flatMap(reservedLabels)).toEqual([]);
  });
});
