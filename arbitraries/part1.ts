// Request bodies of document 1 (spec/part1-common-databases-account.md): managed databases and the account.
import fc from 'fast-check';
import type { BodyArbitraries, BodyContext, Violation } from './types.js';
import {
  type BodyGen,
  type ValueGen,
  ABSENT,
  type Change,
  blank,
  constant,
  broken,
  serverJudged,
  missing,
  type JsonKind,
  merged,
  nonEmpty,
  optionalRecord,
  wrongTypes,
  WRONG_TYPED,
} from './generators/body.js';
import { allowListEntry, email, emailOfLength, httpUrl, notCidr, notEmail, notIp, notUrl } from './generators/net.js';
import { between, digits, label, notDigits, stringOfLength, tooLong, tooLongLabel, tooShort } from './generators/text.js';
import { OTHER_COUNTRIES, STATE_CODES, postalCodes, provincesOf } from './generators/postal.js';

// ------------------------------------------------------------------ managed databases

const allowList = () => fc.oneof(fc.constant([]), fc.array(allowListEntry(), { minLength: 1, maxLength: 6 }));

/**
 * cluster_size and replication_type. Conditions tying them and their defaults are "not shown", so a valid body gives
 * both or neither, paired the way no reader would dispute (one node: none; three nodes: a replicating type): one
 * alone meets the other's default, which may not go with it. Every enum value still comes up.
 */
const topology = () =>
  fc.oneof(
    fc.constant({}),
    fc.constant({ cluster_size: 1, replication_type: 'none' }),
    fc.constantFrom('asynch', 'semi_synch').map((replication_type) => ({ cluster_size: 3, replication_type })),
  );

const databaseCreate: BodyGen = (context) =>
  merged(
    optionalRecord(
      {
        allow_list: allowList(),
        encrypted: fc.boolean(),
        engine: fc.constant(context.databaseEngine),
        label: label(context.labelPrefix, 3, 32),
        region: fc.constant(context.region),
        ssl_connection: fc.boolean(),
        type: fc.constant(context.databaseNodeType),
      },
      ['engine', 'label', 'region', 'type'],
    ),
    topology(),
  );

/**
 * The maintenance window. Allowed values and units are "not shown" (how Sunday or a 3-hour duration is written is
 * the server's): valid bodies do not send one (the databases spec file sends back a window near the one the target
 * shows). Bodies breaking one of its member types carry this one, in the shape of the documented default (weekly,
 * hours of the day, 3-hour duration) or a monthly variant naming the week of the month; the suite sends the members
 * they do not break as the cluster shows them (`withOwnWindow`, specs/part1/databases-support.ts).
 */
// Every member is given (whether an update may give only some is not shown), week_of_month in weekly windows too.
const maintenanceWindow = () => {
  const weekly = {
    frequency: fc.constant('weekly'),
    duration: between(1, 3),
    hour_of_day: between(0, 23),
    day_of_week: between(1, 7),
    week_of_month: between(1, 4),
  };
  return fc.oneof(fc.record(weekly), fc.record({ ...weekly, frequency: fc.constant('monthly') }));
};

const databaseUpdate: BodyGen = (context) => nonEmpty(optionalRecord({ allow_list: allowList(), label: label(context.labelPrefix, 3, 32) }));
const databaseUpdateWithWindow: BodyGen = (context) => merged(databaseUpdate(context), fc.record({ updates: maintenanceWindow() }));

const badAllowListItem = (): ValueGen => () =>
  fc.tuple(fc.oneof(notIp(), notCidr()), fc.array(allowListEntry(), { maxLength: 2 })).map(([bad, good]) => [bad, ...good]);

