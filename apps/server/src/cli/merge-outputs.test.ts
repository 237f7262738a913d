/**
 * `sheaf merge` run as a child process: the .zip of one PDF per row, the combined PDF, row selection,
 * header rows, every spreadsheet format, and --help. Outputs are checked with unzip, qpdf and poppler.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { PlaceholderInput } from '@sheaf/shared';
import { FILE_NAME_LABELS, HEADER_ROW_3, NUMBERED, PEOPLE, PEOPLE_FILES } from '../../../../scripts/fixtures/cli.ts';
import { filesIn, fixture, pageCount, pdfText, qpdfCheck, scratch, sheaf, textPlaceholder, tool, unzip, writeJson } from './test-support.ts';

const TEMPLATE = fixture('corpus/classic-xref.pdf');
const TEMPLATE_TEXT = 'CORPUS-CLASSIC-XREF';
const TEMPLATE_PAGES = 2;

/** What each people row must show: its names, city and amount formatted with two decimals. */
const PEOPLE_TEXTS = PEOPLE.map(([, first, last, city]) => [first, last, city]);
const AMOUNTS = ['1,250.50', '980.00', '43.25'];

const PEOPLE_PLACEHOLDERS: PlaceholderInput[] = [
  textPlaceholder('first', 'First', 0.2),
  textPlaceholder('last', 'Last', 0.25),
  textPlaceholder('city', 'City', 0.3),
  textPlaceholder('amount', 'Amount', 0.35, { type: 'number', typeSettings: { numberFormat: { style: 'decimal', decimals: 2, locale: 'en-US' } } }),
];

let work: Awaited<ReturnType<typeof scratch>>;
let peoplePlaceholders: string;
let firstLastPlaceholders: string;
let labelPlaceholders: string;

beforeAll(async () => {
  work = await scratch('outputs');
  peoplePlaceholders = await writeJson(work.dir, 'people.json', PEOPLE_PLACEHOLDERS);
  firstLastPlaceholders = await writeJson(work.dir, 'first-last.json', PEOPLE_PLACEHOLDERS.slice(0, 2));
  labelPlaceholders = await writeJson(work.dir, 'label.json', [textPlaceholder('label', 'Label', 0.2)]);
});

afterAll(async () => {
  await work?.remove();
});

