/**
 * Page counts in their number formats and inside other fields, through LibreOffice
 * (docs/word-templates.md#pdf-output-in-batches): two documents of different lengths in one batch,
 * converted as the server does it (a first conversion with a guessed count, then again with the
 * counts the documents took), each printing "Page X of N" with N in roman, and `=` and `IF` fields
 * fed by its count as Word computes them (LibreOffice 7.4 computes neither). Skipped, saying why, where LibreOffice or poppler's tools are not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BATCH_PDF_EXPORT_FILTER, openBatchPdf } from '../pdf/split.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { numFmtText } from './number-format.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p, r } from './test-docx.ts';

const TOOLS = ['/usr/bin/soffice', '/usr/bin/pdftotext'];
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (missing.length > 0) console.warn(`batch-numbering-libreoffice.test.ts skipped: ${missing.join(', ')} not installed`);

const work = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'sheaf-numbering-lo-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A complex field; `parts` of its instruction are text, or nested fields when they start with "<". */
const field = (parts: string[], result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${parts.map((part) => (part.startsWith('<') ? part : `<w:r><w:instrText xml:space="preserve">${part}</w:instrText></w:r>`)).join('')}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve">${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const lines = (count: number) => Array.from({ length: count }, (_, line) => `Line ${line + 1}`).join('\n');
const sheet = sheetFromTable(['Name', 'Notes'], [['Ada', lines(70)], ['Grace', lines(120)]]);

const template = buildDocx({
  body:
    p('Dear {{Name}}') +
    p('{{Notes}}') +
    // LibreOffice 7.4 prints a = field's saved result and nothing for an IF: "?" would be either as saved.
    `<w:p>${r('Other pages: ')}${field([' = ', field([' NUMPAGES '], '9'), ' - 1 '], '?')}</w:p>` +
    `<w:p>${r('Kind: ')}${field([' IF ', field([' NUMPAGES '], '9'), ' > 2 "Long letter" "Short letter" '], '?')}</w:p>`,
  header: `<w:p>${r('Sheet ')}${field([' PAGE \\* ROMAN '], '9')}</w:p>`,
  footer: `<w:p>${r('Page ')}${field([' PAGE '], '9')}${r(' of ')}${field([' NUMPAGES \\* roman '], '9')}</w:p>`,
});

let conversions = 0;
/** The batch filled with `pageCounts` as LibreOffice prints it, and each document's pages. */
async function convert(pageCounts: number[]) {
  const name = `batch${conversions++}`;
  writeFileSync(join(work, `${name}.docx`), prepareDocx(template, sheet.headers).fillBatch(sheet, [[0], [1]], { pageCounts }));
  execFileSync('/usr/bin/soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', BATCH_PDF_EXPORT_FILTER, '--outdir', work, join(work, `${name}.docx`)], { timeout: 120_000, stdio: 'pipe' });
  const file = join(work, `${name}.pdf`);
  const batch = await openBatchPdf(new Uint8Array(readFileSync(file)), 2);
  return { file, ranges: batch.ranges };
}
const pageText = (file: string, page: number) => execFileSync('/usr/bin/pdftotext', ['-f', String(page), '-l', String(page), '-layout', file, '-'], { encoding: 'utf8' });

describe.skipIf(missing.length > 0)('page counts in their formats and inside other fields (LibreOffice)', () => {
  it('each document prints "Page X of N" with N in roman, and = and IF fields computed from its own count', { timeout: 300_000 }, async () => {
    // As the server converts: a guess of 1 page first, then the counts the documents took.
    const first = await convert([1, 1]);
    const counts = first.ranges.map((range) => range.last - range.first + 1);
    expect(counts).toEqual([2, 3]);
    const { file, ranges } = await convert(counts);
    expect(ranges).toEqual([{ first: 0, last: 1 }, { first: 2, last: 4 }]);

    for (const [index, range] of ranges.entries()) {
      const pages = counts[index]!;
      for (let page = 1; page <= pages; page++) {
        const text = pageText(file, range.first + page);
        expect(text).toMatch(new RegExp(`Page ${page} of ${numFmtText(pages, 'lowerRoman')}\\b`));
        // PAGE \* ROMAN stays LibreOffice's own field, counting from I in each document.
        expect(text).toMatch(new RegExp(`Sheet ${numFmtText(page, 'upperRoman')}\\b`));
        if (page === pages) {
          expect(text).toMatch(new RegExp(`Other pages: ${pages - 1}[ \\t]*$`, 'm'));
          expect(text).toMatch(new RegExp(`Kind: ${pages > 2 ? 'Long' : 'Short'} letter[ \\t]*$`, 'm'));
        }
      }
    }
  });
});
