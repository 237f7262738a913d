/** A user's custom fonts: the editor draws with them, merges embed them. */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout, safeFileName } from '../../adapters/blobs/layout.ts';

import { checkFont } from './font-check.ts';
import { deleteFontRow, findFontRow, listFontRows, upsertFontRow } from './repository.ts';

export async function listFonts(ctx: AppContext, ownerId: string) {
  const rows = await listFontRows(ctx.db, ownerId);
  return { fonts: rows.map((row) => ({ name: row.name, fileName: row.file_name, size: row.size })) };
}

export async function uploadFont(ctx: AppContext, ownerId: string, file: { fileName: string; bytes: Uint8Array }) {
  const fileName = safeFileName(file.fileName);
  const { name } = checkFont(fileName, file.bytes);
  await ctx.blobs.put(blobLayout.font.file(ownerId, name), file.bytes);
  await upsertFontRow(ctx.db, ownerId, { name, file_name: fileName, size: file.bytes.length });
  return listFonts(ctx, ownerId);
}

export async function deleteFont(ctx: AppContext, ownerId: string, name: string) {
  if (!(await deleteFontRow(ctx.db, ownerId, name))) throw new SheafError('font/not-found', { name });
  await ctx.blobs.delete(blobLayout.font.file(ownerId, name));
  return listFonts(ctx, ownerId);
}

export async function fontFile(ctx: AppContext, ownerId: string, name: string): Promise<{ fileName: string; bytes: Uint8Array; contentType: string }> {
  const row = await findFontRow(ctx.db, ownerId, name);
  if (!row) throw new SheafError('font/not-found', { name });
  const bytes = await ctx.blobs.get(blobLayout.font.file(ownerId, name));
  const isCff = String.fromCharCode(...bytes.subarray(0, 4)) === 'OTTO';
  return { fileName: row.file_name, bytes, contentType: isCff ? 'font/otf' : 'font/ttf' };
}
