/**
 * Picture tags end to end (docs/word-templates.md#images-and-qr-codes): a batch of rows and a single
 * row's document, each with an {{%image}} and a {{%qr}} tag, converted by LibreOffice; the PDF has
 * each row's images on that row's page (pdfimages), and each QR code, rendered as a page image,
 * reads back as the row's text (zbarimg). Skipped, saying why, where a tool is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePng } from '../merge/test-pixels.ts';
import { BATCH_PDF_EXPORT_FILTER } from '../pdf/split.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p } from './test-docx.ts';

const TOOLS = ['/usr/bin/soffice', '/usr/bin/pdfimages', '/usr/bin/pdftoppm', '/usr/bin/zbarimg'];
const missing = TOOLS.filter((tool) => !existsSync(tool));
if (missing.length > 0) console.warn(`images-libreoffice.test.ts skipped: ${missing.join(', ')} not installed`);

const work = missing.length === 0 ? mkdtempSync(join(tmpdir(), 'sheaf-docx-images-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8', timeout: 180_000, stdio: 'pipe' });

/** The images of each page: "page width height colour" per image, from `pdfimages -list`. */
function imagesByPage(pdf: string): Map<number, string[]> {
  const pages = new Map<number, string[]>();
  for (const line of run('/usr/bin/pdfimages', ['-list', pdf]).split('\n').slice(2)) {
    const [page, , type, width, height, colour] = line.trim().split(/\s+/);
    if (type !== 'image') continue;
    pages.set(Number(page), [...(pages.get(Number(page)) ?? []), `${width}x${height} ${colour}`]);
  }
  return pages;
}

/**
 * What zbarimg reads on `page` rendered at 150 dpi: the symbols' bytes as UTF-8 (its own charset
 * guess reads UTF-8 without an ECI as Shift JIS), so one symbol per page.
 */
function qrCodeOn(pdf: string, page: number): string {
  const base = join(work, `${basename(pdf, '.pdf')}-${page}`);
  run('/usr/bin/pdftoppm', ['-r', '150', '-gray', '-f', String(page), '-l', String(page), '-singlefile', '-png', pdf, base]);
  const bytes = execFileSync('/usr/bin/zbarimg', ['--nodbus', '--raw', '-q', '-Sbinary', `${base}.png`], { timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return new TextDecoder().decode(bytes);
}

describe.skipIf(missing.length > 0)('pictures of Word templates printed by LibreOffice', () => {
  it('prints each row\'s image and QR code on its own page, the QR codes reading back as the rows\' text', { timeout: 300_000 }, () => {
    const red = encodePng(200, 100, () => [220, 20, 20]);
    const blue = encodePng(60, 120, () => [20, 20, 220]);
    const codes = ['SHEAF-ADA-1815', 'https://example.org/grace?id=1906&x=ü', 'LT-1969'];
    const sheet = sheetFromTable(['Name', 'Photo', 'Code'], [
      ['Ada', 'red.png', codes[0]],
      ['Grace', 'Blue', codes[1]],
      ['Linus', '', codes[2]],
    ]);
    const template = buildDocx({ body: p('Dear {{Name}},') + p('{{%image Photo}}') + p('Your ticket: {{%qr Code 4cm}}'), header: p('Logo {{%image Photo 1cm}}') });
    const prepared = prepareDocx(template, sheet.headers, { images: new Map([['red.png', red], ['blue.png', blue]]), compress: false });
    writeFileSync(join(work, 'batch.docx'), prepared.fillBatch(sheet, [[0], [1], [2]]));
    writeFileSync(join(work, 'single.docx'), prepared.fill(sheet, [1]));
    run('/usr/bin/soffice', [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', BATCH_PDF_EXPORT_FILTER, '--outdir', work, join(work, 'batch.docx'), join(work, 'single.docx')]);

    const batch = join(work, 'batch.pdf');
    const pages = imagesByPage(batch);
    // Row 1: the red photo (in the body and the header) and its QR code; row 2 the blue one; row 3 (no photo) its QR code only.
    expect([...pages.keys()]).toEqual([1, 2, 3]);
    // LibreOffice downsamples the 1 cm header copy to 300 dpi: the body's copy keeps the image's own size.
    expect([1, 2, 3].map((page) => pages.get(page)!.filter((image) => / rgb$/.test(image)).length)).toEqual([2, 2, 0]);
    expect(pages.get(1)).toContain('200x100 rgb');
    expect(pages.get(2)).toContain('60x120 rgb');
    for (const page of [1, 2, 3]) expect(pages.get(page)!.filter((image) => / gray$/.test(image))).toHaveLength(1);
    for (const page of [1, 2, 3]) expect(qrCodeOn(batch, page)).toBe(codes[page - 1]);

    const single = join(work, 'single.pdf');
    expect([...imagesByPage(single)]).toEqual([[1, expect.arrayContaining(['60x120 rgb', '60x120 rgb'])]]);
    expect(qrCodeOn(single, 1)).toBe(codes[1]);
  });
});
