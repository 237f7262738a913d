/**
 * Reads dates written as text: ISO ("2024-03-05", "2024-03-05T10:20:00Z"), compact "20240305", Excel
 * serials from CSV files ("45356", "45356.5"), numeric dates ("05/03/2024", "5.3.24", "2024/03/05"),
 * dates with month names in English or the format's locale ("5 March 2024", "March 5, 2024",
 * "Tue, 05-Mar-2024", "5. März 2024", "5 de marzo de 2024"), and CJK "2024年3月5日", each with an
 * optional time ("10:20", "10:20:30", "3:05 pm"). Times are taken as written: an offset or "Z" is
 * not converted, since a date is a calendar date. Ambiguous numeric dates follow the locale's order
 * (mm/dd for en-US, dd/mm for en-GB, de, fr, es); a value that fits only the other order is read so.
 */
import { dateNames, dateOrder } from './locale.ts';
import { isValidCalendarDate, serialToCalendarDate, type CalendarDate } from './calendarDate.ts';

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
/** Five-digit serials cover 1927 to 2173; shorter digit strings are more likely years or codes. */
const SERIAL = /^\d{5}(?:\.\d+)?$/;
/** A time of day, with an optional am/pm and an optional zone offset (ignored). */
const TIME = /(?:^|[\sT,])(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(?:([ap])\.?\s?m\.?)?(?:\s*(?:Z|[+-]\d{2}:?\d{2}))?(?=\s|$)/i;
/** Zone names and the "(Central European Standard Time)" of Date.toString(): ignored. */
const ZONE = /\s*\([^)]*\)\s*$|\s(?:Z|GMT|UTC)(?:\s?[+-]\d{2}:?\d{2})?(?=\s|$)/gi;
const CJK_UNITS = /[年月년월]\s*/g;
const CJK_DAY = /[日일]/g;
const SEPARATORS = /[\s,/.-]+/;
const NUMBER_TOKEN = /^(\d{1,4})(?:st|nd|rd|th|er|e|º|°)?$/i;
/** Words that join the parts of a written date and carry no meaning ("5 de marzo", "the 5th of March"). */
const FILLER = new Set(['of', 'the', 'de', 'del', 'le', 'der', 'den', 'am', 'um']);

type TimeOfDay = Pick<CalendarDate, 'hour' | 'minute' | 'second'>;

interface DateWords {
  months: Map<string, number>;
  weekdays: Set<string>;
}

const wordsCache = new Map<string, DateWords>();

/** Month and weekday names of English and the locale, lower case, without trailing dots. */
function dateWords(locale: string): DateWords {
  let words = wordsCache.get(locale);
  if (!words) {
    const months = new Map<string, number>();
    const weekdays = new Set<string>();
    for (const tag of ['en', locale]) {
      const names = dateNames(tag);
      for (const list of [names.monthsLong, names.monthsShort, names.monthsLongStandalone, names.monthsShortStandalone]) {
        list.forEach((name, index) => months.set(normaliseWord(name), index + 1));
      }
      for (const name of [...names.weekdaysLong, ...names.weekdaysShort]) weekdays.add(normaliseWord(name));
    }
    months.set('sept', 9); // "Sept" is common in English, beside ICU's "Sep"
    words = { months, weekdays };
    wordsCache.set(locale, words);
  }
  return words;
}

function normaliseWord(word: string): string {
  return word.toLowerCase().replace(/\.$/, '');
}

/** Two-digit years as Excel reads them: 00-29 are 2000-2029, 30-99 are 1930-1999. */
function fullYear(digits: string): number {
  const year = Number(digits);
  if (digits.length > 2) return year;
  return year < 30 ? 2000 + year : 1900 + year;
}

function build(year: number, month: number, day: number, time: TimeOfDay): CalendarDate | undefined {
  const date = { year, month, day, ...time };
  return isValidCalendarDate(date) ? date : undefined;
}

export function parseDateText(text: string, locale: string): CalendarDate | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  const iso = ISO.exec(value);
  if (iso) {
    const time = { hour: Number(iso[4] ?? 0), minute: Number(iso[5] ?? 0), second: Number(iso[6] ?? 0) };
    return build(Number(iso[1]), Number(iso[2]), Number(iso[3]), time);
  }
  const compact = COMPACT.exec(value);
  if (compact) return build(Number(compact[1]), Number(compact[2]), Number(compact[3]), { hour: 0, minute: 0, second: 0 });
  if (SERIAL.test(value)) return serialToCalendarDate(Number(value));
  return parseWrittenDate(value, locale);
}

function parseWrittenDate(value: string, locale: string): CalendarDate | undefined {
  let rest = value.replace(ZONE, ' ');
  const time: TimeOfDay = { hour: 0, minute: 0, second: 0 };
  const timeMatch = TIME.exec(rest);
  if (timeMatch) {
    let hour = Number(timeMatch[1]);
    const period = timeMatch[4]?.toLowerCase();
    if (period) {
      if (hour < 1 || hour > 12) return undefined;
      hour = (hour % 12) + (period === 'p' ? 12 : 0);
    }
    time.hour = hour;
    time.minute = Number(timeMatch[2]);
    time.second = Number(timeMatch[3] ?? 0);
    rest = rest.slice(0, timeMatch.index) + ' ' + rest.slice(timeMatch.index + timeMatch[0].length);
  }
  rest = rest.replace(CJK_UNITS, '-').replace(CJK_DAY, ' ');

  const numbers: string[] = [];
  let month: number | undefined;
  let monthBeforeNumbers = false;
  const words = /[^\d\s,/.-]/.test(rest) ? dateWords(locale) : undefined;
  for (const token of rest.split(SEPARATORS)) {
    if (token === '') continue;
    const number = NUMBER_TOKEN.exec(token);
    if (number) {
      numbers.push(number[1]);
      continue;
    }
    const word = normaliseWord(token);
    const named = words?.months.get(word);
    if (named !== undefined && month === undefined) {
      month = named;
      monthBeforeNumbers = numbers.length === 0;
    } else if (!words?.weekdays.has(word) && !FILLER.has(word)) {
      return undefined;
    }
  }
  if (month !== undefined) return namedMonthDate(numbers, month, monthBeforeNumbers, time);
  return numericDate(numbers, value, locale, time);
}

/** "5 March 2024", "March 5, 2024", "2024 March 5": the year is the long or large number. */
function namedMonthDate(numbers: string[], month: number, monthFirst: boolean, time: TimeOfDay): CalendarDate | undefined {
  if (numbers.length !== 2) return undefined;
  const [first, second] = numbers;
  const firstIsYear = first.length > 2 || (!monthFirst && Number(first) > 31);
  const [day, year] = firstIsYear ? [second, first] : [first, second];
  return build(fullYear(year), month, Number(day), time);
}

function numericDate(numbers: string[], original: string, locale: string, time: TimeOfDay): CalendarDate | undefined {
  if (numbers.length !== 3) return undefined;
  const [a, b, c] = numbers;
  if (a.length > 2) return build(Number(a), Number(b), Number(c), time); // 2024/03/05
  if (b.length > 2) return undefined;
  // Dotted dates are day first everywhere ("05.03.2024"); otherwise the locale's order decides.
  const dayFirst = /^\d{1,2}\.\d{1,2}\./.test(original) || dateOrder(locale) !== 'mdy';
  const year = fullYear(c);
  const [first, second] = [Number(a), Number(b)];
  const preferred = dayFirst ? build(year, second, first, time) : build(year, first, second, time);
  return preferred ?? (dayFirst ? build(year, first, second, time) : build(year, second, first, time));
}
