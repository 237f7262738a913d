import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { readSheet } from './index.ts';
import { errorCode, fixtureBytes } from './test-support.ts';

const csv = (text: string, options: { maxRows?: number } = {}) => readSheet(strToU8(text), { headerRow: 'auto', fileName: 'sheet.csv', ...options });

describe('readSheet finds the header row (headerRow: auto)', () => {
  it('skips a title and an empty row above the headings of an .xlsx', () => {
    // Row 1 "Customer report 2024", row 2 empty, row 3 First/Last/Amount, data from row 4.
    const sheet = readSheet(fixtureBytes('sheet-header-row-3.xlsx'), { headerRow: 'auto' });
    expect(sheet.headerRowNumber).toBe(3);
    expect(sheet.headers).toEqual(['First', 'Last', 'Amount']);
    expect([0, 1, 2].map((index) => sheet.rowNumber(index))).toEqual([4, 5, 7]);
    expect(sheet.text(2, 0)).toBe('Cem');
  });

  it('reads a sheet the same whether the row was found or named', () => {
    const found = readSheet(fixtureBytes('sheet-header-row-3.xlsx'), { headerRow: 'auto' });
    const named = readSheet(fixtureBytes('sheet-header-row-3.xlsx'), { headerRow: 3 });
    expect(found.headers).toEqual(named.headers);
    expect(found.rowCount).toBe(named.rowCount);
    for (let index = 0; index < named.rowCount; index++) {
      expect(found.rowNumber(index)).toBe(named.rowNumber(index));
      named.headers.forEach((_, column) => expect(found.text(index, column)).toBe(named.text(index, column)));
    }
  });

  it('skips a title block of a CSV: a title, a note, empty lines', () => {
    const sheet = csv('Invoices March 2024,,\nExported 2024-03-31,,\n\n,,\nName,Amount,City\nAnn,12.50,Oslo\nBob,7,Lima\n');
    expect(sheet.headerRowNumber).toBe(5);
    expect(sheet.headers).toEqual(['Name', 'Amount', 'City']);
    expect(sheet.rowCount).toBe(2);
    expect(sheet.text(1, 2)).toBe('Lima');
  });

  it('takes the first row when it holds the headings, or when no row looks like headings', () => {
    expect(csv('Name,City\nAnn,Oslo\nBob,Lima\n').headerRowNumber).toBe(1);
    // Headings that are years are still headings: the row holds some text.
    expect(csv('Name,2023,2024\nAnn,yes,no\n').headers).toEqual(['Name', '2023', '2024']);
    // Numbers only: no row looks like headings, so row 1 is the header, as before.
    expect(csv('1,2,3\n4,5,6\n').headerRowNumber).toBe(1);
    // A row repeating a heading is data, not headings.
    expect(csv('Total,,\nx,x,x\nName,Amount,City\nAnn,1,Oslo\n').headerRowNumber).toBe(3);
  });

  it('refuses a sheet with headings but no data rows, and counts the row limit from the header found', () => {
    expect(errorCode(() => csv('Report,,\n\nName,Amount,City\n'))).toBe('sheet/no-data-rows');
    expect(csv('Title,,\nA,B,C\n1,2,3\n4,5,6\n', { maxRows: 2 }).rowCount).toBe(2);
    expect(errorCode(() => csv('Title,,\nA,B,C\n1,2,3\n4,5,6\n7,8,9\n', { maxRows: 2 }))).toBe('sheet/too-many-rows');
  });
});
