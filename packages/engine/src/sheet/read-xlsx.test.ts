import { read as readWithSheetJs } from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { FORMAT_CASES } from '../../../../scripts/fixtures/sheets.ts';
import { readSheet } from './index.ts';
import { errorCode, fixtureBytes } from './test-support.ts';
import type { SheetData } from './types.ts';

const read = (name: string, headerRow?: number) => readSheet(fixtureBytes(name), { headerRow });

/** A data row as heading -> text (or -> value). */
function texts(sheet: SheetData, index: number): Record<string, string> {
  return Object.fromEntries(sheet.headers.map((heading, column) => [heading, sheet.text(index, column)]));
}
function values(sheet: SheetData, index: number): Record<string, unknown> {
  return Object.fromEntries(sheet.headers.map((heading, column) => [heading, sheet.value(index, column)]));
}

describe('readSheet on .xlsx written by exceljs', () => {
  const sheet = read('sheet-basic.xlsx');

  it('finds the headings and the data rows with their Excel numbers, dropping empty and styled-only rows', () => {
    expect(sheet.format).toBe('xlsx');
    expect(sheet.headers).toEqual(['Name', 'Amount', 'Joined', 'Active', 'Share', 'Total', 'Greeting', 'Count', 'Price', 'Missing', 'Note']);
    expect(sheet.headerRowNumber).toBe(1);
    expect(sheet.rowCount).toBe(3);
    expect([0, 1, 2].map((index) => sheet.rowNumber(index))).toEqual([2, 4, 5]);
  });

  it('shows cells as Excel does: number formats, dates, booleans, formula results, errors, rich text', () => {
    expect(texts(sheet, 0)).toEqual({
      Name: 'Alice Ådne',
      Amount: '1234.50',
      Joined: '15/03/2024',
      Active: 'TRUE',
      Share: '13%',
      Total: '2469',
      Greeting: 'Alice Ådne!',
      Count: '1,234,567',
      Price: '$1,234.50 ',
      Missing: '#N/A',
      Note: 'Bold and plain',
    });
    expect(texts(sheet, 1)).toMatchObject({ Name: 'Bob 😀', Amount: '-42.00', Joined: '12/31/24 18:00', Active: '', Price: '($1,234.50)', Note: '  spaced  ' });
    expect(texts(sheet, 2)).toMatchObject({ Amount: '1.23457E+11', Total: '0.3', Count: '0.333333333', Greeting: 'x', Note: '' });
  });

  it('types values: numbers, dates as UTC wall-clock Dates, booleans, strings, null for empty', () => {
    expect(values(sheet, 0)).toMatchObject({ Amount: 1234.5, Joined: new Date('2024-03-15T00:00:00Z'), Active: true, Share: 0.125, Total: 2469, Missing: '#N/A' });
    expect(values(sheet, 1)).toMatchObject({ Joined: new Date('2024-12-31T18:00:00Z'), Active: null, Missing: null, Greeting: '東京 مرحبا' });
    expect(values(sheet, 2)).toMatchObject({ Active: false, Total: 0.1 + 0.2, Joined: new Date('1900-01-02T00:00:00Z') });
  });

  it('answers empty for columns beyond the sheet and refuses row indexes outside the data', () => {
    expect(sheet.text(0, 500)).toBe('');
    expect(sheet.value(0, 500)).toBeNull();
    expect(() => sheet.text(3, 0)).toThrow(RangeError);
    expect(() => sheet.rowNumber(-1)).toThrow(RangeError);
  });

  it('matches the text SheetJS formats for every cell of workbooks written by exceljs and SheetJS', () => {
    for (const name of ['sheet-basic.xlsx', 'sheet-sheetjs.xlsx', 'sheet-1904.xlsx']) {
      const ours = read(name);
      const workbook = readWithSheetJs(fixtureBytes(name), { type: 'array', dense: true });
      const data = workbook.Sheets[workbook.SheetNames[0]!]!['!data']!;
      for (let index = 0; index < ours.rowCount; index++) {
        const cells = data[ours.rowNumber(index) - 1] ?? [];
        ours.headers.forEach((_, column) => {
          const cell = cells[column];
          const expected = cell === undefined || cell.t === 'z' ? '' : (cell.w ?? String(cell.v));
          expect(`${name} ${index}:${column} ${ours.text(index, column)}`).toBe(`${name} ${index}:${column} ${expected}`);
        });
      }
    }
  });
});

describe('readSheet header rows', () => {
  it('reads headings from row 3, skipping the title above and keeping Excel row numbers', () => {
    const sheet = read('sheet-header-row-3.xlsx', 3);
    expect(sheet.headers).toEqual(['First', 'Last', 'Amount']);
    expect(sheet.headerRowNumber).toBe(3);
    expect(sheet.rowCount).toBe(3);
    expect([0, 1, 2].map((index) => sheet.rowNumber(index))).toEqual([4, 5, 7]);
    expect(texts(sheet, 2)).toEqual({ First: 'Cem', Last: 'Oz', Amount: '30' });
  });

  it('takes row 1 as headings by default, so the title becomes the only heading', () => {
    const sheet = read('sheet-header-row-3.xlsx');
    expect(sheet.headers).toEqual(['Customer report 2024']);
    expect(sheet.rowNumber(0)).toBe(3);
  });

  it('rejects a header row beyond the sheet, and an empty header row', () => {
    expect(errorCode(() => read('sheet-header-row-3.xlsx', 9))).toBe('sheet/header-row-out-of-range');
    try {
      read('sheet-header-row-3.xlsx', 9);
    } catch (error) {
      expect((error as Error).message).toBe('Header row 9 is outside the sheet, which has 7 rows.');
    }
    expect(errorCode(() => read('sheet-header-row-3.xlsx', 2))).toBe('sheet/no-data-rows');
    expect(errorCode(() => read('sheet-header-row-3.xlsx', 7))).toBe('sheet/no-data-rows');
  });

  it('rejects a sheet without data rows, and one without any cell', () => {
    expect(errorCode(() => read('sheet-header-only.xlsx'))).toBe('sheet/no-data-rows');
    expect(errorCode(() => read('sheet-empty.xlsx'))).toBe('sheet/empty-sheet');
  });
});

