/**
 * The table runner (the embedded default): jobs are rows of the `jobs` table, claimed with a lease. A
 * crash leaves the row 'running' with a lease that runs out, and the next claim (here or in another
 * process) takes it again; a clean stop hands its jobs back at once. Several runners may share one
 * database: the claim is one atomic UPDATE with FOR UPDATE SKIP LOCKED, so a job runs in one place at a
 * time, and a run whose lease renewals fail stops before its lease runs out (lease-watch.ts).
 */
import type { Db } from '../adapters/db/types.ts';
import { newId } from '../ids.ts';
import { executeJob, type JobLog } from './execute.ts';
import { currentRequestId } from './request-scope.ts';
import { watchLeases } from './lease-watch.ts';
import { cancelJob, claimNext, finishJob, handBackJob, insertJob, requeueExpired, type JobRow } from './rows.ts';
import { JobCancelled, JobLeaseLost, JobShutdown } from './signals.ts';
import type { EnqueueOptions, JobHandler, JobQueue } from './types.ts';

export { JobCancelled, JobLeaseLost, JobShutdown, isShutdown } from './signals.ts';
export type { JobLog } from './execute.ts';

export interface JobQueueOptions {
  /** Jobs run at the same time by this runner. */
  concurrency?: number;
  /** How long a claim holds without renewal; renewed every third of it while the job runs; a run whose renewals fail stops before it runs out. */
  leaseMs?: number;
  /** How often the table is looked at for due work (enqueue and job ends wake the runner at once). */
  pollMs?: number;
  /** First retry delay; doubled for each further attempt. */
  backoffMs?: number;
  /** How long stop() waits for handlers to notice the abort before leaving them to their lease. */
  stopTimeoutMs?: number;
  /** Set when this process alone holds the database (embedded): when it opened it. */
  ownsDatabaseSince?: Date;
}

interface Running {
  controller: AbortController;
  attempt: number;
  settled: Promise<void>;
}

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
  const leases = watchLeases(db, log, leaseMs, running);

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
          const claimSentAt = Date.now();
          const job = await claimNext(db, [...handlers.keys()], leaseMs);
          if (!job) break;
          if (!started) {
            await handBackJob(db, job.id, job.attempts); // stop() began while claiming
            break;
          }
          if (running.has(job.id)) {
            // Its run here lost its lease and has not ended yet: the two must not overlap; the next poll tries again.
            await handBackJob(db, job.id, job.attempts);
            break;
          }
          if (job.attempts > job.max_attempts) {
            // Claimed back from expired leases more often than it may run: it keeps killing its worker.
            await finishJob(db, job, 'failed', 'interrupted too many times');
            continue;
          }
          launch(job, claimSentAt);
        }
      } while (pumpAgain && started);
    } catch (error) {
      log.error({ err: error }, 'job runner: claiming jobs failed');
    }
  }

  function launch(job: JobRow, claimSentAt: number): void {
    const controller = new AbortController();
    const entry: Running = { controller, attempt: job.attempts, settled: Promise.resolve() };
    running.set(job.id, entry);
    leases.claimed(job.id, claimSentAt);
    // Aborted: cancelled (the row says so already), stopping (stop() hands it back) or its lease lost:
    // handed back if the database answers by now, else left to its expired lease (due again either way).
    entry.settled = executeJob(db, log, job, handlers.get(job.kind)!, controller.signal, backoffMs)
      .then(async () => {
        if (controller.signal.reason instanceof JobLeaseLost) await handBackJob(db, job.id, job.attempts).catch(() => undefined);
      })
      .catch((error: unknown) => log.error({ err: error, jobId: job.id }, 'job runner: recording a job outcome failed'))
      .finally(() => {
        running.delete(job.id);
        leases.ended(job.id);
        if (started) void pump();
      });
  }

  return {
    register<Payload>(kind: string, handler: JobHandler<Payload>): void {
      handlers.set(kind, handler as JobHandler<unknown>);
      if (started) void pump();
    },

    async enqueue(kind: string, payload: unknown, enqueueOptions: EnqueueOptions = {}): Promise<string> {
      const id = enqueueOptions.id ?? newId();
      const requestId = enqueueOptions.requestId === undefined ? currentRequestId() : enqueueOptions.requestId;
      await insertJob(enqueueOptions.tx ?? db, { id, kind, payload, maxAttempts: enqueueOptions.maxAttempts ?? 3, runAfter: enqueueOptions.runAfter ?? null, requestId });
      // Inside a transaction the row is not visible yet: the caller wakes the runner after commit.
      if (!enqueueOptions.tx) void pump();
      return id;
    },

    async cancel(id: string): Promise<void> {
      await cancelJob(db, id);
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
      // A 'running' row whose lease ran out (or, on a database this process alone holds, claimed before
      // it opened) belonged to a process that died: hand it back (or give up once it used all its attempts).
      await requeueExpired(db, options.ownsDatabaseSince);
      started = true;
      pollTimer = setInterval(() => void pump(), pollMs);
      pollTimer.unref();
      leases.start();
      void pump();
    },

    async stop(): Promise<void> {
      if (!started) return;
      started = false;
      clearInterval(pollTimer);
      leases.stop();
      await pumping; // a claim in flight hands its job back itself
      const entries = [...running.entries()];
      for (const [, entry] of entries) entry.controller.abort(new JobShutdown());
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, stopTimeoutMs)));
      await Promise.race([Promise.all(entries.map(([, entry]) => entry.settled)), timeout]);
      clearTimeout(timer);
      for (const [id, entry] of entries) {
        // A handler still busy after the grace period keeps its row: its lease will run out.
        if (running.has(id)) {
          log.warn({ jobId: id }, 'job still running at shutdown: left to its lease');
          continue;
        }
        await handBackJob(db, id, entry.attempt);
        log.info({ jobId: id }, 'job handed back');
      }
    },
  };
}