/** Violations shared by create and update: label bounds and allow_list items. */
function clusterViolations(valid: BodyGen): Violation[] {
  return [
    broken('P1.database.label.min-3', valid, { label: () => tooShort(3, 'abc123') }),
    broken('P1.database.label.max-32', valid, { label: (c) => tooLongLabel(c.labelPrefix, 32) }),
    // field: the first item, where the bad value is put
    broken('P1.database.allow-list.ip-or-cidr', valid, { allow_list: badAllowListItem() }, 'allow_list.0'),
    // uniqueness needs a cluster already holding the label: the scenario sends the same body twice
    serverJudged('P1.database.label.unique', valid, { label: (c) => label(c.labelPrefix, 3, 32) }),
  ];
}

const databaseCreateViolations: Violation[] = [
  ...(['engine', 'label', 'region', 'type'] as const).map((member) => missing(`P1.database-create.${member}.required`, databaseCreate, member)),
  ...clusterViolations(databaseCreate),
  broken('P1.database.cluster-size.enum', databaseCreate, {
    cluster_size: () =>
      fc.oneof(
        fc.constantFrom(0, 2, 4, 5),
        fc.integer({ min: -100, max: 100 }).filter((n) => n !== 1 && n !== 3),
      ),
  }),
  broken('P1.database.replication-type.enum', databaseCreate, {
    replication_type: () => fc.constantFrom('sync', 'async', 'semi-synch', 'semisynch'),
  }),
  broken('P1.database-create.engine.engine-version-form', databaseCreate, {
    engine: (c) =>
      fc.constantFrom(
        c.databaseEngine.split('/')[0],
        `${c.databaseEngine}/1`,
        `/${c.databaseEngine.split('/')[1] ?? '8.0'}`,
        `${c.databaseEngine.split('/')[0]}/`,
        '/',
        '',
      ),
  }),
  ...wrongTypes('P1.database-create.types', databaseCreate, [
    ['allow_list', 'array'],
    ['encrypted', 'boolean'],
    ['engine', 'string'],
    ['label', 'string'],
    ['region', 'string'],
    ['ssl_connection', 'boolean'],
    ['type', 'string'],
  ]),
  serverJudged('P1.database.region.region-id', databaseCreate, { region: constant('zz-nowhere-9') }),
  serverJudged('P1.database.type.node-type-id', databaseCreate, { type: constant('g0-nosuch-node-0') }),
];

const databaseUpdateViolations: Violation[] = [
  ...clusterViolations(databaseUpdate),
  ...wrongTypes('P1.database-update.types', databaseUpdate, [
    ['allow_list', 'array'],
    ['label', 'string'],
    ['updates', 'object'],
  ]),
  ...wrongTypes('P1.database.updates.types', databaseUpdateWithWindow, [
    ['updates.frequency', 'nullable-string'],
    ['updates.duration', 'integer'],
    ['updates.hour_of_day', 'integer'],
    ['updates.day_of_week', 'integer'],
    ['updates.week_of_month', 'integer'],
  ]),
  broken('P1.database.updates.types', databaseUpdateWithWindow, { 'updates.hour_of_day': () => fc.constantFrom(0.5, 12.5, 23.25) }),
];

/**
 * `target` is `primary` when given: the cluster the bodies go to has the target's default size (not shown), perhaps
 * one node with no replica, where what `secondary` answers is not shown (variation secondary-snapshot-needs-replicas).
 * `secondary` is sent to a cluster of three nodes by the three-node check of specs/part1/databases.spec.ts.
 */
const snapshotCreate: BodyGen = (context) => optionalRecord({ label: label(context.labelPrefix, 3, 64), target: fc.constant('primary') }, ['label']);

const snapshotViolations: Violation[] = [
  missing('P1.database-snapshot-create.label.required', snapshotCreate, 'label'),
  broken('P1.database-snapshot.label.min-3', snapshotCreate, { label: () => tooShort(3, 'abc123') }),
  broken('P1.database-snapshot.label.max-64', snapshotCreate, { label: (c) => tooLongLabel(c.labelPrefix, 64) }),
  broken('P1.database-snapshot.target.enum', snapshotCreate, { target: () => fc.constantFrom('replica', 'tertiary', 'both') }),
  ...wrongTypes('P1.database-snapshot-create.types', snapshotCreate, [['label', 'string']]),
];

