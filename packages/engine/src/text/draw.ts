/** Turns a layout into content-stream operators (ASCII only): one BT..ET, then decoration bars. */
import { SYNTH_BOLD_STROKE, SYNTH_ITALIC_SKEW, type PdfFont } from './faces/face.ts';
import { num, rgb } from './pdf-syntax.ts';
import type { TextLayout } from './types.ts';

export function drawLayout(layout: TextLayout): string {
  const { lines, fontSize, style } = layout;
  const colour = rgb(style.fill);
  const size = num(fontSize);
  let out = '';
  let font: PdfFont | null = null;
  // Unknown until set: a template's invisible OCR text (3 Tr) must not leak into ours.
  let stroked: boolean | null = null;
  for (const line of lines) {
    const baseline = num(line.baseline);
    for (const run of line.runs) {
      const face = run.face;
      if (out === '') out = `BT\n${colour} rg\n`;
      if (face.font !== font) {
        font = face.font;
        out += `/${font.resourceName} ${size} Tf\n`;
      }
      if (face.synthBold !== stroked) {
        stroked = face.synthBold;
        out += stroked ? `2 Tr ${num(fontSize * SYNTH_BOLD_STROKE)} w ${colour} RG\n` : '0 Tr\n';
      }
      out += `1 0 ${face.synthItalic ? SYNTH_ITALIC_SKEW : 0} 1 ${num(run.x)} ${baseline} Tm ${run.show}\n`;
    }
  }
  if (out === '') return '';
  // The render mode outlives ET: reset it for whatever the page draws next.
  out += stroked ? '0 Tr\nET\n' : 'ET\n';
  if (style.textDecoration !== 'none') out += decorations(layout);
  return out;
}

/** Underline or strike-through bars under each line's ink, in the fill colour set above. */
function decorations(layout: TextLayout): string {
  const metrics = layout.primary.font.metrics;
  const size = layout.fontSize;
  const offset = layout.style.textDecoration === 'underline' ? metrics.underlinePosition : metrics.strikeoutPosition;
  const thickness = Math.max(metrics.underlineThickness * size, 0.5);
  let out = '';
  for (const line of layout.lines) {
    if (line.width <= 0 || line.runs.length === 0) continue;
    out += `${num(line.x)} ${num(line.baseline + offset * size - thickness / 2)} ${num(line.width)} ${num(thickness)} re f\n`;
  }
  return out;
}
