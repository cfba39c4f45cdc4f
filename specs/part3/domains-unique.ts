// Document 3, "Domain": "domain … unique across the whole platform", declared from specs/part3/domains.spec.ts by
// `uniqueNameChecks` (a module of that spec file, not a spec file: its plan keys name it): a name is taken on
// create, slave create, import, clone and rename, in any case, and while its holder is disabled too.
import { describe } from 'vitest';
import { MASTER_NAMESERVER } from '../../arbitraries/generators/net.js';
import { check, type Check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';

type Json = Record<string, unknown>;

const SOA = 'hostmaster@example.com';

interface Helpers {
  /** The domains the list shows named `name` (in any case). */
  allNamed: (c: Check, name: string) => Promise<Json[]>;
  /** After a create that should have been refused: tracks whatever it made so it is deleted after the file. */
  trackStray: (c: Check, exchange: Exchange, name: string, keep: number[]) => Promise<void>;
}

export function uniqueNameChecks(fx: Fixtures, { allNamed, trackStray }: Helpers): void {
  // ------------------------------------------------------------------------------------------------ uniqueness

  describe('Domain name unique across the platform', () => {
    const rule = 'P3.domain.domain.unique-platform';
    /** A name and its upper-case form: a name differing in case only is the same name (RFC 1035 compares without case). */
    const spellings = (name: string) => [name, name.toUpperCase()];

    check(rule, 'creating a domain whose name exists, in any case, is rejected', async (c) => {
      const domain = await fx.newDomain(c);
      const again = await c.post('/v4/domains', { domain: domain.domain, type: 'master', soa_email: SOA });
      await trackStray(c, again, domain.domain, [domain.id]);
      c.expectRejected(rule, again, `creating a second domain ${domain.domain}`, 'domain');
      const named = await allNamed(c, domain.domain);
      c.expect(rule, named.length <= 1, `the domain list shows ${named.length} domains named ${domain.domain}`);
      // A name differing in case only is the same name (RFC 1035 compares names without case).
      const upper = domain.domain.toUpperCase();
      const shouted = await c.post('/v4/domains', { domain: upper, type: 'master', soa_email: SOA });
      await trackStray(c, shouted, upper, [domain.id]);
      c.expectRejected(rule, shouted, `creating ${upper} beside ${domain.domain}`, 'domain');
    });

    // "unique on the platform": a name held by another account, which the run cannot make, is named by the user.
    check(rule, 'creating a domain another account holds is rejected', async (c) => {
      const name = c.setting('takenDomain', 'needs a domain name another account holds: set --taken-domain');
      const taken = await c.post('/v4/domains', { domain: name, type: 'master', soa_email: SOA });
      await trackStray(c, taken, name, []);
      c.expectRejected(rule, taken, `creating ${name}, a domain another account holds (--taken-domain)`, 'domain');
    });

    check(rule, 'creating a slave domain whose name exists is rejected', async (c) => {
      const domain = await fx.newDomain(c);
      const again = await c.post('/v4/domains', { domain: domain.domain, type: 'slave', master_ips: [MASTER_NAMESERVER] });
      await trackStray(c, again, domain.domain, [domain.id]);
      c.expectRejected(rule, again, `creating a slave domain ${domain.domain} beside the master of that name`, 'domain');
    });

    check(rule, 'importing a domain whose name exists, in any case, is rejected', async (c) => {
      const domain = await fx.newDomain(c);
      for (const name of spellings(domain.domain)) {
        const again = await c.post('/v4/domains/import', { domain: name, remote_nameserver: 'ns1.example.com' });
        await trackStray(c, again, name, [domain.id]);
        c.expectRejected(rule, again, `importing ${name} while ${domain.domain} exists`);
      }
    });

    check(rule, 'cloning to a domain name that exists, in any case, is rejected', async (c) => {
      const [source, taken] = [await fx.newDomain(c), await fx.newDomain(c)];
      for (const name of spellings(taken.domain)) {
        const clone = await c.post(`/v4/domains/${source.id}/clone`, { domain: name });
        await trackStray(c, clone, name, [taken.id]);
        c.expectRejected(rule, clone, `cloning ${source.domain} to ${name} while ${taken.domain} exists`, 'domain');
      }
    });

    check(rule, 'cloning a domain to its own name is rejected', async (c) => {
      const source = await fx.newDomain(c);
      const clone = await c.post(`/v4/domains/${source.id}/clone`, { domain: source.domain });
      await trackStray(c, clone, source.domain, [source.id]);
      c.expectRejected(rule, clone, `cloning ${source.domain} to its own name`, 'domain');
    });

    // A disabled domain still exists (document 3, "Domain status": it is only not rendered): it holds its name too.
    for (const status of ['active', 'disabled'] as const)
      check(rule, `renaming a domain to the name of an ${status} domain, in any case, is rejected`, async (c) => {
        const [first, second] = [await fx.newDomain(c, { status }), await fx.newDomain(c)];
        for (const name of spellings(first.domain)) {
          const put = await c.put(`/v4/domains/${second.id}`, { domain: name });
          c.expectRejected(rule, put, `renaming ${second.domain} to ${name} while an ${status} domain ${first.domain} exists`, 'domain');
        }
        const named = await allNamed(c, first.domain);
        c.expect(rule, named.length <= 1, `the domain list shows ${named.length} domains named ${first.domain}`);
        if (status === 'active') return;
        const again = await c.post('/v4/domains', { domain: first.domain, type: 'master', soa_email: SOA });
        await trackStray(c, again, first.domain, [first.id]);
        c.expectRejected(rule, again, `creating ${first.domain} while a disabled domain of that name exists`, 'domain');
      });
  });
}