// ------------------------------------------------------------------ account

/** Two capitals that are not ISO 3166-1 codes (user-assigned or unassigned). */
const NOT_COUNTRIES = ['ZZ', 'XX', 'QQ', 'AA', 'XY', 'OO'];

/** The US state codes of military addresses, and the cities of those addresses (the military post offices). */
const MILITARY_STATES: readonly string[] = ['AA', 'AE', 'AP'];
const MILITARY_CITIES: readonly string[] = ['APO', 'FPO', 'DPO'];

/** A city of a civilian address (not a military post office: a server may refuse one beside another state). */
const civilianCity = () => stringOfLength(1, 24).filter((city) => !MILITARY_CITIES.includes(city.trim().toUpperCase()));

/**
 * country with a state, city and zip that suit it. A state, city or zip is only sent together with its country: alone
 * it would be judged against whatever address the account already has (a city against a military state code on file);
 * and a country goes with a state and a zip of its own, as the ones on file may not suit it. Outside the US and CA the
 * state is a real province of the country ("otherwise the province": a server may refuse made-up text), its zip one
 * of that province.
 */
const location = () => {
  // For US and CA the state is always sent: the one on file may not be a code of the new country; its zip suits it.
  // A US military state code (AA, AE, AP) is for military addresses: its city is a military post office.
  const inState = (country: 'US' | 'CA') =>
    fc.constantFrom(...STATE_CODES[country]).chain((state) =>
      fc.record({
        country: fc.constant(country),
        state: fc.constant(state),
        city: MILITARY_STATES.includes(state) ? fc.constantFrom(...MILITARY_CITIES) : civilianCity(),
        zip: postalCodes(country, state),
      }),
    );
  return fc.oneof(
    fc.constant({}),
    inState('US'),
    inState('CA'),
    fc
      .constantFrom(...OTHER_COUNTRIES)
      .chain((country) => fc.tuple(fc.constant(country), fc.constantFrom(...provincesOf(country))))
      .chain(([country, state]) =>
        optionalRecord({ country: fc.constant(country), state: fc.constant(state), city: civilianCity(), zip: postalCodes(country, state) }, [
          'country',
          'state',
          'zip',
        ]),
      ),
  );
};

/** Members of the account with only a maximum length: [member, max]. A valid body sends city with its address (`location`). */
const ACCOUNT_TEXT: Array<[string, number]> = [
  ['address_1', 64],
  ['address_2', 64],
  ['city', 24],
  ['company', 128],
  ['first_name', 50],
  ['last_name', 50],
  ['phone', 32],
  ['tax_id', 100],
];
/** Only these take "" in valid bodies: no minimum is shown, and a server may refuse a blank name, address line or phone. */
const MAY_BE_BLANK = new Set(['address_2', 'company']);
const maxRule = (member: string, max: number) => `P1.account.${member.replace(/_/g, '-')}.max-${max}`;
const PHONE_CHARS = '0123456789+-() ';

/**
 * A phone and a tax id of the forms every server takes, well within their maximum lengths: the documents give those
 * members a length only, and a server may hold either to a format of its own (a phone's 7 to 15 digits, a tax id's
 * digits). What their lengths take is judged on the boundary (account.spec's limits); made-up text is not sent.
 */
const phone = () =>
  fc
    .tuple(fc.constantFrom('', '+1 ', '+44 ', '+49-'), digits(3, 3), fc.constantFrom(' ', '-', '.'), digits(3, 4), fc.constantFrom(' ', '-', ''), digits(4, 4))
    .map(([prefix, area, sep, middle, sep2, last]) =>
      prefix === '' && sep === '.' ? `(${area}) ${middle}-${last}` : `${prefix}${area}${sep}${middle}${sep2}${last}`,
    );
