/**
 * Mailings run on their own job runner (same jobs table, kind 'mailing'), so a long mailing never
 * holds up other users' merges. A mailing is a chain of job runs: each run sends what is due and
 * either completes the mailing or enqueues the next run for when the next retry is due. Run r of
 * a merge's mailing has the job id "<mergeId>.m<r>".
 */
import type { Queryable } from '../../adapters/db/types.ts';
import type { AppContext } from '../../context.ts';
import { createJobQueue } from '../../jobs/runner.ts';
import type { JobQueue } from '../../jobs/types.ts';

export const MAILING_JOB = 'mailing';
/** Crashes a run survives before its job gives up. */
export const MAILING_JOB_ATTEMPTS = 10;
/** Mailings sent at the same time by one server process (each with MAIL_CONCURRENCY connections). */
const MAILINGS_AT_ONCE = 2;

export interface MailingJobPayload {
  mergeId: string;
  ownerId: string;
}

const queues = new WeakMap<AppContext, JobQueue>();

export function createMailQueue(ctx: AppContext): JobQueue {
  const queue = createJobQueue(ctx.db, ctx.log, { concurrency: MAILINGS_AT_ONCE });
  queues.set(ctx, queue);
  return queue;
}

export const mailingJobId = (mergeId: string, round: number) => `${mergeId}.m${round}`;

/** Queues run `round` of a mailing inside the caller's transaction; call wakeMailings() after the commit. */
export async function enqueueMailingRun(ctx: AppContext, tx: Queryable, payload: MailingJobPayload, round: number, runAfter?: Date): Promise<void> {
  await ctx.jobs.enqueue(MAILING_JOB, payload, { id: mailingJobId(payload.mergeId, round), tx, maxAttempts: MAILING_JOB_ATTEMPTS, runAfter });
}

export function wakeMailings(ctx: AppContext): void {
  queues.get(ctx)?.wake();
}

/** Stops the mailing's run if it runs in this process; resolves once it has stopped. */
export async function stopMailingRun(ctx: AppContext, mergeId: string, round: number): Promise<void> {
  await queues.get(ctx)?.cancel(mailingJobId(mergeId, round));
}
