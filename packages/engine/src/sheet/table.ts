/**
 * A SheetData over rows already in memory (an API's JSON rows, tests, previews). Text is shown the way
 * a spreadsheet shows plain values: numbers in general format, dates as ISO dates, TRUE/FALSE.
 */
import type { CellValue, SheetData } from './types.ts';

export interface TableSheetOptions {
  /** Excel row number of the headings; data rows follow it. Default 1. */
  headerRowNumber?: number;
}

export function sheetFromTable(headers: readonly string[], rows: readonly (readonly CellValue[])[], options: TableSheetOptions = {}): SheetData {
  const headerRowNumber = options.headerRowNumber ?? 1;
  return {
    headers: headers.map((heading) => heading.trim()),
    headerRowNumber,
    rowCount: rows.length,
    rowNumber: (index) => headerRowNumber + 1 + index,
    value: (index, column) => rows[index]?.[column] ?? null,
    text: (index, column) => displayText(rows[index]?.[column] ?? null),
  };
}

function displayText(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}
