/**
 * Text placeholders through the whole merge: the standard fonts and their styles, decorations,
 * colour, wrapping and shrinking, right-to-left scripts, characters Helvetica lacks (fallback font)
 * and a custom TrueType font embedded as a subset. Checked with pdffonts, pdftotext and pixels.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankTemplate, eachPixel, expectQpdfClean, inkIn, mergeSeparate, pdfFonts, pdfText, placeholder, render, scratch, table,
  withoutBidiMarks, wordBoxes, type RelativeBox,
} from './test-support.ts';
import type { Placeholder, PlaceholderInput } from '@sheaf/shared';

const folder = scratch('text');
afterAll(() => folder.remove());

let template: Uint8Array;
beforeAll(async () => {
  template = await blankTemplate();
});

const A4 = { width: 595, height: 842 };

/** One document of one row: each entry is a column value and its placeholder's settings. */
async function mergeOne(entries: Array<{ value: string } & Partial<PlaceholderInput>>, fonts?: ReadonlyMap<string, Uint8Array>): Promise<string> {
  const headers = entries.map((_, i) => `C${i}`);
  const placeholders: Placeholder[] = entries.map(({ value: _value, ...settings }, i) => placeholder({ id: `p${i}`, column: `C${i}`, ...settings }));
  const { documents } = await mergeSeparate(folder, { template, sheet: table(headers, [entries.map((entry) => entry.value)]), placeholders, fonts });
  expect(documents).toHaveLength(1);
  expectQpdfClean(documents[0]!.file);
  return documents[0]!.file;
}

function boxOf(x: number, y: number, width: number, height: number): { relativeX: number; relativeY: number; relativeWidth: number; relativeHeight: number } {
  return { relativeX: x, relativeY: y, relativeWidth: width, relativeHeight: height };
}

function relative(settings: ReturnType<typeof boxOf>): RelativeBox {
  return { x: settings.relativeX, y: settings.relativeY, width: settings.relativeWidth, height: settings.relativeHeight };
}

