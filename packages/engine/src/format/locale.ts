/**
 * What the formatters need to know about a locale, computed with Intl once per locale and cached:
 * separators, the order people write numeric dates in, month, weekday and day-period names.
 */
const FALLBACK_LOCALE = 'en-US';
const UTC = 'UTC';

export type DateOrder = 'dmy' | 'mdy' | 'ymd';

export interface DateNames {
  /** Month names as used beside a day number ("5 марта"), index 0 = January. */
  monthsLong: readonly string[];
  monthsShort: readonly string[];
  /** Month names standing alone ("март"), for patterns without a day. */
  monthsLongStandalone: readonly string[];
  monthsShortStandalone: readonly string[];
  /** Index 0 = Sunday. */
  weekdaysLong: readonly string[];
  weekdaysShort: readonly string[];
  /** The locale's words for before noon and after noon. */
  am: string;
  pm: string;
}

const resolvedLocales = new Map<string, string>();

/**
 * A locale tag Intl supports: the canonical form of `tag`, or en-US when it is malformed or unknown
 * (never the host's default locale, so output does not depend on the machine).
 */
export function resolveLocale(tag: string): string {
  let resolved = resolvedLocales.get(tag);
  if (resolved === undefined) {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      resolved = canonical && Intl.NumberFormat.supportedLocalesOf(canonical).length > 0 ? canonical : FALLBACK_LOCALE;
    } catch {
      resolved = FALLBACK_LOCALE;
    }
    resolvedLocales.set(tag, resolved);
  }
  return resolved;
}

const separatorCache = new Map<string, { decimal: string; group: string }>();

/** Decimal and grouping characters of a (resolved) locale. */
export function numberSeparators(locale: string): { decimal: string; group: string } {
  let separators = separatorCache.get(locale);
  if (!separators) {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    separators = {
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
    };
    separatorCache.set(locale, separators);
  }
  return separators;
}

const orderCache = new Map<string, DateOrder>();

/** The order of day, month and year in the locale's numeric dates (en-US mdy, de dmy, zh ymd). */
export function dateOrder(locale: string): DateOrder {
  let order = orderCache.get(locale);
  if (!order) {
    const types = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: UTC })
      .formatToParts(Date.UTC(2024, 2, 5))
      .map((part) => part.type)
      .filter((type) => type === 'year' || type === 'month' || type === 'day');
    order = types[0] === 'year' ? 'ymd' : types[0] === 'month' ? 'mdy' : 'dmy';
    orderCache.set(locale, order);
  }
  return order;
}

const namesCache = new Map<string, DateNames>();

function partOf(locale: string, options: Intl.DateTimeFormatOptions, time: number, type: Intl.DateTimeFormatPartTypes): string {
  const parts = new Intl.DateTimeFormat(locale, { ...options, timeZone: UTC }).formatToParts(time);
  return parts.find((part) => part.type === type)?.value ?? '';
}

/** The month part; where it is a bare number (zh, ja, ko: "3" + "月"), with the unit that follows it. */
function monthName(locale: string, options: Intl.DateTimeFormatOptions, time: number): string {
  const parts = new Intl.DateTimeFormat(locale, { ...options, timeZone: UTC }).formatToParts(time);
  const index = parts.findIndex((part) => part.type === 'month');
  const name = parts[index]?.value ?? '';
  const next = parts[index + 1];
  return /^\d+$/.test(name) && next?.type === 'literal' ? name + next.value.trim() : name;
}

export function dateNames(locale: string): DateNames {
  let names = namesCache.get(locale);
  if (!names) {
    const months = Array.from({ length: 12 }, (_, month) => Date.UTC(2024, month, 15));
    const days = Array.from({ length: 7 }, (_, weekday) => Date.UTC(2024, 0, 7 + weekday)); // 7 Jan 2024: a Sunday
    const month = (options: Intl.DateTimeFormatOptions) => months.map((time) => monthName(locale, options, time));
    names = {
      monthsLong: month({ day: 'numeric', month: 'long' }),
      monthsShort: month({ day: 'numeric', month: 'short' }),
      monthsLongStandalone: month({ month: 'long' }),
      monthsShortStandalone: month({ month: 'short' }),
      weekdaysLong: days.map((time) => partOf(locale, { weekday: 'long' }, time, 'weekday')),
      weekdaysShort: days.map((time) => partOf(locale, { weekday: 'short' }, time, 'weekday')),
      am: partOf(locale, { hour: 'numeric', hour12: true }, Date.UTC(2024, 0, 1, 9), 'dayPeriod') || 'AM',
      pm: partOf(locale, { hour: 'numeric', hour12: true }, Date.UTC(2024, 0, 1, 15), 'dayPeriod') || 'PM',
    };
    namesCache.set(locale, names);
  }
  return names;
}
