// The record members the service fills in, declared from specs/part3/records.spec.ts by `filledValueChecks` (a module
// of that spec file, not a spec file: its plan keys name it): the MX priority default, the SRV service, protocol and
// subdomain target composed on create and on update and `[remote_addr]`.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describe } from 'vitest';
import { check, type Check } from '../../harness/check.js';
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import type { Fixtures } from '../../harness/fixtures.js';
import { acceptedRecord, bareTarget, recordsPath, recordView, renderedSrv, shown, SRV_MEMBERS as SRV } from './records-support.js';

type Json = Record<string, unknown>;

export function filledValueChecks(fx: Fixtures): void {
  // ------------------------------------------------------------------------------------------------ defaults and composition

  describe('Values the service fills in', () => {
    check('P3.record.priority.default-0-mx', 'an MX record created without priority has priority 0', async (c) => {
      const rule = 'P3.record.priority.default-0-mx';
      const { id: domainId } = await fx.newDomain(c);
      // An MX name is a mail subdomain (the empty string is documented for a null MX only).
      for (const name of ['mail', 'mx']) {
        const id = await acceptedRecord(c, rule, domainId, { type: 'MX', name, target: `${name}.example.net` }, `an MX record named ${name} without priority`);
        const value = shown(c, await recordView(c, rule, domainId, id), 'priority');
        c.expect(rule, value === 0, `an MX record created without priority shows priority ${JSON.stringify(value)}`);
      }
    });

    /**
     * Makes an SRV record of the first member value, updates it to the next (an update composes as a create does:
     * PUT takes "record fields, none required"), and judges the record after each. Each write moves the port, so that
     * a record view lagging the update, or a zone not yet rendered again, is not taken for it.
     */
    const createdThenUpdated = async <T>(
      c: Check,
      rule: string,
      domain: { id: number; domain: string },
      values: T[],
      member: (value: T) => Json,
      judge: (record: Json, value: T, port: number, what: string) => Promise<void>,
    ) => {
      let id: number | undefined;
      let before: string | undefined;
      for (const [i, value] of values.entries()) {
        const body = { ...member(value), port: SRV.port + i };
        const what = `an SRV record ${id === undefined ? 'created' : 'updated'} with ${JSON.stringify(member(value))}`;
        if (id === undefined) id = await acceptedRecord(c, rule, domain.id, { ...SRV, target: 'sip.example.net', ...body }, what);
        else c.expectSuccess(rule, await c.put(`${recordsPath(domain.id)}/${id}`, body), what);
        // (where the record shows no port, a read differing from the one before the update shows it)
        const record = await recordView(c, rule, domain.id, id, (seen) => ('port' in seen ? seen.port === body.port : JSON.stringify(seen) !== before));
        before = JSON.stringify(record);
        await judge(record, value, body.port, what);
      }
    };

    // The underscores show in the member, in the record's name composed from it, or, where the record shows the member as
    // given and no name (fields of a record as returned are not shown), in the owner name of the rendered zone.
    const SRV_PARTS = [
      {
        rule: 'P3.record.srv.protocol.underscore',
        title: 'an underscore is prepended to an SRV protocol',
        member: 'protocol',
        values: ['tcp', 'udp'],
        composed: (protocol: string) => `_${protocol}`,
        given: (shown: unknown, protocol: string) => shown === protocol,
        inName: (name: string, protocol: string) => name.split('.').includes(`_${protocol}`),
      },
      {
        rule: 'P3.record.srv.service.underscore-period',
        title: 'an underscore is prepended and a period appended to an SRV service',
        member: 'service',
        values: ['sip', 'xmpp-server'],
        composed: (service: string) => `_${service}.`,
        // the service as given, or with its underscore, composed into the name as `_sip.`
        given: (shown: unknown, service: string) => typeof shown === 'string' && [service, `_${service}`].includes(shown.replace(/\.$/, '')),
        inName: (name: string, service: string) => name.startsWith(`_${service}.`),
      },
    ];
    for (const { rule, title, member, values, composed, given, inName } of SRV_PARTS)
      check(rule, `${title}, on create and on update`, async (c) => {
        const domain = await fx.newDomain(c);
        await createdThenUpdated(
          c,
          rule,
          domain,
          values,
          (value) => ({ [member]: value }),
          async (record, value, port, what) => {
            const part = shown(c, record, member);
            const seen = `${what} shows ${member} ${JSON.stringify(part)} and name ${JSON.stringify(record.name)}`;
            const asGiven = given(part, value);
            const name = record.name || (asGiven ? (await renderedSrv(c, domain, port, seen)).owner : undefined);
            const inTheName = asGiven && typeof name === 'string' && inName(name, value);
            c.expect(rule, part === composed(value) || inTheName, `${seen}${name === record.name ? '' : ` (rendered as ${String(name)})`}`);
          },
        );
      });

    check('P3.record.srv.target.subdomain-combined', 'an SRV target that is a subdomain is combined with the domain, on create and on update', async (c) => {
      const rule = 'P3.record.srv.target.subdomain-combined';
      const domain = await fx.newDomain(c);
      await createdThenUpdated(
        c,
        rule,
        domain,
        ['sipserver', 'sipproxy'],
        (target) => ({ target }),
        async (record, target, port, what) => {
          const value = shown(c, record, 'target');
          // The fields of a record as returned are not shown: a target shown as sent may be combined where the zone is rendered.
          const seen = `${what} shows target ${JSON.stringify(value)}`;
          const rendered = value === target ? (await renderedSrv(c, domain, port, seen)).target : value;
          const combined = `${target}.${domain.domain}`;
          c.expect(
            rule,
            typeof rendered === 'string' && [combined, `${combined}.`].includes(rendered.toLowerCase()),
            `${seen}${rendered === value ? '' : ` (rendered as ${String(rendered)})`} (expected ${combined})`,
          );
        },
      );
    });

    check('P3.record.srv.target.subdomain-combined', 'an SRV target that is an FQDN is used as is', async (c) => {
      const rule = 'P3.record.srv.target.subdomain-combined';
      const domain = await fx.newDomain(c);
      const id = await acceptedRecord(c, rule, domain.id, { ...SRV, target: 'sip.example.net' }, 'an SRV record with the target sip.example.net');
      const value = shown(c, await recordView(c, rule, domain.id, id), 'target');
      c.expect(rule, bareTarget(value) === 'sip.example.net', `an SRV record given the target sip.example.net shows target ${JSON.stringify(value)}`);
    });

    check('P3.record.a.remote-addr', 'the target [remote_addr] submits the IPv4 address of the request', async (c) => {
      const rule = 'P3.record.a.remote-addr';
      const host = new URL(c.target.info.baseUrl).hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) === 6) c.skip('the target is reached over IPv6: a request has no IPv4 address to submit');
      // A name with an IPv6 address may be reached over IPv6 (whichever address connects first): a refusal is judged only
      // where the name has IPv4 addresses alone.
      const mayBeIpv6 = isIP(host) === 0 && (await lookup(host, { all: true }).catch(() => [])).some((address) => address.family === 6);
      const { id: domainId } = await fx.newDomain(c);
      const overIpv6 = mayBeIpv6 ? `the target's name ${host} has an IPv6 address: a request over IPv6 has no IPv4 address to submit` : undefined;
      const id = await acceptedRecord(c, rule, domainId, { type: 'A', name: 'here', target: '[remote_addr]' }, 'an A record with the target [remote_addr]', {
        refusalSkips: overIpv6,
      });
      // Not compared with 127.0.0.1 over loopback: a server behind a proxy on its host sees the proxy's address.
      const judge = (value: unknown, how: string) =>
        c.expect(
          rule,
          typeof value === 'string' && isIP(value) === 4,
          `an A record ${how} [remote_addr] shows target ${JSON.stringify(value)}, not an IPv4 address`,
        );
      judge(shown(c, await recordView(c, rule, domainId, id), 'target'), 'given');
      // An update's target is a target too ("record fields"): the literal is submitted there as well.
      const other = await acceptedRecord(
        c,
        rule,
        domainId,
        { type: 'A', name: 'there', target: RECORD_ADDRESS.ipv4 },
        `an A record with the target ${RECORD_ADDRESS.ipv4}`,
      );
      const put = await c.put(`${recordsPath(domainId)}/${other}`, { target: '[remote_addr]' });
      if (overIpv6 && !(put.status >= 200 && put.status < 300)) c.skip(overIpv6);
      c.expectSuccess(rule, put, 'PUT the target [remote_addr] on an A record');
      judge(shown(c, await recordView(c, rule, domainId, other, (seen) => seen.target !== RECORD_ADDRESS.ipv4), 'target'), 'updated to');
    });
  });
}
