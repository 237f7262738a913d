/**
 * The watermark (the Free plan's): one line of light grey text across each page's diagonal, drawn
 * beneath the placeholders (rowDrawing.ts; docs/plans.md, "Watermark").
 */
import { pdfNumber } from '../pdf/bytes.ts';
import type { FontRegistry } from '../text/index.ts';
import type { TextStyle } from '../text/types.ts';
import type { TemplatePage } from '../pdf/template.ts';

export function watermarkStyle(page: TemplatePage): TextStyle {
  return {
    fontFamily: 'Helvetica',
    fontStyle: 'bold',
    fontSize: Math.max(12, Math.min(page.width, page.height) / 12),
    align: 'center',
    textDecoration: 'none',
    fill: '#b4b4b4',
    wrap: false,
    shrinkToFit: true,
  };
}

/** Operators in the page's visual space: rotated along the diagonal, centred. */
export function watermarkOperators(fonts: FontRegistry, text: string, page: TemplatePage): string {
  const style = watermarkStyle(page);
  const diagonal = Math.hypot(page.width, page.height);
  const width = diagonal * 0.8;
  const height = style.fontSize * 1.6;
  const angle = Math.atan2(page.height, page.width);
  const cos = pdfNumber(Math.cos(angle));
  const sin = pdfNumber(Math.sin(angle));
  const layout = fonts.layout(text, style, { x: -width / 2, y: -height / 2, width, height });
  return `q ${cos} ${sin} -${sin} ${cos} ${pdfNumber(page.width / 2)} ${pdfNumber(page.height / 2)} cm\n${fonts.draw(layout)}Q\n`;
}
