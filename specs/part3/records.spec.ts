// Document 3, "Domain record (request fields)" and the record endpoints of "Domains": the record rules only a
// sequence of requests can show — CNAME name uniqueness, the null MX, rounding of ttl_sec, defaults and
// automatic composition read back and `[remote_addr]` (records-filled.ts), trailing periods, delete, and the update
// body with a single member. Fields of a record as returned are not shown: a check reads a field back only where the target shows
// it, and reports `skip` otherwise.
import fc from 'fast-check';
import { describe } from 'vitest';
import { exampleHost, recordName, recordTargetHost } from '../../arbitraries/generators/dns.js';
import { email, httpUrl, unicastAddress } from '../../arbitraries/generators/net.js';
import { stringOfLength } from '../../arbitraries/generators/text.js';
import { RECORD_ADDRESS } from '../../harness/addresses.js';
import { check, type Check } from '../../harness/check.js';
import { untilGone, untilShortlyDone } from '../../harness/consistency.js';
import { listPages as listAll } from '../../harness/lists.js';
import { runProperty } from '../../harness/property.js';
import { useFixtures } from '../../harness/fixtures.js';
import {
  acceptedRecord,
  addRecord,
  domainWithoutMx,
  firstOfItsKind,
  judgeSingleUpdate,
  RECORD_OF_TYPE,
  recordsPath,
  recordView,
  relativeName,
  removeRecord,
  shown,
  SRV_MEMBERS,
} from './records-support.js';
import { filledValueChecks } from './records-filled.js';
import type { Exchange } from '../../harness/http.js';
import { integerId } from '../../harness/ids.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part3-records');

/** The property runner of the harness, at most 25 runs and no shrinking here: every run sends requests. */
/** `examples`: values sent first, where a fault breaks the rule for one kind of body only and a draw may miss it. */
const property = <T>(c: Check, arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, maxRuns = 25, examples?: T[]) =>
  runProperty(c, arbitrary, predicate, { maxRuns, shrink: false, ...(examples ? { examples } : {}) });

const SRV = SRV_MEMBERS;

// ------------------------------------------------------------------------------------------------ CNAME

describe('CNAME name unique', () => {
  const rule = 'P3.record.cname.name.unique';

  /** After a refused write, the record list (where it shows types and names) shows one CNAME named `name`. */
  const judgeOneNamed = async (c: Check, domainId: number, domain: string, name: string, refused: Exchange) => {
    const named = (listed: Json[]) => listed.filter((item) => item.type === 'CNAME' && relativeName(item.name, domain) === name);
    const { items } = await listAll(c, recordsPath(domainId), { until: (listed) => named(listed).length === 1 });
    if (items.every((item) => 'type' in item && 'name' in item))
      c.expect(rule, named(items).length === 1, `the record list shows ${named(items).length} CNAME records named ${name}`, refused);
  };

  check(rule, 'a second CNAME with the same name is rejected', async (c) => {
    const { id: domainId, domain } = await fx.newDomain(c);
    await addRecord(c, domainId, { type: 'CNAME', name: 'alias', target: 'www.example.net' });
    const second = await c.post(recordsPath(domainId), { type: 'CNAME', name: 'alias', target: 'other.example.net' });
    c.expectRejected(rule, second, 'a second CNAME named alias', 'name');
    await judgeOneNamed(c, domainId, domain, 'alias', second);
    // A name differing in case only is the same name (RFC 1035 compares names without case).
    const shouted = await c.post(recordsPath(domainId), { type: 'CNAME', name: 'ALIAS', target: 'other.example.net' });
    c.expectRejected(rule, shouted, 'a second CNAME named ALIAS beside alias', 'name');
  });

  check(rule, 'renaming a CNAME to the name of another, in any case, is rejected', async (c) => {
    const { id: domainId, domain } = await fx.newDomain(c);
    await addRecord(c, domainId, { type: 'CNAME', name: 'alias', target: 'www.example.net' });
    const other = await addRecord(c, domainId, { type: 'CNAME', name: 'other', target: 'other.example.net' });
    const shouted = await c.put(`${recordsPath(domainId)}/${other}`, { name: 'ALIAS' });
    c.expectRejected(rule, shouted, 'a PUT renaming the CNAME named other to ALIAS beside the CNAME alias', 'name');
    const renamed = await c.put(`${recordsPath(domainId)}/${other}`, { name: 'alias' });
    c.expectRejected(rule, renamed, 'a PUT renaming the CNAME named other to alias, the name of another CNAME', 'name');
    await judgeOneNamed(c, domainId, domain, 'alias', renamed);
  });

  check(rule, 'a second CNAME with the same name and target is rejected', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    await addRecord(c, domainId, { type: 'CNAME', name: 'same', target: 'www.example.net' });
    c.expectRejected(
      rule,
      await c.post(recordsPath(domainId), { type: 'CNAME', name: 'same', target: 'www.example.net' }),
      'an identical second CNAME',
      'name',
    );
  });

  check(rule, 'CNAME records with different names are accepted side by side', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    await addRecord(c, domainId, { type: 'CNAME', name: 'one', target: 'www.example.net' });
    await acceptedRecord(c, rule, domainId, { type: 'CNAME', name: 'two', target: 'www.example.net' }, 'a CNAME named two beside one named one');
  });
});

