/** A user's custom fonts: the editor draws with them, merges embed them. */
import { SheafError, normalizeFileName } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { writeAndSwitch } from '../../adapters/blobs/switch.ts';
import { newId } from '../../ids.ts';

import { checkFont } from './font-check.ts';
import { deleteFontRow, findFontRow, listFontRows, upsertFontRow } from './repository.ts';
import { accountFor, type Principal } from '../../access/index.ts';

export async function listFonts(ctx: AppContext, principal: Principal) {
  const ownerId = accountFor(principal, 'templates:read');
  const rows = await listFontRows(ctx.db, ownerId);
  return { fonts: rows.map((row) => ({ name: row.name, fileName: row.file_name, size: row.size })) };
}

export async function uploadFont(ctx: AppContext, principal: Principal, file: { fileName: string; bytes: Uint8Array }) {
  const ownerId = accountFor(principal, 'templates:write');
  const fileName = normalizeFileName(file.fileName, 'font');
  const { name } = await checkFont(fileName, file.bytes);
  // File and row as one unit (adapters/blobs/switch.ts): the file under a new key, the row switched to it
  // in a transaction, a replaced font's file removed after the commit (a failed switch keeps the old font).
  const fileId = newId();
  await writeAndSwitch(ctx.blobs, blobLayout.font.file(ownerId, name, fileId), file.bytes, async () => {
    const replaced = await ctx.db.transaction((tx) => upsertFontRow(tx, ownerId, { name, file_name: fileName, size: file.bytes.length, file_id: fileId }));
    return { result: undefined, replaced: replaced ? [blobLayout.font.file(ownerId, name, replaced.previous)] : [] };
  }, async () => (await findFontRow(ctx.db, ownerId, name))?.file_id === fileId);
  return listFonts(ctx, principal);
}

export async function deleteFont(ctx: AppContext, principal: Principal, name: string) {
  const ownerId = accountFor(principal, 'templates:write');
  const deleted = await deleteFontRow(ctx.db, ownerId, name);
  if (!deleted) throw new SheafError('font/not-found', { name });
  await ctx.blobs.delete(blobLayout.font.file(ownerId, name, deleted.fileId));
  return listFonts(ctx, principal);
}

export async function fontFile(ctx: AppContext, principal: Principal, name: string): Promise<{ fileName: string; bytes: Uint8Array; contentType: string }> {
  const ownerId = accountFor(principal, 'templates:read');
  const row = await findFontRow(ctx.db, ownerId, name);
  if (!row) throw new SheafError('font/not-found', { name });
  const bytes = await ctx.blobs.get(blobLayout.font.file(ownerId, name, row.file_id));
  const isCff = String.fromCharCode(...bytes.subarray(0, 4)) === 'OTTO';
  return { fileName: row.file_name, bytes, contentType: isCff ? 'font/otf' : 'font/ttf' };
}
