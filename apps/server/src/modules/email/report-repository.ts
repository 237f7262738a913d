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

// Who sent a message: the user who started its merge (the account owner for merges from before actors were kept).
const SENT_BY = 'COALESCE(g.actor_id, m.owner_id)';

/**
 * Messages of the account made since `since`, newest first, with the address of the user who sent
 * them; `actorId` narrows them to that user's (null: everyone's in the account).
 */
export async function listRecentMessages(q: Queryable, ownerId: string, actorId: string | null, since: Date): Promise<ReportRow[]> {
  return q.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS}, u.email AS owner_email
       FROM mail_messages m JOIN merges g ON g.id = m.merge_id AND g.owner_id = m.owner_id JOIN users u ON u.id = ${SENT_BY}
      WHERE m.owner_id = $1 AND ($2::text IS NULL OR ${SENT_BY} = $2) AND m.created_at >= $3
      ORDER BY m.updated_at DESC, m.id`,
    [ownerId, actorId, since],
  );
}

/** The history of one message of the account (`actorId`: only if that user sent it). */
export async function messageHistory(q: Queryable, ownerId: string, actorId: string | null, messageId: string): Promise<HistoryRow[] | undefined> {
  const found = await q.query(
    `SELECT 1 FROM mail_messages m JOIN merges g ON g.id = m.merge_id AND g.owner_id = m.owner_id
      WHERE m.id = $1 AND m.owner_id = $2 AND ($3::text IS NULL OR ${SENT_BY} = $3)`,
    [messageId, ownerId, actorId],
  );
  if (found.length === 0) return undefined;
  return q.query<HistoryRow>(
    'SELECT message_id, status, detail, created_at FROM mail_events WHERE message_id = $1 AND owner_id = $2 ORDER BY id',
    [messageId, ownerId],
  );
}
