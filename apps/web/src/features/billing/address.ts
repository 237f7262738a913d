/**
 * The billing address form (docs/billing.md#checkout): its fields, the country list in the UI
 * language (EU countries first: VAT ids are theirs), and the checks the server makes too, from the
 * shared schema, as catalogue codes under each field.
 */
import { BillingAddressSchema, type BillingAddress, type ErrorCode } from '@sheaf/shared';

export const ADDRESS_FIELDS = ['organization', 'line1', 'line2', 'zip', 'city', 'country', 'vatId'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type AddressValues = Record<AddressField, string>;

export const EMPTY_ADDRESS: AddressValues = { organization: '', line1: '', line2: '', zip: '', city: '', country: '', vatId: '' };

/** The saved address as form values (a country guessed from the browser when none is saved). */
export function addressValues(saved: BillingAddress | null, guessedCountry: string | null): AddressValues {
  if (saved) return { ...EMPTY_ADDRESS, ...saved };
  return { ...EMPTY_ADDRESS, country: guessedCountry ?? '' };
}

/** The code under each field the shared schema refuses (a value too long reads as invalid input). */
export function addressErrors(values: AddressValues): Partial<Record<AddressField, ErrorCode>> {
  const result = BillingAddressSchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<AddressField, ErrorCode>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as AddressField;
    if (errors[field]) continue;
    errors[field] = issue.message.startsWith('billing/') ? (issue.message as ErrorCode) : 'generic/invalid-input';
  }
  return errors;
}

/** Server codes that come without a field but belong under one. */
export const ADDRESS_CODE_FIELDS: Partial<Record<string, AddressField>> = {
  'billing/vat-invalid': 'vatId',
  'billing/country-invalid': 'country',
};

/** The 27 member states of the European Union. */
export const EU_COUNTRIES = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'] as const;

/** ISO 3166-1 alpha-2 codes of every country and territory. */
export const COUNTRIES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH ' +
  'CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN ' +
  'GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI ' +
  'LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM ' +
  'PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD ' +
  'TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

export interface CountryOption {
  code: string;
  name: string;
}

/** The countries by name in the UI language, EU member states and the others apart. */
export function countryOptions(locale: string): { eu: CountryOption[]; other: CountryOption[] } {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(locale);
  const option = (code: string): CountryOption => ({ code, name: names?.of(code) ?? code });
  const byName = (a: CountryOption, b: CountryOption) => collator.compare(a.name, b.name);
  const eu = new Set<string>(EU_COUNTRIES);
  return {
    eu: COUNTRIES.filter((code) => eu.has(code)).map(option).sort(byName),
    other: COUNTRIES.filter((code) => !eu.has(code)).map(option).sort(byName),
  };
}

/** The country of the browser's first language with a region ("de-AT" -> AT), if it is one we list. */
export function guessCountry(languages: readonly string[]): string | null {
  for (const language of languages) {
    const region = language.split('-').slice(1).find((part) => /^[A-Za-z]{2}$/.test(part))?.toUpperCase();
    if (region && COUNTRIES.includes(region)) return region;
  }
  return null;
}
