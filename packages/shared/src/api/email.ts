/**
 * Emailing the documents (docs/email.md): the template's email settings, the recipients check, the
 * per-merge report, the account-wide report and the spam score.
 */
import { z } from 'zod';
import { MAX_FROM_NAME_LENGTH } from '../constants.ts';

/** A file sent with every message besides the row's document (docs/email.md#static-attachments). */
export const StaticAttachmentSchema = z.object({ name: z.string(), size: z.number().int() });

/**
 * Letters, digits, space, dot, dash, underscore and parentheses: no special characters
 * (docs/email.md#static-attachments).
 */
export const ATTACHMENT_NAME_PATTERN = /^[\p{L}\p{N} ._()-]+$/u;
export const isValidAttachmentName = (name: string): boolean =>
  name.length > 0 && name.length <= 200 && ATTACHMENT_NAME_PATTERN.test(name) && !/^\.+$/.test(name);

/**
 * The email part of a template (docs/email.md#composing). Subject and content may hold
 * column tags ({{Column}}) filled per row; recipients/cc/bcc name columns whose cells hold one or more
 * addresses (separated by comma, semicolon or whitespace).
 */
export const TemplateEmailSettingsSchema = z.object({
  isActive: z.boolean(),
  /** The verified sender's id; null until one is picked (formErrors.fromEmail when active). */
  senderId: z.string().nullable(),
  fromName: z.string().max(MAX_FROM_NAME_LENGTH),
  subject: z.string().max(998),
  /** Rich text as HTML (the editor's output); sanitised on the server before it is sent. */
  content: z.string().max(200_000),
  recipientsColumn: z.string().max(255).nullable(),
  ccColumn: z.string().max(255).nullable(),
  bccColumn: z.string().max(255).nullable(),
  /** A fixed address, or a {{Column}} tag; empty for none. */
  replyTo: z.string().max(320),
  staticAttachments: z.array(StaticAttachmentSchema),
});
export type TemplateEmailSettings = z.infer<typeof TemplateEmailSettingsSchema>;

export const DEFAULT_EMAIL_SETTINGS: TemplateEmailSettings = {
  isActive: false,
  senderId: null,
  fromName: '',
  subject: '',
  content: '',
  recipientsColumn: null,
  ccColumn: null,
  bccColumn: null,
  replyTo: '',
  staticAttachments: [],
};

/** PATCH /templates/:id/email: any subset; attachments are managed by their own calls. */
export const UpdateEmailSettingsSchema = TemplateEmailSettingsSchema.omit({ staticAttachments: true }).partial().extend({
  templateId: z.string().optional(),
  // Checked by the server, which answers 'email/from-name-too-long' (a size bound only here).
  fromName: z.string().max(1000).optional(),
});

export const AttachmentListSchema = z.object({ staticAttachments: z.array(StaticAttachmentSchema) });

/** GET /templates/:id/email/recipients: how many rows have a valid address (docs/email.md#recipients). */
export const RecipientsCheckSchema = z.object({
  /** Rows (documents) checked. */
  rows: z.number().int(),
  /** Valid addresses found over all rows (To only). */
  valid: z.number().int(),
  /** Cells or parts of cells that are not a valid address. */
  invalid: z.number().int(),
  /** Rows without any valid To address: their documents cannot be sent. */
  rowsWithoutRecipient: z.number().int(),
  /** Up to 10 examples: Excel row number and the offending text. */
  invalidExamples: z.array(z.object({ rowNumber: z.number().int(), value: z.string() })),
});
export type RecipientsCheck = z.infer<typeof RecipientsCheckSchema>;

/** POST /templates/:id/email/test: the first selected row's message, sent to `to` (default: the user). */
export const TestEmailSchema = z.object({ to: z.string().max(320).optional(), rowNumber: z.number().int().min(1).optional() });
export const TestEmailResponseSchema = z.object({ message: z.string(), to: z.string() });

