// Postal codes as each post writes them, for the account's zip: its format is not shown, and a server may check it
// against the country, and for the US and Canada against the state or province too (a zip's first digit is a group
// of states, a postal code's first letter a province). So a zip is always drawn together with its country and state.
import fc from 'fast-check';

/** A postal code of each US state, DC and military code the suite sends (AA Americas, AE Europe, AP Pacific). */
const US: Record<string, string> = {
  AL: '35203',
  AK: '99501',
  AZ: '85004',
  CA: '94105',
  CO: '80202',
  DC: '20001',
  FL: '33101',
  GA: '30303',
  HI: '96813',
  IL: '60601',
  MA: '02108',
  NJ: '07102',
  NY: '10001',
  OR: '97201',
  PA: '19102',
  TX: '78701',
  WA: '98101',
  WY: '82001',
  AA: '34002',
  AE: '09012',
  AP: '96205',
};

/** A postal code of each Canadian province and territory. */
const CA: Record<string, string> = {
  AB: 'T5J 0N3',
  BC: 'V6B 4Y8',
  MB: 'R3C 4T3',
  NB: 'E1C 4M3',
  NL: 'A1C 5M2',
  NS: 'B3J 3K5',
  NT: 'X1A 2L9',
  NU: 'X0A 0H0',
  ON: 'K1A 0B1',
  PE: 'C1A 7N8',
  QC: 'H2Y 1C6',
  SK: 'S4P 3Y2',
  YT: 'Y1A 2C6',
};

/**
 * The other countries the suite moves the account to: a province of each with postal codes of it. Outside the US and
 * CA the state is "the province", and a server may hold each country's subdivisions and refuse text naming none (or
 * a zip of another one). Each is a subdivision in ISO 3166-2, whose name reads the same in English and the country's
 * own language where one could be found (Berlin, not Bavaria or Bayern), in ASCII. No Singapore: a city-state has no
 * province to give.
 */
const ELSEWHERE: Record<string, Record<string, string[]>> = {
  GB: { England: ['SW1A 1AA', 'EC1A 1BB', 'M1 1AE'] },
  DE: { Berlin: ['10115'], Hamburg: ['20095'] },
  FR: { 'Grand Est': ['67000'], 'Pays de la Loire': ['44000'] },
  NL: { Utrecht: ['3503 RK'] },
  SE: { Stockholm: ['111 22'], Uppsala: ['753 20'] },
  JP: { Tokyo: ['100-0001'], Osaka: ['530-0001'] },
  AU: { 'New South Wales': ['2000'], Victoria: ['3000'] },
  IN: { Delhi: ['110001'], Maharashtra: ['400001'] },
  BR: { 'Rio de Janeiro': ['20040-002'], Bahia: ['40020-000'] },
  ZA: { 'Western Cape': ['8001'], Gauteng: ['2000'] },
  NZ: { Wellington: ['6011'], Auckland: ['1010'] },
};

/** The state and province codes postal codes are known for, by country. */
export const STATE_CODES = { US: Object.keys(US), CA: Object.keys(CA) } as const;
export const OTHER_COUNTRIES = Object.keys(ELSEWHERE);
/** The provinces of each other country postal codes are known for. */
export const provincesOf = (country: string): string[] => Object.keys(ELSEWHERE[country] ?? {});

/** The postal codes of a province of another country, or all of the country's when `state` is none of its provinces. */
const elsewhere = (country: string, state?: string): string[] => {
  const provinces = ELSEWHERE[country]!;
  return provinces[state ?? ''] ?? Object.values(provinces).flat();
};

/**
 * A postal code of `country` that suits `state`: for a state that is no code of the US or CA (a value a server must
 * refuse), one of New York's or Ontario's, since there is nothing for it to suit; elsewhere for a state that is no
 * province listed here, one of the country's.
 */
export function postalCodeOf(country: string, state?: string): string {
  if (country === 'US') return US[state ?? ''] ?? US.NY!;
  if (country === 'CA') return CA[state ?? ''] ?? CA.ON!;
  return elsewhere(country, state)[0]!;
}

/** Postal codes of `country` (and `state`), to draw from. */
export const postalCodes = (country: string, state?: string): fc.Arbitrary<string> =>
  country === 'US' || country === 'CA' ? fc.constant(postalCodeOf(country, state)) : fc.constantFrom(...elsewhere(country, state));
