import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { isSheafError } from '@sheaf/shared';
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, type PDFContext, type PDFRef } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { FONT_FIXTURES } from '../../../../scripts/fixtures/fonts.ts';
import {
  WQY_MICROHEI, dejavu, fixture, inkIn, newRegistry, pdfText, renderGrey, renderPage, style, totalInk, workFolder,
} from './test-support.ts';

const work = workFolder('custom-fonts');
afterAll(work.cleanup);

const box = (row: number) => ({ x: 40, y: 780 - row * 40, width: 500, height: 36 });

/** The Type0 font, its CIDFont and descriptor, as embed() wrote them. */
function type0Parts(context: PDFContext, ref: PDFRef) {
  const type0 = context.lookup(ref, PDFDict);
  const cidFont = context.lookup(type0.lookup(PDFName.of('DescendantFonts'), PDFArray).get(0), PDFDict);
  const descriptor = context.lookup(cidFont.get(PDFName.of('FontDescriptor')), PDFDict);
  return { type0, cidFont, descriptor };
}

function fontProgram(context: PDFContext, descriptor: PDFDict, key: 'FontFile2' | 'FontFile3'): PDFRawStream {
  const stream = context.lookup(descriptor.get(PDFName.of(key)));
  if (!(stream instanceof PDFRawStream)) throw new Error(`no ${key} stream`);
  return stream;
}

function pdffonts(file: string): string {
  return execFileSync('pdffonts', [file], { encoding: 'utf8' });
}

describe('custom TrueType fonts', () => {
  it('embeds DejaVu Serif as a Type0/CIDFontType2 subset with widths and a ToUnicode map', async () => {
    const serif = dejavu('DejaVuSerif.ttf');
    const registry = await newRegistry({ 'DejaVu Serif': serif });
    const text = 'Serif text: Größe, ñ, Ελληνικά, Кириллица';
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ fontFamily: 'DejaVu Serif' }), box: box(0) }]);
    expect(registry.resourceNames()).toHaveLength(1);
    const { type0, cidFont, descriptor } = type0Parts(rendered.context, rendered.refs.get(registry.resourceNames()[0]!)!);
    expect(type0.get(PDFName.of('Subtype'))!.toString()).toBe('/Type0');
    expect(type0.get(PDFName.of('Encoding'))!.toString()).toBe('/Identity-H');
    expect(type0.get(PDFName.of('ToUnicode'))).toBeDefined();
    expect(cidFont.get(PDFName.of('Subtype'))!.toString()).toBe('/CIDFontType2');
    expect(cidFont.get(PDFName.of('W'))).toBeInstanceOf(PDFArray);
    expect(type0.get(PDFName.of('BaseFont'))!.toString()).toMatch(/^\/[A-Z]{6}\+DejaVuSerif$/);

    // The subset is a small fraction of the 380 KB original.
    const program = fontProgram(rendered.context, descriptor, 'FontFile2');
    const length1 = program.dict.lookup(PDFName.of('Length1'), PDFNumber).asNumber();
    expect(length1).toBeLessThan(serif.length / 10);
    expect(program.contents.length).toBeLessThan(length1);

    expect(pdfText(rendered.file).trim()).toBe(text);
    expect(pdffonts(rendered.file)).toMatch(/DejaVuSerif\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('prints CJK with a TrueType collection (WenQuanYi Micro Hei, first face)', async () => {
    const registry = await newRegistry({ WenQuanYi: new Uint8Array(readFileSync(WQY_MICROHEI)) });
    const text = '你好，世界！中文排版测试';
    const area = box(0);
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ fontFamily: 'WenQuanYi', fontSize: 20 }), box: area }]);
    expect(pdfText(rendered.file).trim()).toBe(text);
    expect(pdffonts(rendered.file)).toMatch(/\+WenQuanYiMicroHei\s+CID TrueType/);
    expect(inkIn(renderGrey(rendered.file), area, 842)).toBeGreaterThan(500);
  });

  it('embeds an OpenType font with CFF outlines as a CIDFontType0 subset poppler can read', async () => {
    const registry = await newRegistry({ Inconsolata: fixture(FONT_FIXTURES.cff) });
    const text = 'Inconsolata CFF 0123 ÄÖÜ';
    const area = box(0);
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ fontFamily: 'Inconsolata', fontSize: 20 }), box: area }]);
    const { cidFont, descriptor } = type0Parts(rendered.context, rendered.refs.get(registry.resourceNames()[0]!)!);
    expect(cidFont.get(PDFName.of('Subtype'))!.toString()).toBe('/CIDFontType0');
    const program = fontProgram(rendered.context, descriptor, 'FontFile3');
    expect(program.dict.get(PDFName.of('Subtype'))!.toString()).toBe('/CIDFontType0C');
    // pdfText fails on any poppler complaint, e.g. "Embedded font file may be invalid".
    expect(pdfText(rendered.file).trim()).toBe(text);
    // Monospaced: 24 characters at 0.5 em, 20 pt.
    expect(rendered.layouts[0]!.lines[0]!.width).toBeCloseTo(240, 3);
    expect(inkIn(renderGrey(rendered.file), area, 842)).toBeGreaterThan(500);
  });
});

