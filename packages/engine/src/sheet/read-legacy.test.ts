import { describe, expect, it } from 'vitest';
import { readSheet } from './index.ts';
import { errorCode, fixtureBytes } from './test-support.ts';
import type { SheetData } from './types.ts';

const read = (name: string) => readSheet(fixtureBytes(name), { fileName: name });

function texts(sheet: SheetData, index: number): Record<string, string> {
  return Object.fromEntries(sheet.headers.map((heading, column) => [heading, sheet.text(index, column)]));
}

describe('readSheet on .xls (BIFF8, through SheetJS)', () => {
  const sheet = read('legacy.xls');

  it('reads the first sheet with Excel row numbers, formats and Unicode', () => {
    expect(sheet.format).toBe('xls');
    expect(sheet.headers).toEqual(['Name', 'Amount', 'Date', 'Active', 'Share', 'Note']);
    expect([sheet.rowNumber(0), sheet.rowNumber(1)]).toEqual([2, 4]);
    expect(texts(sheet, 0)).toEqual({ Name: 'Zoë Ångström', Amount: '1,234.50', Date: '2024-03-15', Active: 'TRUE', Share: '12.5%', Note: '東京 ✓' });
    expect(texts(sheet, 1)).toEqual({ Name: 'Bob', Amount: '42', Date: '15/03/2024 12:00', Active: 'FALSE', Share: '$1,234.50', Note: '#N/A' });
  });

  it('types numbers, dates and booleans', () => {
    expect(sheet.value(0, 1)).toBe(1234.5);
    expect(sheet.value(0, 2)).toEqual(new Date('2024-03-15T00:00:00Z'));
    expect(sheet.value(1, 2)).toEqual(new Date('2024-03-15T12:00:00Z'));
    expect(sheet.value(1, 3)).toBe(false);
    expect(sheet.value(1, 5)).toBe('#N/A');
  });

  it('refuses a password-protected .xls (FILEPASS) and a Word 97 document', () => {
    expect(errorCode(() => read('password.xls'))).toBe('sheet/encrypted');
    expect(errorCode(() => read('word97.doc'))).toBe('sheet/wrong-type');
  });
});

describe('readSheet on .ods (through SheetJS)', () => {
  it('reads the display text LibreOffice stored and the typed values, ignoring the empty tail rows', () => {
    const sheet = read('legacy.ods');
    expect(sheet.format).toBe('ods');
    expect(sheet.headers).toEqual(['Name', 'Amount', 'Date', 'Active', 'Share']);
    expect(sheet.rowCount).toBe(2);
    expect([sheet.rowNumber(0), sheet.rowNumber(1)]).toEqual([2, 4]);
    expect(texts(sheet, 0)).toEqual({ Name: 'Zoë Ångström', Amount: '1,234.50', Date: '03/15/24', Active: 'TRUE', Share: '12.5%' });
    expect(texts(sheet, 1)).toMatchObject({ Name: 'Bob & Co', Amount: '-7,50 €', Date: '' });
    expect(sheet.value(0, 2)).toEqual(new Date('2024-03-15T00:00:00Z'));
    expect(sheet.value(1, 1)).toBe(-7.5);
  });

  it('refuses repeated rows and cells that would expand beyond the limits before SheetJS builds them', () => {
    expect(errorCode(() => read('ods-row-bomb.ods'))).toBe('sheet/too-many-rows');
    expect(errorCode(() => read('ods-cell-bomb.ods'))).toBe('sheet/limits-exceeded');
  });

  it('refuses other OpenDocument files', () => {
    expect(errorCode(() => read('text-document.odt'))).toBe('sheet/wrong-type');
  });
});

describe('readSheet on encrypted OOXML', () => {
  it('recognises a password-protected .xlsx (EncryptedPackage in a Compound File)', () => {
    expect(errorCode(() => read('encrypted.xlsx'))).toBe('sheet/encrypted');
  });
});
