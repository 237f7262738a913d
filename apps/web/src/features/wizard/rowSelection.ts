/**
 * Rows to generate (docs/spreadsheets.md#row-selection): all data rows, an Excel-numbered range, or a
 * row list written like "1, 3, 5-12" (parseRowList: malformed items are dropped). Only rows that exist
 * in the sheet count, so the number shown is the number of documents the server will make.
 */
import { countSelectedRows, rangeBounds, type MergeRequest } from '@sheaf/shared';

export type RowsMode = 'all' | 'range' | 'specific';

export interface RowSelectionState {
  mode: RowsMode;
  /** Excel row numbers, inclusive; null until the user types one (then the sheet's bounds apply). */
  startRow: number | null;
  endRow: number | null;
  /** The typed list for the 'specific' mode (docs/spreadsheets.md#row-selection). */
  specificRows: string;
}

/** The data rows of the sheet as Excel numbers them. */
export interface SheetBounds {
  firstRow: number;
  lastRow: number;
}

export const ALL_ROWS: RowSelectionState = { mode: 'all', startRow: null, endRow: null, specificRows: '' };

/**
 * The effective range of the 'range' mode: an end not typed yet is the sheet's; the two ends read
 * either way round (the shared row rule the merge applies), clamped to the sheet.
 */
export function effectiveRange(selection: RowSelectionState, sheet: SheetBounds): { startRow: number; endRow: number } {
  const { low, high } = rangeBounds(selection.startRow ?? sheet.firstRow, selection.endRow ?? sheet.lastRow);
  return { startRow: Math.max(sheet.firstRow, low), endRow: Math.min(sheet.lastRow, high) };
}

/** How many documents the selection makes (the shared count the merge's selection agrees with); 0 with no spreadsheet. */
export function countRowsToGenerate(selection: RowSelectionState, sheet: SheetBounds | null): number {
  if (!sheet) return 0;
  if (selection.mode === 'all') return countSelectedRows({ kind: 'all' }, sheet);
  if (selection.mode === 'range') {
    const { startRow, endRow } = effectiveRange(selection, sheet);
    return countSelectedRows({ kind: 'range', startRow, endRow }, sheet);
  }
  return countSelectedRows({ kind: 'specific', specificRowsNumbers: selection.specificRows }, sheet);
}

/** The rowsData of the merge request for the selection. */
export function rowsData(selection: RowSelectionState, sheet: SheetBounds): MergeRequest['rowsData'] {
  if (selection.mode === 'specific') return { specificRowsNumbers: selection.specificRows.trim() };
  if (selection.mode === 'range') return effectiveRange(selection, sheet);
  return { startRow: sheet.firstRow, endRow: sheet.lastRow };
}
