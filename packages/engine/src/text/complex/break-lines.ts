/**
 * The complex path, step two: greedy line breaking over pieces. Pieces glued together (no break
 * opportunity between them) form a word; a word wider than the line is cut between glyphs.
 */
import type { Piece } from './pieces.ts';

export interface Word {
  /** Non-space pieces, logical order. */
  pieces: Piece[];
  /** Em. */
  width: number;
  /** The spaces after the word (shown only if another word follows on the line). */
  spaces: Piece[];
  spaceWidth: number;
}

/** A laid-out line before reordering: pieces in logical order, trailing spaces dropped. */
export interface PieceLine {
  pieces: Piece[];
  /** Em. */
  width: number;
}

/** Groups a paragraph's pieces into words (done once; breaking at several sizes reuses them). */
export function toWords(paragraph: readonly Piece[]): Word[] {
  const words: Word[] = [];
  let word: Word = { pieces: [], width: 0, spaces: [], spaceWidth: 0 };
  for (const piece of paragraph) {
    if (piece.space) {
      word.spaces.push(piece);
      word.spaceWidth += piece.width;
      continue;
    }
    if (word.spaces.length > 0 || (word.pieces.length > 0 && word.pieces[word.pieces.length - 1]!.breakAfter)) {
      words.push(word);
      word = { pieces: [], width: 0, spaces: [], spaceWidth: 0 };
    }
    word.pieces.push(piece);
    word.width += piece.width;
  }
  words.push(word);
  return words;
}

/** Breaks one paragraph's words into lines no wider than maxWidth em (Infinity: no wrapping). */
export function breakWords(words: readonly Word[], maxWidth: number, out: PieceLine[]): void {
  let line: PieceLine = { pieces: [], width: 0 };
  let pendingSpaces: Piece[] = [];
  let pendingWidth = 0;
  let firstLine = true;
  for (const word of words) {
    if (line.pieces.length > 0 && line.width + pendingWidth + word.width > maxWidth) {
      firstLine = false;
      out.push(line);
      line = { pieces: [], width: 0 };
      pendingSpaces = [];
      pendingWidth = 0;
    }
    if (word.width > maxWidth && line.pieces.length === 0) {
      const chunks = cutWord(word.pieces, maxWidth);
      for (let i = 0; i < chunks.length - 1; i++) out.push(chunks[i]!);
      if (chunks.length > 1) firstLine = false;
      line = chunks[chunks.length - 1]!;
    } else {
      // Leading spaces of a paragraph are kept; spaces at a wrap are not.
      if (line.pieces.length > 0 || firstLine) {
        line.pieces.push(...pendingSpaces);
        line.width += pendingWidth;
      }
      line.pieces.push(...word.pieces);
      line.width += word.width;
    }
    pendingSpaces = word.spaces;
    pendingWidth = word.spaceWidth;
  }
  out.push(line);
}

/** Cuts a too-long word between glyphs (in logical order; marks stay with their base). */
function cutWord(pieces: readonly Piece[], maxWidth: number): PieceLine[] {
  const lines: PieceLine[] = [];
  let line: PieceLine = { pieces: [], width: 0 };
  for (const piece of pieces) {
    const count = piece.codes.length;
    const rtl = (piece.level & 1) === 1;
    let from = 0;
    let width = 0;
    for (let k = 0; k < count; k++) {
      const advance = piece.advances[rtl ? count - 1 - k : k]!;
      if (advance > 0 && line.width + width + advance > maxWidth && (line.pieces.length > 0 || k > from)) {
        if (k > from) line.pieces.push(slicePiece(piece, from, k, width));
        line.width += width;
        lines.push(line);
        line = { pieces: [], width: 0 };
        from = k;
        width = 0;
      }
      width += advance;
    }
    if (count > from) line.pieces.push(slicePiece(piece, from, count, width));
    line.width += width;
  }
  lines.push(line);
  return lines;
}

/** The glyphs of logical positions [from, to) of a piece (visual arrays are reversed for RTL). */
function slicePiece(piece: Piece, from: number, to: number, width: number): Piece {
  if (from === 0 && to === piece.codes.length) return piece;
  const count = piece.codes.length;
  const [start, end] = (piece.level & 1) === 1 ? [count - to, count - from] : [from, to];
  return {
    ...piece,
    codes: piece.codes.slice(start, end),
    advances: piece.advances.slice(start, end),
    xOffsets: piece.xOffsets?.slice(start, end) ?? null,
    yOffsets: piece.yOffsets?.slice(start, end) ?? null,
    width,
  };
}
