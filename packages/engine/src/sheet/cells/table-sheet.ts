/**
 * SheetData over a CellTable: checks the header row, then answers text()/value() from the compact
 * arrays, formatting numbers only when asked (a merge reads a few columns, not all of them).
 */
import { SheafError } from '@sheaf/shared';
import type { CellValue, SheetData, SheetFormat } from '../types.ts';
import { CellKind, type CellTable, FORMAT_SHIFT, KIND_MASK, cellNumber } from './cell-table.ts';
import { type NumberFormatter, serialToDate } from './formats.ts';
import { findHeaderRow, type RowCells } from './header-row.ts';
import type { StringTable } from './string-table.ts';

/** What the cells' slots point into. */
export interface CellSource {
  /** Shared and inline strings, and display texts (CellKind.String, NumberWithText, DateWithText). */
  readonly strings: StringTable;
  readonly formatter: NumberFormatter;
  readonly date1904: boolean;
  /** The decoded text of a CSV file (CellKind.CsvField, CsvQuotedField). */
  readonly csvText?: string;
}

/** Which row holds the headings: `headerRow`, or with `detectHeader` the one found (header-row.ts). */
export interface HeaderOptions {
  readonly headerRow: number;
  /** Find the header row; the table then holds every row (it was read with headerRow 1). */
  readonly detectHeader?: boolean;
  /** With detectHeader: the most data rows below the header found (the table may hold a few more). */
  readonly dataRowLimit?: number;
}

/** Checks that the table has a header row and data rows, and wraps it as SheetData. */
export function sheetDataFromTable(table: CellTable, source: CellSource, header: HeaderOptions, format: SheetFormat): SheetData {
  const { headerRow } = header;
  if (table.lastRowNumber === 0) throw new SheafError('sheet/empty-sheet');
  if (headerRow > table.lastRowNumber) {
    throw new SheafError('sheet/header-row-out-of-range', { row: headerRow, rows: table.lastRowNumber });
  }
  let first = 0;
  if (header.detectHeader) {
    const probe = new TableSheet(table, source, 0, format);
    first = findHeaderRow(table.rowCount, (index) => probe.rowCells(index));
    if (header.dataRowLimit !== undefined && table.rowCount - 1 - first > header.dataRowLimit) {
      throw new SheafError('sheet/too-many-rows', { max: header.dataRowLimit });
    }
  } else if (table.rowNumbers[0] !== headerRow) {
    throw new SheafError('sheet/no-data-rows');
  }
  if (table.rowCount - first < 2) throw new SheafError('sheet/no-data-rows');
  return new TableSheet(table, source, first, format);
}

/** A CSV field that reads as a plain number (no leading zeros, no thousands separators) is typed as one. */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d+)?$/;

/** The table's rows from `first` (the header row) on; rows above it (a title) are not data. */
class TableSheet implements SheetData {
  readonly headers: readonly string[];
  readonly rowCount: number;
  readonly headerRowNumber: number;

  constructor(
    private readonly table: CellTable,
    private readonly source: CellSource,
    private readonly first: number,
    readonly format: SheetFormat,
  ) {
    this.rowCount = table.rowCount - 1 - first;
    this.headerRowNumber = table.rowNumbers[first]!;
    this.headers = this.readHeaders();
  }

  rowNumber(index: number): number {
    this.checkIndex(index);
    return this.table.rowNumbers[this.first + index + 1]!;
  }

  text(index: number, column: number): string {
    const cell = this.cellAt(this.first + index + 1, column);
    return cell < 0 ? '' : this.cellText(cell);
  }

  /** Table row `row`'s non-empty texts and whether any is text, for finding the header row. */
  rowCells(row: number): RowCells {
    const { rowStarts, metas } = this.table;
    const texts: string[] = [];
    let hasText = false;
    for (let cell = rowStarts[row]!; cell < rowStarts[row + 1]!; cell++) {
      const text = this.cellText(cell).trim();
      if (text === '') continue;
      texts.push(text);
      const kind = metas[cell]! & KIND_MASK;
      if (kind === CellKind.String || ((kind === CellKind.CsvField || kind === CellKind.CsvQuotedField) && !PLAIN_NUMBER.test(text))) hasText = true;
    }
    return { texts, hasText };
  }

  value(index: number, column: number): CellValue {
    const cell = this.cellAt(this.first + index + 1, column);
    if (cell < 0) return null;
    const table = this.table;
    switch (table.metas[cell]! & KIND_MASK) {
      case CellKind.Number:
      case CellKind.NumberWithText:
        return cellNumber(table, cell);
      case CellKind.Date:
      case CellKind.DateWithText:
        return serialToDate(cellNumber(table, cell), this.source.date1904);
      case CellKind.Boolean:
        return cellNumber(table, cell) === 1;
      case CellKind.CsvField:
      case CellKind.CsvQuotedField: {
        const text = this.cellText(cell);
        return PLAIN_NUMBER.test(text) ? Number(text) : text;
      }
      default:
        return this.cellText(cell);
    }
  }

  private cellText(cell: number): string {
    const table = this.table;
    const auxes = table.auxes!; // present for the kinds that read it
    const { strings, formatter } = this.source;
    const meta = table.metas[cell]!;
    const num = cellNumber(table, cell);
    switch (meta & KIND_MASK) {
      case CellKind.Number:
        return formatter.text(meta >>> FORMAT_SHIFT, num);
      case CellKind.Date:
        return formatter.dateText(meta >>> FORMAT_SHIFT, num);
      case CellKind.String:
        return strings.get(num);
      case CellKind.Boolean:
        return num === 1 ? 'TRUE' : 'FALSE';
      case CellKind.NumberWithText:
      case CellKind.DateWithText:
        return strings.get(auxes[cell]!);
      case CellKind.CsvField:
        return this.source.csvText!.slice(num, auxes[cell]!);
      case CellKind.CsvQuotedField:
        return this.source.csvText!.slice(num, auxes[cell]!).replaceAll('""', '"').replace(/\r\n?/g, '\n');
      default:
        return '';
    }
  }

  /** Index of the cell at (table row, column), or -1. Cells are usually dense, so try the direct slot first. */
  private cellAt(row: number, column: number): number {
    this.checkIndex(row - 1 - this.first);
    const { rowStarts, columns } = this.table;
    let low = rowStarts[row]!;
    let high = rowStarts[row + 1]! - 1;
    const direct = low + column;
    if (direct <= high && columns[direct] === column) return direct;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = columns[middle]!;
      if (found === column) return middle;
      if (found < column) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private readHeaders(): string[] {
    const { rowStarts, columns } = this.table;
    const start = rowStarts[this.first]!;
    const end = rowStarts[this.first + 1]!;
    const headers: string[] = new Array<string>(columns[end - 1]! + 1).fill('');
    for (let cell = start; cell < end; cell++) headers[columns[cell]!] = this.cellText(cell).trim();
    return headers;
  }

  private checkIndex(index: number): void {
    if (!(index >= 0 && index < this.rowCount)) throw new RangeError(`row index ${index} is outside 0..${this.rowCount - 1}`);
  }
}
