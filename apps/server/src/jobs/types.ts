import type { Queryable } from '../adapters/db/types.ts';

/**
 * Durable background work. Jobs live in the `jobs` table, so a restart finds them again; the default
 * runner executes them in this process, a BullMQ runner on Redis can take over later (REDIS_URL).
 */
export interface JobContext {
  /**
   * Set when the job was cancelled or the server is shutting down: handlers stop at the next row.
   * `signal.reason` tells which (see `isShutdown` in runner.ts): a shutdown must not be taken as a cancel.
   * A handler that stops for either reason throws; returning normally marks the job done.
   */
  readonly signal: AbortSignal;
  /** Attempt number, from 1. */
  readonly attempt: number;
}

export type JobHandler<Payload = unknown> = (payload: Payload, context: JobContext) => Promise<void>;

export interface EnqueueOptions {
  /** Makes the enqueue idempotent: a second enqueue with the same id is ignored. */
  id?: string;
  /** Inserts the job inside this transaction; call `wake()` once it has committed. */
  tx?: Queryable;
  /** Attempts before the job fails for good (default 3). */
  maxAttempts?: number;
  /** Not before this time (a retry scheduled for later); default now. */
  runAfter?: Date;
}

export interface JobQueue {
  register<Payload>(kind: string, handler: JobHandler<Payload>): void;
  /** Queues a job; `id` makes it idempotent (a second enqueue with the same id is ignored). */
  enqueue(kind: string, payload: unknown, options?: EnqueueOptions): Promise<string>;
  /** Asks a running or queued job to stop; resolves when it is no longer running. */
  cancel(id: string): Promise<void>;
  /** Looks for work now instead of at the next poll (after a transaction that enqueued a job). */
  wake(): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}
