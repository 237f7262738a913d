/**
 * The pure parts of the data-check dialog (docs/data-check.md#the-dialog): the issues as grid rows,
 * the filters by column and by kind, the summary ("N issues in M rows"), the flagged rows, and
 * "Exclude flagged rows": the rows the merge would make minus the flagged ones, written as the
 * shared row list ("2-10, 12, 14-50", packages/shared/src/rows.ts) the merge request carries.
 */
import { DATA_ISSUE_KINDS, MergeRequestSchema, parseRowList, type DataIssue, type DataIssueKind } from '@sheaf/shared';
import { effectiveRange, type RowSelectionState, type SheetBounds } from '../wizard/rowSelection.ts';

/** An issue with the grid's row id (its place in the answer). */
export interface IssueRow extends DataIssue {
  id: number;
}

export interface IssueFilter {
  /** A column's name, or null for every column. */
  column: string | null;
  kind: DataIssueKind | null;
}

export const NO_FILTER: IssueFilter = { column: null, kind: null };

export function toRows(issues: readonly DataIssue[], firstId: number): IssueRow[] {
  return issues.map((issue, index) => ({ ...issue, id: firstId + index }));
}

export function filterIssues<T extends DataIssue>(issues: readonly T[], filter: IssueFilter): readonly T[] {
  if (filter.column === null && filter.kind === null) return issues;
  return issues.filter((issue) => (filter.column === null || issue.column_name === filter.column) && (filter.kind === null || issue.kind === filter.kind));
}

/** The rows that have at least one issue, ascending. */
export function flaggedRows(issues: readonly Pick<DataIssue, 'row_number'>[]): number[] {
  return [...new Set(issues.map((issue) => issue.row_number))].sort((a, b) => a - b);
}

export interface IssueSummary {
  issues: number;
  rows: number;
  /** Columns with issues, in the order they were first found, with their counts. */
  columns: { name: string; count: number }[];
  /** Kinds with issues, in the contract's order, with their counts. */
  kinds: { kind: DataIssueKind; count: number }[];
}

export function summarize(issues: readonly DataIssue[]): IssueSummary {
  const rows = new Set<number>();
  const columns = new Map<string, number>();
  const kinds = new Map<DataIssueKind, number>();
  for (const issue of issues) {
    rows.add(issue.row_number);
    columns.set(issue.column_name, (columns.get(issue.column_name) ?? 0) + 1);
    kinds.set(issue.kind, (kinds.get(issue.kind) ?? 0) + 1);
  }
  return {
    issues: issues.length,
    rows: rows.size,
    columns: [...columns].map(([name, count]) => ({ name, count })),
    kinds: DATA_ISSUE_KINDS.filter((kind) => kinds.has(kind)).map((kind) => ({ kind, count: kinds.get(kind)! })),
  };
}

/** A filter whose column or kind no longer has issues keeps what still applies. */
export function validFilter(filter: IssueFilter, summary: IssueSummary): IssueFilter {
  return {
    column: filter.column !== null && summary.columns.some((column) => column.name === filter.column) ? filter.column : null,
    kind: filter.kind !== null && summary.kinds.some((kind) => kind.kind === filter.kind) ? filter.kind : null,
  };
}

type Range = readonly [number, number];

/** The rows a selection makes, as ascending, disjoint ranges inside the sheet's data rows. */
export function selectedRanges(selection: RowSelectionState, sheet: SheetBounds): Range[] {
  if (sheet.lastRow < sheet.firstRow) return [];
  if (selection.mode === 'all') return [[sheet.firstRow, sheet.lastRow]];
  if (selection.mode === 'range') {
    const { startRow, endRow } = effectiveRange(selection, sheet);
    return startRow <= endRow ? [[startRow, endRow]] : [];
  }
  return toRanges(parseRowList(selection.specificRows, sheet.lastRow).filter((row) => row >= sheet.firstRow));
}

