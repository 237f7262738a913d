/** Spreadsheet reading: .xlsx/.xlsm (our streaming reader), .xls/.ods (SheetJS), CSV. */
export { readSheet } from './read-sheet.ts';
export { sheetFromTable, type TableSheetOptions } from './table.ts';
export { toTransferableSheet, fromTransferableSheet, type TransferableSheet } from './transfer.ts';
export { serialToDate, dateToSerial } from './cells/formats.ts';
export { formatGeneral } from './cells/general-format.ts';
export { MAX_INFLATED_BYTES, MAX_COMPRESSION_RATIO, MAX_ZIP_ENTRIES } from './limits.ts';
export type { CellValue, ReadSheetOptions, SheetData, SheetFormat } from './types.ts';
