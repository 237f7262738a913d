import { DATE_PRESETS, type DateFormat } from '@sheaf/shared';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { excelSerialToDate } from './calendarDate.ts';
import { formatDate } from './formatDate.ts';

const preset = (format: DateFormat['format'], locale = 'en-US'): DateFormat => ({ format, locale });
const custom = (customFormat: string, locale = 'en-US'): DateFormat => ({ format: 'custom', customFormat, locale });
const ISO_DATE = custom('YYYY-MM-DD');
const ISO_DATE_TIME = custom('YYYY-MM-DD HH:mm:ss');
const march5 = new Date(Date.UTC(2024, 2, 5));

describe('formatDate presets and tokens', () => {
  it.each([
    ['DD/MM/YYYY', 'en-US', '05/03/2024'],
    ['MM/DD/YYYY', 'en-US', '03/05/2024'],
    ['YYYY-MM-DD', 'en-US', '2024-03-05'],
    ['DD.MM.YYYY', 'de-DE', '05.03.2024'],
    ['D MMMM YYYY', 'en-GB', '5 March 2024'],
    ['D MMMM YYYY', 'de-DE', '5 März 2024'],
    ['D MMMM YYYY', 'ru-RU', '5 марта 2024'], // the form used beside a day
    ['MMMM D, YYYY', 'en-US', 'March 5, 2024'],
    ['MMMM D, YYYY', 'zh-CN', '3月 5, 2024'],
    ['DD MMM YYYY', 'en-GB', '05 Mar 2024'],
    ['DD MMM YYYY', 'fr-FR', '05 mars 2024'],
    ['dddd, D MMMM YYYY', 'en-GB', 'Tuesday, 5 March 2024'],
    ['dddd, D MMMM YYYY', 'es-ES', 'martes, 5 marzo 2024'],
    ['dddd, D MMMM YYYY', 'fr-FR', 'mardi, 5 mars 2024'],
  ] as const)('%s in %s', (format, locale, expected) => {
    expect(formatDate(march5, preset(format, locale))).toBe(expected);
  });

  it('fills every custom token; [text] is literal', () => {
    const value = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
    expect(formatDate(value, custom('YYYY YY MMMM MMM MM M DD D dddd ddd'))).toBe('2024 24 March Mar 03 3 05 5 Tuesday Tue');
    expect(formatDate(value, custom('HH H hh h mm ss A'))).toBe('14 14 02 2 07 09 PM');
    expect(formatDate(value, custom('[Date: D MMMM] D MMMM', 'de-DE'))).toBe('Date: D MMMM 5 März');
    expect(formatDate(value, custom('MMMM YYYY', 'ru-RU'))).toBe('март 2024'); // standalone form without a day
  });

  it('uses a 12-hour clock with 12 for midnight and noon', () => {
    expect(formatDate('2024-03-05 00:30', custom('h:mm A'))).toBe('12:30 AM');
    expect(formatDate('2024-03-05 12:30', custom('h:mm A'))).toBe('12:30 PM');
    expect(formatDate('2024-03-05 12:30', custom('h:mm A', 'zh-CN'))).toBe('12:30 下午');
  });

  it('uses DD/MM/YYYY when "custom" has no pattern', () => {
    expect(formatDate(march5, { format: 'custom', locale: 'en-US' })).toBe('05/03/2024');
  });
});

