/**
 * Which data rows a selection picks (docs/spreadsheets.md#row-selection). The web app counts the
 * documents to make with it, the engine and the server pick the rows with it, so the number shown in
 * step 4 is the number made. A range picks the rows between its two ends whichever is typed first
 * (as the row list reads "12-5"); rows outside the sheet's data rows are not picked.
 */
import type { RowSelection } from '../output.ts';
import { parseRowList } from '../rows.ts';

/** A range's ends in ascending order. */
export function rangeBounds(startRow: number, endRow: number): { low: number; high: number } {
  return { low: Math.min(startRow, endRow), high: Math.max(startRow, endRow) };
}

/** The sheet's data rows as Excel numbers them, first to last. */
export interface DataRowBounds {
  firstRow: number;
  lastRow: number;
}

/** Whether a selection picks the row with this Excel number (`lastRow`: the sheet's last data row). */
export function rowPicker(selection: RowSelection, lastRow: number): (rowNumber: number) => boolean {
  if (selection.kind === 'all') return () => true;
  if (selection.kind === 'range') {
    const { low, high } = rangeBounds(selection.startRow, selection.endRow);
    return (row) => row >= low && row <= high;
  }
  const rows = new Set(parseRowList(selection.specificRowsNumbers, lastRow));
  return (row) => rows.has(row);
}

/** How many data rows a selection picks on a sheet whose data rows are firstRow..lastRow. */
export function countSelectedRows(selection: RowSelection, sheet: DataRowBounds): number {
  if (sheet.lastRow < sheet.firstRow) return 0;
  if (selection.kind === 'all') return sheet.lastRow - sheet.firstRow + 1;
  if (selection.kind === 'range') {
    const { low, high } = rangeBounds(selection.startRow, selection.endRow);
    return Math.max(0, Math.min(high, sheet.lastRow) - Math.max(low, sheet.firstRow) + 1);
  }
  return parseRowList(selection.specificRowsNumbers, sheet.lastRow).filter((row) => row >= sheet.firstRow).length;
}
