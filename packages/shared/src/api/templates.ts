import { z } from 'zod';
import { PasswordProtectionSchema } from '../output.ts';
import { PlaceholderListSchema } from '../placeholder.ts';
import { EmailSchema } from './users.ts';
import { TemplateEmailSettingsSchema } from './email.ts';

/**
 * The rows to generate, as the user chose them in step 4: all data rows, an Excel-numbered range
 * (null ends take the sheet's bounds) or a typed list like "1, 3, 5-12".
 */
export const OutputRowsSchema = z.object({
  mode: z.enum(['all', 'range', 'specific']),
  startRow: z.number().int().min(1).nullable(),
  endRow: z.number().int().min(1).nullable(),
  specificRows: z.string().max(10_000),
});
export type OutputRows = z.infer<typeof OutputRowsSchema>;

/** All data rows: what a template without a choice generates. */
export const ALL_OUTPUT_ROWS: OutputRows = { mode: 'all', startRow: null, endRow: null, specificRows: '' };

/** The output flags a template remembers between merges (docs/merging.md#output-options). */
export const TemplateOutputSettingsSchema = z.object({
  isCombinedOutput: z.boolean(),
  isKeepFormOutput: z.boolean(),
  isOnlyPlaceholdersOutput: z.boolean(),
  isTryRepair: z.boolean(),
  isCompressedOutput: z.boolean(),
  fileNamePattern: z.string().max(255),
  passwordProtection: PasswordProtectionSchema.nullable(),
  /** Word templates: PDFs (true, the default when absent) or DOCX files (false) (docs/word-templates.md#merging). */
  isSfdtPdfOutput: z.boolean().optional(),
  /** The chosen rows, kept like the flags (absent from templates saved before they were kept). */
  rows: OutputRowsSchema.optional(),
});
export type TemplateOutputSettings = z.infer<typeof TemplateOutputSettingsSchema>;

/** The spreadsheet attached to a template, without its rows. `message` is set when it could not be read. */
export const ExcelMetaSchema = z.object({
  excelName: z.string(),
  excelFileSize: z.number().int(),
  headersRowNo: z.number().int().min(1),
  headers: z.array(z.string()),
  totalRowCount: z.number().int(),
  /** Excel row number of the first and last data row. */
  firstRow: z.number().int(),
  lastRow: z.number().int(),
  message: z.string().optional(),
});
export type ExcelMeta = z.infer<typeof ExcelMetaSchema>;

/** A history entry: one merge of the template, its state and its file. */
export const MergeStatusSchema = z.enum(['queued', 'generating', 'completed', 'cancelled', 'error']);
export type MergeStatus = z.infer<typeof MergeStatusSchema>;

export const MergeSchema = z.object({
  mergeId: z.string(),
  templateId: z.string(),
  status: MergeStatusSchema,
  /** Documents (or rows, for combined output) to make, and made so far. */
  total: z.number().int(),
  done: z.number().int(),
  isCombinedOutput: z.boolean(),
  /** Name of the result: a .zip of PDFs or one .pdf. */
  fileName: z.string().nullable(),
  fileSize: z.number().int().nullable(),
  /** A time-limited link that downloads the result without a bearer token (for <a download>). */
  downloadUrl: z.string().nullable(),
  filesDeleted: z.boolean(),
  madeViaApi: z.boolean(),
  /**
   * Emailing of the documents after they are made: null when the merge sends no email; otherwise
   * queued (documents still being made), sending, completed, cancelled or error.
   */
  mailingStatus: z.enum(['queued', 'sending', 'completed', 'cancelled', 'error']).nullable(),
  /** Rows skipped with the reason (e.g. a missing image). */
  issues: z.array(z.object({ rowNumber: z.number().int(), code: z.string(), message: z.string() })),
  error: z.object({ code: z.string(), message: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }).nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Merge = z.infer<typeof MergeSchema>;

export const TemplateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  customName: z.string().nullable(),
  templateType: z.enum(['pdf', 'sfdt']),
  numPages: z.number().int(),
  isEncrypted: z.boolean(),
  /** Relative URL of a PNG of the first page, or null while it is being made. */
  thumbnailUrl: z.string().nullable(),
  excelName: z.string().nullable(),
  placeholderCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The history of merges, newest first. */
  merges: z.array(MergeSchema),
});
export type TemplateSummary = z.infer<typeof TemplateSummarySchema>;

export const TemplateDetailSchema = TemplateSummarySchema.omit({ merges: true }).extend({
  checksum: z.string(),
  placeholders: PlaceholderListSchema,
  images: z.array(z.object({ name: z.string(), size: z.number().int() })),
  /** Page sizes in points as a person sees them (crop box, after rotation). */
  pages: z.array(z.object({ width: z.number(), height: z.number() })),
  headersRowNo: z.number().int().min(1),
  output: TemplateOutputSettingsSchema,
  splitButtonSelection: z.string().nullable(),
  excel: ExcelMetaSchema.nullable(),
  /** The email part of step 4 (defaults when never saved). */
  email: TemplateEmailSettingsSchema,
});
export type TemplateDetail = z.infer<typeof TemplateDetailSchema>;

export const TemplateListSchema = z.object({ templates: z.array(TemplateSummarySchema) });

/** Upload fields besides the file. */
export const TemplateUploadQuerySchema = z.object({ name: z.string().max(255).optional() });

export const UpdateTemplateSchema = z.object({
  templateId: z.string().optional(),
  customName: z.string().trim().min(1).max(255).optional(),
  headersRowNo: z.number().int().min(1).max(1_000_000).optional(),
  output: TemplateOutputSettingsSchema.partial().optional(),
});

export const UpdatePlaceholdersSchema = z.object({
  templateId: z.string().optional(),
  placeholders: PlaceholderListSchema,
  /** Must be true to save an empty list, so a bug cannot wipe a template's placeholders. */
  forceDeleteAllPlaceholders: z.boolean().optional(),
});

export const SplitButtonSelectionSchema = z.object({ templateId: z.string().optional(), splitButtonSelection: z.string().max(50) });

export const DecryptRequestSchema = z.object({ templateId: z.string().optional(), password: z.string().max(1024) });
export const DecryptResponseSchema = z.object({ isEncrypted: z.boolean(), thumbnailImage: z.string().nullable() });

export const ShareTemplateSchema = z.object({ email: EmailSchema });

/** Engine preview of a few rows: a combined PDF of the rows in range with the unsaved placeholders. */
export const PreviewRequestSchema = z.object({
  placeholders: PlaceholderListSchema,
  startRow: z.number().int().min(1),
  endRow: z.number().int().min(1),
  /** Fill each placeholder with the longest value of its column instead of the rows' own. */
  showLongestOccurrence: z.boolean().default(false),
});

/** The portable export of a template (a .sheaf.json file): import recreates it in any account. */
export const TemplateExportSchema = z.object({
  format: z.literal('sheaf-template'),
  version: z.literal(1),
  name: z.string(),
  customName: z.string().nullable(),
  placeholders: PlaceholderListSchema,
  headersRowNo: z.number().int().min(1),
  output: TemplateOutputSettingsSchema,
  /** 'sfdt': a Word template, its document in `docx` (absent: a PDF template, as version 1 files were). */
  templateType: z.enum(['pdf', 'sfdt']).optional(),
  /** base64 of the PDF ('' for a Word template) */
  pdf: z.string(),
  /** base64 of a Word template's DOCX */
  docx: z.string().optional(),
  images: z.array(z.object({ name: z.string(), data: z.string() })),
});
export type TemplateExport = z.infer<typeof TemplateExportSchema>;
