// Document 1, "Account": the account object and its update, cancellation, the credit card, invoices, the login
// history and maintenance. The account is shared by every spec file of a run: each check puts back what it changed,
// and sends `state` and `zip` only together with `country` (alone they would be judged against the country on file;
// a country goes with a zip of its own, as the zip format is not shown and the one on file may not suit it), but for
// the state names the US and CA check sends alone to be refused.
import fc from 'fast-check';
import { describe } from 'vitest';
import { check, CLOCK_LOCK, RuleViolation, twice, type Check } from '../../harness/check.js';
import { isErrorResponse, namesField } from '../../harness/error-bodies.js';
import { readAfterWrite, untilClockSettled } from '../../harness/consistency.js';
import { inSampleForm, listItems as listAll, presentOf, timeOf } from '../../harness/lists.js';
import { ACCOUNT_LOCK, CARD_LOCK } from '../generic/valid-requests.js';
import { postalCodeOf } from '../../arbitraries/generators/postal.js';
import { useFixtures } from '../../harness/fixtures.js';
import type { Exchange } from '../../harness/http.js';
import { RESTRICTED_USERS } from '../../harness/control-hooks.js';
import { answersGone } from '../../harness/resources.js';
import { requestMembers, withMembers } from '../../harness/contract.js';
import { closed, invoiceIds } from './account-support.js';
import { entityOf, instanceEntityTypes, notAnInstance, viewableIds, withInstanceViews } from './maintenance-support.js';

type Json = Record<string, unknown>;

const fx = useFixtures('part1-account');

const DAY_MS = 86_400_000;
const WINDOW_MS = 90 * DAY_MS;
/** How old a listed login may be: a server removing logins past their 90 days once a day lists one up to a day longer. */
const LISTED_AT_MOST_MS = WINDOW_MS + DAY_MS;

const bodyOf = (exchange: Exchange): Json =>
  exchange.body && typeof exchange.body === 'object' && !Array.isArray(exchange.body) ? (exchange.body as Json) : {};
const ok = (exchange: Exchange) => exchange.status >= 200 && exchange.status < 300;

async function account(c: Check): Promise<Json> {
  const view = await c.get('/v4/account');
  if (!ok(view)) throw new Error(`GET /v4/account answered ${view.status}`);
  return bodyOf(view);
}

const ADDRESS = ['country', 'state', 'zip'];

/** A promotion read from a response, as an update may send it back: the members the document lists only (its schema's). */
const documentedPromotion = (promotion: unknown): unknown => withMembers(promotion, requestMembers('requests/account-update', 'active_promotions', 'items'));

/** Puts back the members of `saved` named in `members` (country always with its state and zip). */
async function restore(c: Check, saved: Json, members: string[]): Promise<void> {
  const set = new Set(members);
  if (ADDRESS.some((member) => set.has(member))) ADDRESS.forEach((member) => set.add(member));
  const body = Object.fromEntries([...set].filter((member) => typeof saved[member] === 'string').map((member) => [member, saved[member]]));
  if (Object.keys(body).length) await c.put('/v4/account', body);
}

/** An address outside the US and CA: a province of the country (Berlin, its name in English and German) and its zip. */
const PROVINCE = { country: 'DE', state: 'Berlin', zip: postalCodeOf('DE', 'Berlin') };

/**
 * Values of the members a server may hold to a format of its own (the documents give a length, or "the province" outside
 * the US and CA), of a form every server takes: a province of the country with its zip, a phone, a tax id.
 */
const SHAPED: Record<string, Json> = {
  state: PROVINCE,
  phone: { phone: '+44 20 7946 0958' },
  tax_id: { tax_id: 'DE123456789' },
};

/**
 * Why made-up text of a member's maximum length cannot show that length taken, or undefined: a server holding the
 * member to a format (each country's provinces, a phone's digits, a tax id's) may refuse made-up text of any length.
 * Undefined unless a short made-up value is refused too, naming the member, while a value of its form (`SHAPED`) is
 * taken (then on file).
 */
