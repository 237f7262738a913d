/**
 * The derived rows file of a stored sheet (docs/data-check.md#speed): the parsed sheet written row
 * by row, so the data check can stream it rather than parse the whole spreadsheet again.
 *
 *   <headerRow>.rows    one line per data row, in sheet order: its fields separated by U+001F (the
 *                       unit separator): the row number, the text of each cell (a backslash, a line
 *                       break or a U+001F in it escaped as \\, \n, \u) and, when some cell's typed value is
 *                       not simply its text, one more field: JSON {"<column>": value} (numbers,
 *                       booleans, null, {"d": epoch ms} for dates). Split, not JSON per line: a row is
 *                       one String.split, several times faster to read than JSON.parse.
 *   <headerRow>.json    the profile: headings, header row, row numbers (runs), column types, and the
 *                       byte size and row count of the .rows file it describes (a file cut short or
 *                       swapped shows as damaged)
 *
 * Decoding checks every line's shape (its number of fields, its row number, its typed values), so a
 * damaged file is noticed (SheetRowsDamaged) rather than read as wrong values; the caller then reads
 * the sheet itself.
 */
import { StringDecoder } from 'node:string_decoder';
import type { CellValue, ColumnType, SheetData, SheetRow } from '@sheaf/engine';

export const SHEET_ROWS_VERSION = 2;
const SEPARATOR = '\u001f';

export interface SheetRowsProfile {
  version: number;
  headers: string[];
  headerRowNumber: number;
  rowCount: number;
  /** The data rows' Excel numbers as runs [first, count]: one run unless the sheet has empty rows. */
  rowRuns: Array<[number, number]>;
  columnTypes: Array<ColumnType | null>;
  /** Byte size of the .rows file. */
  rowsBytes: number;
}

export class SheetRowsDamaged extends Error {}

type EncodedValue = number | boolean | string | null | { d: number };

function encodeValue(value: CellValue): EncodedValue {
  return value instanceof Date ? { d: value.getTime() } : value;
}

function decodeValue(value: unknown): CellValue {
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'object' && typeof (value as { d?: unknown }).d === 'number') return new Date((value as { d: number }).d);
  throw new SheetRowsDamaged('a typed value of unknown shape');
}

const escapeText = (text: string): string =>
  text.includes('\\') || text.includes('\n') || text.includes(SEPARATOR)
    ? text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll(SEPARATOR, '\\u')
    : text;
const unescapeText = (text: string): string =>
  text.replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char === 'u' ? SEPARATOR : char));

/** One data row as its line (with the line break). */
export function encodeRow(sheet: SheetData, index: number): string {
  let line = String(sheet.rowNumber(index));
  let typed: Record<string, EncodedValue> | undefined;
  for (let column = 0; column < sheet.headers.length; column++) {
    const text = sheet.text(index, column);
    const value = sheet.value(index, column);
    line += SEPARATOR + escapeText(text);
    // Only values that are not simply the text (as read back: an empty text is a null value).
    if (text === '' ? value !== null : value !== text) (typed ??= {})[column] = encodeValue(value);
  }
  if (typed) line += SEPARATOR + JSON.stringify(typed);
  return `${line}\n`;
}

/** The row numbers of a sheet's data rows as runs of consecutive numbers. */
export function rowRunsOf(sheet: SheetData): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let index = 0; index < sheet.rowCount; index++) {
    const number = sheet.rowNumber(index);
    const last = runs.at(-1);
    if (last && last[0] + last[1] === number) last[1]++;
    else runs.push([number, 1]);
  }
  return runs;
}

/** A row read back from its line. */
class StoredRow implements SheetRow {
  constructor(readonly rowNumber: number, private readonly cells: readonly string[], private readonly typed: Map<number, CellValue> | undefined) {}
  text(column: number): string {
    const text = this.cells[column + 1] ?? '';
    return text.includes('\\') ? unescapeText(text) : text;
  }
  value(column: number): CellValue {
    if (this.typed?.has(column)) return this.typed.get(column)!;
    const text = this.text(column);
    return text === '' ? null : text;
  }
}

/** Decodes one line of a sheet of `columns` columns; throws SheetRowsDamaged on any line of another shape. */
export function decodeRow(line: string, columns: number): SheetRow {
  const cells = line.split(SEPARATOR);
  const rowNumber = Number(cells[0]);
  if ((cells.length !== columns + 1 && cells.length !== columns + 2) || !Number.isInteger(rowNumber) || rowNumber < 1) {
    throw new SheetRowsDamaged('a line of another shape');
  }
  let typed: Map<number, CellValue> | undefined;
  if (cells.length === columns + 2) {
    let values: unknown;
    try {
      values = JSON.parse(cells[columns + 1]!);
    } catch {
      throw new SheetRowsDamaged('typed values that are not JSON');
    }
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new SheetRowsDamaged('typed values of another shape');
    typed = new Map();
    for (const [key, value] of Object.entries(values)) {
      const column = Number(key);
      if (!Number.isInteger(column) || column < 0 || column >= columns) throw new SheetRowsDamaged('a typed value of no column');
      typed.set(column, decodeValue(value));
    }
  }
  return new StoredRow(rowNumber, cells, typed);
}

/** The profile read back, or undefined when it is not one this version wrote. */
export function decodeProfile(bytes: Uint8Array): SheetRowsProfile | undefined {
  try {
    const profile = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as SheetRowsProfile;
    const sound = profile.version === SHEET_ROWS_VERSION && Array.isArray(profile.headers) && profile.headers.every((heading) => typeof heading === 'string')
      && Number.isInteger(profile.headerRowNumber) && Number.isInteger(profile.rowCount) && Number.isInteger(profile.rowsBytes)
      && Array.isArray(profile.columnTypes) && profile.columnTypes.length === profile.headers.length
      && Array.isArray(profile.rowRuns) && profile.rowRuns.reduce((sum, run) => sum + (Array.isArray(run) ? run[1] : NaN), 0) === profile.rowCount;
    return sound ? profile : undefined;
  } catch {
    return undefined;
  }
}

/** The sheet's row numbers only (what the merge's row selection reads); its cells are in the rows file. */
export function rowIndexOf(profile: SheetRowsProfile): SheetData {
  const numbers = new Int32Array(profile.rowCount);
  let index = 0;
  for (const [first, count] of profile.rowRuns) for (let n = 0; n < count; n++) numbers[index++] = first + n;
  const noCells = (): never => {
    throw new Error('the row index of a stored sheet has no cells: read them from its rows');
  };
  return {
    headers: profile.headers, headerRowNumber: profile.headerRowNumber, rowCount: profile.rowCount,
    rowNumber: (row) => numbers[row]!, text: noCells, value: noCells,
  };
}

/**
 * The rows of a rows file as its bytes arrive, a chunk's rows at a time (one await per chunk, not per
 * row): lines split across chunks are joined, every line is decoded, and the file must end with a
 * line break after exactly `rowCount` rows.
 */
export async function* decodeRows(chunks: AsyncIterable<Uint8Array>, columns: number, rowCount: number): AsyncGenerator<SheetRow[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let rows = 0;
  for await (const chunk of chunks) {
    const text = rest + decoder.write(chunk as Buffer);
    const decoded: SheetRow[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      if (++rows > rowCount) throw new SheetRowsDamaged('more rows than the profile says');
      decoded.push(decodeRow(text.slice(start, end), columns));
      start = end + 1;
    }
    rest = text.slice(start);
    if (decoded.length > 0) yield decoded;
  }
  if (rest + decoder.end() !== '' || rows !== rowCount) throw new SheetRowsDamaged('a file cut short');
}
