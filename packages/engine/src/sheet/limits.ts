/**
 * Safety limits of spreadsheet reading (docs/spreadsheets.md#limits). An upload is at most 25 MB; these
 * bound what that many compressed bytes may expand to, so a crafted file fails fast instead of
 * exhausting memory. A realistic 100,000 x 20 workbook inflates to about 75 MB of sheet XML and 17 MB
 * of shared strings, well inside them.
 */
import { SheafError } from '@sheaf/shared';

/** Entries a workbook's ZIP may list. Real workbooks have tens; thousands means a crafted archive. */
export const MAX_ZIP_ENTRIES = 10_000;
/** Bytes all inflated parts of one workbook may add up to. */
export const MAX_INFLATED_BYTES = 400 * 1024 * 1024;
/** Bytes one small part (content types, workbook, relationships, styles) may inflate to. */
export const MAX_SMALL_PART_BYTES = 32 * 1024 * 1024;
/** Inflated/compressed ratio beyond which an entry is a ZIP bomb; checked once it passes RATIO_CHECK_BYTES. */
export const MAX_COMPRESSION_RATIO = 250;
export const RATIO_CHECK_BYTES = 8 * 1024 * 1024;
/** One XML element (a cell, a shared string) may not exceed this; Excel caps a cell at 32,767 characters. */
export const MAX_XML_ELEMENT_BYTES = 8 * 1024 * 1024;
/** Excel's column limit (XFD) and row limit. */
export const MAX_COLUMNS = 16_384;
export const MAX_ROW_NUMBER = 1_048_576;

export function corrupt(detail: string, cause?: unknown): SheafError {
  return new SheafError('sheet/corrupt', { detail }, { cause });
}

export function limitsExceeded(detail: string): SheafError {
  return new SheafError('sheet/limits-exceeded', { detail });
}

export function wrongType(): SheafError {
  return new SheafError('sheet/wrong-type');
}