async function madeUpTextRefused(c: Check, member: string, madeUp: string, extra: Json = {}): Promise<string | undefined> {
  const shaped = SHAPED[member];
  if (!shaped) return undefined;
  const short = await c.put('/v4/account', { ...extra, [member]: madeUp });
  if (!isErrorResponse(short) || namesField(short, member) !== true) return undefined;
  if (!ok(await c.put('/v4/account', shaped))) return undefined;
  await accountShowing(c, { [member]: shaped[member] });
  return `the target refuses made-up text as ${member} (${JSON.stringify(madeUp)}, field ${member}) and takes ${JSON.stringify(shaped[member])}: whether it takes a ${member} of its maximum length cannot be shown with made-up text`;
}

const lastFourOf = (view: Exchange) => (bodyOf(view).credit_card as Json | undefined)?.last_four;
const showsAll = (view: Exchange, expected: Json) => Object.entries(expected).every(([member, value]) => bodyOf(view)[member] === value);

/** The account read back after an accepted update, once it shows `expected` (or the consistency window has passed). */
const accountShowing = (c: Check, expected: Json) =>
  readAfterWrite(
    c,
    () => c.get('/v4/account'),
    (view) => showsAll(view, expected),
  );

/** A member read back from the account, or `skip`-free failure when it differs. */
function expectShows(c: Check, rule: string, view: Exchange, expected: Json, what: string): void {
  const body = bodyOf(view);
  for (const [member, value] of Object.entries(expected)) {
    c.expect(rule, body[member] === value, `${what}: ${member} reads ${JSON.stringify(body[member])}, expected ${JSON.stringify(value)}`, view);
  }
}

/** A check writing the account: it holds the run's account lock, so no other spec file's account write lands meanwhile. */
const accountCheck = (rules: string | string[], title: string, body: (c: Check) => Promise<void>) => check(rules, title, body, { exclusive: ACCOUNT_LOCK });

describe('Account cancellation', () => {
  // The charge can only fail while a balance remains, which a successful cancel pays: the run's one successful
  // cancel comes after every other request (account-cancel.spec.ts). When invoices are issued, raising the balance,
  // is not shown (at a month start, say): the check holds the clock, so no other check's advance lands between its
  // two reads of the balance, and judges the balance only when no invoice was issued between them (real time runs).
  check(
    ['P1.account.cancel.charges-balance', 'P1.errors.reason.cancel-charge-failed'],
    'a declined charge of the remaining balance makes cancellation fail with a reason and no field',
    async (c) => {
      c.needsDestructive();
      const invoicedBefore = await invoiceIds(c);
      const before = await account(c);
      if (typeof before.balance !== 'number' || before.balance <= 0)
        c.skip(`the account has no remaining balance to charge (balance ${JSON.stringify(before.balance)})`);
      // The card lock too, from adding the declining card through putting a good one back: a card another file adds
      // in between would make the cancel succeed, and a server closing a cancelled account refuse the rest of the run.
      await c.exclusively(CARD_LOCK, async () => {
        // 4000000000000002: the payment industry's test card that is always declined.
        const declining = await c.post('/v4/account/credit-card', {
          card_number: '4000000000000002',
          cvv: '123',
          expiry_month: 12,
          expiry_year: new Date().getUTCFullYear() + 3,
        });
        if (!ok(declining)) c.skip('the target refuses the declining test card 4000000000000002, so a failing charge cannot be produced');
        const isDeclining = (lastFour: unknown) => lastFour === 2 || lastFour === '0002';
        const showing = (view: Exchange) => isDeclining(lastFourOf(view));
        // The card on file is read before the cancel too: what a cancelled account does is not shown, and a server may
        // close it, refusing every token from then on (the account can then be read before the cancel only).
        const onFile = lastFourOf(await readAfterWrite(c, () => c.get('/v4/account'), showing));
        try {
          const cancel = await c.post('/v4/account/cancel', { comments: 'conformance run: declined charge' });
          if (ok(cancel)) {
            const after = await readAfterWrite(
              c,
              () => c.get('/v4/account'),
              (view) => closed(view) || showing(view),
            );
            const shown = closed(after) ? onFile : lastFourOf(after);
            if (!isDeclining(shown))
              c.skip('another card was added while this check ran (not by this run: it holds the card lock): the charge cannot be judged');
            c.fail(
              'P1.account.cancel.charges-balance',
              `the account was cancelled although the card on file (4000000000000002, a declining test card) could not be charged the balance of ${String(before.balance)}` +
                (closed(after)
                  ? ` (the account showed that card just before the cancel; after it, its view answered ${after.status}: the account closed)`
                  : ''),
              cancel,
            );
          }
          c.expectRejected('P1.account.cancel.charges-balance', cancel, 'cancel with a declined card');
          const errors = (bodyOf(cancel).errors ?? []) as Json[];
          const first = errors[0] ?? {};
          c.expect(
            'P1.errors.reason.cancel-charge-failed',
            first.field === undefined || first.field === null || first.field === '',
            `the charge failure names field ${JSON.stringify(first.field)}; the documents give it no field`,
            cancel,
          );
          c.expect(
            'P1.errors.reason.cancel-charge-failed',
            typeof first.reason === 'string' && /card|charg|balance|pa(y|id)/i.test(first.reason),
            `the reason ${JSON.stringify(first.reason)} does not say the card could not be charged and the balance must be paid`,
            cancel,
          );
          const after = await account(c);
          const issued = [...(await invoiceIds(c))].filter((id) => !invoicedBefore.has(id));
          // An invoice issued meanwhile may have raised the balance: it is not judged then.
          if (!issued.length)
            c.expect(
              'P1.account.cancel.charges-balance',
              after.balance === before.balance,
              `the balance went from ${String(before.balance)} to ${String(after.balance)} although the charge failed`,
            );
        } finally {
          await c.post('/v4/account/credit-card', {
            card_number: '4012888888881881',
            cvv: '123',
            expiry_month: 12,
            expiry_year: new Date().getUTCFullYear() + 3,
          });
        }
      });
    },
    { exclusive: CLOCK_LOCK },
  );

  for (const [who, spec] of RESTRICTED_USERS)
    check('P1.auth.restricted.cannot-cancel', `${who} cannot cancel the account, whatever its scopes`, async (c) => {
      c.needsDestructive(); // were the target to accept, the account would be cancelled
      const token = await c.principal(spec);
      c.expectRejected(
        'P1.auth.restricted.cannot-cancel',
        await c.post('/v4/account/cancel', { comments: 'conformance run: restricted user' }, { token }),
        `cancel by ${who}`,
      );
    });
});

