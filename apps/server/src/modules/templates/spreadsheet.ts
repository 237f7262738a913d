/**
 * The spreadsheet of a template: upload (read in a worker; every rejection of
 * docs/spreadsheets.md#limits is a catalogue error from the engine), rows for the wizard, header-row
 * changes, copy and delete. The spreadsheets module reads and stores sheets; this side ties them to the
 * template (its header row, merges in progress).
 */
import { SheafError, type ExcelMeta, type ExcelSheetResponse } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import {
  copySheetRows, deleteSheetBlob, deleteSpreadsheetRow, findSpreadsheetRow, loadSheet, readSheetSafely, rememberSheet, sheetBlobKey, storeSheetRows, toExcelMeta,
} from '../spreadsheets/index.ts';
import { requireTemplate } from './service.ts';
import { factsOf, saveFacts } from './sheet-facts.ts';
import { accountFor, type Principal } from '../../access/index.ts';

export async function uploadSpreadsheet(
  ctx: AppContext, principal: Principal, templateId: string, file: { fileName: string; bytes: Uint8Array }, headersRowNo?: number,
): Promise<ExcelMeta> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, templateId);
  // Unless the upload names it, the header row is found: a title or empty rows above it are skipped.
  const sheet = await readSheetSafely(file.bytes, headersRowNo ?? 'auto', file.fileName);
  const headerRow = sheet.headerRowNumber;
  const checksum = sha256Hex(file.bytes);
  // The file goes under a key of its own first; the row switches to it in one transaction (saveFacts).
  await ctx.blobs.put(blobLayout.template.spreadsheet(templateId, checksum), file.bytes);
  rememberSheet(checksum, headerRow, sheet);
  await storeSheetRows(ctx, templateId, checksum, sheet); // what the data check streams once the sheet is no longer in memory
  return switchSheet(ctx, ownerId, templateId, () =>
    saveFacts(ctx, ownerId, templateId, factsOf(sheet, { name: file.fileName, size: file.bytes.length, checksum }, headerRow)), checksum);
}

/** Runs the row switch; when it fails, the file stored for it goes again unless a row describes it. */
async function switchSheet(ctx: AppContext, ownerId: string, templateId: string, save: () => Promise<ExcelMeta>, checksum: string): Promise<ExcelMeta> {
  try {
    return await save();
  } catch (error) {
    const current = await findSpreadsheetRow(ctx.db, ownerId, templateId).catch(() => undefined);
    if (current?.checksum !== checksum) {
      await ctx.blobs.delete(blobLayout.template.spreadsheet(templateId, checksum)).catch(() => undefined);
      await ctx.blobs.deletePrefix(blobLayout.template.sheetRowsFolder(templateId, checksum)).catch(() => undefined);
    }
    throw error;
  }
}

/** The metadata and every data row as the sheet displays it (null for an empty cell). */
export async function getSpreadsheet(ctx: AppContext, principal: Principal, templateId: string): Promise<ExcelSheetResponse> {
  const ownerId = accountFor(principal, 'templates:read');
  await requireTemplate(ctx, ownerId, templateId);
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('sheet/missing');
  const sheet = await loadSheet(ctx, ownerId, templateId);
  const rows: Array<Array<string | null>> = new Array(sheet.rowCount);
  for (let index = 0; index < sheet.rowCount; index++) {
    const cells = new Array<string | null>(sheet.headers.length);
    for (let column = 0; column < sheet.headers.length; column++) cells[column] = sheet.text(index, column) || null;
    rows[index] = cells;
  }
  return { ...toExcelMeta(row), excelSheet: rows };
}

/** "Choose a file from another template": the same file and header row, copied. */
export async function copySpreadsheet(ctx: AppContext, principal: Principal, templateId: string, sourceTemplateId: string): Promise<ExcelMeta> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, sourceTemplateId);
  await requireTemplate(ctx, ownerId, templateId);
  const source = await findSpreadsheetRow(ctx.db, ownerId, sourceTemplateId);
  if (!source) throw new SheafError('sheet/missing');
  if (sourceTemplateId === templateId) return toExcelMeta(source);
  await ctx.blobs.copy(await sheetBlobKey(ctx, sourceTemplateId, source.checksum), blobLayout.template.spreadsheet(templateId, source.checksum));
  await copySheetRows(ctx, sourceTemplateId, templateId, source.checksum, source.headers_row_no);
  return switchSheet(ctx, ownerId, templateId, () => saveFacts(ctx, ownerId, templateId, {
    name: source.name, fileSize: source.file_size, checksum: source.checksum, headersRowNo: source.headers_row_no,
    headers: source.headers, totalRowCount: source.total_row_count, firstRow: source.first_row, lastRow: source.last_row,
  }), source.checksum);
}

export async function deleteSpreadsheet(ctx: AppContext, principal: Principal, templateId: string): Promise<void> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, templateId);
  // A merge running on it refuses (merges module: sheet/merge-in-progress).
  await ctx.events.emit('sheet.deleting', { ownerId, templateId });
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (row && (await deleteSpreadsheetRow(ctx.db, ownerId, templateId))) await deleteSheetBlob(ctx, templateId, row.checksum);
}
