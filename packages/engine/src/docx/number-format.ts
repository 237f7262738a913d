/**
 * Numbers as Word prints them (batch-numbering.ts): in a note numbering format (w:numFmt), and as a
 * number field's result with its format switches (`NUMPAGES \* roman`, `\* CardText \* Caps`, `\# "00"`).
 */
import { formatNumber as formatDecimal } from '../format/formatNumber.ts';
import { finishMergeValue, parseMergeField } from './mergefield.ts';

const ROMAN: Array<[number, string]> = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
const CHICAGO = ['*', '†', '‡', '§'];

/** A number in Word's numbering format `format` (w:numFmt); formats not listed print as decimal. */
export function numFmtText(value: number, format: string): string {
  switch (format) {
    case 'lowerRoman':
    case 'upperRoman': {
      let rest = value;
      let out = '';
      for (const [size, letters] of ROMAN) for (; rest >= size; rest -= size) out += letters;
      return format === 'upperRoman' ? out.toUpperCase() : out;
    }
    case 'lowerLetter':
    case 'upperLetter': {
      // Word's letters: a..z, then aa..zz, aaa..
      const letter = String.fromCharCode(97 + ((value - 1) % 26)).repeat(Math.floor((value - 1) / 26) + 1);
      return format === 'upperLetter' ? letter.toUpperCase() : letter;
    }
    case 'chicago':
      return CHICAGO[(value - 1) % 4]!.repeat(Math.floor((value - 1) / 4) + 1);
    default:
      return String(value);
  }
}

/**
 * Word's `\*` number formats by lower-case name; `upper` tells whether the switch began with a capital
 * ("ROMAN"). Arabic is the digits a field prints without one (or its `\#` picture).
 */
const FORMAT_SWITCHES: Record<string, (value: number, upper: boolean) => string> = {
  arabicdash: (value) => `- ${value} -`,
  roman: (value, upper) => numFmtText(value, upper ? 'upperRoman' : 'lowerRoman'),
  alphabetic: (value, upper) => numFmtText(value, upper ? 'upperLetter' : 'lowerLetter'),
  cardtext: (value) => cardinal(value),
  ordtext: (value) => ordinalWords(cardinal(value)),
  ordinal: (value) => `${value}${ordinalSuffix(value)}`,
  dollartext: (value) => `${cardinal(value)} and 00/100`,
  hex: (value) => value.toString(16).toUpperCase(),
};

/**
 * A number field's result as Word prints it: the first `\*` number format (ArabicDash, roman, ROMAN,
 * alphabetic, ALPHABETIC, CardText, OrdText, Ordinal, Hex, DollarText), else a `\#` picture, else digits;
 * then a case switch (`\* Upper`, `Lower`, `Caps`, `FirstCap`). The switches are read as a MERGEFIELD's
 * (mergefield.ts); Word's other formats (CircleNum, the Asian ones) print as digits.
 */
export function fieldNumberText(value: number, instruction: string): string {
  // The switches as a MERGEFIELD's: the field's name and arguments (all before the first switch) go.
  const spec = parseMergeField(instruction.replace(/^[^\\]*/, 'MERGEFIELD n '), 'en-US');
  let text: string | undefined;
  for (const [, name] of instruction.matchAll(/\\\*\s*"?([A-Za-z]+)/g)) {
    const format = FORMAT_SWITCHES[name!.toLowerCase()];
    if (!format) continue;
    text = format(value, name![0] !== name![0]!.toLowerCase());
    break;
  }
  if (text === undefined && spec?.number) {
    const { format, prefix, suffix } = spec.number;
    text = prefix + formatDecimal(value, format).padStart(minimumDigits(spec.pictures!.number!), '0') + suffix;
  }
  // A computed value without binary noise (0.1 + 0.2 prints 0.3).
  text ??= String(Number.parseFloat(value.toPrecision(12)));
  return spec ? finishMergeValue({ ...spec, before: undefined, after: undefined }, text) : text;
}

/** The integer digits a `\#` picture always prints ("00" prints 2 as "02"). */
function minimumDigits(picture: string): number {
  const integer = /[#0x,]+/.exec(picture.split(';')[0]!.replace(/'[^']*'/g, ''))?.[0] ?? '';
  return integer.replace(/[^0]/g, '').length;
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** English words as Word's CardText writes them ("one hundred twenty-three"); digits from a million on. */
function cardinal(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value >= 1_000_000) return String(value);
  if (value < 20) return ONES[value]!;
  if (value < 100) return TENS[Math.floor(value / 10)]! + (value % 10 ? `-${ONES[value % 10]}` : '');
  const [size, name] = value < 1000 ? [100, 'hundred'] : [1000, 'thousand'];
  const rest = value % size;
  return `${cardinal(Math.floor(value / size))} ${name}${rest ? ` ${cardinal(rest)}` : ''}`;
}

const ORDINAL_WORDS: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

/** Cardinal words as ordinal ones: the last word changes ("twenty-one" -> "twenty-first", "forty" -> "fortieth"). */
function ordinalWords(words: string): string {
  return words.replace(/[a-z]+$/, (last) => ORDINAL_WORDS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`));
}

function ordinalSuffix(value: number): string {
  if (Math.floor(value / 10) % 10 === 1) return 'th';
  return ['th', 'st', 'nd', 'rd'][value % 10] ?? 'th';
}