// One concurrent root: every test's child processes overlap (two at a time, see test-support.ts).
describe.concurrent('sheaf merge outputs', () => {
  describe('one PDF per row in a .zip', () => {
    it('names entries from --file-name and fills each PDF with its own row only', async ({ expect }) => {
      const dir = await work.sub('separate');
      const out = path.join(dir, 'letters.zip');
      const run = await sheaf(['merge', TEMPLATE, fixture(PEOPLE_FILES.csv), '--placeholders', peoplePlaceholders, '--out', out, '--file-name', '{{Last}}-{{First}}']);

      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`3 documents -> ${out}`);
      expect(await filesIn(dir)).toEqual(['letters.zip']);
      expect(tool('unzip', ['-t', out]).stdout).toContain('No errors detected');
      // PDFs are compressed already: every entry is stored, none deflated.
      const listing = tool('zipinfo', [out]).stdout.split('\n').filter((line) => line.endsWith('.pdf'));
      expect(listing).toHaveLength(3);
      for (const line of listing) expect(line).toMatch(/ stor /);

      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toEqual(['Lovelace-Ada.pdf', 'Turing-Alan.pdf', 'Hopper-Grace.pdf']);
      names.forEach((name, row) => {
        const file = path.join(dir, 'x', name);
        expect(qpdfCheck(file).code, name).toBe(0);
        expect(pageCount(file)).toBe(TEMPLATE_PAGES);
        const text = pdfText(file, { page: 1 });
        for (const value of [TEMPLATE_TEXT, ...PEOPLE_TEXTS[row]!, AMOUNTS[row]!]) expect(text, name).toContain(value);
        for (const other of PEOPLE_TEXTS.filter((_, index) => index !== row)) expect(text, name).not.toContain(other[1]);
      });
    });

    it('makes file names safe on every system and unique, falling back to the row number', async ({ expect }) => {
      const dir = await work.sub('names');
      const out = path.join(dir, 'named.zip');
      const placeholders = await writeJson(dir, 'first.json', [textPlaceholder('first', 'First', 0.2)]);
      const run = await sheaf(['merge', TEMPLATE, fixture(FILE_NAME_LABELS.file), '--placeholders', placeholders, '--out', out, '--file-name', '{{Label}}']);

      expect(run.code, run.stderr).toBe(0);
      const names = unzip(out, path.join(dir, 'x'));
      // Labels: Smith/Jones, smith/jones, CON, ?*:, "Zoë: report" (rows 2 to 6).
      expect(names).toEqual(['Smith-Jones.pdf', 'smith-jones (2).pdf', '_CON.pdf', 'document-5.pdf', 'Zoë- report.pdf']);
      expect(FILE_NAME_LABELS.labels).toHaveLength(names.length);
      names.forEach((name, index) => expect(pdfText(path.join(dir, 'x', name))).toContain(`Person${index + 2}`));
    });

    it('--rows takes Excel row numbers, drops malformed items and the header row', async ({ expect }) => {
      const dir = await work.sub('rows');
      const out = path.join(dir, 'rows.zip');
      const run = await sheaf(['merge', TEMPLATE, fixture(NUMBERED.file), '--placeholders', labelPlaceholders, '--out', out, '--file-name', '{{Label}}', '--rows', '1, 3, 5-12, x, 14-']);

      expect(run.code, run.stderr).toBe(0);
      const expected = [3, 5, 6, 7, 8, 9, 10, 11, 12].map((row) => `row-${row}`);
      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toEqual(expected.map((label) => `${label}.pdf`));
      for (const label of expected) expect(pdfText(path.join(dir, 'x', `${label}.pdf`))).toContain(label);
    });

    it('--header-row 3 reads the headings of row 3 and numbers documents by Excel row', async ({ expect }) => {
      const dir = await work.sub('header');
      const out = path.join(dir, 'staff.zip');
      const withHeaderRow = await sheaf(['merge', TEMPLATE, fixture(HEADER_ROW_3.file), '--placeholders', firstLastPlaceholders, '--out', out, '--header-row', '3']);

      expect(withHeaderRow.code, withHeaderRow.stderr).toBe(0);
      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toEqual(['document-4.pdf', 'document-5.pdf']);
      HEADER_ROW_3.rows.forEach((person, index) => {
        const text = pdfText(path.join(dir, 'x', names[index]!));
        for (const value of person) expect(text).toContain(value);
        expect(text).not.toContain(HEADER_ROW_3.title);
      });
    });
  });

  describe('--combined', () => {
    it('writes rows x template pages from a .csv, each row on its own pages in sheet order', async ({ expect }) => {
      const dir = await work.sub('combined');
      const out = path.join(dir, 'all.pdf');
      const run = await sheaf(['merge', TEMPLATE, fixture(PEOPLE_FILES.csv), '--placeholders', peoplePlaceholders, '--out', out, '--combined']);

      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`3 rows -> ${out}`);
      expect(await filesIn(dir)).toEqual(['all.pdf']);
      expect(qpdfCheck(out).code).toBe(0);
      expect(pageCount(out)).toBe(PEOPLE.length * TEMPLATE_PAGES);
      PEOPLE_TEXTS.forEach((values, row) => {
        const first = pdfText(out, { page: row * TEMPLATE_PAGES + 1 });
        for (const value of [TEMPLATE_TEXT, ...values, AMOUNTS[row]!]) expect(first).toContain(value);
        const second = pdfText(out, { page: row * TEMPLATE_PAGES + 2 });
        expect(second).toContain('Page 2 of 2');
        expect(second).not.toContain(values[0]);
      });
    });
  });

  describe('reads every spreadsheet format (.csv: the test above)', () => {
    it.for(Object.entries(PEOPLE_FILES).filter(([format]) => format !== 'csv'))('.%s', async ([format, file], { expect }) => {
      const dir = await work.sub(format);
      const out = path.join(dir, `${format}.pdf`);
      const run = await sheaf(['merge', TEMPLATE, fixture(file), '--placeholders', peoplePlaceholders, '--out', out, '--combined']);

      expect(run.code, run.stderr).toBe(0);
      expect(pageCount(out)).toBe(PEOPLE.length * TEMPLATE_PAGES);
      PEOPLE_TEXTS.forEach((values, row) => {
        const text = pdfText(out, { page: row * TEMPLATE_PAGES + 1 });
        for (const value of [...values, AMOUNTS[row]!]) expect(text, `${format} row ${row + 2}`).toContain(value);
      });
    });
  });

  describe('--help', () => {
    it('lists every option of merge and exits 0', async ({ expect }) => {
      const merge = await sheaf(['merge', '--help']);
      expect(merge.code).toBe(0);
      const options = ['--placeholders', '--out', '--combined', '--rows', '--header-row', '--file-name', '--password-read', '--password-modify',
        '--template-password', '--flatten', '--repair', '--placeholders-only', '--no-compress', '--watermark', '--fonts', '--images'];
      for (const option of options) expect(merge.stdout).toContain(`${option} `);
      expect(merge.stdout).toContain('Usage: sheaf merge [options] <template> <data>');
    });
  });
});
