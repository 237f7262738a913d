/**
 * Word's MERGEFIELD instruction (" MERGEFIELD "First Name" \@ "dd.MM.yyyy" \* Upper "): the column
 * it names and its switches, mapped onto Sheaf's formatters (docs/word-templates.md#word-mail-merge-fields):
 * \@ date pictures to a custom DateFormat, \# number pictures to a NumberFormat plus the picture's
 * literal text, \* Upper/Lower/Caps/FirstCap, \b text before and \f text after a non-empty value.
 */
import type { DateFormat, NumberFormat } from '@sheaf/shared';

export interface MergeFieldSpec {
  column: string;
  date?: DateFormat;
  number?: { format: NumberFormat; prefix: string; suffix: string };
  textCase?: 'upper' | 'lower' | 'caps' | 'firstcap';
  before?: string;
  after?: string;
  /** The \@ and \# pictures as written ("dd.MM.yyyy", "€#,##0.00"), for messages. */
  pictures?: { date?: string; number?: string };
}

const SWITCH = /\\([@#*bfmv])\s*(?:"((?:[^"\\]|\\.)*)"|([^\s\\"][^\s]*))?/g;

/** The field's spec, or undefined when the instruction is not a MERGEFIELD. */
export function parseMergeField(instruction: string, locale: string): MergeFieldSpec | undefined {
  const match = /^\s*MERGEFIELD\s+(?:"((?:[^"\\]|\\.)*)"|([^\s"\\]+))(.*)$/is.exec(instruction);
  if (!match) return undefined;
  const column = unescape(match[1] ?? match[2]!).trim();
  if (column === '') return undefined;
  const spec: MergeFieldSpec = { column };
  for (const item of match[3]!.matchAll(SWITCH)) {
    const argument = item[2] !== undefined ? unescape(item[2]) : item[3];
    switch (item[1]) {
      case '@':
        if (argument) {
          spec.date = { format: 'custom', customFormat: datePicture(argument), locale };
          spec.pictures = { ...spec.pictures, date: argument };
        }
        break;
      case '#':
        if (argument) {
          spec.number = numberPicture(argument, locale);
          spec.pictures = { ...spec.pictures, number: argument };
        }
        break;
      case '*': {
        const kind = argument?.toLowerCase();
        if (kind === 'upper' || kind === 'lower' || kind === 'caps' || kind === 'firstcap') spec.textCase = kind;
        break;
      }
      case 'b':
        spec.before = argument ?? '';
        break;
      case 'f':
        spec.after = argument ?? '';
        break;
      // \m (mapped field) and \v (vertical formatting) change nothing Sheaf prints.
    }
  }
  return spec;
}

const unescape = (text: string): string => text.replace(/\\(.)/g, '$1');

/** Word date-picture letters and the Sheaf token each becomes; longest first. */
const DATE_TOKENS: [RegExp, string][] = [
  [/^yyyy/, 'YYYY'],
  [/^yy/, 'YY'],
  [/^y/, 'YY'],
  [/^MMMM/, 'MMMM'],
  [/^MMM/, 'MMM'],
  [/^MM/, 'MM'],
  [/^M/, 'M'],
  [/^dddd/, 'dddd'],
  [/^ddd/, 'ddd'],
  [/^dd/, 'DD'],
  [/^d/, 'D'],
  [/^HH/, 'HH'],
  [/^H/, 'H'],
  [/^hh/, 'hh'],
  [/^h/, 'h'],
  [/^mm/, 'mm'],
  [/^m/, 'mm'],
  [/^ss/, 'ss'],
  [/^s/, 'ss'],
  [/^(AM\/PM|am\/pm)/, 'A'],
];

/** A Word date picture ("dd.MM.yyyy", "d MMMM yyyy 'at' HH:mm") as a Sheaf custom date pattern. */
export function datePicture(picture: string): string {
  let pattern = '';
  let literal = '';
  const flush = () => {
    if (literal) pattern += `[${literal.replace(/[[\]]/g, '')}]`;
    literal = '';
  };
  for (let rest = picture; rest.length > 0; ) {
    if (rest[0] === "'") {
      const close = rest.indexOf("'", 1);
      literal += close < 0 ? rest.slice(1) : rest.slice(1, close);
      rest = close < 0 ? '' : rest.slice(close + 1);
      continue;
    }
    const token = DATE_TOKENS.find(([pattern_]) => pattern_.test(rest));
    if (token) {
      flush();
      const length = token[0].exec(rest)![0].length;
      pattern += token[1];
      rest = rest.slice(length);
    } else {
      literal += rest[0];
      rest = rest.slice(1);
    }
  }
  flush();
  return pattern;
}

/**
 * A Word number picture ("#,##0.00", "$#,##0.00", "0.0 'kg'") as a NumberFormat: decimals from the
 * digit places after the point, grouping when the picture has a comma; text before and after the
 * digits is kept as written. A picture with a ";" keeps its first (positive) section.
 */
export function numberPicture(picture: string, locale: string): { format: NumberFormat; prefix: string; suffix: string } {
  const section = picture.split(';')[0]!.replace(/'([^']*)'/g, '\ue000$1\ue001');
  const first = section.search(/[#0x]/);
  const last = Math.max(section.lastIndexOf('#'), section.lastIndexOf('0'), section.lastIndexOf('x'));
  const clean = (text: string) => text.replace(/[\ue000\ue001]/g, '');
  if (first < 0) return { format: plain(locale, undefined, false), prefix: clean(section), suffix: '' };
  const digits = section.slice(first, last + 1);
  const point = digits.indexOf('.');
  const decimals = point < 0 ? 0 : digits.slice(point + 1).replace(/[^#0x]/g, '').length;
  return {
    format: plain(locale, Math.min(decimals, 10), digits.slice(0, point < 0 ? undefined : point).includes(',')),
    prefix: clean(section.slice(0, first)),
    suffix: clean(section.slice(last + 1)),
  };
}

function plain(locale: string, decimals: number | undefined, thousandsSeparator: boolean): NumberFormat {
  return { style: 'decimal', decimals, thousandsSeparator, locale, currency: 'USD' };
}

/** Applies \* and \b \f to the formatted value. */
export function finishMergeValue(spec: MergeFieldSpec, value: string): string {
  let text = value;
  switch (spec.textCase) {
    case 'upper':
      text = text.toUpperCase();
      break;
    case 'lower':
      text = text.toLowerCase();
      break;
    case 'caps':
      text = text.replace(/(^|\s)(\S)/gu, (_all, space: string, letter: string) => space + letter.toUpperCase());
      break;
    case 'firstcap':
      text = text.charAt(0).toUpperCase() + text.slice(1);
      break;
  }
  if (text === '') return text;
  return (spec.before ?? '') + text + (spec.after ?? '');
}
