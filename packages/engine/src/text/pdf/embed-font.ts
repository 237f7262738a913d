/**
 * Font dictionaries, written once per merge into the output's PDFContext: base-14 fonts as simple
 * Type1 dictionaries, embedded fonts as Type0 over a CIDFont with the subset program, widths and a
 * ToUnicode CMap (so text extraction gives back the characters, ligatures included).
 */
import { PDFString, type PDFContext, type PDFRef } from 'pdf-lib';
import type { EmbeddedFont } from '../faces/embedded-font.ts';
import type { StandardFont } from '../faces/standard-font.ts';
import { toUnicodeCMap } from './to-unicode.ts';

export function embedStandardFont(context: PDFContext, font: StandardFont): PDFRef {
  return context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: font.baseFont, Encoding: 'WinAnsiEncoding' }));
}

export function embedSubsetFont(context: PDFContext, font: EmbeddedFont): PDFRef {
  const program = font.subsetProgram();
  const { descriptor } = font;
  const toPdf = 1000 / font.font.unitsPerEm;
  const baseFont = `${subsetTag(font.glyphIds)}+${postscriptName(descriptor.postscriptName, font.name)}`;
  const fileRef = context.register(context.flateStream(program, font.isCFF ? { Subtype: 'CIDFontType0C' } : { Length1: program.length }));
  const descriptorRef = context.register(context.obj({
    Type: 'FontDescriptor',
    FontName: baseFont,
    Flags: fontFlags(font),
    FontBBox: descriptor.bbox.map((value) => Math.round(value * toPdf)),
    ItalicAngle: Math.round(descriptor.italicAngle),
    Ascent: Math.round(font.metrics.ascent * 1000),
    Descent: Math.round(font.metrics.descent * 1000),
    CapHeight: Math.round(descriptor.capHeight * toPdf),
    StemV: 80,
    [font.isCFF ? 'FontFile3' : 'FontFile2']: fileRef,
  }));
  const cidFontRef = context.register(context.obj({
    Type: 'Font',
    Subtype: font.isCFF ? 'CIDFontType0' : 'CIDFontType2',
    BaseFont: baseFont,
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
    FontDescriptor: descriptorRef,
    W: [0, font.widths.map((width) => Math.round(width * 1_000_000) / 1000)],
    ...(font.isCFF ? {} : { CIDToGIDMap: 'Identity' }),
  }));
  const toUnicodeRef = context.register(context.flateStream(toUnicodeCMap(font.unicode)));
  return context.register(context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: baseFont,
    Encoding: 'Identity-H',
    DescendantFonts: [cidFontRef],
    ToUnicode: toUnicodeRef,
  }));
}

/** Six capital letters derived from the glyph set, as PDF subset names require (stable across runs). */
function subsetTag(glyphIds: readonly number[]): string {
  let hash = 0x811c9dc5;
  for (const id of glyphIds) hash = Math.imul(hash ^ id, 0x01000193) >>> 0;
  let tag = '';
  for (let i = 0; i < 6; i++) {
    tag += String.fromCharCode(65 + (hash % 26));
    hash = Math.floor(hash / 26) + i * 7919;
  }
  return tag;
}

/** A PostScript-safe font name: printable ASCII without delimiters, at most 63 characters. */
function postscriptName(postscript: string, family: string): string {
  const cleaned = (postscript || family).replace(/[^A-Za-z0-9_.-]/g, '');
  return (cleaned || 'Font').slice(0, 63);
}

/** FontDescriptor flags: FixedPitch 1, Serif 2, Symbolic 4 (glyphs outside the standard Latin set), Italic 64. */
function fontFlags({ descriptor }: EmbeddedFont): number {
  let flags = 4;
  if (descriptor.fixedPitch) flags |= 1;
  if (descriptor.serif) flags |= 2;
  if (descriptor.italic) flags |= 64;
  return flags;
}
