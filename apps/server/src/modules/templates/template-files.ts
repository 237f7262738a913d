/**
 * Reading a template's stored files by the keys their rows name (blobLayout; rows stored before file ids
 * use the old fixed keys). Files are replaced by writing a new key and switching the row
 * (adapters/blobs/switch.ts), and the old file is removed after that commit: a reader that read the row
 * just before a switch may find its file gone, so it reads the row again and takes the new file.
 */
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { findImageFileId, findTemplateFileId, listStoredImages, type TemplateRow } from './repository.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** Reads `keyOf(fileId)`; when that file was replaced meanwhile, the row's new file (once). */
async function readCurrent(ctx: AppContext, fileId: string | null, keyOf: (fileId: string | null) => string, currentId: () => Promise<string | null | undefined>): Promise<Uint8Array> {
  try {
    return await ctx.blobs.get(keyOf(fileId));
  } catch (error) {
    if (!isMissing(error)) throw error;
    const now = await currentId();
    if (now === undefined || now === fileId) throw error;
    return ctx.blobs.get(keyOf(now));
  }
}

/** The template's file as its row describes it: the PDF, or a Word template's DOCX. */
export function readTemplatePdf(ctx: AppContext, row: Pick<TemplateRow, 'id' | 'owner_id' | 'file_id'> & { template_type?: TemplateRow['template_type'] }): Promise<Uint8Array> {
  const type = row.template_type ?? 'pdf';
  return readCurrent(ctx, row.file_id, (fileId) => blobLayout.template.file(row.id, fileId, type), () => findTemplateFileId(ctx.db, row.owner_id, row.id));
}

/** Every image of the template by name (for merges, previews and exports). */
export async function loadImages(ctx: AppContext, ownerId: string, templateId: string): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  for (const image of await listStoredImages(ctx.db, ownerId, templateId)) {
    images.set(image.name, await readCurrent(ctx, image.file_id, (fileId) => blobLayout.template.image(templateId, image.name, fileId),
      () => findImageFileId(ctx.db, ownerId, templateId, image.name)));
  }
  return images;
}

/** Where the thumbnail of the row's PDF is: under its checksum, else where thumbnails were kept before; undefined if neither. */
export async function thumbnailKey(ctx: AppContext, row: Pick<TemplateRow, 'id' | 'checksum'>): Promise<string | undefined> {
  for (const key of [blobLayout.template.thumbnail(row.id, row.checksum), blobLayout.template.thumbnail(row.id, null)]) {
    if (await ctx.blobs.exists(key)) return key;
  }
  return undefined;
}