/** Every state a message can be in (docs/email.md#message-states). */
export const MESSAGE_STATUSES = ['queued', 'accepted', 'delivered', 'opened', 'clicked', 'softBounce', 'hardBounce', 'failed', 'cancelled'] as const;
export const MessageStatusSchema = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

/** One row of the report: a message and its latest status (docs/email.md#email-report). */
export const EmailEventSchema = z.object({
  messageId: z.string(),
  mergeId: z.string(),
  templateId: z.string(),
  /** Excel row number of the document. */
  rowNumber: z.number().int(),
  recipient: z.string(),
  subject: z.string(),
  status: MessageStatusSchema,
  /** ISO time of the latest status change. */
  date: z.string(),
  /** Server reply, bounce diagnostic or failure reason; null when none. */
  detail: z.string().nullable(),
  /** Owner's email when an admin reads the report of all their users. */
  owner: z.string().optional(),
});
export type EmailEvent = z.infer<typeof EmailEventSchema>;

/** The history of one message: every status it went through (the events grid). */
export const EmailEventHistorySchema = z.object({
  messageId: z.string(),
  status: MessageStatusSchema,
  date: z.string(),
  detail: z.string().nullable(),
});

export const EmailEventCountsSchema = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  accepted: z.number().int(),
  delivery: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  softBounce: z.number().int(),
  hardBounce: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type EmailEventCounts = z.infer<typeof EmailEventCountsSchema>;

/** GET /templates/:templateId/email/:mergeId (docs/email.md#mailing-status-in-the-wizard): the mailing of one merge. */
export const MailingReportSchema = z.object({
  events: z.array(EmailEventSchema),
  eventCounts: EmailEventCountsSchema,
  /** 'smtp' for every Sheaf sender (docs/email.md#message-states). */
  service: z.string(),
  isCancelled: z.boolean(),
  /** queued | sending | completed | cancelled | error (null when the merge sends no email). */
  mailingStatus: z.enum(['queued', 'sending', 'completed', 'cancelled', 'error']).nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type MailingReport = z.infer<typeof MailingReportSchema>;

/** GET /email-report: the last 30 days of the user's (or, for an admin with scope=all, their users') mail. */
export const EmailReportQuerySchema = z.object({
  scope: z.enum(['me', 'all']).default('me'),
  days: z.coerce.number().int().min(1).max(30).default(30),
});
export const EmailReportSchema = z.object({
  events: z.array(EmailEventSchema),
  eventCounts: EmailEventCountsSchema,
  /** Start of the period covered (ISO). */
  since: z.string(),
});
export type EmailReport = z.infer<typeof EmailReportSchema>;

export const MessageParamsSchema = z.object({ messageId: z.string().min(1).max(64) });
export const EmailEventHistoryListSchema = z.object({ events: z.array(EmailEventHistorySchema) });

/** Spam review (docs/email.md#spam-score): a 0-10 score (10 = clean) and tips per category. */
export const SPAM_CATEGORIES = ['clarity', 'engagement', 'indicators', 'legitimacy'] as const;
export const SpamCategorySchema = z.enum(SPAM_CATEGORIES);
export const SpamScoreSchema = z.object({
  /** Whole number; a calculated score is at least 1, since 0 means "not calculated" (docs/email.md#spam-score). */
  spamScore: z.number().int().min(0).max(10),
  suggestions: z.record(SpamCategorySchema, z.array(z.string())),
  /** The rules that fired, each with its code (for translation) and the points it took. */
  findings: z.array(z.object({ code: z.string(), category: SpamCategorySchema, points: z.number(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() })),
});
export type SpamScore = z.infer<typeof SpamScoreSchema>;

/** docs/email.md#spam-score: 0-3 high risk, 4-6 review, 7-10 good; 0 counts as not calculated. */
export function spamRating(score: number): 'highRisk' | 'review' | 'good' | null {
  if (score <= 0) return null;
  if (score <= 3) return 'highRisk';
  if (score <= 6) return 'review';
  return 'good';
}
