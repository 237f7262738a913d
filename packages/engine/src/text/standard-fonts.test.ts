import { PDFDict, PDFName, PDFRef } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { newRegistry, pdfText, renderPage, style, workFolder, type Placed } from './test-support.ts';
import type { TextStyle } from './types.ts';

const work = workFolder('standard-fonts');
afterAll(work.cleanup);

const box = (row: number) => ({ x: 40, y: 800 - row * 30, width: 500, height: 24 });

function baseFontOf(rendered: { context: import('pdf-lib').PDFContext; refs: Map<string, PDFRef> }, resource: string): string {
  const dict = rendered.context.lookup(rendered.refs.get(resource)!, PDFDict);
  return dict.get(PDFName.of('BaseFont'))!.toString();
}

describe('base-14 fonts', () => {
  const cases: [string, TextStyle['fontStyle'], string][] = [
    ['Courier', 'normal', '/Courier'], ['Courier', 'bold', '/Courier-Bold'], ['Courier', 'italic', '/Courier-Oblique'], ['Courier', 'boldItalic', '/Courier-BoldOblique'],
    ['Helvetica', 'normal', '/Helvetica'], ['Helvetica', 'bold', '/Helvetica-Bold'], ['Helvetica', 'italic', '/Helvetica-Oblique'], ['Helvetica', 'boldItalic', '/Helvetica-BoldOblique'],
    ['Times New Roman', 'normal', '/Times-Roman'], ['Times New Roman', 'bold', '/Times-Bold'], ['Times New Roman', 'italic', '/Times-Italic'], ['Times New Roman', 'boldItalic', '/Times-BoldItalic'],
  ];

  it('prints every family and style with its own unembedded WinAnsi Type1 font', async () => {
    const registry = await newRegistry();
    const items: Placed[] = cases.map(([fontFamily, fontStyle], row) => ({
      text: `Line ${row} ${fontFamily} ${fontStyle}`,
      style: style({ fontFamily, fontStyle }),
      box: box(row),
    }));
    const rendered = await renderPage(work.dir, registry, items);
    expect(registry.resourceNames()).toHaveLength(12);
    cases.forEach(([, , baseFont], row) => {
      const resource = rendered.layouts[row]!.lines[0]!.runs[0]!.face.font.resourceName;
      expect(baseFontOf(rendered, resource)).toBe(baseFont);
      const dict = rendered.context.lookup(rendered.refs.get(resource)!, PDFDict);
      expect(dict.get(PDFName.of('Subtype'))!.toString()).toBe('/Type1');
      expect(dict.get(PDFName.of('Encoding'))!.toString()).toBe('/WinAnsiEncoding');
    });
    const lines = pdfText(rendered.file).split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual(items.map((item) => item.text));
  });

  it('measures with the fonts\' own metrics (AFM widths)', async () => {
    const registry = await newRegistry();
    // Helvetica: H 722, e 556, l 222, l 222, o 556 -> 2.278 em; Courier is 0.6 em per character.
    const helvetica = registry.layout('Hello', style({ fontSize: 10 }), box(0));
    expect(helvetica.lines[0]!.width).toBeCloseTo(22.78, 6);
    const courier = registry.layout('Hello', style({ fontFamily: 'Courier', fontSize: 10 }), box(0));
    expect(courier.lines[0]!.width).toBeCloseTo(30, 6);
    const timesBold = registry.layout('W', style({ fontFamily: 'Times New Roman', fontStyle: 'bold', fontSize: 100 }), box(0));
    expect(timesBold.lines[0]!.width).toBeCloseTo(100, 6);
  });

  it('prints WinAnsi punctuation and accents with the base-14 font itself', async () => {
    const registry = await newRegistry();
    const text = '“Quoted” – €42 · Grüße, ß, Ærø, Œuvre… ™';
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({}), box: box(0) }]);
    expect(registry.resourceNames()).toHaveLength(1);
    expect(pdfText(rendered.file).trim()).toBe(text);
  });

  it('prints characters WinAnsi lacks (Ł, Greek, Cyrillic) with the DejaVu fallback, run by run', async () => {
    const registry = await newRegistry();
    const text = 'Łódź €5 Αθήνα Москва end';
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ fontFamily: 'Times New Roman' }), box: box(0) }]);
    const fonts = registry.resourceNames().map((name) => baseFontOf(rendered, name));
    expect(fonts).toHaveLength(2);
    expect(fonts).toContain('/Times-Roman');
    expect(fonts.find((name) => name !== '/Times-Roman')).toMatch(/^\/[A-Z]{6}\+DejaVuSans$/);
    const runs = rendered.layouts[0]!.lines[0]!.runs;
    expect(runs.map((run) => run.face.font.kind)).toEqual(['embedded', 'standard', 'embedded', 'standard', 'embedded', 'standard']);
    // Runs abut: each starts where the previous one ends.
    for (let i = 1; i < runs.length; i++) expect(runs[i]!.x).toBeCloseTo(runs[i - 1]!.x + runs[i - 1]!.width, 6);
    expect(pdfText(rendered.file).trim()).toBe(text);
  });

  it('uses the bold fallback for a bold style', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [{ text: 'Ωμέγα', style: style({ fontStyle: 'bold' }), box: box(0) }]);
    expect(registry.resourceNames().map((name) => baseFontOf(rendered, name))).toEqual([expect.stringMatching(/\+DejaVuSans-Bold$/)]);
    expect(pdfText(rendered.file).trim()).toBe('Ωμέγα');
  });

  it('falls back to Helvetica for an unknown family and matches standard names loosely', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [
      { text: 'Unknown family', style: style({ fontFamily: 'No Such Font' }), box: box(0) },
      { text: 'lower case times', style: style({ fontFamily: ' times new roman ' }), box: box(1) },
    ]);
    expect(registry.resourceNames().map((name) => baseFontOf(rendered, name))).toEqual(['/Helvetica', '/Times-Roman']);
  });
});
