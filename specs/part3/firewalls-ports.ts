// Document 3, "Rule object": the ports grammar, declared from specs/part3/firewalls.spec.ts by `portsChecks` (a module
// of that spec file, not a spec file: its plan keys name it): ports, ranges, pieces, leading zeroes, in each rule of
// either list; ICMP without ports, TCP and UDP with them.
import { describe } from 'vitest';
import { check } from '../../harness/check.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { FW, rulesOf, storedRules, tcpRule, type Json } from './firewalls-support.js';

/** The ports grammar, one rule at a time: each accepted case is sent as the only inbound rule of a firewall. */
const PORTS: Array<{ rule: string; accepted: string[]; refused: string[] }> = [
  {
    rule: 'P3.firewall.rule.ports.syntax',
    accepted: ['22', '8000-8080', '22,80,443', '22, 80, 443', '22,8000-8080, 9000'],
    // Only "a space may follow a comma" is stated: other blanks (" 22", "22 ,80", "22,  80") are judged neither way.
    refused: ['abc', '22;80', '22,,80', '22 80', '22-', '-22', '22-80-90', '22,', '80:90', '1.5'],
  },
  { rule: 'P3.firewall.rule.ports.range-end-greater', accepted: ['80-81', '1-65535'], refused: ['90-80', '80-80', '22, 443-442'] },
  { rule: 'P3.firewall.rule.ports.range-1-65535', accepted: ['1', '65535', '1-2', '65534-65535'], refused: ['0', '65536', '0-80', '80-65536', '22, 70000'] },
  { rule: 'P3.firewall.rule.ports.no-leading-zeroes', accepted: ['80', '100-200'], refused: ['080', '01-90', '80-090', '22, 0443'] },
  {
    rule: 'P3.firewall.rule.ports.pieces-max-15',
    accepted: [
      Array.from({ length: 15 }, (_, i) => String(i + 1)).join(','),
      [...Array.from({ length: 7 }, (_, i) => `${100 * (i + 1)}-${100 * (i + 1) + 10}`), '22'].join(', '),
    ],
    refused: [
      Array.from({ length: 16 }, (_, i) => String(i + 1)).join(','),
      Array.from({ length: 8 }, (_, i) => `${100 * (i + 1)}-${100 * (i + 1) + 10}`).join(','),
      [...Array.from({ length: 7 }, (_, i) => `${100 * (i + 1)}-${100 * (i + 1) + 10}`), '22', '23'].join(','),
    ],
  },
];

export function portsChecks(fx: Fixtures): void {
  describe('Firewall rule ports', () => {
    // Every rule of either list is held to the grammar: the refused cases take turns at these places, after good rules.
    const PLACES = [
      { way: 'inbound', index: 0 },
      { way: 'outbound', index: 1 },
      { way: 'inbound', index: 1 },
    ];
    for (const { rule, accepted, refused } of PORTS) {
      check(rule, `ports accepted: ${accepted.length} cases, refused: ${refused.length} cases`, async (c) => {
        const firewall = await fx.firewall(c);
        const path = `${FW}/${firewall.id}/rules`;
        for (const ports of accepted) c.expectSuccess(rule, await c.put(path, { inbound: [tcpRule(ports)] }), `ports "${ports}"`);
        for (const [i, ports] of refused.entries()) {
          const { way, index } = PLACES[i % PLACES.length]!;
          const rules = [...rulesOf(index), tcpRule(ports, { protocol: 'UDP' })];
          c.expectRejected(rule, await c.put(path, { [way]: rules }), `ports "${ports}" in ${way} rule ${index}`, `${way}.${index}.ports`);
        }
      });
    }

    check(
      ['P3.firewall.rule.ports.forbidden-for-icmp', 'P3.firewall.rule.ports.required-for-tcp-udp'],
      'ICMP rules take no ports; TCP and UDP rules need them',
      async (c) => {
        const firewall = await fx.firewall(c);
        const path = `${FW}/${firewall.id}/rules`;
        const icmp = { action: 'ACCEPT', protocol: 'ICMP', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } };
        c.expectSuccess('P3.firewall.rule.ports.forbidden-for-icmp', await c.put(path, { inbound: [icmp] }), 'an ICMP rule without ports');
        for (const { what, value: rules, exchange } of await storedRules(
          c,
          firewall.id,
          (read) => (read?.inbound as Json[] | undefined)?.[0]?.protocol === 'ICMP',
        )) {
          const stored = (rules.inbound as Json[] | undefined)?.[0];
          c.expect(
            'P3.firewall.rule.ports.forbidden-for-icmp',
            stored && (stored.ports === undefined || stored.ports === null || stored.ports === ''),
            `${what}: the stored ICMP rule carries ports ${JSON.stringify(stored?.ports)}`,
            exchange,
          );
        }
        c.expectRejected(
          'P3.firewall.rule.ports.forbidden-for-icmp',
          await c.put(path, { inbound: [{ ...icmp, ports: '22' }] }),
          'an ICMP rule with ports',
          // ports and protocol clash: which is at fault is not shown
          ['inbound.0.ports', 'inbound.0.protocol'],
        );
        for (const protocol of ['TCP', 'UDP']) {
          const { ports: _ports, ...withoutPorts } = tcpRule('22', { protocol });
          c.expectRejected(
            'P3.firewall.rule.ports.required-for-tcp-udp',
            await c.put(path, { outbound: [withoutPorts] }),
            `a ${protocol} rule without ports`,
            // ports and protocol clash: which is at fault is not shown
            ['outbound.0.ports', 'outbound.0.protocol'],
          );
        }
      },
    );
  });
}