describe('readSheet dates and number formats', () => {
  it('reads the 1904 date system', () => {
    const sheet = read('sheet-1904.xlsx');
    expect(texts(sheet, 0)).toEqual({ Event: 'Launch', When: '2024-03-15', Plain: '45366' });
    expect(sheet.value(0, 1)).toEqual(new Date('2024-03-15T00:00:00Z'));
  });

  it('applies built-in and custom formats as Excel shows them', () => {
    const sheet = read('sheet-formats.xlsx');
    FORMAT_CASES.forEach((entry, column) => expect(`${entry.formatId}: ${sheet.text(0, column)}`).toBe(`${entry.formatId}: ${entry.text}`));
    expect(sheet.value(0, 6)).toEqual(new Date('2024-03-15T00:00:00Z'));
    expect(sheet.value(0, 8)).toEqual(new Date('2024-03-15T18:00:00Z'));
    expect(sheet.value(0, 7)).toBe(1234.5);
  });
});

describe('readSheet on hand-written workbook markup', () => {
  it('handles rich text, phonetics, entities, escapes, CDATA, comments, implicit references and booleans', () => {
    const sheet = read('sheet-odd.xlsx');
    expect(sheet.headers).toEqual(['Name', 'Heading B', 'Inline', '', 'Spaced']);
    expect([0, 1, 2, 3].map((index) => sheet.rowNumber(index))).toEqual([2, 4, 6, 9]);
    expect(texts(sheet, 0)).toEqual({ Name: 'Rich', 'Heading B': '  padded  ', Inline: 'Inline ', '': 'TRUE', Spaced: '#DIV/0!' });
    expect(texts(sheet, 1)).toEqual({ Name: 'Tom & "Jerry" ☺ A', 'Heading B': 'Line1\r\nLine2', Inline: '2', '': '', Spaced: '3.5' });
    expect(values(sheet, 2)).toMatchObject({ Name: null, 'Heading B': new Date('2024-03-15T12:30:00Z'), Inline: new Date('2024-03-15T12:00:00Z'), '': false });
    expect(sheet.text(2, 2)).toBe('3/15/2024 12:00');
    expect(values(sheet, 3)).toMatchObject({ Name: 1500, 'Heading B': -0.000012 });
  });

  it('reads namespace-prefixed markup', () => {
    const sheet = read('sheet-prefixed.xlsx');
    expect(sheet.headers).toEqual(['Name', 'Age']);
    expect(values(sheet, 0)).toEqual({ Name: 'Ann', Age: 7 });
  });

  it('puts rows and cells written out of order back in order, wide columns and exact doubles included', () => {
    const sheet = read('sheet-unordered-wide.xlsx');
    expect(sheet.headers.length).toBe(300);
    expect([sheet.headers[0], sheet.headers[1], sheet.headers[299]]).toEqual(['A', 'B', 'Far']);
    expect([sheet.rowNumber(0), sheet.rowNumber(1)]).toEqual([2, 3]);
    expect([sheet.value(0, 0), sheet.value(0, 1), sheet.value(0, 299)]).toEqual([16_777_217, null, 1e-7]);
    expect([sheet.value(1, 0), sheet.value(1, 1), sheet.value(1, 299)]).toEqual([31, 0.1, null]);
    expect([sheet.text(0, 0), sheet.text(0, 299), sheet.text(1, 1)]).toEqual(['16777217', '0.0000001', '0.1']);
  });

  it('tells .xlsm from .xlsx by its content type', () => {
    const sheet = read('sheet-macro.xlsm');
    expect(sheet.format).toBe('xlsm');
    expect(sheet.headers).toEqual(['Macro']);
  });
});

describe('readSheet row limit', () => {
  it('accepts exactly 100,000 data rows', () => {
    const sheet = read('sheet-100000-rows.xlsx');
    expect(sheet.rowCount).toBe(100_000);
    expect(sheet.rowNumber(99_999)).toBe(100_001);
    expect(sheet.text(99_999, 0)).toBe('100001');
  });

  it('rejects 100,001 data rows, and honours a lower limit', () => {
    expect(errorCode(() => read('sheet-100001-rows.xlsx'))).toBe('sheet/too-many-rows');
    expect(errorCode(() => readSheet(fixtureBytes('sheet-basic.xlsx'), { maxRows: 2 }))).toBe('sheet/too-many-rows');
    expect(readSheet(fixtureBytes('sheet-basic.xlsx'), { maxRows: 3 }).rowCount).toBe(3);
  });
});
