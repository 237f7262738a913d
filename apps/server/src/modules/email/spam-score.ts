/**
 * POST /templates/:id/calculateSpamScore: the template's message as it would go to the first data
 * row (saved email settings, tags filled from the spreadsheet, static attachments, the chosen
 * sender), judged by the spam rules of spam-rules.ts.
 */
import type { SheetData } from '@sheaf/engine';
import { SheafError, type SpamScore, type TemplateEmailSettings } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { columnIndex } from '../merges/index.ts';
import { loadSheet } from '../spreadsheets/index.ts';
import { findSenderRow, presentSender } from '../senders/index.ts';
import { emailSettingsOf, requireTemplate } from '../templates/index.ts';
import { fillHtml, fillText, sanitizeContent } from './content.ts';
import type { SpamMessage, SpamSender } from './spam-message.ts';
import { scoreMessage } from './spam-rules.ts';
import { accountFor, type Principal } from '../../access/index.ts';

/** The sender as its mail would show it: SpamSender plus the display name a spoof sender falls back to. */
export interface SenderFacts extends SpamSender {
  displayName: string;
}

export async function calculateSpamScore(ctx: AppContext, principal: Principal, templateId: string): Promise<SpamScore> {
  const ownerId = accountFor(principal, 'templates:read');
  const template = await requireTemplate(ctx, ownerId, templateId);
  const settings = emailSettingsOf(template.email);
  const [valueOf, sender] = await Promise.all([
    firstRowValues(ctx, ownerId, templateId),
    settings.senderId ? senderFacts(ctx, ownerId, settings.senderId) : null,
  ]);
  return scoreMessage(composeSample(settings, valueOf, sender));
}

/** Reads the row's value of a column tag; undefined when the tag names no heading. */
export type RowValues = (tag: string) => string | undefined;

/**
 * The message of one row, sanitised and filled as the mailing does it (content.ts). `valueOf` null:
 * no spreadsheet, so tags stay as written; a tag naming no heading also stays, for the rule to show.
 */
export function composeSample(settings: TemplateEmailSettings, valueOf: RowValues | null, sender: SenderFacts | null): SpamMessage {
  const cell = (tag: string) => valueOf?.(tag) ?? `{{${tag}}}`;
  const fill = (text: string) => (valueOf ? fillText(text, cell) : text);
  const content = sanitizeContent(settings.content);
  return {
    subject: fill(settings.subject),
    html: valueOf ? fillHtml(content, cell) : content,
    // As the mail will show it: the wizard's from name, else the spoof sender's identifier.
    fromName: settings.fromName.trim() || sender?.displayName || '',
    replyTo: fill(settings.replyTo),
    attachmentNames: settings.staticAttachments.map((attachment) => attachment.name),
    sender: sender ? { method: sender.method, address: sender.address, isVerified: sender.isVerified, isDkimVerified: sender.isDkimVerified } : null,
    tagsFilled: valueOf !== null,
  };
}

/** The first data row's values by heading (exact, else ignoring case, as the mailing resolves them); null without a spreadsheet. */
async function firstRowValues(ctx: AppContext, ownerId: string, templateId: string): Promise<RowValues | null> {
  let sheet: SheetData;
  try {
    sheet = await loadSheet(ctx, ownerId, templateId);
  } catch (error) {
    if (error instanceof SheafError && error.code === 'sheet/missing') return null;
    throw error;
  }
  if (sheet.rowCount === 0) return null;
  return (tag) => {
    const column = columnIndex(sheet.headers, tag);
    return column === undefined ? undefined : sheet.text(0, column);
  };
}

/** The chosen sender's state; a sender that no longer exists counts as unknown and unverified. */
async function senderFacts(ctx: AppContext, ownerId: string, senderId: string): Promise<SenderFacts> {
  const row = await findSenderRow(ctx.db, ownerId, senderId);
  if (!row) return { method: null, address: null, isVerified: false, isDkimVerified: false, displayName: '' };
  const sender = presentSender(row, ctx.config.MAIL_DOMAIN);
  return {
    method: sender.method,
    // Spoof mail leaves from the product's mail domain; the others from the user's own address.
    address: sender.spoofAddress ?? sender.email,
    isVerified: sender.isVerified,
    isDkimVerified: sender.isDkimVerified,
    displayName: sender.identifier ?? '',
  };
}
