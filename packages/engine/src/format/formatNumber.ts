import type { NumberFormat } from '@sheaf/shared';
import type { CellValue } from '../sheet/types.ts';
import { cellText } from './cellText.ts';
import { resolveLocale } from './locale.ts';
import { parseNumberText } from './parseNumber.ts';

/** "Keeps the value's own decimals" (NumberFormat.decimals omitted) means up to this many. */
const MAX_OWN_DECIMALS = 10;

interface CompiledNumberFormat {
  locale: string;
  intl: Intl.NumberFormat;
}

// Built once per format: by object identity (the same placeholder settings every row), then by content.
const byObject = new WeakMap<NumberFormat, CompiledNumberFormat>();
const byKey = new Map<string, CompiledNumberFormat>();

function compile(format: NumberFormat): CompiledNumberFormat {
  let compiled = byObject.get(format);
  if (compiled) return compiled;
  const key = `${format.style}|${format.decimals ?? ''}|${format.thousandsSeparator}|${format.locale}|${format.currency}`;
  compiled = byKey.get(key);
  if (!compiled) {
    const locale = resolveLocale(format.locale);
    compiled = { locale, intl: new Intl.NumberFormat(locale, intlOptions(format)) };
    byKey.set(key, compiled);
  }
  byObject.set(format, compiled);
  return compiled;
}

function intlOptions(format: NumberFormat): Intl.NumberFormatOptions {
  const options: Intl.NumberFormatOptions = {
    useGrouping: format.thousandsSeparator,
    // "-0" and "-0.00" (a tiny negative rounded away) print without the sign.
    signDisplay: 'negative',
  };
  if (format.style === 'currency') {
    options.style = 'currency';
    options.currency = format.currency.toUpperCase();
    // Without fixed decimals a currency keeps its own minor unit (USD 2, JPY 0).
    if (format.decimals !== undefined) options.minimumFractionDigits = options.maximumFractionDigits = format.decimals;
  } else {
    options.style = format.style;
    options.minimumFractionDigits = format.decimals ?? 0;
    options.maximumFractionDigits = format.decimals ?? MAX_OWN_DECIMALS;
  }
  return options;
}

/**
 * A cell as a number in `format`: separators, currency symbol and its place, percent (0.25 -> "25%",
 * "25 %" in de) per the format's locale. Numbers written as text ("1,234.5", "1.234,5" in de, " 42 ",
 * "$12") are read first; values that are not numbers come back unchanged, never as "NaN".
 */
export function formatNumber(value: CellValue, format: NumberFormat): string {
  const compiled = compile(format);
  const number = numberIn(value, compiled.locale);
  return number === undefined ? cellText(value) : compiled.intl.format(number);
}

/** The number formatNumber reads from a cell in `format`, or undefined when it prints the cell unchanged (the data check's rule). */
export function readNumber(value: CellValue, format: NumberFormat): number | undefined {
  return numberIn(value, compile(format).locale);
}

function numberIn(value: CellValue, locale: string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' ? parseNumberText(value, locale) : undefined;
}
