/** All SQL of merges. Every query that reads or changes a user's merge filters on its owner. */
import type { Queryable } from '../../adapters/db/types.ts';
import type { MergeStatus } from '@sheaf/shared';
import type { StoredRequest } from './request.ts';

export interface MergeRow {
  id: string;
  template_id: string;
  owner_id: string;
  /** Who started it; null on merges from before actors were kept (the owner). */
  actor_id: string | null;
  status: MergeStatus;
  request: StoredRequest;
  is_combined_output: boolean;
  total: number;
  done: number;
  charged: number;
  file_name: string | null;
  file_size: number | null;
  files_deleted: boolean;
  made_via_api: boolean;
  issues: { rowNumber: number; code: string; message: string }[];
  error: { code: string; message: string; params?: Record<string, string | number> } | null;
  cancel_requested: boolean;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

export const ACTIVE_STATUSES: readonly MergeStatus[] = ['queued', 'generating'];

export interface NewMerge {
  id: string;
  templateId: string;
  ownerId: string;
  /** The user who started it (a child user starts merges in the parent's account). */
  actorId: string;
  request: StoredRequest;
  isCombinedOutput: boolean;
  total: number;
}

/** Inserts the merge unless its id exists; returns whether this call created it. */
export async function insertMerge(q: Queryable, merge: NewMerge): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO merges (id, template_id, owner_id, actor_id, status, request, is_combined_output, total)
     VALUES ($1, $2, $3, $4, 'queued', $5::jsonb, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [merge.id, merge.templateId, merge.ownerId, merge.actorId, JSON.stringify(merge.request), merge.isCombinedOutput, merge.total],
  );
  return rows.length === 1;
}

export async function findMerge(q: Queryable, ownerId: string, mergeId: string): Promise<MergeRow | undefined> {
  const [row] = await q.query<MergeRow>('SELECT * FROM merges WHERE id = $1 AND owner_id = $2', [mergeId, ownerId]);
  return row;
}

/** Whether a merge id is taken at all (by anyone): an id is never reused across accounts. */
export async function mergeIdTaken(q: Queryable, mergeId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM merges WHERE id = $1', [mergeId]);
  return rows.length > 0;
}

export async function findActiveMerge(q: Queryable, ownerId: string, templateId: string): Promise<MergeRow | undefined> {
  const [row] = await q.query<MergeRow>(
    `SELECT * FROM merges WHERE owner_id = $1 AND template_id = $2 AND status = ANY($3::text[]) LIMIT 1`,
    [ownerId, templateId, ACTIVE_STATUSES],
  );
  return row;
}

/** Merges of these templates, newest first. */
export async function listMerges(q: Queryable, ownerId: string, templateIds: readonly string[]): Promise<MergeRow[]> {
  if (templateIds.length === 0) return [];
  return q.query<MergeRow>(
    'SELECT * FROM merges WHERE owner_id = $1 AND template_id = ANY($2::text[]) ORDER BY created_at DESC, id',
    [ownerId, templateIds],
  );
}

/** Merges of the template that are queued or running: while any exists, the template and its sheet stay. */
export async function countActiveMerges(q: Queryable, ownerId: string, templateId: string): Promise<number> {
  const rows = await q.query<{ count: number | string }>(
    `SELECT count(*) AS count FROM merges WHERE owner_id = $1 AND template_id = $2 AND status IN ('queued', 'generating')`,
    [ownerId, templateId],
  );
  return Number(rows[0]?.count ?? 0);
}

export async function listMergeIdsOfAccount(q: Queryable, ownerId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>('SELECT id FROM merges WHERE owner_id = $1', [ownerId]);
  return rows.map((row) => row.id);
}

export async function listMergeIdsOfTemplate(q: Queryable, ownerId: string, templateId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>('SELECT id FROM merges WHERE owner_id = $1 AND template_id = $2', [ownerId, templateId]);
  return rows.map((row) => row.id);
}

