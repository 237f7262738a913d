/** Font size selection (shrinkToFit) and vertical placement, shared by both layout paths. */
import type { FontMetrics } from './faces/metrics.ts';
import type { Box, TextLayout, TextStyle } from './types.ts';

/** Smallest size shrinkToFit goes down to, points. */
export const MIN_FONT_SIZE = 4;
/** Rounding slack when comparing a measured size with the box, points. */
const SLACK = 0.01;

/** Lines and widest line (em) of the text broken at maxWidth em (Infinity: unwrapped). */
export type Measure = (maxWidth: number) => { lines: number; widest: number };

/** Height in em of n lines: the first line's ascent, n-1 line gaps, the last line's descent. */
function textHeight(lines: number, metrics: FontMetrics): number {
  return lines === 0 ? 0 : metrics.ascent - metrics.descent + (lines - 1) * metrics.lineHeight;
}

/** The style's size (a broken one becomes the minimum rather than an invisible or mirrored text). */
export function requestedSize(style: TextStyle): number {
  return style.fontSize > 0 ? style.fontSize : MIN_FONT_SIZE;
}

/** With shrinkToFit: the style's size or with shrinkToFit the largest size (>= MIN_FONT_SIZE) at which the text fits the box. */
export function chooseFontSize(style: TextStyle, box: Box, metrics: FontMetrics, measure: Measure): number {
  const requested = requestedSize(style);
  const fits = (size: number) => {
    const { lines, widest } = measure(style.wrap ? box.width / size : Infinity);
    return textHeight(lines, metrics) * size <= box.height + SLACK && widest * size <= box.width + SLACK;
  };
  if (fits(requested)) return requested;
  if (requested <= MIN_FONT_SIZE || !fits(MIN_FONT_SIZE)) return Math.min(requested, MIN_FONT_SIZE);
  let low = MIN_FONT_SIZE;
  let high = requested;
  while (high - low > 0.05) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** Left edge of a line of the given width (points) inside the box. */
export function alignedX(box: Box, align: TextStyle['align'], width: number): number {
  if (align === 'center') return box.x + (box.width - width) / 2;
  if (align === 'right') return box.x + box.width - width;
  return box.x;
}

/** Baseline of the first line: the box top minus the primary font's ascent. */
export function firstBaseline(box: Box, metrics: FontMetrics, size: number): number {
  return box.y + box.height - metrics.ascent * size;
}

/**
 * True when a laid-out value runs past its box (the data check, docs/data-check.md#layout): a line wider
 * than the box (no wrapping, or a word longer than the box), or several lines taller than it. One line
 * is never too tall: the editor shows the box with one line of the placeholder's size.
 */
export function overflowsBox(layout: TextLayout, box: Box): boolean {
  let widest = 0;
  for (const line of layout.lines) widest = Math.max(widest, line.width);
  if (widest > box.width + SLACK) return true;
  return layout.lines.length > 1 && textHeight(layout.lines.length, layout.primary.font.metrics) * layout.fontSize > box.height + SLACK;
}
