/** Images supplied with a template, which image placeholders name (the cell holds the file name). */
import { MAX_IMAGE_BYTES, SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { blobLayout, safeFileName } from '../../adapters/blobs/layout.ts';
import { deleteImageRow, listImageRows, upsertImageRow, type ImageRow } from './repository.ts';
import { requireTemplate } from './service.ts';
import { accountFor, type Principal } from '../../access/index.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/** PNG or JPEG by their magic bytes, within the size limit; returns the name it will be stored under. */
export function checkImage(fileName: string, bytes: Uint8Array): string {
  if (bytes.length > MAX_IMAGE_BYTES) throw new SheafError('image/too-large', { maxMb: MAX_IMAGE_BYTES / 1_048_576 });
  if (!startsWith(bytes, PNG_SIGNATURE) && !startsWith(bytes, JPEG_SIGNATURE)) throw new SheafError('image/wrong-type');
  return safeFileName(fileName);
}

/** Adds an image, replacing one of the same name. */
export async function addImageBytes(ctx: AppContext, ownerId: string, templateId: string, fileName: string, bytes: Uint8Array): Promise<void> {
  const name = checkImage(fileName, bytes);
  await ctx.blobs.put(blobLayout.template.image(templateId, name), bytes);
  await upsertImageRow(ctx.db, ownerId, templateId, { name, size: bytes.length });
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
  if (!(await deleteImageRow(ctx.db, ownerId, templateId, name))) throw new SheafError('image/not-found', { name });
  await ctx.blobs.delete(blobLayout.template.image(templateId, name));
  return listImageRows(ctx.db, ownerId, templateId);
}

/** Every image of the template by name (for merges and previews). */
export async function loadImages(ctx: AppContext, ownerId: string, templateId: string): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  for (const image of await listImageRows(ctx.db, ownerId, templateId)) {
    images.set(image.name, await ctx.blobs.get(blobLayout.template.image(templateId, image.name)));
  }
  return images;
}
