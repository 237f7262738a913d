/** Images supplied with a template, which image placeholders name (the cell holds the file name). */
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, SheafError, normalizeFileName } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { writeAndSwitch } from '../../adapters/blobs/switch.ts';
import { newId } from '../../ids.ts';
import { deleteImageRow, findImageFileId, listImageRows, upsertImageRow, type ImageRow } from './repository.ts';
import { requireTemplate } from './service.ts';
import { jpegSize, pngSize } from './image-size.ts';
import { accountFor, type Principal } from '../../access/index.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/**
 * PNG or JPEG by their magic bytes, within the size limit, with dimensions in the header that are there
 * and within the pixel budget (checked before any decoder sees the file); returns the name it will be
 * stored under.
 */
export function checkImage(fileName: string, bytes: Uint8Array): string {
  if (bytes.length > MAX_IMAGE_BYTES) throw new SheafError('image/too-large', { maxMb: MAX_IMAGE_BYTES / 1_048_576 });
  const isPng = startsWith(bytes, PNG_SIGNATURE);
  if (!isPng && !startsWith(bytes, JPEG_SIGNATURE)) throw new SheafError('image/wrong-type');
  // Uploads arrive cleaned; an import's names come from its JSON.
  const name = normalizeFileName(fileName, 'image');
  const size = isPng ? pngSize(bytes) : jpegSize(bytes);
  if (!size || size.width === 0 || size.height === 0) throw new SheafError('image/corrupt', { name });
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new SheafError('image/too-many-pixels', { width: size.width, height: size.height, maxMegapixels: MAX_IMAGE_PIXELS / 1_000_000 });
  }
  return name;
}

/**
 * Adds an image, replacing one of the same name. File and row are one unit: the file under a new key, the
 * row switched to it in a transaction, the replaced file removed after the commit (a failed switch
 * removes the new file and keeps the old image whole).
 */
export async function addImageBytes(ctx: AppContext, ownerId: string, templateId: string, fileName: string, bytes: Uint8Array): Promise<void> {
  const name = checkImage(fileName, bytes);
  const fileId = newId();
  await writeAndSwitch(ctx.blobs, blobLayout.template.image(templateId, name, fileId), bytes, async () => {
    const replaced = await ctx.db.transaction((tx) => upsertImageRow(tx, ownerId, templateId, { name, size: bytes.length, file_id: fileId }));
    return { result: undefined, replaced: replaced ? [blobLayout.template.image(templateId, name, replaced.previous)] : [] };
  }, async () => (await findImageFileId(ctx.db, ownerId, templateId, name)) === fileId);
}

export async function uploadImage(ctx: AppContext, principal: Principal, templateId: string, fileName: string, bytes: Uint8Array): Promise<ImageRow[]> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, templateId);
  await addImageBytes(ctx, ownerId, templateId, fileName, bytes);
  return listImageRows(ctx.db, ownerId, templateId);
}

export async function deleteImage(ctx: AppContext, principal: Principal, templateId: string, name: string): Promise<ImageRow[]> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, templateId);
  const deleted = await deleteImageRow(ctx.db, ownerId, templateId, name);
  if (!deleted) throw new SheafError('image/not-found', { name });
  await ctx.blobs.delete(blobLayout.template.image(templateId, name, deleted.fileId));
  return listImageRows(ctx.db, ownerId, templateId);
}
