/**
 * CSV (and TSV) in one pass over the decoded text. Fields are stored as ranges of that text, not as
 * strings: a 25 MB file costs its text plus ~15 bytes a field. Quoted fields may hold delimiters,
 * doubled quotes and line breaks (read as \n, as in every other format). Each record is one row,
 * numbered as Excel numbers it when it opens the file (a leading "sep=;" line, which Excel honours
 * and hides, is not a row).
 */
import { CellKind, CellTableBuilder } from '../cells/cell-table.ts';
import { GENERAL_FORMAT, NumberFormatter } from '../cells/formats.ts';
import { StringTable } from '../cells/string-table.ts';
import { sheetDataFromTable, type HeaderOptions } from '../cells/table-sheet.ts';
import type { SheetData } from '../types.ts';
import { detectDelimiter } from './delimiter.ts';

export interface CsvReadOptions extends HeaderOptions {
  readonly maxRows: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const SEP_LINE = /^sep=(.)\r?\n/i;

export function readCsv(text: string, options: CsvReadOptions): SheetData {
  const sepLine = SEP_LINE.exec(text);
  const start = sepLine ? sepLine[0].length : 0;
  const delimiter = (sepLine ? sepLine[1]! : detectDelimiter(text, start)).charCodeAt(0);
  const builder = new CellTableBuilder(options.headerRow, options.maxRows, true);
  const length = text.length;
  let at = start;
  let rowNumber = 0;
  while (at < length) {
    builder.startRow(++rowNumber);
    let column = 0;
    for (;;) {
      let fieldStart: number;
      let fieldEnd: number;
      let kind: CellKind = CellKind.CsvField;
      if (text.charCodeAt(at) === QUOTE) {
        fieldStart = at + 1;
        let close = text.indexOf('"', fieldStart);
        while (close >= 0 && text.charCodeAt(close + 1) === QUOTE) close = text.indexOf('"', close + 2);
        fieldEnd = close < 0 ? length : close; // an unclosed quote runs to the end, as in Excel
        if (needsUnescape(text, fieldStart, fieldEnd)) kind = CellKind.CsvQuotedField;
        at = fieldEnd + 1;
        // Text between the closing quote and the delimiter is dropped.
        while (at < length && !isFieldEnd(text.charCodeAt(at), delimiter)) at++;
      } else {
        fieldStart = at;
        while (at < length && !isFieldEnd(text.charCodeAt(at), delimiter)) at++;
        fieldEnd = at;
        if (isBlank(text, fieldStart, fieldEnd)) fieldEnd = fieldStart;
      }
      if (fieldEnd > fieldStart) builder.addCell(column, kind, 0, fieldStart, fieldEnd);
      column++;
      if (at < length && text.charCodeAt(at) === delimiter) {
        at++;
        if (at < length) continue;
      }
      break;
    }
    if (text.charCodeAt(at) === CR) at++;
    if (text.charCodeAt(at) === LF) at++;
    builder.endRow();
  }
  const source = { strings: new StringTable(), formatter: new NumberFormatter([GENERAL_FORMAT], false), date1904: false, csvText: text };
  return sheetDataFromTable(builder.finish(), source, options, 'csv');
}

/** A quoted field with doubled quotes or CR line ends inside: read through unescapeCsvField. */
function needsUnescape(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE || code === CR) return true;
  }
  return false;
}

function isFieldEnd(code: number, delimiter: number): boolean {
  return code === delimiter || code === LF || code === CR;
}

/** A field of spaces and tabs only is empty (so a line of blanks is an empty row). */
function isBlank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09) return false;
  }
  return true;
}
