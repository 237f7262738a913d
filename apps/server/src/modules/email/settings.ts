/**
 * The template's email settings (step 4's email part): saved checked, the content sanitised, static
 * attachments added and removed, and the recipients check over the spreadsheet.
 */
import {
  MAX_ATTACHMENTS_TOTAL_BYTES, MAX_FROM_NAME_LENGTH, SheafError, archiveRefusal, attachmentRefusal, blockedExtensionOf, fileExtension, isValidAttachmentName, replyToColumn, type RecipientsCheck, type TemplateEmailSettings,
} from '@sheaf/shared';
import { z } from 'zod';
import { UpdateEmailSettingsSchema } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { columnIndex } from '../merges/index.ts';
import { emailSettingsOf, lockEmailSettings, readEmailSettings, saveEmailSettings } from '../templates/index.ts';
import { findSpreadsheetRow, loadSheet } from '../spreadsheets/index.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { writeAndSwitch } from '../../adapters/blobs/switch.ts';
import { newId } from '../../ids.ts';
import { sanitizeContent } from './content.ts';
import { checkRecipients } from './recipients.ts';
import { checkColumns, isValidReplyTo } from './snapshot.ts';
import { findSenderRow } from './sender-delivery.ts';
import { accountFor, type Principal } from '../../access/index.ts';

export type EmailSettingsUpdate = z.infer<typeof UpdateEmailSettingsSchema>;

async function checkSender(ctx: AppContext, ownerId: string, senderId: string): Promise<void> {
  // Another user's sender, or none at all, is refused; an unverified one may be chosen (it is verified next).
  if (!(await findSenderRow(ctx.db, ownerId, senderId))) throw new SheafError('sender/not-found');
}

export async function updateEmailSettings(ctx: AppContext, principal: Principal, templateId: string, update: EmailSettingsUpdate): Promise<TemplateEmailSettings> {
  const ownerId = accountFor(principal, 'templates:write');
  const { templateId: _ignored, ...changes } = update;
  if (changes.fromName !== undefined) {
    changes.fromName = changes.fromName.replace(/[\r\n]+/g, ' ').trim();
    if (changes.fromName.length > MAX_FROM_NAME_LENGTH) throw new SheafError('email/from-name-too-long', { max: MAX_FROM_NAME_LENGTH });
  }
  if (changes.replyTo !== undefined && !isValidReplyTo(changes.replyTo)) throw new SheafError('email/reply-to-invalid');
  if (changes.content !== undefined) changes.content = sanitizeContent(changes.content);
  if (changes.senderId) await checkSender(ctx, ownerId, changes.senderId);
  const sheet = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  return ctx.db.transaction(async (tx) => {
    const stored = await lockEmailSettings(tx, ownerId, templateId);
    if (!stored) throw new SheafError('template/not-found');
    const settings: TemplateEmailSettings = { ...emailSettingsOf(stored.email), ...changes };
    // Columns are checked against the spreadsheet when there is one (the merge checks again at start).
    if (sheet) checkColumns(settings, sheet.headers);
    const replyToTag = replyToColumn(settings.replyTo);
    if (sheet && replyToTag !== null && columnIndex(sheet.headers, replyToTag) === undefined) throw new SheafError('email/tag-unknown', { column: replyToTag });
    await saveEmailSettings(tx, ownerId, templateId, settings);
    return settings;
  });
}

