/**
 * The spreadsheet of a template: upload (read in a worker; every rejection of spec section 5 is a
 * catalogue error from the engine), rows for the wizard, header-row changes, copy and delete.
 */
import type { SheetData } from '@sheaf/engine';
import { SheafError, type ExcelMeta, type ExcelSheetResponse } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { countActiveMerges, updateTemplateFields } from '../templates/repository.ts';
import { requireTemplate } from '../templates/service.ts';
import { loadSheet, parseSheetCached, rememberSheet } from './load.ts';
import { readSheetSafely } from './read.ts';
import {
  deleteSpreadsheetRow, findSpreadsheetRow, listSpreadsheetChoices, toExcelMeta, upsertSpreadsheetRow, type SpreadsheetFacts,
} from './repository.ts';

function factsOf(sheet: SheetData, file: { name: string; size: number; checksum: string }, headerRow: number): SpreadsheetFacts {
  return {
    name: file.name,
    fileSize: file.size,
    checksum: file.checksum,
    headersRowNo: headerRow,
    headers: [...sheet.headers],
    totalRowCount: sheet.rowCount,
    firstRow: sheet.rowCount ? sheet.rowNumber(0) : headerRow + 1,
    lastRow: sheet.rowCount ? sheet.rowNumber(sheet.rowCount - 1) : headerRow,
  };
}

async function saveFacts(ctx: AppContext, ownerId: string, templateId: string, facts: SpreadsheetFacts): Promise<ExcelMeta> {
  await ctx.db.transaction(async (tx) => {
    await upsertSpreadsheetRow(tx, ownerId, templateId, facts);
    await updateTemplateFields(tx, ownerId, templateId, { headersRowNo: facts.headersRowNo });
  });
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('template/not-found'); // deleted meanwhile
  return toExcelMeta(row);
}

export async function uploadSpreadsheet(
  ctx: AppContext, ownerId: string, templateId: string, file: { fileName: string; bytes: Uint8Array }, headersRowNo?: number,
): Promise<ExcelMeta> {
  const template = await requireTemplate(ctx, ownerId, templateId);
  const headerRow = headersRowNo ?? template.headers_row_no;
  const sheet = await readSheetSafely(file.bytes, headerRow, file.fileName);
  const checksum = sha256Hex(file.bytes);
  await ctx.blobs.put(blobLayout.template.spreadsheet(templateId), file.bytes);
  rememberSheet(checksum, headerRow, sheet);
  return saveFacts(ctx, ownerId, templateId, factsOf(sheet, { name: file.fileName, size: file.bytes.length, checksum }, headerRow));
}

/** Re-reads the stored file with another header row; sheet/header-row-out-of-range leaves all as it was. */
export async function changeHeaderRow(ctx: AppContext, ownerId: string, templateId: string, headerRow: number): Promise<void> {
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) return;
  const sheet = await parseSheetCached(row.checksum, headerRow, row.name, () => ctx.blobs.get(blobLayout.template.spreadsheet(templateId)));
  await saveFacts(ctx, ownerId, templateId, factsOf(sheet, { name: row.name, size: row.file_size, checksum: row.checksum }, headerRow));
}

/** The metadata and every data row as the sheet displays it (null for an empty cell). */
export async function getSpreadsheet(ctx: AppContext, ownerId: string, templateId: string): Promise<ExcelSheetResponse> {
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
export async function copySpreadsheet(ctx: AppContext, ownerId: string, templateId: string, sourceTemplateId: string): Promise<ExcelMeta> {
  await requireTemplate(ctx, ownerId, sourceTemplateId);
  await requireTemplate(ctx, ownerId, templateId);
  const source = await findSpreadsheetRow(ctx.db, ownerId, sourceTemplateId);
  if (!source) throw new SheafError('sheet/missing');
  if (sourceTemplateId !== templateId) await ctx.blobs.copy(blobLayout.template.spreadsheet(sourceTemplateId), blobLayout.template.spreadsheet(templateId));
  return saveFacts(ctx, ownerId, templateId, {
    name: source.name, fileSize: source.file_size, checksum: source.checksum, headersRowNo: source.headers_row_no,
    headers: source.headers, totalRowCount: source.total_row_count, firstRow: source.first_row, lastRow: source.last_row,
  });
}

export async function deleteSpreadsheet(ctx: AppContext, ownerId: string, templateId: string): Promise<void> {
  await requireTemplate(ctx, ownerId, templateId);
  if (await countActiveMerges(ctx.db, ownerId, templateId)) throw new SheafError('sheet/merge-in-progress');
  if (await deleteSpreadsheetRow(ctx.db, ownerId, templateId)) await ctx.blobs.delete(blobLayout.template.spreadsheet(templateId));
}

export async function listChoices(ctx: AppContext, ownerId: string) {
  const rows = await listSpreadsheetChoices(ctx.db, ownerId);
  return rows.map((row) => ({
    templateId: row.template_id, templateName: row.template_name, excelName: row.name, totalRowCount: row.total_row_count, excelFileSize: row.file_size,
  }));
}
