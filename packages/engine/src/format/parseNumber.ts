/**
 * Reads numbers written as text, the way people type them in spreadsheets and CSV files:
 * " 42 ", "1,234.5", "1.234,5", "1 234,5", "1'234.5", "$12", "12,50 €", "USD 1,200", "-5",
 * "(5)" (accounting negative), "25%" (0.25), "1.5e3". Anything else is not a number.
 */
import { numberSeparators } from './locale.ts';

const CURRENCY = String.raw`(?:\p{Sc}|[A-Z]{3}(?![A-Za-z]))`;
/** Optional "(", sign and currency, the digits, an exponent, then percent, currency and ")" in any usual order. */
const NUMBER_TEXT = new RegExp(
  String.raw`^(?<open>\()?\s*(?<sign>[-+\u2212])?\s*${CURRENCY}?\s*(?<signAfterCurrency>[-+\u2212])?\s*` +
    String.raw`(?<body>[\d.,'\u2019\s\u00a0\u202f]*\d(?:[.,]\d*)?|[.,]\d+)(?:[eE](?<exponent>[-+]?\d{1,3}))?` +
    String.raw`\s*(?<percent>%)?\s*${CURRENCY}?\s*(?<percentAfterCurrency>%)?\s*(?<close>\))?$`,
  'u',
);
/** Characters that only ever group digits: spaces of all widths and apostrophes (de-CH "1'234"). */
const SPACE_GROUP = /[\s\u00a0\u202f'\u2019]/;
const SPACE_GROUPS = new RegExp(SPACE_GROUP.source, 'g');
const DIGITS = /^\d+$/;

export function parseNumberText(text: string, locale: string): number | undefined {
  const groups = NUMBER_TEXT.exec(text.trim())?.groups;
  if (!groups) return undefined;
  const { open, close, body, exponent } = groups;
  const sign = groups.sign ?? groups.signAfterCurrency;
  if (groups.sign && groups.signAfterCurrency) return undefined;
  if (Boolean(open) !== Boolean(close)) return undefined;
  const digits = normaliseDigits(body, locale);
  if (digits === undefined) return undefined;
  let value = Number(exponent ? `${digits}e${exponent}` : digits);
  if (!Number.isFinite(value)) return undefined;
  if (open || sign === '-' || sign === '\u2212') value = -value;
  if (groups.percent || groups.percentAfterCurrency) value /= 100;
  return value;
}

/** "1.234,5" -> "1234.5": decides which separator is the decimal one and checks the digit groups. */
function normaliseDigits(body: string, locale: string): string | undefined {
  const hasSpaceGroups = SPACE_GROUP.test(body);
  const compact = hasSpaceGroups ? body.replace(SPACE_GROUPS, ' ') : body;
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let decimal: string | undefined;
  if (lastDot >= 0 && lastComma >= 0) {
    decimal = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ',';
    const position = lastDot >= 0 ? lastDot : lastComma;
    const occurrences = compact.split(separator).length - 1;
    const digitsAfter = compact.length - position - 1;
    const leadingGroup = compact.slice(0, position);
    if (occurrences > 1 || hasSpaceGroups) {
      // Several of one separator are grouping ("1.234.567"); after space grouping, it is the decimal ("1 234,5").
      decimal = hasSpaceGroups && occurrences === 1 ? separator : undefined;
    } else if (separator === numberSeparators(locale).decimal || digitsAfter !== 3 || /^0*$/.test(leadingGroup)) {
      decimal = separator;
    }
  }
  const [integerPart, fraction = '', extra] = decimal ? compact.split(decimal) : [compact];
  if (extra !== undefined) return undefined;
  const groups = integerPart.split(/[., ]/);
  if (groups.length > 1 && !validGrouping(groups)) return undefined;
  const integer = groups.join('');
  if (fraction !== '' && !DIGITS.test(fraction)) return undefined;
  if (integer === '' && fraction === '') return undefined;
  return `${integer || '0'}.${fraction || '0'}`;
}

/** Thousands groups: 1 to 3 digits first, then groups of 3 (or 2, as in Indian lakh grouping "1,23,456") ending in 3. */
function validGrouping(groups: readonly string[]): boolean {
  const first = groups[0];
  if (!DIGITS.test(first) || first.length > 3) return false;
  for (let i = 1; i < groups.length; i++) {
    const group = groups[i];
    if (!DIGITS.test(group)) return false;
    if (group.length !== 3 && !(group.length === 2 && i < groups.length - 1)) return false;
  }
  return true;
}