describe('Account update', () => {
  accountCheck('P1.account.state.us-ca-code', 'US and CA addresses take only two-letter state or province codes (AA, AE, AP for US military)', async (c) => {
    const rule = 'P1.account.state.us-ca-code';
    const saved = await account(c);
    try {
      await twice(c, async () => {
        // Each with a city of its kind: the military codes are for military addresses, whose city is the military
        // post office (APO, FPO or DPO); a server may refuse one elsewhere, or a post office beside another state.
        // `writtenOut`: the state's name, then sent alone: the address is then a US or CA one by the country on file
        // ("for US or CA addresses only the two-letter … code is accepted"); either member may be named at fault.
        const accepted: Array<[string, string, string, writtenOut?: string]> = [
          ['US', 'NY', 'New York', 'New York'],
          ['US', 'AE', 'APO'],
          ['CA', 'ON', 'Ottawa', 'Ontario'],
          ['US', 'AA', 'FPO'],
          ['US', 'AP', 'DPO'],
        ];
        for (const [country, state, city, writtenOut] of accepted) {
          const sent = { country, state, city, zip: postalCodeOf(country, state) };
          c.expectSuccess(rule, await c.put('/v4/account', sent), `PUT country ${country} state ${state} city ${city}`);
          expectShows(c, rule, await accountShowing(c, { country, state }), { country, state }, `after PUT country ${country} state ${state}`);
          if (writtenOut === undefined) continue;
          const alone = `PUT state ${JSON.stringify(writtenOut)} alone on a ${country} address`;
          c.expectRejected(rule, await c.put('/v4/account', { state: writtenOut }), alone, ['state', 'country']);
          expectShows(c, rule, await accountShowing(c, { country, state }), { country, state }, `after the refused ${alone}`);
        }
        // The member at fault: the state; for a code of the other country (NY with CA) the pair, so either member.
        const refused: Array<[string, string, string, string[]?]> = [
          ['US', 'New York', 'New York'],
          ['US', 'Calif', 'Sacramento'],
          ['CA', 'Ontario', 'Ottawa'],
          ['US', 'N.Y.', 'Albany'],
          // Two capitals but no code: none of the US (nor a military one), none of Canada (or of the US only).
          ['US', 'ZZ', 'Albany'],
          ['CA', 'XX', 'Ottawa'],
          ['CA', 'NY', 'Ottawa', ['state', 'country']],
        ];
        for (const [country, state, city, named = 'state'] of refused) {
          c.expectRejected(
            rule,
            await c.put('/v4/account', { country, state, city, zip: postalCodeOf(country) }),
            `PUT country ${country} state ${JSON.stringify(state)}`,
            named,
          );
          expectShows(c, rule, await c.get('/v4/account'), { state: 'AP' }, `after the refused PUT country ${country} state ${JSON.stringify(state)}`);
        }
        // Elsewhere the state is the province, written out (one of the country's, its zip one of that province).
        c.expectSuccess(rule, await c.put('/v4/account', { ...PROVINCE, city: PROVINCE.state }), `PUT country DE state ${PROVINCE.state}`);
        const elsewhere = { country: PROVINCE.country, state: PROVINCE.state };
        expectShows(c, rule, await accountShowing(c, elsewhere), elsewhere, `after PUT country DE state ${PROVINCE.state}`);
        // Not judged: PUT country US alone over that state. The rule names the state values accepted, not what becomes
        // of a stored one when only the country changes.
      });
    } finally {
      await restore(c, saved, [...ADDRESS, 'city']);
    }
  });

  // Two capitals that ISO 3166 leaves to users and never assigns to a country: no reading takes them. Sent alone: the
  // state and zip on file suit no such country, but a server must refuse the country either way.
  accountCheck('P1.account.country.iso-3166', 'a country of two capitals that is no ISO 3166 code (ZZ, XX) is refused', async (c) => {
    const rule = 'P1.account.country.iso-3166';
    const saved = await account(c);
    try {
      for (const country of ['ZZ', 'XX']) {
        c.expectRejected(rule, await c.put('/v4/account', { country }), `PUT country ${country}`, 'country');
        const view = await c.get('/v4/account');
        c.expect(rule, bodyOf(view).country !== country, `after the refused PUT country ${country} the account shows country ${country}`, view);
      }
    } finally {
      await restore(c, saved, ADDRESS);
    }
  });

  // Every member of the update body but active_promotions (credit the provider grants: what an update of it stores is
  // not said), each with a value within its documented limits; country and state together (a US state code).
  accountCheck('P1.account.update.reflected', 'the update response and the account show every contact and billing member sent', async (c) => {
    const rule = 'P1.account.update.reflected';
    const saved = await account(c);
    const sent = {
      address_1: fx.label('1 Main St ', 64),
      company: fx.label('Conformance Co ', 128),
      country: 'US',
      state: 'PA',
      first_name: 'Conformance',
      last_name: fx.label('ln', 50),
      city: 'Harrisburg',
      address_2: fx.label('Suite ', 64),
      phone: '215-555-0199',
      // (a tax id of a form every server takes: one may hold tax ids to a format of its own)
      tax_id: `DE${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`,
      zip: '17101',
      email: `${fx.label('acct', 40).toLowerCase()}@example.com`,
    };
    try {
      await twice(c, async () => {
        const put = await c.put('/v4/account', sent);
        c.expectSuccess(rule, put, 'PUT /v4/account');
        const returned = bodyOf(put);
        for (const [member, value] of Object.entries(sent)) {
          if (member in returned)
            c.expect(
              rule,
              returned[member] === value,
              `the update response shows ${member} ${JSON.stringify(returned[member])}, sent ${JSON.stringify(value)}`,
              put,
            );
        }
        expectShows(c, rule, await accountShowing(c, sent), sent, 'GET /v4/account after the update');
      });
    } finally {
      await restore(c, saved, Object.keys(sent));
    }
  });

  accountCheck('P1.account-update.any-of', 'any non-empty subset of the update members is accepted', async (c) => {
    const rule = 'P1.account-update.any-of';
    const members = [
      'active_promotions',
      'address_1',
      'address_2',
      'city',
      'company',
      'country',
      'email',
      'first_name',
      'last_name',
      'phone',
      'state',
      'tax_id',
      'zip',
    ];
    const saved = await account(c);
    const { runs, seed } = c.target.info.config;
    try {
      const details = await fc.check(
        // Not an update with no member at all: whether one is accepted is not shown.
        fc.asyncProperty(fc.subarray(members, { minLength: 1 }), fc.nat(999), async (subset, n) => {
          const before = await account(c);
          // Every member is sent with the value on file (so country and state always agree; date-times in the form of
          // the documents' samples), but address_1 changes. country, state and zip travel together: another spec file
          // may change the country on file meanwhile. A member shown blank ("" or null) is not sent: whether a blank
          // value is taken is not shown (an account never given a phone may show "" and refuse one).
          const sent = ADDRESS.some((member) => subset.includes(member)) ? [...new Set([...subset, ...ADDRESS])] : subset;
          const onFile = sent.filter((member) => member === 'address_1' || (before[member] !== undefined && before[member] !== '' && before[member] !== null));
          fc.pre(onFile.length > 0);
          const body: Json = Object.fromEntries(onFile.map((member) => [member, inSampleForm(before[member])]));
          if ('address_1' in body) body.address_1 = `${n} Conformance Street`;
          if (Array.isArray(body.active_promotions)) body.active_promotions = body.active_promotions.map(documentedPromotion);
          c.expectSuccess(rule, await c.put('/v4/account', body), `PUT /v4/account with only ${subset.join(', ')}`);
        }),
        // A single member first (address_1, always sent): at a few runs a draw may give none.
        { numRuns: Math.min(runs, 25), seed, examples: [[['address_1'], 0]] },
      );
      if (details.failed) {
        const cause = details.errorInstance;
        const counterexample = JSON.stringify(details.counterexample);
        const replay = { seed: details.seed, path: details.counterexamplePath ?? undefined, counterexample };
        if (cause instanceof RuleViolation)
          throw Object.assign(new RuleViolation(cause.rule, `${cause.message.replace(`${cause.rule}: `, '')} (a generated value)`, cause.exchange), { replay });
        throw cause instanceof Error ? cause : new Error(String(cause));
      }
    } finally {
      await restore(c, saved, ['address_1']);
    }
  });

  const LIMITS: Array<[member: string, max: number, value: (length: number) => string, extra?: Json]> = [
    ['address_1', 64, (n) => 'A'.repeat(n)],
    ['address_2', 64, (n) => 'B'.repeat(n)],
    // (with an address outside the US: a military state code on file asks for a military city)
    ['city', 24, (n) => 'C'.repeat(n), PROVINCE],
    ['company', 128, (n) => 'D'.repeat(n)],
    ['email', 128, (n) => `${'e'.repeat(n - 68)}@${'f'.repeat(63)}.com`],
    ['first_name', 50, (n) => 'F'.repeat(n)],
    ['last_name', 50, (n) => 'L'.repeat(n)],
    ['phone', 32, (n) => '5'.repeat(n)],
    ['state', 24, (n) => 'S'.repeat(n), { country: PROVINCE.country, zip: PROVINCE.zip }],
    ['tax_id', 100, (n) => 'T'.repeat(n)],
  ];
  for (const [member, max, value, extra] of LIMITS) {
    const rule = `P1.account.${member.replace(/_/g, '-')}.max-${max}`;
    accountCheck(rule, `${member} takes ${max} characters and refuses ${max + 1}`, async (c) => {
      const saved = await account(c);
      // Made-up text refused for that (madeUpTextRefused): only the refusal of one too long is judged.
      let unjudged: string | undefined;
      try {
        await twice(c, async () => {
          const atMax = { ...extra, [member]: value(max) };
          const put = await c.put('/v4/account', atMax);
          unjudged = ok(put) ? undefined : await madeUpTextRefused(c, member, value(4), extra);
          if (!unjudged) {
            c.expectSuccess(rule, put, `PUT ${member} of ${max} characters`);
            expectShows(c, rule, await accountShowing(c, atMax), atMax, `after PUT ${member} of ${max} characters`);
          }
          c.expectRejected(rule, await c.put('/v4/account', { ...extra, [member]: value(max + 1) }), `PUT ${member} of ${max + 1} characters`, member);
          const kept = { [member]: unjudged ? SHAPED[member]![member] : value(max) };
          expectShows(c, rule, await c.get('/v4/account'), kept, `after the refused PUT ${member} of ${max + 1} characters`);
        });
        if (unjudged) c.skip(`${unjudged} (one of ${max + 1} characters was refused)`);
      } finally {
        await restore(c, saved, [member, ...Object.keys(extra ?? {})]);
      }
    });
  }

  // A valid member beside the one at fault, in every body: a server that stores what it read before the member at
  // fault shows it. The generated refused bodies meet that only when they happen to carry such a member.
  const [, emailMax, emailOf] = LIMITS.find(([member]) => member === 'email')!;
  accountCheck(['P1.errors.rejected-write-no-effect', 'P1.account.email.max-128'], 'an update refused for one member applies none of the others', async (c) => {
    const saved = await account(c);
    const firstName = `Unapplied ${Math.random().toString(36).slice(2, 10)}`;
    try {
      const sent = { first_name: firstName, email: emailOf(emailMax + 1) };
      c.expectRejected('P1.account.email.max-128', await c.put('/v4/account', sent), 'PUT first_name and an email one character too long', 'email');
      const view = await c.get('/v4/account');
      c.expect('P1.errors.rejected-write-no-effect', bodyOf(view).first_name !== firstName, `the refused PUT was applied: first_name reads ${firstName}`, view);
    } finally {
      await restore(c, saved, ['first_name']);
    }
  });
});

