/**
 * Rules about a value alone (docs/data-check.md#values): stray spaces and invisible characters,
 * numbers with stray letters, dates that do not exist. Each answers what the value probably should
 * be, when that can be told.
 */
import { daysInMonth } from '../format/calendarDate.ts';
import { parseNumberText } from '../format/parseNumber.ts';

/**
 * Characters nobody means to type: C0 and C1 controls but the line break (a tab prints as a space, a
 * carriage return as a box), the zero-width space, word joiner, BOM and soft hyphen that the
 * spec's whitespace cleanup removes, and no-break spaces (they look like spaces but do not match
 * one). Zero-width (non-)joiners are kept where they shape a script or an emoji (next to non-ASCII).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this rule looks for
const SUSPECT = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00a0\u00ad\u200b-\u200d\u2060\u202f\ufeff]/;
const EDGE_SPACE = /^\s|\s$/;

/** Whether a value is worth looking at for stray characters at all (one test per cell). */
export function mayHaveStrayCharacters(text: string): boolean {
  return EDGE_SPACE.test(text) || SUSPECT.test(text);
}

/** What the invisible-character rule finds: the characters (as U+XXXX) and the value without them. */
export interface StrayCharacters {
  /** U+ names of the invisible and control characters found, each once; empty when there are only stray spaces. */
  invisible: string[];
  /** The value cleaned: invisible characters removed, no-break spaces and tabs as spaces, trimmed. */
  cleaned: string;
}

const isAscii = (char: string | undefined) => char !== undefined && char.charCodeAt(0) < 0x80;
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

export function strayCharacters(text: string): StrayCharacters {
  const invisible: string[] = [];
  let cleaned = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (!SUSPECT.test(char)) {
      cleaned += char;
      continue;
    }
    // A no-break or narrow no-break space between digits groups them ("1 234,50" in French): meant.
    if ((code === 0xa0 || code === 0x202f) && isDigit(text[i - 1]) && isDigit(text[i + 1])) {
      cleaned += char;
      continue;
    }
    // Joiners shape scripts and emoji; between ASCII characters they only break searches and matches.
    if ((code === 0x200c || code === 0x200d) && !(isAscii(text[i - 1]) || isAscii(text[i + 1]))) {
      cleaned += char;
      continue;
    }
    const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    if (!invisible.includes(name)) invisible.push(name);
    cleaned += code === 0xa0 || code === 0x202f || code === 9 ? ' ' : '';
  }
  return { invisible, cleaned: cleaned.trim() };
}

/** Letters that stand for digits when typed by mistake: O for 0, l and I for 1. */
const LOOK_ALIKES: Readonly<Record<string, string>> = { O: '0', o: '0', l: '1', I: '1' };
const LETTER = /\p{L}/u;

/**
 * A number written with one or two stray letters ("12O5", "1,234.5x", "4l0"): the number they
 * probably meant (look-alike letters as digits, other letters dropped), as text in the same
 * writing; undefined when it is not that, or is already a number.
 */
export function numberWithoutStrayLetters(text: string, locale: string): string | undefined {
  const value = text.trim();
  if (value === '' || parseNumberText(value, locale) !== undefined) return undefined;
  let letters = 0;
  let digits = 0;
  for (const char of value) {
    if (isDigit(char)) digits++;
    else if (LETTER.test(char)) letters++;
  }
  if (letters === 0 || letters > 2 || digits < 2 || digits <= letters) return undefined;
  let fixed = '';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (!LETTER.test(char)) fixed += char;
    else if (LOOK_ALIKES[char] && (isDigit(chars[i - 1]) || isDigit(chars[i + 1]))) fixed += LOOK_ALIKES[char];
    // any other letter is dropped
  }
  fixed = fixed.trim();
  return parseNumberText(fixed, locale) !== undefined ? fixed : undefined;
}

/** A quick look for the shapes impossibleDate reads (most values are not dates at all). */
const MONTH_WORD = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*';
const DATE_SHAPE = new RegExp(String.raw`^\s*(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}\.?\s+${MONTH_WORD}\.?,?\s+\d{4}|${MONTH_WORD}\.?\s+\d{1,2},?\s+\d{4})`, 'i');

