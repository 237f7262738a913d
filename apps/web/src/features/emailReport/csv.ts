/**
 * CSV export of the email report (docs/email.md#email-report: the visible columns joined by commas).
 * Cells a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) get a
 * leading apostrophe; quotes are doubled and fields holding a comma, quote or line break are quoted.
 */

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, safe for spreadsheets and correctly quoted. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  // Real numbers (-5) stay numbers; text is neutralised.
  if (typeof value !== 'number' && FORMULA_START.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** The header line and one line per row, CRLF-separated (RFC 4180). */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A file name with the date: email-report-2026-11-25.csv. */
export function csvFileName(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `email-report-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