describe('formatDate sources', () => {
  it('reads Excel serial numbers of the 1900 system, with its phantom 29 February 1900', () => {
    expect(formatDate(45356, ISO_DATE)).toBe('2024-03-05');
    expect(formatDate(1, ISO_DATE)).toBe('1900-01-01');
    expect(formatDate(59, ISO_DATE)).toBe('1900-02-28');
    expect(formatDate(60, ISO_DATE)).toBe('1900-02-29');
    expect(formatDate(61, ISO_DATE)).toBe('1900-03-01');
    expect(formatDate(2958465, ISO_DATE)).toBe('9999-12-31');
  });

  it('reads the time in a serial’s fraction, rounded to the second', () => {
    expect(formatDate(45356.5, ISO_DATE_TIME)).toBe('2024-03-05 12:00:00');
    expect(formatDate(45356 + (10 * 3600 + 20 * 60 + 30) / 86400, ISO_DATE_TIME)).toBe('2024-03-05 10:20:30');
    expect(formatDate(45356.9999999, ISO_DATE_TIME)).toBe('2024-03-06 00:00:00');
  });

  it('reads ISO dates, taking times as written (no time-zone shift)', () => {
    expect(formatDate('2024-03-05', ISO_DATE_TIME)).toBe('2024-03-05 00:00:00');
    expect(formatDate('2024-03-05T10:20:00Z', ISO_DATE_TIME)).toBe('2024-03-05 10:20:00');
    expect(formatDate('2024-03-05T23:30:00-08:00', ISO_DATE_TIME)).toBe('2024-03-05 23:30:00');
    expect(formatDate('2024-03-05T10:20:00.123+05:30', ISO_DATE_TIME)).toBe('2024-03-05 10:20:00');
    expect(formatDate('20240305', ISO_DATE)).toBe('2024-03-05');
    expect(formatDate('45356', ISO_DATE)).toBe('2024-03-05'); // a serial that came through a CSV file
  });

  it('reads an ambiguous numeric date in the order of the format’s locale', () => {
    expect(formatDate('05/03/2024', ISO_DATE)).toBe('2024-05-03'); // en-US: month first
    for (const locale of ['en-GB', 'de-DE', 'fr-FR', 'es-ES']) expect(formatDate('05/03/2024', custom('YYYY-MM-DD', locale))).toBe('2024-03-05');
    expect(formatDate('5-3-24', custom('YYYY-MM-DD', 'en-GB'))).toBe('2024-03-05');
    expect(formatDate('05.03.2024', ISO_DATE)).toBe('2024-03-05'); // dotted dates are day first even in en-US
    expect(formatDate('2024/03/05', ISO_DATE)).toBe('2024-03-05');
  });

  it('reads a numeric date in the other order when only that one is a real date', () => {
    expect(formatDate('13/03/2024', ISO_DATE)).toBe('2024-03-13');
    expect(formatDate('03/13/2024', custom('YYYY-MM-DD', 'de-DE'))).toBe('2024-03-13');
  });

  it.each([
    ['5 March 2024', 'en-US'],
    ['March 5, 2024', 'en-GB'],
    ['Tuesday, 5th March 2024', 'en-GB'],
    ['Tue, 05-Mar-2024', 'en-US'],
    ['the 5th of March, 2024', 'en-US'],
    ['5. März 2024', 'de-DE'],
    ['Dienstag, 5. März 2024', 'de-DE'],
    ['5 mars 2024', 'fr-FR'],
    ['5 de marzo de 2024', 'es-ES'],
    ['2024年3月5日', 'zh-CN'],
    ['5 March 24', 'en-GB'],
  ])('reads the written date %j (%s)', (text, locale) => {
    expect(formatDate(text, custom('YYYY-MM-DD', locale))).toBe('2024-03-05');
  });

  it('reads a time written with the date', () => {
    expect(formatDate('05/03/2024 3:05 pm', custom('YYYY-MM-DD HH:mm', 'en-GB'))).toBe('2024-03-05 15:05');
    expect(formatDate('March 5, 2024 10:20:30', ISO_DATE_TIME)).toBe('2024-03-05 10:20:30');
    expect(formatDate('Tue Mar 05 2024 10:20:00 GMT+0100 (Central European Standard Time)', ISO_DATE_TIME)).toBe('2024-03-05 10:20:00');
  });

  it('returns what is not a date unchanged', () => {
    for (const text of ['hello', '31/02/2024', '2024', '5/3', 'March 2024', '2024-13-01', 'Room 12/3/2024', '25:00 5 March 2024', '', ' ']) {
      expect(formatDate(text, ISO_DATE)).toBe(text);
    }
    expect(formatDate(null, ISO_DATE)).toBe('');
    expect(formatDate(true, ISO_DATE)).toBe('TRUE');
    expect(formatDate(-5, ISO_DATE)).toBe('-5');
    expect(formatDate(3e6, ISO_DATE)).toBe('3000000');
    expect(formatDate(Number.NaN, ISO_DATE)).toBe('');
    expect(formatDate(new Date(Number.NaN), ISO_DATE)).toBe('');
  });
});

