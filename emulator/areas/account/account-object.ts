// The account object: update, cancel and the credit card on file.
import type { RequestContext } from '../../core/types.js';
import { asObject, fail, optArray, optString, reqInt, reqString } from '../../core/validate.js';
import { emitEvent } from '../../core/events.js';
import { closeAccount } from '../../core/auth.js';
import { faulty } from '../../faults/index.js';
import { varied } from '../../variations/index.js';
import { account, accountEntity, accountView, DECLINING_TEST_CARD, PROCESSOR_TEST_CARDS, state, type Account, type Promotion } from './model.js';
import { isSubdivisionOf } from './provinces.js';

/** Postal code formats of some countries, for the variation zip-by-country. */
const ZIP_FORMATS: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  NL: /^\d{4} ?[A-Z]{2}$/,
  SE: /^\d{3} ?\d{2}$/,
  JP: /^\d{3}-?\d{4}$/,
  AU: /^\d{4}$/,
  IN: /^\d{6}$/,
  BR: /^\d{5}-?\d{3}$/,
  SG: /^\d{6}$/,
  ZA: /^\d{4}$/,
  NZ: /^\d{4}$/,
};

/** The first digit of the zips of each US state, territory and military code, for the variation zip-by-state. */
const US_ZIP_DIGIT: Record<string, string> = Object.fromEntries(
  Object.entries({
    '0': 'CT MA ME NH NJ PR RI VT VI AE',
    '1': 'DE NY PA',
    '2': 'DC MD NC SC VA WV',
    '3': 'AL FL GA MS TN AA',
    '4': 'IN KY MI OH',
    '5': 'IA MN MT ND SD WI',
    '6': 'IL KS MO NE',
    '7': 'AR LA OK TX',
    '8': 'AZ CO ID NM NV UT WY',
    '9': 'AK CA HI OR WA AP GU AS MP',
  }).flatMap(([digit, states]) => states.split(' ').map((state) => [state, digit])),
);
/** The first letters of the postal codes of each Canadian province and territory, for the variation zip-by-state. */
const CA_POSTAL_LETTERS: Record<string, string> = {
  NL: 'A',
  NS: 'B',
  PE: 'C',
  NB: 'E',
  QC: 'GHJ',
  ON: 'KLMNP',
  MB: 'R',
  SK: 'S',
  AB: 'T',
  BC: 'V',
  NT: 'X',
  NU: 'X',
  YT: 'Y',
};

/** Whether a US zip or Canadian postal code can belong to the state or province (any other address: yes). */
function zipSuitsState(country: string, state: string, zip: string): boolean {
  const first = zip.trim().charAt(0).toUpperCase();
  const allowed = country === 'US' ? US_ZIP_DIGIT[state] : country === 'CA' ? CA_POSTAL_LETTERS[state] : undefined;
  return allowed === undefined || allowed.includes(first);
}

/** ISO 3166-1 alpha-2 codes. */
const COUNTRIES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** US states, DC, territories and the military codes AA, AE, AP. */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR ' +
    'PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM AA AE AP'
  ).split(' '),
);
/** The military state codes, and the cities of military addresses (variation military-state-needs-military-city). */
const MILITARY_STATES = new Set(['AA', 'AE', 'AP']);
const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

const TEXT_LIMITS: Record<string, number> = {
  address_1: 64,
  address_2: 64,
  city: 24,
  company: 128,
  first_name: 50,
  last_name: 50,
  phone: 32,
  tax_id: 100,
};

/** Members a blank value is refused for under the variation account-text-not-blank. */
const NOT_BLANK = new Set(['first_name', 'last_name', 'address_1', 'city', 'phone', 'tax_id']);

