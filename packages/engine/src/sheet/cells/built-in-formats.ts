/**
 * Excel's built-in number formats (ids below 164, which files reference without spelling out), as
 * an en-US Excel shows them. Ids SSF knows come from its table; the rest are Excel's aliases.
 */
import { SSF } from '@e965/xlsx';

/** Currency and accounting ids whose en-US look SSF's table does not hold. */
const EN_US_CODES: Record<number, string> = {
  5: '"$"#,##0_);\\("$"#,##0\\)',
  6: '"$"#,##0_);[Red]\\("$"#,##0\\)',
  7: '"$"#,##0.00_);\\("$"#,##0.00\\)',
  8: '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)',
  41: '_(* #,##0_);_(* \\(#,##0\\);_(* "-"_);_(@_)',
  42: '_("$"* #,##0_);_("$"* \\(#,##0\\);_("$"* "-"_);_(@_)',
  43: '_(* #,##0.00_);_(* \\(#,##0.00\\);_(* "-"??_);_(@_)',
  44: '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)',
};

/** Locale-dependent ids (East Asian dates and numbers) and the id an en-US Excel shows them as. */
const ALIASES: Record<number, number> = {
  27: 14, 28: 14, 29: 14, 30: 14, 31: 14, 32: 21, 33: 21, 34: 21, 35: 21, 36: 14,
  50: 14, 51: 14, 52: 14, 53: 14, 54: 14, 55: 14, 56: 14, 57: 14, 58: 14,
  59: 1, 60: 2, 61: 3, 62: 4, 67: 9, 68: 10, 69: 12, 70: 13, 71: 14, 72: 14,
  73: 15, 74: 16, 75: 17, 76: 20, 77: 21, 78: 22, 79: 45, 80: 46, 81: 47,
};

const table: Readonly<Record<number, string | undefined>> = SSF.get_table();

/** The format code of built-in id `id`; unknown ids show as General, as Excel does. */
export function builtInFormatCode(id: number): string {
  return EN_US_CODES[id] ?? table[id] ?? table[ALIASES[id] ?? -1] ?? 'General';
}
