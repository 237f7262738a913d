/**
 * The BullMQ runner (REDIS_URL): Redis carries "run job <id>" to the workers; the `jobs` table stays
 * the record and the authority. A job is queued as a row (in the caller's transaction), then added to
 * BullMQ after the commit with jobId = the row id (a repeat add is a no-op), and a periodic sweep adds
 * again what Redis lost. A delivery claims the row with a lease before it runs, so a duplicate
 * delivery does nothing. A process killed mid-job: BullMQ's stalled check delivers it again, and the
 * delivery waits for the dead run's lease to run out before claiming it.
 */
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Db } from '../adapters/db/types.ts';
import { newId } from '../ids.ts';
import { executeJob, type JobLog } from './execute.ts';
import type { RedisLink } from './redis.ts';
import { currentRequestId } from './request-scope.ts';
import { watchLeases } from './lease-watch.ts';
import { cancelJob, claimById, finishJob, handBackJob, insertJob, jobState, pendingJobs } from './rows.ts';
import { JobCancelled, JobLeaseLost, JobShutdown } from './signals.ts';
import type { EnqueueOptions, JobHandler, JobQueue } from './types.ts';

export interface BullQueueOptions {
  concurrency?: number;
  /** The row's lease, renewed every third of it while the job runs; a run whose renewals fail stops before it runs out (as in the table runner). */
  leaseMs?: number;
  backoffMs?: number;
  stopTimeoutMs?: number;
  /** BullMQ's lock on an active job; a worker that stops renewing it (killed) stalls after this. */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs. */
  stalledIntervalMs?: number;
  /** How often queued rows are added to Redis again (what Redis lost, what a crash did not hand over). */
  sweepMs?: number;
  /** Key prefix in Redis. */
  prefix?: string;
}

/** Deliveries of a job whose row is not (yet) there before the delivery is dropped. */
const MISSING_ROW_CHECKS = 4;

interface Running {
  controller: AbortController;
  attempt: number;
}

interface Publish {
  id: string;
  kind: string;
  runAfter: Date | null;
}