/** An address of the usual syntax: dot-atom local part, host labels of letters, digits and inner hyphens. */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const realDateTime = (v: string): boolean => {
  const t = new Date(`${v}Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 19) === v;
};
const PROMOTION_KEYS = [
  'credit_monthly_cap',
  'credit_remaining',
  'description',
  'expire_dt',
  'image_url',
  'service_type',
  'summary',
  'this_month_credit_remaining',
] as const;

export function updateAccount(ctx: RequestContext) {
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  if (Object.keys(o).length === 1 && faulty(ctx.store, 'P1.account-update.any-of')) fail('Give at least two members to update.', null);
  const a = account(ctx.store);
  const changes: Partial<Account> = {};
  for (const [key, max] of Object.entries(TEXT_LIMITS)) {
    const v = optString(o, key, { max: key === 'city' && faulty(ctx.store, 'P1.account.city.max-24') ? 32 : max });
    if (v === '' && NOT_BLANK.has(key) && varied(ctx.store, 'account-text-not-blank')) fail(`${key} must not be blank.`, key);
    if (v !== undefined) (changes as Record<string, unknown>)[key] = v;
  }
  if (varied(ctx.store, 'phone-and-tax-id-checked')) {
    if (changes.phone && !/^\+?\d{7,15}$/.test(changes.phone.replace(/[\s().-]/g, '')))
      fail('phone must be a phone number: 7 to 15 digits, with an optional leading +.', 'phone');
    if (changes.tax_id && (!/^[A-Za-z0-9 ./-]+$/.test(changes.tax_id) || (changes.tax_id.match(/\d/g)?.length ?? 0) < 2))
      fail('tax_id must be a tax identification number: letters and digits (at least two), with spaces, dots, dashes or slashes.', 'tax_id');
  }
  // The fault stores the plain text members before the others are validated.
  if (faulty(ctx.store, 'P1.errors.rejected-write-no-effect')) Object.assign(a, changes);
  const email = optString(o, 'email', {
    max: 128,
    ...(faulty(ctx.store, 'P1.account.email.format') || varied(ctx.store, 'email-any-text')
      ? {}
      : { pattern: EMAIL, patternReason: 'email must be an email address such as jane@example.com.' }),
  });
  if (email !== undefined) changes.email = email;
  const zip = optString(o, 'zip');
  if (zip !== undefined) changes.zip = zip;
  const country = optString(o, 'country');
  if (country !== undefined) {
    const code = country.toUpperCase();
    const clears = code === '' && varied(ctx.store, 'account-without-address');
    // (the fault ~two-letters takes any two capitals: ZZ, XX)
    const twoLetters = /^[A-Z]{2}$/.test(code) && faulty(ctx.store, 'P1.account.country.iso-3166~two-letters');
    if (!COUNTRIES.has(code) && !clears && !twoLetters && !faulty(ctx.store, 'P1.account.country.iso-3166'))
      fail(`country must be a two-letter ISO 3166 country code such as US or DE, not ${JSON.stringify(country.slice(0, 32))}.`, 'country');
    changes.country = code;
  }
  const st = optString(o, 'state', { max: faulty(ctx.store, 'P1.account.state.max-24') ? 23 : 24 });
  // The resulting address is judged: a country changed to US or CA without a state keeps the state on file, which
  // must then be a code of that country too. The fault ~alone judges a state only when the country comes with it.
  const judged = changes.country !== undefined || (st !== undefined && !faulty(ctx.store, 'P1.account.state.us-ca-code~alone'));
  if (judged && !faulty(ctx.store, 'P1.account.state.us-ca-code')) {
    const where = changes.country ?? a.country;
    const next = st ?? a.state;
    const field = st !== undefined ? 'state' : 'country';
    // Under the variation a US or CA address may have no state: "" stands for one never given.
    const unstated = next === '' && varied(ctx.store, 'account-country-without-state');
    // (the fault ~two-letters takes any two capitals as a code: ZZ, UK)
    const anyCode = /^[A-Z]{2}$/.test(next) && faulty(ctx.store, 'P1.account.state.us-ca-code~two-letters');
    // Under the variation a code of the other country (a US state with CA, a province with US) is the country's fault.
    const otherCountrys = where === 'US' ? CA_PROVINCES.has(next) : where === 'CA' && US_STATES.has(next);
    const blamed = otherCountrys && st !== undefined && varied(ctx.store, 'state-of-other-country-names-country') ? 'country' : field;
    if (where === 'US' && !US_STATES.has(next) && !unstated && !anyCode) {
      fail(
        `For a US address, state must be the two-letter state code (e.g. NY), or AA, AE or AP for military addresses${st === undefined ? `; send one with the country (the state on file is ${JSON.stringify(next.slice(0, 24))})` : ''}.`,
        blamed,
      );
    }
    if (where === 'CA' && !CA_PROVINCES.has(next) && !unstated && !anyCode) {
      fail(
        `For a Canadian address, state must be the two-letter province code (e.g. ON)${st === undefined ? `; send one with the country (the state on file is ${JSON.stringify(next.slice(0, 24))})` : ''}.`,
        blamed,
      );
    }
  }
  // Under the variation a state outside the US and CA must name a subdivision of the resulting country (the resulting
  // address: a state on file does not follow a country change); "" stands for none given.
  if ((st !== undefined || changes.country !== undefined) && varied(ctx.store, 'province-checked')) {
    const [where, next] = [changes.country ?? a.country, st ?? a.state];
    if (where !== 'US' && where !== 'CA' && next !== '' && !isSubdivisionOf(where, next))
      fail(
        `state ${JSON.stringify(next.slice(0, 24))} is not a province of ${where}${st === undefined ? ' (send one with the country)' : ''}.`,
        st !== undefined ? 'state' : 'country',
      );
  }
  if (st !== undefined) changes.state = st;
  // Under the variation the resulting zip must suit the resulting country (a zip on file does not follow a move).
  const zipFormat = ZIP_FORMATS[changes.country ?? a.country];
  if ((zip !== undefined || changes.country !== undefined) && zipFormat && !zipFormat.test(changes.zip ?? a.zip) && varied(ctx.store, 'zip-by-country'))
    fail(`zip must be a postal code of ${changes.country ?? a.country}${zip === undefined ? ' (send one with the country)' : ''}.`, 'zip');
  // Under the variation the resulting zip must also suit the resulting US state or Canadian province.
  const [whereAfter, stateAfter, zipAfter] = [changes.country ?? a.country, changes.state ?? a.state, changes.zip ?? a.zip];
  if (
    (zip !== undefined || st !== undefined || changes.country !== undefined) &&
    varied(ctx.store, 'zip-by-state') &&
    !zipSuitsState(whereAfter, stateAfter, zipAfter)
  )
    fail(
      `zip ${JSON.stringify(zipAfter)} is not a postal code of ${stateAfter}, ${whereAfter}${zip === undefined ? ' (send one with the state)' : ''}.`,
      'zip',
    );
  // Under the variation a US military state code goes with a military post office for city (the resulting address).
  const cityAfter = (changes.city ?? a.city).trim().toUpperCase();
  if (
    (st !== undefined || changes.country !== undefined || changes.city !== undefined) &&
    varied(ctx.store, 'military-state-needs-military-city') &&
    whereAfter === 'US' &&
    MILITARY_STATES.has(stateAfter) &&
    !MILITARY_CITIES.has(cityAfter)
  )
    fail(
      `${stateAfter} is the state code of US military addresses: their city is APO, FPO or DPO, not ${JSON.stringify(changes.city ?? a.city)}.`,
      st !== undefined ? 'state' : changes.city !== undefined ? 'city' : 'country',
    );
  const promos = optArray(o, 'active_promotions');
  if (promos !== undefined && varied(ctx.store, 'promotions-granted-only') && !sameDescriptions(promos, a.active_promotions))
    fail('Promotions are granted by the service: active_promotions may only be sent as they are', 'active_promotions');
  if (promos !== undefined) {
    changes.active_promotions = promos.map((p, i) => {
      const path = `active_promotions.${i}`;
      const po = asObject(p, path);
      const unknown = Object.keys(po).find((key) => !(PROMOTION_KEYS as readonly string[]).includes(key));
      if (unknown !== undefined && varied(ctx.store, 'promotion-members-strict'))
        fail(`${path}.${unknown} is not a member of a promotion.`, `${path}.${unknown}`);
      // The account shows every member of a promotion: members the update leaves out take empty defaults.
      const out: Partial<Promotion> = {
        credit_monthly_cap: '0.00',
        credit_remaining: '0.00',
        description: '',
        expire_dt: ctx.store.nowIso(),
        image_url: '',
        service_type: 'all',
        summary: '',
        this_month_credit_remaining: '0.00',
      };
      for (const key of PROMOTION_KEYS) {
        const v =
          key === 'expire_dt'
            ? optString(po, key, { path, pattern: DATE_TIME, patternReason: `${path}.expire_dt must be a date-time like 2030-01-31T00:00:00.` })
            : optString(po, key, { path });
        // the pattern alone lets through dates that do not exist (month 13, February 30, hour 25)
        if (key === 'expire_dt' && v !== undefined && !realDateTime(v))
          fail(`${path}.expire_dt must be a date-time like 2030-01-31T00:00:00.`, `${path}.expire_dt`);
        if (v !== undefined) out[key] = v;
      }
      return out;
    });
  }
  // The fault answers the new tax_id but keeps the one on file.
  const keptTaxId = faulty(ctx.store, 'P1.account.update.reflected') ? a.tax_id : undefined;
  Object.assign(a, changes);
  const shown = accountView(ctx.store);
  if (keptTaxId !== undefined) a.tax_id = keptTaxId;
  emitEvent(ctx.store, ctx.principal, { action: 'account_update', entity: accountEntity(ctx.store) });
  return shown;
}

export function cancelAccount(ctx: RequestContext) {
  const o = ctx.body === undefined ? {} : asObject(ctx.body);
  optString(o, 'comments');
  const a = account(ctx.store);
  const st = state(ctx.store);
  if (a.balance !== 0 && st.cardFails && !faulty(ctx.store, 'P1.account.cancel.charges-balance')) {
    // The fault clears the balance although the charge failed.
    if (faulty(ctx.store, 'P1.account.cancel.charges-balance~balance-cleared')) a.balance = 0;
    fail(
      `We could not charge the credit card on file for the remaining balance of $${a.balance.toFixed(2)}. ` +
        'Pay the balance first (or add a working card), then cancel the account.',
      faulty(ctx.store, 'P1.errors.reason.cancel-charge-failed') ? 'balance' : null,
    );
  }
  // The fault cancels without charging: the balance stays owed.
  if (!faulty(ctx.store, 'P1.account.cancel.charges-balance~not-charged')) a.balance = 0;
  st.cancelled = true;
  // The account is closed: every token of it stops working (the answer to this request is still sent).
  if (varied(ctx.store, 'account-closed-on-cancel')) ctx.store.tokens.clear();
  // Closed too, but its tokens answer 410 Gone from then on.
  if (varied(ctx.store, 'account-closed-410')) closeAccount(ctx.store);
  return { survey_link: `https://survey.example.com/account-cancellation?euuid=${a.euuid}` };
}

export function addCreditCard(ctx: RequestContext) {
  const o = asObject(ctx.body);
  const digits = /^\d+$/;
  const number = reqString(o, 'card_number', {
    min: 14,
    ...(faulty(ctx.store, 'P1.credit-card.card-number.max-24') ? {} : { max: 24 }),
    pattern: digits,
    patternReason: 'card_number must contain digits only, without spaces or dashes.',
  });
  const cvv = reqString(o, 'cvv', {
    min: 3,
    max: 4,
    pattern: faulty(ctx.store, 'P1.credit-card.cvv.digits') ? /^/ : digits,
    patternReason: 'cvv must contain 3 or 4 digits only.',
  });
  const month = reqInt(o, 'expiry_month', { min: 1, ...(faulty(ctx.store, 'P1.credit-card.expiry-month.max-12') ? {} : { max: 12 }) });
  const year = reqInt(o, 'expiry_year', { min: 1000, max: 9999 });
  if (varied(ctx.store, 'card-numbers-processor-checked') && !PROCESSOR_TEST_CARDS.has(number))
    fail('The card was declined by the card processor: check the card number.', 'card_number');
  // The processor checks the security code's length by network: four digits for American Express, three for the others.
  if (varied(ctx.store, 'card-numbers-processor-checked') && cvv.length !== (/^3[47]/.test(number) ? 4 : 3))
    fail('The card was declined by the card processor: check the security code.', 'cvv');
  if (faulty(ctx.store, 'P1.credit-card.becomes-default')) return {};
  account(ctx.store).credit_card = { expiry: `${String(month).padStart(2, '0')}/${year}`, last_four: Number(number.slice(-4)) };
  state(ctx.store).cardFails = number === DECLINING_TEST_CARD;
  emitEvent(ctx.store, ctx.principal, { action: 'credit_card_updated', entity: accountEntity(ctx.store) });
  return {};
}

/** Whether `sent` lists the promotions on file (by description, in order). */
function sameDescriptions(sent: unknown[], onFile: Partial<Promotion>[]): boolean {
  const description = (item: unknown) => (item && typeof item === 'object' ? (item as Record<string, unknown>).description : undefined);
  return sent.length === onFile.length && sent.every((item, i) => description(item) === onFile[i]!.description);
}
