/**
 * Runs one claimed job's handler and records how it ended in its row, the same way for every back
 * end: done; failed (a user error, or out of attempts); queued again after a backoff; or aborted
 * (cancelled: the row says so already; shutting down: the caller hands the job back).
 */
import type { FastifyBaseLogger } from 'fastify';
import { isSheafError } from '@sheaf/shared';
import { isConnectionError, whenDatabaseAnswers } from '../adapters/db/connection-errors.ts';
import type { Db } from '../adapters/db/types.ts';
import { InvalidJobPayload } from './registry.ts';
import { runInScope } from './request-scope.ts';
import { finishJob, retryJob, type JobRow } from './rows.ts';
import type { JobHandler } from './types.ts';

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export type JobOutcome = { end: 'done' } | { end: 'failed' } | { end: 'retry'; delayMs: number } | { end: 'aborted' };

const MAX_BACKOFF_MS = 10 * 60_000;
/**
 * How long the outcome of a run is written again while the database is away (a restart): without it
 * the row would stay 'running' until its lease ran out, and the job would wait that long after the
 * database came back. Each write names its attempt, so a late one never overwrites a newer claim.
 */
const RECORD_OUTCOME_MS = 10 * 60_000;
const record = (write: () => Promise<void>) => whenDatabaseAnswers(write, RECORD_OUTCOME_MS);

export async function executeJob(db: Db, log: JobLog, job: JobRow, handler: JobHandler<unknown>, signal: AbortSignal, backoffMs: number): Promise<JobOutcome> {
  // Every log line written while the job runs carries its id and the request that queued it.
  return runInScope({ requestId: job.request_id, jobId: job.id, jobKind: job.kind }, async () => {
    log.info({ jobId: job.id, kind: job.kind, attempt: job.attempts }, 'job started');
    try {
      await handler(job.payload, { signal, attempt: job.attempts, id: job.id, requestId: job.request_id });
    } catch (error) {
      if (signal.aborted) return { end: 'aborted' } as const;
      const message = error instanceof Error ? error.message : String(error);
      // A user error (or a payload that does not fit its kind) does not improve by trying again.
      const permanent = isSheafError(error) || error instanceof InvalidJobPayload;
      if (permanent || job.attempts >= job.max_attempts) {
        log.warn({ err: error, jobId: job.id, kind: job.kind }, 'job failed');
        await record(() => finishJob(db, job, 'failed', isSheafError(error) ? `${error.code}: ${message}` : message));
        return { end: 'failed' } as const;
      }
      // The database went away under the job: the try is over, the next one starts once it is back.
      const delayMs = isConnectionError(error) ? backoffMs : Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (job.attempts - 1));
      log.warn({ err: error, jobId: job.id, kind: job.kind, retryInMs: delayMs }, 'job failed, will retry');
      await record(() => retryJob(db, job, delayMs, message));
      return { end: 'retry', delayMs } as const;
    }
    await record(() => finishJob(db, job, 'done', null));
    log.info({ jobId: job.id, kind: job.kind }, 'job done');
    return { end: 'done' } as const;
  });
}
