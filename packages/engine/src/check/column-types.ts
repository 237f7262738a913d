/**
 * The type of each column, inferred from its values alone, so the check works with no template
 * settings at all (docs/data-check.md#column-types): a column whose values are nearly all numbers,
 * dates, email addresses or yes/no values has a type, and a value that is not one stands out.
 *
 * Inference reads a bounded sample spread evenly over the selected rows (not the first rows only,
 * so a sheet sorted by one kind of value is read fairly), before the first row is checked; the rows
 * are then checked one by one in a single pass.
 */
import { isValidEmail } from '@sheaf/shared';
import { parseDateText } from '../format/parseDate.ts';
import { parseNumberText } from '../format/parseNumber.ts';
import type { CellValue, SheetData } from '../sheet/types.ts';

export const COLUMN_TYPES = ['boolean', 'email', 'number', 'date'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** Rows read to infer the types, at most (spread over the selection). */
export const TYPE_SAMPLE_ROWS = 2_000;
/** A column has a type when at least this share of its non-empty sampled values are of it... */
export const TYPE_SHARE = 0.9;
/** ...and at least this many were sampled. */
export const TYPE_MIN_VALUES = 10;

/** Yes/no words in the product's languages (and Excel's TRUE/FALSE). */
const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no', 'y', 'n', 'ja', 'nein', 'oui', 'non', 'si', 'sí', '是', '否', 'wahr', 'falsch', 'vrai', 'faux', 'verdadero', 'falso']);
const LETTERS = /\p{L}/u;
const EXPONENT = /\d[eE][-+]?\d+\s*$/;
/** Numbers and dates written as text are read as the en-US locale reads them (the formatters' default). */
const LOCALE = 'en-US';

/** Whether a non-empty cell is a value of the type. */
export function isOfType(type: ColumnType, value: CellValue, text: string): boolean {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean' || BOOLEAN_WORDS.has(text.trim().toLowerCase());
    case 'email':
      return isValidEmail(text);
    case 'number':
      // Letters make a code, not a number ("REF2" reads as 2 REF to the formatter): only an exponent may have one.
      return typeof value === 'number' || (typeof value === 'string' && !LETTERS.test(text.replace(EXPONENT, '')) && parseNumberText(text, LOCALE) !== undefined);
    case 'date':
      return value instanceof Date || (typeof value === 'string' && parseDateText(text, LOCALE) !== undefined);
  }
}

/** Evenly spread data-row indices of a sheet of `rowCount` data rows, at most `count`. */
export function sampleOf(rowCount: number, count = TYPE_SAMPLE_ROWS): number[] {
  if (rowCount <= count) return Array.from({ length: rowCount }, (_, i) => i);
  const step = rowCount / count;
  return Array.from({ length: count }, (_, i) => Math.floor(i * step));
}

/**
 * The inferred type of each column (undefined: text, or too few values to tell), from a sample of all
 * the sheet's data rows: a column's type does not depend on which rows a merge selects.
 */
export function inferColumnTypes(sheet: SheetData): Array<ColumnType | undefined> {
  const sample = sampleOf(sheet.rowCount);
  // A type that missed more than this many values cannot reach TYPE_SHARE any more: it is not tried again.
  const allowedMisses = (1 - TYPE_SHARE) * sample.length;
  return sheet.headers.map((_heading, column) => {
    let values = 0;
    const counts = [0, 0, 0, 0];
    const misses = [0, 0, 0, 0];
    for (const row of sample) {
      const text = sheet.text(row, column);
      if (text.trim() === '') continue;
      values++;
      const value = sheet.value(row, column);
      let open = false;
      for (let index = 0; index < COLUMN_TYPES.length; index++) {
        if (misses[index]! > allowedMisses) continue;
        open = true;
        if (isOfType(COLUMN_TYPES[index]!, value, text)) counts[index]!++;
        else misses[index]!++;
      }
      if (!open) return undefined; // text: no type can have 90% of the values
    }
    if (values < TYPE_MIN_VALUES) return undefined;
    return COLUMN_TYPES.find((_type, index) => counts[index]! >= TYPE_SHARE * values);
  });
}

/**
 * A column stops being flagged once its outliers are more than this share of its values so far (and
 * more than OUTLIER_FLOOR): then it is not "mostly" of its type after all, and listing every other
 * value would bury the real findings.
 */
export const OUTLIER_SHARE = 0.1;
export const OUTLIER_FLOOR = 20;