describe('Credit card', () => {
  check(
    'P1.credit-card.becomes-default',
    'an added card becomes the default: the account shows its last four digits',
    async (c) => {
      const rule = 'P1.credit-card.becomes-default';
      c.needsDestructive();
      const year = new Date().getUTCFullYear() + 4;
      for (const [number, lastFour] of [
        ['5555555555554444', 4444],
        ['4012888888881881', 1881],
      ] as const) {
        // Another client may add its own card meanwhile (this run's checks adding cards wait for the card lock): a
        // mismatch counts only when it happens twice.
        let shown: unknown;
        for (let attempt = 0; attempt < 2; attempt++) {
          c.expectSuccess(
            rule,
            await c.post('/v4/account/credit-card', { card_number: number, cvv: '737', expiry_month: 3, expiry_year: year }),
            `POST card ending ${lastFour}`,
          );
          shown = lastFourOf(
            await readAfterWrite(
              c,
              () => c.get('/v4/account'),
              (view) => lastFourOf(view) === lastFour,
            ),
          );
          if (shown === lastFour) break;
        }
        c.expect(rule, shown === lastFour, `after adding the card ending ${lastFour} the account credit_card.last_four is ${JSON.stringify(shown)}`);
      }
    },
    { exclusive: CARD_LOCK },
  );
});

