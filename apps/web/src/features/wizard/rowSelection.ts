/**
 * Rows to generate (spec sections 3 and 4): all data rows, an Excel-numbered range, or a row list
 * written like "1, 3, 5-12" (parseRowList: malformed items are dropped). Only rows that exist in the
 * sheet count, so the number shown is the number of documents the server will make.
 */
import { parseRowList, type MergeRequest } from '@sheaf/shared';

export type RowsMode = 'all' | 'range' | 'specific';

export interface RowSelectionState {
  mode: RowsMode;
  /** Excel row numbers, inclusive; null until the user types one (then the sheet's bounds apply). */
  startRow: number | null;
  endRow: number | null;
  /** The typed list for the 'specific' mode (spec "mergeSpecificRows"). */
  specificRows: string;
}

/** The data rows of the sheet as Excel numbers them. */
export interface SheetBounds {
  firstRow: number;
  lastRow: number;
}

export const ALL_ROWS: RowSelectionState = { mode: 'all', startRow: null, endRow: null, specificRows: '' };

/** The effective range of the 'range' mode, clamped to the sheet. */
export function effectiveRange(selection: RowSelectionState, sheet: SheetBounds): { startRow: number; endRow: number } {
  const start = Math.max(sheet.firstRow, selection.startRow ?? sheet.firstRow);
  const end = Math.min(sheet.lastRow, selection.endRow ?? sheet.lastRow);
  return { startRow: start, endRow: end };
}

/** How many documents the selection makes; 0 with no spreadsheet. */
export function countRowsToGenerate(selection: RowSelectionState, sheet: SheetBounds | null): number {
  if (!sheet || sheet.lastRow < sheet.firstRow) return 0;
  if (selection.mode === 'all') return sheet.lastRow - sheet.firstRow + 1;
  if (selection.mode === 'range') {
    const { startRow, endRow } = effectiveRange(selection, sheet);
    return Math.max(0, endRow - startRow + 1);
  }
  return parseRowList(selection.specificRows, sheet.lastRow).filter((row) => row >= sheet.firstRow).length;
}

/** The rowsData of the merge request for the selection. */
export function rowsData(selection: RowSelectionState, sheet: SheetBounds): MergeRequest['rowsData'] {
  if (selection.mode === 'specific') return { specificRowsNumbers: selection.specificRows.trim() };
  if (selection.mode === 'range') return effectiveRange(selection, sheet);
  return { startRow: sheet.firstRow, endRow: sheet.lastRow };
}
