/**
 * Image placeholders: PNG and JPEG files made in the test, drawn fitted (aspect kept, centred) in the
 * box, checked in colour pixels; a row naming an image nobody supplied is skipped with an issue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankTemplate, eachPixel, encodeJpeg, encodePng, expectQpdfClean, mergeCombined, mergeSeparate, pdfInfo, pdfText, placeholder,
  render, scratch, table, type Raster, type RelativeBox,
} from './test-support.ts';

const folder = scratch('images');
afterAll(() => folder.remove());

const A4 = { width: 595, height: 842 };
let template: Uint8Array;
/** 200 x 100: left half red, right half blue. */
let wideRedBlue: Uint8Array;
/** 120 x 120 flat green. */
let greenJpeg: Uint8Array;

beforeAll(async () => {
  template = await blankTemplate([{ label: 'IMAGE TEMPLATE' }]);
  wideRedBlue = encodePng(200, 100, (x) => (x < 100 ? [220, 20, 20] : [20, 20, 220]));
  greenJpeg = encodeJpeg(folder, 120, 120, [20, 180, 40]);
});

/** A box square in points, its top-left at (x, y) in fractions of the A4 page. */
function squareBox(x: number, y: number, side: number): RelativeBox {
  return { x, y, width: side / A4.width, height: side / A4.height };
}

function classify(image: Raster, box: RelativeBox): Record<'red' | 'blue' | 'green' | 'white' | 'other', number> {
  const counts = { red: 0, blue: 0, green: 0, white: 0, other: 0 };
  eachPixel(image, box, ([r, g, b]) => {
    if (r! > 200 && g! > 200 && b! > 200) counts.white++;
    else if (r! > 150 && g! < 80 && b! < 80) counts.red++;
    else if (b! > 150 && r! < 80 && g! < 80) counts.blue++;
    else if (g! > 130 && r! < 80 && b! < 100) counts.green++;
    else counts.other++;
  });
  return counts;
}

/** A band of the box: fractions of the box itself (inset so anti-aliased edges do not count). */
function band(box: RelativeBox, x0: number, y0: number, x1: number, y1: number): RelativeBox {
  return { x: box.x + box.width * x0, y: box.y + box.height * y0, width: box.width * (x1 - x0), height: box.height * (y1 - y0) };
}

function imagePlaceholder(box: RelativeBox, column = 'Picture') {
  return placeholder({ id: column, type: 'image', column, relativeX: box.x, relativeY: box.y, relativeWidth: box.width, relativeHeight: box.height });
}