describe('Invoices', () => {
  check('P1.invoice.total.subtotal-plus-tax', 'every invoice total is its subtotal plus tax', async (c) => {
    const rule = 'P1.invoice.total.subtotal-plus-tax';
    const invoices = await listAll(c, '/v4/account/invoices');
    if (!invoices.length) c.skip('the account has no invoice');
    for (const listed of invoices) {
      const view = await c.get(`/v4/account/invoices/${String(listed.id)}`);
      for (const invoice of [listed, bodyOf(view)]) {
        const { subtotal, tax, total } = invoice;
        if (typeof subtotal !== 'number' || typeof tax !== 'number' || typeof total !== 'number') continue;
        c.expect(
          rule,
          Math.abs(subtotal + tax - total) < 0.005 + 1e-9,
          `invoice ${String(listed.id)}: total ${total} is not subtotal ${subtotal} + tax ${tax}`,
          view,
        );
      }
    }
  });

  check('P1.invoice-item.from-not-after-to', 'no invoice item period runs backwards', async (c) => {
    const rule = 'P1.invoice-item.from-not-after-to';
    const invoices = await listAll(c, '/v4/account/invoices');
    if (!invoices.length) c.skip('the account has no invoice');
    for (const invoice of invoices) {
      for (const item of await listAll(c, `/v4/account/invoices/${String(invoice.id)}/items`)) {
        const [from, to] = [timeOf(item.from), timeOf(item.to)];
        if (from !== undefined && to !== undefined)
          c.expect(rule, from <= to, `invoice ${String(invoice.id)} item "${String(item.label)}": from ${String(item.from)} is after to ${String(item.to)}`);
      }
    }
  });
});

