/**
 * The Free plan's watermark (FREE_PLAN_WATERMARK) runs across the page's diagonal, where placeholders
 * often sit: it must leave them legible and QR codes decodable, by zbarimg (Debian: zbar-tools) and
 * by jsQR, on poppler's render.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_WATERMARK } from '@sheaf/shared';
import {
  blankTemplate, decodeQr, expectQpdfClean, mergeCombined, mergeSeparate, pageTexts, placeholder, render, run, scratch, table,
} from './test-support.ts';

const folder = scratch('watermark');
afterAll(() => folder.remove());

const hasZbar = run('zbarimg', ['--version']).status === 0;
if (!hasZbar) console.warn('watermark.test.ts: zbarimg is not installed (Debian: apt-get install -y zbar-tools); its checks are skipped, jsQR still reads the codes.');

const LINKS = ['https://example.com/tickets/2024/AX-4471?seat=12B', 'https://example.com/tickets/2024/BQ-0093?seat=3A'];

/** What zbarimg reads from page `page` rendered by pdftoppm (PNG, 150 dpi), or [] when it reads nothing. */
function zbarCodes(file: string, page = 1): string[] {
  const base = `${file}-zbar-${page}`;
  const rendered = run('pdftoppm', ['-png', '-r', '150', '-f', String(page), '-l', String(page), '-singlefile', file, base]);
  expect(rendered.status).toBe(0);
  const result = run('zbarimg', ['--quiet', '--raw', '-Sqrcode.enable', `${base}.png`]);
  return result.stdout.split('\n').filter((line) => line !== '');
}

async function request(options: { isCombinedOutput?: boolean } = {}) {
  return {
    // A4, the code and a name in the middle of the page, right on the watermark's diagonal.
    template: await blankTemplate([{ label: 'TICKET' }]),
    sheet: table(['Name', 'Link'], LINKS.map((link, i) => [`Holder Number ${i + 1}`, link])),
    placeholders: [
      placeholder({ id: 'qr', type: 'qrcode', column: 'Link', relativeX: 0.3, relativeY: 0.35, relativeWidth: 0.4, relativeHeight: 0.3 }),
      placeholder({ id: 'name', column: 'Name', relativeX: 0.2, relativeY: 0.66, relativeWidth: 0.6, relativeHeight: 0.05, relativeFontSize: 0.025 }),
    ],
    options: { watermark: FREE_PLAN_WATERMARK, ...options },
  };
}

describe('the Free plan watermark', () => {
  it('leaves a QR code under its diagonal decodable and the text beside it legible, in separate documents', async () => {
    const { documents } = await mergeSeparate(folder, await request());
    documents.forEach((document, i) => {
      expectQpdfClean(document.file);
      if (hasZbar) expect(zbarCodes(document.file)).toEqual([LINKS[i]]);
      expect(decodeQr(render(document.file, 1, { dpi: 100 }))).toBe(LINKS[i]);
      const text = pageTexts(document.file, { raw: true })[0]!;
      expect(text).toContain(`Holder Number ${i + 1}`);
      expect(text.replace(/\s+/g, '')).toContain(FREE_PLAN_WATERMARK.replace(/\s+/g, ''));
    });
  });

  it('leaves every row’s code decodable in combined output', async () => {
    const { file } = await mergeCombined(folder, await request());
    expectQpdfClean(file);
    LINKS.forEach((link, i) => {
      if (hasZbar) expect(zbarCodes(file, i + 1)).toEqual([link]);
      expect(decodeQr(render(file, i + 1, { dpi: 100 }))).toBe(link);
    });
  });
});