// ------------------------------------------------------------------------------------------------ null MX

describe('Null MX', () => {
  /** A null MX accepted in a domain without MX records (which judges P3.record.mx.null-accepted). */
  const newNullMx = (c: Check, domainId: number) =>
    acceptedRecord(c, 'P3.record.mx.null-accepted', domainId, { type: 'MX', name: '', target: '' }, 'a null MX in a domain without MX records');

  check('P3.record.mx.null-accepted', 'with no other MX, an MX with empty target and name is accepted', async (c) => {
    const rule = 'P3.record.mx.null-accepted';
    await newNullMx(c, (await domainWithoutMx(c, fx)).id);
    const second = await domainWithoutMx(c, fx);
    await acceptedRecord(c, rule, second.id, { type: 'MX', name: '', target: '', priority: 0 }, 'a null MX with priority 0');
  });

  // The generated bodies go to the file's domain, which may hold an MX (one the service adds, or another check's), for
  // which a null MX is refused whatever its name: here none is left.
  check('P3.record.mx.null-name-empty', 'a null MX with a name is rejected, in a domain without MX records', async (c) => {
    const { id: domainId } = await domainWithoutMx(c, fx);
    c.expectRejected(
      'P3.record.mx.null-name-empty',
      await c.post(recordsPath(domainId), { type: 'MX', name: 'mail', target: '' }),
      'an MX with an empty target named mail',
      // (a server may read it as an ordinary MX, whose empty target is then at fault)
      ['name', 'target'],
    );
  });

  check('P3.record.mx.null-priority-zero', 'a null MX with a priority other than 0 is rejected', async (c) => {
    const rule = 'P3.record.mx.null-priority-zero';
    const { id: domainId } = await domainWithoutMx(c, fx);
    for (const priority of [1, 10, 255]) {
      c.expectRejected(
        rule,
        await c.post(recordsPath(domainId), { type: 'MX', name: '', target: '', priority }),
        `a null MX with priority ${priority}`,
        // A server may read the non-zero priority as an ordinary MX's, whose empty target and empty name (the mail
        // subdomain) are then at fault.
        ['priority', 'target', 'name'],
      );
    }
  });

  // An update keeps the record's other members (PUT: "record fields, none required"): a null MX given a priority or a
  // name alone is a null MX breaking its rule, or an MX without a mail server, under every reading.
  const NULL_MX_UPDATES = [
    { rule: 'P3.record.mx.null-priority-zero', body: { priority: 10 }, fields: ['priority', 'target', 'name'] },
    { rule: 'P3.record.mx.null-name-empty', body: { name: 'mail' }, fields: ['name', 'target'] },
  ];
  check(
    NULL_MX_UPDATES.map(({ rule }) => rule),
    'an update giving a null MX a priority other than 0, or a name, is rejected',
    async (c) => {
      const { id: domainId } = await domainWithoutMx(c, fx);
      const nullMx = await newNullMx(c, domainId);
      for (const { rule, body, fields } of NULL_MX_UPDATES)
        c.expectRejected(rule, await c.put(`${recordsPath(domainId)}/${nullMx}`, body), `PUT ${JSON.stringify(body)} on a null MX`, fields);
    },
  );

  check(
    ['P3.record.mx.null-requires-no-other-mx', 'P3.record.mx.null-accepted'],
    'a null MX beside another MX is rejected, and accepted once that MX is removed',
    async (c) => {
      const { id: domainId } = await domainWithoutMx(c, fx);
      const mx = await addRecord(c, domainId, { type: 'MX', name: 'mail', target: 'mail.example.net', priority: 10 });
      c.expectRejected(
        'P3.record.mx.null-requires-no-other-mx',
        await c.post(recordsPath(domainId), { type: 'MX', name: '', target: '' }),
        'a null MX beside an MX record',
      );
      await removeRecord(c, domainId, mx);
      await acceptedRecord(c, 'P3.record.mx.null-accepted', domainId, { type: 'MX', name: '', target: '' }, 'a null MX after the only MX was removed', {
        afterDeletion: true,
      });
    },
  );

  check('P3.record.mx.null-requires-no-other-mx', 'a null MX beside an MX of a subdomain is rejected', async (c) => {
    const { id: domainId } = await domainWithoutMx(c, fx);
    await addRecord(c, domainId, { type: 'MX', name: 'mail', target: 'mx.example.net' });
    c.expectRejected(
      'P3.record.mx.null-requires-no-other-mx',
      await c.post(recordsPath(domainId), { type: 'MX', name: '', target: '' }),
      'a null MX beside an MX of a subdomain',
    );
  });

  check('P3.record.mx.null-blocks-mx', 'while a null MX exists, new MX records are rejected', async (c) => {
    const rule = 'P3.record.mx.null-blocks-mx';
    const { id: domainId } = await domainWithoutMx(c, fx);
    const nullMx = await newNullMx(c, domainId);
    c.expectRejected(
      rule,
      await c.post(recordsPath(domainId), { type: 'MX', name: '', target: 'mail.example.net', priority: 10 }),
      'an MX while a null MX exists',
    );
    c.expectRejected(
      rule,
      await c.post(recordsPath(domainId), { type: 'MX', name: 'sub', target: 'mail.example.net' }),
      'an MX of a subdomain while a null MX exists',
    );
    const mxOf = (listed: Json[]) => listed.filter((item) => item.type === 'MX');
    const { items } = await listAll(c, recordsPath(domainId), { until: (listed) => mxOf(listed).length === 1 });
    if (items.every((item) => 'type' in item)) {
      const mx = mxOf(items);
      c.expect(rule, mx.length === 1, `the record list shows ${mx.length} MX records (only the null MX was accepted)`);
    }
    // once the null MX is gone, MX records can be created again
    await removeRecord(c, domainId, nullMx);
    await addRecord(c, domainId, { type: 'MX', name: 'mail', target: 'mail.example.net', priority: 10 });
  });

  check('P3.record.mx.null-blocks-mx', 'while a null MX exists, a second null MX is rejected', async (c) => {
    const rule = 'P3.record.mx.null-blocks-mx';
    const { id: domainId } = await domainWithoutMx(c, fx);
    await newNullMx(c, domainId);
    c.expectRejected(rule, await c.post(recordsPath(domainId), { type: 'MX', name: '', target: '' }), 'a second null MX');
  });
});

