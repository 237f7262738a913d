/**
 * Placeholders land where the editor shows them: coordinates are fractions of the page as a person
 * sees it (crop box, after rotation, origin top-left). poppler's word boxes (pdftotext -cropbox -bbox)
 * are in that same displayed space, so the word must sit in the placeholder's box times the
 * displayed page size, reading upright, in separate and in combined output.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  expectQpdfClean, fixture, mergeCombined, mergeSeparate, pdfInfo, placeholder, run, scratch, table, type MergeRequest, type WordBox,
} from './test-support.ts';

const folder = scratch('coordinates');
afterAll(() => folder.remove());

/** Points of tolerance: glyph side bearings and rounding. */
const TOLERANCE = 3;
const LEFT_BOX = { x: 0.2, y: 0.35, width: 0.5, height: 0.06 };
const RIGHT_BOX = { x: 0.25, y: 0.6, width: 0.5, height: 0.06 };
const CENTER_BOX = { x: 0.1, y: 0.75, width: 0.6, height: 0.06 };

const CASES: Array<[file: string, page: number, what: string]> = [
  ['classic-xref.pdf', 1, 'plain page'],
  ['cropbox-offset.pdf', 1, 'crop box offset from the media box'],
  ['negative-origin.pdf', 1, 'media box starting at -100 -100'],
  ['rotated.pdf', 1, 'Rotate 90'],
  ['rotated.pdf', 2, 'Rotate 180'],
  ['rotated.pdf', 3, 'Rotate 270'],
  ['inherited-attributes.pdf', 1, 'inherited Rotate 90 and crop box'],
  ['inherited-attributes.pdf', 2, 'own media box, inherited crop box'],
];

function request(file: string, page: number): MergeRequest {
  const box = (relative: typeof LEFT_BOX) => ({ relativeX: relative.x, relativeY: relative.y, relativeWidth: relative.width, relativeHeight: relative.height });
  return {
    template: fixture(`corpus/${file}`),
    sheet: table(['Left', 'Right', 'Center'], [['LEFTMARK', 'RIGHTMARK', 'CENTERMARK']]),
    placeholders: [
      placeholder({ id: 'left', column: 'Left', pageNumber: page, ...box(LEFT_BOX), relativeFontSize: 0.025 }),
      placeholder({ id: 'right', column: 'Right', pageNumber: page, align: 'right', ...box(RIGHT_BOX), relativeFontSize: 0.025 }),
      placeholder({ id: 'center', column: 'Center', pageNumber: page, align: 'center', ...box(CENTER_BOX), relativeFontSize: 0.025 }),
    ],
  };
}

/** The displayed page size: the crop box, width and height swapped by a quarter turn. */
function displayedSize(file: string, page: number): { width: number; height: number } {
  const info = pdfInfo(file).pageInfo[page - 1]!;
  return info.rotation % 180 === 0 ? { width: info.width, height: info.height } : { width: info.height, height: info.width };
}

function word(file: string, page: number, text: string): WordBox {
  const html = run('pdftotext', ['-cropbox', '-bbox', '-f', String(page), '-l', String(page), file, '-']).stdout;
  const match = new RegExp(`<word xMin="([\\d.-]+)" yMin="([\\d.-]+)" xMax="([\\d.-]+)" yMax="([\\d.-]+)">${text}</word>`).exec(html);
  expect(match, `${text} on page ${page} of ${file}`).not.toBeNull();
  const [xMin, yMin, xMax, yMax] = match!.slice(1, 5).map(Number) as [number, number, number, number];
  return { word: text, xMin, yMin, xMax, yMax };
}

function expectInBox(file: string, page: number, text: string, box: typeof LEFT_BOX, align: 'left' | 'right' | 'center'): void {
  const size = displayedSize(file, page);
  const found = word(file, page, text);
  const left = box.x * size.width;
  const right = (box.x + box.width) * size.width;
  const top = box.y * size.height;
  const bottom = (box.y + box.height) * size.height;
  // Upright: a horizontal word is wider than tall in the displayed page.
  expect(found.xMax - found.xMin).toBeGreaterThan(found.yMax - found.yMin);
  expect(found.yMin).toBeGreaterThanOrEqual(top - TOLERANCE);
  expect(found.yMax).toBeLessThanOrEqual(bottom + TOLERANCE);
  if (align === 'left') expect(Math.abs(found.xMin - left)).toBeLessThanOrEqual(TOLERANCE);
  if (align === 'right') expect(Math.abs(found.xMax - right)).toBeLessThanOrEqual(TOLERANCE);
  if (align === 'center') expect(Math.abs((found.xMin + found.xMax) / 2 - (left + right) / 2)).toBeLessThanOrEqual(TOLERANCE);
}

function expectAllInPlace(file: string, page: number): void {
  expectInBox(file, page, 'LEFTMARK', LEFT_BOX, 'left');
  expectInBox(file, page, 'RIGHTMARK', RIGHT_BOX, 'right');
  expectInBox(file, page, 'CENTERMARK', CENTER_BOX, 'center');
}

describe('placeholder boxes on the page as displayed', () => {
  it.each(CASES)('%s page %i (%s): separate output', async (file, page) => {
    const { documents } = await mergeSeparate(folder, request(file, page));
    expectQpdfClean(documents[0]!.file);
    expectAllInPlace(documents[0]!.file, page);
  });

  it.each(CASES)('%s page %i (%s): combined output keeps the boxes and the page geometry', async (file, page) => {
    const template = folder.write(file, fixture(`corpus/${file}`));
    const { file: combined } = await mergeCombined(folder, request(file, page));
    expectQpdfClean(combined);
    expectAllInPlace(combined, page);
    expect(pdfInfo(combined).pageInfo).toEqual(pdfInfo(template).pageInfo);
  });
});
