// The subdivisions of some countries (states, provinces, regions, counties, prefectures), for the variation
// province-checked: outside the US and CA an account's state is "the province", and a server may hold each country's
// subdivisions and refuse text naming none. Names in English and, where it differs, the country's own; compared
// without case, accents or a "County"/"län" suffix. Written apart from the suite's own table of provinces
// (arbitraries/generators/postal.ts): the two meet only over HTTP.

const SUBDIVISIONS: Record<string, string> = {
  GB: 'England|Scotland|Wales|Northern Ireland',
  DE:
    'Baden-Württemberg|Bavaria|Bayern|Berlin|Brandenburg|Bremen|Hamburg|Hesse|Hessen|Lower Saxony|Niedersachsen|' +
    'Mecklenburg-Vorpommern|Mecklenburg-Western Pomerania|North Rhine-Westphalia|Nordrhein-Westfalen|' +
    'Rhineland-Palatinate|Rheinland-Pfalz|Saarland|Saxony|Sachsen|Saxony-Anhalt|Sachsen-Anhalt|Schleswig-Holstein|' +
    'Thuringia|Thüringen',
  FR:
    'Auvergne-Rhône-Alpes|Bourgogne-Franche-Comté|Brittany|Bretagne|Centre-Val de Loire|Corsica|Corse|Grand Est|' +
    "Hauts-de-France|Île-de-France|Normandy|Normandie|Nouvelle-Aquitaine|Occitania|Occitanie|Pays de la Loire|Provence-Alpes-Côte d'Azur|" +
    'Guadeloupe|Martinique|French Guiana|Guyane|Réunion|La Réunion|Mayotte',
  NL:
    'Drenthe|Flevoland|Friesland|Fryslân|Gelderland|Groningen|Limburg|North Brabant|Noord-Brabant|North Holland|' +
    'Noord-Holland|Overijssel|South Holland|Zuid-Holland|Utrecht|Zeeland',
  SE:
    'Blekinge|Dalarna|Gotland|Gävleborg|Halland|Jämtland|Jönköping|Kalmar|Kronoberg|Norrbotten|Skåne|Stockholm|' +
    'Stockholms|Södermanland|Uppsala|Värmland|Västerbotten|Västernorrland|Västmanland|Västra Götaland|Örebro|Östergötland',
  JP:
    'Hokkaido|Aomori|Iwate|Miyagi|Akita|Yamagata|Fukushima|Ibaraki|Tochigi|Gunma|Saitama|Chiba|Tokyo|Kanagawa|' +
    'Niigata|Toyama|Ishikawa|Fukui|Yamanashi|Nagano|Gifu|Shizuoka|Aichi|Mie|Shiga|Kyoto|Osaka|Hyogo|Nara|Wakayama|' +
    'Tottori|Shimane|Okayama|Hiroshima|Yamaguchi|Tokushima|Kagawa|Ehime|Kochi|Fukuoka|Saga|Nagasaki|Kumamoto|Oita|' +
    'Miyazaki|Kagoshima|Okinawa',
  AU:
    'New South Wales|NSW|Victoria|VIC|Queensland|QLD|South Australia|SA|Western Australia|WA|Tasmania|TAS|' +
    'Australian Capital Territory|ACT|Northern Territory|NT',
  IN:
    'Andhra Pradesh|Arunachal Pradesh|Assam|Bihar|Chhattisgarh|Goa|Gujarat|Haryana|Himachal Pradesh|Jharkhand|' +
    'Karnataka|Kerala|Madhya Pradesh|Maharashtra|Manipur|Meghalaya|Mizoram|Nagaland|Odisha|Punjab|Rajasthan|Sikkim|' +
    'Tamil Nadu|Telangana|Tripura|Uttar Pradesh|Uttarakhand|West Bengal|Andaman and Nicobar Islands|Chandigarh|' +
    'Dadra and Nagar Haveli and Daman and Diu|Delhi|Jammu and Kashmir|Ladakh|Lakshadweep|Puducherry',
  BR:
    'Acre|Alagoas|Amapá|Amazonas|Bahia|Ceará|Distrito Federal|Federal District|Espírito Santo|Goiás|Maranhão|' +
    'Mato Grosso|Mato Grosso do Sul|Minas Gerais|Pará|Paraíba|Paraná|Pernambuco|Piauí|Rio de Janeiro|' +
    'Rio Grande do Norte|Rio Grande do Sul|Rondônia|Roraima|Santa Catarina|São Paulo|Sergipe|Tocantins',
  SG: 'Central Singapore|North East|North West|South East|South West',
  ZA: 'Eastern Cape|Free State|Gauteng|KwaZulu-Natal|Limpopo|Mpumalanga|North West|Northern Cape|Western Cape',
  NZ:
    "Northland|Auckland|Waikato|Bay of Plenty|Gisborne|Hawke's Bay|Taranaki|Manawatū-Whanganui|Wellington|Tasman|" +
    'Nelson|Marlborough|West Coast|Canterbury|Otago|Southland',
};

/** A name as compared: without accents, case, surrounding or doubled spaces, or a trailing "County" or "län". */
const comparable = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (county|lan)$/, '');

const BY_COUNTRY = new Map(Object.entries(SUBDIVISIONS).map(([country, names]) => [country, new Set(names.split('|').map(comparable))]));

/** Whether `state` names a subdivision of `country`; for a country without a table here, any state does. */
export function isSubdivisionOf(country: string, state: string): boolean {
  const names = BY_COUNTRY.get(country);
  return names === undefined || names.has(comparable(state));
}
