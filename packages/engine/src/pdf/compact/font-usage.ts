/**
 * Which glyphs a template shows with each of its whole embedded fonts, and whether that is all it can
 * ever need of them. Only Type0 fonts with Identity encoding, a CIDFontType2 descendant and an
 * Identity CID-to-glyph map qualify (the codes in the content streams are then the glyph ids), and
 * only when every place that could show text with them was read: page contents, the form XObjects
 * they paint, annotation appearances. A font named by any other resources (a form's /DR, whose
 * fields a reader may redraw with any text; a pattern; a Type 3 glyph) stays whole.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import { concatBytes } from '../bytes.ts';
import type { DecodeBudget } from '../decode.ts';
import { decodeStrictly } from './strict-decode.ts';
import type { TemplatePage } from '../template.ts';
import { shownText, twoByteCodes } from './shown-text.ts';

/** A font whose program may be pruned, with the glyph ids shown with it. */
export interface PrunableFont {
  /** The Type0 font dictionary's reference. */
  ref: PDFRef;
  type0: PDFDict;
  cidFont: PDFDict;
  /** The FontFile2 stream's reference (several fonts may share one program). */
  programRef: PDFRef;
  glyphs: Set<number>;
}

const name = (value: string) => PDFName.of(value);

/** The qualifying fonts and the glyphs the template shows with them; undefined when text was shown in a font that cannot be known. */
export function prunableFonts(context: PDFContext, pages: readonly TemplatePage[], budget: DecodeBudget): PrunableFont[] | undefined {
  const candidates = new Map<PDFRef, PrunableFont>();
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const font = candidateFont(context, ref, object);
    if (font) candidates.set(ref, font);
  }
  if (candidates.size === 0) return [];
  const byRef = new Map([...candidates].map(([ref, font]) => [ref.tag, font]));

  const scan = new UsageScan(context, byRef, budget);
  for (const page of pages) {
    if (!scan.content(concatContents(context, page.contents, budget), page.resources)) return undefined;
    if (!scan.annotations(page.dict)) return undefined;
  }
  const eligible = new Set(byRef.keys());
  for (const tag of scan.namedElsewhere(eligible)) eligible.delete(tag);
  // A program shared by a font that must stay whole stays whole.
  const keptPrograms = new Set([...byRef.values()].filter((font) => !eligible.has(font.ref.tag)).map((font) => font.programRef.tag));
  for (const tag of programsOfOtherFonts(context, byRef)) keptPrograms.add(tag);
  return [...byRef.values()].filter((font) => eligible.has(font.ref.tag) && !keptPrograms.has(font.programRef.tag));
}

function candidateFont(context: PDFContext, ref: PDFRef, object: PDFObject | undefined): PrunableFont | undefined {
  if (!(object instanceof PDFDict) || object.get(name('Subtype')) !== name('Type0')) return undefined;
  const encoding = object.lookup(name('Encoding'));
  if (encoding !== name('Identity-H') && encoding !== name('Identity-V')) return undefined;
  const descendants = object.lookup(name('DescendantFonts'));
  const cidFont = descendants instanceof PDFArray && descendants.size() === 1 ? descendants.lookup(0) : undefined;
  if (!(cidFont instanceof PDFDict) || cidFont.get(name('Subtype')) !== name('CIDFontType2')) return undefined;
  const map = cidFont.lookup(name('CIDToGIDMap'));
  if (map !== undefined && map !== name('Identity')) return undefined;
  const descriptor = cidFont.lookup(name('FontDescriptor'));
  if (!(descriptor instanceof PDFDict)) return undefined;
  const programRef = descriptor.get(name('FontFile2'));
  if (!(programRef instanceof PDFRef) || !(context.lookup(programRef) instanceof PDFRawStream)) return undefined;
  return { ref, type0: object, cidFont, programRef, glyphs: new Set([0]) };
}

/** FontFile2 programs that a descriptor of some other font names too (descriptors are always objects of their own). */
function programsOfOtherFonts(context: PDFContext, fonts: Map<string, PrunableFont>): Set<string> {
  const ours = new Set([...fonts.values()].map((font) => font.cidFont.lookup(name('FontDescriptor'))));
  const programs = new Set([...fonts.values()].map((font) => font.programRef.tag));
  const shared = new Set<string>();
  for (const [, object] of context.enumerateIndirectObjects()) {
    const program = object instanceof PDFDict ? object.get(name('FontFile2')) : undefined;
    if (program instanceof PDFRef && programs.has(program.tag) && !ours.has(object as PDFDict)) shared.add(program.tag);
  }
  return shared;
}

function concatContents(context: PDFContext, refs: readonly PDFRef[], budget: DecodeBudget): Uint8Array {
  const parts = refs.map((ref) => {
    const stream = context.lookup(ref);
    return stream instanceof PDFRawStream ? decodeStrictly(stream, budget) : new Uint8Array();
  });
  // Content arrays read as one stream; a line break keeps tokens at their ends apart.
  return concatBytes(parts.flatMap((part) => [part, LINE_BREAK]));
}

const LINE_BREAK = new Uint8Array([0x0a]);

