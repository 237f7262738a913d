import type { NumberFormat } from '@sheaf/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from './formatNumber.ts';

const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

function format(overrides: Partial<NumberFormat> = {}): NumberFormat {
  return { style: 'decimal', thousandsSeparator: true, locale: 'en-US', currency: 'USD', ...overrides };
}

describe('formatNumber', () => {
  it('keeps the value’s own decimals, or a fixed number of them', () => {
    expect(formatNumber(1234.5, format())).toBe('1,234.5');
    expect(formatNumber(1234.5, format({ decimals: 2 }))).toBe('1,234.50');
    expect(formatNumber(1234.5678, format({ decimals: 0 }))).toBe('1,235');
    expect(formatNumber(0.1 + 0.2, format())).toBe('0.3'); // binary noise is not a decimal of the value
    expect(formatNumber(1 / 3, format())).toBe('0.3333333333');
  });

  it('groups thousands or not', () => {
    expect(formatNumber(1234567.891, format({ thousandsSeparator: false }))).toBe('1234567.891');
    expect(formatNumber(1234567.891, format({ thousandsSeparator: false, locale: 'de-DE' }))).toBe('1234567,891');
  });

  it('uses the separators of the locale', () => {
    expect(formatNumber(1234567.5, format({ locale: 'de-DE', decimals: 2 }))).toBe('1.234.567,50');
    expect(formatNumber(1234567.5, format({ locale: 'fr-FR', decimals: 2 }))).toBe(`1${NARROW_NBSP}234${NARROW_NBSP}567,50`);
    expect(formatNumber(1234567.5, format({ locale: 'de-CH', decimals: 2 }))).toBe("1'234'567.50");
    expect(formatNumber(1234567.5, format({ locale: 'en-IN', decimals: 2 }))).toBe('12,34,567.50');
  });

  it('writes currencies with the symbol and its place in the locale', () => {
    expect(formatNumber(1234.5, format({ style: 'currency' }))).toBe('$1,234.50');
    expect(formatNumber(1234.5, format({ style: 'currency', currency: 'EUR', locale: 'de-DE' }))).toBe(`1.234,50${NBSP}€`);
    expect(formatNumber(1234.5, format({ style: 'currency', currency: 'EUR', locale: 'en-IE' }))).toBe('€1,234.50');
    expect(formatNumber(1234.5, format({ style: 'currency', currency: 'GBP', locale: 'en-GB', decimals: 0 }))).toBe('£1,235');
    expect(formatNumber(1234, format({ style: 'currency', currency: 'JPY', locale: 'ja-JP' }))).toBe('￥1,234');
    expect(formatNumber(-5, format({ style: 'currency' }))).toBe('-$5.00');
  });

  it('writes percentages from fractions', () => {
    expect(formatNumber(0.25, format({ style: 'percent' }))).toBe('25%');
    expect(formatNumber(0.25, format({ style: 'percent', locale: 'de-DE' }))).toBe(`25${NBSP}%`);
    expect(formatNumber(0.12345, format({ style: 'percent' }))).toBe('12.345%');
    expect(formatNumber(0.12345, format({ style: 'percent', decimals: 1 }))).toBe('12.3%');
  });

  it('writes negative numbers, and no "-0" when rounding leaves nothing', () => {
    expect(formatNumber(-1234.5, format())).toBe('-1,234.5');
    expect(formatNumber(-1234.5, format({ locale: 'de-DE' }))).toBe('-1.234,5');
    expect(formatNumber(-0.001, format({ decimals: 2 }))).toBe('0.00');
    expect(formatNumber(-0, format())).toBe('0');
  });

  it.each([
    ['1,234.5', 'en-US', '1,234.5'],
    ['1.234,5', 'de-DE', '1.234,5'],
    ['1.234,5', 'en-US', '1,234.5'], // both separators: the last one is the decimal point, whatever the locale
    ['1,234', 'en-US', '1,234'],
    ['1,234', 'de-DE', '1,234'], // de: a decimal comma
    ['1.234', 'de-DE', '1.234'], // de: a thousands dot
    ['1,5', 'en-US', '1.5'], // not three digits after it, so not a thousands separator
    ['0,125', 'en-US', '0.125'],
    [' 42 ', 'en-US', '42'],
    ['$12', 'en-US', '12'],
    ['-$12.50', 'en-US', '-12.5'],
    ['12,50 €', 'de-DE', '12,5'],
    ['EUR 1.200,00', 'de-DE', '1.200'],
    ['1 234 567,5', 'fr-FR', `1${NARROW_NBSP}234${NARROW_NBSP}567,5`],
    ["1'234.5", 'de-CH', "1'234.5"],
    ['1’234.5', 'en-US', '1,234.5'],
    ['1,23,456', 'en-IN', '1,23,456'],
    ['(1,234.00)', 'en-US', '-1,234'],
    ['−7', 'en-US', '-7'],
    ['+7', 'en-US', '7'],
    ['25%', 'en-US', '0.25'],
    ['1.5e3', 'en-US', '1,500'],
  ])('reads the text %j as a number (%s)', (text, locale, expected) => {
    expect(formatNumber(text, format({ locale }))).toBe(expected);
  });

  it('returns values that are not numbers unchanged, never "NaN"', () => {
    for (const text of ['abc', '12abc', '1,2,3', '12 34', '1.2.3', '(12', '--5', 'N/A', '-', '.', '', '  ']) {
      expect(formatNumber(text, format())).toBe(text);
    }
    expect(formatNumber(null, format())).toBe('');
    expect(formatNumber(true, format())).toBe('TRUE');
    expect(formatNumber(Number.NaN, format())).toBe('');
    expect(formatNumber(Number.POSITIVE_INFINITY, format())).toBe('');
    expect(formatNumber(new Date(Date.UTC(2024, 2, 5)), format())).toBe('2024-03-05');
  });

  it('falls back to en-US for a locale Intl does not know', () => {
    expect(formatNumber(1234.5, format({ locale: 'xx-invalid-tag-!' }))).toBe('1,234.5');
  });

  it('reads back what it writes, in every style and locale (property)', () => {
    const locales = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'de-CH', 'en-IN'];
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.constantFrom(...locales),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        (value, locale, decimals, grouping) => {
          const fixed = format({ locale, decimals, thousandsSeparator: grouping });
          const once = formatNumber(value, fixed);
          expect(once).not.toMatch(/NaN/);
          // Grouped text is unambiguous; the text re-read in its own locale keeps its value.
          if (grouping || decimals > 0) expect(formatNumber(once, fixed)).toBe(once);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('builds the Intl formatter once per format, not once per row', () => {
    const Original = Intl.NumberFormat;
    let constructed = 0;
    Intl.NumberFormat = new Proxy(Original, {
      construct(target, args: ConstructorParameters<typeof Intl.NumberFormat>) {
        constructed++;
        return new target(...args);
      },
    });
    try {
      const perPlaceholder = format({ locale: 'nl-NL', style: 'currency', currency: 'EUR' });
      for (let row = 0; row < 1000; row++) formatNumber(row % 2 ? row * 1.5 : `${row},25`, perPlaceholder);
      expect(formatNumber('12,25', perPlaceholder)).toBe(`€${NBSP}12,25`);
    } finally {
      Intl.NumberFormat = Original;
    }
    expect(constructed).toBeLessThanOrEqual(2); // the formatter, and the locale's separators for reading text
  });
});