// ------------------------------------------------------------------------------------------------ ttl_sec

/** Sent → shown, rounded to the NEAREST valid value (no ties: the midpoints are never sent). */
const TTL_CASES: Array<[sent: number, shown: number]> = [
  [0, 300],
  [1, 300],
  [300, 300],
  [301, 300],
  [1000, 300],
  [3000, 3600],
  [3601, 3600],
  [5000, 3600],
  [6000, 7200],
  [7200, 7200],
  [10000, 7200],
  [12000, 14400],
  [20000, 14400],
  [23000, 28800],
  [43000, 28800],
  [44000, 57600],
  [86401, 86400],
  [120000, 86400],
  [140000, 172800],
  [300000, 345600],
  [500000, 604800],
  [1000000, 1209600],
  [1500000, 1209600],
  [2000000, 2419200],
  [2419199, 2419200],
  [3000000, 2419200],
];

/**
 * Whether a record given ttl_sec `sent` shows `value`: the nearest valid value, or, for 0, 0 itself (for the domain's
 * time values "The value 0 means the default", and a server may read a record's 0 so).
 */
const roundedTtl = (sent: number, value: unknown, expected: number) => value === expected || (sent === 0 && value === 0);

describe('Record ttl_sec', () => {
  const rule = 'P3.record.ttl-sec.round-nearest';

  check(rule, 'on create, a ttl_sec that is not valid is rounded to the nearest valid value', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    for (const [sent, expected] of [
      [301, 300],
      [3000, 3600],
      [2000000, 2419200],
    ] as const) {
      const id = await acceptedRecord(
        c,
        rule,
        domainId,
        { type: 'TXT', name: `ttl${sent}`, target: 'conformance', ttl_sec: sent },
        `a TXT record with ttl_sec ${sent}`,
      );
      const value = shown(c, await recordView(c, rule, domainId, id), 'ttl_sec');
      c.expect(rule, value === expected, `a record created with ttl_sec ${sent} shows ttl_sec ${JSON.stringify(value)} (nearest valid value ${expected})`);
    }
  });

  check(rule, 'on update, values below, at and above the valid values', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    const id = await addRecord(c, domainId, { type: 'A', name: 'www', target: RECORD_ADDRESS.ipv4 });
    for (const [sent, expected] of TTL_CASES) {
      const put = await c.put(`${recordsPath(domainId)}/${id}`, { ttl_sec: sent });
      c.expectSuccess(rule, put, `PUT ttl_sec ${sent}`);
      const value = shown(c, await recordView(c, rule, domainId, id, (seen) => roundedTtl(sent, seen.ttl_sec, expected)), 'ttl_sec');
      c.expect(
        rule,
        roundedTtl(sent, value, expected),
        `after PUT ttl_sec ${sent} the record shows ttl_sec ${JSON.stringify(value)} (nearest valid value ${expected})`,
        put,
      );
    }
  });
});

