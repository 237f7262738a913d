import type { DateFormat } from '@sheaf/shared';
import type { CellValue } from '../sheet/types.ts';
import { calendarDateOf, serialToCalendarDate, weekday, type CalendarDate } from './calendarDate.ts';
import { cellText } from './cellText.ts';
import { dateNames, resolveLocale, type DateNames } from './locale.ts';
import { parseDateText } from './parseDate.ts';

const DEFAULT_PATTERN = 'DD/MM/YYYY';
/** The tokens of DateFormatSchema, longest first so "MMMM" wins over "MM"; [text] is literal. */
const TOKENS = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|H|hh|h|mm|ss|A/g;

type Token = 'YYYY' | 'YY' | 'MMMM' | 'MMM' | 'MM' | 'M' | 'DD' | 'D' | 'dddd' | 'ddd' | 'HH' | 'H' | 'hh' | 'h' | 'mm' | 'ss' | 'A';
/** A compiled pattern: literal text, or a token to fill. */
type Segment = { literal: string } | { token: Token };

interface CompiledDateFormat {
  locale: string;
  segments: readonly Segment[];
  names: DateNames;
  /** Patterns with a day number use the month's form beside a day ("5 марта"), others the standalone form ("март"). */
  withDay: boolean;
}

const byObject = new WeakMap<DateFormat, CompiledDateFormat>();
const byKey = new Map<string, CompiledDateFormat>();

function compile(format: DateFormat): CompiledDateFormat {
  let compiled = byObject.get(format);
  if (compiled) return compiled;
  const pattern = format.format === 'custom' ? format.customFormat || DEFAULT_PATTERN : format.format;
  const key = `${format.locale}|${pattern}`;
  compiled = byKey.get(key);
  if (!compiled) {
    const locale = resolveLocale(format.locale);
    const segments = parsePattern(pattern);
    const withDay = segments.some((segment) => 'token' in segment && (segment.token === 'D' || segment.token === 'DD'));
    compiled = { locale, segments, names: dateNames(locale), withDay };
    byKey.set(key, compiled);
  }
  byObject.set(format, compiled);
  return compiled;
}

function parsePattern(pattern: string): Segment[] {
  const segments: Segment[] = [];
  let literal = '';
  let last = 0;
  for (const match of pattern.matchAll(TOKENS)) {
    literal += pattern.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      literal += match[1];
      continue;
    }
    if (literal) segments.push({ literal });
    literal = '';
    segments.push({ token: match[0] as Token });
  }
  literal += pattern.slice(last);
  if (literal) segments.push({ literal });
  return segments;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

function tokenText(token: Token, date: CalendarDate, compiled: CompiledDateFormat): string {
  const { names, withDay } = compiled;
  switch (token) {
    case 'YYYY':
      return pad(date.year, 4);
    case 'YY':
      return pad(date.year % 100, 2);
    case 'MMMM':
      return (withDay ? names.monthsLong : names.monthsLongStandalone)[date.month - 1];
    case 'MMM':
      return (withDay ? names.monthsShort : names.monthsShortStandalone)[date.month - 1];
    case 'MM':
      return pad(date.month, 2);
    case 'M':
      return String(date.month);
    case 'DD':
      return pad(date.day, 2);
    case 'D':
      return String(date.day);
    case 'dddd':
      return names.weekdaysLong[weekday(date)];
    case 'ddd':
      return names.weekdaysShort[weekday(date)];
    case 'HH':
      return pad(date.hour, 2);
    case 'H':
      return String(date.hour);
    case 'hh':
      return pad(date.hour % 12 || 12, 2);
    case 'h':
      return String(date.hour % 12 || 12);
    case 'mm':
      return pad(date.minute, 2);
    case 'ss':
      return pad(date.second, 2);
    case 'A':
      return date.hour < 12 ? names.am : names.pm;
  }
}

function toCalendarDate(value: CellValue, locale: string): CalendarDate | undefined {
  if (value instanceof Date) return calendarDateOf(value);
  if (typeof value === 'number') return serialToCalendarDate(value);
  if (typeof value === 'string') return parseDateText(value, locale);
  return undefined;
}

/**
 * A cell as a date in `format` (a DATE_PRESETS entry or a custom pattern), with month and weekday
 * names in the format's locale. Reads Date objects (by their UTC fields), Excel serial numbers
 * (1900 system) and dates written as text (see parseDateText); anything else comes back unchanged.
 */
/** The date formatDate reads from a cell in `format`, or undefined when it prints the cell unchanged (the data check's rule). */
export function readDate(value: CellValue, format: DateFormat): CalendarDate | undefined {
  return toCalendarDate(value, compile(format).locale);
}

export function formatDate(value: CellValue, format: DateFormat): string {
  const compiled = compile(format);
  const date = toCalendarDate(value, compiled.locale);
  if (!date) return cellText(value);
  let text = '';
  for (const segment of compiled.segments) text += 'literal' in segment ? segment.literal : tokenText(segment.token, date, compiled);
  return text;
}
