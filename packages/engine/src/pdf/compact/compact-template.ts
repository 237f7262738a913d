/**
 * Compressed output (the template's "compress" option, on by default): when a template embeds whole
 * fonts, every output document would carry them, ~200 KB each for a font like DejaVu Serif, though the
 * page shows a hundred glyphs. Here those fonts are pruned to the glyphs the template shows, under
 * the same glyph ids so no content stream changes, and the template is written out afresh (only the
 * objects its catalogue reaches) as the base every output is appended to. The values a merge draws
 * use Sheaf's own fonts, so nothing a row needs is lost.
 *
 * A template is left as it is when nothing qualifies or the saving is small, when it carries a
 * digital signature (its signed revision must stay byte for byte), or when any step cannot be sure.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import { ascii, concatBytes, indexOf, latin1 } from '../bytes.ts';
import { decodeBudget, type DecodeBudget } from '../decode.ts';
import { decodeStrictly, flateStream } from './strict-decode.ts';
import type { Template } from '../template.ts';
import { classicXrefSection, serializeSection } from '../writer.ts';
import { readXrefChain } from '../xref.ts';
import { keptToUnicode, keptWidths } from './cid-font-parts.ts';
import { prunableFonts, type PrunableFont } from './font-usage.ts';
import { pruneTrueTypeGlyphs } from './truetype-prune.ts';

/** Below this saving the template's own bytes are kept: a rewrite is not worth it. */
const MIN_COMPACT_SAVING_BYTES = 16 * 1024;