filledValueChecks(fx);

// ------------------------------------------------------------------------------------------------ properties

describe('Names and targets the documents accept', () => {
  check('P3.record.caa.name.empty-whole-domain', 'a CAA record with name omitted or empty is accepted', async (c) => {
    const rule = 'P3.record.caa.name.empty-whole-domain';
    const { id: domainId } = await fx.newDomain(c);
    const bodies = fc
      .tuple(
        fc.constantFrom('issue', 'issuewild', 'iodef'),
        fc.constantFrom('omitted', 'empty'),
        exampleHost(),
        fc.oneof(
          httpUrl(['http']),
          email().map((address) => `mailto:${address}`),
        ),
      )
      .map(([tag, name, issuer, contact]): Json => ({
        type: 'CAA',
        tag,
        target: tag === 'iodef' ? contact : issuer,
        ...(name === 'empty' ? { name: '' } : {}),
      }));
    const fresh = firstOfItsKind();
    await property(
      c,
      bodies,
      async (body) => {
        fc.pre(fresh(body));
        const created = await c.post(recordsPath(domainId), body);
        c.expectSuccess(rule, created, `a CAA record for the whole domain (${'name' in body ? 'name ""' : 'no name'}, tag ${String(body.tag)})`);
      },
      15,
      [
        { type: 'CAA', tag: 'issue', target: 'ca.example.net', name: '' },
        { type: 'CAA', tag: 'issue', target: 'ca.example.org' },
      ],
    );
  });

  // "a trailing period is accepted except for A, AAAA and CAA": a TXT value's too (one is sent first each time).
  check('P3.record.target.trailing-period-accepted', 'NS, MX, CNAME, SRV and TXT targets with a trailing period are accepted on create', async (c) => {
    const rule = 'P3.record.target.trailing-period-accepted';
    const { id: domainId } = await fx.newDomain(c);
    const bodies = fc.tuple(fc.constantFrom('NS', 'MX', 'CNAME', 'SRV', 'TXT'), exampleHost()).map(([type, host]): Json => {
      const target = `${host}.`;
      if (type === 'SRV') return { ...SRV, target };
      if (type === 'CNAME' || type === 'TXT') return { type, name: fx.label(type === 'TXT' ? 'tx' : 'cn', 60), target };
      return { type, name: type === 'NS' ? 'sub' : 'mail', target };
    });
    const fresh = firstOfItsKind();
    await property(
      c,
      bodies,
      async (body) => {
        fc.pre(fresh(body));
        c.expectSuccess(rule, await c.post(recordsPath(domainId), body), `a ${String(body.type)} record with the target ${String(body.target)}`);
      },
      undefined,
      [
        { type: 'CNAME', name: fx.label('cn', 60), target: 'www.example.net.' },
        { type: 'TXT', name: fx.label('tx', 60), target: 'v=spf1 -all.' },
      ],
    );
  });

  check('P3.record.target.trailing-period-accepted', 'NS, MX, CNAME, SRV and TXT targets with a trailing period are accepted on update', async (c) => {
    const rule = 'P3.record.target.trailing-period-accepted';
    const { id: domainId } = await fx.newDomain(c);
    const ids = {
      NS: await addRecord(c, domainId, { type: 'NS', name: 'sub', target: 'ns1.example.net' }),
      MX: await addRecord(c, domainId, { type: 'MX', name: 'mail', target: 'mx.example.net', priority: 10 }),
      CNAME: await addRecord(c, domainId, { type: 'CNAME', name: 'alias', target: 'www.example.net' }),
      SRV: await addRecord(c, domainId, { ...SRV, target: 'sip.example.net' }),
      TXT: await addRecord(c, domainId, { type: 'TXT', name: 'note', target: 'conformance value' }),
    };
    await property(
      c,
      fc.tuple(fc.constantFrom(...(Object.keys(ids) as Array<keyof typeof ids>)), exampleHost()),
      async ([type, host]) => {
        c.expectSuccess(rule, await c.put(`${recordsPath(domainId)}/${ids[type]}`, { target: `${host}.` }), `PUT the target ${host}. on a ${type} record`);
      },
      undefined,
      [['CNAME', 'www.example.org'] as [keyof typeof ids, string], ['TXT', 'another value'] as [keyof typeof ids, string]],
    );
  });
});

