/**
 * A TrueType/OpenType font embedded as a subset (custom fonts and the DejaVu fallback). Glyphs join
 * the subset as rows are collected; the font program is encoded once per merge, not per row.
 */
import { createRequire } from 'node:module';
import type { Font as FontkitFont, Glyph, GlyphPosition, GlyphRun, TypeFeatures } from '@pdf-lib/fontkit';
import { SheafError } from '@sheaf/shared';
import { hex4 } from '../pdf-syntax.ts';
import { SubsetSink } from './subset-sink.ts';
import { MIN_LINE_HEIGHT, type FontMetrics } from './metrics.ts';

/** `gidByChar` value of a character the font has no glyph for. */
export const MISSING = 0xffff;

/** What fontkit offers beyond its published typings (tables, the synchronous subset encoder). */
export interface FontkitFace extends FontkitFont {
  directory: { tables: Record<string, unknown> };
  'OS/2': FontkitFont['OS/2'] & { yStrikeoutPosition?: number; yStrikeoutSize?: number };
  layout(text: string, features?: TypeFeatures, script?: string, language?: string, direction?: 'ltr' | 'rtl'): GlyphRun;
}
interface EncodableSubset {
  includeGlyph(glyph: number): number;
  encode(stream: SubsetSink): void;
}

/** What the PDF FontDescriptor says of a face, in font units (read once, when the font is opened). */
export interface FaceDescriptor {
  /** The face's PostScript name, '' when its name table is unreadable (the family name stands in). */
  postscriptName: string;
  bbox: [number, number, number, number];
  italicAngle: number;
  capHeight: number;
  fixedPitch: boolean;
  serif: boolean;
  italic: boolean;
}

/** Glyphs of a shaped string in visual order; advances and offsets in em. */
export interface ShapedGlyphs {
  codes: number[];
  advances: number[];
  /** null when every glyph sits at its pen position (the usual case). */
  xOffsets: number[] | null;
  yOffsets: number[] | null;
  width: number;
}

/**
 * fontkit is loaded with the first font parsed, not with the engine: evaluating it costs some 300 ms
 * and 35 MB, which a merge in the standard fonts (and `sheaf serve` at rest) never needs. A synchronous
 * require, as parsing is synchronous.
 */
let fontkit: typeof import('@pdf-lib/fontkit') | undefined;
const loadFontkit = () => (fontkit ??= createRequire(import.meta.url)('@pdf-lib/fontkit') as typeof import('@pdf-lib/fontkit'));

/** Parses font bytes (a TTC/collection yields its first face); unreadable -> SheafError font/corrupt. */
export function parseFont(bytes: Uint8Array, name: string): FontkitFace {
  try {
    const parsed = loadFontkit().create(bytes) as FontkitFace | { fonts?: FontkitFace[] };
    const font = ('fonts' in parsed && Array.isArray(parsed.fonts) ? parsed.fonts[0] : parsed) as FontkitFace | undefined;
    if (!font || !(font.unitsPerEm > 0) || !(font.numGlyphs > 0)) throw new Error('no glyphs');
    const tables = font.directory.tables;
    if (!tables.cmap || (!tables.glyf && !tables['CFF '])) throw new Error('no outlines or no character map');
    // Touch what layout and subsetting read, so a truncated file fails here and not mid-merge.
    if (!Number.isFinite(font.getGlyph(0).advanceWidth + font.glyphForCodePoint(0x20).advanceWidth + font.ascent)) {
      throw new Error('bad metrics');
    }
    return font;
  } catch (cause) {
    throw new SheafError('font/corrupt', { name }, { cause });
  }
}

/**
 * The tables only the PDF descriptor reads (name, head, post, OS/2) are parsed lazily by fontkit; read
 * here, when the font opens, so a damaged one is font/corrupt up front instead of a TypeError while the
 * merge writes its output. Only the name is optional: it is a label, the family name serves as well.
 */
