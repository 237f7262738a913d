/** Turns the user's row selection into data-row indices of the sheet, in sheet order. */
import { SheafError, parseRowList, rangeBounds, type RowSelection } from '@sheaf/shared';
import type { SheetData } from '../sheet/types.ts';

export function selectRows(sheet: SheetData, selection: RowSelection = { kind: 'all' }): number[] {
  if (sheet.rowCount === 0) throw new SheafError('merge/no-rows');
  const first = sheet.rowNumber(0);
  const last = sheet.rowNumber(sheet.rowCount - 1);
  let indices: number[];
  let asked: string;
  switch (selection.kind) {
    case 'all':
      return Array.from({ length: sheet.rowCount }, (_, index) => index);
    case 'range': {
      const { low, high } = rangeBounds(selection.startRow, selection.endRow);
      asked = `${selection.startRow}-${selection.endRow}`;
      indices = [];
      for (let index = lowerBound(sheet, low); index < sheet.rowCount && sheet.rowNumber(index) <= high; index++) indices.push(index);
      break;
    }
    case 'specific': {
      asked = selection.specificRowsNumbers;
      indices = [];
      for (const rowNumber of parseRowList(selection.specificRowsNumbers, last)) {
        const index = lowerBound(sheet, rowNumber);
        if (index < sheet.rowCount && sheet.rowNumber(index) === rowNumber) indices.push(index);
      }
      break;
    }
  }
  if (indices.length === 0) throw new SheafError('merge/bad-row-range', { rows: asked, first, last });
  return indices;
}

/** First data index whose Excel row number is >= rowNumber (row numbers ascend). */
function lowerBound(sheet: SheetData, rowNumber: number): number {
  let low = 0;
  let high = sheet.rowCount;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sheet.rowNumber(middle) < rowNumber) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Rows sharing the value of the "multiple" column become one document, in sheet order of their
 * first row. Without such a column every row is its own group.
 */
export function groupRows(sheet: SheetData, indices: number[], groupColumn: number | undefined): number[][] {
  if (groupColumn === undefined) return indices.map((index) => [index]);
  const groups = new Map<string, number[]>();
  for (const index of indices) {
    const key = sheet.text(index, groupColumn).trim();
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return [...groups.values()];
}