const taxId = () =>
  fc.oneof(
    fc.tuple(fc.constantFrom('AT', 'DE', 'FR', 'GB', 'IE', 'NL'), digits(8, 12)).map(([country, number]) => `${country}${number}`),
    fc.tuple(digits(2, 2), digits(7, 7)).map(([prefix, number]) => `${prefix}-${number}`),
  );
const SHAPED_TEXT: Record<string, () => fc.Arbitrary<string>> = { phone, tax_id: taxId };

/**
 * No `active_promotions`: what an update of them does (the service grants promotions; may a caller add, drop or
 * rewrite one?) is not shown, so neither sending them nor a refusal of a bad one is judged.
 */
const accountUpdate: BodyGen = () =>
  merged(
    optionalRecord({
      email: fc.oneof(email(), between(13, 128).chain(emailOfLength)),
      ...Object.fromEntries(
        ACCOUNT_TEXT.filter(([member]) => member !== 'city').map(([member, max]) => [
          member,
          SHAPED_TEXT[member]?.() ?? stringOfLength(MAY_BE_BLANK.has(member) ? 0 : 1, max),
        ]),
      ),
    }),
    location(),
  );

/** A non-US/CA country with a state, so a state breaking its own limit breaks nothing else (the zip: Berlin's). */
const elsewhere = (state: ValueGen): Record<string, Change> => ({ state, country: constant('DE'), zip: () => postalCodes('DE', 'Berlin') });
/** A US or CA address (one violation each, with a zip of that country) whose state is `state`. */
const usOrCa = (state: ValueGen) => (['US', 'CA'] as const).map((country) => ({ state, country: constant(country), zip: () => postalCodes(country) }));

/** A city breaking a rule, with an address outside the US: it breaks nothing else (a military state code asks for a military city). */
const ofCity = (member: string, changes: Record<string, Change>): Record<string, Change> =>
  member === 'city' ? { ...changes, ...elsewhere(constant('Berlin')) } : changes;

const accountViolations: Violation[] = [
  ...ACCOUNT_TEXT.map(([member, max]) =>
    broken(maxRule(member, max), accountUpdate, ofCity(member, { [member]: () => tooLong(max, member === 'phone' ? PHONE_CHARS : undefined) })),
  ),
  broken(
    maxRule('state', 24),
    accountUpdate,
    elsewhere(() => tooLong(24)),
  ),
  broken(maxRule('email', 128), accountUpdate, { email: () => between(129, 140).chain(emailOfLength) }),
  broken('P1.account.email.format', accountUpdate, { email: () => notEmail() }),
  // No lower-case pairs (a server may fairly upper-case them), no "" (a server may take it to clear the country).
  broken('P1.account.country.iso-3166', accountUpdate, { country: () => fc.constantFrom('DEU', 'USA', 'D', 'D1', 'U S') }),
  // no lower-case codes either
  ...usOrCa(() => fc.constantFrom('New York', 'Ontario', 'N.Y.', 'Calif', 'Q', 'QUE')).map((changes) =>
    broken('P1.account.state.us-ca-code', accountUpdate, changes),
  ),
  ...wrongTypes('P1.account-update.types', accountUpdate, [
    ['email', 'string'],
    ['country', 'string'],
    ['state', 'string'],
    ['zip', 'string'],
    ...ACCOUNT_TEXT.filter(([member]) => member !== 'city').map(([member]): [string, JsonKind] => [member, 'string']),
  ]),
  broken(
    'P1.account-update.types',
    accountUpdate,
    ofCity('city', { city: () => fc.constantFrom(...WRONG_TYPED.string).map((value) => structuredClone(value)) }),
  ),
  serverJudged('P1.account.country.iso-3166', accountUpdate, { country: () => fc.constantFrom(...NOT_COUNTRIES), state: ABSENT, zip: ABSENT }),
  ...usOrCa(() => fc.constantFrom('ZZ', 'XX', 'QQ', 'UK', 'EN')).map((changes) => serverJudged('P1.account.state.us-ca-code', accountUpdate, changes)),
];

