// A domain's name as the suite compares it (document 3, Domain: "domain | string | 1..255 chars; labels up to 63 chars;
// RFC 1035"): RFC 1035 writes a name absolute, with a final period, and DNS names are compared without regard to case,
// so a name shown `Example.COM.` is the name sent as `example.com`. How a name is written back is not shown.

/** A domain name written one way: lower case, without a final period. Anything but a string is left as it is. */
export const domainNameKey = (name: unknown): unknown => (typeof name === 'string' ? name.toLowerCase().replace(/(?<=.)\.$/, '') : name);

/** Whether `shown` (a member as returned) is the domain name `name`, case and a final period aside. */
export const sameDomainName = (shown: unknown, name: unknown): boolean =>
  typeof shown === 'string' && typeof name === 'string' && domainNameKey(shown) === domainNameKey(name);
