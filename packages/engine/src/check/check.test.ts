/**
 * The data check's rules (docs/data-check.md), one at a time: a sheet of clean rows with one planted
 * problem must give exactly that problem, at its row and column, with its fix where one can be told;
 * the clean rows give nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PlaceholderSchema, type DataIssue, type PlaceholderInput } from '@sheaf/shared';
import { loadBundledFallbackFonts } from '../node/fonts.ts';
import { sheetFromTable } from '../sheet/table.ts';
import type { CellValue, SheetData } from '../sheet/types.ts';
import type { FallbackFonts } from '../merge/types.ts';
import type { DocxField } from '../docx/compile.ts';
import { createDataCheck, profileOf, rowsOfSheet, type CheckedEmail, type DataCheckInput } from './index.ts';

let fallback: FallbackFonts;
beforeAll(async () => {
  fallback = await loadBundledFallbackFonts();
});

const PAGE = { width: 612, height: 792 };
const ROWS = 30;

function placeholder(input: Partial<PlaceholderInput> & Pick<PlaceholderInput, 'column'>) {
  return PlaceholderSchema.parse({ id: input.column, pageNumber: 1, relativeX: 0.1, relativeY: 0.3, relativeWidth: 0.6, relativeHeight: 0.05, relativeFontSize: 0.02, ...input });
}

/** `ROWS` rows of `clean(n)` (n from 0; Excel row n + 2), with `planted` replacing cells of some rows. */
function table(headers: string[], clean: (n: number) => CellValue[], planted: Record<number, Record<string, CellValue>> = {}) {
  const rows = Array.from({ length: ROWS }, (_, n) => {
    const row = clean(n);
    for (const [column, value] of Object.entries(planted[n + 2] ?? {})) row[headers.indexOf(column)] = value;
    return row;
  });
  return sheetFromTable(headers, rows);
}

type Found = [row: number, column: string, code: string, expected: string];

/** Every issue of every row, as [row, column, code, expected_value]. */
function check(input: Omit<DataCheckInput, 'sheet' | 'fonts'> & { sheet: SheetData; rows?: number[]; fonts?: boolean }): { found: Found[]; issues: DataIssue[] } {
  const { fonts, sheet, rows, ...rest } = input;
  const dataCheck = createDataCheck({ ...rest, sheet: profileOf(sheet), fonts: fonts === false ? undefined : { custom: new Map(), fallback } });
  const indices = rows ?? Array.from({ length: sheet.rowCount }, (_, i) => i);
  const issues = [...dataCheck.headerIssues];
  for (const row of rowsOfSheet(sheet, indices)) issues.push(...dataCheck.row(row)); // a row is valid until the next is taken
  return { issues, found: issues.map((issue) => [issue.row_number, issue.column_name, issue.code, issue.expected_value]) };
}

const pdf = (...placeholders: ReturnType<typeof placeholder>[]) => ({ kind: 'pdf' as const, placeholders, pages: [PAGE] });
const NO_TEMPLATE = pdf();
const EMAIL: CheckedEmail = { subject: '', content: '', recipientsColumn: null, ccColumn: null, bccColumn: null, replyTo: '' };

