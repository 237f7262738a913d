/**
 * The spreadsheets module's public surface: reading a spreadsheet safely (a worker with limits),
 * the parsed sheet of a template (cached), and the stored facts of the sheet attached to a template.
 * Tying a sheet to its template (header row, merges in progress) is the templates module's part.
 */
export type { SheetData } from '@sheaf/engine';
export { readSheetSafely } from './read.ts';
export { forgetParsedSheets, loadSheet, parseSheetCached, rememberSheet } from './load.ts';
// The data check's rows: from memory, or streamed from the rows file stored beside the sheet (docs/data-check.md#speed).
export { copySheetRows, loadCheckRows, storeSheetRows, type CheckRows } from './sheet-rows.ts';
export { listChoices } from './service.ts';
export { deleteSheetBlob, readSheetBlob, sheetBlobKey } from './sheet-blob.ts';
export {
  findSpreadsheetRow, upsertSpreadsheetRow, deleteSpreadsheetRow, toExcelMeta, type SpreadsheetRow, type SpreadsheetFacts,
} from './repository.ts';
export { registerSpreadsheetRoutes } from './routes.ts';