describe('calendar dates in every time zone', () => {
  const originalZone = process.env.TZ;
  afterEach(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  it.each(['America/Los_Angeles', 'UTC', 'Asia/Tokyo', 'Pacific/Kiritimati'])('prints 5 March in %s', (zone) => {
    process.env.TZ = zone;
    const format = preset('dddd, D MMMM YYYY', 'en-GB');
    // The zone took effect: local midnight is UTC midnight only in UTC.
    expect(new Date(2024, 2, 5).getTime() === march5.getTime()).toBe(zone === 'UTC');
    for (const value of [march5, excelSerialToDate(45356), 45356, '2024-03-05', '2024-03-05T00:00:00Z', '2024-03-05T23:59:59-08:00', '05/03/2024']) {
      expect(formatDate(value, format)).toBe('Tuesday, 5 March 2024');
    }
  });
});

describe('excelSerialToDate', () => {
  it('gives the date at that wall-clock time in UTC', () => {
    expect(excelSerialToDate(45356).toISOString()).toBe('2024-03-05T00:00:00.000Z');
    expect(excelSerialToDate(45356.75).toISOString()).toBe('2024-03-05T18:00:00.000Z');
    expect(excelSerialToDate(1).toISOString()).toBe('1900-01-01T00:00:00.000Z');
    expect(excelSerialToDate(61).toISOString()).toBe('1900-03-01T00:00:00.000Z');
  });

  it('reads the 1904 system', () => {
    expect(excelSerialToDate(0, true).toISOString()).toBe('1904-01-01T00:00:00.000Z');
    expect(excelSerialToDate(43894, true).toISOString()).toBe('2024-03-05T00:00:00.000Z');
  });

  it('gives an invalid Date outside Excel’s range', () => {
    expect(excelSerialToDate(-1).getTime()).toBeNaN();
    expect(excelSerialToDate(3e6).getTime()).toBeNaN();
  });
});

describe('round trips (property)', () => {
  const day = fc.integer({ min: Date.UTC(1901, 0, 1), max: Date.UTC(2199, 11, 31) }).map((ms) => new Date(ms - (ms % 86_400_000)));

  it('reads back its own output for presets that say which part is the month', () => {
    const cases: [DateFormat['format'], string][] = [];
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES']) {
      for (const format of DATE_PRESETS) {
        const ambiguous = (format === 'DD/MM/YYYY' && locale === 'en-US') || (format === 'MM/DD/YYYY' && locale !== 'en-US');
        if (!ambiguous) cases.push([format, locale]);
      }
    }
    fc.assert(
      fc.property(day, fc.constantFrom(...cases), (date, [format, locale]) => {
        const written = formatDate(date, preset(format, locale));
        expect(formatDate(written, custom('YYYY-MM-DD', locale))).toBe(date.toISOString().slice(0, 10));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees between a date and its Excel serial', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 86_399 }), (date, seconds) => {
        const serial = (date.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 + seconds / 86_400;
        const withTime = new Date(date.getTime() + seconds * 1000);
        expect(formatDate(serial, ISO_DATE_TIME)).toBe(formatDate(withTime, ISO_DATE_TIME));
        expect(excelSerialToDate(serial).getTime()).toBe(withTime.getTime());
      }),
      { numRuns: 300 },
    );
  });
});
