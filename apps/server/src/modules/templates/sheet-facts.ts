/** The stored facts of a template's sheet, saved together with the template's header row. */
import { SheafError, type ExcelMeta } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import {
  findSpreadsheetRow, parseSheetCached, toExcelMeta, upsertSpreadsheetRow, type SheetData, type SpreadsheetFacts,
} from '../spreadsheets/index.ts';
import { updateTemplateFields } from './repository.ts';

export function factsOf(sheet: SheetData, file: { name: string; size: number; checksum: string }, headerRow: number): SpreadsheetFacts {
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

export async function saveFacts(ctx: AppContext, ownerId: string, templateId: string, facts: SpreadsheetFacts): Promise<ExcelMeta> {
  await ctx.db.transaction(async (tx) => {
    await upsertSpreadsheetRow(tx, ownerId, templateId, facts);
    await updateTemplateFields(tx, ownerId, templateId, { headersRowNo: facts.headersRowNo });
  });
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('template/not-found'); // deleted meanwhile
  return toExcelMeta(row);
}

/** Re-reads the stored file with another header row; sheet/header-row-out-of-range leaves all as it was. */
export async function changeHeaderRow(ctx: AppContext, ownerId: string, templateId: string, headerRow: number): Promise<void> {
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) return;
  const sheet = await parseSheetCached(row.checksum, headerRow, row.name, () => ctx.blobs.get(blobLayout.template.spreadsheet(templateId)));
  await saveFacts(ctx, ownerId, templateId, factsOf(sheet, { name: row.name, size: row.file_size, checksum: row.checksum }, headerRow));
}