describe('standard fonts', () => {
  const families = [['Helvetica', 'Helvetica'], ['Times New Roman', 'Times'], ['Courier', 'Courier']] as const;
  const styles = ['normal', 'bold', 'italic', 'boldItalic'] as const;
  const names: Record<string, Record<(typeof styles)[number], string>> = {
    Helvetica: { normal: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique', boldItalic: 'Helvetica-BoldOblique' },
    Times: { normal: 'Times-Roman', bold: 'Times-Bold', italic: 'Times-Italic', boldItalic: 'Times-BoldItalic' },
    Courier: { normal: 'Courier', bold: 'Courier-Bold', italic: 'Courier-Oblique', boldItalic: 'Courier-BoldOblique' },
  };

  it('prints each family in each style with the matching standard font', async () => {
    const entries = families.flatMap(([family, short], f) =>
      styles.map((fontStyle, s) => ({ value: `${short}${fontStyle}`, fontFamily: family, fontStyle, ...boxOf(0.1, 0.05 + (f * 4 + s) * 0.06, 0.8, 0.05) })),
    );
    const file = await mergeOne(entries);
    const text = pdfText(file);
    for (const entry of entries) expect(text).toContain(entry.value);
    const fonts = pdfFonts(file).map((font) => font.name.replace(/^[A-Z]{6}\+/, ''));
    for (const [, short] of families) for (const fontStyle of styles) expect(fonts).toContain(names[short]![fontStyle]);
  });

  it('bold puts clearly more ink on the page than regular', async () => {
    const regular = boxOf(0.1, 0.2, 0.8, 0.06);
    const bold = boxOf(0.1, 0.4, 0.8, 0.06);
    const file = await mergeOne([
      { value: 'Weight Test', relativeFontSize: 0.04, ...regular },
      { value: 'Weight Test', relativeFontSize: 0.04, fontStyle: 'bold', ...bold },
    ]);
    const image = render(file, 1, { dpi: 100 });
    expect(inkIn(image, relative(bold))).toBeGreaterThan(inkIn(image, relative(regular)) * 1.2);
  });
});

describe('decoration, alignment and colour', () => {
  /** The longest run of dark pixels on any one pixel row of the box, as a share of the box width. */
  function longestDarkRow(file: string, box: RelativeBox): number {
    const image = render(file, 1, { dpi: 100 });
    const rows = new Map<number, number>();
    let index = 0;
    const boxWidth = Math.round(box.width * image.width);
    eachPixel(image, box, (pixel) => {
      const row = Math.floor(index++ / boxWidth);
      if (pixel[0]! < 128) rows.set(row, (rows.get(row) ?? 0) + 1);
    });
    return Math.max(0, ...rows.values()) / boxWidth;
  }

  it('underline and line-through draw a line under or across the whole value', async () => {
    // A box as wide as the value: the decoration then spans nearly all of it.
    const plain = boxOf(0.1, 0.2, 0.3, 0.05);
    const underline = boxOf(0.1, 0.3, 0.3, 0.05);
    const through = boxOf(0.1, 0.4, 0.3, 0.05);
    const value = 'Decorated';
    const file = await mergeOne([
      { value, relativeFontSize: 0.03, align: 'center', ...plain },
      { value, relativeFontSize: 0.03, align: 'center', textDecoration: 'underline', ...underline },
      { value, relativeFontSize: 0.03, align: 'center', textDecoration: 'lineThrough', ...through },
    ]);
    const [word] = wordBoxes(file).filter((w) => w.word === value);
    const valueShare = (word!.xMax - word!.xMin) / (plain.relativeWidth * A4.width);
    expect(longestDarkRow(file, relative(plain))).toBeLessThan(valueShare * 0.75);
    expect(longestDarkRow(file, relative(underline))).toBeGreaterThan(valueShare * 0.9);
    expect(longestDarkRow(file, relative(through))).toBeGreaterThan(valueShare * 0.9);
    expect(pdfText(file).match(/Decorated/g)).toHaveLength(3);
  });

  it('right and centre alignment place the value against the box edge or in its middle', async () => {
    const right = boxOf(0.2, 0.2, 0.6, 0.05);
    const centre = boxOf(0.2, 0.3, 0.6, 0.05);
    const file = await mergeOne([
      { value: 'RightSide', align: 'right', ...right },
      { value: 'Middle', align: 'center', ...centre },
    ]);
    const words = wordBoxes(file);
    const rightWord = words.find((w) => w.word === 'RightSide')!;
    const middleWord = words.find((w) => w.word === 'Middle')!;
    expect(rightWord.xMax).toBeCloseTo((right.relativeX + right.relativeWidth) * A4.width, -0.5);
    expect((middleWord.xMin + middleWord.xMax) / 2).toBeCloseTo((centre.relativeX + centre.relativeWidth / 2) * A4.width, -0.5);
  });

  it('fills the text with the placeholder colour', async () => {
    const red = boxOf(0.1, 0.2, 0.8, 0.06);
    const blue = boxOf(0.1, 0.3, 0.8, 0.06);
    const black = boxOf(0.1, 0.4, 0.8, 0.06);
    const file = await mergeOne([
      { value: 'RED RED RED', fill: '#d01010', relativeFontSize: 0.04, ...red },
      { value: 'BLUE BLUE BLUE', fill: '#1040d0', relativeFontSize: 0.04, ...blue },
      { value: 'BLACK BLACK', relativeFontSize: 0.04, ...black },
    ]);
    const image = render(file, 1, { dpi: 60, colour: true });
    const count = (box: RelativeBox, test: (r: number, g: number, b: number) => boolean) => {
      let n = 0;
      eachPixel(image, box, (p) => {
        if (test(p[0]!, p[1]!, p[2]!)) n++;
      });
      return n;
    };
    const isRed = (r: number, g: number, b: number) => r > 150 && g < 90 && b < 90;
    const isBlue = (r: number, g: number, b: number) => b > 150 && r < 90 && g < 120;
    expect(count(relative(red), isRed)).toBeGreaterThan(50);
    expect(count(relative(blue), isBlue)).toBeGreaterThan(50);
    expect(count(relative(black), isRed) + count(relative(black), isBlue)).toBe(0);
    expect(count(relative(black), (r, g, b) => r < 80 && g < 80 && b < 80)).toBeGreaterThan(50);
  });
});

describe('fitting text into the box', () => {
  const words = 'the quick brown fox jumps over the lazy dog and keeps running far away'.split(' ');

  it('wraps a long value onto several lines inside the box', async () => {
    const box = boxOf(0.1, 0.2, 0.3, 0.2);
    const file = await mergeOne([{ value: words.join(' '), relativeFontSize: 0.02, ...box }]);
    const found = wordBoxes(file);
    expect(found.map((w) => w.word)).toEqual(words);
    expect(new Set(found.map((w) => Math.round(w.yMin))).size).toBeGreaterThanOrEqual(3);
    for (const w of found) {
      expect(w.xMin).toBeGreaterThanOrEqual(box.relativeX * A4.width - 1);
      expect(w.xMax).toBeLessThanOrEqual((box.relativeX + box.relativeWidth) * A4.width + 1);
      expect(w.yMax).toBeLessThanOrEqual((box.relativeY + box.relativeHeight) * A4.height + 2);
    }
  });

  it('shrinks a one-line value until it fits the box width', async () => {
    const box = boxOf(0.1, 0.3, 0.3, 0.04);
    const fontSize = 0.025;
    const file = await mergeOne([{ value: words.join(' '), relativeFontSize: fontSize, typeSettings: { wrap: false, shrinkToFit: true }, ...box }]);
    const found = wordBoxes(file);
    expect(found.map((w) => w.word)).toEqual(words);
    expect(new Set(found.map((w) => Math.round(w.yMin))).size).toBe(1);
    expect(Math.max(...found.map((w) => w.xMax))).toBeLessThanOrEqual((box.relativeX + box.relativeWidth) * A4.width + 1);
    const lineHeight = found[0]!.yMax - found[0]!.yMin;
    expect(lineHeight).toBeLessThan(fontSize * A4.height * 0.6);
  });
});

describe('scripts and fonts beyond Latin-1', () => {
  it('prints Hebrew and Arabic values right to left and extracts their logical text', async () => {
    const file = await mergeOne([
      { value: 'שלום עולם', ...boxOf(0.1, 0.2, 0.8, 0.05) },
      { value: 'مرحبا بالعالم', ...boxOf(0.1, 0.3, 0.8, 0.05) },
    ]);
    const lines = withoutBidiMarks(pdfText(file)).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(lines).toEqual(['שלום עולם', 'مرحبا بالعالم']);
  });

  it('prints Ł, Greek and Cyrillic set in Helvetica with the fallback font', async () => {
    const values = ['Łukasz Żółć', 'Ελληνικά γράμματα', 'Кириллица Жанна'];
    const file = await mergeOne(values.map((value, i) => ({ value, fontFamily: 'Helvetica', ...boxOf(0.1, 0.2 + i * 0.1, 0.8, 0.05) })));
    const lines = pdfText(file).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(lines).toEqual(values);
    const embedded = pdfFonts(file).filter((font) => font.embedded);
    expect(embedded.some((font) => /DejaVu/.test(font.name))).toBe(true);
  });

  function dejavuSerif(): Uint8Array {
    const require = createRequire(import.meta.url);
    return new Uint8Array(readFileSync(path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSerif.ttf')));
  }

  it('embeds a custom TrueType font as a subset', async () => {
    const serif = dejavuSerif();
    const fonts = new Map([['DejaVu Serif', serif]]);
    const file = await mergeOne([{ value: 'Serif Façade 2024', fontFamily: 'DejaVu Serif', ...boxOf(0.1, 0.2, 0.8, 0.05) }], fonts);
    expect(pdfText(file).trim()).toBe('Serif Façade 2024');
    const serifFonts = pdfFonts(file).filter((font) => /DejaVuSerif/.test(font.name));
    expect(serifFonts).toHaveLength(1);
    expect(serifFonts[0]).toMatchObject({ embedded: true, subset: true });
    expect(serifFonts[0]!.name).toMatch(/^[A-Z]{6}\+DejaVuSerif/);
    expect(readFileSync(file).length).toBeLessThan(serif.length / 5);
  });

  it('subsets the custom font once over all rows: every document carries the same subset', async () => {
    const values = ['Alpha', 'Бета', 'Γάμμα'];
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Word'], values.map((value) => [value])),
      placeholders: [placeholder({ column: 'Word', fontFamily: 'DejaVu Serif' })],
      fonts: new Map([['DejaVu Serif', dejavuSerif()]]),
    });
    const subsetNames = documents.map((document, i) => {
      expectQpdfClean(document.file);
      expect(pdfText(document.file).trim()).toBe(values[i]);
      const serif = pdfFonts(document.file).filter((font) => /DejaVuSerif/.test(font.name));
      expect(serif).toHaveLength(1);
      return serif[0]!.name;
    });
    expect(new Set(subsetNames).size).toBe(1);
  });

  it('sets an unknown font family in Helvetica', async () => {
    const file = await mergeOne([{ value: 'Fallback Family', fontFamily: 'No Such Font', ...boxOf(0.1, 0.2, 0.8, 0.05) }]);
    expect(pdfText(file).trim()).toBe('Fallback Family');
    expect(pdfFonts(file).map((font) => font.name)).toContain('Helvetica');
  });
});