export function createBullQueue(redis: RedisLink, db: Db, log: JobLog, name: string, options: BullQueueOptions = {}): JobQueue {
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const leaseMs = options.leaseMs ?? 30_000;
  const backoffMs = options.backoffMs ?? 1_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const sweepMs = options.sweepMs ?? 30_000;
  const prefix = options.prefix ?? 'sheaf';
  const handlers = new Map<string, JobHandler<unknown>>();
  const running = new Map<string, Running>();
  const queue = new Queue(name, { connection: redis.client, prefix });
  queue.on('error', (error: Error) => log.warn({ err: error, queue: name }, 'job queue: redis error'));
  let pending: Publish[] = [];
  let worker: Worker | undefined;
  const leases = watchLeases(db, log, leaseMs, running, { queue: name });
  let sweepTimer: NodeJS.Timeout | undefined;

  async function publish(jobs: Publish[]): Promise<void> {
    const now = Date.now();
    await queue.addBulk(
      jobs.map((job) => ({
        name: job.kind,
        data: {},
        opts: {
          jobId: job.id,
          delay: job.runAfter ? Math.max(0, job.runAfter.getTime() - now) : 0,
          removeOnComplete: true,
          removeOnFail: true,
          // Retries of the job itself are counted in its row; these cover a delivery that failed to
          // reach the database.
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
        },
      })),
    );
  }

  function relay(): void {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    publish(batch).catch((error: unknown) => log.warn({ err: error, queue: name }, 'job queue: handing jobs to redis failed; the sweep retries'));
  }

  /** Adds every queued row of this queue's kinds to Redis again; ids already there are left as they are. */
  async function sweep(): Promise<void> {
    if (handlers.size === 0) return;
    try {
      const rows = await pendingJobs(db, [...handlers.keys()]);
      if (rows.length) await publish(rows.map((row) => ({ id: row.id, kind: row.kind, runAfter: row.run_after })));
    } catch (error) {
      log.warn({ err: error, queue: name }, 'job queue: sweep failed');
    }
  }

  /** Puts the delivery back for later (its row is not due yet, or a dead run's lease still holds). */
  async function later(job: Job, token: string | undefined, at: number): Promise<never> {
    await job.moveToDelayed(Math.max(at, Date.now() + 10), token);
    throw new DelayedError();
  }

  async function deliver(job: Job, token?: string): Promise<void> {
    const id = job.id!;
    const claimSentAt = Date.now();
    const row = await claimById(db, id, leaseMs);
    if (!row) {
      const state = await jobState(db, id);
      if (!state) {
        // Published before its transaction committed (another request's wake() may relay it early),
        // or rolled back: looked at again a few times, then dropped (the sweep covers a late commit).
        const misses = Number((job.data as { misses?: number }).misses ?? 0);
        if (misses >= MISSING_ROW_CHECKS) return;
        await job.updateData({ misses: misses + 1 });
        return later(job, token, Date.now() + 500 * (misses + 1));
      }
      if (state.status !== 'queued' && state.status !== 'running') return; // ended or cancelled
      const at = state.status === 'queued' ? state.run_after.getTime() : (state.lease_until?.getTime() ?? Date.now()) + 100;
      return later(job, token, at);
    }
    const handler = handlers.get(row.kind);
    if (!handler || !worker) {
      // A kind this process does not run (an older version during a rollout): leave it to another.
      await handBackJob(db, id, row.attempts);
      return later(job, token, Date.now() + 5_000);
    }
    if (row.attempts > row.max_attempts) {
      await finishJob(db, row, 'failed', 'interrupted too many times'); // it keeps killing its worker
      return;
    }
    const controller = new AbortController();
    running.set(id, { controller, attempt: row.attempts });
    leases.claimed(id, claimSentAt);
    try {
      const outcome = await executeJob(db, log, row, handler, controller.signal, backoffMs);
      if (outcome.end === 'retry') return await later(job, token, Date.now() + outcome.delayMs);
      if (outcome.end === 'aborted' && controller.signal.reason instanceof JobShutdown) {
        // Not a failure: the next worker runs it. A lost lease has run out anyway (the row is due again),
        // so a hand-back that cannot reach the database is no loss.
        const handBack = handBackJob(db, id, row.attempts);
        await (controller.signal.reason instanceof JobLeaseLost ? handBack.catch(() => undefined) : handBack);
        return await later(job, token, Date.now());
      }
    } finally {
      running.delete(id);
      leases.ended(id);
    }
  }

  return {
    register<Payload>(kind: string, handler: JobHandler<Payload>): void {
      handlers.set(kind, handler as JobHandler<unknown>);
    },

    async enqueue(kind: string, payload: unknown, enqueueOptions: EnqueueOptions = {}): Promise<string> {
      const id = enqueueOptions.id ?? newId();
      const requestId = enqueueOptions.requestId === undefined ? currentRequestId() : enqueueOptions.requestId;
      const runAfter = enqueueOptions.runAfter ?? null;
      await insertJob(enqueueOptions.tx ?? db, { id, kind, payload, maxAttempts: enqueueOptions.maxAttempts ?? 3, runAfter, requestId });
      // Inside a transaction: handed to Redis by wake() after the commit (the outbox); else now.
      pending.push({ id, kind, runAfter });
      if (!enqueueOptions.tx) relay();
      return id;
    },

    async cancel(id: string): Promise<void> {
      if (await cancelJob(db, id)) await redis.announceCancel(id).catch(() => undefined); // else lease renewal notices
      running.get(id)?.controller.abort(new JobCancelled());
      while (running.has(id)) await new Promise((resolve) => setTimeout(resolve, 10));
    },

    wake(): void {
      relay();
    },

    async start(): Promise<void> {
      if (worker) return;
      redis.onCancel((id) => running.get(id)?.controller.abort(new JobCancelled()));
      worker = new Worker(name, deliver, {
        connection: redis.client,
        prefix,
        concurrency,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        // The row counts the job's tries; stalls alone never fail it.
        maxStalledCount: 1_000,
      });
      worker.on('error', (error: Error) => log.warn({ err: error, queue: name }, 'job worker: redis error'));
      worker.on('failed', (job, error) => log.warn({ err: error, jobId: job?.id, queue: name }, 'job delivery failed'));
      leases.start();
      sweepTimer = setInterval(() => void sweep(), sweepMs);
      sweepTimer.unref();
      await sweep();
    },

    async stop(): Promise<void> {
      leases.stop();
      clearInterval(sweepTimer);
      relay();
      if (worker) {
        const closing = worker.close(); // takes no new job; waits for those in flight
        for (const entry of running.values()) entry.controller.abort(new JobShutdown());
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), stopTimeoutMs)));
        // A handler still busy after the grace period keeps its row: its lease runs out, its delivery stalls.
        if ((await Promise.race([closing, timeout])) === 'timeout') await worker.close(true);
        clearTimeout(timer);
        worker = undefined;
      }
      await queue.close();
    },
  };
}

