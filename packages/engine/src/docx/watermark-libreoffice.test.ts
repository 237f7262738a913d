/**
 * The watermark of Word output printed by LibreOffice 7.4 (docs/word-templates.md#watermark): a batch
 * of rows converted once, as PDF output is, and cut per row; every page of every row's PDF shows the
 * grey diagonal in its middle, and the same batch without the watermark shows none. LibreOffice
 * prints WordArt as outlines, so the pages are looked at, not read with pdftotext.
 * Skipped, saying why, where LibreOffice or poppler is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inkIn, render } from '../merge/test-pixels.ts';
import { BATCH_PDF_EXPORT_FILTER, openBatchPdf } from '../pdf/split.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p } from './test-docx.ts';

const TOOLS = ['/usr/bin/soffice', '/usr/bin/pdftoppm', '/usr/bin/pdfinfo'];
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (missing.length > 0) console.warn(`watermark-libreoffice.test.ts skipped: ${missing.join(', ')} not installed`);

const work = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'sheaf-watermark-lo-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const sheet = sheetFromTable(['Name', 'Notes'], [
  ['Ada', 'short'],
  // 70 lines: this row's document takes two pages.
  ['Grace', Array.from({ length: 70 }, (_, line) => `Line ${line + 1}`).join('\n')],
]);
/** The middle of the page, where the diagonal crosses and the letter's text does not reach. */
const MIDDLE = { x: 0.35, y: 0.4, width: 0.3, height: 0.2 };
/** Silver at half opacity prints near 224 of 255: "ink" here is anything clearly not white. */
const LIGHT_INK = 245;

/** Converts a batch DOCX as the server does and returns each row's PDF file. */
async function rowPdfs(name: string, docx: Uint8Array, rows: number): Promise<string[]> {
  writeFileSync(join(work, `${name}.docx`), docx);
  execFileSync('/usr/bin/soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', BATCH_PDF_EXPORT_FILTER, '--outdir', work, join(work, `${name}.docx`)], { stdio: 'pipe', timeout: 120_000 });
  const batch = await openBatchPdf(new Uint8Array(readFileSync(join(work, `${name}.pdf`))), rows);
  return Array.from({ length: rows }, (_, row) => {
    const file = join(work, `${name}-row${row}.pdf`);
    writeFileSync(file, batch.document(row));
    return file;
  });
}

const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' }))![1]);

describe.skipIf(missing.length > 0)('the watermark of Word output in LibreOffice', () => {
  it('prints on every page of every row\'s PDF, with and without a header of the template\'s own', { timeout: 240_000 }, async () => {
    const withHeader = buildDocx({ body: p('Dear {{Name}},') + p('{{Notes}}'), header: p('Header for {{Name}}') });
    const withoutHeader = buildDocx({ body: p('Dear {{Name}},') + p('{{Notes}}') });
    for (const [name, template] of [['header', withHeader], ['no-header', withoutHeader]] as const) {
      const marked = await rowPdfs(name, prepareDocx(template, sheet.headers, { watermark: 'Made with Sheaf - free plan', compress: false }).fillBatch(sheet, [[0], [1]]), 2);
      expect(marked.map(pages), name).toEqual([1, 2]);
      for (const file of marked) {
        for (let page = 1; page <= pages(file); page++) expect(inkIn(render(file, page), MIDDLE, LIGHT_INK), `${name} ${file} page ${page}`).toBeGreaterThan(100);
      }
    }
    const plain = await rowPdfs('plain', prepareDocx(withHeader, sheet.headers, { compress: false }).fillBatch(sheet, [[0], [1]]), 2);
    expect(inkIn(render(plain[0]!, 1), MIDDLE, LIGHT_INK)).toBe(0);
  });
});
