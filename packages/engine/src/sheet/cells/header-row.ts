/**
 * Finding the header row of a sheet whose first rows are a title, notes or empty: the first row that
 * looks like headings. Such a row is mostly filled (more than half as many cells as the widest of the
 * rows below it, so a one-cell title over a table is passed over), holds some text (a row of numbers
 * is data) and repeats no heading. A first row that looks like headings is always the header, as it
 * was before; without any, the first row is the header too. Only the first rows are searched: a
 * title block is short. Headings without data rows below are still found (the sheet is then refused
 * for having no data rows, not misread). Product behaviour: docs/spreadsheets.md, "Header row".
 */

/** Rows (with a value) searched for the header row. */
export const HEADER_SEARCH_ROWS = 20;
/** Rows below a candidate whose width it is compared with. */
const ROWS_COMPARED = 5;

export interface RowCells {
  /** The row's non-empty cell texts, trimmed. */
  texts: string[];
  /** Whether any of them is text (not a number, date or boolean). */
  hasText: boolean;
}

/** Index (among the rows holding a value) of the header row; `row(i)` reads row i. */
export function findHeaderRow(rowCount: number, row: (index: number) => RowCells): number {
  const searched = Math.min(rowCount, HEADER_SEARCH_ROWS);
  const rows = Array.from({ length: Math.min(rowCount, searched + ROWS_COMPARED) }, (_, index) => row(index));
  for (let index = 0; index < searched; index++) {
    const { texts, hasText } = rows[index]!;
    if (texts.length === 0 || !hasText) continue;
    const below = rows.slice(index + 1, index + 1 + ROWS_COMPARED);
    const width = Math.max(0, ...below.map((cells) => cells.texts.length));
    if (texts.length * 2 <= width) continue;
    if (new Set(texts.map((text) => text.toLowerCase())).size < texts.length) continue;
    return index;
  }
  return 0;
}
