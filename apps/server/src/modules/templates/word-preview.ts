/**
 * The editor's preview of a Word template (docs/word-templates.md#editing-in-the-browser): a few rows
 * (at most 20) filled into the saved document by the engine's Word merge, all of them one after
 * another in one DOCX, printed to PDF by LibreOffice. "Show longest occurrence" fills each field with
 * the longest value of its column. Without a spreadsheet, one row shows each field's own name.
 */
import { sheetFromTable, type CellValue, type SheetData } from '@sheaf/engine';
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { findSpreadsheetRow, loadSheet } from '../spreadsheets/index.ts';
import type { TemplateRow } from './repository.ts';
import { longestTexts, rowsInRange } from './preview-rows.ts';
import { readTemplatePdf } from './template-files.ts';
import { wordFieldsOf } from './word-files.ts';

export interface WordPreviewRequest {
  startRow: number;
  endRow: number;
  showLongestOccurrence: boolean;
}

/** The sheet's rows in the range (Excel numbers) as a sheet of their own; every column filled with its longest text when asked. */
function rowsToPreview(sheet: SheetData, request: WordPreviewRequest): SheetData {
  const indices = rowsInRange(sheet, request.startRow, request.endRow);
  if (indices.length === 0) throw new SheafError('merge/no-rows');
  const columns = sheet.headers.map((_, column) => column);
  const longest = request.showLongestOccurrence ? longestTexts(sheet, columns) : new Map<number, string>();
  const rows: CellValue[][] = indices.map((index) => columns.map((column) => longest.get(column) ?? sheet.text(index, column)));
  return sheetFromTable(sheet.headers, rows, { headerRowNumber: sheet.headerRowNumber });
}

/** The preview of a Word template as one PDF. */
export async function previewWordTemplate(ctx: AppContext, ownerId: string, row: TemplateRow, request: WordPreviewRequest): Promise<Uint8Array> {
  const hasSheet = (await findSpreadsheetRow(ctx.db, ownerId, row.id)) !== undefined;
  let sheet: SheetData;
  if (hasSheet) sheet = rowsToPreview(await loadSheet(ctx, ownerId, row.id), request);
  else {
    const names = [...new Set((await wordFieldsOf(ctx, row)).map((field) => field.column.trim()))];
    sheet = sheetFromTable(names, [names]);
  }
  const docx = await readTemplatePdf(ctx, row);
  const { prepareWordMerge } = await import('@sheaf/engine');
  const merge = prepareWordMerge({ template: docx, sheet, output: 'pdf', isCombinedOutput: true });
  // As the combined PDF of a merge prints it: each row's own "Page X of N" and footnote numbers.
  const { wordCombined } = await import('../../merge-output/word-documents.ts');
  return wordCombined(merge, (bytes) => ctx.office.toPdf(bytes));
}
