/**
 * The PDF base-14 fonts (Courier, Helvetica, Times and their bold/italic variants): never embedded,
 * WinAnsiEncoding, metrics from @pdf-lib/standard-fonts. Tables are built once per process.
 */
import { Encodings, Font as StandardMetrics } from '@pdf-lib/standard-fonts';
import { MIN_LINE_HEIGHT, type FontMetrics } from './metrics.ts';

export type StandardFontName =
  | 'Courier' | 'Courier-Bold' | 'Courier-Oblique' | 'Courier-BoldOblique'
  | 'Helvetica' | 'Helvetica-Bold' | 'Helvetica-Oblique' | 'Helvetica-BoldOblique'
  | 'Times-Roman' | 'Times-Bold' | 'Times-Italic' | 'Times-BoldItalic';

let winAnsiByChar: Uint8Array | undefined;
let literalByCode: string[] | undefined;

/** Unicode (BMP) -> WinAnsi code, 0 where WinAnsi has no such character. */
function winAnsiTable(): Uint8Array {
  if (!winAnsiByChar) {
    const table = new Uint8Array(0x10000);
    for (const cp of Encodings.WinAnsi.supportedCodePoints) {
      // The soft hyphen is invisible unless a line breaks there; the complex path drops it.
      if (cp < 0x10000 && cp !== 0xad) table[cp] = Encodings.WinAnsi.encodeUnicodeCodePoint(cp).code;
    }
    winAnsiByChar = table;
  }
  return winAnsiByChar;
}

/** Literal-string spelling of each byte, ASCII only so the stream's encoding never matters. */
function literalTable(): string[] {
  if (!literalByCode) {
    literalByCode = [];
    for (let code = 0; code < 256; code++) {
      const ch = String.fromCharCode(code);
      literalByCode.push(
        code === 0x28 || code === 0x29 || code === 0x5c ? `\\${ch}`
          : code >= 0x20 && code < 0x7f ? ch
            : `\\${code.toString(8).padStart(3, '0')}`,
      );
    }
  }
  return literalByCode;
}

interface StandardTables {
  metrics: FontMetrics;
  widths: Float64Array;
}

const tablesByName = new Map<StandardFontName, StandardTables>();

/** Metrics are immutable, so they are read once per process and shared by every merge. */
function standardTables(name: StandardFontName): StandardTables {
  let tables = tablesByName.get(name);
  if (!tables) {
    const afm = StandardMetrics.load(name);
    const widths = new Float64Array(256);
    for (const cp of Encodings.WinAnsi.supportedCodePoints) {
      const { code, name: glyphName } = Encodings.WinAnsi.encodeUnicodeCodePoint(cp);
      widths[code] = (afm.getWidthOfGlyph(glyphName) ?? afm.getWidthOfGlyph('space') ?? 250) / 1000;
    }
    const ascent = (afm.Ascender ?? afm.FontBBox[3]) / 1000;
    const descent = (afm.Descender ?? afm.FontBBox[1]) / 1000;
    const metrics: FontMetrics = {
      ascent,
      descent,
      lineHeight: Math.max(MIN_LINE_HEIGHT, ascent - descent),
      underlinePosition: afm.UnderlinePosition / 1000,
      underlineThickness: afm.UnderlineThickness / 1000,
      strikeoutPosition: (afm.XHeight ?? 500) / 2000,
    };
    tables = { metrics, widths };
    tablesByName.set(name, tables);
  }
  return tables;
}

/** One base-14 font as one merge uses it (its resource name is the merge's). */
export class StandardFont {
  readonly kind = 'standard';
  readonly baseFont: StandardFontName;
  readonly metrics: FontMetrics;
  /** Advance in em by WinAnsi code. */
  readonly widths: Float64Array;
  /** Unicode (BMP) -> WinAnsi code; 0 = not printable with this font. */
  readonly codeByChar: Uint8Array;
  /** PDF resource name, assigned by the registry on first use. */
  resourceName = '';
  private readonly literal: string[];

  constructor(baseFont: StandardFontName) {
    this.baseFont = baseFont;
    const tables = standardTables(baseFont);
    this.metrics = tables.metrics;
    this.widths = tables.widths;
    this.codeByChar = winAnsiTable();
    this.literal = literalTable();
  }

  hasCodePoint(cp: number): boolean {
    return cp < 0x10000 && this.codeByChar[cp] !== 0;
  }

  /** Literal string operand of WinAnsi codes[start..end). */
  encode(codes: ArrayLike<number>, start: number, end: number): string {
    const literal = this.literal;
    let out = '(';
    for (let i = start; i < end; i++) out += literal[codes[i]!];
    return out + ')';
  }
}