describe('synthesised styles for custom fonts', () => {
  it('draws bold as fill+stroke (more ink) and italic with a skewed text matrix', async () => {
    const serif = dejavu('DejaVuSerif.ttf');
    const registry = await newRegistry({ Serif: serif });
    const text = 'Synthesised styles';
    const rendered = await renderPage(work.dir, registry, [
      { text, style: style({ fontFamily: 'Serif', fontSize: 24 }), box: box(0) },
      { text, style: style({ fontFamily: 'Serif', fontSize: 24, fontStyle: 'bold' }), box: box(1) },
      { text, style: style({ fontFamily: 'Serif', fontSize: 24, fontStyle: 'italic' }), box: box(2) },
    ]);
    const [regular, bold, italic] = rendered.layouts.map((layout) => registry.draw(layout));
    expect(regular).toContain('0 Tr');
    expect(bold).toMatch(/2 Tr [\d.]+ w 0 0 0 RG/);
    expect(bold).toMatch(/0 Tr\nET/);
    expect(italic).toMatch(/1 0 0\.2126 1 [\d.]+ [\d.]+ Tm/);
    // One font program serves all three styles.
    expect(registry.resourceNames()).toHaveLength(1);
    const image = renderGrey(rendered.file);
    const [regularInk, boldInk, italicInk] = [0, 1, 2].map((row) => inkIn(image, box(row), 842));
    expect(boldInk).toBeGreaterThan(regularInk! * 1.15);
    expect(italicInk).toBeGreaterThan(regularInk! * 0.8);
    expect(pdfText(rendered.file).split('\n').map((line) => line.trim()).filter(Boolean)).toEqual([text, text, text]);
  });

  it('synthesises the fallback\'s bold when no bold fallback file is supplied', async () => {
    const registry = new (await import('./registry.ts')).FontRegistry({ customFonts: new Map(), fallbackFonts: { regular: dejavu('DejaVuSans.ttf') } });
    const rendered = await renderPage(work.dir, registry, [{ text: 'Ωμέγα', style: style({ fontStyle: 'bold' }), box: box(0) }]);
    expect(rendered.operators).toMatch(/2 Tr/);
    expect(pdfText(rendered.file).trim()).toBe('Ωμέγα');
  });
});

describe('font errors', () => {
  const broken: [string, Uint8Array][] = [
    ['truncated TrueType', fixture(FONT_FIXTURES.truncated)],
    ['text renamed to .otf', fixture(FONT_FIXTURES.notAFont)],
    ['empty file', new Uint8Array(0)],
  ];
  for (const [label, bytes] of broken) {
    it(`reports a ${label} as font/corrupt with the font's name`, async () => {
      const registry = await newRegistry({ 'My Font': bytes });
      let caught: unknown;
      try {
        registry.collect('Hello', style({ fontFamily: 'My Font' }));
      } catch (error) {
        caught = error;
      }
      expect(isSheafError(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'font/corrupt', params: { name: 'My Font' } });
    });
  }

  it('does not read custom fonts no placeholder uses', async () => {
    const registry = await newRegistry({ Unused: fixture(FONT_FIXTURES.notAFont) });
    expect(() => registry.collect('Hello', style({}))).not.toThrow();
  });
});

describe('subset lifecycle', () => {
  it('prints a character nobody collected as .notdef once the fonts are embedded, without failing', async () => {
    const registry = await newRegistry({ Serif: dejavu('DejaVuSerif.ttf') });
    const serif = style({ fontFamily: 'Serif' });
    const rendered = await renderPage(work.dir, registry, [{ text: 'abc', style: serif, box: box(0) }]);
    const late = registry.draw(registry.layout('abcz', serif, box(1)));
    expect(late).toMatch(/<0001000200030000> Tj/);
    expect(rendered.operators).toMatch(/<000100020003> Tj/);
  });

  it('refuses a font first needed after embed() (the value was never collected)', async () => {
    const registry = await newRegistry();
    await renderPage(work.dir, registry, [{ text: 'abc', style: style({}), box: box(0) }]);
    expect(() => registry.layout('abc', style({ fontFamily: 'Courier' }), box(1))).toThrow(/not collected/);
  });

  it('grows the subset for glyphs laid out after freeze() but before embed()', async () => {
    const registry = await newRegistry({ Serif: dejavu('DejaVuSerif.ttf') });
    const serif = style({ fontFamily: 'Serif' });
    registry.collect('abc', serif);
    registry.freeze();
    const layout = registry.layout('xyz', serif, box(0));
    const rendered = await renderPage(work.dir, registry, []);
    const { descriptor } = type0Parts(rendered.context, rendered.refs.get(registry.resourceNames()[0]!)!);
    expect(descriptor.get(PDFName.of('FontFile2'))).toBeDefined();
    expect(registry.draw(layout)).toMatch(/<000400050006> Tj/);
    expect(totalInk(renderGrey(rendered.file))).toBe(0);
  });
});
