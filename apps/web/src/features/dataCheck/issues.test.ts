// @vitest-environment node
/** Filters, the summary, and "Exclude flagged rows" as the shared row list the merge reads. */
import { describe, expect, it } from 'vitest';
import { countSelectedRows, MergeRequestSchema, parseRowList, type DataIssue } from '@sheaf/shared';
import { ALL_ROWS, countRowsToGenerate, type RowSelectionState } from '../wizard/rowSelection.ts';
import {
  excludeFlagged, filterIssues, flaggedInSelection, flaggedRows, formatRanges, NO_FILTER, selectedRanges, summarize, toRanges, toRows, validFilter, visibleValue, withoutRows,
} from './issues.ts';

const issue = (row: number, column: string, kind: DataIssue['kind'] = 'missing'): DataIssue => ({
  row_number: row, column_name: column, description: '', actual_value: '', expected_value: '', kind, code: 'check/missing-placeholder', params: {},
});
const ISSUES = toRows([issue(2, 'Name'), issue(2, 'Email', 'email'), issue(5, 'Email', 'email'), issue(7, 'Amount', 'format'), issue(7, 'Email', 'duplicate')], 0);
const sheet = { firstRow: 2, lastRow: 101 };
const specific = (specificRows: string): RowSelectionState => ({ ...ALL_ROWS, mode: 'specific', specificRows });

describe('filters and summary', () => {
  it('numbers the grid rows in arrival order', () => {
    expect(ISSUES.map((row) => row.id)).toEqual([0, 1, 2, 3, 4]);
    expect(toRows([issue(9, 'A')], 5)[0]!.id).toBe(5);
  });

  it('filters by column, by kind, and by both', () => {
    expect(filterIssues(ISSUES, NO_FILTER)).toBe(ISSUES);
    expect(filterIssues(ISSUES, { column: 'Email', kind: null }).map((row) => row.row_number)).toEqual([2, 5, 7]);
    expect(filterIssues(ISSUES, { column: null, kind: 'email' }).map((row) => row.row_number)).toEqual([2, 5]);
    expect(filterIssues(ISSUES, { column: 'Email', kind: 'duplicate' }).map((row) => row.id)).toEqual([4]);
    expect(filterIssues(ISSUES, { column: 'Name', kind: 'format' })).toEqual([]);
  });

  it('says N issues in M rows, with the columns in the order found and the kinds in the contract\'s order', () => {
    const summary = summarize(ISSUES);
    expect(summary.issues).toBe(5);
    expect(summary.rows).toBe(3);
    expect(summary.columns).toEqual([{ name: 'Name', count: 1 }, { name: 'Email', count: 3 }, { name: 'Amount', count: 1 }]);
    expect(summary.kinds).toEqual([{ kind: 'missing', count: 1 }, { kind: 'format', count: 1 }, { kind: 'email', count: 2 }, { kind: 'duplicate', count: 1 }]);
    expect(summarize([])).toEqual({ issues: 0, rows: 0, columns: [], kinds: [] });
  });

  it('drops a filter value that has no issues (any more)', () => {
    const summary = summarize(ISSUES);
    expect(validFilter({ column: 'Email', kind: 'ai' }, summary)).toEqual({ column: 'Email', kind: null });
    expect(validFilter({ column: 'Gone', kind: 'email' }, summary)).toEqual({ column: null, kind: 'email' });
  });

  it('lists each flagged row once, ascending', () => {
    expect(flaggedRows([issue(7, 'A'), issue(2, 'A'), issue(7, 'B'), issue(5, 'A')])).toEqual([2, 5, 7]);
  });
});