describe('image placeholders', () => {
  it('draws a PNG fitted in a square box: full width, centred vertically, aspect kept', async () => {
    const box = squareBox(0.2, 0.2, 200);
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Picture'], [['wide.png']]),
      placeholders: [imagePlaceholder(box)],
      images: new Map([['wide.png', wideRedBlue]]),
    });
    expectQpdfClean(documents[0]!.file);
    const image = render(documents[0]!.file, 1, { dpi: 72, colour: true });
    // The image (2:1) fills the middle half of the square: red left, blue right; white above and below.
    expect(classify(image, band(box, 0.05, 0.3, 0.45, 0.7))).toMatchObject({ white: 0, blue: 0, other: 0 });
    expect(classify(image, band(box, 0.55, 0.3, 0.95, 0.7))).toMatchObject({ white: 0, red: 0, other: 0 });
    for (const edge of [band(box, 0.05, 0.02, 0.95, 0.22), band(box, 0.05, 0.78, 0.95, 0.98)]) {
      const counts = classify(image, edge);
      expect(counts.white).toBeGreaterThan(0);
      expect(counts.red + counts.blue + counts.other).toBe(0);
    }
    expect(pdfText(documents[0]!.file)).toContain('IMAGE TEMPLATE');
  });

  it('draws a JPEG fitted in a wide box: full height, centred horizontally', async () => {
    const box: RelativeBox = { x: 0.1, y: 0.5, width: 300 / A4.width, height: 100 / A4.height };
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Picture'], [['photo.jpg']]),
      placeholders: [imagePlaceholder(box)],
      images: new Map([['photo.jpg', greenJpeg]]),
    });
    expectQpdfClean(documents[0]!.file);
    const image = render(documents[0]!.file, 1, { dpi: 72, colour: true });
    // 100 pt square in the middle third of a 300 x 100 pt box.
    expect(classify(image, band(box, 0.36, 0.05, 0.64, 0.95))).toMatchObject({ white: 0, red: 0, blue: 0, other: 0 });
    for (const side of [band(box, 0.02, 0.05, 0.3, 0.95), band(box, 0.7, 0.05, 0.98, 0.95)]) {
      const counts = classify(image, side);
      expect(counts.green + counts.other).toBe(0);
      expect(counts.white).toBeGreaterThan(0);
    }
  });

  it('finds images by name regardless of case and extension; an empty cell draws nothing', async () => {
    const box = squareBox(0.2, 0.2, 150);
    const { documents, merge } = await mergeSeparate(folder, {
      template,
      sheet: table(['Picture'], [['WIDE.PNG'], ['wide'], ['']]),
      placeholders: [imagePlaceholder(box)],
      images: new Map([['wide.png', wideRedBlue]]),
    });
    expect(merge.issues).toEqual([]);
    expect(documents).toHaveLength(3);
    const coloured = documents.map((document) => {
      expectQpdfClean(document.file);
      const counts = classify(render(document.file, 1, { dpi: 40, colour: true }), box);
      return counts.red + counts.blue;
    });
    expect(coloured[0]).toBeGreaterThan(0);
    expect(coloured[1]).toBeGreaterThan(0);
    expect(coloured[2]).toBe(0);
  });

  it('skips a row whose image was not supplied, with an issue, and still makes the others', async () => {
    const request = {
      template,
      sheet: table(['Name', 'Picture'], [['ROW-TWO', 'wide.png'], ['ROW-THREE', 'nowhere.png'], ['ROW-FOUR', 'photo.jpg']]),
      placeholders: [imagePlaceholder(squareBox(0.2, 0.3, 150)), placeholder({ id: 'name', column: 'Name', relativeY: 0.1 })],
      images: new Map([['wide.png', wideRedBlue], ['photo.jpg', greenJpeg]]),
    };
    const { documents, merge } = await mergeSeparate(folder, request);
    expect(documents.map((document) => document.rowNumbers)).toEqual([[2], [4]]);
    expect(merge.issues).toHaveLength(1);
    expect(merge.issues[0]).toMatchObject({ rowNumber: 3, code: 'merge/image-missing' });
    expect(merge.issues[0]!.message).toContain('nowhere.png');
    for (const document of documents) expectQpdfClean(document.file);
    expect(pdfText(documents[1]!.file)).toContain('ROW-FOUR');

    const combined = await mergeCombined(folder, request);
    expectQpdfClean(combined.file);
    expect(pdfInfo(combined.file).pages).toBe(2);
    expect(pdfText(combined.file)).not.toContain('ROW-THREE');
    expect(combined.merge.issues.map((issue) => issue.rowNumber)).toEqual([3]);
  });

  it('stores each image once in combined output, however many rows show it', async () => {
    // Noise does not compress: the file size shows how often the image is stored.
    let seed = 0x9e3779b9;
    const noise = encodePng(80, 80, () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return [seed & 255, (seed >>> 8) & 255, (seed >>> 16) & 255];
    });
    const rows = Array.from({ length: 20 }, () => ['noise.png']);
    const { bytes, file } = await mergeCombined(folder, {
      template,
      sheet: table(['Picture'], rows),
      placeholders: [imagePlaceholder(squareBox(0.2, 0.3, 150))],
      images: new Map([['noise.png', noise]]),
    });
    expectQpdfClean(file);
    expect(pdfInfo(file).pages).toBe(20);
    expect(noise.length).toBeGreaterThan(18_000);
    expect(bytes.length).toBeLessThan(template.length + noise.length * 1.3 + 20 * 1024);
  });
});
