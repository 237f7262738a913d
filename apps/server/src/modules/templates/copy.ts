/** Copying a template (placeholders, settings, images, spreadsheet) into the same or another library. */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { newId } from '../../ids.ts';
import { findUserByEmail } from '../users/index.ts';
import { findSpreadsheetRow, sheetBlobKey, upsertSpreadsheetRow } from '../spreadsheets/index.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { saveEmailSettings } from './email-settings-repository.ts';
import { emailSettingsOf } from './present.ts';
import { scheduleThumbnail } from './pdf-tasks.ts';
import { insertTemplateRow, listStoredImages, markThumbnail, upsertImageRow } from './repository.ts';
import { readTemplatePdf, thumbnailKey } from './template-files.ts';
import { requireTemplate } from './service.ts';
import { accountFor, type Principal } from '../../access/index.ts';

interface CopyOptions {
  customName: string | null;
  /** Another user must not receive the owner's document passwords. */
  keepPasswords: boolean;
}

async function copyInto(ctx: AppContext, ownerId: string, id: string, targetOwnerId: string, options: CopyOptions): Promise<string> {
  const source = await requireTemplate(ctx, ownerId, id);
  const [images, sheet] = await Promise.all([listStoredImages(ctx.db, ownerId, id), findSpreadsheetRow(ctx.db, ownerId, id)]);
  const copyId = newId();
  const thumbnail = source.has_thumbnail ? await thumbnailKey(ctx, source) : undefined;
  const hasThumbnail = thumbnail !== undefined;
  try {
    // Files first (under the same file ids in the copy's folder): a row must never point at files that are not there yet.
    await ctx.blobs.copy(blobLayout.template.file(id, source.file_id, source.template_type), blobLayout.template.file(copyId, source.file_id, source.template_type));
    for (const image of images) {
      await ctx.blobs.copy(blobLayout.template.image(id, image.name, image.file_id), blobLayout.template.image(copyId, image.name, image.file_id));
    }
    if (sheet) await ctx.blobs.copy(await sheetBlobKey(ctx, id, sheet.checksum), blobLayout.template.spreadsheet(copyId, sheet.checksum));
    const email = emailSettingsOf(source.email);
    const attachmentFiles = source.attachment_files ?? {};
    for (const { name } of email.staticAttachments) {
      await ctx.blobs.copy(blobLayout.template.attachment(id, name, attachmentFiles[name]), blobLayout.template.attachment(copyId, name, attachmentFiles[name]));
    }
    if (thumbnail) await ctx.blobs.copy(thumbnail, blobLayout.template.thumbnail(copyId, source.checksum));

    const { passwordProtectionSecret: _secret, ...outputWithoutPasswords } = source.output;
    await ctx.db.transaction(async (tx) => {
      await insertTemplateRow(tx, {
        id: copyId,
        ownerId: targetOwnerId,
        templateType: source.template_type,
        name: source.name,
        customName: options.customName,
        checksum: source.checksum,
        fileId: source.file_id,
        fileSize: source.file_size,
        numPages: source.num_pages,
        pages: source.pages,
        isEncrypted: source.is_encrypted,
        placeholders: source.placeholders,
        headersRowNo: source.headers_row_no,
        output: options.keepPasswords ? source.output : outputWithoutPasswords,
      });
      for (const image of images) await upsertImageRow(tx, targetOwnerId, copyId, image);
      // The email settings too; another user cannot send through the owner's sender.
      if (source.email) {
        await saveEmailSettings(tx, targetOwnerId, copyId, options.keepPasswords ? email : { ...email, senderId: null }, attachmentFiles);
      }
      if (sheet) {
        await upsertSpreadsheetRow(tx, targetOwnerId, copyId, {
          name: sheet.name, fileSize: sheet.file_size, checksum: sheet.checksum, headersRowNo: sheet.headers_row_no,
          headers: sheet.headers, totalRowCount: sheet.total_row_count, firstRow: sheet.first_row, lastRow: sheet.last_row,
        });
      }
      if (hasThumbnail) await markThumbnail(tx, targetOwnerId, copyId, source.checksum);
    });
  } catch (error) {
    // Nothing of a copy that was not made stays behind.
    await ctx.blobs.deletePrefix(blobLayout.template.folder(copyId)).catch(() => undefined);
    throw error;
  }
  // A Word template's thumbnail is made at upload from its printed PDF; it is copied above when it is there.
  if (!hasThumbnail && !source.is_encrypted && source.template_type === 'pdf') {
    scheduleThumbnail(ctx, targetOwnerId, copyId, source.checksum, await readTemplatePdf(ctx, { id: copyId, owner_id: targetOwnerId, file_id: source.file_id }));
  }
  return copyId;
}

/** "<name> (copy)" in the owner's own library. */
export async function copyTemplate(ctx: AppContext, principal: Principal, id: string): Promise<string> {
  const ownerId = accountFor(principal, 'templates:write');
  const source = await requireTemplate(ctx, ownerId, id);
  const customName = `${source.custom_name ?? source.name} (copy)`.slice(0, 255);
  return copyInto(ctx, ownerId, id, ownerId, { customName, keepPasswords: true });
}

/** Gives the user with `email` their own copy; the template stays the owner's. */
export async function shareTemplate(ctx: AppContext, principal: Principal, id: string, email: string): Promise<void> {
  const ownerId = accountFor(principal, 'templates:write');
  const source = await requireTemplate(ctx, ownerId, id);
  const recipient = (await findUserByEmail(ctx.db, email.trim().toLowerCase()))?.id;
  if (!recipient) throw new SheafError('share/user-not-found', { email });
  if (recipient === ownerId) throw new SheafError('share/self');
  await copyInto(ctx, ownerId, id, recipient, { customName: source.custom_name, keepPasswords: false });
}
