/**
 * .xls and .ods through SheetJS (@e965/xlsx 0.20.3): the first sheet, read densely, with each number
 * kept alongside the text SheetJS formatted for it (its number formats follow Excel's). The cells go
 * into the same compact CellTable as every other format.
 */
import type { CellObject, WorkBook } from '@e965/xlsx';
import { SheafError } from '@sheaf/shared';
import { CellKind, CellTableBuilder } from '../cells/cell-table.ts';
import { SHEETJS_BUILT_IN_CORRECTIONS } from '../cells/built-in-formats.ts';
import { GENERAL_FORMAT, NumberFormatter, cellFormat, formatWithCode, isDateSerial } from '../cells/formats.ts';
import { StringTable } from '../cells/string-table.ts';
import { sheetDataFromTable, type HeaderOptions } from '../cells/table-sheet.ts';
import { corrupt } from '../limits.ts';
import { loadSheetJs } from '../sheetjs.ts';
import type { SheetData } from '../types.ts';

export interface SheetJsReadOptions extends HeaderOptions {
  readonly maxRows: number;
}

export function readWithSheetJs(bytes: Uint8Array, format: 'xls' | 'ods', options: SheetJsReadOptions): SheetData {
  const workbook = parseWorkbook(bytes);
  const name = workbook.SheetNames[0];
  const sheet = name === undefined ? undefined : workbook.Sheets[name];
  if (sheet === undefined) throw new SheafError('sheet/empty-sheet');
  const date1904 = Boolean(workbook.Workbook?.WBProps?.date1904);
  const strings = new StringTable();
  const builder = new CellTableBuilder(options.headerRow, options.maxRows, true);
  const rows: (CellObject[] | undefined)[] = sheet['!data'] ?? [];
  for (let row = 0; row < rows.length; row++) {
    const cells = rows[row];
    if (cells === undefined) continue;
    builder.startRow(row + 1);
    for (let column = 0; column < cells.length; column++) {
      const cell = cells[column];
      if (cell !== undefined) addCell(builder, strings, column, cell, format === 'xls' ? { date1904 } : undefined);
    }
    builder.endRow();
  }
  const source = { strings, formatter: new NumberFormatter([GENERAL_FORMAT], date1904), date1904 };
  return sheetDataFromTable(builder.finish(), source, options, format);
}

function parseWorkbook(bytes: Uint8Array): WorkBook {
  try {
    return loadSheetJs().read(bytes, {
      type: 'array',
      dense: true,
      cellDates: false,
      cellNF: true,
      cellText: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      sheetStubs: false,
      bookVBA: false,
      sheets: 0,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password|encrypt/i.test(message)) throw new SheafError('sheet/encrypted', {}, { cause: error });
    throw corrupt(message.slice(0, 200), error);
  }
}

/** `xls`: set for .xls, whose text SheetJS formats; an .ods carries the text LibreOffice showed. */
function addCell(builder: CellTableBuilder, strings: StringTable, column: number, cell: CellObject, xls: { date1904: boolean } | undefined): void {
  const addText = (text: string): number => strings.addString(text);
  switch (cell.t) {
    case 'n': {
      const { SSF } = loadSheetJs();
      const value = cell.v as number;
      const text = xls === undefined ? (cell.w ?? SSF.format(cell.z ?? 'General', value)) : xlsNumberText(cell, value, xls.date1904);
      const isDate = typeof cell.z === 'string' && SSF.is_date(cell.z) && isDateSerial(value);
      builder.addCell(column, isDate ? CellKind.DateWithText : CellKind.NumberWithText, 0, value, addText(text));
      return;
    }
    case 'b':
      builder.addCell(column, CellKind.Boolean, 0, cell.v ? 1 : 0);
      return;
    case 's':
    case 'e':
    case 'd': {
      const text = cell.t === 's' ? String(cell.v ?? '') : (cell.w ?? String(cell.v ?? ''));
      if (text !== '') builder.addCell(column, CellKind.String, 0, addText(text));
      return;
    }
    default:
      return; // 'z': a stub without value
  }
}

/**
 * SheetJS's text for a number, except where it differs from an en-US Excel: built-in formats its
 * table spells differently (14 is m/d/yyyy) and negative numbers in one-section formats.
 */
function xlsNumberText(cell: CellObject, value: number, date1904: boolean): string {
  const code = typeof cell.z === 'string' ? cell.z : 'General';
  const corrected = SHEETJS_BUILT_IN_CORRECTIONS.get(code);
  if (corrected === undefined && !(value < 0)) return cell.w ?? loadSheetJs().SSF.format(code, value);
  try {
    return formatWithCode(cellFormat(corrected ?? code), value, { date1904 });
  } catch {
    return cell.w ?? String(value);
  }
}