function descriptorOf(font: FontkitFace): FaceDescriptor {
  let postscriptName = '';
  try {
    postscriptName = font.postscriptName ?? '';
  } catch {
    // An unreadable name table: the descriptor falls back to the family name.
  }
  const { minX, minY, maxX, maxY } = font.bbox;
  const bbox: FaceDescriptor['bbox'] = [minX, minY, maxX, maxY];
  if (!bbox.every(Number.isFinite)) throw new Error('bad bounding box');
  const familyClass = (font['OS/2']?.sFamilyClass ?? 0) >> 8;
  return {
    postscriptName,
    bbox,
    italicAngle: font.italicAngle || 0,
    capHeight: font.capHeight || font.ascent,
    fixedPitch: Boolean(font.post?.isFixedPitch),
    serif: familyClass >= 1 && familyClass <= 7,
    italic: Boolean(font.italicAngle || font.head?.macStyle?.italic),
  };
}

function metricsOf(font: FontkitFace): FontMetrics {
  const em = font.unitsPerEm;
  const ascent = (font.ascent || font.bbox.maxY) / em;
  const descent = (font.descent || font.bbox.minY) / em;
  const thickness = font.underlineThickness > 0 ? font.underlineThickness / em : 0.05;
  const underlineTop = font.underlinePosition < 0 ? font.underlinePosition / em : -0.075;
  const os2 = font['OS/2'];
  const strikeTop = os2?.yStrikeoutPosition && os2.yStrikeoutPosition > 0 ? os2.yStrikeoutPosition / em : 0.3;
  const strikeSize = os2?.yStrikeoutSize && os2.yStrikeoutSize > 0 ? os2.yStrikeoutSize / em : thickness;
  return {
    ascent,
    descent: Math.min(0, descent),
    lineHeight: Math.max(MIN_LINE_HEIGHT, ascent - descent + Math.max(0, font.lineGap / em)),
    underlinePosition: underlineTop - thickness / 2,
    underlineThickness: thickness,
    strikeoutPosition: strikeTop - strikeSize / 2,
  };
}

export class EmbeddedFont {
  readonly kind = 'embedded';
  /** The family name the user knows the font by (used in error messages). */
  readonly name: string;
  readonly font: FontkitFace;
  readonly metrics: FontMetrics;
  readonly descriptor: FaceDescriptor;
  readonly isCFF: boolean;
  /** PDF resource name, assigned by the registry on first use. */
  resourceName = '';
  /** By subset glyph id: the original glyph id, advance (em), hex code and the text it stands for. */
  readonly glyphIds: number[] = [0];
  readonly widths: number[];
  readonly hex: string[] = ['0000'];
  readonly unicode: string[] = [''];
  private readonly scale: number;
  private readonly subsetIdByGlyph = new Map<number, number>([[0, 0]]);
  /** BMP character -> subset glyph id; 0 = not looked up yet, MISSING = no glyph. */
  private gidByChar: Uint16Array | null = null;
  private readonly gidByAstral = new Map<number, number>();
  private readonly shapeCache = new Map<string, ShapedGlyphs>();
  private sealed = false;
  private program: Uint8Array | null = null;

  constructor(font: FontkitFace, name: string) {
    this.font = font;
    this.name = name;
    this.scale = 1 / font.unitsPerEm;
    this.metrics = this.guard(() => metricsOf(font));
    this.descriptor = this.guard(() => descriptorOf(font));
    this.isCFF = Boolean(font.directory.tables['CFF ']);
    this.widths = [this.guard(() => font.getGlyph(0).advanceWidth) * this.scale];
  }

  /** Subset glyph id of a character (adding it to the subset), or MISSING. */
  charGid(cp: number): number {
    if (cp < 0x10000) {
      const table = (this.gidByChar ??= new Uint16Array(0x10000));
      const known = table[cp]!;
      if (known !== 0) return known;
      const resolved = this.resolve(cp);
      table[cp] = resolved;
      return resolved;
    }
    let known = this.gidByAstral.get(cp);
    if (known === undefined) {
      known = this.resolve(cp);
      this.gidByAstral.set(cp, known);
    }
    return known;
  }

  hasCodePoint(cp: number): boolean {
    return this.charGid(cp) !== MISSING;
  }

  private resolve(cp: number): number {
    const glyph = this.guard(() => this.font.glyphForCodePoint(cp));
    if (!glyph || glyph.id === 0) return MISSING;
    return this.subsetId(glyph.id, String.fromCodePoint(cp));
  }