describe('Login history', () => {
  check(
    'P1.logins.window-90-days',
    'the login history holds no login older than 90 days (and a day), and every listed login can be viewed',
    async (c) => {
      const rule = 'P1.logins.window-90-days';
      const readHistory = async () => {
        const cutoff = (await presentOf(c)) - LISTED_AT_MOST_MS;
        const logins = await listAll(c, '/v4/account/logins');
        return { cutoff, logins, anyOlder: logins.some((login) => (timeOf(login.datetime) ?? Infinity) < cutoff) };
      };
      let history = await readHistory();
      // A list from a replica lagging another file's advance still holds logins the advance took out of the window:
      // one listing an older login is read again a consistency window after the run's last advance (the check holds
      // the clock: no advance comes after it).
      if (history.anyOlder) {
        await untilClockSettled(c);
        history = await readHistory();
      }
      const { cutoff, logins } = history;
      for (const login of logins) {
        const when = timeOf(login.datetime);
        c.expect(rule, when === undefined || when >= cutoff, `login ${String(login.id)} of ${String(login.datetime)} is older than 91 days`);
        // The list may come from a replica ahead of the one answering the view.
        const view = await readAfterWrite(c, () => c.get(`/v4/account/logins/${String(login.id)}`), ok);
        // A login listed at the window's edge may have left it since (time passes on a target without the clock hook): its view
        // answering gone is not judged once it is 90 days old by the target's present.
        if (answersGone(view, c.target.info.absentStatus) && when !== undefined && (await presentOf(c)) - when >= WINDOW_MS) continue;
        c.expectSuccess(rule, view, `GET login ${String(login.id)} listed in the history`);
      }
    },
    { exclusive: CLOCK_LOCK },
  );
});

