/**
 * SQL of messages (mail_messages) and their history (mail_events). A status change and its event are
 * written by one statement, so the history never misses a change.
 */
import type { Queryable } from '../../adapters/db/types.ts';
import type { IndexEntry } from './document-index.ts';
import type { MessageState } from './status.ts';

export interface MessageRow {
  id: string;
  merge_id: string;
  owner_id: string;
  template_id: string;
  document_index: number;
  row_number: number;
  file_name: string;
  zip_offset: number;
  zip_size: number;
  to_addresses: string[];
  cc_addresses: string[];
  bcc_addresses: string[];
  recipient: string;
  subject: string;
  vars: Record<string, string>;
  status: MessageState;
  attempts: number;
  next_attempt_at: Date;
  last_reply: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A message entry with the id it gets if it is new. */
export interface NewMessage extends IndexEntry {
  id: string;
}

/**
 * Creates the rows of these documents; documents that have a row already keep it (a re-run after a
 * crash). A document without a valid To address starts as failed, with the reason.
 */
export async function insertMessages(q: Queryable, ownerId: string, mergeId: string, templateId: string, entries: readonly NewMessage[]): Promise<void> {
  if (entries.length === 0) return;
  const records = entries.map((entry) => ({
    id: entry.id,
    document_index: entry.index,
    row_number: entry.rowNumber,
    file_name: entry.fileName,
    zip_offset: entry.offset,
    zip_size: entry.size,
    to_addresses: entry.to,
    cc_addresses: entry.cc,
    bcc_addresses: entry.bcc,
    recipient: entry.recipient,
    subject: entry.subject,
    vars: entry.vars,
    status: entry.invalid ? 'failed' : 'queued',
    last_reply: entry.invalid,
  }));
  await q.query(
    `WITH new AS (
       INSERT INTO mail_messages (id, merge_id, owner_id, template_id, document_index, row_number, file_name, zip_offset, zip_size,
         to_addresses, cc_addresses, bcc_addresses, recipient, subject, vars, status, last_reply)
       SELECT e.id, $2, $1, $3, e.document_index, e.row_number, e.file_name, e.zip_offset, e.zip_size,
         e.to_addresses, e.cc_addresses, e.bcc_addresses, e.recipient, e.subject, e.vars, e.status, e.last_reply
       FROM jsonb_to_recordset($4::jsonb) AS e(id text, document_index int, row_number int, file_name text, zip_offset bigint, zip_size bigint,
         to_addresses text[], cc_addresses text[], bcc_addresses text[], recipient text, subject text, vars jsonb, status text, last_reply text)
       ON CONFLICT (merge_id, document_index) DO NOTHING
       RETURNING id, owner_id, status, last_reply)
     INSERT INTO mail_events (message_id, owner_id, status, detail) SELECT id, owner_id, status, last_reply FROM new`,
    [ownerId, mergeId, templateId, JSON.stringify(records)],
  );
}

/** Messages a run that died left 'sending' go back to 'queued' (this run is the mailing's only one). */
export async function requeueSending(q: Queryable, mergeId: string): Promise<number> {
  const rows = await q.query(`UPDATE mail_messages SET status = 'queued', updated_at = now() WHERE merge_id = $1 AND status = 'sending' RETURNING id`, [mergeId]);
  return rows.length;
}

/**
 * Takes up to `limit` messages that are due (queued, or soft-bounced with tries left) and marks them
 * 'sending' before any is handed to SMTP: after a crash, only these can be sent twice, and only those
 * of them that were in flight.
 */
export async function claimDueMessages(q: Queryable, mergeId: string, limit: number, maxAttempts: number): Promise<MessageRow[]> {
  return q.query<MessageRow>(
    `UPDATE mail_messages SET status = 'sending', attempts = attempts + 1, updated_at = now()
     WHERE id IN (
       SELECT id FROM mail_messages
       WHERE merge_id = $1 AND (status = 'queued' OR (status = 'softBounce' AND attempts < $3)) AND next_attempt_at <= now()
       ORDER BY document_index LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [mergeId, limit, maxAttempts],
  );
}

/** A claimed message that was not handed to SMTP after all (the run stops): due again at once, try not counted. */
export async function releaseMessage(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE mail_messages SET status = 'queued', attempts = GREATEST(attempts - 1, 0) WHERE id = $1 AND status = 'sending'`, [id]);
}

/**
 * The outcome of handing a message to SMTP. `retryAt` set: back to 'queued' until then (the event
 * says why); else the final status of this try.
 */
export async function recordSendOutcome(q: Queryable, id: string, outcome: { status: 'accepted' | 'failed' | 'hardBounce' | 'queued'; detail: string; retryAt?: Date }): Promise<void> {
  await q.query(
    `WITH m AS (
       UPDATE mail_messages SET status = $2, last_reply = $3, next_attempt_at = COALESCE($4::timestamptz, next_attempt_at), updated_at = now()
       WHERE id = $1 AND status = 'sending' RETURNING id, owner_id)
     INSERT INTO mail_events (message_id, owner_id, status, detail) SELECT id, owner_id, $2, $3 FROM m`,
    [id, outcome.status, outcome.detail.slice(0, 2000), outcome.retryAt ?? null],
  );
}

/**
 * A report about a sent message (bounce, delivery, open, click): `allowed` lists the states it may
 * move from (see status.ts). Returns the message when it moved.
 */
export async function recordReport(
  q: Queryable,
  id: string,
  report: { status: MessageState; detail: string | null; allowedFrom: readonly MessageState[]; retryAt?: Date },
): Promise<Pick<MessageRow, 'id' | 'owner_id' | 'merge_id' | 'attempts'> | undefined> {
  const [row] = await q.query<Pick<MessageRow, 'id' | 'owner_id' | 'merge_id' | 'attempts'>>(
    `WITH m AS (
       UPDATE mail_messages SET status = $2, last_reply = COALESCE($3, last_reply), next_attempt_at = COALESCE($5::timestamptz, next_attempt_at), updated_at = now()
       WHERE id = $1 AND status = ANY($4::text[]) RETURNING id, owner_id, merge_id, attempts),
     e AS (INSERT INTO mail_events (message_id, owner_id, status, detail) SELECT id, owner_id, $2, $3 FROM m)
     SELECT * FROM m`,
    [id, report.status, report.detail?.slice(0, 2000) ?? null, report.allowedFrom, report.retryAt ?? null],
  );
  return row;
}

/** A message by id, whoever owns it: for reports that come from outside (tracking, bounces). */
export async function findMessageById(q: Queryable, id: string): Promise<Pick<MessageRow, 'id' | 'owner_id' | 'merge_id' | 'status' | 'attempts'> | undefined> {
  const [row] = await q.query<Pick<MessageRow, 'id' | 'owner_id' | 'merge_id' | 'status' | 'attempts'>>(
    'SELECT id, owner_id, merge_id, status, attempts FROM mail_messages WHERE id = $1',
    [id],
  );
  return row;
}

/** Queued messages (and soft bounces waiting for a retry) of a cancelled mailing become cancelled. */
export async function cancelWaitingMessages(q: Queryable, ownerId: string, mergeId: string): Promise<number> {
  const rows = await q.query(
    `WITH m AS (
       UPDATE mail_messages SET status = 'cancelled', last_reply = 'Cancelled before it was sent', updated_at = now()
       WHERE merge_id = $1 AND owner_id = $2 AND status = 'queued' RETURNING id, owner_id)
     INSERT INTO mail_events (message_id, owner_id, status, detail) SELECT id, owner_id, 'cancelled', 'Cancelled before it was sent' FROM m RETURNING message_id`,
    [mergeId, ownerId],
  );
  return rows.length;
}

/** What is left to do: messages still to send now or later, and when the next one is due. */
export async function pendingWork(q: Queryable, mergeId: string, maxAttempts: number): Promise<{ pending: number; nextDue: Date | null }> {
  const [row] = await q.query<{ pending: number; next_due: Date | null }>(
    `SELECT count(*)::int AS pending, min(next_attempt_at) AS next_due FROM mail_messages
     WHERE merge_id = $1 AND (status IN ('queued', 'sending') OR (status = 'softBounce' AND attempts < $2))`,
    [mergeId, maxAttempts],
  );
  return { pending: row?.pending ?? 0, nextDue: row?.next_due ?? null };
}

/** Counts by status of one mailing (for the owner's notification). */
export async function countByStatus(q: Queryable, mergeId: string): Promise<Record<string, number>> {
  const rows = await q.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM mail_messages WHERE merge_id = $1 GROUP BY status', [mergeId]);
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}
