/**
 * A SheetData as plain arrays that structured clone can carry to a worker thread, and back. Values
 * are sent only where they differ from the text (numbers, dates, booleans), to halve the copy.
 */
import type { CellValue, SheetData } from './types.ts';

export interface TransferableSheet {
  headers: string[];
  headerRowNumber: number;
  rowNumbers: Int32Array;
  /** Per column, the text of each row. */
  texts: string[][];
  /** Per column, the typed value where it is not simply the text (undefined otherwise). */
  values: Array<Array<CellValue | undefined>>;
}

/** The arrays a sheet made by fromTransferableSheet reads: sent on as they are, with no copy. */
const SOURCE = Symbol('transferable sheet');

export function toTransferableSheet(sheet: SheetData): TransferableSheet {
  const source = (sheet as SheetData & { [SOURCE]?: TransferableSheet })[SOURCE];
  if (source) return source;
  const rowNumbers = new Int32Array(sheet.rowCount);
  for (let row = 0; row < sheet.rowCount; row++) rowNumbers[row] = sheet.rowNumber(row);
  const texts: string[][] = [];
  const values: Array<Array<CellValue | undefined>> = [];
  for (let column = 0; column < sheet.headers.length; column++) {
    const columnTexts = new Array<string>(sheet.rowCount);
    const columnValues = new Array<CellValue | undefined>(sheet.rowCount);
    for (let row = 0; row < sheet.rowCount; row++) {
      const text = sheet.text(row, column);
      const value = sheet.value(row, column);
      columnTexts[row] = text;
      columnValues[row] = value === text || (value === null && text === '') ? undefined : value;
    }
    texts.push(columnTexts);
    values.push(columnValues);
  }
  return { headers: [...sheet.headers], headerRowNumber: sheet.headerRowNumber, rowNumbers, texts, values };
}

export function fromTransferableSheet(data: TransferableSheet): SheetData {
  const sheet: SheetData = {
    headers: data.headers,
    headerRowNumber: data.headerRowNumber,
    rowCount: data.rowNumbers.length,
    rowNumber: (row) => data.rowNumbers[row]!,
    text: (row, column) => data.texts[column]?.[row] ?? '',
    value: (row, column) => {
      const value = data.values[column]?.[row];
      if (value !== undefined) return value;
      const text = data.texts[column]?.[row] ?? '';
      return text === '' ? null : text;
    },
  };
  // Not enumerable: a sheet spread into another (other rows, other values) does not carry it.
  return Object.defineProperty(sheet, SOURCE, { value: data, enumerable: false });
}