describe('Maintenance', () => {
  // Whether a record leaves the list once its maintenance is done, or once its instance is deleted, is not shown: an
  // entity whose instance view answers gone is judged by what it names (maintenance-support.ts).
  check('P1.maintenance.entity.compute-only', 'every maintenance entity is a compute instance', async (c) => {
    const rule = 'P1.maintenance.entity.compute-only';
    const items = await listAll(c, '/v4beta/account/maintenance');
    if (!items.length) c.skip('the account has no maintenance to judge');
    const entities = await withInstanceViews(c, items);
    const types = await instanceEntityTypes(c, entities);
    let unjudged = 0;
    for (const listed of entities) {
      const why = notAnInstance(listed, types, () => unjudged++, c.target.info.absentStatus);
      c.expect(rule, why === undefined, `maintenance entity ${JSON.stringify(listed.entity)} is not a compute instance (${String(why)})`, listed.view);
    }
    if (unjudged === entities.length)
      c.skip(
        'every maintenance listed is of an instance whose view answers gone (deleted since?), its url names no other kind and the target shows no compute instance entity to compare its type with',
      );
  });

  check('P1.maintenance.list.viewable-entities', 'a restricted user sees the maintenance of the instances it may view, and only those', async (c) => {
    const rule = 'P1.maintenance.list.viewable-entities';
    const all = await listAll(c, '/v4beta/account/maintenance');
    if (!all.length) c.skip('the account has no maintenance to judge');
    const scopes = ['maintenance:read_only', 'compute:read_only'];
    const none = await c.principal({ scopes, restricted: true, grants: {} });
    const seenWithout = await listAll(c, '/v4beta/account/maintenance', none);
    c.expect(
      rule,
      seenWithout.length === 0,
      `a restricted user without grants sees maintenance of ${seenWithout.map((item) => JSON.stringify(entityOf(item).id)).join(', ')}`,
    );
    // A grant is given on an instance that exists: one whose view answers (a record may outlive its instance).
    const [granted] = viewableIds(await withInstanceViews(c, all));
    if (granted === undefined) c.skip('no maintenance listed is of an instance whose view answers 2xx: none can be granted');
    const one = await c.principal({ scopes, restricted: true, grants: { entities: { compute: { [granted]: 'read_only' } } } });
    const seen = (await listAll(c, '/v4beta/account/maintenance', one)).map((item) => String(entityOf(item).id));
    c.expect(rule, seen.includes(granted), `a restricted user with read_only on instance ${granted} does not see its maintenance`);
    c.expect(
      rule,
      seen.every((id) => id === granted),
      `a restricted user with a grant on instance ${granted} only also sees maintenance of ${seen.filter((id) => id !== granted).join(', ')}`,
    );
  });
});
