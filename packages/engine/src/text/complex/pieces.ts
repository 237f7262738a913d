/**
 * The complex path, step one: split text into paragraphs of "pieces" in logical order. A piece is a
 * stretch of one face, one bidi level and one kind (word or spaces) that no line break can cut;
 * each is shaped on its own (RTL pieces come out in visual order), so a line is just a list of pieces.
 */
import bidiModule, { type Bidi } from 'bidi-js';
import { BREAK_SPACE, IGNORABLE, RTL, SHAPING, breaksBetween, codePointFlags } from '../unicode.ts';
import { MISSING } from '../faces/embedded-font.ts';
import type { Face, FaceSet } from '../faces/face.ts';

export interface Piece {
  face: Face;
  /** Bidi embedding level: odd is right-to-left. */
  level: number;
  /** Font codes in visual order (WinAnsi codes or subset glyph ids). */
  codes: number[];
  /** Advances in em, visual order. */
  advances: number[];
  xOffsets: number[] | null;
  yOffsets: number[] | null;
  /** Em. */
  width: number;
  /** Every advance is the font's own width and no glyph is offset: one plain Tj shows it. */
  nominal: boolean;
  /** A run of breaking spaces (hangs at line ends). */
  space: boolean;
  /** A line may break after this piece. */
  breakAfter: boolean;
}

// bidi-js is CommonJS typed as an ES default export: under NodeNext the default import is the factory itself.
const bidiFactory = ((bidiModule as unknown as { default?: () => Bidi }).default ?? bidiModule) as unknown as () => Bidi;
let bidi: Bidi | undefined;

/** Marks and joiners stay with the face of the character before them. */
function attachesToPrevious(cp: number): boolean {
  return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff)
    || (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f) || cp === 0x200c || cp === 0x200d;
}

function chooseFace(cp: number, faces: FaceSet, previous: Face | null): Face {
  if (previous && previous.font.hasCodePoint(cp)) return previous;
  if (faces.primary.font.hasCodePoint(cp)) return faces.primary;
  // The fallback prints what it has; what nobody has becomes its .notdef box.
  return faces.fallback;
}

/** The characters no face of the set has (chooseFace's .notdef case), each once; what buildParagraphs skips is not counted. */
export function uncoveredCharacters(input: string, faces: FaceSet): string[] {
  const text = input.normalize('NFC');
  const missing: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (cp === 9 || cp === 10 || cp === 13 || (codePointFlags(cp) & IGNORABLE) !== 0) continue;
    if (faces.primary.font.hasCodePoint(cp) || faces.fallback.font.hasCodePoint(cp)) continue;
    const char = String.fromCodePoint(cp);
    if (!missing.includes(char)) missing.push(char);
  }
  return missing;
}

/** Splits text into paragraphs of pieces (logical order). Adds every glyph used to its font's subset. */
export function buildParagraphs(input: string, faces: FaceSet): Piece[][] {
  const text = input.normalize('NFC');
  let hasRtl = false;
  for (let i = 0; i < text.length && !hasRtl; i++) hasRtl = (codePointFlags(text.codePointAt(i)!) & RTL) !== 0;
  const engine = hasRtl ? (bidi ??= bidiFactory()) : undefined;
  const levels = engine ? engine.getEmbeddingLevels(text).levels : undefined;

  const paragraphs: Piece[][] = [];
  let pieces: Piece[] = [];
  let face: Face | null = null;
  let level = 0;
  let space = false;
  let shaping = false;
  let chars = '';
  let previousFlags = BREAK_SPACE;

  const flush = (breakAfter: boolean) => {
    if (chars !== '' && face) pieces.push(shapePiece(chars, face, level, space, shaping, breakAfter || space));
    chars = '';
    shaping = false;
  };

  for (let i = 0; i < text.length; i++) {
    let cp = text.codePointAt(i)!;
    const index = i;
    if (cp > 0xffff) i++;
    if (cp === 10) {
      flush(true);
      paragraphs.push(pieces);
      pieces = [];
      face = null;
      previousFlags = BREAK_SPACE;
      continue;
    }
    const flags = codePointFlags(cp);
    if ((flags & IGNORABLE) !== 0) continue;
    if (cp === 9) cp = 0x20;
    const charLevel = levels ? levels[index]! : 0;
    if ((charLevel & 1) === 1) {
      const mirrored = engine!.getMirroredCharacter(String.fromCodePoint(cp));
      if (mirrored) cp = mirrored.codePointAt(0)!;
    }
    const isSpace = (flags & BREAK_SPACE) !== 0;
    const sticky = isSpace || attachesToPrevious(cp);
    const charFace = chooseFace(cp, faces, sticky ? face : null);
    const breakBefore = !isSpace && (previousFlags & BREAK_SPACE) === 0 && breaksBetween(previousFlags, flags);
    if (chars !== '' && (breakBefore || charFace !== face || charLevel !== level || isSpace !== space)) flush(breakBefore);
    face = charFace;
    level = charLevel;
    space = isSpace;
    shaping ||= (flags & SHAPING) !== 0;
    chars += String.fromCodePoint(cp);
    previousFlags = flags;
  }
  flush(true);
  paragraphs.push(pieces);
  return paragraphs;
}

function shapePiece(chars: string, face: Face, level: number, space: boolean, shaping: boolean, breakAfter: boolean): Piece {
  const rtl = (level & 1) === 1;
  const font = face.font;
  if (font.kind === 'embedded' && shaping) {
    const shaped = font.shape(chars, rtl);
    let nominal = shaped.xOffsets === null;
    for (let i = 0; nominal && i < shaped.codes.length; i++) nominal = Math.abs(shaped.advances[i]! - font.widths[shaped.codes[i]!]!) < 1e-6;
    return { face, level, ...shaped, nominal, space, breakAfter };
  }
  const codes: number[] = [];
  const advances: number[] = [];
  let width = 0;
  for (let i = 0; i < chars.length; i++) {
    const cp = chars.codePointAt(i)!;
    if (cp > 0xffff) i++;
    let code: number;
    if (font.kind === 'standard') {
      code = font.codeByChar[cp] ?? 0;
    } else {
      code = font.charGid(cp);
      if (code === MISSING) code = 0;
    }
    const advance = font.widths[code]!;
    codes.push(code);
    advances.push(advance);
    width += advance;
  }
  if (rtl) {
    codes.reverse();
    advances.reverse();
  }
  return { face, level, codes, advances, xOffsets: null, yOffsets: null, width, nominal: true, space, breakAfter };
}
