/**
 * What `sheaf support` prints for the operator (directly on the database, or through the running
 * server's admin socket): the latest requests in a table, and one request in full with its diagnostics.
 */
import { SheafError } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';
import { diagnosticsText } from './mail-texts.ts';
import { normalizeSupportReference } from './reference.ts';
import { findSupportRequestByReference, listAllSupportRequests, type SupportRowWithEmail } from './repository.ts';

const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const mailState = (row: SupportRowWithEmail) => (row.mailed_at ? 'mailed' : 'stored');

export async function supportReport(db: Queryable, limit = 50): Promise<string> {
  const rows = await listAllSupportRequests(db, limit);
  if (rows.length === 0) return 'No support requests.\n';
  const lines = [['reference', 'date', 'topic', 'from', 'state', 'subject'].join('\t')];
  for (const row of rows) {
    lines.push([row.reference, row.created_at.toISOString().slice(0, 16).replace('T', ' '), row.topic, row.email ?? row.user_id, mailState(row), oneLine(row.subject, 60)].join('\t'));
  }
  return `${lines.join('\n')}\n${rows.length} request${rows.length === 1 ? '' : 's'} (the latest first; \`sheaf support show REF\` prints one)\n`;
}

export async function supportRequestText(db: Queryable, reference: string): Promise<string> {
  const row = await findSupportRequestByReference(db, normalizeSupportReference(reference));
  if (!row) throw new SheafError('support/not-found');
  return [
    `Reference: ${row.reference}`,
    `Topic: ${row.topic}`,
    `From: ${row.email ?? '(account deleted)'} (user ${row.user_id}${row.user_id === row.owner_id ? '' : `, account ${row.owner_id}`})`,
    `Language: ${row.language}`,
    `Sent: ${row.created_at.toISOString()}`,
    `Request id: ${row.request_id ?? '-'}`,
    `Mailed: ${row.mailed_at ? row.mailed_at.toISOString() : 'no'}`,
    `Attachment: ${row.attachment_name ? `${row.attachment_name} (${row.attachment_size ?? 0} bytes; blob ${row.attachment_key})` : 'none'}`,
    `Subject: ${row.subject}`,
    '',
    row.message,
    '',
    row.diagnostics ? `--- Recent errors, sent with the user's consent ---\n${diagnosticsText(row.diagnostics)}` : '--- No error details were sent ---',
    '',
  ].join('\n');
}
