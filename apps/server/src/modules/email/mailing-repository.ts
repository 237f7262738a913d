/** SQL of mailings (one per emailed merge). Every query that a user's request reaches filters on the owner. */
import type { Queryable } from '../../adapters/db/types.ts';

export type MailingStatus = 'queued' | 'sending' | 'completed' | 'cancelled' | 'error';

export interface MailingRow {
  merge_id: string;
  owner_id: string;
  template_id: string;
  sender_id: string;
  status: MailingStatus;
  prepared: boolean;
  total: number;
  round: number;
  cancel_requested: boolean;
  error: { code: string; message: string } | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export const ACTIVE_MAILING: readonly MailingStatus[] = ['queued', 'sending'];

export async function insertMailing(q: Queryable, mailing: { mergeId: string; ownerId: string; templateId: string; senderId: string }): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO mailings (merge_id, owner_id, template_id, sender_id) VALUES ($1, $2, $3, $4) ON CONFLICT (merge_id) DO NOTHING RETURNING merge_id`,
    [mailing.mergeId, mailing.ownerId, mailing.templateId, mailing.senderId],
  );
  return rows.length === 1;
}

export async function findMailing(q: Queryable, ownerId: string, mergeId: string): Promise<MailingRow | undefined> {
  const [row] = await q.query<MailingRow>('SELECT * FROM mailings WHERE merge_id = $1 AND owner_id = $2', [mergeId, ownerId]);
  return row;
}

/** The mailing with its template's name (for the owner's summary). */
export async function findMailingWithName(q: Queryable, ownerId: string, mergeId: string): Promise<(MailingRow & { name: string }) | undefined> {
  const [row] = await q.query<MailingRow & { name: string }>(
    `SELECT m.*, COALESCE(t.custom_name, t.name) AS name FROM mailings m JOIN templates t ON t.id = m.template_id
     WHERE m.merge_id = $1 AND m.owner_id = $2`,
    [mergeId, ownerId],
  );
  return row;
}

/** Locks the mailing row: job ends, cancels and bounce reports that reopen it are serialised on it. */
export async function lockMailing(tx: Queryable, ownerId: string, mergeId: string): Promise<MailingRow | undefined> {
  const [row] = await tx.query<MailingRow>('SELECT * FROM mailings WHERE merge_id = $1 AND owner_id = $2 FOR UPDATE', [mergeId, ownerId]);
  return row;
}

export async function mailingStatuses(q: Queryable, ownerId: string, mergeIds: readonly string[]): Promise<Map<string, MailingStatus>> {
  if (mergeIds.length === 0) return new Map();
  const rows = await q.query<{ merge_id: string; status: MailingStatus }>(
    'SELECT merge_id, status FROM mailings WHERE owner_id = $1 AND merge_id = ANY($2::text[])',
    [ownerId, mergeIds],
  );
  return new Map(rows.map((row) => [row.merge_id, row.status]));
}

/** queued -> sending at the start of a run (a reopened mailing goes back to sending too). */
export async function markSending(q: Queryable, ownerId: string, mergeId: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE mailings SET status = 'sending', started_at = COALESCE(started_at, now())
     WHERE merge_id = $1 AND owner_id = $2 AND status = ANY($3::text[]) AND NOT cancel_requested RETURNING merge_id`,
    [mergeId, ownerId, ACTIVE_MAILING],
  );
  return rows.length === 1;
}

export async function markPrepared(q: Queryable, ownerId: string, mergeId: string): Promise<number> {
  const [row] = await q.query<{ total: number }>(
    `UPDATE mailings SET prepared = true, total = (SELECT count(*)::int FROM mail_messages WHERE merge_id = $1)
     WHERE merge_id = $1 AND owner_id = $2 RETURNING total`,
    [mergeId, ownerId],
  );
  return row?.total ?? 0;
}

/** Ends an active mailing; false when it had ended already. */
export async function endMailing(q: Queryable, ownerId: string, mergeId: string, status: 'completed' | 'cancelled' | 'error', error: MailingRow['error'] = null): Promise<boolean> {
  const rows = await q.query(
    `UPDATE mailings SET status = $3, error = $4::jsonb, finished_at = now(), cancel_requested = cancel_requested OR $3 = 'cancelled'
     WHERE merge_id = $1 AND owner_id = $2 AND status = ANY($5::text[]) RETURNING merge_id`,
    [mergeId, ownerId, status, error ? JSON.stringify(error) : null, ACTIVE_MAILING],
  );
  return rows.length === 1;
}

/** A completed mailing with a message to try again (a soft bounce came in): back to sending, next round. */
export async function reopenMailing(q: Queryable, ownerId: string, mergeId: string): Promise<number | undefined> {
  const [row] = await q.query<{ round: number }>(
    `UPDATE mailings SET status = 'sending', round = round + 1, finished_at = NULL
     WHERE merge_id = $1 AND owner_id = $2 AND status = 'completed' RETURNING round`,
    [mergeId, ownerId],
  );
  return row?.round;
}

/** The next run's number, for the id of the job that continues a mailing later. */
export async function nextRound(q: Queryable, ownerId: string, mergeId: string): Promise<number> {
  const [row] = await q.query<{ round: number }>('UPDATE mailings SET round = round + 1 WHERE merge_id = $1 AND owner_id = $2 RETURNING round', [mergeId, ownerId]);
  return row?.round ?? 0;
}

export async function requestMailingCancel(q: Queryable, ownerId: string, mergeId: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE mailings SET cancel_requested = true WHERE merge_id = $1 AND owner_id = $2 AND status = ANY($3::text[]) RETURNING merge_id`,
    [mergeId, ownerId, ACTIVE_MAILING],
  );
  return rows.length === 1;
}

/** Mailings left queued or sending whose job chain is gone (no job that can still move them). */
export async function findStrandedMailings(q: Queryable): Promise<Pick<MailingRow, 'merge_id' | 'owner_id'>[]> {
  return q.query(
    `SELECT m.merge_id, m.owner_id FROM mailings m
     WHERE m.status = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'mailing' AND j.payload->>'mergeId' = m.merge_id AND j.status IN ('queued', 'running'))`,
    [ACTIVE_MAILING],
  );
}

/** Whether a mailing of this sender is queued or sending, or a merge that will email through it is still being made. */
export async function senderHasActiveMailing(q: Queryable, ownerId: string, senderId: string): Promise<boolean> {
  const rows = await q.query(
    `SELECT 1 FROM mailings WHERE owner_id = $1 AND sender_id = $2 AND status = ANY($3::text[])
     UNION ALL
     SELECT 1 FROM merges WHERE owner_id = $1 AND status IN ('queued', 'generating') AND request->'email'->>'senderId' = $2
     LIMIT 1`,
    [ownerId, senderId, ACTIVE_MAILING],
  );
  return rows.length > 0;
}

/** Whether the template has a mailing under way (it cannot be deleted meanwhile). */
export async function templateHasActiveMailing(q: Queryable, ownerId: string, templateId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM mailings WHERE owner_id = $1 AND template_id = $2 AND status = ANY($3::text[]) LIMIT 1', [ownerId, templateId, ACTIVE_MAILING]);
  return rows.length > 0;
}
