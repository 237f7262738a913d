/**
 * The test email (POST /templates/:id/email/test): one row's message, its own document attached,
 * sent now to the given address (default: the user's own) through the chosen sender. Not tracked and
 * not stored: it is the user looking at their message.
 */
import type { OutputDocument } from '@sheaf/engine';
import { prepareMergeInWorkers, type ThreadedMerge } from '@sheaf/engine/node';
import { SheafError, cleanWhitespace, formatErrorMessage, isValidEmail, entitlements, sendEmailRefusal } from '@sheaf/shared';
import { saveRawMail } from '../../adapters/mail/outbox.ts';
import type { AppContext } from '../../context.ts';
import { loadUserFonts } from '../fonts/index.ts';
import { columnIndex } from '../merges/index.ts';
import { loadSheet } from '../spreadsheets/index.ts';
import { fallbackFonts, loadTemplateForMerge } from '../templates/index.ts';
import { currentPeriod, findUserById } from '../users/index.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { createComposer } from './compose.ts';
import { fillText, htmlColumnTags, isContentEmpty, sanitizeContent } from './content.ts';
import { oneLine } from './document-index.ts';
import { newMessageId } from './mailing-prepare.ts';
import { OUTBOX_DETAIL } from './mailing-send.ts';
import { settingsWithVerifiedSender } from './snapshot.ts';
import { SmtpChannel } from './smtp-channel.ts';
import { accountFor, type Principal } from '../../access/index.ts';

export async function sendTestEmail(ctx: AppContext, principal: Principal, templateId: string, request: { to?: string; rowNumber?: number }): Promise<{ message: string; to: string }> {
  const ownerId = accountFor(principal, 'merges:write');
  const { plan } = await currentPeriod(ctx.db, ownerId);
  const refusal = sendEmailRefusal(entitlements(plan, ctx.config.EDITION));
  if (refusal) throw new SheafError(refusal);
  const { settings, delivery, attachmentFiles } = await settingsWithVerifiedSender(ctx, ownerId, templateId, 'email/test-unverified');
  if (!settings.subject.trim()) throw new SheafError('email/subject-empty');
  const content = sanitizeContent(settings.content);
  if (isContentEmpty(content)) throw new SheafError('email/content-empty');
  const owner = await findUserById(ctx.db, ownerId);
  const to = cleanWhitespace(request.to ?? owner?.email ?? '');
  if (!isValidEmail(to)) throw new SheafError('auth/email-invalid');

  const [loaded, sheet, fonts, fallback] = await Promise.all([
    loadTemplateForMerge(ctx, ownerId, templateId), loadSheet(ctx, ownerId, templateId), loadUserFonts(ctx, ownerId), fallbackFonts(),
  ]);
  const rowNumber = request.rowNumber ?? sheet.rowNumber(0);
  // Made in a worker thread with the merges' memory cap, as a merge's documents are (docs/merging.md#threads).
  const merge = await prepareMergeInWorkers({
    template: loaded.bytes, placeholders: loaded.template.placeholders, sheet, images: loaded.images, fonts, fallbackFonts: fallback,
    rows: { kind: 'specific', specificRowsNumbers: String(rowNumber) },
    // The document as the mailing would attach it: the saved file-name pattern names it, the saved passwords protect it.
    options: {
      isCombinedOutput: false,
      isKeepFormOutput: loaded.template.output.isKeepFormOutput,
      isTryRepair: loaded.template.output.isTryRepair,
      fileNamePattern: loaded.template.output.fileNamePattern.trim() || undefined,
      passwordProtection: loaded.template.output.passwordProtection ?? undefined,
    },
  }, { workers: 1, maxMemoryMb: ctx.config.MERGE_WORKER_MEMORY_MB });
  const document = await firstDocument(merge);
  if (!document) throw new SheafError('merge/bad-row-range', { rows: String(rowNumber), first: sheet.rowNumber(0), last: sheet.rowNumber(sheet.rowCount - 1) });
  let row = 0;
  while (sheet.rowNumber(row) !== document.rowNumbers[0]) row++;
  const valueOf = (name: string) => {
    const index = columnIndex(sheet.headers, name);
    return index === undefined ? '' : sheet.text(row, index);
  };
  const vars = Object.fromEntries([...htmlColumnTags(content), ...htmlColumnTags(settings.replyTo)].map((name) => [name, valueOf(name)]));
  const attachments = await Promise.all(settings.staticAttachments.map(async (item) => ({ name: item.name, bytes: await ctx.blobs.get(blobLayout.template.attachment(templateId, item.name, attachmentFiles[item.name])) })));
  const composer = createComposer(
    { senderId: settings.senderId, fromName: settings.fromName, subject: settings.subject, content, recipientsColumn: '', ccColumn: null, bccColumn: null, replyTo: settings.replyTo, attachments: [] },
    delivery,
    { mailDomain: ctx.config.MAIL_DOMAIN, trackingBaseUrl: ctx.config.PUBLIC_URL, trackingKey: ctx.config.jwtKey, attachments, tracking: false },
  );
  const subject = oneLine(fillText(settings.subject, valueOf));
  const composed = await composer.compose(
    { id: newMessageId(), to_addresses: [to], cc_addresses: [], bcc_addresses: [], subject, vars, file_name: document.fileName },
    Buffer.concat(document.chunks),
  );
  if (delivery.route.kind === 'outbox') {
    await saveRawMail(ctx.config.OUTBOX_DIR, composed.raw, { to, subject });
    return { message: `${formatErrorMessage('email/test-sent', { to })} (${OUTBOX_DETAIL})`, to };
  }
  const channel = new SmtpChannel(delivery.route, ctx.config.MAIL_DOMAIN);
  try {
    const outcome = await channel.send({ from: composed.envelopeFrom, to: [to], envelopeId: 'test' }, composed.raw);
    if (outcome.kind !== 'accepted') throw new SheafError('email/test-failed', { detail: outcome.reply });
  } finally {
    channel.close();
  }
  return { message: formatErrorMessage('email/test-sent', { to }), to };
}

/** The merge's one document (or none: its row was skipped); the worker ends either way. */
async function firstDocument(merge: ThreadedMerge): Promise<OutputDocument | undefined> {
  try {
    for await (const document of merge.documents().documents) return document;
    return undefined;
  } finally {
    merge.close();
  }
}
