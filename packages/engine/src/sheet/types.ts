/** The engine's view of a spreadsheet: headings and data rows, values as Excel shows them. */
export type CellValue = string | number | boolean | Date | null;

export interface SheetData {
  /** Heading texts of the header row, trimmed, in column order (column index = array index). */
  readonly headers: readonly string[];
  /** Excel row number of the header row (1-based). */
  readonly headerRowNumber: number;
  /** Number of data rows: the non-empty rows after the header row (empty rows are dropped; each row keeps its Excel number). */
  readonly rowCount: number;
  /** Excel row number of data row `index` (0-based index into the data rows). */
  rowNumber(index: number): number;
  /** The cell as the user sees it in Excel: number formats applied, dates formatted, booleans TRUE/FALSE, formulas' cached results. "" for empty. */
  text(index: number, column: number): string;
  /**
   * The typed value: number for numbers (dates stay Date when the cell is a date), boolean, string, or null when empty.
   * A Date holds the cell's wall-clock date and time in UTC: read it with getUTC* (or toISOString()).
   */
  value(index: number, column: number): CellValue;
  /** The file format the sheet was read from (absent for tables built in memory). */
  readonly format?: SheetFormat;
}

export type SheetFormat = 'xlsx' | 'xlsm' | 'xls' | 'ods' | 'csv';

export interface ReadSheetOptions {
  /**
   * Excel row number of the header row; default 1. 'auto': the first row that looks like headings
   * (a title or empty rows above it are skipped; see cells/header-row.ts), read back as headerRowNumber.
   */
  headerRow?: number | 'auto';
  /** Original file name; its extension helps tell CSV from other text. */
  fileName?: string;
  /** Default MAX_SHEET_ROWS (100,000). */
  maxRows?: number;
}