/**
 * queued -> generating, at the start of each attempt. `done` is kept: a resumed run goes on from the
 * documents written (run-merge.ts sets it once it knows how many).
 */
export async function markGenerating(q: Queryable, ownerId: string, mergeId: string): Promise<void> {
  await q.query(
    `UPDATE merges SET status = 'generating', started_at = now()
     WHERE id = $1 AND owner_id = $2 AND status = ANY($3::text[])`,
    [mergeId, ownerId, ACTIVE_STATUSES],
  );
}

export async function updateProgress(q: Queryable, ownerId: string, mergeId: string, done: number, total?: number): Promise<void> {
  await q.query(
    `UPDATE merges SET done = $3, total = COALESCE($4, total) WHERE id = $1 AND owner_id = $2 AND status = 'generating'`,
    [mergeId, ownerId, done, total ?? null],
  );
}

export interface Completion {
  fileName: string;
  fileSize: number;
  documents: number;
  issues: MergeRow['issues'];
}

/** generating -> completed; false when the merge is no longer generating (cancelled meanwhile). */
export async function markCompleted(q: Queryable, ownerId: string, mergeId: string, done: Completion): Promise<boolean> {
  const rows = await q.query(
    `UPDATE merges SET status = 'completed', file_name = $3, file_size = $4, done = $5, charged = $5, issues = $6::jsonb, finished_at = now()
     WHERE id = $1 AND owner_id = $2 AND status = 'generating' RETURNING id`,
    [mergeId, ownerId, done.fileName, done.fileSize, done.documents, JSON.stringify(done.issues)],
  );
  return rows.length === 1;
}

/** Ends a merge that has not finished yet (error or cancelled). */
export async function markEnded(q: Queryable, ownerId: string, mergeId: string, status: 'error' | 'cancelled', error: MergeRow['error']): Promise<MergeRow | undefined> {
  const [row] = await q.query<MergeRow>(
    `UPDATE merges SET status = $3, error = $4::jsonb, finished_at = now(),
       cancel_requested = cancel_requested OR $3 = 'cancelled'
     WHERE id = $1 AND owner_id = $2 AND status = ANY($5::text[]) RETURNING *`,
    [mergeId, ownerId, status, error ? JSON.stringify(error) : null, ACTIVE_STATUSES],
  );
  return row;
}

export async function requestCancel(q: Queryable, ownerId: string, mergeId: string): Promise<void> {
  await q.query(
    'UPDATE merges SET cancel_requested = true WHERE id = $1 AND owner_id = $2 AND status = ANY($3::text[])',
    [mergeId, ownerId, ACTIVE_STATUSES],
  );
}

export async function markFilesDeleted(q: Queryable, ownerId: string, mergeId: string): Promise<MergeRow | undefined> {
  const [row] = await q.query<MergeRow>('UPDATE merges SET files_deleted = true WHERE id = $1 AND owner_id = $2 RETURNING *', [mergeId, ownerId]);
  return row;
}

export async function deleteMergeRow(q: Queryable, ownerId: string, mergeId: string): Promise<void> {
  await q.query('DELETE FROM merges WHERE id = $1 AND owner_id = $2', [mergeId, ownerId]);
}

/**
 * Merges left queued or generating whose jobs can no longer move them: neither the merge job nor any
 * of its range jobs (merge_ranges; ids as range-kind.ts's rangeJobId) is queued or running.
 */
export async function findStrandedMerges(q: Queryable): Promise<Pick<MergeRow, 'id' | 'owner_id'>[]> {
  return q.query(
    `SELECT m.id, m.owner_id FROM merges m
     WHERE m.status = ANY($1::text[]) AND NOT EXISTS (
       SELECT 1 FROM jobs j WHERE j.status NOT IN ('done', 'failed', 'cancelled') AND (j.id = m.id
         OR j.id IN (SELECT m.id || '-range-' || r.range_index FROM merge_ranges r WHERE r.merge_id = m.id)))`,
    [ACTIVE_STATUSES],
  );
}
