import { describe, expect, it } from 'vitest';
import { prepareMerge, sheetFromTable } from '@sheaf/engine';
import { loadBundledFallbackFonts } from '@sheaf/engine/node';
import { isSheafError, type Placeholder, type RowSelection } from '@sheaf/shared';
import { documentGroups, rowSelectionOf, selectedRows, selectionOfRows } from './selection.ts';
import { resultFileName } from './files.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const sheet = sheetFromTable(['Team', 'Name'], [['red', 'a'], ['blue', 'b'], ['red', 'c'], ['green', 'd'], ['blue', 'e']]);
const placeholder = (type: Placeholder['type'], column: string): Placeholder => ({
  id: column, type, column, typeSettings: {}, pageNumber: 1, relativeX: 0.1, relativeY: 0.1, relativeWidth: 0.3, relativeHeight: 0.05,
  relativeFontSize: 0.02, fontFamily: 'Helvetica', align: 'left', fontStyle: 'normal', textDecoration: 'none', fill: '#000000',
});

describe('merge selection', () => {
  it('picks Excel-numbered rows from a range or a list, dropping malformed items', () => {
    expect(selectedRows(sheet, rowSelectionOf({ startRow: 3, endRow: 4 }))).toEqual([1, 2]);
    expect(selectedRows(sheet, rowSelectionOf({ specificRowsNumbers: '6, x, 2-3, 4-5-6, 99' }))).toEqual([0, 1, 4]);
  });

  it('refuses a selection that picks no row, naming the data rows', () => {
    try {
      selectedRows(sheet, { kind: 'range', startRow: 10, endRow: 20 });
      expect.unreachable();
    } catch (error) {
      expect(isSheafError(error) && error.code).toBe('merge/bad-row-range');
      expect((error as Error).message).toContain('data rows are 2 to 6');
    }
  });

  it('counts one document per value of a "multiple" column, as the engine makes them', async () => {
    const placeholders = [placeholder('multiple', 'Team'), placeholder('text', 'Name')];
    const rows = selectedRows(sheet, { kind: 'all' });
    const groups = documentGroups(sheet, rows, placeholders);
    expect(groups).toEqual([[0, 2], [1, 4], [3]]);
    expect(documentGroups(sheet, rows, [placeholder('text', 'Name')])).toHaveLength(5);

    // Narrowed to the first two groups, the engine makes exactly those two documents.
    const narrowed: RowSelection = selectionOfRows(sheet, groups.slice(0, 2).flat());
    expect(narrowed).toEqual({ kind: 'specific', specificRowsNumbers: '2-4,6' });
    const template = readFileSync(path.resolve(import.meta.dirname, '../../../../../fixtures/generated/corpus/classic-xref.pdf'));
    const merge = await prepareMerge({ template, placeholders, sheet, rows: narrowed, fallbackFonts: await loadBundledFallbackFonts() });
    expect(merge.documentCount).toBe(2);
    expect([...merge.documents()].map((document) => document.rowNumbers)).toEqual([[2, 4], [3, 6]]);
  });
});

describe('result file names', () => {
  it('drops the extension, replaces what file systems refuse, and adds .zip or .pdf', () => {
    expect(resultFileName('Invoices March.pdf', false)).toBe('Invoices March.zip');
    expect(resultFileName('a/b:c*?.PDF', true)).toBe('a_b_c__.pdf');
    expect(resultFileName(' ..\u0007 ', false)).toBe('_.zip');
    expect(resultFileName('CON', true)).toBe('merge.pdf');
    expect(resultFileName('', true)).toBe('merge.pdf');
  });
});