describe('values the template needs', () => {
  const headers = ['Name', 'City', 'Pin', 'Email'];
  const clean = (n: number): CellValue[] => [`Name${n}`, `City${n}`, `P${n}`, `p${n}@example.com`];

  it('a placeholder\'s empty cell, once per column and code however many placeholders use it', () => {
    const sheet = table(headers, clean, { 5: { Name: '' }, 9: { City: '   ' } });
    const template = pdf(placeholder({ column: 'Name' }), placeholder({ column: 'Name', relativeY: 0.5 }), placeholder({ column: 'City', pageNumber: 1 }));
    expect(check({ sheet, template }).found).toEqual([[5, 'Name', 'check/missing-placeholder', ''], [9, 'City', 'check/missing-placeholder', '']]);
    expect(check({ sheet, template }).issues[0]).toMatchObject({ kind: 'missing', params: { page: 1 }, description: 'The placeholder on page 1 needs a value, but this row has none.' });
  });

  it('a signature field needs no value', () => {
    const sheet = table(headers, clean, { 5: { Name: '' } });
    expect(check({ sheet, template: pdf(placeholder({ column: 'Name', type: 'eSignature' })) }).found).toEqual([]);
  });

  it('the file name, the passwords, the subject, the message and the recipients', () => {
    const sheet = table(headers, clean, { 3: { Name: '' }, 4: { Pin: '' }, 6: { City: '' }, 7: { Email: '' } });
    const { found } = check({
      sheet, template: NO_TEMPLATE, fileNamePattern: 'Letter {{Name}}', passwords: ['x{{Pin}}'],
      email: { ...EMAIL, subject: 'For {{ Name }}', content: '<p>From {{City}}</p>', recipientsColumn: 'Email' },
    });
    expect(found).toEqual([
      [3, 'Name', 'check/missing-file-name', ''], [3, 'Name', 'check/missing-subject', ''],
      [4, 'Pin', 'check/missing-password', ''],
      [6, 'City', 'check/missing-content', ''],
      [7, 'Email', 'check/missing-recipient', ''],
    ]);
  });

  it('a column the template names that the sheet lacks: once, at the header row', () => {
    const sheet = table(headers, clean);
    const { found } = check({ sheet, template: pdf(placeholder({ column: 'Fax' }), placeholder({ column: 'Fax', relativeY: 0.6 })), fileNamePattern: '{{Fax}} {{Zip}}' });
    expect(found).toEqual([[1, 'Fax', 'check/column-missing', ''], [1, 'Zip', 'check/column-missing', '']]);
  });

  it('Word templates: tags and MERGEFIELDs need a value, sections test for one', () => {
    const fields: DocxField[] = [
      { kind: 'tag', column: 'Name', text: '{{Name}}' }, { kind: 'mergefield', column: 'City', text: 'MERGEFIELD City' }, { kind: 'if', column: 'Pin', text: '{{#if Pin}}' },
    ];
    const sheet = table(headers, clean, { 4: { Name: '' }, 5: { City: '' }, 6: { Pin: '' } });
    expect(check({ sheet, template: { kind: 'word', fields } }).found).toEqual([[4, 'Name', 'check/missing-word-field', ''], [5, 'City', 'check/missing-word-field', '']]);
  });
});

describe('numbers and dates the format cannot read', () => {
  const headers = ['Amount', 'Due'];
  const clean = (n: number): CellValue[] => [`${n + 1}.234,5`, `0${(n % 9) + 1}/03/2024`];
  const amount = placeholder({ column: 'Amount', type: 'number', typeSettings: { numberFormat: { locale: 'de-DE' } } });
  const due = placeholder({ column: 'Due', type: 'date', typeSettings: { dateFormat: { locale: 'en-GB' } }, relativeY: 0.6 });

  it('a number placeholder: unreadable, or a number with stray letters and the number it meant', () => {
    const sheet = table(headers, clean, { 4: { Amount: 'ask Bob' }, 8: { Amount: '1.2O4,5' }, 9: { Amount: '12,5x' } });
    expect(check({ sheet, template: pdf(amount) }).found).toEqual([
      [4, 'Amount', 'check/number-unreadable', ''], [8, 'Amount', 'check/number-with-letters', '1.204,5'], [9, 'Amount', 'check/number-with-letters', '12,5'],
    ]);
  });

  it('a date placeholder: unreadable, or a date that does not exist and the nearest real one', () => {
    const sheet = table(headers, clean, { 5: { Due: 'next week' }, 6: { Due: '31/02/2024' }, 7: { Due: '2023-02-29' } });
    expect(check({ sheet, template: pdf(due) }).found).toEqual([
      [5, 'Due', 'check/date-unreadable', ''], [6, 'Due', 'check/date-impossible', '29/02/2024'], [7, 'Due', 'check/date-impossible', '2023-02-28'],
    ]);
  });

  it('agrees with the formatter: what it prints (a real number, a real date) is not flagged', () => {
    const sheet = sheetFromTable(headers, [[12.5, new Date(Date.UTC(2024, 1, 29))], ['(1.234,50 €)', '5 March 2024'], ['25 %', '2024-03-05T10:00']]);
    expect(check({ sheet, template: pdf(amount, due) }).found).toEqual([]);
  });
});