const accountCancel: BodyGen = () => optionalRecord({ comments: stringOfLength(0, 300) });

const cancelViolations: Violation[] = wrongTypes('P1.account-cancel.types', accountCancel, [['comments', 'string']]);

/**
 * Card numbers a card processor's test mode accepts: the networks' published test numbers (Visa, Mastercard, American
 * Express, Discover, Diners Club, JCB; 14 to 16 digits). Any digit string of 14 to 24 is the documented form, but a
 * target that asks a processor whether a card exists (not shown either way) declines a random one; that the documented
 * bounds are kept is judged by the bodies breaking them.
 */
const TEST_CARD_NUMBERS = [
  '4111111111111111',
  '4012888888881881',
  '4242424242424242',
  '5555555555554444',
  '5105105105105100',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '30569309025904',
  '38520000023237',
  '3530111333300000',
  '3566002020360505',
];

/**
 * The expiry year is one to ten years ahead: any four-digit year is the documented form, but a card processor refuses
 * an expired card, and whether the target does is not shown. The cvv has the card network's length (four digits for
 * American Express, numbers beginning 34 or 37; three for the others), which a processor checks.
 */
const creditCard: BodyGen = () => {
  const year = new Date().getUTCFullYear();
  return fc.constantFrom(...TEST_CARD_NUMBERS).chain((number) =>
    fc.record({
      card_number: fc.constant(number),
      cvv: /^3[47]/.test(number) ? digits(4, 4) : digits(3, 3),
      expiry_month: between(1, 12),
      expiry_year: between(year + 1, year + 10),
    }),
  );
};

/**
 * A cvv holding a character other than a digit, of the length of the valid body's (its card network's): a server that
 * checks that length with a card processor (not shown) declines a cvv of another length for that alone, whatever it holds.
 */
const cvvNotDigits: Violation = {
  rule: 'P1.credit-card.cvv.digits',
  field: 'cvv',
  judgedBy: 'schema',
  arbitrary: (context) =>
    creditCard(context).chain((body) => {
      const length = String(body.cvv).length;
      return notDigits(length, length).map((cvv) => ({ ...body, cvv }));
    }),
};

const creditCardViolations: Violation[] = [
  ...(['card_number', 'cvv', 'expiry_month', 'expiry_year'] as const).map((member) =>
    missing(`P1.credit-card.${member.replace(/_/g, '-')}.required`, creditCard, member),
  ),
  broken('P1.credit-card.card-number.digits', creditCard, {
    card_number: () => fc.oneof(notDigits(14, 24), fc.constantFrom('4111 1111 1111 1111', '4111-1111-1111-1111')),
  }),
  broken('P1.credit-card.card-number.min-14', creditCard, { card_number: () => tooShort(14, '0123456789') }),
  broken('P1.credit-card.card-number.max-24', creditCard, { card_number: () => tooLong(24, '0123456789') }),
  cvvNotDigits,
  broken('P1.credit-card.cvv.min-3', creditCard, { cvv: () => tooShort(3, '0123456789') }),
  broken('P1.credit-card.cvv.max-4', creditCard, { cvv: () => tooLong(4, '0123456789') }),
  broken('P1.credit-card.expiry-month.min-1', creditCard, { expiry_month: () => fc.oneof(fc.constant(0), fc.integer({ min: -1000, max: 0 })) }),
  broken('P1.credit-card.expiry-month.max-12', creditCard, { expiry_month: () => fc.oneof(fc.constant(13), fc.integer({ min: 13, max: 1000 })) }),
  broken('P1.credit-card.expiry-year.four-digit', creditCard, {
    expiry_year: () => fc.oneof(fc.constantFrom(999, 0, 25, 99), fc.integer({ min: -9999, max: 999 })),
  }),
  broken('P1.credit-card.expiry-year.four-digit', creditCard, { expiry_year: () => fc.oneof(fc.constant(10000), fc.integer({ min: 10000, max: 999999 })) }),
  ...wrongTypes('P1.credit-card.types', creditCard, [
    ['card_number', 'string'],
    ['cvv', 'string'],
    ['expiry_month', 'integer'],
    ['expiry_year', 'integer'],
  ]),
  broken('P1.credit-card.types', creditCard, { expiry_month: () => fc.integer({ min: 1, max: 11 }).map((m) => m + 0.5) }),
];

