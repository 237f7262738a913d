/**
 * Number formats: what a cell's format code makes of its number, the way Excel displays it. General
 * takes our fast path; other codes go through SheetJS's SSF (Excel's formatting rules), with a small
 * per-format cache because sheets repeat values (dates above all) and SSF re-parses the code each call.
 */
import { loadSheetJs } from '../sheetjs.ts';
import { formatGeneral } from './general-format.ts';

export type FormatKind = 'general' | 'number' | 'date';

export interface CellFormat {
  readonly code: string;
  readonly kind: FormatKind;
  /**
   * A number format with one section and no condition: Excel shows a negative number as a minus
   * before the format applied to its magnitude (SSF rounds the negative itself, -1234.5 to "-1234").
   */
  readonly minusBeforeMagnitude?: boolean;
}

export const GENERAL_FORMAT: CellFormat = { code: 'General', kind: 'general' };
/** Excel's default date format (built-in 14, en-US), for date cells whose own format is not a date format. */
export const DEFAULT_DATE_FORMAT: CellFormat = { code: 'm/d/yyyy', kind: 'date' };

/** Classifies a format code once per workbook. Text ("@") shows numbers as General does. */
export function cellFormat(code: string): CellFormat {
  const trimmed = code.trim();
  if (trimmed === '' || trimmed === '@' || trimmed.toLowerCase() === 'general') return GENERAL_FORMAT;
  let isDate = false;
  try {
    isDate = loadSheetJs().SSF.is_date(trimmed);
  } catch {
    isDate = false;
  }
  if (isDate) return { code: trimmed, kind: 'date' };
  return { code: trimmed, kind: 'number', minusBeforeMagnitude: isSingleSection(trimmed) };
}

/** No section separator outside quotes and escapes, and no [<condition]. */
function isSingleSection(code: string): boolean {
  let quoted = false;
  for (let index = 0; index < code.length; index++) {
    const char = code[index];
    if (char === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (char === '\\' || char === '_' || char === '*') index++; // the next character is literal
    else if (char === ';') return false;
    else if (char === '[' && /[<>=]/.test(code[index + 1] ?? '')) return false;
  }
  return true;
}

/** A number as Excel shows it in `format`; throws when SSF cannot read the code. */
export function formatWithCode(format: CellFormat, value: number, options: { date1904: boolean }): string {
  const { SSF } = loadSheetJs();
  if (format.minusBeforeMagnitude === true && value < 0) return '-' + SSF.format(format.code, -value, options);
  return SSF.format(format.code, value, options);
}

/** Serial numbers Excel can show as dates: 1900-01-00 to 9999-12-31. */
export function isDateSerial(serial: number): boolean {
  return serial >= 0 && serial < 2_958_466;
}

const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_SERIAL = 25_569; // 1970-01-01 in the 1900 date system
const DAYS_1900_TO_1904 = 1_462;

/**
 * The Date of an Excel serial, as wall-clock time in UTC (read it with getUTC*): a cell showing
 * 2024-03-01 12:00 becomes 2024-03-01T12:00:00Z whatever the server's time zone. Serials below 60
 * skip Excel's phantom 29 February 1900.
 */
export function serialToDate(serial: number, date1904: boolean): Date {
  const days = date1904 ? serial + DAYS_1900_TO_1904 : serial < 60 ? serial + 1 : serial;
  return new Date(Math.round((days - UNIX_EPOCH_SERIAL) * MS_PER_DAY));
}

/** Inverse of serialToDate for a Date holding UTC wall-clock time. */
export function dateToSerial(date: Date, date1904: boolean): number {
  const days = date.getTime() / MS_PER_DAY + UNIX_EPOCH_SERIAL;
  if (date1904) return days - DAYS_1900_TO_1904;
  return days < 61 ? days - 1 : days;
}

const CACHE_LIMIT = 8_192;

/** Formats numbers by format index for one sheet; caches per format, bounded. */
export class NumberFormatter {
  private readonly caches: (Map<number, string> | undefined)[] = [];
  private readonly options: { date1904: boolean };

  constructor(
    private readonly formats: readonly CellFormat[],
    date1904: boolean,
  ) {
    this.options = { date1904 };
  }

  text(formatIndex: number, value: number): string {
    const format = this.formats[formatIndex] ?? GENERAL_FORMAT;
    if (format.kind === 'general') return formatGeneral(value);
    return this.withFormat(format, formatIndex, value);
  }

  /** A date cell: its format when that is a date format, else Excel's default date format. */
  dateText(formatIndex: number, serial: number): string {
    const format = this.formats[formatIndex];
    if (format?.kind === 'date') return this.withFormat(format, formatIndex, serial);
    return this.withFormat(DEFAULT_DATE_FORMAT, -1, serial);
  }

  private withFormat(format: CellFormat, formatIndex: number, value: number): string {
    const key = formatIndex + 1;
    let cache = this.caches[key];
    const cached = cache?.get(value);
    if (cached !== undefined) return cached;
    let text: string;
    try {
      text = formatWithCode(format, value, this.options);
    } catch {
      text = formatGeneral(value); // a code SSF cannot read: show the plain number rather than fail
    }
    if (cache === undefined) this.caches[key] = cache = new Map();
    else if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(value, text);
    return text;
  }
}
