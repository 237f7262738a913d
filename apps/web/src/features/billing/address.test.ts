// @vitest-environment node
/** The billing address form: the shared schema's checks as catalogue codes, countries in the UI language. */
import { describe, expect, it } from 'vitest';
import { addressErrors, addressValues, countryOptions, EMPTY_ADDRESS, EU_COUNTRIES, guessCountry } from './address.ts';

const valid = { ...EMPTY_ADDRESS, line1: 'Hauptstraße 1', zip: '10115', city: 'Berlin', country: 'DE' };

describe('billing address', () => {
  it('needs line 1, postal code, city and a country', () => {
    expect(addressErrors(valid)).toEqual({});
    expect(addressErrors(EMPTY_ADDRESS)).toEqual({
      line1: 'billing/address-required', zip: 'billing/address-required', city: 'billing/address-required', country: 'billing/country-invalid',
    });
    expect(addressErrors({ ...valid, city: '   ' })).toEqual({ city: 'billing/address-required' });
    expect(addressErrors({ ...valid, zip: '1'.repeat(21) })).toEqual({ zip: 'generic/invalid-input' });
  });

  it('starts from the saved address, else the browser\'s country', () => {
    expect(addressValues(null, 'AT')).toEqual({ ...EMPTY_ADDRESS, country: 'AT' });
    expect(addressValues({ organization: 'ACME', line1: 'a', line2: '', zip: 'z', city: 'c', country: 'FR', vatId: 'FR1' }, 'AT').country).toBe('FR');
    expect(guessCountry(['de-AT', 'en'])).toBe('AT');
    expect(guessCountry(['zh-Hans-CN'])).toBe('CN');
    expect(guessCountry(['en', 'fr'])).toBeNull();
  });

  it('lists the EU first, every country named in the UI language', () => {
    const german = countryOptions('de');
    expect(german.eu).toHaveLength(EU_COUNTRIES.length);
    expect(german.eu.find((country) => country.code === 'DE')?.name).toBe('Deutschland');
    expect(german.other.some((country) => country.code === 'DE')).toBe(false);
    expect(german.eu.length + german.other.length).toBe(249);
    const names = german.eu.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('de').compare));
  });
});
