import { describe, expect, it } from 'vitest';
import { ALL_ROWS, countRowsToGenerate, rowsData, type RowSelectionState } from './rowSelection.ts';

// Header in row 1, data rows 2..11 (ten rows), as Excel numbers them.
const sheet = { firstRow: 2, lastRow: 11 };
const range = (startRow: number | null, endRow: number | null): RowSelectionState => ({ ...ALL_ROWS, mode: 'range', startRow, endRow });
const specific = (specificRows: string): RowSelectionState => ({ ...ALL_ROWS, mode: 'specific', specificRows });

describe('rows to generate', () => {
  it('is every data row for "all" and 0 without a spreadsheet', () => {
    expect(countRowsToGenerate(ALL_ROWS, sheet)).toBe(10);
    expect(countRowsToGenerate(ALL_ROWS, null)).toBe(0);
    expect(countRowsToGenerate(specific('2-5'), null)).toBe(0);
  });

  it('counts a range inclusively and clamps it to the data rows', () => {
    expect(countRowsToGenerate(range(3, 5), sheet)).toBe(3);
    expect(countRowsToGenerate(range(1, 100), sheet)).toBe(10);
    expect(countRowsToGenerate(range(null, 4), sheet)).toBe(3);
  });

  it('reads a range either way round, as the merge makes it (9 to 4 is rows 4 to 9)', () => {
    // Before the shared row rule the web counted 0 here while the server made six documents.
    expect(countRowsToGenerate(range(9, 4), sheet)).toBe(6);
    expect(rowsData(range(9, 4), sheet)).toEqual({ startRow: 4, endRow: 9 });
  });

  it('counts a row list without duplicates, dropping malformed items and rows outside the sheet', () => {
    expect(countRowsToGenerate(specific('2, 4, 6-8'), sheet)).toBe(5);
    expect(countRowsToGenerate(specific('2, 2, 2-3'), sheet)).toBe(2);
    expect(countRowsToGenerate(specific('1, 3-, a, 4-5-6, , 5'), sheet)).toBe(1);
    expect(countRowsToGenerate(specific('10-40'), sheet)).toBe(2);
    expect(countRowsToGenerate(specific(''), sheet)).toBe(0);
  });

  it('sends the sheet bounds for "all", the clamped range, or the typed list', () => {
    expect(rowsData(ALL_ROWS, sheet)).toEqual({ startRow: 2, endRow: 11 });
    expect(rowsData(range(null, 40), sheet)).toEqual({ startRow: 2, endRow: 11 });
    expect(rowsData(specific(' 2, 5-6 '), sheet)).toEqual({ specificRowsNumbers: '2, 5-6' });
  });
});
