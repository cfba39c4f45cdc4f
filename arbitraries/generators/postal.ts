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

/** Postal codes of the other countries the suite moves the account to (any province goes with them). */
const ELSEWHERE: Record<string, string[]> = {
  GB: ['SW1A 1AA', 'EC1A 1BB', 'M1 1AE'],
  DE: ['10115', '80331'],
  FR: ['75001', '69002'],
  NL: ['1012 AB', '3011 AD'],
  SE: ['111 22', '411 03'],
  JP: ['100-0001', '530-0001'],
  AU: ['2000', '3000'],
  IN: ['110001', '400001'],
  BR: ['01310-100', '20040-002'],
  SG: ['018956', '238859'],
  ZA: ['8001', '2000'],
  NZ: ['6011', '1010'],
};

/** The state and province codes postal codes are known for, by country. */
export const STATE_CODES = { US: Object.keys(US), CA: Object.keys(CA) } as const;
export const OTHER_COUNTRIES = Object.keys(ELSEWHERE);

/**
 * A postal code of `country` that suits `state` where the country has state codes; for a state that is no code (a
 * value a server must refuse), one of New York's or Ontario's, since there is nothing for it to suit. Elsewhere any
 * of the country's: its first.
 */
export function postalCodeOf(country: string, state?: string): string {
  if (country === 'US') return US[state ?? ''] ?? US.NY!;
  if (country === 'CA') return CA[state ?? ''] ?? CA.ON!;
  return ELSEWHERE[country]![0]!;
}

/** Postal codes of `country` (and `state`), to draw from. */
export const postalCodes = (country: string, state?: string): fc.Arbitrary<string> =>
  country === 'US' || country === 'CA' ? fc.constant(postalCodeOf(country, state)) : fc.constantFrom(...ELSEWHERE[country]!);
