/**
 * The rows the data check reads, one at a time, and what it must know of the whole sheet before the
 * first of them (docs/data-check.md#speed): the check never reaches back to an earlier row, so its
 * rows can come from a parsed sheet in memory or be streamed from a stored file by the server.
 */
import type { CellValue, SheetData } from '../sheet/types.ts';
import { inferColumnTypes, type ColumnType } from './column-types.ts';

/** One data row: its Excel number and its cells (text as Excel shows it, typed value). */
export interface SheetRow {
  readonly rowNumber: number;
  text(column: number): string;
  value(column: number): CellValue;
}

/** Rows in sheet order, from memory or streamed. */
export type SheetRows = Iterable<SheetRow> | AsyncIterable<SheetRow>;

/** The sheet as a whole, as the check needs it before its first row. */
export interface SheetProfile {
  readonly headers: readonly string[];
  /** Excel row number of the header row (where problems of the template as a whole are reported). */
  readonly headerRowNumber: number;
  /** Each column's inferred type (undefined: text, or too few values): inferColumnTypes of the whole sheet. */
  readonly columnTypes: ReadonlyArray<ColumnType | undefined>;
}

export function profileOf(sheet: SheetData): SheetProfile {
  return { headers: sheet.headers, headerRowNumber: sheet.headerRowNumber, columnTypes: inferColumnTypes(sheet) };
}

/**
 * The data rows `indices` of a parsed sheet. One cursor serves every row (no object per row): a row
 * is valid until the next one is taken, which is how the check reads them.
 */
export function* rowsOfSheet(sheet: SheetData, indices: Iterable<number>): Generator<SheetRow> {
  let index = 0;
  const cursor: SheetRow = {
    get rowNumber() { return sheet.rowNumber(index); },
    text: (column) => sheet.text(index, column),
    value: (column) => sheet.value(index, column),
  };
  for (index of indices) yield cursor;
}
