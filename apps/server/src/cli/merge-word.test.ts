/**
 * `sheaf merge` with a Word template (docs/word-templates.md#command-line), as a child process: a
 * DOCX and an RTF (converted by LibreOffice) filled from a CSV into DOCX files, PDFs (one conversion
 * per batch, cut at the rows' bookmarks, checked by qpdf and pdftotext), a combined PDF, and the
 * refusals. The runs that need LibreOffice are skipped, saying so, where it is not installed.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { formatErrorMessage } from '@sheaf/shared';
import { buildDocx, cell, p, row, table } from '../../../../packages/engine/src/docx/test-docx.ts';
import { filesIn, pageCount, pdfText, qpdfCheck, scratch, sheaf, unzip, type Run } from './test-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');
if (!hasOffice) console.warn('merge-word.test.ts: the PDF and RTF runs are skipped: LibreOffice is not installed');

const PEOPLE = [
  ['Ada', 'Lovelace', 'London', 'Ada1'],
  ['Grace', 'Hopper', 'Arlington', 'Grace2'],
  ['Alan', 'Turing', 'Wilmslow', 'Alan3'],
] as const;
const CSV = `First,Last,City,Pass\n${PEOPLE.map((row) => row.join(',')).join('\n')}\n`;
/** RTF escapes braces: \{\{First\}\} is {{First}} in the document. */
const tag = (column: string) => String.raw`\{\{${column}\}\}`;
const LETTER_RTF = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Liberation Serif;}}
{\header\pard\plain City: ${tag('City')}\par}
\pard\plain Dear ${tag('First')} ${tag('Last')},\par
\pard\plain see you in ${tag('City')}.\par
}`;
const LETTER_DOCX = buildDocx({ body: p('Dear {{First}} {{Last}},') + p('see you in {{City}}.'), header: p('City: {{City}}') });
const UNKNOWN_FIELD_DOCX = buildDocx({ body: p('Call {{Phone}}') + p('soon.') });
const BY_CITY_DOCX = buildDocx({ body: p('Guests in {{City}}:') + table(row(cell(p('{{#each}}{{First}}')), cell(p('{{Last}}')))) });

let work: Awaited<ReturnType<typeof scratch>>;
const files = { csv: '', rtf: '', docx: '', unknown: '', byCity: '' };

beforeAll(async () => {
  work = await scratch('word');
  const write = async (name: string, content: string | Uint8Array) => {
    const file = path.join(work.dir, name);
    await writeFile(file, content);
    return file;
  };
  [files.csv, files.rtf, files.docx, files.unknown, files.byCity] = await Promise.all([
    write('people.csv', CSV), write('letter.rtf', LETTER_RTF), write('letter.docx', LETTER_DOCX), write('unknown.docx', UNKNOWN_FIELD_DOCX),
    write('by-city.docx', BY_CITY_DOCX),
  ]);
});

afterAll(async () => {
  await work?.remove();
});

/** Runs a merge into a fresh folder; returns the run, the output's path and what the folder holds. */
async function merge(name: string, template: string, out: string, options: string[] = []) {
  const dir = await work.sub(name);
  const file = path.join(dir, out);
  const run = await sheaf(['merge', template, files.csv, '--out', file, ...options]);
  return { dir, run, file, left: await filesIn(dir) };
}

/** The text of a DOCX's body and headers, tags stripped. */
const docxText = (bytes: Uint8Array) =>
  Object.entries(unzipSync(bytes)).filter(([name]) => /^word\/(document|header\d*|sheaf-watermark)\.xml$/.test(name)).map(([, data]) => strFromU8(data)).join('\n');

function expectRefused({ run, left }: { run: Run; left: string[] }, message: string, expect: ExpectStatic): void {
  expect(run.stderr).toBe(`sheaf: ${message}\n`);
  expect(run.code).toBe(1);
  expect(left).toEqual([]);
}

// One concurrent root: every test's child processes overlap (two at a time, see test-support.ts).
describe.concurrent('sheaf merge with a Word template', () => {
  it('fills a DOCX into one DOCX per row, named by --file-name, each with its own values', async ({ expect }) => {
    const { run, file } = await merge('docx', files.docx, 'out.zip', ['--output', 'docx', '--file-name', '{{Last}}']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^3 documents -> .*out\.zip/);
    const documents = unzipSync(new Uint8Array(await readFile(file)));
    expect(Object.keys(documents)).toEqual(PEOPLE.map(([, last]) => `${last}.docx`));
    for (const [first, last, city] of PEOPLE) {
      const text = docxText(documents[`${last}.docx`]!).replace(/<[^>]+>/g, '');
      expect(text).toContain(`Dear ${first} ${last},`);
      expect(text).toContain(`City: ${city}`);
      for (const [other] of PEOPLE.filter(([name]) => name !== first)) expect(text).not.toContain(other);
    }
  });

  it('makes one document per value of --group-by, its {{#each}} table row repeated for each of the group\'s rows', async ({ expect }) => {
    const { run, file } = await merge('group', files.byCity, 'out.zip', ['--output', 'docx', '--group-by', 'City', '--rows', '2-3', '--file-name', '{{City}}']);
    expect(run.code, run.stderr).toBe(0);
    const documents = unzipSync(new Uint8Array(await readFile(file)));
    expect(Object.keys(documents)).toEqual(['London.docx', 'Arlington.docx']);
    expect(docxText(documents['Arlington.docx']!).replace(/<[^>]+>/g, ' ')).toMatch(/Guests in Arlington:\s+Grace\s+Hopper/);
  });

  it('stamps --watermark into the headers of DOCX output as Word\'s WordArt watermark', async ({ expect }) => {
    const { run, file } = await merge('watermark', files.docx, 'out.docx', ['--output', 'docx', '--combined', '--watermark', 'Draft & private']);
    expect(run.code, run.stderr).toBe(0);
    const xml = docxText(new Uint8Array(await readFile(file)));
    expect(xml).toContain('id="PowerPlusWaterMarkObject');
    expect(xml).toContain('string="Draft &amp; private"');
  });

  it.skipIf(!hasOffice)('converts an RTF and makes one sound PDF per row holding only that row\'s values', { timeout: 180_000 }, async ({ expect }) => {
    const { dir, run, file } = await merge('rtf-pdf', files.rtf, 'out.zip', ['--file-name', '{{First}}']);
    expect(run.code, run.stderr).toBe(0);
    const pdfs = unzip(file, path.join(dir, 'x'));
    expect(pdfs).toEqual(PEOPLE.map(([first]) => `${first}.pdf`));
    for (const [first, last, city] of PEOPLE) {
      const pdf = path.join(dir, 'x', `${first}.pdf`);
      expect(qpdfCheck(pdf).code, first).toBe(0);
      const text = pdfText(pdf);
      expect(text).toContain(`Dear ${first} ${last},`);
      expect(text).toContain(`City: ${city}`);
      for (const [other] of PEOPLE.filter(([name]) => name !== first)) expect(text).not.toContain(other);
    }
  });

  it.skipIf(!hasOffice)('protects each PDF of a DOCX with its row\'s read password and the modify password', { timeout: 180_000 }, async ({ expect }) => {
    const { dir, run, file } = await merge('passwords', files.docx, 'out.zip', ['--file-name', '{{First}}', '--password-read', '{{Pass}}', '--password-modify', 'Boss1']);
    expect(run.code, run.stderr).toBe(0);
    unzip(file, path.join(dir, 'x'));
    for (const [first, last, , password] of PEOPLE) {
      const pdf = path.join(dir, 'x', `${first}.pdf`);
      expect(qpdfCheck(pdf).stderr, first).toContain('invalid password');
      expect(qpdfCheck(pdf, password).code, first).toBe(0);
      expect(qpdfCheck(pdf, 'Boss1').code, first).toBe(0);
      expect(pdfText(pdf, { password })).toContain(`Dear ${first} ${last},`);
    }
  });

  it.skipIf(!hasOffice)('makes one combined PDF of the rows chosen with --rows, a page each', { timeout: 180_000 }, async ({ expect }) => {
    const { run, file } = await merge('combined', files.rtf, 'all.pdf', ['--combined', '--rows', '2, 4']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^2 rows -> .*all\.pdf/);
    expect(qpdfCheck(file).code).toBe(0);
    expect(pageCount(file)).toBe(2);
    expect(pdfText(file, { page: 1 })).toContain('Dear Ada Lovelace,');
    expect(pdfText(file, { page: 2 })).toContain('Dear Alan Turing,');
    expect(pdfText(file)).not.toContain('Grace');
  });

  describe('refuses with the catalogue message, exit 1 and no file written', () => {
    it('a field that names no heading', async ({ expect }) => {
      const message = formatErrorMessage('merge/word-field-unknown', { column: 'Phone' });
      const [docx, pdf] = await Promise.all([merge('unknown-docx', files.unknown, 'out.zip', ['--output', 'docx']), merge('unknown-pdf', files.unknown, 'out.zip')]);
      expectRefused(docx, message, expect);
      expectRefused(pdf, message, expect);
    });

    it('passwords with DOCX output, which Sheaf cannot protect', async ({ expect }) => {
      const detail = '--password-read and --password-modify protect PDF output only; DOCX files cannot be protected (use --output pdf)';
      expectRefused(await merge('docx-password', files.docx, 'out.zip', ['--output', 'docx', '--password-read', 'secret']), formatErrorMessage('generic/invalid-input', { detail }), expect);
    });

    it('options of PDF templates, and an output name that does not match', async ({ expect }) => {
      const invalid = (detail: string) => formatErrorMessage('generic/invalid-input', { detail });
      const [flatten, placeholders, combined] = await Promise.all([
        merge('flatten', files.docx, 'out.zip', ['--flatten']),
        merge('placeholders', files.docx, 'out.zip', ['--placeholders', files.csv]),
        merge('combined-zip', files.docx, 'out.zip', ['--combined', '--output', 'docx']),
      ]);
      expectRefused(flatten, invalid("--flatten applies to PDF templates only (a Word template's fields are in the document)"), expect);
      expectRefused(placeholders, invalid("--placeholders applies to PDF templates only (a Word template's fields are in the document)"), expect);
      expectRefused(combined, invalid('--out must end in .docx with --combined and --output docx'), expect);
    });
  });
});
