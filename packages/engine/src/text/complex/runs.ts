/**
 * The complex path, step three: a line's pieces in visual order (bidi rule L2), merged into runs of
 * one face, each with its show operators (Tj, or TJ with adjustments and Ts for shaped glyphs).
 */
import { num } from '../pdf-syntax.ts';
import type { TextRun } from '../types.ts';
import type { PdfFont } from '../faces/face.ts';
import type { Piece } from './pieces.ts';

/** Reverses every maximal sequence at or above each odd level, from the highest level down. */
function visualOrder(pieces: readonly Piece[]): Piece[] {
  const order = pieces.slice();
  let highest = 0;
  let lowestOdd = Infinity;
  for (const piece of order) {
    highest = Math.max(highest, piece.level);
    if ((piece.level & 1) === 1) lowestOdd = Math.min(lowestOdd, piece.level);
  }
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; i++) {
      if (order[i]!.level < level) continue;
      let end = i;
      while (end + 1 < order.length && order[end + 1]!.level >= level) end++;
      for (let a = i, b = end; a < b; a++, b--) [order[a], order[b]] = [order[b]!, order[a]!];
      i = end;
    }
  }
  return order;
}

/** Runs of one line, left to right from x (points), at the given font size. */
export function lineRuns(pieces: readonly Piece[], x: number, size: number): TextRun[] {
  const visual = visualOrder(pieces);
  const runs: TextRun[] = [];
  for (let i = 0; i < visual.length;) {
    const face = visual[i]!.face;
    let end = i;
    let width = 0;
    let nominal = true;
    for (; end < visual.length && visual[end]!.face === face; end++) {
      width += visual[end]!.width;
      nominal &&= visual[end]!.nominal;
    }
    const show = nominal ? plainShow(face.font, visual, i, end) : adjustedShow(face.font, visual, i, end, size);
    if (show !== '') runs.push({ face, x, width: width * size, show });
    x += width * size;
    i = end;
  }
  return runs;
}

function plainShow(font: PdfFont, pieces: readonly Piece[], start: number, end: number): string {
  const codes: number[] = [];
  for (let i = start; i < end; i++) codes.push(...pieces[i]!.codes);
  return codes.length === 0 ? '' : `${font.encode(codes, 0, codes.length)} Tj`;
}

/**
 * TJ with per-glyph corrections: a number n moves the pen by -n/1000 em, so a glyph shown with the
 * font's width w but meant to advance `a` (offset dx) is framed by -dx*1000 before and (dx+w-a)*1000 after.
 * Vertical offsets (marks) need the text rise, so such a glyph gets its own TJ between Ts operators.
 */
function adjustedShow(font: PdfFont, pieces: readonly Piece[], start: number, end: number, size: number): string {
  let ops = '';
  let array = '';
  const single = [0];
  for (let p = start; p < end; p++) {
    const piece = pieces[p]!;
    for (let g = 0; g < piece.codes.length; g++) {
      const code = piece.codes[g]!;
      const dx = piece.xOffsets ? piece.xOffsets[g]! : 0;
      const dy = piece.yOffsets ? piece.yOffsets[g]! : 0;
      const after = (dx + font.widths[code]! - piece.advances[g]!) * 1000;
      single[0] = code;
      // Numbers need a separator: "12-30" would read as one (bad) token.
      let glyph = font.encode(single, 0, 1);
      if (dx !== 0) glyph = `${num(-dx * 1000)} ${glyph}`;
      if (Math.abs(after) > 0.01) glyph = `${glyph} ${num(after)}`;
      if (dy === 0) {
        array += array === '' ? glyph : ` ${glyph}`;
        continue;
      }
      if (array !== '') ops += `[${array}] TJ `;
      array = '';
      ops += `${num(dy * size)} Ts [${glyph}] TJ 0 Ts `;
    }
  }
  if (array !== '') ops += `[${array}] TJ`;
  return ops.trimEnd();
}
