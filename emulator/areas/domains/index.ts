// Document 3, "Domains": DNS zones and their records, clone, import and zone file.
//
// Choices where the document is silent:
// - Time values (expire_sec, refresh_sec, retry_sec, ttl_sec) are stored as given after rounding UP to a valid
//   value; 0 is stored and returned as 0 (it is itself a valid value, meaning "the default") and the defaults
//   (expire 1209600, refresh 14400, retry 14400, ttl 86400) are applied when the zone is rendered.
//   Negative values and values above 2419200 → 400.
// - Record ttl_sec is rounded to the NEAREST valid value; a tie goes to the LARGER value; absent → the domain's
//   effective ttl. Negative → 400.
// - A domain without description / group has no such member (an empty string would break 1..255 / 1..50);
//   soa_email of a slave domain given none is "".
// - Domain names: 1..255 chars, at least two labels, labels 1..63 letters/digits/hyphens not starting or ending
//   with a hyphen (RFC 1035 as relaxed by RFC 1123: a label may start with a digit); no trailing period;
//   uniqueness is case-insensitive and platform-wide (a seeded domain of "another account" is never listed).
// - Import simulates the zone transfer: any valid hostname or IP as remote_nameserver succeeds, except addresses
//   in 192.0.2.0/24 (TEST-NET-1), which stand for a nameserver that refuses AXFR (400). The imported zone is a
//   master domain with soa_email hostmaster@<domain> and no records.
// - {domainId} in the clone and zone-file paths (a string) is the numeric id or the domain name.
// - Record fields that belong to other types (priority on an A record, tag on an MX, ...) → 400.
// - SRV: `service` and `protocol` get their `_` only when it is missing (so a PUT that sends back the stored value
//   is stable); service also gets a trailing period; the record's name is `<service><protocol>`.
// - A CNAME's name must differ from every other CNAME of the domain (case-insensitive).
// - A PTR record is refused by the records endpoint (it is set through reverse DNS).
// - The zone file is `{"zone_file": [lines]}`, re-rendered after every change while the domain is active; a domain
//   created disabled has never been rendered and returns `{"zone_file": []}`.
// - Events: dns_zone_create / dns_zone_update / dns_zone_delete / dns_zone_import, dns_record_create /
//   dns_record_update / dns_record_delete.
import { seedContext, type Area } from '../../core/types.js';
import { varied } from '../../variations/index.js';
import { createDomain, domainRoutes } from './domains.js';
import { FOREIGN, FOREIGN_DOMAIN } from './model.js';
import { recordRoutes } from './records.js';

export const area: Area = {
  name: 'domains',
  routes: [...domainRoutes, ...recordRoutes],
  seed(store) {
    store.table<string>(FOREIGN).set(FOREIGN_DOMAIN, 'another-account');
    // Under the variation the account holds zones named outside RFC 1035's preferred syntax (a colleague's, or older).
    if (!varied(store, 'legacy-names-listed')) return;
    const seedCtx = seedContext(store);
    for (const domain of ['0/25.2.0.192.in-addr.arpa', '_acme-challenge.example.org'])
      createDomain(seedCtx, { domain, type: 'master', soa_email: 'hostmaster@example.org' });
  },
};
