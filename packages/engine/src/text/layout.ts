/**
 * Lays one value out in one box: picks the fast path when one font prints all of it left to right,
 * else the complex path (fallback fonts, bidi, shaping); then size, line breaks and alignment.
 */
import { alignedX, chooseFontSize, firstBaseline, requestedSize, type Measure } from './fit.ts';
import { breakSimple, mapSimple, simple, singleLine } from './simple-text.ts';
import { buildParagraphs } from './complex/pieces.ts';
import { breakWords, toWords, type PieceLine, type Word } from './complex/break-lines.ts';
import { lineRuns } from './complex/runs.ts';
import type { FaceSet, PdfFont } from './faces/face.ts';
import type { Box, TextLayout, TextLine, TextStyle } from './types.ts';

/** Registers a font as used (names its resource); throws if that is no longer possible. */
export type UseFont = (font: PdfFont) => void;

const spans: number[] = [];

export function layoutText(text: string, style: TextStyle, box: Box, faces: FaceSet, use: UseFont): TextLayout {
  const primary = faces.primary;
  const metrics = primary.font.metrics;
  // Nothing to show, so no font to ask for (collect skips empty values too).
  if (text === '') return { fontSize: requestedSize(style), lines: [], primary, style };
  if (mapSimple(text, primary.font)) {
    use(primary.font);
    const fontSize = style.shrinkToFit ? chooseFontSize(style, box, metrics, measureSimple(text)) : requestedSize(style);
    const lines: TextLine[] = [];
    const maxWidth = style.wrap ? box.width / fontSize : Infinity;
    let baseline = firstBaseline(box, metrics, fontSize);
    if (!simple.hasNewline && simple.total <= maxWidth) singleLine(text, spans);
    else breakSimple(text, maxWidth, spans);
    const font = primary.font;
    for (let i = 0; i < spans.length; i += 3) {
      const width = spans[i + 2]! * fontSize;
      const x = alignedX(box, style.align, width);
      const runs = spans[i + 1]! > spans[i]! ? [{ face: primary, x, width, show: `${font.encode(simple.codes, spans[i]!, spans[i + 1]!)} Tj` }] : [];
      lines.push({ x, baseline, width, runs });
      baseline -= metrics.lineHeight * fontSize;
    }
    return { fontSize, lines, primary, style };
  }
  return layoutComplex(text, style, box, faces, use);
}

function measureSimple(text: string): Measure {
  return (maxWidth) => {
    const count = !simple.hasNewline && simple.total <= maxWidth ? (singleLine(text, spans), 1) : breakSimple(text, maxWidth, spans);
    let widest = 0;
    for (let i = 2; i < spans.length; i += 3) widest = Math.max(widest, spans[i]!);
    return { lines: count, widest };
  };
}

function layoutComplex(text: string, style: TextStyle, box: Box, faces: FaceSet, use: UseFont): TextLayout {
  const metrics = faces.primary.font.metrics;
  const paragraphs = buildParagraphs(text, faces);
  for (const paragraph of paragraphs) for (const piece of paragraph) use(piece.face.font);
  const words = paragraphs.map(toWords);
  const fontSize = style.shrinkToFit
    ? chooseFontSize(style, box, metrics, (maxWidth) => {
      const broken = breakAll(words, maxWidth);
      return { lines: broken.length, widest: broken.reduce((widest, line) => Math.max(widest, line.width), 0) };
    })
    : requestedSize(style);
  const lines: TextLine[] = [];
  let baseline = firstBaseline(box, metrics, fontSize);
  for (const line of breakAll(words, style.wrap ? box.width / fontSize : Infinity)) {
    const width = line.width * fontSize;
    const x = alignedX(box, style.align, width);
    lines.push({ x, baseline, width, runs: lineRuns(line.pieces, x, fontSize) });
    baseline -= metrics.lineHeight * fontSize;
  }
  return { fontSize, lines, primary: faces.primary, style };
}

function breakAll(words: readonly Word[][], maxWidth: number): PieceLine[] {
  const lines: PieceLine[] = [];
  for (const paragraph of words) breakWords(paragraph, maxWidth, lines);
  return lines;
}
