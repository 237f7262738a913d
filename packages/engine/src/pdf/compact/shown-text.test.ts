import fontkit from '@pdf-lib/fontkit';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, StandardFonts, decodePDFRawStream, type PDFDict } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { dejavu } from '../../text/test-support.ts';
import { shownText, twoByteCodes } from './shown-text.ts';

const encoder = new TextEncoder();
const scan = (content: string) => shownText(encoder.encode(content));

/** The strings shown with one font, each as a byte string for readable comparisons. */
function shownWith(content: string | Uint8Array, font: string): string[] {
  const result = typeof content === 'string' ? scan(content) : shownText(content);
  return (result.byFont.get(font) ?? []).map((bytes) => String.fromCharCode(...bytes));
}

describe('shownText: text-showing operators', () => {
  it('records Tj, \', " and TJ strings under the font set by Tf', () => {
    const result = scan('BT /F1 12 Tf (one) Tj (two) \' 1 2 (three) " [(fo) -120 (ur) 30.5 (!)] TJ ET');
    expect(shownWith('BT /F1 12 Tf (one) Tj (two) \' 1 2 (three) " [(fo) -120 (ur) 30.5 (!)] TJ ET', 'F1'))
      .toEqual(['one', 'two', 'three', 'fo', 'ur', '!']);
    expect(result.unknownFont).toBe(false);
    expect([...result.byFont.keys()]).toEqual(['F1']);
  });

  it('keeps each font\'s strings apart and decodes name escapes', () => {
    const content = 'BT /F1 9 Tf (a) Tj /F#232#20x 10 Tf (b) Tj /F1 9 Tf (c) Tj ET';
    expect(shownWith(content, 'F1')).toEqual(['a', 'c']);
    expect(shownWith(content, 'F#2 x')).toEqual(['b']);
  });

  it('reads operators written without white space between tokens', () => {
    expect(shownWith('BT/F1 12 Tf(a)Tj[(b)-5(c)]TJ(d)\'\nET', 'F1')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ignores comments, including ones that look like text', () => {
    expect(shownWith('/F1 1 Tf % (hidden) Tj\r(shown) Tj %(x) Tj', 'F1')).toEqual(['shown']);
  });
});

describe('shownText: strings', () => {
  it('decodes every literal string escape', () => {
    expect(shownWith('/F1 1 Tf (a\\n\\r\\t\\b\\f\\(\\)\\\\z) Tj', 'F1')).toEqual(['a\n\r\t\b\f()\\z']);
    expect(shownWith('/F1 1 Tf (\\101\\0531\\0053\\7\\777\\q) Tj', 'F1')).toEqual(['A+1\u00053\u0007\u00ffq']);
  });

  it('joins continued lines and reads a raw CR, LF or CRLF as one LF', () => {
    expect(shownWith('/F1 1 Tf (ab\\\ncd\\\r\nef\\\rgh) Tj', 'F1')).toEqual(['abcdefgh']);
    expect(shownWith('/F1 1 Tf (1\r2\n3\r\n4) Tj', 'F1')).toEqual(['1\n2\n3\n4']);
  });

  it('keeps balanced nested parentheses in the string', () => {
    expect(shownWith('/F1 1 Tf (f(x(y)) = \\(z) Tj', 'F1')).toEqual(['f(x(y)) = (z']);
  });

  it('reads hex strings with white space and pads an odd final digit', () => {
    expect(shownWith('/F1 1 Tf <00 4 8\n00\t65> Tj <4142 4> Tj <> Tj', 'F1')).toEqual(['\u0000H\u0000e', 'AB@', '']);
  });
});

describe('shownText: graphics state', () => {
  it('forgets a font set inside q..Q, and keeps it across BT/ET', () => {
    const content = '/F1 1 Tf q BT /F2 1 Tf (in) Tj ET Q BT (out) Tj ET BT (again) Tj ET';
    expect(shownWith(content, 'F2')).toEqual(['in']);
    expect(shownWith(content, 'F1')).toEqual(['out', 'again']);
    expect(scan(content).unknownFont).toBe(false);
  });

  it('restores through nested saves', () => {
    const content = '/A 1 Tf q /B 1 Tf q /C 1 Tf (c) Tj Q (b) Tj Q (a) Tj';
    expect([shownWith(content, 'A'), shownWith(content, 'B'), shownWith(content, 'C')]).toEqual([['a'], ['b'], ['c']]);
  });

  it('flags text shown before any Tf: the font is the caller\'s', () => {
    const result = scan('BT (x) Tj /F1 1 Tf (y) Tj ET');
    expect(result.unknownFont).toBe(true);
    expect(shownWith('BT (x) Tj /F1 1 Tf (y) Tj ET', 'F1')).toEqual(['y']);
    expect(scan('[(x)] TJ').unknownFont).toBe(true);
  });

  it('flags text after a Q that pops past the stream\'s own saves, and after a Tf it cannot read', () => {
    expect(scan('/F1 1 Tf Q (x) Tj').unknownFont).toBe(true);
    expect(scan('/F1 1 Tf Q').unknownFont).toBe(false);
    expect(scan('(F1) 1 Tf (x) Tj').unknownFont).toBe(true);
  });

  it('records XObjects painted with Do and graphics states applied with gs', () => {
    const result = scan('q 1 0 0 1 0 0 cm /Im1 Do Q /Fm#201 Do /GS0 gs /Im1 Do');
    expect([...result.xObjects]).toEqual(['Im1', 'Fm 1']);
    expect([...result.extGStates]).toEqual(['GS0']);
    expect(result.unknownFont).toBe(false);
  });
});

describe('shownText: what is not shown text', () => {
  it('skips inline image data, even when it holds text operators', () => {
    const content = '/F1 1 Tf BI /W 4 /H 1 /BPC 8 /CS /G /D [0 1] ID (x) Tj ]>>) EI (y) Tj';
    expect(shownWith(content, 'F1')).toEqual(['y']);
    expect(scan(content).unknownFont).toBe(false);
    // Binary data with bytes of every kind, "EI" inside a word, and the image at the very end.
    const binary = new Uint8Array([...encoder.encode('/F1 1 Tf BI /W 1 ID '), 0x28, 0xff, 0x00, 0x45, 0x49, 0x41, 0x5c, 0x20, ...encoder.encode('EI')]);
    expect(shownText(binary)).toEqual({ byFont: new Map(), xObjects: new Set(), extGStates: new Set(), unknownFont: false });
  });

  it('does not count strings of a marked-content property dictionary', () => {
    const content = '/F1 1 Tf /Span <</ActualText (x) /Alt <79> /Sub << /E [(z)] >> >> BDC (shown) Tj EMC /P <</MCID 0>> DP';
    expect(shownWith(content, 'F1')).toEqual(['shown']);
    expect(scan(content).unknownFont).toBe(false);
  });
});

describe('shownText: content it cannot read to the end', () => {
  it.each([
    ['an unterminated string', '/F1 1 Tf (abc) Tj (ab\\) Tj'],
    ['a string ending in a backslash', '/F1 1 Tf (ab\\'],
    ['an unterminated hex string', '/F1 1 Tf <4142'],
    ['a bad hex digit', '/F1 1 Tf <41zz> Tj'],
    ['an unterminated array', '/F1 1 Tf [(a) (b) TJ'],
    ['an unterminated dictionary', '/Span <</ActualText (x) BDC'],
    ['mismatched brackets', '/Span <</A [1 2>> ] BDC'],
    ['a lone closing bracket', '] (x) Tj'],
    ['an unterminated inline image', '/F1 1 Tf BI /W 1 ID xxxx'],
    ['an unknown operator (run-together TjET)', '/F1 1 Tf (a)TjET'],
    ['a number run into an operator', '/F1 1 Tf (a) 5Tj'],
    ['an operator inside an array', '/F1 1 Tf [(a) Tj] TJ'],
  ])('flags %s', (_label, content) => {
    expect(scan(content).unknownFont).toBe(true);
  });

  it('keeps what it read before the fault', () => {
    const result = scan('/F1 1 Tf (a) Tj /X Do (b');
    expect(result.unknownFont).toBe(true);
    expect(shownWith('/F1 1 Tf (a) Tj /X Do (b', 'F1')).toEqual(['a']);
    expect([...result.xObjects]).toEqual(['X']);
  });

  it('accepts the number and keyword operands producers write', () => {
    expect(scan('/F1 +1.5 Tf -.5 0 .25 4. 1e-3 0 cm (a) Tj').unknownFont).toBe(false);
    expect(scan('/F1 1 Tf /OC <</V true /N null /A [false]>> BDC true (a) Tj EMC').unknownFont).toBe(false);
    expect(scan('/F1 1 Tf nul (a) Tj').unknownFont).toBe(true);
    expect(scan('/F1 1 Tf 1.2.3 0 Td').unknownFont).toBe(true);
  });
});

describe('twoByteCodes', () => {
  it('reads big-endian pairs across strings and ignores an odd trailing byte', () => {
    const codes = new Set<number>([7]);
    twoByteCodes([Uint8Array.of(0x01, 0x02, 0xff, 0xfe, 0x09), Uint8Array.of(0x00, 0x07), new Uint8Array()], codes);
    expect([...codes].sort((a, b) => a - b)).toEqual([7, 0x0102, 0xfffe]);
  });
});

describe('shownText on a page pdf-lib drew', () => {
  it('finds exactly the glyph ids of the text drawn with an embedded font', async () => {
    const fontBytes = dejavu('DejaVuSans.ttf');
    const text = 'Grüße, Ωμέγα & 123';
    const source = await PDFDocument.create();
    source.registerFontkit(fontkit);
    const dejaVu = await source.embedFont(fontBytes);
    const helvetica = await source.embedFont(StandardFonts.Helvetica);
    const page = source.addPage([400, 200]);
    page.drawText(text, { x: 20, y: 150, size: 14, font: dejaVu });
    page.drawText('plain', { x: 20, y: 100, size: 14, font: helvetica });
    page.drawText('ffi line\nsecond', { x: 20, y: 60, size: 14, font: dejaVu });

    const reloaded = await PDFDocument.load(await source.save());
    const pageDict = reloaded.getPage(0).node;
    const content = pageContent(pageDict);
    const fonts = pageDict.Resources()!.lookup(PDFName.of('Font')) as PDFDict;
    const fontNames = fonts.keys().map((key) => key.decodeText());
    // pdf-lib adds a resource name each time drawText sets a font: the embedded one has two.
    const dejaVuNames = fonts.keys().filter((key) => fonts.get(key) === dejaVu.ref).map((key) => key.decodeText());
    expect(dejaVuNames).toHaveLength(2);

    const result = shownText(content);
    expect(result.unknownFont).toBe(false);
    expect([...result.byFont.keys()].sort()).toEqual([...fontNames].sort());
    const layoutFont = fontkit.create(fontBytes);
    const expectedIds = ['Grüße, Ωμέγα & 123', 'ffi line', 'second'].flatMap((line) => layoutFont.layout(line).glyphs.map((glyph) => glyph.id));
    const shownStrings = dejaVuNames.flatMap((name) => result.byFont.get(name)!);
    const shownIds: number[] = [];
    for (const bytes of shownStrings) {
      for (let i = 0; i + 1 < bytes.length; i += 2) shownIds.push((bytes[i]! << 8) | bytes[i + 1]!);
    }
    expect(shownIds).toEqual(expectedIds);
    const codes = new Set<number>();
    twoByteCodes(shownStrings, codes);
    expect(codes).toEqual(new Set(expectedIds));
    expect(codes.has(layoutFont.glyphForCodePoint(0x3a9).id)).toBe(true); // Ω
  });
});

/** The page's content streams, decoded and joined as a reader joins them. */
function pageContent(pageDict: PDFDict): Uint8Array {
  const contents = pageDict.lookup(PDFName.of('Contents'));
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pageDict.context.lookup(ref)) : [contents];
  const parts = streams.map((stream) => decodePDFRawStream(stream as PDFRawStream).decode());
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length + 1, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    joined[offset + part.length] = 0x0a;
    offset += part.length + 1;
  }
  return joined;
}
