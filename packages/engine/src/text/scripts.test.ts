import fontkit from '@pdf-lib/fontkit';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dejavu, inkIn, newRegistry, pdfText, renderGrey, renderPage, style, withoutBidiMarks, wordBoxes, workFolder, type WordBox,
} from './test-support.ts';
import type { EmbeddedFont } from './faces/embedded-font.ts';
import type { TextLayout } from './types.ts';

const work = workFolder('scripts');
afterAll(work.cleanup);

const box = (row: number, width = 500) => ({ x: 40, y: 780 - row * 40, width, height: 36 });

function word(boxes: readonly WordBox[], text: string): WordBox {
  const found = boxes.find((candidate) => candidate.word === text);
  if (!found) throw new Error(`no word "${text}" in ${boxes.map((candidate) => candidate.word).join(' ')}`);
  return found;
}

/** pdftotext -bbox spells right-to-left words in visual order. */
const visual = (text: string) => [...text].reverse().join('');

/** Original (font) glyph ids a layout draws with the given embedded font, from the runs' hex codes. */
function glyphIdsDrawn(layout: TextLayout): number[] {
  const ids: number[] = [];
  for (const run of layout.lines.flatMap((line) => line.runs)) {
    if (run.face.font.kind !== 'embedded') continue;
    const font = run.face.font as EmbeddedFont;
    for (const hex of run.show.matchAll(/[0-9A-F]{4}/g)) ids.push(font.glyphIds[parseInt(hex[0], 16)]!);
  }
  return ids;
}

describe('scripts Helvetica lacks, through the DejaVu fallback', () => {
  it('prints Greek and Cyrillic and extracts them again', async () => {
    const registry = await newRegistry();
    const texts = ['Καλημέρα κόσμε, ψυχή', 'Съешь же ещё этих мягких булок'];
    const rendered = await renderPage(work.dir, registry, texts.map((text, row) => ({ text, style: style({}), box: box(row) })));
    expect(pdfText(rendered.file).split('\n').map((line) => line.trim()).filter(Boolean)).toEqual(texts);
  });

  it('prints characters no font has as .notdef and keeps the rest', async () => {
    const registry = await newRegistry();
    const text = 'abc \u{10FFFD} def';
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({}), box: box(0) }]);
    expect(rendered.operators).toContain('<0000');
    const boxes = wordBoxes(rendered.file);
    expect(word(boxes, 'def').xMin).toBeGreaterThan(word(boxes, 'abc').xMax + 5);
  });
});

describe('Hebrew (right to left)', () => {
  it('draws words in visual order and extracts the logical text', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [{ text: 'שלום עולם', style: style({}), box: box(0) }]);
    const boxes = wordBoxes(rendered.file);
    expect(word(boxes, visual('שלום')).xMin).toBeGreaterThan(word(boxes, visual('עולם')).xMax);
    expect(withoutBidiMarks(pdfText(rendered.file)).trim()).toBe('שלום עולם');
  });

  it('orders a right-to-left paragraph with a number, and a left-to-right one with Hebrew inside', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [
      { text: 'שלום 123 עולם', style: style({}), box: box(0) },
      { text: 'Order 123 שלום עולם', style: style({}), box: box(1) },
    ]);
    const boxes = wordBoxes(rendered.file);
    const row = (index: number) => boxes.filter((candidate) => Math.abs(candidate.yMin - (box(index).y + 20)) < 20);
    const rtl = row(0);
    expect(rtl.map((candidate) => candidate.word)).toEqual([visual('עולם'), '123', visual('שלום')]);
    const ltr = row(1).sort((a, b) => a.xMin - b.xMin).map((candidate) => candidate.word);
    expect(ltr).toEqual(['Order', '123', visual('עולם'), visual('שלום')]);
  });

  it('mirrors brackets inside right-to-left text', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('(שלום)', style({}), box(0));
    const runs = layout.lines[0]!.runs;
    // Visually left to right: "(" then the word then ")": the logical ")" is drawn mirrored on the left.
    expect(runs[0]!.show).toBe('(\\() Tj');
    expect(runs[runs.length - 1]!.show).toBe('(\\)) Tj');
  });

  it('right-aligns and wraps with the first logical words on the first line, rightmost', async () => {
    const registry = await newRegistry();
    const area = box(0, 120);
    area.height = 100;
    area.y = 600;
    const text = 'אחת שתיים שלוש ארבע חמש שש שבע';
    const rendered = await renderPage(work.dir, registry, [{ text, style: style({ align: 'right' }), box: area }]);
    expect(rendered.layouts[0]!.lines.length).toBeGreaterThan(1);
    const boxes = wordBoxes(rendered.file);
    const first = word(boxes, visual('אחת'));
    expect(first.xMax).toBeCloseTo(area.x + area.width, 0);
    expect(first.yMin).toBeGreaterThan(Math.max(...boxes.map((candidate) => candidate.yMin)) - 1);
    expect(withoutBidiMarks(pdfText(rendered.file)).split(/\s+/).filter(Boolean)).toEqual(text.split(' '));
  });
});