// ------------------------------------------------------------------------------------------------ update body

/** For each record type the rule can use (PTR is set through reverse DNS): a record, and valid single members. */
const UPDATE_SHAPES: Record<string, { create: Json; members: Record<string, fc.Arbitrary<unknown>> }> = {
  A: { create: RECORD_OF_TYPE.A('a'), members: { type: fc.constant('A'), name: recordName(1, 60), target: unicastAddress('ipv4') } },
  AAAA: { create: RECORD_OF_TYPE.AAAA('aaaa'), members: { type: fc.constant('AAAA'), name: recordName(1, 60), target: unicastAddress('ipv6') } },
  NS: {
    create: RECORD_OF_TYPE.NS('ns'),
    members: { type: fc.constant('NS'), name: recordName(1, 60), target: recordTargetHost() },
  },
  MX: {
    create: RECORD_OF_TYPE.MX('mx'),
    members: {
      type: fc.constant('MX'),
      name: recordName(1, 60),
      target: recordTargetHost(),
      priority: fc.integer({ min: 0, max: 255 }),
    },
  },
  CNAME: {
    create: RECORD_OF_TYPE.CNAME('cname'),
    members: { type: fc.constant('CNAME'), name: recordName(1, 60).map((name) => `cn-${name}`), target: recordTargetHost() },
  },
  TXT: {
    create: RECORD_OF_TYPE.TXT('txt'),
    members: { type: fc.constant('TXT'), name: recordName(1, 60), target: stringOfLength(1, 255) },
  },
  SRV: {
    create: RECORD_OF_TYPE.SRV(''),
    members: {
      type: fc.constant('SRV'),
      target: recordTargetHost(),
      priority: fc.integer({ min: 0, max: 255 }),
      weight: fc.integer({ min: 0, max: 65535 }),
      port: fc.integer({ min: 0, max: 65535 }),
      service: stringOfLength(1, 14, 'abcdefghijklmnopqrstuvwxyz0123456789').map((service) => `s${service}`), // RFC 6335: at most 15
      protocol: fc.constantFrom('tcp', 'udp'),
    },
  },
  CAA: {
    create: RECORD_OF_TYPE.CAA('caa'),
    members: {
      type: fc.constant('CAA'),
      name: fc.oneof(recordName(1, 60), fc.constant('')),
      tag: fc.constantFrom('issue', 'issuewild'),
      target: exampleHost(),
    },
  },
};

/** Single-member updates of an MX record (`mail` → `mx.example.net`, priority 10), one per member. */
const MX_SINGLE_UPDATES: Json[] = [{ ttl_sec: 3600 }, { priority: 20 }, { name: 'mail2' }, { target: 'mx2.example.net' }];