describe('Word MERGEFIELDs with a \\# or \\@ picture', () => {
  const headers = ['Amount', 'Due', 'Name'];
  const clean = (n: number): CellValue[] => [n * 10.5, `2024-03-${String((n % 28) + 1).padStart(2, '0')}`, `Name ${n}`];
  const fields: DocxField[] = [
    { kind: 'mergefield', column: 'Amount', text: 'MERGEFIELD Amount \\# "€#,##0.00"' },
    { kind: 'mergefield', column: 'Due', text: 'MERGEFIELD Due \\@ "dd.MM.yyyy"' },
    { kind: 'tag', column: 'Name', text: '{{Name}}' },
  ];

  it('a value the picture cannot read, at its row and column, with the picture it expected', () => {
    const sheet = table(headers, clean, { 4: { Amount: 'ask Bob' }, 5: { Amount: '12O5' }, 6: { Due: 'next week' }, 7: { Due: '2023-02-30' }, 8: { Name: 'not a number' } });
    const { found, issues } = check({ sheet, template: { kind: 'word', fields } });
    expect(found).toEqual([
      [4, 'Amount', 'check/word-number-unreadable', ''], [5, 'Amount', 'check/number-with-letters', '1205'],
      [6, 'Due', 'check/word-date-unreadable', ''], [7, 'Due', 'check/date-impossible', '2023-02-28'],
    ]);
    expect(issues[0]).toMatchObject({ kind: 'format', params: { field: 'Amount', picture: '€#,##0.00' }, description: 'The field "Amount" shows a number as "€#,##0.00", but this value is not one.' });
    expect(issues[2]).toMatchObject({ kind: 'format', params: { field: 'Due', picture: 'dd.MM.yyyy' } });
  });

  it('reads as the merge reads: numbers as text, Excel dates, and the merge\'s locale', () => {
    const sheet = sheetFromTable(headers, [['1,234.50', new Date(Date.UTC(2024, 1, 29)), 'A'], ['42', 'March 5, 2024', 'B']]);
    expect(check({ sheet, template: { kind: 'word', fields } }).found).toEqual([]);
    // The merge's locale reads German writing.
    const german = sheetFromTable(headers, [['1.234,50', '05.03.2024', 'A'], ['12,5', '5. März 2024', 'B'], ['zwölf', '05.03.2024', 'C']]);
    expect(check({ sheet: german, template: { kind: 'word', fields, locale: 'de-DE' } }).found).toEqual([[4, 'Amount', 'check/word-number-unreadable', '']]);
  });

  it('a field without a picture, or a {{tag}} (tags have no formats), has no format to read: only its column\'s type speaks', () => {
    const plain: DocxField[] = [{ kind: 'mergefield', column: 'Amount', text: 'MERGEFIELD Amount \\* Upper' }, { kind: 'tag', column: 'Due', text: '{{Due}}' }];
    const sheet = table(headers, clean, { 4: { Amount: 'ask Bob' }, 6: { Due: 'next week' } });
    expect(check({ sheet, template: { kind: 'word', fields: plain } }).found).toEqual([[4, 'Amount', 'check/outlier-number', ''], [6, 'Due', 'check/outlier-date', '']]);
  });
});

