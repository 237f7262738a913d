/** Word templates: safe DOCX reading, fields ({{Column}} tags, MERGEFIELDs), per-row filling (docs/word-templates.md). */
export { prepareDocx, listDocxFields, unknownDocxFields, docxColumnIndex, type DocxOptions, type PreparedDocx } from './prepare.ts';
export type { DocxField } from './compile.ts';
export { isOleCompoundFile } from './archive.ts';
export { planBatch, rowBookmarkName, ROW_BOOKMARK_PREFIX, type BatchFillOptions, type BatchPlan } from './batch.ts';