describe('Arabic (joining, ligatures)', () => {
  it('joins letters: the drawn glyphs are contextual forms, not the isolated ones', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('مرحبا', style({}), box(0));
    const font = fontkit.create(dejavu('DejaVuSans.ttf'));
    const isolated = [...'مرحبا'].map((letter) => font.glyphForCodePoint(letter.codePointAt(0)!).id);
    const drawn = glyphIdsDrawn(layout);
    expect(drawn).toHaveLength(5);
    for (const id of drawn) expect(isolated).not.toContain(id);
  });

  it('forms the lam-alef ligature and extracts the logical text again', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [
      { text: 'سلام', style: style({}), box: box(0) },
      { text: 'مرحبا بالعالم', style: style({}), box: box(1) },
    ]);
    // Four letters, three glyphs: lam and alef become one.
    expect(glyphIdsDrawn(rendered.layouts[0]!)).toHaveLength(3);
    const lines = withoutBidiMarks(pdfText(rendered.file)).split('\n').map((line) => line.trim()).filter(Boolean);
    expect(lines).toEqual(['سلام', 'مرحبا بالعالم']);
  });

  it('places an Arabic word right of a Latin word in a left-to-right paragraph', async () => {
    const registry = await newRegistry();
    const rendered = await renderPage(work.dir, registry, [{ text: 'Name: مرحبا', style: style({}), box: box(0) }]);
    const boxes = wordBoxes(rendered.file);
    expect(word(boxes, visual('مرحبا')).xMin).toBeGreaterThan(word(boxes, 'Name:').xMax);
  });
});

describe('combining marks', () => {
  it('positions niqqud and harakat with TJ offsets and the text rise', async () => {
    const registry = await newRegistry();
    const texts = ['שָׁלוֹם עוֹלָם', 'مُحَمَّد الْعَرَبِيَّة'];
    const rendered = await renderPage(work.dir, registry, texts.map((text, row) => ({ text, style: style({ fontSize: 24 }), box: box(row) })));
    expect(rendered.operators).toMatch(/-?[\d.]+ Ts \[[^\]]+\] TJ 0 Ts/);
    // Every TJ number stands alone: "12-30" would be one malformed token.
    for (const array of rendered.operators.matchAll(/\[([^\]]*)\] TJ/g)) expect(array[1]).not.toMatch(/[\d.]-/);
    const image = renderGrey(rendered.file);
    for (const row of [0, 1]) expect(inkIn(image, box(row), 842)).toBeGreaterThan(100);
    // Extraction splits risen marks off, but the base letters come back in order.
    expect(withoutBidiMarks(pdfText(rendered.file))).toContain('לו');
  });

  it('composes a base letter and a combining accent the chosen font prints precomposed', async () => {
    const registry = await newRegistry();
    const layout = registry.layout('e\u0301te\u0301', style({}), box(0));
    expect(layout.lines[0]!.runs.map((run) => run.show)).toEqual(['(\\351t\\351) Tj']);
    expect(registry.resourceNames()).toHaveLength(1);
  });
});