describe('PUT /v4/domains/{domainId}/records/{recordId}: no member required', () => {
  const rule = 'P3.record-update.none-required';

  check(rule, 'an update body with any single member valid for the record is accepted', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    const ids: Record<string, number> = {};
    for (const [type, shape] of Object.entries(UPDATE_SHAPES)) ids[type] = await addRecord(c, domainId, shape.create);
    const ttl = fc.integer({ min: 0, max: 3_000_000 });
    const single = fc.constantFrom(...Object.keys(UPDATE_SHAPES)).chain((type) => {
      const members = { ...UPDATE_SHAPES[type]!.members, ttl_sec: ttl };
      return fc
        .constantFrom(...Object.keys(members))
        .chain((member) => members[member as keyof typeof members]!.map((value) => ({ type, body: { [member]: value } as Json })));
    });
    await property(
      c,
      single,
      async ({ type, body }) => {
        const put = await c.put(`${recordsPath(domainId)}/${ids[type]}`, body);
        c.expectSuccess(rule, put, `PUT ${JSON.stringify(body).slice(0, 120)} on a ${type} record`);
      },
      40,
    );
  });

  check([rule, 'P3.record.update.reflected'], 'each single-member update of an MX record is accepted, reads back as sent and leaves the others', async (c) => {
    const { id: domainId, domain } = await fx.newDomain(c);
    const id = await addRecord(c, domainId, { type: 'MX', name: 'mail', target: 'mx.example.net', priority: 10 });
    let before = await recordView(c, rule, domainId, id);
    for (const body of MX_SINGLE_UPDATES) {
      const [member] = Object.keys(body);
      c.expectSuccess(rule, await c.put(`${recordsPath(domainId)}/${id}`, body), `PUT with the single member ${member}`);
      // Read until the member sent shows changed (within the window): a replica may answer as before the update, and
      // what it answered becomes the next update's baseline.
      const after = await recordView(c, rule, domainId, id, (seen) => JSON.stringify(seen[member!]) !== JSON.stringify(before[member!]));
      judgeSingleUpdate(c, rule, body, before, after, domain);
      before = after;
    }
  });
});

// ------------------------------------------------------------------------------------------------ required target

describe('Members a record type requires', () => {
  const rule = 'P3.record.target.required';

  check(rule, 'a record of each type that needs a target is rejected without one', async (c) => {
    const { id: domainId } = await fx.newDomain(c);
    for (const type of ['A', 'AAAA', 'NS', 'MX', 'CNAME', 'TXT', 'SRV']) {
      const { target: _target, ...body } = UPDATE_SHAPES[type]!.create;
      // An MX without target: a server reading an absent member as "" sees a null MX with a name and priority 10 ("must
      // be 0 for a null MX"): any of the three at fault (which it judges first is not shown).
      const fields = type === 'MX' ? ['target', 'name', 'priority'] : 'target';
      c.expectRejected(rule, await c.post(recordsPath(domainId), body), `a ${type} record without target`, fields);
    }
  });
});

// ------------------------------------------------------------------------------------------------ delete

describe('DELETE /v4/domains/{domainId}/records/{recordId}', () => {
  check('P3.record.delete.gone', 'a deleted record is neither viewable nor listed', async (c) => {
    const rule = 'P3.record.delete.gone';
    const { id: domainId } = await fx.newDomain(c);
    const id = await addRecord(c, domainId, { type: 'TXT', name: 'gone', target: 'conformance' });
    const keep = await addRecord(c, domainId, { type: 'TXT', name: 'kept', target: 'conformance' });
    c.expectSuccess(rule, await c.delete(`${recordsPath(domainId)}/${id}`), 'DELETE the record');
    // Whether the record is gone when its DELETE answers or once the deletion has run is not shown (its rules column is
    // empty): the view and the list are read while a short time passes.
    c.expectRejected(rule, await untilGone(c, `${recordsPath(domainId)}/${id}`), 'GET a deleted record (read while a short time passed)');
    // The record kept was created just before: a list lagging that create is read again too.
    const lists = (listed: Json[], record: number) => listed.some((item) => integerId(item.id) === record);
    const settled = (listed: Json[]) => !lists(listed, id) && lists(listed, keep);
    const { first: exchange, items } = await untilShortlyDone(
      c,
      () => listAll(c, recordsPath(domainId), { until: settled }),
      (read) => settled(read.items),
    );
    c.expect(rule, !lists(items, id), `the deleted record ${id} is still listed`, exchange);
    c.expect(rule, lists(items, keep), `deleting record ${id} also removed record ${keep} from the list`, exchange);
  });
});
