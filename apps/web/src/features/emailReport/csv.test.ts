import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, toCsv, type CsvColumn } from './csv.ts';

interface Row { recipient: string; subject: string; count: number | null }
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'Recipient', value: (row) => row.recipient },
  { header: 'Subject', value: (row) => row.subject },
  { header: 'Count', value: (row) => row.count },
];

describe('email report CSV', () => {
  it('writes the given columns in order, joined by commas, one line per row', () => {
    const csv = toCsv(COLUMNS, [{ recipient: 'ada@example.com', subject: 'Invoice 7', count: 3 }, { recipient: 'bob@example.com', subject: 'Hi', count: null }]);
    expect(csv).toBe('Recipient,Subject,Count\r\nada@example.com,Invoice 7,3\r\nbob@example.com,Hi,\r\n');
    expect(toCsv(COLUMNS.slice(0, 1), [{ recipient: 'ada@example.com', subject: 'x', count: 1 }])).toBe('Recipient\r\nada@example.com\r\n');
  });

  it('neutralises spreadsheet formulas with a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Only the first character matters.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('ada+tag@example.com')).toBe('ada+tag@example.com');
  });

  it('doubles quotes and quotes fields with commas, quotes or line breaks', () => {
    expect(csvCell('Hello, world')).toBe('"Hello, world"');
    expect(csvCell('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('')).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('-5')).toBe("'-5");
  });

  it('names the file by the date', () => {
    expect(csvFileName(new Date(2026, 10, 5))).toBe('email-report-2026-11-05.csv');
  });
});