class UsageScan {
  /** Resource dictionaries whose content was read (their fonts' glyphs are counted). */
  private readonly readResources = new Set<PDFDict>();
  private readonly readForms = new Set<string>();

  constructor(
    private readonly context: PDFContext,
    private readonly fonts: Map<string, PrunableFont>,
    private readonly budget: DecodeBudget,
  ) {}

  /** Counts the glyphs of one content stream and the forms it paints; false when a font cannot be known. */
  content(bytes: Uint8Array, resources: PDFDict | undefined): boolean {
    const shown = shownText(bytes);
    if (shown.unknownFont) return false;
    const dict = resources ?? (this.context.obj({}) as PDFDict);
    this.readResources.add(dict);
    const fontDict = dict.lookup(name('Font'));
    for (const [fontName, strings] of shown.byFont) {
      const entry = fontDict instanceof PDFDict ? fontDict.get(name(fontName)) : undefined;
      // A name that does not resolve here may still name one of ours to a reader (pdf-lib reads
      // only upper-case #xx escapes as written): unknown, so nothing is pruned.
      if (entry === undefined) return false;
      const font = entry instanceof PDFRef ? this.fonts.get(entry.tag) : undefined;
      if (font) twoByteCodes(strings, font.glyphs);
    }
    const xObjects = dict.lookup(name('XObject'));
    for (const xName of shown.xObjects) {
      const ref = xObjects instanceof PDFDict ? xObjects.get(name(xName)) : undefined;
      if (!(ref instanceof PDFRef) || this.readForms.has(ref.tag)) continue;
      const form = this.context.lookup(ref);
      if (!(form instanceof PDFRawStream) || form.dict.get(name('Subtype')) !== name('Form')) continue;
      this.readForms.add(ref.tag);
      // A form without resources uses its painter's (allowed in older files).
      const own = form.dict.lookup(name('Resources'));
      if (!this.content(decodeStrictly(form, this.budget), own instanceof PDFDict ? own : dict)) return false;
    }
    return true;
  }

  /** Reads every appearance stream of the page's annotations. */
  annotations(page: PDFDict): boolean {
    const annots = page.lookup(name('Annots'));
    if (!(annots instanceof PDFArray)) return true;
    for (let i = 0; i < annots.size(); i++) {
      const annot = annots.lookup(i);
      const ap = annot instanceof PDFDict ? annot.lookup(name('AP')) : undefined;
      if (!(ap instanceof PDFDict)) continue;
      for (const key of ['N', 'R', 'D']) {
        const entry = ap.get(name(key));
        const states = entry instanceof PDFRef ? this.context.lookup(entry) : entry;
        const streams = states instanceof PDFDict && !(states instanceof PDFStream) ? states.values() : [entry];
        for (const stream of streams) if (!this.appearance(stream)) return false;
      }
    }
    return true;
  }

  private appearance(entry: PDFObject | undefined): boolean {
    if (!(entry instanceof PDFRef) || this.readForms.has(entry.tag)) return true;
    const stream = this.context.lookup(entry);
    if (!(stream instanceof PDFRawStream)) return true;
    this.readForms.add(entry.tag);
    const resources = stream.dict.lookup(name('Resources'));
    return this.content(decodeStrictly(stream, this.budget), resources instanceof PDFDict ? resources : undefined);
  }

  /**
   * Fonts (by reference tag) also named where no content was read: in the resources of anything else
   * (a form's /DR, a pattern, a Type 3 font), or anywhere but a /Font resource dictionary.
   */
  namedElsewhere(fonts: Set<string>): Set<string> {
    const named = new Set<string>();
    const readFontDicts = new Set<PDFDict>();
    for (const resources of this.readResources) {
      const fontDict = resources.lookup(name('Font'));
      if (fontDict instanceof PDFDict) readFontDicts.add(fontDict);
    }
    const visit = (object: PDFObject | undefined, holder: PDFDict | undefined, seen: Set<PDFObject>) => {
      if (object instanceof PDFRef) {
        if (fonts.has(object.tag) && !(holder && readFontDicts.has(holder))) named.add(object.tag);
        return;
      }
      if (!object || seen.has(object)) return;
      seen.add(object);
      if (object instanceof PDFStream) return visit(object.dict, undefined, seen);
      if (object instanceof PDFArray) {
        for (const item of object.asArray()) visit(item, undefined, seen);
      } else if (object instanceof PDFDict) {
        // A resources dictionary whose content nobody read makes its fonts' use unknown.
        const fontEntry = object.get(name('Font'));
        const fontDict = fontEntry instanceof PDFRef ? this.context.lookup(fontEntry) : fontEntry;
        if (fontDict instanceof PDFDict && !this.readResources.has(object) && looksLikeResources(object)) {
          for (const value of fontDict.values()) if (value instanceof PDFRef && fonts.has(value.tag)) named.add(value.tag);
        }
        for (const value of object.values()) visit(value, object, seen);
      }
    };
    for (const [, object] of this.context.enumerateIndirectObjects()) visit(object, undefined, new Set());
    return named;
  }
}

/** A dictionary with a /Font entry that is not itself a font (fonts have /Type /Font). */
function looksLikeResources(dict: PDFDict): boolean {
  return dict.get(name('Type')) !== name('Font');
}
