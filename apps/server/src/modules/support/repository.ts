/**
 * SQL of support requests. Every query a user's call makes names the account and the user (a request is
 * its writer's own); the mail job and the operator's `sheaf support` read by id or reference.
 */
import type { SupportDiagnostics, SupportTopic } from '@sheaf/shared';
import { json, type Queryable } from '../../adapters/db/index.ts';

export interface SupportRow {
  id: string;
  reference: string;
  owner_id: string;
  user_id: string;
  topic: SupportTopic;
  subject: string;
  message: string;
  language: string;
  attachment_key: string | null;
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  diagnostics: SupportDiagnostics | null;
  request_id: string | null;
  mailed_at: Date | null;
  created_at: Date;
}

/** The operator's view of a request: the row and its writer's address. */
export interface SupportRowWithEmail extends SupportRow {
  email: string | null;
}

const COLUMNS = `s.id, s.reference, s.owner_id, s.user_id, s.topic, s.subject, s.message, s.language, s.attachment_key, s.attachment_name,
  s.attachment_type, s.attachment_size, s.diagnostics, s.request_id, s.mailed_at, s.created_at`;

export interface NewSupportRow {
  id: string;
  reference: string;
  ownerId: string;
  userId: string;
  topic: SupportTopic;
  subject: string;
  message: string;
  language: string;
  attachment: { key: string; name: string; type: string; size: number } | null;
  diagnostics: SupportDiagnostics | null;
  requestId: string | null;
}

/** Inserts the request; false when its reference is taken (the caller draws another). */
export async function insertSupportRequest(q: Queryable, row: NewSupportRow): Promise<boolean> {
  const inserted = await q.query(
    `INSERT INTO support_requests (id, reference, owner_id, user_id, topic, subject, message, language, attachment_key, attachment_name,
       attachment_type, attachment_size, diagnostics, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14)
     ON CONFLICT (reference) DO NOTHING RETURNING id`,
    [
      row.id, row.reference, row.ownerId, row.userId, row.topic, row.subject, row.message, row.language,
      row.attachment?.key ?? null, row.attachment?.name ?? null, row.attachment?.type ?? null, row.attachment?.size ?? null,
      row.diagnostics ? json(row.diagnostics) : null, row.requestId,
    ],
  );
  return inserted.length === 1;
}

export async function listOwnSupportRequests(q: Queryable, ownerId: string, userId: string, limit: number): Promise<SupportRow[]> {
  return q.query<SupportRow>(
    `SELECT ${COLUMNS} FROM support_requests s WHERE s.owner_id = $1 AND s.user_id = $2 ORDER BY s.created_at DESC, s.id LIMIT $3`,
    [ownerId, userId, limit],
  );
}

export async function findOwnSupportRequest(q: Queryable, ownerId: string, userId: string, reference: string): Promise<SupportRow | undefined> {
  const [row] = await q.query<SupportRow>(
    `SELECT ${COLUMNS} FROM support_requests s WHERE s.owner_id = $1 AND s.user_id = $2 AND s.reference = $3`,
    [ownerId, userId, reference],
  );
  return row;
}

/** The mail job's read: the request and its writer's current address. */
export async function findSupportRequestById(q: Queryable, id: string): Promise<SupportRowWithEmail | undefined> {
  const [row] = await q.query<SupportRowWithEmail>(`SELECT ${COLUMNS}, u.email FROM support_requests s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = $1`, [id]);
  return row;
}

/** A child user being deleted: their requests become the account holder's (the account's data stays). */
export async function moveSupportRequestsToAccount(q: Queryable, ownerId: string, userId: string): Promise<void> {
  await q.query('UPDATE support_requests SET user_id = owner_id WHERE owner_id = $1 AND user_id = $2', [ownerId, userId]);
}

export async function markSupportRequestMailed(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE support_requests SET mailed_at = now() WHERE id = $1 AND mailed_at IS NULL', [id]);
}

/** The operator's reads (`sheaf support`): every account's requests. */
export async function listAllSupportRequests(q: Queryable, limit: number): Promise<SupportRowWithEmail[]> {
  return q.query<SupportRowWithEmail>(
    `SELECT ${COLUMNS}, u.email FROM support_requests s LEFT JOIN users u ON u.id = s.user_id ORDER BY s.created_at DESC, s.id LIMIT $1`,
    [limit],
  );
}

export async function findSupportRequestByReference(q: Queryable, reference: string): Promise<SupportRowWithEmail | undefined> {
  const [row] = await q.query<SupportRowWithEmail>(
    `SELECT ${COLUMNS}, u.email FROM support_requests s LEFT JOIN users u ON u.id = s.user_id WHERE s.reference = $1`,
    [reference],
  );
  return row;
}
