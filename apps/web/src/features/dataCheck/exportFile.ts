/**
 * The download of the check's results (docs/data-check.md#the-dialog): one table (row, column, kind,
 * problem in the user's language, value, suggestion) written as CSV (UTF-8 with a byte-order mark so
 * spreadsheet programs read accents and Chinese; formula-like cells neutralised by the email
 * report's CSV rules) or as XLSX (xlsxWriter.ts, loaded only when asked for).
 */
import type { DataIssue } from '@sheaf/shared';
import { csvCell } from '../emailReport/csv.ts';

export type Cell = string | number;

export interface ExportTable {
  header: string[];
  rows: Cell[][];
}

export interface ExportTexts {
  header: { row: string; column: string; kind: string; problem: string; value: string; suggestion: string };
  kind: (issue: DataIssue) => string;
  problem: (issue: DataIssue) => string;
}

export function exportTable(issues: readonly DataIssue[], texts: ExportTexts): ExportTable {
  const { header } = texts;
  return {
    header: [header.row, header.column, header.kind, header.problem, header.value, header.suggestion],
    rows: issues.map((issue) => [issue.row_number, issue.column_name, texts.kind(issue), texts.problem(issue), issue.actual_value, issue.expected_value]),
  };
}

const BOM = '\uFEFF';

/** RFC 4180 lines (CRLF), every cell through the formula-safe csvCell. */
export function toCsvText(table: ExportTable): string {
  const lines = [table.header, ...table.rows].map((cells) => cells.map((cell) => csvCell(cell)).join(','));
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** "data-check-<sheet name>-2026-11-25.csv": the sheet's name without its extension, safe in a file name. */
export function exportFileName(sheetName: string, extension: 'csv' | 'xlsx', now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  // eslint-disable-next-line no-control-regex -- control characters have no place in a file name
  const base = sheetName.replace(/\.[^.]+$/, '').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim().slice(0, 80);
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `data-check-${base ? `${base}-` : ''}${date}.${extension}`;
}