export function mayBeDate(text: string): boolean {
  return DATE_SHAPE.test(text);
}

const ISO_LIKE = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})((?:[T\s].*)?)$/;
const NUMERIC = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})((?:\s.*)?)$/;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAY_MONTH_YEAR = /^(\d{1,2})(\.?\s+)([A-Za-z]+)(\.?,?\s+)(\d{4})$/;
const MONTH_DAY_YEAR = /^([A-Za-z]+)(\.?\s+)(\d{1,2})(,?\s+)(\d{4})$/;

function monthOfName(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((month) => month === lower || (lower.length <= 4 && month.startsWith(lower.replace(/\.$/, ''))));
  return index < 0 ? undefined : index + 1;
}

/** The day written as `written` (kept padded when it was), clamped to the month's last day. */
function clampedDay(written: string, year: number, month: number): string {
  return String(daysInMonth(year, month)).padStart(written.length, '0');
}

const fullYear = (digits: string) => (digits.length > 2 ? Number(digits) : Number(digits) < 30 ? 2000 + Number(digits) : 1900 + Number(digits));

/**
 * A date whose parts are in range (month 1-12, day 1-31) but that does not exist ("2023-02-30",
 * "31/04/2024", "February 29, 2023"), with the nearest real date written the same way (the month's
 * last day). Undefined when the value is a real date or not written like one. `order` reads
 * numeric dates whose day and month could swap ("02/30/2023" is impossible either way).
 */
export function impossibleDate(text: string, order: 'dmy' | 'mdy' = 'mdy'): { nearest: string } | undefined {
  const value = text.trim();
  if (value.length < 6 || value.length > 40) return undefined;
  const iso = ISO_LIKE.exec(value);
  if (iso) {
    const [, year, separator, month, day, rest] = iso as unknown as [string, string, string, string, string, string];
    return impossible(Number(year), Number(month), Number(day), (fixedDay) => `${year}${separator}${month}${separator}${fixedDay}${rest}`, day);
  }
  const numeric = NUMERIC.exec(value);
  if (numeric) {
    const [, first, separator, second, yearText, rest] = numeric as unknown as [string, string, string, string, string, string];
    const year = fullYear(yearText);
    const readings: Array<{ month: string; day: string; write: (day: string) => string }> = [
      { month: second, day: first, write: (day) => `${day}${separator}${second}${separator}${yearText}${rest}` },
      { month: first, day: second, write: (day) => `${first}${separator}${day}${separator}${yearText}${rest}` },
    ];
    if (order === 'mdy') readings.reverse();
    // A real date in either order is a date (the engine reads the other order when only it fits).
    if (readings.some(({ month, day }) => Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= daysInMonth(year, Number(month)))) return undefined;
    for (const { month, day, write } of readings) {
      const found = impossible(year, Number(month), Number(day), write, day);
      if (found) return found;
    }
    return undefined;
  }
  const dayFirst = DAY_MONTH_YEAR.exec(value);
  if (dayFirst) {
    const [, day, gap1, name, gap2, year] = dayFirst as unknown as [string, string, string, string, string, string];
    const month = monthOfName(name);
    return month === undefined ? undefined : impossible(Number(year), month, Number(day), (fixed) => `${fixed}${gap1}${name}${gap2}${year}`, day);
  }
  const monthFirst = MONTH_DAY_YEAR.exec(value);
  if (monthFirst) {
    const [, name, gap1, day, gap2, year] = monthFirst as unknown as [string, string, string, string, string, string];
    const month = monthOfName(name);
    return month === undefined ? undefined : impossible(Number(year), month, Number(day), (fixed) => `${name}${gap1}${fixed}${gap2}${year}`, day);
  }
  return undefined;
}

function impossible(year: number, month: number, day: number, write: (day: string) => string, writtenDay: string): { nearest: string } | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || day <= daysInMonth(year, month)) return undefined;
  return { nearest: write(clampedDay(writtenDay, year, month)) };
}

/** Levenshtein distance of two short texts, or `limit + 1` as soon as it is known to be above `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
