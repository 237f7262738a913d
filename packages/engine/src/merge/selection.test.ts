/**
 * Row selection as the user types it, numbered as in Excel (the header is row 1, data from row 2):
 * all rows, a range, or a list like "1, 3, 5-12" whose malformed items are dropped. Each selected
 * document must hold its own row's value.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RowSelection } from '@sheaf/shared';
import { expectQpdfClean, expectSheafError, fixture, mergeCombined, mergeSeparate, pageTexts, pdfText, placeholder, prepare, scratch, table } from './test-support.ts';

const folder = scratch('selection');
afterAll(() => folder.remove());

/** Twelve data rows, Excel rows 2 to 13, each printing its own row number. */
const sheet = table(['Label'], Array.from({ length: 12 }, (_, i) => [`EXCEL-ROW-${i + 2}`]));

function request(rows: RowSelection, sheetData = sheet) {
  return { template: fixture('corpus/classic-xref.pdf'), sheet: sheetData, placeholders: [placeholder({ column: 'Label' })], rows };
}

async function selected(rows: RowSelection, sheetData = sheet): Promise<number[]> {
  const { merge, documents } = await mergeSeparate(folder, request(rows, sheetData));
  expect(merge.rowCount).toBe(documents.length);
  for (const document of documents) {
    expect(document.rowNumbers).toHaveLength(1);
    expect(pdfText(document.file, { first: 1, last: 1 })).toContain(sheetData.text(document.rowNumbers[0]! - sheetData.headerRowNumber - 1, 0));
  }
  return documents.map((document) => document.rowNumbers[0]!);
}

describe('row selection', () => {
  it('takes every data row by default and for "all"', async () => {
    const all = Array.from({ length: 12 }, (_, i) => i + 2);
    expect(await selected({ kind: 'all' })).toEqual(all);
    const { documents } = await mergeSeparate(folder, { ...request({ kind: 'all' }), rows: undefined });
    expect(documents.map((document) => document.rowNumbers[0])).toEqual(all);
    expect(pdfText(documents[11]!.file)).toContain('EXCEL-ROW-13');
  });

  it('takes a range by Excel row numbers, either way round, clipped to the data rows', async () => {
    expect(await selected({ kind: 'range', startRow: 3, endRow: 5 })).toEqual([3, 4, 5]);
    expect(await selected({ kind: 'range', startRow: 5, endRow: 3 })).toEqual([3, 4, 5]);
    expect(await selected({ kind: 'range', startRow: 1, endRow: 3 })).toEqual([2, 3]);
    expect(await selected({ kind: 'range', startRow: 12, endRow: 99 })).toEqual([12, 13]);
  });

  it('takes a written list, dropping the header row, malformed items and rows past the end', async () => {
    const list = '1, 3, 5-7, x, 9-8, 4-5-6, , 2-, 20, 13';
    expect(await selected({ kind: 'specific', specificRowsNumbers: list })).toEqual([3, 5, 6, 7, 8, 9, 13]);
    expect(await selected({ kind: 'specific', specificRowsNumbers: '3,3, 3-4' })).toEqual([3, 4]);
  });

  it('counts from the header row the sheet really has', async () => {
    const lower = table(['Label'], [['FIRST-DATA'], ['SECOND-DATA'], ['THIRD-DATA']], { headerRowNumber: 4 });
    expect(await selected({ kind: 'range', startRow: 5, endRow: 6 }, lower)).toEqual([5, 6]);
    expect(await selected({ kind: 'specific', specificRowsNumbers: '4, 7' }, lower)).toEqual([7]);
  });

  it('combines only the selected rows, in sheet order', async () => {
    const { file } = await mergeCombined(folder, request({ kind: 'specific', specificRowsNumbers: '9, 4' }));
    expectQpdfClean(file);
    const pages = pageTexts(file);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toContain('EXCEL-ROW-4');
    expect(pages[2]).toContain('EXCEL-ROW-9');
  });

  it.each([
    ['the header row only', { kind: 'specific', specificRowsNumbers: '1' }],
    ['rows past the end', { kind: 'specific', specificRowsNumbers: '50-60' }],
    ['nothing but malformed items', { kind: 'specific', specificRowsNumbers: 'a, -, 3-4-5' }],
    ['an empty list', { kind: 'specific', specificRowsNumbers: '' }],
    ['a range past the end', { kind: 'range', startRow: 100, endRow: 200 }],
  ] as Array<[string, RowSelection]>)('refuses a selection of no rows: %s', async (_what, rows) => {
    await expectSheafError(prepare(request(rows)), 'merge/bad-row-range');
  });

  it('refuses a sheet without data rows', async () => {
    await expectSheafError(prepare(request({ kind: 'all' }, table(['Label'], []))), 'merge/no-rows');
  });
});
