/**
 * Word MERGEFIELDs with a \# number or \@ date picture (docs/word-templates.md#word-mail-merge-fields):
 * a value the picture cannot read is printed unchanged by the merge, without the picture's currency
 * sign or unit. The check reads the value with the merge's own parse of the field (parseMergeField)
 * and its own readers (readNumber, readDate), so what it flags is what the documents would show raw.
 */
import type { DateFormat, ErrorParams, NumberFormat } from '@sheaf/shared';
import type { DocxField } from '../docx/compile.ts';
import { parseMergeField } from '../docx/mergefield.ts';
import { readDate, readNumber } from '../format/index.ts';
import { dateOrder, resolveLocale } from '../format/locale.ts';
import type { CellValue } from '../sheet/types.ts';
import type { CheckCode } from './types.ts';
import { impossibleDate, numberWithoutStrayLetters } from './values.ts';

/** The merge's locale when none is given (prepareDocx's default). */
const DEFAULT_LOCALE = 'en-US';

export type WordFieldFormat =
  | { kind: 'date'; field: string; picture: string; format: DateFormat }
  | { kind: 'number'; field: string; picture: string; format: NumberFormat };

/** The picture a MERGEFIELD reads its value with, if any; a date picture wins, as in the merge (compile.ts). */
export function wordFieldFormat(field: DocxField, locale = DEFAULT_LOCALE): WordFieldFormat | undefined {
  const spec = parseMergeField(field.text, locale);
  if (!spec) return undefined;
  if (spec.date) return { kind: 'date', field: spec.column, picture: spec.pictures?.date ?? '', format: spec.date };
  if (spec.number) return { kind: 'number', field: spec.column, picture: spec.pictures?.number ?? '', format: spec.number.format };
  return undefined;
}

/** What a non-empty cell's value says under the field's picture, when the picture cannot read it. */
export function wordFormatFinding(format: WordFieldFormat, value: CellValue, text: string): { code: CheckCode; params: ErrorParams; expected: string } | undefined {
  const params = { field: format.field, picture: format.picture };
  if (format.kind === 'number') {
    if (readNumber(value ?? text, format.format) !== undefined) return undefined;
    const fixed = numberWithoutStrayLetters(text, format.format.locale);
    return fixed !== undefined ? { code: 'check/number-with-letters', params: {}, expected: fixed } : { code: 'check/word-number-unreadable', params, expected: '' };
  }
  if (readDate(value ?? text, format.format) !== undefined) return undefined;
  const impossible = impossibleDate(text, dateOrder(resolveLocale(format.format.locale)) === 'dmy' ? 'dmy' : 'mdy');
  return impossible ? { code: 'check/date-impossible', params: {}, expected: impossible.nearest } : { code: 'check/word-date-unreadable', params, expected: '' };
}
