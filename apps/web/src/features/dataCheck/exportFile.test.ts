// @vitest-environment node
/**
 * The download: CSV cells quoted and neutralised, and the XLSX read back by SheetJS (an independent
 * reader) with every value as it was, control characters included.
 */
import { describe, expect, it } from 'vitest';
import { read, utils } from '@e965/xlsx';
import { unzipSync, strFromU8 } from 'fflate';
import type { DataIssue } from '@sheaf/shared';
import { exportFileName, exportTable, toCsvText, type ExportTable } from './exportFile.ts';
import { cellText, columnLetters, MAX_CELL_LENGTH, sheetName, xlsxBytes } from './xlsxWriter.ts';

const issue = (extra: Partial<DataIssue>): DataIssue => ({
  row_number: 2, column_name: 'Email', description: 'English text', actual_value: '', expected_value: '', kind: 'email', code: 'check/email-invalid', params: {}, ...extra,
});
const TEXTS = {
  header: { row: 'Row', column: 'Column', kind: 'Kind', problem: 'Problem', value: 'Value', suggestion: 'Suggestion' },
  kind: (item: DataIssue) => `kind:${item.kind}`,
  problem: (item: DataIssue) => `problem:${item.code}`,
};

describe('export table', () => {
  it('has the row, column, kind, problem (translated), value and suggestion of each issue', () => {
    const table = exportTable([issue({ row_number: 7, actual_value: 'ada@example', expected_value: 'ada@example.com' })], TEXTS);
    expect(table.header).toEqual(['Row', 'Column', 'Kind', 'Problem', 'Value', 'Suggestion']);
    expect(table.rows).toEqual([[7, 'Email', 'kind:email', 'problem:check/email-invalid', 'ada@example', 'ada@example.com']]);
  });
});

describe('CSV', () => {
  it('quotes commas, quotes and line breaks, neutralises formulas, starts with a byte-order mark', () => {
    const table: ExportTable = {
      header: ['Row', 'Value'],
      rows: [[3, 'Doe, "Jane"'], [4, 'two\nlines'], [5, '=HYPERLINK("x")'], [6, '+49 30 1234'], [7, '-5'], [8, '@SUM(A1)'], [9, 'Müller 张伟']],
    };
    const csv = toCsvText(table);
    expect(csv.startsWith('\uFEFFRow,Value\r\n')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Row,Value', '3,"Doe, ""Jane"""', '4,"two\nlines"', `5,"'=HYPERLINK(""x"")"`, "6,'+49 30 1234", "7,'-5", "8,'@SUM(A1)", '9,Müller 张伟', '',
    ]);
  });

  it('names the file after the sheet and the day', () => {
    const day = new Date(2026, 10, 5);
    expect(exportFileName('people.xlsx', 'csv', day)).toBe('data-check-people-2026-11-05.csv');
    expect(exportFileName('a/b:c?.csv', 'xlsx', day)).toBe('data-check-a_b_c_-2026-11-05.xlsx');
    expect(exportFileName('', 'csv', day)).toBe('data-check-2026-11-05.csv');
  });
});

describe('XLSX', () => {
  it('names columns and sheets the way Excel allows', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(sheetName('Data check: [1/2]*?')).toBe('Data check   1 2');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('[]')).toBe('Sheet1');
  });

  it('escapes what XML cannot hold as _xHHHH_, and a literal _xHHHH_ too', () => {
    expect(cellText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(cellText('bell\u0007')).toBe('bell_x0007_');
    expect(cellText('_x0041_')).toBe('_x005F_x0041_');
    expect(cellText('tab\tnew\nline')).toBe('tab\tnew\nline');
    expect(cellText('x'.repeat(MAX_CELL_LENGTH + 10))).toHaveLength(MAX_CELL_LENGTH);
  });

  it('reads back in SheetJS with every value as written', () => {
    const values = ['plain', '  spaced  ', 'zero\u200Bwidth', 'bell\u0007char', '=1+1', 'Müller 张伟 😀', 'a & <b>', 'literal _x0041_', 'line\nbreak', 'carriage\rreturn'];
    const table: ExportTable = { header: ['Row', 'Value'], rows: values.map((value, index) => [index + 2, value]) };
    const bytes = xlsxBytes(table, 'Data check');
    const workbook = read(bytes, { type: 'array' });
    expect(workbook.SheetNames).toEqual(['Data check']);
    const rows = utils.sheet_to_json<(string | number)[]>(workbook.Sheets['Data check']!, { header: 1, raw: true });
    expect(rows[0]).toEqual(['Row', 'Value']);
    expect(rows.slice(1).map((row) => row[0])).toEqual(values.map((_, index) => index + 2));
    expect(rows.slice(1).map((row) => row[1])).toEqual(values);
    // A formula-looking text is text, never a formula.
    expect(workbook.Sheets['Data check']!.B6).toMatchObject({ t: 's', v: '=1+1' });
    expect(workbook.Sheets['Data check']!.B6.f).toBeUndefined();
  });

  it('is a well-formed package: content types, relationships, a frozen bold header', () => {
    const files = unzipSync(xlsxBytes({ header: ['A'], rows: [[1]] }, 'S'));
    expect(Object.keys(files).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain('state="frozen"');
    expect(sheet).toContain('<c r="A1" s="1" t="inlineStr">');
    expect(sheet).toContain('<c r="A2"><v>1</v></c>');
  });
});
