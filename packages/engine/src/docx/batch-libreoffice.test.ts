/**
 * PDF output in batches end to end (docs/word-templates.md#pdf-output-in-batches): rows filled into
 * one DOCX, LibreOffice converts it once with the destination option the server uses, and the PDF is
 * cut into one valid PDF per row holding that row's pages and values only, its page numbers from 1.
 * Skipped, saying why, where LibreOffice, qpdf, pdfinfo or pdftotext is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_PDF_EXPORT_FILTER, openBatchPdf } from '../pdf/split.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p } from './test-docx.ts';

const TOOLS = ['/usr/bin/soffice', '/usr/bin/qpdf', '/usr/bin/pdfinfo', '/usr/bin/pdftotext'];
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (missing.length > 0) console.warn(`batch-libreoffice.test.ts skipped: ${missing.join(', ')} not installed`);

const work = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'sheaf-batch-lo-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const pageField = '<w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>9</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
const names = ['Zoë Ångström', 'Grace Hopper', 'Linus Torvalds'];
const sheet = sheetFromTable(['Name', 'Code', 'Notes'], [
  [names[0], 'QX-4711', 'short'],
  // 70 lines: this row's document takes two pages.
  [names[1], 'GH-1906', Array.from({ length: 70 }, (_, line) => `Line ${line + 1}`).join('\n')],
  [names[2], 'LT-1969', 'short too'],
]);

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8', timeout: 120_000, stdio: 'pipe' });
const pdfText = (file: string, page?: number) => run('/usr/bin/pdftotext', [...(page ? ['-f', String(page), '-l', String(page)] : []), '-layout', file, '-']);

describe.skipIf(missing.length > 0)('PDF output of Word templates in batches (LibreOffice)', () => {
  it('converts three rows once and cuts the PDF into one valid PDF per row with its own pages, header and values', { timeout: 240_000 }, async () => {
    const template = buildDocx({
      body: p('Dear {{Name}}, your code is {{Code}}.') + p('{{Notes}}'),
      header: p('Header for {{Name}}'),
      footer: `<w:p>${pageField}</w:p>`,
    });
    writeFileSync(join(work, 'batch.docx'), prepareDocx(template, sheet.headers).fillBatch(sheet, [[0], [1], [2]]));
    run('/usr/bin/soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', BATCH_PDF_EXPORT_FILTER, '--outdir', work, join(work, 'batch.docx')]);
    const pdf = new Uint8Array(readFileSync(join(work, 'batch.pdf')));

    const batch = await openBatchPdf(pdf, 3);
    expect(batch.ranges).toEqual([{ first: 0, last: 0 }, { first: 1, last: 2 }, { first: 3, last: 3 }]);
    const codes = ['QX-4711', 'GH-1906', 'LT-1969'];
    for (let row = 0; row < 3; row++) {
      const file = join(work, `row${row}.pdf`);
      writeFileSync(file, batch.document(row));
      expect(run('/usr/bin/qpdf', ['--check', file])).toContain('No syntax or stream encoding errors found');
      expect(run('/usr/bin/pdfinfo', [file])).toMatch(new RegExp(`Pages:\\s+${row === 1 ? 2 : 1}\\n`));
      const text = pdfText(file);
      expect(text).toContain(`Header for ${names[row]}`);
      expect(text).toContain(`Dear ${names[row]}, your code is ${codes[row]}.`);
      for (const other of [0, 1, 2].filter((index) => index !== row)) {
        expect(text).not.toContain(names[other]);
        expect(text).not.toContain(codes[other]);
      }
      // Page numbers restart at 1 for each row's document.
      expect(pdfText(file, 1)).toMatch(/Page 1\b/);
    }
    expect(pdfText(join(work, 'row1.pdf'), 2)).toMatch(/Page 2\b/);
    expect(pdfText(join(work, 'row1.pdf'))).toContain('Line 70');

    // A row the PDF has no start for is refused rather than cut wrongly.
    await expect(openBatchPdf(pdf, 4)).rejects.toMatchObject({ code: 'merge/word-pdf-row-missing', params: { row: 4 } });
  });
});
