/**
 * The email part of a merge request, checked when the merge starts (docs/email.md#composing) and frozen
 * into the merge (merges.request.email): later edits of the template's settings, attachments or sender
 * choice do not change a mailing that is under way.
 */
import { MAX_FROM_NAME_LENGTH, SheafError, columnTags, isValidReplyTo, entitlements, sendEmailRefusal, type ErrorCode, type TemplateEmailSettings } from '@sheaf/shared';
import type { SheetData } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import type { SenderDelivery } from '../senders/index.ts';
import { columnIndex } from '../merges/index.ts';
import { emailSettingsOf, readEmailSettings } from '../templates/index.ts';
import { currentPeriod } from '../users/index.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { htmlColumnTags, isContentEmpty, sanitizeContent } from './content.ts';
import { addressesOf } from './recipients.ts';
import { findSenderRow, resolveSenderDelivery } from './sender-delivery.ts';

/** What a mailing sends, as it was when the merge started. */
export interface MailingSnapshot {
  senderId: string;
  fromName: string;
  subject: string;
  /** Sanitised HTML with column tags. */
  content: string;
  recipientsColumn: string;
  ccColumn: string | null;
  bccColumn: string | null;
  replyTo: string;
  /** Copied to the merge's own folder (blobLayout.merge.attachment). */
  attachments: { name: string; size: number }[];
}

/** A reply-to is empty, an address, or exactly one column tag: the shared rule the composer applies. */
export { isValidReplyTo } from '@sheaf/shared';

/** Every column the settings name must be a heading; throws the catalogue error of the first that is not. */
export function checkColumns(settings: Pick<TemplateEmailSettings, 'recipientsColumn' | 'ccColumn' | 'bccColumn'>, headers: readonly string[]): void {
  for (const column of [settings.recipientsColumn, settings.ccColumn, settings.bccColumn]) {
    if (column && columnIndex(headers, column) === undefined) throw new SheafError('email/column-unknown', { column });
  }
}

function checkTags(settings: TemplateEmailSettings, headers: readonly string[]): void {
  const tags = [...columnTags(settings.subject), ...htmlColumnTags(settings.content), ...columnTags(settings.replyTo)];
  for (const column of tags) {
    if (columnIndex(headers, column) === undefined) throw new SheafError('email/tag-unknown', { column });
  }
}

/**
 * The template's email settings and the delivery of their sender, which must be the user's own and
 * verified (`unverified`: the code for one that is not). Shared by mailings and the test email.
 */
export async function settingsWithVerifiedSender(ctx: AppContext, ownerId: string, templateId: string, unverified: ErrorCode,
): Promise<{ settings: TemplateEmailSettings & { senderId: string }; delivery: SenderDelivery; attachmentFiles: Record<string, string> }> {
  const stored = await readEmailSettings(ctx.db, ownerId, templateId);
  if (!stored) throw new SheafError('template/not-found');
  const settings = emailSettingsOf(stored.email);
  const { senderId } = settings;
  if (!senderId) throw new SheafError('email/no-sender');
  const sender = await findSenderRow(ctx.db, ownerId, senderId);
  // A sender that is gone (or another user's) means "choose another".
  if (!sender) throw new SheafError('email/no-sender');
  if (!sender.is_verified) throw new SheafError(unverified);
  // The plan still allows its method, its SMTP host is still allowed, ...
  return { settings: { ...settings, senderId }, delivery: await resolveSenderDelivery(ctx, ownerId, senderId), attachmentFiles: stored.attachment_files };
}

/**
 * Checks that this merge may email its documents and returns what to send. `rows` are the data rows
 * the merge makes (the recipients check runs over them).
 */
export async function checkMailing(ctx: AppContext, ownerId: string, templateId: string, sheet: SheetData, rows: readonly number[], isCombined: boolean): Promise<MailingSnapshot> {
  const { plan } = await currentPeriod(ctx.db, ownerId);
  const refusal = sendEmailRefusal(entitlements(plan, ctx.config.EDITION));
  if (refusal) throw new SheafError(refusal);
  if (isCombined) throw new SheafError('merge/email-combined');
  const { settings } = await settingsWithVerifiedSender(ctx, ownerId, templateId, 'sender/not-verified');
  if (settings.fromName.trim().length > MAX_FROM_NAME_LENGTH) throw new SheafError('email/from-name-too-long', { max: MAX_FROM_NAME_LENGTH });
  if (!settings.subject.trim()) throw new SheafError('email/subject-empty');
  const content = sanitizeContent(settings.content);
  if (isContentEmpty(content)) throw new SheafError('email/content-empty');
  if (!settings.recipientsColumn) throw new SheafError('email/no-recipients-column');
  checkColumns(settings, sheet.headers);
  checkTags(settings, sheet.headers);
  if (!isValidReplyTo(settings.replyTo)) throw new SheafError('email/reply-to-invalid');
  const to = columnIndex(sheet.headers, settings.recipientsColumn)!;
  if (!rows.some((row) => addressesOf(sheet.text(row, to)).valid.length > 0)) throw new SheafError('email/no-valid-recipients');
  return {
    senderId: settings.senderId,
    fromName: settings.fromName.trim(),
    subject: settings.subject,
    content,
    recipientsColumn: settings.recipientsColumn,
    ccColumn: settings.ccColumn,
    bccColumn: settings.bccColumn,
    replyTo: settings.replyTo.trim(),
    attachments: settings.staticAttachments,
  };
}

/** Copies the static attachments into the merge's folder, so the mailing keeps them as they are now. */
export async function freezeAttachments(ctx: AppContext, ownerId: string, templateId: string, mergeId: string, snapshot: MailingSnapshot): Promise<void> {
  const files = (await readEmailSettings(ctx.db, ownerId, templateId))?.attachment_files ?? {};
  for (const attachment of snapshot.attachments) {
    await ctx.blobs.copy(blobLayout.template.attachment(templateId, attachment.name, files[attachment.name]), blobLayout.merge.attachment(mergeId, attachment.name));
  }
}
