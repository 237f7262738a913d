/**
 * Excel's built-in number formats (ids below 164, which files reference without spelling out), as
 * an en-US Excel shows them. SheetJS's table differs from Excel in a few (14 and 22 with two-digit
 * years, 37-40 without the padding of `_)`, 47 without its colon, no currency), so the table is ours.
 * Product behaviour: docs/spreadsheets.md, "Values as Excel shows them".
 */

/** Ids 0-49 as an en-US Excel defines them; 23-36 are the locale-dependent ids, mapped below. */
const EN_US_CODES: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yyyy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  37: '#,##0_);\\(#,##0\\)',
  38: '#,##0_);[Red]\\(#,##0\\)',
  39: '#,##0.00_);\\(#,##0.00\\)',
  40: '#,##0.00_);[Red]\\(#,##0.00\\)',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@',
};

/**
 * Locale-dependent ids (East Asian dates, times and numbers) and the id an en-US Excel shows them as
 * (23-31 and 50-82 as Excel 2019 shows them; 32-35 are times and 36 a date in the zh-TW table).
 */
const ALIASES: Readonly<Record<number, number>> = {
  23: 0, 24: 0, 25: 0, 26: 0,
  27: 14, 28: 14, 29: 14, 30: 14, 31: 14, 32: 21, 33: 21, 34: 21, 35: 21, 36: 14,
  50: 14, 51: 14, 52: 14, 53: 14, 54: 14, 55: 14, 56: 14, 57: 14, 58: 14,
  59: 1, 60: 2, 61: 3, 62: 4, 63: 5, 64: 6, 65: 7, 66: 8, 67: 9, 68: 10, 69: 12, 70: 13, 71: 14, 72: 14,
  73: 15, 74: 16, 75: 17, 76: 20, 77: 21, 78: 22, 79: 45, 80: 46, 81: 47,
};

/** The format code of built-in id `id`; unknown ids show as General, as Excel does. */
export function builtInFormatCode(id: number): string {
  return EN_US_CODES[id] ?? EN_US_CODES[ALIASES[id] ?? -1] ?? 'General';
}

/**
 * SheetJS's codes for the built-in ids whose en-US look differs, and the en-US code: readers that
 * get a cell's format from SheetJS (.xls) see its code, not the id.
 */
export const SHEETJS_BUILT_IN_CORRECTIONS: ReadonlyMap<string, string> = new Map([
  ['m/d/yy', EN_US_CODES[14]!],
  ['m/d/yy h:mm', EN_US_CODES[22]!],
  ['#,##0 ;(#,##0)', EN_US_CODES[37]!],
  ['#,##0 ;[Red](#,##0)', EN_US_CODES[38]!],
  ['#,##0.00;(#,##0.00)', EN_US_CODES[39]!],
  ['#,##0.00;[Red](#,##0.00)', EN_US_CODES[40]!],
  ['mmss.0', EN_US_CODES[47]!],
]);