  /** A font that parsed but breaks on some table later is still the user's corrupt font, not a crash. */
  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (cause) {
      throw new SheafError('font/corrupt', { name: this.name }, { cause });
    }
  }

  /**
   * Subset id of an original glyph, added on first use. Once the fonts are embedded the subset is
   * final: a glyph nobody collected prints as .notdef rather than breaking the embedded program.
   */
  subsetId(glyphId: number, text: string): number {
    const known = this.subsetIdByGlyph.get(glyphId);
    if (known !== undefined) {
      if (this.unicode[known] === '' && text !== '') this.unicode[known] = text;
      return known;
    }
    if (this.sealed) return 0;
    const id = this.glyphIds.length;
    this.subsetIdByGlyph.set(glyphId, id);
    this.glyphIds.push(glyphId);
    this.widths.push(this.guard(() => this.font.getGlyph(glyphId).advanceWidth) * this.scale);
    this.hex.push(hex4(id));
    this.unicode.push(text);
    this.program = null;
    return id;
  }

  /** Shapes a string (joining forms, ligatures, mark positions); RTL output comes in visual order. */
  shape(text: string, rtl: boolean): ShapedGlyphs {
    const key = rtl ? `r${text}` : `l${text}`;
    const cached = this.shapeCache.get(key);
    if (cached) return cached;
    const shaped = this.guard(() => {
      const run = this.font.layout(text, undefined, undefined, undefined, rtl ? 'rtl' : 'ltr');
      return this.toShaped(run.glyphs, run.positions, rtl);
    });
    if (this.shapeCache.size >= 4096) this.shapeCache.clear();
    this.shapeCache.set(key, shaped);
    return shaped;
  }

  private toShaped(glyphs: Glyph[], positions: GlyphPosition[], rtl: boolean): ShapedGlyphs {
    const scale = this.scale;
    const codes: number[] = [];
    const advances: number[] = [];
    let xOffsets: number[] | null = null;
    let yOffsets: number[] | null = null;
    let width = 0;
    for (let i = 0; i < glyphs.length; i++) {
      const glyph = glyphs[i]!;
      const position = positions[i]!;
      // Extractors reverse right-to-left text character by character, a ligature's text included,
      // so an RTL ligature (lam-alef) maps to its characters in visual order to come back logical.
      const chars = rtl && glyph.codePoints.length > 1 ? glyph.codePoints.slice().reverse() : glyph.codePoints;
      codes.push(this.subsetId(glyph.id, String.fromCodePoint(...chars)));
      const advance = position.xAdvance * scale;
      advances.push(advance);
      width += advance;
      if (position.xOffset !== 0 || position.yOffset !== 0) {
        xOffsets ??= new Array<number>(glyphs.length).fill(0);
        yOffsets ??= new Array<number>(glyphs.length).fill(0);
        xOffsets[i] = position.xOffset * scale;
        yOffsets[i] = position.yOffset * scale;
      }
    }
    return { codes, advances, xOffsets, yOffsets, width };
  }

  /** Hex string operand of subset ids codes[start..end). */
  encode(codes: ArrayLike<number>, start: number, end: number): string {
    const hex = this.hex;
    let out = '<';
    for (let i = start; i < end; i++) out += hex[codes[i]!];
    return out + '>';
  }

  /** The subset font program (FontFile2 / FontFile3 bytes), encoded again only if glyphs were added. */
  subsetProgram(): Uint8Array {
    if (this.program) return this.program;
    const program = this.guard(() => {
      const subset = this.font.createSubset() as unknown as EncodableSubset;
      for (let i = 1; i < this.glyphIds.length; i++) subset.includeGlyph(this.glyphIds[i]!);
      const sink = new SubsetSink();
      subset.encode(sink);
      return sink.result();
    });
    // fontkit writes the CFF header's offSize from an unrelated field; FreeType and poppler reject
    // anything outside 1..4. Offsets in the subset never need more than 4 bytes.
    if (this.isCFF && program.length > 3 && (program[3]! < 1 || program[3]! > 4)) program[3] = 4;
    this.program = program;
    return program;
  }

  /** After embedding, the subset may not grow (the program is already written). */
  seal(): void {
    this.sealed = true;
  }
}
