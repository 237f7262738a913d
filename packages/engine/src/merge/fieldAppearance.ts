/**
 * The look of a filled text or choice field, in the widget's own coordinates (0,0 at its lower-left
 * corner): the background and border its /MK asks for, then the value, one character per cell for
 * comb fields. Used as the appearance stream of a kept field and drawn into the page when flattened.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFContext, type PDFObject } from 'pdf-lib';
import { pdfNumber } from '../pdf/bytes.ts';
import type { FontRegistry } from '../text/index.ts';
import type { TextStyle } from '../text/types.ts';
import { resolve, type FormField, type FormWidget } from './formFields.ts';

const COMB_FLAG = 1 << 24;

export interface WidgetLook {
  width: number;
  height: number;
  /** Background and border operators (constant per widget). */
  frame: string;
  /** Inset of the text from the border. */
  inset: number;
  /** Number of comb cells, or 0. */
  combCells: number;
}

export function widgetLook(context: PDFContext, field: FormField, widget: FormWidget): WidgetLook {
  const [x0, y0, x1, y1] = widget.rect;
  const width = x1 - x0;
  const height = y1 - y0;
  const mk = resolve(context, widget.dict.get(PDFName.of('MK')));
  const background = mk instanceof PDFDict ? colourOperator(context, mk.get(PDFName.of('BG')), 'fill') : '';
  const border = mk instanceof PDFDict ? colourOperator(context, mk.get(PDFName.of('BC')), 'stroke') : '';
  const bs = resolve(context, widget.dict.get(PDFName.of('BS')));
  const borderWidth = border ? (bs instanceof PDFDict && bs.get(PDFName.of('W')) instanceof PDFNumber ? (bs.get(PDFName.of('W')) as PDFNumber).asNumber() : 1) : 0;
  let frame = '';
  if (background) frame += `${background} 0 0 ${pdfNumber(width)} ${pdfNumber(height)} re f\n`;
  if (border && borderWidth > 0) {
    const half = borderWidth / 2;
    frame += `${border} ${pdfNumber(borderWidth)} w ${pdfNumber(half)} ${pdfNumber(half)} ${pdfNumber(width - borderWidth)} ${pdfNumber(height - borderWidth)} re S\n`;
  }
  const flags = resolve(context, field.dict.get(PDFName.of('Ff')));
  const maxLen = resolve(context, field.dict.get(PDFName.of('MaxLen')));
  const comb = flags instanceof PDFNumber && (flags.asNumber() & COMB_FLAG) !== 0 && maxLen instanceof PDFNumber ? maxLen.asNumber() : 0;
  return { width, height, frame: frame ? `q\n${frame}Q\n` : '', inset: Math.max(2, borderWidth * 2), combCells: comb };
}

/** Operators drawing `value` in the widget: frame, then the text clipped to the field. */
export function fieldAppearance(fonts: FontRegistry, look: WidgetLook, style: TextStyle, value: string): string {
  const { width, height, inset } = look;
  let text = '';
  if (value !== '' && look.combCells > 0) {
    const cell = width / look.combCells;
    const characters = [...value].slice(0, look.combCells);
    const centred = { ...style, align: 'center' as const, wrap: false };
    characters.forEach((character, i) => {
      text += fonts.draw(fonts.layout(character, centred, { x: i * cell, ...lineBox(style, height), width: cell }));
    });
  } else if (value !== '') {
    text = fonts.draw(fonts.layout(value, style, { x: inset, ...lineBox(style, height), width: Math.max(1, width - 2 * inset) }));
  }
  return `${look.frame}q 1 1 ${pdfNumber(Math.max(0, width - 2))} ${pdfNumber(Math.max(0, height - 2))} re W n\n${text}Q\n`;
}

/** Text in a single-line field sits centred vertically: a box one line tall, centred in the field. */
function lineBox(style: TextStyle, height: number): { y: number; height: number } {
  const line = Math.min(height, style.fontSize * 1.2);
  return { y: (height - line) / 2, height: line };
}

const COLOUR_OPERATORS: Record<number, string> = { 1: 'g', 3: 'rg', 4: 'k' };

/** `r g b rg`-style operator of an /MK colour array (gray, RGB or CMYK), or ''. */
function colourOperator(context: PDFContext, value: PDFObject | undefined, use: 'fill' | 'stroke'): string {
  const array = resolve(context, value);
  if (!(array instanceof PDFArray)) return '';
  const parts = array.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : 0));
  const operator = COLOUR_OPERATORS[parts.length];
  if (!operator) return '';
  return `${parts.map(pdfNumber).join(' ')} ${use === 'fill' ? operator : operator.toUpperCase()}`;
}