describe('images and QR codes', () => {
  const headers = ['Photo', 'Link'];
  const clean = (n: number): CellValue[] => [n % 2 ? 'Logo.PNG' : 'portrait', `https://example.com/${n}`];

  it('an image the row names that was not uploaded, with the closest uploaded name', () => {
    const sheet = table(headers, clean, { 6: { Photo: 'portrat.jpg' }, 8: { Photo: 'banner.png' } });
    const { found } = check({ sheet, template: pdf(placeholder({ column: 'Photo', type: 'image' })), imageNames: ['logo.png', 'portrait.jpeg'] });
    expect(found).toEqual([[6, 'Photo', 'check/image-missing', 'portrait.jpeg'], [8, 'Photo', 'check/image-missing', '']]);
  });

  it('a text too long for a QR code at the placeholder\'s error correction', () => {
    const sheet = table(headers, clean, { 10: { Link: 'x'.repeat(1400) } });
    expect(check({ sheet, template: pdf(placeholder({ column: 'Link', type: 'qrcode', typeSettings: { errorCorrection: 'H' } })) }).found).toEqual([[10, 'Link', 'check/qr-too-long', '']]);
    expect(check({ sheet, template: pdf(placeholder({ column: 'Link', type: 'qrcode', typeSettings: { errorCorrection: 'L' } })) }).found).toEqual([]);
  });

  it('Word picture tags', () => {
    const fields: DocxField[] = [{ kind: 'image', column: 'Photo', text: '{{%image Photo}}' }, { kind: 'qr', column: 'Link', text: '{{%qr Link}}' }];
    const sheet = table(headers, clean, { 4: { Photo: 'nobody.png' }, 5: { Link: 'y'.repeat(3000) } });
    expect(check({ sheet, template: { kind: 'word', fields }, imageNames: ['logo.png', 'portrait.jpg'] }).found).toEqual([
      [4, 'Photo', 'check/image-missing', ''], [5, 'Link', 'check/qr-too-long', ''],
    ]);
  });
});

describe('layout, as the engine lays text out', () => {
  const headers = ['Text'];
  const clean = (n: number): CellValue[] => [`Short text ${n}`];
  const long = Array.from({ length: 60 }, () => 'word').join(' ');

  it('text that wraps past the bottom of its box', () => {
    const sheet = table(headers, clean, { 7: { Text: long } });
    const { found, issues } = check({ sheet, template: pdf(placeholder({ column: 'Text' })) });
    expect(found).toEqual([[7, 'Text', 'check/text-overflow', '']]);
    expect(issues[0]).toMatchObject({ kind: 'layout', params: { page: 1 } });
  });

  it('shrunk to fit: only what does not fit even at the smallest size', () => {
    const sheet = table(headers, clean, { 7: { Text: long }, 9: { Text: long.repeat(20) } });
    const { found, issues } = check({ sheet, template: pdf(placeholder({ column: 'Text', typeSettings: { shrinkToFit: true } })) });
    expect(found).toEqual([[9, 'Text', 'check/text-overflow-shrunk', '']]);
    expect(issues[0]!.params).toEqual({ page: 1, minSize: 4 });
  });

  it('a line too wide when the placeholder does not wrap; one line is never too tall', () => {
    const sheet = table(headers, clean, { 7: { Text: long } });
    expect(check({ sheet, template: pdf(placeholder({ column: 'Text', typeSettings: { wrap: false } })) }).found).toEqual([[7, 'Text', 'check/text-overflow', '']]);
    // A box lower than one line of its font: the editor shows it so; a short value is fine.
    expect(check({ sheet: table(headers, clean), template: pdf(placeholder({ column: 'Text', relativeHeight: 0.005 })) }).found).toEqual([]);
  });

  it('characters neither the chosen font nor the fallback can print', () => {
    const sheet = table(headers, clean, { 5: { Text: 'Zoë – 東京' }, 6: { Text: 'Ελλάδα, Россия, ✓' } });
    const { found, issues } = check({ sheet, template: pdf(placeholder({ column: 'Text', fontFamily: 'Times New Roman' })) });
    expect(found).toEqual([[5, 'Text', 'check/glyph-missing', 'Zoë –']]);
    expect(issues[0]!.params).toEqual({ page: 1, chars: '東 京' });
  });

  it('is skipped without fonts (what the layout checks need)', () => {
    const sheet = table(headers, clean, { 7: { Text: long } });
    expect(check({ sheet, template: pdf(placeholder({ column: 'Text' })), fonts: false }).found).toEqual([]);
  });
});

