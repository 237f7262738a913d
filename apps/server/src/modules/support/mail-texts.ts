/**
 * The operator's mail of a support request (to SUPPORT_EMAIL), in English: who wrote (user id, address,
 * language), the reference, topic and text, and the error details only when the user agreed to send
 * them. Replies go to the user. The attachment travels as the mail's attachment.
 */
import type { SupportDiagnostics, SupportTopic } from '@sheaf/shared';

export interface SupportMailFacts {
  reference: string;
  topic: SupportTopic;
  subject: string;
  message: string;
  userId: string;
  ownerId: string;
  email: string | null;
  language: string;
  createdAt: Date;
  requestId: string | null;
  attachment: { name: string; size: number } | null;
  diagnostics: SupportDiagnostics | null;
}

const TOPIC_TITLES: Record<SupportTopic, string> = { support: 'Support request', improvement: 'Suggestion' };

/** Control characters (a newline in a subject would start a header) become spaces. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export function diagnosticsText(diagnostics: SupportDiagnostics): string {
  const lines = [`App version: ${oneLine(diagnostics.appVersion)}`, `Browser: ${oneLine(diagnostics.userAgent)}`, ''];
  if (!diagnostics.errors.length) lines.push('No errors recorded in this browser session.');
  for (const error of diagnostics.errors) {
    const parts = [
      oneLine(error.at),
      error.kind,
      error.call ? `call ${oneLine(error.call)}` : '',
      error.status !== undefined ? `status ${error.status}` : '',
      oneLine(error.code),
      error.requestId ? `request id ${oneLine(error.requestId)}` : '',
      error.page ? `page ${oneLine(error.page)}` : '',
      error.message ? `"${oneLine(error.message)}"` : '',
    ];
    lines.push(`- ${parts.filter(Boolean).join('  ')}`);
  }
  return lines.join('\n');
}

export function supportMail(facts: SupportMailFacts): { subject: string; text: string } {
  const title = TOPIC_TITLES[facts.topic];
  const from = facts.userId === facts.ownerId ? `user ${facts.userId}` : `user ${facts.userId} (in the account of ${facts.ownerId})`;
  const text = [
    `${title} ${facts.reference}`,
    '',
    `From: ${from}${facts.email ? ` <${facts.email}>` : ' (account deleted)'}`,
    `Language: ${facts.language}`,
    `Sent: ${facts.createdAt.toISOString()}`,
    `Request id: ${facts.requestId ?? '-'}`,
    `Attachment: ${facts.attachment ? `${facts.attachment.name} (${facts.attachment.size} bytes, attached)` : 'none'}`,
    '',
    `Subject: ${oneLine(facts.subject)}`,
    '',
    facts.message,
    '',
    facts.diagnostics
      ? `--- Recent errors, sent with the user's consent ---\n${diagnosticsText(facts.diagnostics)}`
      : '--- The user did not send details of recent errors ---',
    '',
  ].join('\n');
  return { subject: `[Sheaf ${facts.reference}] ${title}: ${oneLine(facts.subject)}`, text };
}
