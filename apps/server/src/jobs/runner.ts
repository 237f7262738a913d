/**
 * The in-process job runner: jobs are rows of the `jobs` table, claimed with a lease. A crash leaves
 * the row 'running' with a lease that runs out, and the next claim (here or in another process) takes
 * it again; a clean stop hands its jobs back at once. Several runners may share one database: the
 * claim is one atomic UPDATE with FOR UPDATE SKIP LOCKED, so a job runs in one place at a time.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isSheafError } from '@sheaf/shared';
import type { Db } from '../adapters/db/types.ts';
import { newId } from '../ids.ts';
import type { EnqueueOptions, JobHandler, JobQueue } from './types.ts';

export interface JobQueueOptions {
  /** Jobs run at the same time by this runner. */
  concurrency?: number;
  /** How long a claim holds without renewal; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** How often the table is looked at for due work (enqueue and job ends wake the runner at once). */
  pollMs?: number;
  /** First retry delay; doubled for each further attempt. */
  backoffMs?: number;
  /** How long stop() waits for handlers to notice the abort before leaving them to their lease. */
  stopTimeoutMs?: number;
}

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The abort reason of a job the user (or another process) cancelled. */
export class JobCancelled extends Error {
  constructor() {
    super('job cancelled');
    this.name = 'JobCancelled';
  }
}

/** The abort reason when the runner stops: the job is handed back, not failed, and runs again later. */
export class JobShutdown extends Error {
  constructor() {
    super('job runner stopping');
    this.name = 'JobShutdown';
  }
}

export function isShutdown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof JobShutdown;
}

interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

interface Running {
  controller: AbortController;
  attempt: number;
  settled: Promise<void>;
}

const MAX_BACKOFF_MS = 10 * 60_000;

