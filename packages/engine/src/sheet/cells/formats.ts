/**
 * Number formats: what a cell's format code makes of its number, the way Excel displays it. General
 * takes our fast path; other codes go through SheetJS's SSF (Excel's formatting rules), with a small
 * per-format cache because sheets repeat values (dates above all) and SSF re-parses the code each call.
 */
import { SSF } from '@e965/xlsx';
import { formatGeneral } from './general-format.ts';

export type FormatKind = 'general' | 'number' | 'date';

export interface CellFormat {
  readonly code: string;
  readonly kind: FormatKind;
}

export const GENERAL_FORMAT: CellFormat = { code: 'General', kind: 'general' };
/** Excel's default date format (built-in 14), for date cells whose own format is not a date format. */
export const DEFAULT_DATE_FORMAT: CellFormat = { code: 'm/d/yy', kind: 'date' };

/** Classifies a format code once per workbook. Text ("@") shows numbers as General does. */
export function cellFormat(code: string): CellFormat {
  const trimmed = code.trim();
  if (trimmed === '' || trimmed === '@' || trimmed.toLowerCase() === 'general') return GENERAL_FORMAT;
  let isDate = false;
  try {
    isDate = SSF.is_date(trimmed);
  } catch {
    isDate = false;
  }
  return { code: trimmed, kind: isDate ? 'date' : 'number' };
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
      text = SSF.format(format.code, value, this.options);
    } catch {
      text = formatGeneral(value); // a code SSF cannot read: show the plain number rather than fail
    }
    if (cache === undefined) this.caches[key] = cache = new Map();
    else if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(value, text);
    return text;
  }
}