describe('row ranges', () => {
  it('joins consecutive rows and takes rows out of ranges', () => {
    expect(toRanges([2, 3, 4, 6, 8, 9])).toEqual([[2, 4], [6, 6], [8, 9]]);
    expect(withoutRows([[2, 10], [20, 22]], [1, 2, 5, 6, 10, 21, 30])).toEqual([[3, 4], [7, 9], [20, 20], [22, 22]]);
    expect(formatRanges([[3, 4], [7, 7], [20, 22]])).toBe('3-4, 7, 20-22');
  });

  it('reads the selection the way the merge does', () => {
    expect(selectedRanges(ALL_ROWS, sheet)).toEqual([[2, 101]]);
    expect(selectedRanges({ ...ALL_ROWS, mode: 'range', startRow: 50, endRow: 10 }, sheet)).toEqual([[10, 50]]);
    expect(selectedRanges(specific('1, 4-6, 200, 8'), sheet)).toEqual([[4, 6], [8, 8]]);
  });
});

describe('exclude flagged rows', () => {
  it('from all rows: every row but the flagged ones, as the shared row list', () => {
    const result = excludeFlagged(ALL_ROWS, sheet, [2, 5, 7, 101]);
    expect(result).toEqual({ kind: 'rows', specificRows: '3-4, 6, 8-100', count: 96, excluded: 4 });
    if (result.kind !== 'rows') throw new Error('rows expected');
    // The merge reads it back as exactly these rows, and step 4 counts the same number.
    const rows = parseRowList(result.specificRows, sheet.lastRow);
    expect(rows).toHaveLength(96);
    expect(rows.some((row) => [2, 5, 7, 101].includes(row))).toBe(false);
    expect(countSelectedRows({ kind: 'specific', specificRowsNumbers: result.specificRows }, sheet)).toBe(96);
    expect(countRowsToGenerate(specific(result.specificRows), sheet)).toBe(96);
    expect(MergeRequestSchema.shape.rowsData.parse({ specificRowsNumbers: result.specificRows })).toBeTruthy();
  });

  it('keeps a narrower selection and takes only its flagged rows out', () => {
    expect(excludeFlagged({ ...ALL_ROWS, mode: 'range', startRow: 4, endRow: 8 }, sheet, [2, 5, 7])).toEqual({ kind: 'rows', specificRows: '4, 6, 8', count: 3, excluded: 2 });
    expect(excludeFlagged(specific('2-3, 7, 9'), sheet, [2, 5, 7])).toEqual({ kind: 'rows', specificRows: '3, 9', count: 2, excluded: 2 });
  });

  it('says when nothing is to exclude, nothing would be left, or the list is too long for a merge request', () => {
    expect(excludeFlagged(specific('3-4'), sheet, [2, 5])).toEqual({ kind: 'nothing-to-exclude' });
    expect(excludeFlagged(specific('2, 5'), sheet, [2, 5])).toEqual({ kind: 'no-rows-left' });
    // Every other row of 100,000 flagged: the list would be far over the merge request's 10,000 characters.
    const big = { firstRow: 2, lastRow: 100_001 };
    const flagged = Array.from({ length: 50_000 }, (_, index) => 2 + index * 2);
    const result = excludeFlagged(ALL_ROWS, big, flagged);
    expect(result.kind).toBe('too-long');
  });

  it('counts the flagged rows the selection still makes (step 4)', () => {
    expect(flaggedInSelection(ALL_ROWS, sheet, [2, 5, 7])).toBe(3);
    expect(flaggedInSelection(specific('3-4, 6, 8-100'), sheet, [2, 5, 7])).toBe(0);
    expect(flaggedInSelection({ ...ALL_ROWS, mode: 'range', startRow: 5, endRow: 6 }, sheet, [2, 5, 7])).toBe(1);
    expect(flaggedInSelection(ALL_ROWS, sheet, [])).toBe(0);
  });
});

describe('visibleValue', () => {
  it('shows spaces at the ends and invisible characters', () => {
    expect(visibleValue('  Ada ')).toBe('␣␣Ada␣');
    expect(visibleValue('Ada Lovelace')).toBe('Ada Lovelace');
    expect(visibleValue('ab\u200Bc')).toBe('ab⟨U+200B⟩c');
    expect(visibleValue('\uFEFFx\u00A0')).toBe('⟨U+FEFF⟩x⟨U+00A0⟩');
    expect(visibleValue('   ')).toBe('␣␣␣');
    expect(visibleValue('')).toBe('');
  });
});