const name = (value: string) => PDFName.of(value);
const BINARY_MARK = new Uint8Array([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

/** The template with whole embedded fonts pruned and its bytes rewritten, or the template itself. */
export function compactTemplate(template: Template): Template {
  try {
    if (isSigned(template.doc.context)) return template;
    const fonts = prunableFonts(template.doc.context, template.pages, decodeBudget(template.base.length));
    if (!fonts?.length) return template;
    const replacements = prunedObjects(template.doc.context, fonts);
    if (!replacements) return template;
    const { context } = template.doc;
    // Measure before touching the document: the saving decides whether to change anything at all.
    const before = replacements.reduce((sum, [ref]) => sum + (context.lookup(ref)?.sizeInBytes() ?? 0), 0);
    const after = replacements.reduce((sum, [, object]) => sum + object.sizeInBytes(), 0);
    if (before - after < MIN_COMPACT_SAVING_BYTES) return template;
    for (const [ref, object] of replacements) context.assign(ref, object);
    const base = rewrite(template);
    const reading = readXrefChain(base);
    if (!reading.sound) return template;
    return { ...template, base, chain: reading.chain };
  } catch {
    // A template the merge can use as it is must never fail here.
    return template;
  }
}

/** A signature field with a value: its /ByteRange covers the original bytes, which must stay. */
function isSigned(context: PDFContext): boolean {
  for (const [, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : undefined;
    if (dict?.has(name('ByteRange')) || (dict && dict.get(name('Type')) === name('Sig'))) return true;
  }
  return false;
}

/** New objects for each pruned program, width array and ToUnicode; undefined when a program cannot be pruned. */
function prunedObjects(context: PDFContext, fonts: PrunableFont[]): Array<[PDFRef, PDFObject]> | undefined {
  const budget = decodeBudget(64 * 1024 * 1024);
  const glyphsByProgram = new Map<string, { ref: PDFRef; glyphs: Set<number> }>();
  for (const font of fonts) {
    const entry = glyphsByProgram.get(font.programRef.tag) ?? { ref: font.programRef, glyphs: new Set<number>() };
    for (const glyph of font.glyphs) entry.glyphs.add(glyph);
    glyphsByProgram.set(font.programRef.tag, entry);
  }
  const out: Array<[PDFRef, PDFObject]> = [];
  for (const { ref, glyphs } of glyphsByProgram.values()) {
    const stream = context.lookup(ref) as PDFRawStream;
    const pruned = pruneTrueTypeGlyphs(decodeStrictly(stream, budget), glyphs);
    if (!pruned) return undefined;
    out.push([ref, flateStream(context, pruned, { Length1: pruned.length })]);
  }
  for (const font of fonts) {
    const glyphs = glyphsByProgram.get(font.programRef.tag)!.glyphs;
    trimWidths(context, font, glyphs, out);
    trimToUnicode(context, font, glyphs, budget, out);
  }
  return out;
}

/** The CID font's /W, cut to the kept glyphs: in place when it is direct, else as a new object. */
function trimWidths(context: PDFContext, font: PrunableFont, glyphs: Set<number>, out: Array<[PDFRef, PDFObject]>): void {
  const entry = font.cidFont.get(name('W'));
  const widths = entry instanceof PDFRef ? context.lookup(entry) : entry;
  if (!(widths instanceof PDFArray)) return;
  const kept = keptWidths(context, widths, glyphs);
  if (!kept) return;
  if (entry instanceof PDFRef) out.push([entry, kept]);
  else {
    // The CID font dictionary itself changes: replace it when it is an object of its own.
    const cidRef = font.type0.lookup(name('DescendantFonts'), PDFArray).get(0);
    if (!(cidRef instanceof PDFRef)) return;
    const copy = font.cidFont.clone(context);
    copy.set(name('W'), kept);
    out.push([cidRef, copy]);
  }
}

function trimToUnicode(context: PDFContext, font: PrunableFont, glyphs: Set<number>, budget: DecodeBudget, out: Array<[PDFRef, PDFObject]>): void {
  const ref = font.type0.get(name('ToUnicode'));
  const stream = ref instanceof PDFRef ? context.lookup(ref) : undefined;
  if (!(ref instanceof PDFRef) || !(stream instanceof PDFRawStream) || out.some(([done]) => done === ref)) return;
  const kept = keptToUnicode(latin1(decodeStrictly(stream, budget)), glyphs);
  if (kept !== undefined) out.push([ref, flateStream(context, ascii(kept))]);
}

/** The whole document as a fresh file: the original's header, every reachable object, one xref table. */
function rewrite(template: Template): Uint8Array {
  const { context } = template.doc;
  const trailer = template.chain.trailer;
  const root = trailer.get(name('Root')) as PDFRef;
  const info = trailer.get(name('Info'));
  const eol = indexOf(template.base, '\n', 0, 32);
  // The header line, then a comment of high bytes that marks the file as binary.
  const header = concatBytes([template.base.subarray(0, eol > 0 ? eol + 1 : 9), BINARY_MARK]);
  const objects = reachable(context, [root, info]).map((ref): [PDFRef, PDFObject] => [ref, context.lookup(ref)!]);
  const section = serializeSection(objects, header.length);
  const xrefOffset = header.length + section.bytes.length;
  const size = Math.max(template.chain.size, context.largestObjectNumber + 1);
  const tail = classicXrefSection(section.placements, { size, root, info, id: trailer.get(name('ID')) }, context, xrefOffset);
  return concatBytes([header, section.bytes, tail]);
}

/** References reachable from `roots`, in object-number order. */
function reachable(context: PDFContext, roots: Array<PDFObject | undefined>): PDFRef[] {
  const found = new Map<string, PDFRef>();
  const pending: Array<PDFObject | undefined> = [...roots];
  while (pending.length) {
    const object = pending.pop();
    if (object instanceof PDFRef) {
      if (found.has(object.tag)) continue;
      const target = context.lookup(object);
      if (target === undefined) continue;
      found.set(object.tag, object);
      pending.push(target);
    } else if (object instanceof PDFStream) pending.push(object.dict);
    else if (object instanceof PDFDict) pending.push(...object.values());
    else if (object instanceof PDFArray) pending.push(...object.asArray());
  }
  return [...found.values()].sort((a, b) => a.objectNumber - b.objectNumber || a.generationNumber - b.generationNumber);
}
