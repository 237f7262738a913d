import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundledFallbackFonts } from '../node/fonts.ts';
import { FontCatalog } from './faces/catalog.ts';
import { breakSimple, mapSimple, simple } from './simple-text.ts';
import { buildParagraphs } from './complex/pieces.ts';
import { breakWords, toWords, type PieceLine } from './complex/break-lines.ts';
import type { FaceSet } from './faces/face.ts';

let helvetica: FaceSet;
beforeAll(async () => {
  const catalog = new FontCatalog({ customFonts: new Map(), fallbackFonts: await loadBundledFallbackFonts() });
  helvetica = catalog.faceSet('Helvetica', 'normal');
});

/** The fast path's lines: [text, width em]. */
function fastLines(text: string, maxWidth: number): [string, number][] {
  expect(mapSimple(text, helvetica.primary.font)).toBe(true);
  const spans: number[] = [];
  breakSimple(text, maxWidth, spans);
  const lines: [string, number][] = [];
  for (let i = 0; i < spans.length; i += 3) lines.push([text.slice(spans[i], spans[i + 1]), spans[i + 2]!]);
  return lines;
}

/** The complex path's lines for the same text: widths only (pieces hold codes, not text). */
function complexWidths(text: string, maxWidth: number): number[] {
  const lines: PieceLine[] = [];
  for (const paragraph of buildParagraphs(text, helvetica)) breakWords(toWords(paragraph), maxWidth, lines);
  return lines.map((line) => line.width);
}

const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\n');
const latinText = fc.tuple(word, fc.array(fc.tuple(separator, word), { maxLength: 12 }))
  .map(([first, rest]) => first + rest.map(([gap, next]) => gap + next).join(''));

describe('greedy line breaking', () => {
  it('fills lines word by word, hanging spaces, breaking long words and at newlines', () => {
    // Helvetica at 1 pt: "aaa" 1.668 em, a space 0.278 em.
    expect(fastLines('aaa aaa aaa', 3.7).map(([line]) => line)).toEqual(['aaa aaa', 'aaa']);
    expect(fastLines('aaa  aaa', 2).map(([line]) => line)).toEqual(['aaa', 'aaa']);
    expect(fastLines('aaaaaaa', 2).map(([line]) => line)).toEqual(['aaa', 'aaa', 'a']);
    expect(fastLines('aaa\n\naaa ', 100).map(([line]) => line)).toEqual(['aaa', '', 'aaa']);
    const [[line, width]] = fastLines('aaa aaa', Infinity) as [[string, number]];
    expect(line).toBe('aaa aaa');
    expect(width).toBeCloseTo(1.668 * 2 + 0.278, 9);
  });

  it('keeps every word, in order, and never exceeds the width except for a single character', () => {
    fc.assert(
      fc.property(latinText, fc.double({ min: 0.5, max: 30, noNaN: true }), (text, maxWidth) => {
        const lines = fastLines(text, maxWidth);
        expect(lines.map(([line]) => line).join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
        for (const [line, width] of lines) {
          expect(line).toBe(line.trimEnd());
          if (line.length > 1) expect(width).toBeLessThanOrEqual(maxWidth + 1e-9);
        }
        expect(lines.length).toBeGreaterThanOrEqual(text.split('\n').length);
      }),
      { numRuns: 150 },
    );
  });

  it('breaks the same way on the complex path as on the fast path', () => {
    fc.assert(
      fc.property(latinText, fc.double({ min: 0.5, max: 30, noNaN: true }), (text, maxWidth) => {
        const fast = fastLines(text, maxWidth).map(([, width]) => width);
        const complex = complexWidths(text, maxWidth);
        expect(complex).toHaveLength(fast.length);
        complex.forEach((width, index) => expect(width).toBeCloseTo(fast[index]!, 9));
      }),
      { numRuns: 150 },
    );
  });

  it('maps a string on the fast path only when one font prints it left to right unshaped', () => {
    const font = helvetica.primary.font;
    expect(mapSimple('Grüße “quoted” €5', font)).toBe(true);
    expect(simple.total).toBeGreaterThan(0);
    for (const text of ['Łódź', 'שלום', 'tab\there', 'e\u0301', 'emoji \u{1F600}']) expect(mapSimple(text, font)).toBe(false);
  });
});