describe('addresses', () => {
  const headers = ['To', 'Cc', 'Bcc', 'ReplyTo', 'Team'];
  const clean = (n: number): CellValue[] => [`Person ${n} <p${n}@example.com>`, `c${n}@example.org; d${n}@example.org`, `b${n}@example.net`, `r${n}@example.com`, `T${n}`];
  const email = { ...EMAIL, recipientsColumn: 'To', ccColumn: 'Cc', bccColumn: 'Bcc', replyTo: '{{ReplyTo}}' };

  it('addresses against the spec\'s rule and its top-level domains, with the fix when it can be told', () => {
    const sheet = table(headers, clean, {
      3: { To: 'p3@example.cmo' }, 4: { Cc: 'c4@example.org, not an address' }, 5: { Bcc: 'b5 @example.net' }, 6: { ReplyTo: 'r6@example.com, r7@example.com' },
      7: { To: 'p7@hotmial.com' }, 8: { Cc: 'c8@example,org' },
    });
    expect(check({ sheet, template: NO_TEMPLATE, email }).found).toEqual([
      [3, 'To', 'check/email-invalid', 'p3@example.com'],
      [4, 'Cc', 'check/email-invalid', ''],
      [5, 'Bcc', 'check/email-invalid', 'b5@example.net'],
      [6, 'ReplyTo', 'check/email-invalid', ''],
      [7, 'To', 'check/email-typo', 'p7@hotmail.com'],
      [8, 'Cc', 'check/email-invalid', 'c8@example.org'],
    ]);
  });

  it('the same recipient on two rows, compared without case; not within one document group', () => {
    const sheet = table(headers, clean, { 9: { To: 'P2@Example.com' }, 12: { To: 'p3@example.com, p4@example.com' } });
    const { found, issues } = check({ sheet, template: NO_TEMPLATE, email });
    expect(found).toEqual([[9, 'To', 'check/duplicate-recipient', ''], [12, 'To', 'check/duplicate-recipient', '']]);
    expect(issues[0]!.params).toEqual({ firstRow: 4 });
    // Grouped by Team ("multiple"): rows of one group are one message.
    const grouped = table(headers, (n) => [`lead${Math.floor(n / 3)}@example.com`, '', '', '', `T${Math.floor(n / 3)}`], { 20: { To: 'lead0@example.com' } });
    const template = pdf(placeholder({ column: 'Team', type: 'multiple' }));
    expect(check({ sheet: grouped, template, email: { ...EMAIL, recipientsColumn: 'To' } }).found).toEqual([[20, 'To', 'check/duplicate-recipient', '']]);
  });

  it('no address rule where no email is sent', () => {
    const sheet = table(headers, clean, { 3: { To: 'p3@example.cmo' }, 9: { To: 'Person 2 <p2@example.com>' } });
    expect(check({ sheet, template: NO_TEMPLATE }).found).toEqual([]);
  });
});