export function createJobQueue(db: Db, log: JobLog, options: JobQueueOptions = {}): JobQueue {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const backoffMs = options.backoffMs ?? 1_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const handlers = new Map<string, JobHandler<unknown>>();
  const running = new Map<string, Running>();
  let started = false;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;

  /** now() + ms, as SQL with the milliseconds at parameter $n. */
  const later = (n: number) => `now() + ($${n}::double precision * interval '1 millisecond')`;

  async function claim(): Promise<JobRow | undefined> {
    const [row] = await db.query<JobRow>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ${later(1)}, updated_at = now()
       WHERE id = (
         SELECT id FROM jobs
         WHERE kind = ANY($2::text[])
           AND ((status = 'queued' AND run_after <= now()) OR (status = 'running' AND lease_until < now()))
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, payload, attempts, max_attempts`,
      [leaseMs, [...handlers.keys()]],
    );
    return row;
  }

  /** Claims due jobs until the runner is full or nothing is due. One pump at a time. */
  function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = claimDueJobs().finally(() => (pumping = undefined));
    return pumping;
  }

  async function claimDueJobs(): Promise<void> {
    try {
      do {
        pumpAgain = false;
        while (started && running.size < concurrency && handlers.size > 0) {
          const job = await claim();
          if (!job) break;
          if (!started) {
            await handBack(job.id, job.attempts); // stop() began while claiming
            break;
          }
          if (job.attempts > job.max_attempts) {
            // Claimed back from expired leases more often than it may run: it keeps killing its worker.
            await finish(job, 'failed', 'interrupted too many times');
            continue;
          }
          launch(job);
        }
      } while (pumpAgain && started);
    } catch (error) {
      log.error({ err: error }, 'job runner: claiming jobs failed');
    }
  }

  /** Returns a claimed job to the queue: not failed, and this try does not count. */
  async function handBack(id: string, attempt: number): Promise<void> {
    await db.query(
      `UPDATE jobs SET status = 'queued', attempts = GREATEST(attempts - 1, 0), lease_until = NULL, run_after = now(), updated_at = now()
       WHERE id = $1 AND status = 'running' AND attempts = $2`,
      [id, attempt],
    );
  }

  function launch(job: JobRow): void {
    const controller = new AbortController();
    const entry: Running = { controller, attempt: job.attempts, settled: Promise.resolve() };
    running.set(job.id, entry);
    entry.settled = execute(job, controller.signal)
      .catch((error: unknown) => log.error({ err: error, jobId: job.id }, 'job runner: recording a job outcome failed'))
      .finally(() => {
        running.delete(job.id);
        if (started) void pump();
      });
  }

  async function execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const handler = handlers.get(job.kind)!;
    try {
      await handler(job.payload, { signal, attempt: job.attempts });
    } catch (error) {
      if (signal.aborted) return; // cancelled (row says so already) or shutting down (stop() hands it back)
      const message = error instanceof Error ? error.message : String(error);
      if (isSheafError(error) || job.attempts >= job.max_attempts) {
        // A user error does not improve by trying again.
        log.warn({ err: error, jobId: job.id, kind: job.kind }, 'job failed');
        await finish(job, 'failed', isSheafError(error) ? `${error.code}: ${message}` : message);
        return;
      }
      const delay = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (job.attempts - 1));
      log.warn({ err: error, jobId: job.id, kind: job.kind, retryInMs: delay }, 'job failed, will retry');
      await db.query(
        `UPDATE jobs SET status = 'queued', run_after = ${later(3)}, lease_until = NULL, last_error = $4, updated_at = now()
         WHERE id = $1 AND status = 'running' AND attempts = $2`,
        [job.id, job.attempts, delay, message],
      );
      return;
    }
    await finish(job, 'done', null);
  }

  /** Records the end of this claim; a row cancelled meanwhile stays cancelled. */
  async function finish(job: JobRow, status: 'done' | 'failed', lastError: string | null): Promise<void> {
    await db.query(
      `UPDATE jobs SET status = $3, lease_until = NULL, last_error = $4, updated_at = now()
       WHERE id = $1 AND status = 'running' AND attempts = $2`,
      [job.id, job.attempts, status, lastError],
    );
  }

  /** Extends the leases of the jobs running here; a job whose row is no longer 'running' was cancelled elsewhere. */
  async function renewLeases(): Promise<void> {
    if (running.size === 0) return;
    const ids = [...running.keys()];
    try {
      const kept = await db.query<{ id: string }>(
        `UPDATE jobs SET lease_until = ${later(2)}, updated_at = now() WHERE id = ANY($1::text[]) AND status = 'running' RETURNING id`,
        [ids, leaseMs],
      );
      const alive = new Set(kept.map((row) => row.id));
      for (const id of ids) if (!alive.has(id)) running.get(id)?.controller.abort(new JobCancelled());
    } catch (error) {
      log.error({ err: error }, 'job runner: renewing leases failed');
    }
  }

  return {
    register<Payload>(kind: string, handler: JobHandler<Payload>): void {
      handlers.set(kind, handler as JobHandler<unknown>);
      if (started) void pump();
    },

    async enqueue(kind: string, payload: unknown, enqueueOptions: EnqueueOptions = {}): Promise<string> {
      const id = enqueueOptions.id ?? newId();
      await (enqueueOptions.tx ?? db).query(
        `INSERT INTO jobs (id, kind, payload, max_attempts, run_after) VALUES ($1, $2, $3::jsonb, $4, COALESCE($5::timestamptz, now())) ON CONFLICT (id) DO NOTHING`,
        [id, kind, JSON.stringify(payload ?? null), enqueueOptions.maxAttempts ?? 3, enqueueOptions.runAfter ?? null],
      );
      // Inside a transaction the row is not visible yet: the caller wakes the runner after commit.
      if (!enqueueOptions.tx) void pump();
      return id;
    },

    async cancel(id: string): Promise<void> {
      await db.query(
        `UPDATE jobs SET status = 'cancelled', lease_until = NULL, updated_at = now() WHERE id = $1 AND status IN ('queued', 'running')`,
        [id],
      );
      const entry = running.get(id);
      if (entry) {
        entry.controller.abort(new JobCancelled());
        await entry.settled;
      }
    },

    wake(): void {
      if (started) void pump();
    },

    async start(): Promise<void> {
      if (started) return;
      // This runner is the only worker by default: a 'running' row whose lease ran out belonged to a
      // process that died. Hand it back (or give up on it once it has used all its attempts).
      await db.query(
        `UPDATE jobs SET status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
           last_error = CASE WHEN attempts >= max_attempts THEN 'interrupted too many times' ELSE last_error END,
           lease_until = NULL, run_after = now(), updated_at = now()
         WHERE status = 'running' AND lease_until < now()`,
      );
      started = true;
      pollTimer = setInterval(() => void pump(), pollMs);
      pollTimer.unref();
      renewTimer = setInterval(() => void renewLeases(), Math.max(10, Math.floor(leaseMs / 3)));
      renewTimer.unref();
      void pump();
    },

    async stop(): Promise<void> {
      if (!started) return;
      started = false;
      clearInterval(pollTimer);
      clearInterval(renewTimer);
      await pumping; // a claim in flight hands its job back itself
      const entries = [...running.entries()];
      for (const [, entry] of entries) entry.controller.abort(new JobShutdown());
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, stopTimeoutMs)));
      await Promise.race([Promise.all(entries.map(([, entry]) => entry.settled)), timeout]);
      clearTimeout(timer);
      for (const [id, entry] of entries) {
        // A handler still busy after the grace period keeps its row: its lease will run out.
        if (!running.has(id)) await handBack(id, entry.attempt);
      }
    },
  };
}
