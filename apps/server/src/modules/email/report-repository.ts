/** SQL of the reports: messages with their latest status, counts, and one message's history. Owner-scoped. */
import type { Queryable } from '../../adapters/db/types.ts';

export interface ReportRow {
  id: string;
  merge_id: string;
  template_id: string;
  row_number: number;
  recipient: string;
  subject: string;
  status: string;
  updated_at: Date;
  last_reply: string | null;
  owner_email?: string;
}

export interface HistoryRow {
  message_id: string;
  status: string;
  detail: string | null;
  created_at: Date;
}

const REPORT_COLUMNS = 'm.id, m.merge_id, m.template_id, m.row_number, m.recipient, m.subject, m.status, m.updated_at, m.last_reply';

/** Every message of one mailing, in document order. */
export async function listMailingMessages(q: Queryable, ownerId: string, mergeId: string): Promise<ReportRow[]> {
  return q.query<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM mail_messages m WHERE m.owner_id = $1 AND m.merge_id = $2 ORDER BY m.document_index`, [ownerId, mergeId]);
}

/** Messages of these accounts made since `since`, newest first, with their owner's address. */
export async function listRecentMessages(q: Queryable, ownerIds: readonly string[], since: Date): Promise<ReportRow[]> {
  return q.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS}, u.email AS owner_email FROM mail_messages m JOIN users u ON u.id = m.owner_id
     WHERE m.owner_id = ANY($1::text[]) AND m.created_at >= $2 ORDER BY m.updated_at DESC, m.id`,
    [ownerIds, since],
  );
}

/** The account and, when it is an admin (no parent), its users. */
export async function accountAndUsers(q: Queryable, uid: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM users WHERE id = $1 UNION SELECT c.id FROM users c JOIN users p ON p.id = c.parent_uid WHERE p.id = $1 AND p.parent_uid IS NULL`,
    [uid],
  );
  return rows.map((row) => row.id);
}

/** The history of one message the reader may see (their own, or one of their users'). */
export async function messageHistory(q: Queryable, readerIds: readonly string[], messageId: string): Promise<HistoryRow[] | undefined> {
  const owner = await q.query('SELECT 1 FROM mail_messages WHERE id = $1 AND owner_id = ANY($2::text[])', [messageId, readerIds]);
  if (owner.length === 0) return undefined;
  return q.query<HistoryRow>(
    'SELECT message_id, status, detail, created_at FROM mail_events WHERE message_id = $1 AND owner_id = ANY($2::text[]) ORDER BY id',
    [messageId, readerIds],
  );
}
