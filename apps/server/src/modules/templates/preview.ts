/**
 * The editor's preview: the engine's own combined output for a few rows (at most 20) with the
 * placeholders as they are in the editor, unsaved. "Show longest occurrence" fills each placeholder
 * with the longest value of its column, so the user sees whether the box is big enough. The engine runs
 * in a child process (pdf-tasks.ts): a hostile template must not stall the server's event loop.
 */
import { sheetFromTable, type CellValue, type SheetData } from '@sheaf/engine';
import { entitlements, FREE_PLAN_WATERMARK, SheafError, type Placeholder } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { loadUserFonts } from '../fonts/index.ts';
import { currentPeriod } from '../users/index.ts';
import { findSpreadsheetRow, loadSheet } from '../spreadsheets/index.ts';
import { loadImages, readTemplatePdf } from './template-files.ts';
import { renderPreview } from './pdf-tasks.ts';
import type { PortableSheet } from './pdf-worker.ts';
import { readOutput } from './output-settings.ts';
import { requireTemplate } from './service.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { previewWordTemplate } from './word-preview.ts';
import { longestTexts, MAX_PREVIEW_ROWS, rowsInRange } from './preview-rows.ts';

export { MAX_PREVIEW_ROWS };

export interface PreviewRequest {
  placeholders: Placeholder[];
  startRow: number;
  endRow: number;
  showLongestOccurrence: boolean;
}

interface PreviewSheet {
  sheet: SheetData;
  startRow: number;
  endRow: number;
}

/** The rows to preview as a sheet of their own (the engine then draws all of them). */
function previewRows(sheet: SheetData, request: PreviewRequest): PreviewSheet {
  const indices = rowsInRange(sheet, request.startRow, request.endRow);
  // None in range: let the engine say so with the sheet's real first and last rows.
  if (indices.length === 0) return { sheet, startRow: request.startRow, endRow: request.endRow };
  const wanted = new Set(request.placeholders.map((placeholder) => placeholder.column.trim()));
  const columns = sheet.headers.flatMap((heading, column) => (wanted.has(heading) ? [column] : []));
  const longest = request.showLongestOccurrence ? longestTexts(sheet, columns) : new Map<number, string>();
  if (!request.showLongestOccurrence) {
    // The sheet's own rows, so values keep the formats the spreadsheet shows them with.
    return { sheet: subSheet(sheet, indices), startRow: sheet.rowNumber(indices[0]!), endRow: sheet.rowNumber(indices.at(-1)!) };
  }
  const rows: CellValue[][] = indices.map((index) =>
    sheet.headers.map((_, column) => longest.get(column) ?? sheet.value(index, column)));
  const table = sheetFromTable(sheet.headers, rows, { headerRowNumber: sheet.headerRowNumber });
  return { sheet: table, startRow: table.rowNumber(0), endRow: table.rowNumber(table.rowCount - 1) };
}

function subSheet(sheet: SheetData, indices: number[]): SheetData {
  return {
    headers: sheet.headers,
    headerRowNumber: sheet.headerRowNumber,
    rowCount: indices.length,
    rowNumber: (index) => sheet.rowNumber(indices[index]!),
    text: (index, column) => sheet.text(indices[index]!, column),
    value: (index, column) => sheet.value(indices[index]!, column),
  };
}

/** Without a spreadsheet: one row whose values are the column names. */
function headingsOnly(placeholders: Placeholder[]): PreviewSheet {
  const columns = [...new Set(placeholders.map((placeholder) => placeholder.column.trim()))];
  return { sheet: sheetFromTable(columns, [columns]), startRow: 2, endRow: 2 };
}

export async function previewTemplate(ctx: AppContext, principal: Principal, id: string, request: PreviewRequest): Promise<Uint8Array> {
  const ownerId = accountFor(principal, 'templates:read');
  const row = await requireTemplate(ctx, ownerId, id);
  if (row.is_encrypted) throw new SheafError('template/encrypted');
  // A Word template's fields are in its document: the saved document is filled and printed.
  if (row.template_type === 'sfdt') return previewWordTemplate(ctx, ownerId, row, request);
  if (request.placeholders.length === 0) throw new SheafError('merge/no-placeholders');
  const hasSheet = (await findSpreadsheetRow(ctx.db, ownerId, id)) !== undefined;
  const rows = hasSheet ? previewRows(await loadSheet(ctx, ownerId, id), request) : headingsOnly(request.placeholders);
  const [template, fonts, images] = await Promise.all([
    readTemplatePdf(ctx, row), loadUserFonts(ctx, ownerId), loadImages(ctx, ownerId, id),
  ]);
  const output = readOutput(ctx.config.encryptionKey, row.output);
  // The preview shows the watermark the plan's merges will carry.
  const { plan } = await currentPeriod(ctx.db, ownerId);
  const watermark = entitlements(plan, ctx.config.EDITION).watermark ? FREE_PLAN_WATERMARK : undefined;
  return renderPreview({
    template,
    placeholders: request.placeholders,
    sheet: portable(rows.sheet),
    rows: { kind: 'range', startRow: rows.startRow, endRow: rows.endRow },
    options: {
      isCombinedOutput: true,
      isKeepFormOutput: output.isKeepFormOutput,
      isOnlyPlaceholdersOutput: output.isOnlyPlaceholdersOutput,
      isTryRepair: output.isTryRepair,
      isCompressedOutput: true,
      watermark,
    },
    fonts,
    images,
  });
}

/**
 * The preview's rows copied out for the child process. A sheet with none in range keeps only its first
 * and last rows: the engine's "no rows in range" message names those.
 */
function portable(sheet: SheetData): PortableSheet {
  const indices = sheet.rowCount <= MAX_PREVIEW_ROWS ? [...Array(sheet.rowCount).keys()] : [0, sheet.rowCount - 1];
  const columns = sheet.headers.map((_, column) => column);
  return {
    headers: sheet.headers,
    headerRowNumber: sheet.headerRowNumber,
    rows: indices.map((index) => ({
      number: sheet.rowNumber(index),
      texts: columns.map((column) => sheet.text(index, column)),
      values: columns.map((column) => sheet.value(index, column)),
    })),
  };
}
