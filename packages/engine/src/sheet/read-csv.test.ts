import { describe, expect, it } from 'vitest';
import { detectDelimiter } from './csv/delimiter.ts';
import { readSheet } from './index.ts';
import { errorCode, fixtureBytes } from './test-support.ts';
import type { SheetData } from './types.ts';

const read = (name: string, fileName = name) => readSheet(fixtureBytes(name), { fileName });
const csv = (text: string, headerRow?: number) => readSheet(new TextEncoder().encode(text), { headerRow });

function table(sheet: SheetData): string[][] {
  return Array.from({ length: sheet.rowCount }, (_, index) => sheet.headers.map((_, column) => sheet.text(index, column)));
}

describe('readSheet on CSV', () => {
  it('reads comma-separated UTF-8, keeping text as written and typing plain numbers', () => {
    const sheet = read('comma.csv');
    expect(sheet.format).toBe('csv');
    expect(sheet.headers).toEqual(['Name', 'Amount', 'City']);
    expect(table(sheet)).toEqual([
      ['Ann', '12.50', 'Köln'],
      ['Bob', '007', 'Paris, France'],
    ]);
    expect(sheet.value(0, 1)).toBe(12.5);
    expect(sheet.value(1, 1)).toBe('007'); // a leading zero is an identifier, not a number
  });

  it('detects ";" and reads quoted fields holding delimiters, doubled quotes and line breaks, after a BOM', () => {
    const sheet = read('semicolon-bom.csv');
    expect(sheet.headers).toEqual(['Name', 'Note', 'Amount']);
    expect(table(sheet)).toEqual([
      ['Smith; John', 'He said "hi"\nthen left', '1234,5'],
      ['Zoë', '', '-3'],
    ]);
    // A quoted record spanning two lines is one row; the empty record (";;") keeps its number.
    expect([sheet.rowNumber(0), sheet.rowNumber(1)]).toEqual([2, 4]);
    expect(sheet.value(1, 2)).toBe(-3);
    expect(sheet.value(1, 1)).toBeNull();
  });

  it('reads UTF-16 with a BOM (tab-separated, as Excel writes "Unicode text") and without one', () => {
    expect(table(read('utf16.csv'))).toEqual([
      ['Åsa', '東京'],
      ['Bo', 'Rīga'],
    ]);
    expect(table(read('utf16-no-bom.csv'))).toEqual([['Asa', 'Oslo']]);
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    expect(table(read('windows-1252.csv'))).toEqual([['René', 'Orléans']]);
  });

  it("honours Excel's sep= line, which is not a row", () => {
    const sheet = read('sep-line.csv');
    expect(sheet.headers).toEqual(['A', 'B']);
    expect(table(sheet)).toEqual([['1', '2,5']]);
    expect(sheet.rowNumber(0)).toBe(2);
  });

  it('uses any header row and drops blank lines, numbering rows as Excel does', () => {
    const sheet = csv('Report\n\nFirst,Last\nAnn,Lee\n   \nBen,Kim\n,\n', 3);
    expect(sheet.headers).toEqual(['First', 'Last']);
    expect(table(sheet)).toEqual([
      ['Ann', 'Lee'],
      ['Ben', 'Kim'],
    ]);
    expect([sheet.rowNumber(0), sheet.rowNumber(1)]).toEqual([4, 6]);
  });

  it('keeps an unterminated quote to the end of the file, as Excel does', () => {
    expect(table(csv('A,B\n1,"open\nstill open'))).toEqual([['1', 'open\nstill open']]);
  });

  it('reads CR-only line ends and a last line without one', () => {
    expect(table(csv('A;B\r1;2\r3;4'))).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('rejects empty files, blank files, header-only files and more than 100,000 rows', () => {
    expect(errorCode(() => read('empty.csv'))).toBe('sheet/empty-file');
    expect(errorCode(() => read('blank.csv'))).toBe('sheet/empty-sheet');
    expect(errorCode(() => csv('Name,City\n'))).toBe('sheet/no-data-rows');
    expect(errorCode(() => read('rows-100001.csv'))).toBe('sheet/too-many-rows');
  });

  it('refuses text that is not a CSV: markup, or a name saying it is another type', () => {
    expect(errorCode(() => read('page.html'))).toBe('sheet/wrong-type');
    expect(errorCode(() => read('comma.csv', 'letter.docx'))).toBe('sheet/wrong-type');
    expect(read('comma.csv', 'export.txt').rowCount).toBe(2);
  });
});

describe('detectDelimiter', () => {
  it('picks the separator that splits the records consistently, ignoring quoted text', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n', 0)).toBe(',');
    expect(detectDelimiter('a;b;c\n"1,5";2;3\n"x,y,z";1;2\n', 0)).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n', 0)).toBe('\t');
    expect(detectDelimiter('a|b|c\n1|2|3\n', 0)).toBe('|');
    expect(detectDelimiter('name\nAnn\n', 0)).toBe(',');
    // Commas inside one name outnumber nothing: the consistent separator wins.
    expect(detectDelimiter('Name;City\nSmith, John;Köln\nLee;Paris\n', 0)).toBe(';');
  });
});