/** Ascending row numbers as ranges of consecutive rows. */
export function toRanges(rows: readonly number[]): Range[] {
  const ranges: [number, number][] = [];
  for (const row of rows) {
    const last = ranges.at(-1);
    if (last && row === last[1] + 1) last[1] = row;
    else if (!last || row > last[1]) ranges.push([row, row]);
  }
  return ranges;
}

/** The ranges without the given rows (ascending). */
export function withoutRows(ranges: readonly Range[], rows: readonly number[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    let from = low;
    while (next < rows.length && rows[next]! < from) next++;
    while (next < rows.length && rows[next]! <= high) {
      const row = rows[next]!;
      if (row > from) out.push([from, row - 1]);
      from = row + 1;
      next++;
    }
    if (from <= high) out.push([from, high]);
  }
  return out;
}

/** The shared row list's text of the ranges: "2-10, 12, 14-50". */
export function formatRanges(ranges: readonly Range[]): string {
  return ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', ');
}

const countOf = (ranges: readonly Range[]) => ranges.reduce((sum, [low, high]) => sum + high - low + 1, 0);

export type Exclusion =
  /** The selection to set: specific rows; `excluded` flagged rows leave it. */
  | { kind: 'rows'; specificRows: string; count: number; excluded: number }
  /** No flagged row is among the rows the merge makes. */
  | { kind: 'nothing-to-exclude' }
  /** Every row the merge would make is flagged. */
  | { kind: 'no-rows-left' }
  /** The list is longer than a merge request may carry (too many scattered flagged rows). */
  | { kind: 'too-long'; length: number };

/** "Exclude flagged rows": the rows the current selection makes, minus the flagged ones. */
export function excludeFlagged(selection: RowSelectionState, sheet: SheetBounds, flagged: readonly number[]): Exclusion {
  const before = selectedRanges(selection, sheet);
  const after = withoutRows(before, flagged);
  const excluded = countOf(before) - countOf(after);
  if (excluded === 0) return { kind: 'nothing-to-exclude' };
  if (after.length === 0) return { kind: 'no-rows-left' };
  const specificRows = formatRanges(after);
  // The merge request's own limit (packages/shared/src/api/merges.ts), not a copy of it.
  if (!MergeRequestSchema.shape.rowsData.safeParse({ specificRowsNumbers: specificRows }).success) return { kind: 'too-long', length: specificRows.length };
  return { kind: 'rows', specificRows, count: countOf(after), excluded };
}

/** How many of the flagged rows the current selection still makes (step 4's line). */
export function flaggedInSelection(selection: RowSelectionState, sheet: SheetBounds, flagged: readonly number[]): number {
  const ranges = selectedRanges(selection, sheet);
  let count = 0;
  let at = 0;
  for (const row of flagged) {
    while (at < ranges.length && ranges[at]![1] < row) at++;
    if (at < ranges.length && ranges[at]![0] <= row) count++;
  }
  return count;
}

/** Characters a person cannot see in a cell: controls, zero-widths, the byte-order mark, odd spaces. */
// eslint-disable-next-line no-control-regex -- these characters are what the check reports
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00A0\u00AD\u061C\u180E\u2000-\u200F\u2028-\u202F\u205F-\u2064\u2066-\u206F\u3000\uFEFF]/g;

/**
 * A value as the grid shows it: spaces at either end as "␣" and invisible characters as ⟨U+200B⟩, so
 * "stray spaces" and "invisible characters" can be seen. Downloads keep the value as it is.
 */
export function visibleValue(value: string): string {
  const marked = value.replace(INVISIBLE, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
  const leading = /^ +/.exec(marked)?.[0].length ?? 0;
  if (leading === marked.length) return '␣'.repeat(leading);
  const trailing = / +$/.exec(marked)?.[0].length ?? 0;
  return '␣'.repeat(leading) + marked.slice(leading, marked.length - trailing) + '␣'.repeat(trailing);
}
