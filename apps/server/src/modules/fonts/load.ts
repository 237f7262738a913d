/** The user's custom fonts by family name, as the engine takes them (for merges and previews). */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { listFontRows } from './repository.ts';

export async function loadUserFonts(ctx: AppContext, ownerId: string): Promise<Map<string, Uint8Array>> {
  const rows = await listFontRows(ctx.db, ownerId);
  const files = await Promise.all(rows.map((row) => ctx.blobs.get(blobLayout.font.file(ownerId, row.name, row.file_id))));
  return new Map(rows.map((row, index) => [row.name, files[index]!]));
}
