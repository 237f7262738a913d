import { z } from 'zod';
import { ExcelMetaSchema } from './templates.ts';

export const CellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** GET /templates/:id/excel: the metadata and the rows (header row excluded), cells as displayed values. */
export const ExcelSheetResponseSchema = ExcelMetaSchema.extend({
  /** Data rows in order; row i is Excel row firstRow + i. */
  excelSheet: z.array(z.array(CellSchema)),
});
export type ExcelSheetResponse = z.infer<typeof ExcelSheetResponseSchema>;

export const ExcelUploadQuerySchema = z.object({ headersRowNo: z.coerce.number().int().min(1).max(1_000_000).optional() });
export const CopyExcelSchema = z.object({ sourceTemplateId: z.string() });

/** Spreadsheets of the user's other templates, for "choose from another template". */
export const ExcelChoiceListSchema = z.object({
  spreadsheets: z.array(z.object({ templateId: z.string(), templateName: z.string(), excelName: z.string(), totalRowCount: z.number().int(), excelFileSize: z.number().int() })),
});

export const FontSchema = z.object({ name: z.string(), fileName: z.string(), size: z.number().int() });
export const FontListSchema = z.object({ fonts: z.array(FontSchema) });
export const ImageListSchema = z.object({ images: z.array(z.object({ name: z.string(), size: z.number().int() })) });
