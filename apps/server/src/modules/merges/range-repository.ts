/** SQL of merges made in ranges (merge_ranges, migration 006). Every query filters on the merge's owner. */
import type { Queryable } from '../../adapters/db/types.ts';
import type { MergeRow } from './repository.ts';
import type { PlannedRange } from './range-kind.ts';

export interface RangeRow {
  merge_id: string;
  range_index: number;
  first_position: number;
  last_position: number;
  done: number;
  finished: boolean;
  documents: number;
  issues: MergeRow['issues'];
}

/** The merge's ranges, once (a merge job run again after a crash inserts nothing new). */
export async function insertRanges(q: Queryable, mergeId: string, ranges: readonly PlannedRange[]): Promise<void> {
  for (const range of ranges) {
    await q.query(
      `INSERT INTO merge_ranges (merge_id, range_index, first_position, last_position) VALUES ($1, $2, $3, $4)
       ON CONFLICT (merge_id, range_index) DO NOTHING`,
      [mergeId, range.index, range.first, range.last],
    );
  }
}

export async function countRanges(q: Queryable, mergeId: string): Promise<number> {
  const [row] = await q.query<{ count: number | string }>('SELECT count(*) AS count FROM merge_ranges WHERE merge_id = $1', [mergeId]);
  return Number(row?.count ?? 0);
}

export async function listRanges(q: Queryable, ownerId: string, mergeId: string): Promise<RangeRow[]> {
  return q.query<RangeRow>(
    `SELECT r.* FROM merge_ranges r JOIN merges m ON m.id = r.merge_id
     WHERE r.merge_id = $1 AND m.owner_id = $2 ORDER BY r.range_index`,
    [mergeId, ownerId],
  );
}

/**
 * A range's progress, and the merge's as the sum of its ranges'. False when the merge is no longer
 * generating (cancelled, failed elsewhere, deleted): the range stops.
 */
export async function updateRangeProgress(q: Queryable, ownerId: string, mergeId: string, index: number, done: number): Promise<boolean> {
  await q.query('UPDATE merge_ranges SET done = $3 WHERE merge_id = $1 AND range_index = $2 AND NOT finished', [mergeId, index, done]);
  const rows = await q.query(
    `UPDATE merges SET done = (SELECT COALESCE(sum(done), 0) FROM merge_ranges WHERE merge_id = $1)
     WHERE id = $1 AND owner_id = $2 AND status = 'generating' RETURNING id`,
    [mergeId, ownerId],
  );
  return rows.length === 1;
}

export type RangeFinish = 'stopped' | 'more-to-come' | 'last';

/**
 * Records that a range's part is stored (call inside a transaction). The merge row is locked while
 * the unfinished ranges are counted, so of ranges finishing at once exactly one sees none left: it is
 * marked as the assembler ('last'). A range recorded before (a re-run) is 'last' only if it was marked
 * (it crashed while assembling); else it leaves the ZIP to the marked one.
 */
export async function finishRange(tx: Queryable, ownerId: string, mergeId: string, index: number, made: { documents: number; issues: MergeRow['issues'] }): Promise<RangeFinish> {
  const [merge] = await tx.query<{ status: string }>('SELECT status FROM merges WHERE id = $1 AND owner_id = $2 FOR UPDATE', [mergeId, ownerId]);
  if (merge?.status !== 'generating') return 'stopped';
  const flipped = await tx.query(
    `UPDATE merge_ranges SET finished = true, done = $3, documents = $3, issues = $4::jsonb
     WHERE merge_id = $1 AND range_index = $2 AND NOT finished RETURNING range_index`,
    [mergeId, index, made.documents, JSON.stringify(made.issues)],
  );
  await tx.query(
    `UPDATE merges SET done = (SELECT COALESCE(sum(done), 0) FROM merge_ranges WHERE merge_id = $1) WHERE id = $1`,
    [mergeId],
  );
  const [left] = await tx.query<{ count: number | string }>('SELECT count(*) AS count FROM merge_ranges WHERE merge_id = $1 AND NOT finished', [mergeId]);
  if (Number(left?.count ?? 0) > 0) return 'more-to-come';
  if (flipped.length === 1) {
    await tx.query('UPDATE merge_ranges SET assembles = true WHERE merge_id = $1 AND range_index = $2', [mergeId, index]);
    return 'last';
  }
  const [me] = await tx.query<{ assembles: boolean }>('SELECT assembles FROM merge_ranges WHERE merge_id = $1 AND range_index = $2', [mergeId, index]);
  return me?.assembles ? 'last' : 'more-to-come';
}
