/**
 * Render comparisons between outputs built different ways: the separate document of a row (an
 * incremental update of the template) and the same row's pages in the combined document (the
 * template as a shared Form XObject) must look the same; and the placeholders-only output must
 * match the full output inside the placeholder boxes and be blank elsewhere.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  differingShare, eachPixel, fixture, mergeCombined, mergeSeparate, pdfInfo, placeholder, render, scratch, table, type Raster, type RelativeBox,
} from './test-support.ts';

const folder = scratch('goldens');
afterAll(() => folder.remove());

const DPI = 40;
const ROWS = [['Ann Avery', 1500.25, 'https://example.com/1'], ['Ben Brook', 2, 'https://example.com/2']];
const TEXT_BOX: RelativeBox = { x: 0.1, y: 0.45, width: 0.5, height: 0.06 };
const NUMBER_BOX: RelativeBox = { x: 0.1, y: 0.55, width: 0.5, height: 0.06 };
const QR_BOX: RelativeBox = { x: 0.6, y: 0.65, width: 0.3, height: 0.3 };

function request(file: string, pages: number) {
  const box = (b: RelativeBox) => ({ relativeX: b.x, relativeY: b.y, relativeWidth: b.width, relativeHeight: b.height });
  return {
    template: fixture(`corpus/${file}`),
    sheet: table(['Name', 'Amount', 'Link'], ROWS),
    placeholders: Array.from({ length: pages }, (_, i) => [
      placeholder({ id: `name${i}`, column: 'Name', pageNumber: i + 1, relativeFontSize: 0.03, ...box(TEXT_BOX) }),
      placeholder({ id: `amount${i}`, type: 'number', column: 'Amount', pageNumber: i + 1, relativeFontSize: 0.03, fill: '#202080', ...box(NUMBER_BOX) }),
      placeholder({ id: `qr${i}`, type: 'qrcode', column: 'Link', pageNumber: i + 1, ...box(QR_BOX) }),
    ]).flat(),
  };
}

const TEMPLATES: Array<[string, Record<string, unknown>]> = [
  ['classic-xref.pdf', {}],
  ['rotated.pdf', {}],
  ['cropbox-offset.pdf', {}],
  ['negative-origin.pdf', {}],
  ['inherited-attributes.pdf', {}],
  ['contents-array.pdf', {}],
  ['xobject-image.pdf', {}],
  ['annotations.pdf', {}],
  // Combined output always flattens the form; so does this separate output.
  ['acroform.pdf', { isKeepFormOutput: false }],
];

describe('separate and combined outputs look the same', () => {
  it.each(TEMPLATES)('%s', async (file, options) => {
    const pages = pdfInfo(folder.write(file, fixture(`corpus/${file}`))).pages;
    const input = { ...request(file, pages), options };
    const { documents } = await mergeSeparate(folder, input);
    const combined = await mergeCombined(folder, input);
    for (let row = 0; row < ROWS.length; row++) {
      for (let page = 1; page <= pages; page++) {
        const separate = render(documents[row]!.file, page, { dpi: DPI });
        const together = render(combined.file, row * pages + page, { dpi: DPI });
        expect(differingShare(separate, together), `row ${row + 2} page ${page}`).toBeLessThan(0.001);
      }
    }
    // And the rows differ from each other where their values are.
    const first = render(documents[0]!.file, 1, { dpi: DPI });
    const second = render(documents[1]!.file, 1, { dpi: DPI });
    expect(differingShare(first, second)).toBeGreaterThan(0.002);
  });
});

describe('placeholders-only output is the full output without the template', () => {
  /** Pixels that differ by more than `tolerance` inside (or outside) the boxes. */
  function differing(a: Raster, b: Raster, boxes: RelativeBox[], inside: boolean, tolerance = 48): number {
    const inBox = new Uint8Array(a.width * a.height);
    for (const box of boxes) {
      for (let y = Math.round(box.y * a.height); y < Math.round((box.y + box.height) * a.height); y++) {
        for (let x = Math.round(box.x * a.width); x < Math.round((box.x + box.width) * a.width); x++) inBox[y * a.width + x] = 1;
      }
    }
    let count = 0;
    for (let i = 0; i < inBox.length; i++) if (inBox[i] === (inside ? 1 : 0) && Math.abs(a.pixels[i]! - b.pixels[i]!) > tolerance) count++;
    return count;
  }

  it.each(['classic-xref.pdf', 'rotated.pdf', 'cropbox-offset.pdf', 'inherited-attributes.pdf'])('%s', async (file) => {
    const pages = pdfInfo(folder.write(file, fixture(`corpus/${file}`))).pages;
    const full = await mergeSeparate(folder, request(file, pages));
    const only = await mergeSeparate(folder, { ...request(file, pages), options: { isOnlyPlaceholdersOutput: true } });
    for (let page = 1; page <= pages; page++) {
      const fullImage = render(full.documents[0]!.file, page, { dpi: DPI });
      const onlyImage = render(only.documents[0]!.file, page, { dpi: DPI });
      const boxes = [TEXT_BOX, NUMBER_BOX, QR_BOX];
      expect(differing(fullImage, onlyImage, boxes, true), `page ${page} inside the boxes`).toBe(0);
      // Outside the boxes the placeholders-only page is blank; the full page has the template's ink.
      let ink = 0;
      eachPixel(onlyImage, { x: 0, y: 0, width: 1, height: 0.44 }, (pixel) => (ink += pixel[0]! < 200 ? 1 : 0));
      expect(ink, `page ${page} outside the boxes`).toBe(0);
      expect(differing(fullImage, onlyImage, boxes, false)).toBeGreaterThan(20);
    }
  });
});
