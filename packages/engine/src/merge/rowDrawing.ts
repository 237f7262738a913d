/**
 * What one row draws on one page: the placeholders' operators inside a `cm` that maps the page's
 * visual space onto its user space. Everything here runs once per row per page, so it only reads
 * cells and calls prepared layouts.
 */
import { DEFAULT_NUMBER_FORMAT, DEFAULT_DATE_FORMAT } from './defaults.ts';
import { formatDate, formatNumber } from '../format/index.ts';
import { qrCodeOperators } from '../qr/index.ts';
import { pdfNumber } from '../pdf/bytes.ts';
import type { FontRegistry } from '../text/index.ts';
import type { SheetData } from '../sheet/types.ts';
import type { TemplatePage } from '../pdf/template.ts';
import type { PlacedPlaceholder } from './placed.ts';
import type { MergeImages } from './images.ts';

export interface DrawContext {
  sheet: SheetData;
  fonts: FontRegistry;
  images: MergeImages;
  /** Operators of the watermark in visual space, or ''. */
  watermark: (page: TemplatePage) => string;
  /** Operators in the page's own user space (flattened form fields), or ''. */
  userSpaceOperators: (page: TemplatePage, row: number) => string;
}

/** The text a text-like placeholder prints for a row. */
export function placeholderText(placed: Pick<PlacedPlaceholder, 'placeholder' | 'column'>, sheet: SheetData, row: number): string {
  const { placeholder, column } = placed;
  switch (placeholder.type) {
    case 'number':
      return formatNumber(sheet.value(row, column) ?? sheet.text(row, column), placeholder.typeSettings.numberFormat ?? DEFAULT_NUMBER_FORMAT);
    case 'date':
      return formatDate(sheet.value(row, column) ?? sheet.text(row, column), placeholder.typeSettings.dateFormat ?? DEFAULT_DATE_FORMAT);
    default:
      return sheet.text(row, column);
  }
}

export function isTextLike(placed: PlacedPlaceholder): boolean {
  const type = placed.placeholder.type;
  return type === 'text' || type === 'number' || type === 'date' || type === 'multiple';
}

/**
 * Operators for one page of one row, or '' when nothing is drawn. `onImage` learns which images the
 * row uses so only those travel with its document.
 */
export function drawPage(ctx: DrawContext, page: TemplatePage, placedOnPage: readonly PlacedPlaceholder[], row: number, onImage: (name: string) => void): string {
  // The watermark goes beneath the placeholders, so their values stay legible, and codes are drawn
  // on an opaque quiet zone over it, so scanners still read them.
  const watermark = ctx.watermark(page);
  let body = watermark;
  for (const placed of placedOnPage) {
    const { placeholder, box } = placed;
    switch (placeholder.type) {
      case 'image': {
        const image = ctx.images.lookup(ctx.sheet.text(row, placed.column));
        if (!image) break;
        onImage(image.resourceName);
        const scale = Math.min(box.width / image.width, box.height / image.height);
        const w = image.width * scale;
        const h = image.height * scale;
        const x = box.x + (box.width - w) / 2;
        const y = box.y + (box.height - h) / 2;
        body += `q ${pdfNumber(w)} 0 0 ${pdfNumber(h)} ${pdfNumber(x)} ${pdfNumber(y)} cm /${image.resourceName} Do Q\n`;
        break;
      }
      case 'qrcode':
        body += qrCodeOperators(ctx.sheet.text(row, placed.column), box, {
          errorCorrection: placeholder.typeSettings.errorCorrection ?? 'M',
          color: placeholder.fill,
          opaque: watermark !== '',
        });
        break;
      case 'eSignature':
        break; // a signature field, added to the page's annotations once per merge
      default: {
        const text = placeholderText(placed, ctx.sheet, row);
        if (text !== '') body += ctx.fonts.draw(ctx.fonts.layout(text, placed.style, box));
      }
    }
  }
  const userSpace = ctx.userSpaceOperators(page, row);
  if (body === '') return userSpace;
  const [a, b, c, d, e, f] = page.visualToUser;
  return `${userSpace}q ${a} ${b} ${c} ${d} ${pdfNumber(e)} ${pdfNumber(f)} cm\n${body}Q\n`;
}
