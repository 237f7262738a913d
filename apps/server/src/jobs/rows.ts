/**
 * The `jobs` table, the record of every job whichever back end runs it. A claim sets the row
 * 'running' with a lease (renewed while the job runs); every later write names the attempt it
 * belongs to, so a run that lost its claim (lease ran out, cancelled) cannot overwrite a newer one.
 */
import type { Db, Queryable } from '../adapters/db/types.ts';
import { JobCancelled } from './signals.ts';

export interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  request_id: string | null;
}

const RETURNING = 'RETURNING id, kind, payload, attempts, max_attempts, request_id';
/** now() + ms, as SQL with the milliseconds at parameter $n. */
const later = (n: number) => `now() + ($${n}::double precision * interval '1 millisecond')`;
/** Due: queued and its time has come, or running on a lease that ran out (its worker died). */
const DUE = `((status = 'queued' AND run_after <= now()) OR (status = 'running' AND lease_until < now()))`;

export interface NewJob {
  id: string;
  kind: string;
  payload: unknown;
  maxAttempts: number;
  runAfter: Date | null;
  requestId: string | null;
}

/** Inserts a job; false when a job with this id exists already (the enqueue was a repeat). */
export async function insertJob(db: Queryable, job: NewJob): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO jobs (id, kind, payload, max_attempts, run_after, request_id)
     VALUES ($1, $2, $3::jsonb, $4, COALESCE($5::timestamptz, now()), $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [job.id, job.kind, JSON.stringify(job.payload ?? null), job.maxAttempts, job.runAfter, job.requestId],
  );
  return rows.length > 0;
}

/** Claims the oldest due job of these kinds (the table runner). SKIP LOCKED: one claimer per row. */
export async function claimNext(db: Db, kinds: string[], leaseMs: number): Promise<JobRow | undefined> {
  const [row] = await db.query<JobRow>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ${later(1)}, updated_at = now()
     WHERE id = (SELECT id FROM jobs WHERE kind = ANY($2::text[]) AND ${DUE} ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     ${RETURNING}`,
    [leaseMs, kinds],
  );
  return row;
}

/** Claims this job if it is due (the BullMQ runner: Redis says which job, the row says whether). */
export async function claimById(db: Db, id: string, leaseMs: number): Promise<JobRow | undefined> {
  const [row] = await db.query<JobRow>(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ${later(1)}, updated_at = now()
     WHERE id = $2 AND ${DUE} ${RETURNING}`,
    [leaseMs, id],
  );
  return row;
}

export interface JobState {
  status: string;
  run_after: Date;
  lease_until: Date | null;
}

export async function jobState(db: Db, id: string): Promise<JobState | undefined> {
  const [row] = await db.query<JobState>('SELECT status, run_after, lease_until FROM jobs WHERE id = $1', [id]);
  return row;
}

/** Records the end of this claim; a row cancelled meanwhile stays cancelled. */
export async function finishJob(db: Db, job: JobRow, status: 'done' | 'failed', lastError: string | null): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = $3, lease_until = NULL, last_error = $4, updated_at = now() WHERE id = $1 AND status = 'running' AND attempts = $2`,
    [job.id, job.attempts, status, lastError],
  );
}

/** Queues this claim's job again after `delayMs` (a failed try that may succeed later). */
export async function retryJob(db: Db, job: JobRow, delayMs: number, lastError: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'queued', run_after = ${later(3)}, lease_until = NULL, last_error = $4, updated_at = now()
     WHERE id = $1 AND status = 'running' AND attempts = $2`,
    [job.id, job.attempts, delayMs, lastError],
  );
}

/** Returns a claimed job to the queue: not failed, and this try does not count. */
export async function handBackJob(db: Db, id: string, attempt: number): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'queued', attempts = GREATEST(attempts - 1, 0), lease_until = NULL, run_after = now(), updated_at = now()
     WHERE id = $1 AND status = 'running' AND attempts = $2`,
    [id, attempt],
  );
}

/**
 * Extends the leases of the jobs running in this process; a job whose row is no longer 'running' was
 * cancelled elsewhere, and its run is aborted.
 */
export async function renewRunningLeases(db: Db, running: ReadonlyMap<string, { controller: AbortController }>, leaseMs: number): Promise<void> {
  if (running.size === 0) return;
  const ids = [...running.keys()];
  const kept = await db.query<{ id: string }>(
    `UPDATE jobs SET lease_until = ${later(2)}, updated_at = now() WHERE id = ANY($1::text[]) AND status = 'running' RETURNING id`,
    [ids, leaseMs],
  );
  const alive = new Set(kept.map((row) => row.id));
  for (const id of ids) if (!alive.has(id)) running.get(id)?.controller.abort(new JobCancelled());
}

/** Marks a queued or running job cancelled; true when it was. */
export async function cancelJob(db: Db, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'cancelled', lease_until = NULL, updated_at = now() WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/** Running rows whose lease ran out go back to the queue (or fail once they used all their attempts). */
export async function requeueExpired(db: Db, ownedSince?: Date): Promise<void> {
  // A database this process alone opened (the embedded one): rows running since before it opened belong
  // to a process that died, whatever their lease says; they go back at once instead of after the lease.
  await db.query(
    `UPDATE jobs SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
       last_error = CASE WHEN attempts >= max_attempts THEN 'interrupted too many times' ELSE last_error END,
       lease_until = NULL, run_after = now(), updated_at = now()
     WHERE status = 'running' AND (lease_until < now() OR updated_at < $1::timestamptz)`,
    [ownedSince ?? null],
  );
}

export interface PendingJob {
  id: string;
  kind: string;
  run_after: Date;
}

/** Jobs of these kinds that should be on their way: queued (due or not), or running on a dead lease. */
export async function pendingJobs(db: Db, kinds: string[], ids?: string[]): Promise<PendingJob[]> {
  return db.query<PendingJob>(
    `SELECT id, kind, run_after FROM jobs WHERE kind = ANY($1::text[])
       AND (status = 'queued' OR (status = 'running' AND lease_until < now()))
       ${ids ? 'AND id = ANY($2::text[])' : ''}
     ORDER BY created_at LIMIT 1000`,
    ids ? [kinds, ids] : [kinds],
  );
}
