/** The bench template as a @pdfme/generator template: the PDF as basePdf, one text schema per field. */
import type { Template } from '@pdfme/common';
import { BENCH_FIELDS } from '../types.ts';

const MM_PER_POINT = 25.4 / 72;
const A4_HEIGHT_POINTS = 841.89;

export function pdfmeTemplate(basePdf: Uint8Array<ArrayBuffer>, pageCount: number): Template {
  const schemas = Array.from({ length: pageCount }, (_, page) =>
    BENCH_FIELDS.filter((field) => field.page === page).map((field) => ({
      name: field.column,
      type: 'text',
      // pdfme boxes are placed by their top-left corner in mm; our fields by their baseline in points.
      position: { x: field.x * MM_PER_POINT, y: (A4_HEIGHT_POINTS - field.y - field.size) * MM_PER_POINT },
      width: field.width * MM_PER_POINT,
      height: field.height * MM_PER_POINT,
      fontSize: field.size,
    })),
  );
  return { basePdf, schemas };
}
