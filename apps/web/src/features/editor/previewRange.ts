/** Row range of the preview (pure): Excel row numbers within the sheet's data rows, at most 20 rows. */
import type { ExcelMeta } from '@sheaf/shared';

export const PREVIEW_MAX_ROWS = 20;
/** Pages of the preview PDF drawn as pictures (20 rows of a long template could be hundreds). */
export const PREVIEW_MAX_PAGES = 60;

type Rows = Pick<ExcelMeta, 'firstRow' | 'lastRow'>;

export function defaultPreviewRange(excel: Rows): { startRow: number; endRow: number } {
  return { startRow: excel.firstRow, endRow: Math.max(excel.firstRow, Math.min(excel.firstRow + 2, excel.lastRow)) };
}

export interface RangeCheck {
  ok: boolean;
  startRow: number;
  endRow: number;
  /** The field to mark, and why (a key of editor:preview.errors). */
  field?: 'start' | 'end';
  reason?: 'start' | 'end' | 'order' | 'tooMany';
  max: number;
}

export function checkPreviewRange(start: string, end: string, excel: Rows): RangeCheck {
  const startRow = Number(start);
  const endRow = Number(end);
  const base = { startRow, endRow, max: PREVIEW_MAX_ROWS };
  const inSheet = (row: number) => start.trim() !== '' && Number.isInteger(row) && row >= excel.firstRow && row <= excel.lastRow;
  if (!inSheet(startRow)) return { ...base, ok: false, field: 'start', reason: 'start' };
  if (end.trim() === '' || !Number.isInteger(endRow) || endRow < excel.firstRow || endRow > excel.lastRow) return { ...base, ok: false, field: 'end', reason: 'end' };
  if (endRow < startRow) return { ...base, ok: false, field: 'end', reason: 'order' };
  if (endRow - startRow + 1 > PREVIEW_MAX_ROWS) return { ...base, ok: false, field: 'end', reason: 'tooMany' };
  return { ...base, ok: true };
}
