/**
 * Checks of the email part of step 4 (docs/email.md#composing, docs/email.md#static-attachments):
 * each problem is a catalogue code with its parameters, shown under the field it concerns.
 */
import {
  attachmentRefusal, fileExtension, firstUnknownTag, hasColumn, htmlColumnTags, isMessageEmpty, isValidAttachmentName, isValidReplyTo, MAX_ATTACHMENTS_TOTAL_BYTES,
  MAX_FROM_NAME_LENGTH, replyToColumn, type ErrorCode, type ErrorParams, type RecipientsCheck, type Sender, type TemplateEmailSettings,
} from '@sheaf/shared';

export interface FieldProblem {
  code: ErrorCode;
  params?: ErrorParams;
}

/**
 * The fields a problem can be shown under; `fromEmail` is the sender picker (formErrors.fromEmail of
 * docs/email.md#composing).
 */
export type EmailField = 'fromEmail' | 'fromName' | 'subject' | 'content' | 'recipientsColumn' | 'replyTo' | 'general';
export type EmailProblems = Partial<Record<EmailField, FieldProblem>>;

/**
 * docs/email.md#composing, the mailing's own rule: empty when no image and every block blank (an
 * image-only message is content).
 */
export const isRichTextEmpty = isMessageEmpty;

/** The first tag of the editor's HTML, read as the mailing fills it, that names no heading. */
const unknownHtmlTag = (html: string, headings: readonly string[]): string | null =>
  htmlColumnTags(html).find((column) => !hasColumn(headings, column)) ?? null;

/** Reply-to: empty, an address, or one {{Column}} tag naming a heading. */
export function replyToProblem(replyTo: string, headings: readonly string[]): FieldProblem | null {
  if (!isValidReplyTo(replyTo)) return { code: 'email/reply-to-invalid' };
  const column = replyToColumn(replyTo);
  return column === null || hasColumn(headings, column) ? null : { code: 'email/tag-unknown', params: { column } };
}

/** What can be said while typing (no sender or recipients check needed). */
export function liveProblems(settings: TemplateEmailSettings, headings: readonly string[]): EmailProblems {
  const problems: EmailProblems = {};
  if (settings.fromName.length > MAX_FROM_NAME_LENGTH) problems.fromName = { code: 'email/from-name-too-long', params: { max: MAX_FROM_NAME_LENGTH } };
  const subjectTag = firstUnknownTag(settings.subject, headings);
  if (subjectTag !== null) problems.subject = { code: 'email/tag-unknown', params: { column: subjectTag } };
  const contentTag = unknownHtmlTag(settings.content, headings);
  if (contentTag !== null) problems.content = { code: 'email/tag-unknown', params: { column: contentTag } };
  const replyTo = replyToProblem(settings.replyTo, headings);
  if (replyTo) problems.replyTo = replyTo;
  return problems;
}

export interface SendContext {
  headings: readonly string[];
  /** The chosen sender, undefined when none is chosen or it no longer exists. */
  sender: Sender | undefined;
  /** The recipients check of the chosen column, null while unknown. */
  check: RecipientsCheck | null;
  isCombinedOutput: boolean;
}

/**
 * Everything that stops sending (docs/email.md#composing: content, from name, subject, recipients
 * column, verified sender), in the order the form shows them. Empty when the mail can go.
 */
export function sendProblems(settings: TemplateEmailSettings, context: SendContext): EmailProblems {
  const problems: EmailProblems = {};
  if (!settings.senderId || !context.sender) problems.fromEmail = { code: 'email/no-sender' };
  else if (!context.sender.isVerified) problems.fromEmail = { code: 'sender/not-verified' };
  Object.assign(problems, liveProblems(settings, context.headings));
  if (!problems.subject && settings.subject.trim() === '') problems.subject = { code: 'email/subject-empty' };
  if (!problems.content && isRichTextEmpty(settings.content)) problems.content = { code: 'email/content-empty' };
  if (!settings.recipientsColumn) problems.recipientsColumn = { code: 'email/no-recipients-column' };
  else if (!hasColumn(context.headings, settings.recipientsColumn)) problems.recipientsColumn = { code: 'email/column-unknown', params: { column: settings.recipientsColumn } };
  else if (context.check && context.check.valid === 0) problems.recipientsColumn = { code: 'email/no-valid-recipients' };
  if (context.isCombinedOutput) problems.general = { code: 'merge/email-combined' };
  return problems;
}

export const hasProblems = (problems: EmailProblems): boolean => Object.keys(problems).length > 0;

/**
 * Files picked for upload, checked before any byte leaves (docs/email.md#static-attachments):
 * no special characters in names, nothing empty or of a type mail servers refuse, the total (with
 * those already attached) within the limit.
 * Returns the first problem, or null.
 */
export function attachmentProblem(
  files: readonly { name: string; size: number }[],
  attached: readonly { name: string; size: number }[],
  maxTotalBytes: number = MAX_ATTACHMENTS_TOTAL_BYTES,
): FieldProblem | null {
  const bad = files.find((file) => !isValidAttachmentName(file.name));
  if (bad) return { code: 'email/attachment-name', params: { name: bad.name } };
  // Empty files and types mail servers refuse (the server also looks at the first bytes).
  for (const file of files) {
    const refusal = attachmentRefusal(file.name, { length: file.size });
    if (refusal) return { code: refusal, params: { name: file.name, extension: fileExtension(file.name) } };
  }
  // A file with the name of an attached one replaces it on the server.
  const replaced = new Set(files.map((file) => file.name));
  const total = [...attached.filter((file) => !replaced.has(file.name)), ...files].reduce((sum, file) => sum + file.size, 0);
  if (total > maxTotalBytes) return { code: 'email/attachments-too-large', params: { maxMb: Math.round((maxTotalBytes / 1_048_576) * 10) / 10 } };
  return null;
}

/**
 * The N of "Send to N recipients": with every row selected, the valid To addresses the recipients
 * check found; otherwise the documents to make (the check covers the whole sheet, not a selection).
 */
export function recipientsToSend(documents: number, allRowsSelected: boolean, check: Pick<RecipientsCheck, 'valid'> | null | undefined): number {
  return allRowsSelected && check ? check.valid : documents;
}
