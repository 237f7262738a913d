import { describe, expect, it } from 'vitest';
import { BUILT_IN_FORMAT_VALUES } from '../../../../scripts/fixtures/sheets.ts';
import { readSheet } from './index.ts';
import { fixtureBytes } from './test-support.ts';

/**
 * What an en-US Excel shows for each built-in number format id 0-49, for the values of
 * BUILT_IN_FORMAT_VALUES: 42507.75 (17 May 2016 18:00), 1234.5, -1234.5, 0, 0.5 and 1 day 50:30.
 * Text as Excel's TEXT() gives it: `_x` pads with a space, a `* ` fill adds nothing (it only fills
 * the column's width on screen). `undefined`: not compared (a negative date shows as ####).
 */
const N = undefined;
const EXCEL_EN_US: Record<number, readonly (string | undefined)[]> = {
  0: ['42507.75', '1234.5', '-1234.5', '0', '0.5', '1.035069444'],
  1: ['42508', '1235', '-1235', '0', '1', '1'],
  2: ['42507.75', '1234.50', '-1234.50', '0.00', '0.50', '1.04'],
  3: ['42,508', '1,235', '-1,235', '0', '1', '1'],
  4: ['42,507.75', '1,234.50', '-1,234.50', '0.00', '0.50', '1.04'],
  5: ['$42,508 ', '$1,235 ', '($1,235)', '$0 ', '$1 ', '$1 '],
  6: ['$42,508 ', '$1,235 ', '($1,235)', '$0 ', '$1 ', '$1 '],
  7: ['$42,507.75 ', '$1,234.50 ', '($1,234.50)', '$0.00 ', '$0.50 ', '$1.04 '],
  8: ['$42,507.75 ', '$1,234.50 ', '($1,234.50)', '$0.00 ', '$0.50 ', '$1.04 '],
  9: ['4250775%', '123450%', '-123450%', '0%', '50%', '104%'],
  10: ['4250775.00%', '123450.00%', '-123450.00%', '0.00%', '50.00%', '103.51%'],
  11: ['4.25E+04', '1.23E+03', '-1.23E+03', '0.00E+00', '5.00E-01', '1.04E+00'],
  12: ['42507 3/4', '1234 1/2', '-1234 1/2', N, ' 1/2', N],
  13: ['42507  3/4 ', '1234  1/2 ', '-1234  1/2 ', N, '  1/2 ', N],
  14: ['5/17/2016', '5/18/1903', N, '1/0/1900', '1/0/1900', '1/1/1900'],
  15: ['17-May-16', '18-May-03', N, '0-Jan-00', '0-Jan-00', '1-Jan-00'],
  16: ['17-May', '18-May', N, '0-Jan', '0-Jan', '1-Jan'],
  17: ['May-16', 'May-03', N, 'Jan-00', 'Jan-00', 'Jan-00'],
  18: ['6:00 PM', '12:00 PM', N, '12:00 AM', '12:00 PM', '12:50 AM'],
  19: ['6:00:00 PM', '12:00:00 PM', N, '12:00:00 AM', '12:00:00 PM', '12:50:30 AM'],
  20: ['18:00', '12:00', N, '0:00', '12:00', '0:50'],
  21: ['18:00:00', '12:00:00', N, '0:00:00', '12:00:00', '0:50:30'],
  22: ['5/17/2016 18:00', '5/18/1903 12:00', N, '1/0/1900 0:00', '1/0/1900 12:00', '1/1/1900 0:50'],
  37: ['42,508 ', '1,235 ', '(1,235)', '0 ', '1 ', '1 '],
  38: ['42,508 ', '1,235 ', '(1,235)', '0 ', '1 ', '1 '],
  39: ['42,507.75 ', '1,234.50 ', '(1,234.50)', '0.00 ', '0.50 ', '1.04 '],
  40: ['42,507.75 ', '1,234.50 ', '(1,234.50)', '0.00 ', '0.50 ', '1.04 '],
  41: [' 42,508 ', ' 1,235 ', ' (1,235)', ' - ', ' 1 ', ' 1 '],
  42: [' $42,508 ', ' $1,235 ', ' $(1,235)', ' $- ', ' $1 ', ' $1 '],
  43: [' 42,507.75 ', ' 1,234.50 ', ' (1,234.50)', ' -   ', ' 0.50 ', ' 1.04 '],
  44: [' $42,507.75 ', ' $1,234.50 ', ' $(1,234.50)', ' $-   ', ' $0.50 ', ' $1.04 '],
  45: ['00:00', '00:00', N, '00:00', '00:00', '50:30'],
  46: ['1020186:00:00', '29628:00:00', N, '0:00:00', '12:00:00', '24:50:30'],
  47: ['00:00.0', '00:00.0', N, '00:00.0', '00:00.0', '50:30.0'],
  48: ['42.5E+3', '1.2E+3', '-1.2E+3', '0.0E+0', '500.0E-3', '1.0E+0'],
  49: ['42507.75', '1234.5', '-1234.5', '0', '0.5', '1.035069444'],
};
// Ids 23-36 are defined per locale (East Asian dates and times); an en-US Excel shows 23-26 as
// General and 27-31 as its short date, and we show 32-35 as times and 36 as a date (the zh-TW table).
for (const id of [23, 24, 25, 26]) EXCEL_EN_US[id] = EXCEL_EN_US[0]!;
for (const id of [27, 28, 29, 30, 31, 36]) EXCEL_EN_US[id] = EXCEL_EN_US[14]!;
for (const id of [32, 33, 34, 35]) EXCEL_EN_US[id] = EXCEL_EN_US[21]!;

describe('built-in number formats', () => {
  const sheet = readSheet(fixtureBytes('sheet-built-in-formats.xlsx'));

  it('covers every id 0-49', () => {
    expect(Object.keys(EXCEL_EN_US).map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, id) => id));
    expect(sheet.headers).toHaveLength(50);
    expect(sheet.rowCount).toBe(BUILT_IN_FORMAT_VALUES.length);
  });

  it('shows each value as an en-US Excel does (format 14 is m/d/yyyy: 5/17/2016)', () => {
    const shown: string[] = [];
    const excel: string[] = [];
    for (let id = 0; id < 50; id++) {
      BUILT_IN_FORMAT_VALUES.forEach((value, row) => {
        const expected = EXCEL_EN_US[id]![row];
        if (expected === undefined) return;
        shown.push(`${id} ${value}: ${JSON.stringify(sheet.text(row, id))}`);
        excel.push(`${id} ${value}: ${JSON.stringify(expected)}`);
      });
    }
    expect(shown).toEqual(excel);
  });

  it('shows .xls cells in the built-in formats SheetJS spells otherwise as Excel does', () => {
    const legacy = readSheet(fixtureBytes('legacy-built-in-formats.xls'));
    const texts = legacy.headers.map((_, column) => legacy.text(0, column));
    expect(texts).toEqual(['5/17/2016', '5/17/2016 18:00', '1,235 ', '1,234.50 ', '50:30.0', '-1235']);
  });
});
