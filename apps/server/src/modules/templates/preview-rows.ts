/**
 * Which rows a preview shows (PDF and Word templates alike): at most MAX_PREVIEW_ROWS of the chosen
 * Excel range, and for "show longest occurrence" the longest text of each column over the whole sheet.
 */
import { rangeBounds } from '@sheaf/shared';
import type { SheetData } from '@sheaf/engine';

export const MAX_PREVIEW_ROWS = 20;

/** Data-row indices whose Excel numbers fall in the range, at most MAX_PREVIEW_ROWS of them. */
export function rowsInRange(sheet: SheetData, startRow: number, endRow: number): number[] {
  const { low, high } = rangeBounds(startRow, endRow);
  const indices: number[] = [];
  for (let index = 0; index < sheet.rowCount && indices.length < MAX_PREVIEW_ROWS; index++) {
    const rowNumber = sheet.rowNumber(index);
    if (rowNumber > high) break;
    if (rowNumber >= low) indices.push(index);
  }
  return indices;
}

/** The longest displayed text of each column, over every row of the sheet. */
export function longestTexts(sheet: SheetData, columns: number[]): Map<number, string> {
  const longest = new Map<number, string>(columns.map((column) => [column, '']));
  for (let index = 0; index < sheet.rowCount; index++) {
    for (const column of columns) {
      const text = sheet.text(index, column);
      if (text.length > longest.get(column)!.length) longest.set(column, text);
    }
  }
  return longest;
}
