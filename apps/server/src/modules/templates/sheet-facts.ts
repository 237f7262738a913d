/** The stored facts of a template's sheet, saved together with the template's header row. */
import { ALL_OUTPUT_ROWS, SheafError, type ExcelMeta } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import {
  deleteSheetBlob, findSpreadsheetRow, parseSheetCached, readSheetBlob, storeSheetRows, toExcelMeta, upsertSpreadsheetRow, type SheetData, type SpreadsheetFacts,
} from '../spreadsheets/index.ts';
import { findTemplateRow, updateTemplateFields } from './repository.ts';

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

/**
 * Saves the sheet's facts and the template's header row. A different file than the one attached (by
 * checksum) also resets the rows chosen for output to all rows: "rows 5-12" or "2, 7" of another sheet
 * would pick rows the user never chose. The new file is already stored under its own key; once the row
 * points at it, the previous file is removed (after the commit, so a failed switch keeps the old sheet whole).
 */
export async function saveFacts(ctx: AppContext, ownerId: string, templateId: string, facts: SpreadsheetFacts): Promise<ExcelMeta> {
  const previousChecksum = await ctx.db.transaction(async (tx) => {
    const previous = await findSpreadsheetRow(tx, ownerId, templateId);
    await upsertSpreadsheetRow(tx, ownerId, templateId, facts);
    const template = previous && previous.checksum === facts.checksum ? undefined : await findTemplateRow(tx, ownerId, templateId);
    const output = template ? { ...template.output, rows: ALL_OUTPUT_ROWS } : undefined;
    await updateTemplateFields(tx, ownerId, templateId, { headersRowNo: facts.headersRowNo, output });
    return previous?.checksum;
  });
  if (previousChecksum !== undefined && previousChecksum !== facts.checksum) await deleteSheetBlob(ctx, templateId, previousChecksum);
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('template/not-found'); // deleted meanwhile
  return toExcelMeta(row);
}

/** Re-reads the stored file with another header row; sheet/header-row-out-of-range leaves all as it was. */
export async function changeHeaderRow(ctx: AppContext, ownerId: string, templateId: string, headerRow: number): Promise<void> {
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) return;
  const sheet = await parseSheetCached(row.checksum, headerRow, row.name, () => readSheetBlob(ctx, templateId, row.checksum));
  await storeSheetRows(ctx, templateId, row.checksum, sheet); // the data check's rows file of this header row
  await saveFacts(ctx, ownerId, templateId, factsOf(sheet, { name: row.name, size: row.file_size, checksum: row.checksum }, headerRow));
}
