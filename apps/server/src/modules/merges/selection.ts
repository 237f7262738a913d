/**
 * What a merge request will make, known before the job starts: the rows selected, the documents they
 * become (groups, with a "multiple" placeholder), and the narrower selection of "only the first N"
 * when credits run short. Same rules as the engine's own selection (merge/selection.ts), which the
 * job then applies to the RowSelection built here.
 */
import { SheafError, columnIndex, rowPicker, type MergeRequest, type Placeholder, type RowSelection } from '@sheaf/shared';
import type { SheetData } from '@sheaf/engine';

export function rowSelectionOf(rowsData: MergeRequest['rowsData']): RowSelection {
  return 'specificRowsNumbers' in rowsData
    ? { kind: 'specific', specificRowsNumbers: rowsData.specificRowsNumbers }
    : { kind: 'range', startRow: rowsData.startRow, endRow: rowsData.endRow };
}

/** Heading -> column index: the shared rule the editor and the engine apply (packages/shared/src/rules/columns.ts). */
export { columnIndex };

/** Data-row indices the selection picks, in sheet order; refuses a selection that picks nothing. */
export function selectedRows(sheet: SheetData, selection: RowSelection): number[] {
  if (sheet.rowCount === 0) throw new SheafError('merge/no-rows');
  const first = sheet.rowNumber(0);
  const last = sheet.rowNumber(sheet.rowCount - 1);
  const picked: number[] = [];
  if (selection.kind === 'all') return Array.from({ length: sheet.rowCount }, (_, index) => index);
  const wanted = rowPicker(selection, last);
  for (let index = 0; index < sheet.rowCount; index++) if (wanted(sheet.rowNumber(index))) picked.push(index);
  if (picked.length === 0) {
    const asked = selection.kind === 'range' ? `${selection.startRow}-${selection.endRow}` : selection.specificRowsNumbers;
    throw new SheafError('merge/bad-row-range', { rows: asked, first, last });
  }
  return picked;
}

/** The heading a "multiple" placeholder groups rows by, if the template has one. */
export function documentGroupColumn(placeholders: readonly Placeholder[]): string | undefined {
  return placeholders.find((placeholder) => placeholder.type === 'multiple')?.column;
}

/** Rows sharing the "multiple" column's value make one document; without one, each row is one. */
export function documentGroups(sheet: SheetData, rows: number[], placeholders: readonly Placeholder[]): number[][] {
  const multiple = documentGroupColumn(placeholders);
  const column = multiple === undefined ? undefined : columnIndex(sheet.headers, multiple);
  if (column === undefined) return rows.map((row) => [row]);
  const groups = new Map<string, number[]>();
  for (const row of rows) {
    const key = sheet.text(row, column).trim();
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()];
}

/** A selection of exactly these data rows, written compactly as Excel row ranges ("2-501, 640"). */
export function selectionOfRows(sheet: SheetData, rows: number[]): RowSelection {
  const numbers = rows.map((row) => sheet.rowNumber(row)).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    parts.push(i === j ? `${numbers[i]}` : `${numbers[i]}-${numbers[j]}`);
    i = j + 1;
  }
  return { kind: 'specific', specificRowsNumbers: parts.join(',') };
}
