/**
 * Resolves a style's font family to faces, once per (family, style) per merge: a base-14 font, a
 * custom font (parsed on first use) or Helvetica for unknown names, plus the DejaVu fallback.
 */
import type { TextStyle } from '../types.ts';
import type { FallbackFonts } from '../../merge/types.ts';
import { EmbeddedFont, parseFont } from './embedded-font.ts';
import { StandardFont, type StandardFontName } from './standard-font.ts';
import type { Face, FaceSet, PdfFont } from './face.ts';

type FontStyle = TextStyle['fontStyle'];
const STYLES: readonly FontStyle[] = ['normal', 'bold', 'italic', 'boldItalic'];

const STANDARD_FAMILIES: Record<string, readonly StandardFontName[]> = {
  courier: ['Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique'],
  helvetica: ['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique'],
  'times new roman': ['Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic'],
};
const STANDARD_ALIASES: Record<string, string> = {
  'courier new': 'courier', arial: 'helvetica', times: 'times new roman', 'times-roman': 'times new roman',
};
const FALLBACK_NAME = 'DejaVu Sans';

export interface CatalogOptions {
  customFonts: ReadonlyMap<string, Uint8Array>;
  fallbackFonts: FallbackFonts;
}

export class FontCatalog {
  private readonly customFonts: ReadonlyMap<string, Uint8Array>;
  private readonly fallbackBytes: FallbackFonts;
  private readonly faceSets = new Map<string, FaceSet[]>();
  private readonly standard = new Map<StandardFontName, StandardFont>();
  private readonly embedded = new Map<Uint8Array, EmbeddedFont>();
  private readonly faces = new Map<PdfFont, Face[]>();

  constructor(options: CatalogOptions) {
    this.customFonts = options.customFonts;
    this.fallbackBytes = options.fallbackFonts;
  }

  /** The faces of a family in a style (custom fonts are parsed here, on first use). */
  faceSet(family: string, style: FontStyle): FaceSet {
    let sets = this.faceSets.get(family);
    if (!sets) {
      sets = [];
      this.faceSets.set(family, sets);
    }
    const index = STYLES.indexOf(style);
    const slot = index < 0 ? 0 : index;
    return (sets[slot] ??= this.newFaceSet(family, slot));
  }

  private newFaceSet(family: string, slot: number): FaceSet {
    // The fallback is parsed (and fontkit loaded) only when a character is missing from the primary
    // face: text in the standard fonts' own characters never needs it.
    let fallback: Face | undefined;
    const fallbackFace = () => (fallback ??= this.fallbackFace(STYLES[slot]!));
    return {
      primary: this.primaryFace(family, STYLES[slot]!),
      get fallback() {
        return fallbackFace();
      },
    };
  }

  private primaryFace(family: string, style: FontStyle): Face {
    const custom = this.customBytes(family);
    if (custom) return this.face(this.embeddedFont(custom, family), style === 'bold' || style === 'boldItalic', style === 'italic' || style === 'boldItalic');
    const key = family.trim().toLowerCase();
    const names = STANDARD_FAMILIES[STANDARD_ALIASES[key] ?? key] ?? STANDARD_FAMILIES.helvetica!;
    return this.face(this.standardFont(names[STYLES.indexOf(style)]!), false, false);
  }

  /** DejaVu in the style asked for: the real variant when supplied, else synthesised from another. */
  private fallbackFace(style: FontStyle): Face {
    const { regular, bold, italic, boldItalic } = this.fallbackBytes;
    const wantsBold = style === 'bold' || style === 'boldItalic';
    const wantsItalic = style === 'italic' || style === 'boldItalic';
    const candidates: [Uint8Array | undefined, boolean, boolean][] = [
      [wantsBold && wantsItalic ? boldItalic : undefined, true, true],
      [wantsBold ? bold : undefined, true, false],
      [wantsItalic ? italic : undefined, false, true],
      [regular, false, false],
    ];
    const [bytes, hasBold, hasItalic] = candidates.find(([file]) => file !== undefined)!;
    return this.face(this.embeddedFont(bytes!, FALLBACK_NAME), wantsBold && !hasBold, wantsItalic && !hasItalic);
  }

  private customBytes(family: string): Uint8Array | undefined {
    const exact = this.customFonts.get(family);
    if (exact) return exact;
    const wanted = family.trim().toLowerCase();
    if (wanted in STANDARD_FAMILIES || wanted in STANDARD_ALIASES) return undefined;
    for (const [name, bytes] of this.customFonts) if (name.trim().toLowerCase() === wanted) return bytes;
    return undefined;
  }

  private standardFont(name: StandardFontName): StandardFont {
    let font = this.standard.get(name);
    if (!font) {
      font = new StandardFont(name);
      this.standard.set(name, font);
    }
    return font;
  }

  private embeddedFont(bytes: Uint8Array, name: string): EmbeddedFont {
    let font = this.embedded.get(bytes);
    if (!font) {
      font = new EmbeddedFont(parseFont(bytes, name), name);
      this.embedded.set(bytes, font);
    }
    return font;
  }

  private face(font: PdfFont, synthBold: boolean, synthItalic: boolean): Face {
    let variants = this.faces.get(font);
    if (!variants) {
      variants = [];
      this.faces.set(font, variants);
    }
    return (variants[(synthBold ? 2 : 0) + (synthItalic ? 1 : 0)] ??= { font, synthBold, synthItalic });
  }
}
