/** @sheaf/engine: the merge engine. Bytes in, bytes out; no I/O (see src/node for the Node adapters). */
export { prepareMerge, type OutputDocument, type PreparedMerge } from './merge/index.ts';
export type { MergeInput, FallbackFonts, RowIssue } from './merge/types.ts';
export { readSheet } from './sheet/index.ts';
export type { SheetData, CellValue, ReadSheetOptions } from './sheet/types.ts';
export { inspectEncryption, decryptPdf, encryptPdf } from './security/index.ts';
export { loadTemplate, checkTemplateBytes, type Template } from './pdf/template.ts';
export { ZipWriter, crc32, crc32Combine } from './zip/index.ts';
/** The ZIP record layouts, for writers that assemble an archive from parts made apart (the server's ranged merges). */
export * as zipRecords from './zip/records.ts';
export { formatNumber, formatDate } from './format/index.ts';
export { sheetFromTable } from './sheet/table.ts';
export { prepareWordMerge, type PreparedWordMerge, type WordMergeInput, type WordBatch } from './docx/word-merge.ts';
export { prepareDocx, listDocxFields, unknownDocxFields, docxColumnIndex, type DocxField, type DocxOptions, type PreparedDocx } from './docx/index.ts';
/** PDF output of Word templates in batches: one conversion, then one PDF per row (docs/word-templates.md#pdf-output-in-batches). */
export { openBatchPdf, splitPdfAtBookmarks, BATCH_PDF_EXPORT_FILTER, type BatchPdf, type PageRange } from './pdf/split.ts';
export { openStampPdf, type StampLayout, type StampPdf } from './pdf/stamp/stamp-pdf.ts';
/** The data check (docs/data-check.md): a merge's rows against its template and settings, one row at a time. */
export { createDataCheck, issueOf, MAX_ACTUAL_LENGTH, type DataCheck, type DataCheckInput, type CheckedEmail, type PdfCheckTemplate, type WordCheckTemplate } from './check/index.ts';
export { inferColumnTypes, profileOf, rowsOfSheet, type ColumnType, type SheetProfile, type SheetRow, type SheetRows } from './check/index.ts';
