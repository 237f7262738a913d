/**
 * The fast path: text one font prints entirely, left to right, with no shaping (pure WinAnsi in a
 * base-14 font, or e.g. Latin/Greek/Cyrillic/CJK a custom font covers). One pass maps characters to
 * codes and widths from precomputed tables into reused buffers; breaking works on those buffers.
 */
import { BREAK_SPACE, COMPLEX, breaksBetween, charFlags } from './unicode.ts';
import { MISSING } from './faces/embedded-font.ts';
import type { PdfFont } from './faces/face.ts';

/** Codes and em widths of the last mapped string. Reused by every call: layout is synchronous. */
export const simple = {
  codes: new Uint16Array(256),
  widths: new Float64Array(256),
  /** Sum of all widths, em. */
  total: 0,
  hasNewline: false,
};

function reserve(length: number): void {
  if (simple.codes.length >= length) return;
  let size = simple.codes.length;
  while (size < length) size *= 2;
  simple.codes = new Uint16Array(size);
  simple.widths = new Float64Array(size);
}

/** Maps text into `simple`; false when some character needs the complex path (bidi, shaping, fallback). */
export function mapSimple(text: string, font: PdfFont): boolean {
  const length = text.length;
  reserve(length);
  const { codes, widths } = simple;
  const flags = charFlags();
  let total = 0;
  let hasNewline = false;
  if (font.kind === 'standard') {
    const table = font.codeByChar;
    const fontWidths = font.widths;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      const code = table[c]!;
      if (code === 0) {
        if (c !== 10) return false;
        hasNewline = true;
        codes[i] = 0;
        widths[i] = 0;
        continue;
      }
      const width = fontWidths[code]!;
      codes[i] = code;
      widths[i] = width;
      total += width;
    }
  } else {
    const fontWidths = font.widths;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      const flag = flags[c]!;
      if (c === 10) {
        hasNewline = true;
        codes[i] = 0;
        widths[i] = 0;
        continue;
      }
      if ((flag & COMPLEX) !== 0) return false;
      const gid = font.charGid(c);
      if (gid === MISSING) return false;
      const width = fontWidths[gid]!;
      codes[i] = gid;
      widths[i] = width;
      total += width;
    }
  }
  simple.total = total;
  simple.hasNewline = hasNewline;
  return true;
}

/**
 * Greedy line breaking of the mapped text at `maxWidth` em: spaces hang at line ends, CJK breaks
 * between ideographs, a word longer than a line breaks between characters, newlines always break.
 * Writes [start, end, width] triples into `out` (trailing spaces excluded) and returns the line count.
 */
export function breakSimple(text: string, maxWidth: number, out: number[]): number {
  const { widths } = simple;
  const flags = charFlags();
  const length = text.length;
  out.length = 0;
  let lineStart = 0;
  let lineWidth = 0;
  // The last break opportunity on the current line: where its content ends, and where the next line starts.
  let breakEnd = -1;
  let breakWidth = 0;
  let nextStart = 0;
  let nextStartWidth = 0;
  let previousFlag = BREAK_SPACE;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      pushTrimmed(text, lineStart, i, lineWidth, out);
      lineStart = i + 1;
      lineWidth = 0;
      breakEnd = -1;
      previousFlag = BREAK_SPACE;
      continue;
    }
    const flag = flags[c]!;
    const width = widths[i]!;
    if ((flag & BREAK_SPACE) !== 0) {
      if ((previousFlag & BREAK_SPACE) === 0) {
        breakEnd = i;
        breakWidth = lineWidth;
      }
      lineWidth += width;
      nextStart = i + 1;
      nextStartWidth = lineWidth;
      previousFlag = flag;
      continue;
    }
    if (i > lineStart && (previousFlag & BREAK_SPACE) === 0 && breaksBetween(previousFlag, flag)) {
      breakEnd = i;
      breakWidth = lineWidth;
      nextStart = i;
      nextStartWidth = lineWidth;
    }
    if (lineWidth + width > maxWidth && i > lineStart) {
      if (breakEnd > lineStart) {
        out.push(lineStart, breakEnd, breakWidth);
        lineStart = nextStart;
        lineWidth -= nextStartWidth;
        breakEnd = -1;
      }
      if (lineWidth + width > maxWidth && i > lineStart) {
        out.push(lineStart, i, lineWidth);
        lineStart = i;
        lineWidth = 0;
        breakEnd = -1;
      }
    }
    lineWidth += width;
    previousFlag = flag;
  }
  pushTrimmed(text, lineStart, length, lineWidth, out);
  return out.length / 3;
}

/** The whole mapped text as one line (it has no newline and fits), trailing spaces excluded. */
export function singleLine(text: string, out: number[]): void {
  out.length = 0;
  pushTrimmed(text, 0, text.length, simple.total, out);
}

function pushTrimmed(text: string, start: number, end: number, width: number, out: number[]): void {
  const flags = charFlags();
  while (end > start && (flags[text.charCodeAt(end - 1)]! & BREAK_SPACE) !== 0) width -= simple.widths[--end]!;
  out.push(start, end, width);
}
