/**
 * Where a template's sheet file is: under a key made of its checksum (blobLayout.template.spreadsheet),
 * so a new file never overwrites the one the stored row describes. Files stored before these keys sit
 * under the old fixed key and are still read from there.
 */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';

/** The key the sheet with this checksum is stored under (the old fixed key when only that exists). */
export async function sheetBlobKey(ctx: AppContext, templateId: string, checksum: string): Promise<string> {
  const key = blobLayout.template.spreadsheet(templateId, checksum);
  if (await ctx.blobs.exists(key)) return key;
  const legacy = blobLayout.template.legacySpreadsheet(templateId);
  return (await ctx.blobs.exists(legacy)) ? legacy : key;
}

export async function readSheetBlob(ctx: AppContext, templateId: string, checksum: string): Promise<Uint8Array> {
  return ctx.blobs.get(await sheetBlobKey(ctx, templateId, checksum));
}

/** Removes a sheet file no row describes any more (after the commit that switched the row away from it), and its rows files. */
export async function deleteSheetBlob(ctx: AppContext, templateId: string, checksum: string): Promise<void> {
  await ctx.blobs.delete(blobLayout.template.spreadsheet(templateId, checksum));
  await ctx.blobs.deletePrefix(blobLayout.template.sheetRowsFolder(templateId, checksum));
  await ctx.blobs.delete(blobLayout.template.legacySpreadsheet(templateId));
}
