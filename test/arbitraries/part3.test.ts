import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CONTEXT } from '../../arbitraries/context.js';
import { bodies } from '../../arbitraries/part3.js';
import ipaddr from 'ipaddr.js';
import { fromSomewhere } from '../../arbitraries/generators/net.js';
import { generatorChecks } from './generator-checks.js';

generatorChecks('part3', bodies, {
  exempt: {
    // the body's only member has an enum: a value of another type breaks the enum rule as well, so the type rule
    // can never be broken alone (the enum rule is covered instead)
    'P3.monitor-plan-update.types': 'monitor_subscription is its only member and has an enum',
    // a null MX is documented as created: on an MX's update "" for its name and target may be read as no change
    'requests/record-update P3.record.mx.null-name-empty': 'a null MX is made by a create (null-mx-create-only)',
    'requests/record-update P3.record.mx.null-priority-zero': 'a null MX is made by a create (null-mx-create-only)',
  },
  prefixed: [
    ['requests/domain-create', 'domain'],
    ['requests/domain-import', 'domain'],
    ['requests/domain-clone', 'domain'],
    ['requests/firewall-create', 'label'],
    ['requests/monitor-client-create', 'label'],
  ],
});

describe('part3 label generators', () => {
  it('valid labels never hold two separators in a row, and doubled ones use one separator twice', () => {
    const mixed = /[-_.][-_.]/;
    for (const body of fc.sample(bodies['requests/firewall-create']!.valid(SAMPLE_CONTEXT), 200)) expect(mixed.test(body.label as string)).toBe(false);
    const doubled = bodies['requests/firewall-create']!.violations.find((v) => v.rule === 'P3.firewall.label.no-double-punctuation')!;
    for (const body of fc.sample(doubled.arbitrary(SAMPLE_CONTEXT), 200)) {
      const pairs = (body.label as string).match(/[-_.](?=[-_.])./g) ?? [];
      expect(pairs.length).toBeGreaterThan(0);
      for (const pair of pairs) expect(['--', '__', '..']).toContain(pair);
    }
  });
});

describe('part3 firewall rule addresses', () => {
  it('valid rules list only networks traffic can come from (IPv6 in global unicast), or /0 (a server may refuse a documentation, multicast or reserved network)', () => {
    const inGlobalUnicast = (entry: string) => !entry.includes(':') || ipaddr.parseCIDR(entry)[0].match(ipaddr.parseCIDR('2000::/3'));
    const taken = (entry: string) => entry.endsWith('/0') || (fromSomewhere(entry) && inGlobalUnicast(entry));
    for (const body of fc.sample(bodies['requests/firewall-create']!.valid(SAMPLE_CONTEXT), 200)) {
      const rules = body.rules as Record<string, Array<{ addresses: Record<string, string[]> }> | undefined>;
      const entries = [...(rules.inbound ?? []), ...(rules.outbound ?? [])].flatMap((rule) => [...rule.addresses.ipv4!, ...rule.addresses.ipv6!]);
      expect(entries.filter((entry) => !taken(entry))).toEqual([]);
    }
  });
});

describe('part3 tags', () => {
  it("every generated tag starts with the run's prefix (its letters and digits) and t: a domain's tags are account tags, never a label another file's tag create sends", () => {
    const prefix = `${SAMPLE_CONTEXT.labelPrefix.replace(/[^a-z0-9]/g, '')}t`;
    for (const schema of ['requests/domain-create', 'requests/domain-update', 'requests/firewall-create', 'requests/firewall-update'])
      for (const body of fc.sample(bodies[schema]!.valid(SAMPLE_CONTEXT), 200))
        for (const tag of (body.tags as string[] | undefined) ?? []) {
          expect(tag.startsWith(prefix), `${schema}: ${tag}`).toBe(true);
          expect(tag.length, `${schema}: ${tag}`).toBeLessThanOrEqual(24);
          expect(tag, `${schema}: ${tag}`).toMatch(/^[a-z0-9]+$/);
        }
  });
});