export async function uploadAttachment(ctx: AppContext, principal: Principal, templateId: string, fileName: string, bytes: Uint8Array): Promise<TemplateEmailSettings['staticAttachments']> {
  const ownerId = accountFor(principal, 'templates:write');
  const name = fileName.split(/[\\/]/).pop()?.trim() ?? '';
  if (!isValidAttachmentName(name)) throw new SheafError('email/attachment-name');
  // What a mail client would send: not empty, no program or script (by type and by content), no archive
  // carrying one or that cannot be looked into (its directory only, nothing unpacked).
  const refusal = attachmentRefusal(name, bytes);
  if (refusal) throw new SheafError(refusal, { name, extension: blockedExtensionOf(name) ?? fileExtension(name) });
  const archive = archiveRefusal(name, bytes);
  if (archive) throw new SheafError(archive.code, { name, entry: archive.entry });
  const current = await readEmailSettings(ctx.db, ownerId, templateId);
  if (!current) throw new SheafError('template/not-found');
  const tooLarge = (list: TemplateEmailSettings['staticAttachments']) =>
    list.filter((item) => item.name !== name).reduce((sum, item) => sum + item.size, bytes.length) > MAX_ATTACHMENTS_TOTAL_BYTES;
  if (tooLarge(emailSettingsOf(current.email).staticAttachments)) throw new SheafError('email/attachments-too-large', { maxMb: MAX_ATTACHMENTS_TOTAL_BYTES / 1_048_576 });
  // File and list as one unit (adapters/blobs/switch.ts): the file under a new key, the list and the
  // attachment's file id switched under the settings' lock, a replaced file of the same name removed after
  // the commit; a failed switch removes the new file and leaves the attached one as it was.
  const fileId = newId();
  return writeAndSwitch(ctx.blobs, blobLayout.template.attachment(templateId, name, fileId), bytes, () => ctx.db.transaction(async (tx) => {
    const stored = await lockEmailSettings(tx, ownerId, templateId);
    if (!stored) throw new SheafError('template/not-found');
    const settings = emailSettingsOf(stored.email);
    // Checked again under the lock: two uploads at once must not pass the limit together.
    if (tooLarge(settings.staticAttachments)) throw new SheafError('email/attachments-too-large', { maxMb: MAX_ATTACHMENTS_TOTAL_BYTES / 1_048_576 });
    const listedBefore = settings.staticAttachments.some((item) => item.name === name);
    settings.staticAttachments = [...settings.staticAttachments.filter((item) => item.name !== name), { name, size: bytes.length }];
    await saveEmailSettings(tx, ownerId, templateId, settings, { ...stored.attachment_files, [name]: fileId });
    const replaced = listedBefore ? [blobLayout.template.attachment(templateId, name, stored.attachment_files[name])] : [];
    return { result: settings.staticAttachments, replaced };
  }), async () => (await readEmailSettings(ctx.db, ownerId, templateId))?.attachment_files[name] === fileId);
}

export async function deleteAttachment(ctx: AppContext, principal: Principal, templateId: string, name: string): Promise<TemplateEmailSettings['staticAttachments']> {
  const ownerId = accountFor(principal, 'templates:write');
  const { remaining, key } = await ctx.db.transaction(async (tx) => {
    const stored = await lockEmailSettings(tx, ownerId, templateId);
    if (!stored) throw new SheafError('template/not-found');
    const settings = emailSettingsOf(stored.email);
    if (!settings.staticAttachments.some((item) => item.name === name)) throw new SheafError('email/attachment-not-found', { name });
    settings.staticAttachments = settings.staticAttachments.filter((item) => item.name !== name);
    const { [name]: fileId, ...files } = stored.attachment_files;
    await saveEmailSettings(tx, ownerId, templateId, settings, files);
    return { remaining: settings.staticAttachments, key: blobLayout.template.attachment(templateId, name, fileId) };
  });
  await ctx.blobs.delete(key);
  return remaining;
}

/**
 * The recipients check of docs/email.md#recipients over every data row (the column given, else the saved
 * recipients column).
 */
export async function recipientsCheck(ctx: AppContext, principal: Principal, templateId: string, column: string | undefined): Promise<RecipientsCheck> {
  const ownerId = accountFor(principal, 'templates:read');
  const stored = await readEmailSettings(ctx.db, ownerId, templateId);
  if (!stored) throw new SheafError('template/not-found');
  const name = column ?? emailSettingsOf(stored.email).recipientsColumn;
  if (!name) throw new SheafError('email/no-recipients-column');
  const sheet = await loadSheet(ctx, ownerId, templateId);
  const index = columnIndex(sheet.headers, name);
  if (index === undefined) throw new SheafError('email/column-unknown', { column: name });
  return checkRecipients(sheet, index, Array.from({ length: sheet.rowCount }, (_, row) => row));
}