describe('values alone, with no template settings at all', () => {
  it('stray spaces and invisible characters, with the value cleaned; meant ones are left alone', () => {
    const headers = ['Name', 'Amount', 'Emoji'];
    const sheet = table(headers, (n) => [`Name ${n}\nsecond line`, `1\u00a023${n},50`, 'family 👨\u200d👩\u200d👧'], {
      3: { Name: 'Anna ' }, 4: { Name: '\u00a0Bob' }, 5: { Name: 'Ca\u200brl' }, 6: { Name: 'Dan\u00adiel\t' }, 7: { Name: 'Eve\u0007' }, 8: { Name: ' ' },
    });
    expect(check({ sheet, template: NO_TEMPLATE }).found).toEqual([
      [3, 'Name', 'check/spaces', 'Anna'],
      [4, 'Name', 'check/invisible-characters', 'Bob'],
      [5, 'Name', 'check/invisible-characters', 'Carl'],
      [6, 'Name', 'check/invisible-characters', 'Daniel'],
      [7, 'Name', 'check/invisible-characters', 'Eve'],
      [8, 'Name', 'check/spaces', ''],
    ]);
  });

  it('dates that do not exist, in any column written like a date', () => {
    const sheet = table(['When', 'Note'], (n) => [`2024-01-${String(n + 1).padStart(2, '0')}`, `note ${n}`], {
      4: { When: '2023-02-29' }, 5: { Note: 'April 31, 2024' }, 6: { Note: '30 February 2024' }, 7: { Note: '02/30/2023' }, 8: { Note: '2023-13-01' },
    });
    expect(check({ sheet, template: NO_TEMPLATE }).found).toEqual([
      [4, 'When', 'check/date-impossible', '2023-02-28'],
      [5, 'Note', 'check/date-impossible', 'April 30, 2024'],
      [6, 'Note', 'check/date-impossible', '29 February 2024'],
      [7, 'Note', 'check/date-impossible', '02/28/2023'],
    ]);
  });

  it('a column of numbers, dates, addresses or yes/no values with a few that are not', () => {
    const headers = ['Score', 'Joined', 'Contact', 'Active', 'Code'];
    const clean = (n: number): CellValue[] => [n * 7, new Date(Date.UTC(2020, n % 12, 3)), `c${n}@example.com`, n % 2 === 0, `REF${n}`];
    const sheet = table(headers, clean, { 4: { Score: '1O5' }, 5: { Score: 'n/a' }, 6: { Joined: 'soon' }, 7: { Contact: 'John Smith' }, 8: { Active: 'maybe' }, 9: { Code: 'free text' } });
    const { found, issues } = check({ sheet, template: NO_TEMPLATE });
    expect(found).toEqual([
      [4, 'Score', 'check/number-with-letters', '105'],
      [5, 'Score', 'check/outlier-number', ''],
      [6, 'Joined', 'check/outlier-date', ''],
      [7, 'Contact', 'check/outlier-email', ''],
      [8, 'Active', 'check/outlier-boolean', ''],
    ]);
    expect(issues.map((issue) => issue.kind)).toEqual(['whitespace', 'outlier', 'outlier', 'outlier', 'outlier']);
    expect(createDataCheck({ sheet: profileOf(sheet), template: NO_TEMPLATE }).columnTypes).toEqual(['number', 'date', 'email', 'boolean', undefined]);
  });

  it('a column that is not mostly one type is left alone, and stops being flagged once it turns out mixed', () => {
    const mixed = sheetFromTable(['Value'], Array.from({ length: 100 }, (_, n) => [n % 3 ? n : `text ${n}`]));
    expect(check({ sheet: mixed, template: NO_TEMPLATE }).found).toEqual([]);
    // The first 1,000 rows are numbers, the next 1,000 text: the sample (spread over all rows) finds no type.
    const sorted = sheetFromTable(['Value'], Array.from({ length: 2_000 }, (_, n) => [n < 1_000 ? n : `text ${n}`]));
    expect(check({ sheet: sorted, template: NO_TEMPLATE }).found).toEqual([]);
    // Mostly numbers in the sample, but the unsampled rows are text: at most OUTLIER_FLOOR + a few, then silence.
    const rows: CellValue[][] = Array.from({ length: 5_000 }, (_, n) => [n]);
    for (let n = 1; n < 5_000; n += 2) rows[n] = [`code ${n}`];
    const outliers = check({ sheet: sheetFromTable(['Value'], rows), template: NO_TEMPLATE }).found.length;
    expect(outliers).toBeLessThanOrEqual(21);
  });

  it('checks only the rows asked for, with the same answers', () => {
    const sheet = table(['Name'], (n) => [`Name ${n}`], { 3: { Name: 'A ' }, 10: { Name: 'B ' } });
    expect(check({ sheet, template: NO_TEMPLATE, rows: [8] }).found).toEqual([[10, 'Name', 'check/spaces', 'B']]);
  });
});
