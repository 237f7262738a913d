import type { Queryable } from '../adapters/db/types.ts';

/**
 * Durable background work. Every job is a row of the `jobs` table (the record: status, attempts,
 * errors, the request that asked for it); a runner back end executes it: the table itself
 * (runner.ts, the embedded default) or BullMQ on Redis (bullmq-runner.ts, when REDIS_URL is set).
 * Job kinds are declared with defineJob (registry.ts) and registered on ctx.jobs (system.ts).
 */
export interface JobContext {
  /**
   * Set when the job was cancelled or the process is shutting down: handlers stop at the next row.
   * `signal.reason` tells which (see `isShutdown` in signals.ts): a shutdown must not be taken as a cancel.
   * A handler that stops for either reason throws; returning normally marks the job done.
   */
  readonly signal: AbortSignal;
  /** Attempt number, from 1. */
  readonly attempt: number;
  /** The job's id (its row in `jobs`). */
  readonly id: string;
  /** The id of the HTTP request that queued the job, if one did (also on every log line of the job). */
  readonly requestId: string | null;
}

export type JobHandler<Payload = unknown> = (payload: Payload, context: JobContext) => Promise<void>;

export interface EnqueueOptions {
  /** Makes the enqueue idempotent: a second enqueue with the same id is ignored. */
  id?: string;
  /** Inserts the job inside this transaction; call `wake()` once it has committed. */
  tx?: Queryable;
  /** Attempts before the job fails for good (default: the kind's maxAttempts, else 3). */
  maxAttempts?: number;
  /** Not before this time (a retry scheduled for later); default now. */
  runAfter?: Date;
  /** The request that asks for the job; default: the request being served (request-scope.ts). */
  requestId?: string | null;
}

/** One runner back end, working on job kinds by name (the table runner; the BullMQ runner). */
export interface JobQueue {
  register<Payload>(kind: string, handler: JobHandler<Payload>): void;
  /** Queues a job; `id` makes it idempotent (a second enqueue with the same id is ignored). */
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<string>;
  /** Asks a running or queued job to stop; resolves when it is no longer running here. */
  cancel(id: string): Promise<void>;
  /** Looks for work now instead of at the next poll (after a transaction that enqueued a job). */
  wake(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}