// computes is always sent: a transfer of nothing is a different question ("whether entities.computes is required: not stated")
const transferCreate: BodyGen = (context) => fc.record({ entities: fc.record({ computes: fc.subarray(context.computeIds, { minLength: 1 }) }) });

const transferViolations: Violation[] = [
  missing('P1.entity-transfer-create.entities.required', transferCreate, 'entities'),
  ...wrongTypes('P1.entity-transfer-create.types', transferCreate, [
    ['entities', 'object'],
    ['entities.computes', 'array'],
    ['entities.computes.0', 'integer'],
  ]),
];

// ------------------------------------------------------------------ OAuth clients

// https only: which schemes a redirect URI may use is not shown, and a server may refuse to send a code in the clear.
const clientMembers = (context: BodyContext) => ({ label: label(context.labelPrefix, 1, 512), public: fc.boolean(), redirect_uri: httpUrl(['https']) });
const clientCreate: BodyGen = (context) => optionalRecord(clientMembers(context), ['label', 'redirect_uri']);
const clientUpdate: BodyGen = (context) => nonEmpty(optionalRecord(clientMembers(context)));

function clientViolations(valid: BodyGen, typesRule: string): Violation[] {
  return [
    blank('P1.oauth-client.label.min-1', valid, 'label'),
    broken('P1.oauth-client.label.max-512', valid, { label: (c) => tooLongLabel(c.labelPrefix, 512) }),
    broken('P1.oauth-client.redirect-uri.url', valid, { redirect_uri: () => notUrl() }),
    ...wrongTypes(typesRule, valid, [
      ['label', 'string'],
      ['public', 'boolean'],
      ['redirect_uri', 'string'],
    ]),
  ];
}

export const bodies: Record<string, BodyArbitraries> = {
  'requests/database-create': { schema: 'requests/database-create', valid: databaseCreate, violations: databaseCreateViolations },
  'requests/database-update': { schema: 'requests/database-update', valid: databaseUpdate, violations: databaseUpdateViolations },
  'requests/database-snapshot-create': { schema: 'requests/database-snapshot-create', valid: snapshotCreate, violations: snapshotViolations },
  'requests/account-update': { schema: 'requests/account-update', valid: accountUpdate, violations: accountViolations },
  'requests/account-cancel': { schema: 'requests/account-cancel', valid: accountCancel, violations: cancelViolations },
  'requests/credit-card': { schema: 'requests/credit-card', valid: creditCard, violations: creditCardViolations },
  'requests/entity-transfer-create': { schema: 'requests/entity-transfer-create', valid: transferCreate, violations: transferViolations },
  'requests/oauth-client-create': {
    schema: 'requests/oauth-client-create',
    valid: clientCreate,
    violations: [
      missing('P1.oauth-client-create.label.required', clientCreate, 'label'),
      missing('P1.oauth-client-create.redirect-uri.required', clientCreate, 'redirect_uri'),
      ...clientViolations(clientCreate, 'P1.oauth-client-create.types'),
    ],
  },
  'requests/oauth-client-update': {
    schema: 'requests/oauth-client-update',
    valid: clientUpdate,
    violations: clientViolations(clientUpdate, 'P1.oauth-client-update.types'),
  },
};
