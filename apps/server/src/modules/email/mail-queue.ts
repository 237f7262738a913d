/**
 * Mailings run in their own queue ('mailings', jobs/registry.ts), so a long mailing never holds up
 * other users' merges. A mailing is a chain of job runs: each run sends what is due and either
 * completes the mailing or enqueues the next run for when the next retry is due. Run r of a merge's
 * mailing has the job id "<mergeId>.m<r>".
 */
import { z } from 'zod';
import type { Queryable } from '../../adapters/db/types.ts';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/registry.ts';

/** Crashes a run survives before its job gives up. */
export const MAILING_JOB_ATTEMPTS = 10;
/** Mailings sent at the same time by one process (each with MAIL_CONCURRENCY connections). */
const MAILINGS_AT_ONCE = 2;

export interface MailingJobPayload {
  mergeId: string;
  ownerId: string;
}

export const mailingJob = defineJob<MailingJobPayload>({
  name: 'mailing',
  queue: 'mailings',
  payload: z.object({ mergeId: z.string().min(1), ownerId: z.string().min(1) }),
  maxAttempts: MAILING_JOB_ATTEMPTS,
  concurrency: MAILINGS_AT_ONCE,
});

export const MAILING_JOB = mailingJob.name;

export const mailingJobId = (mergeId: string, round: number) => `${mergeId}.m${round}`;

/** Queues run `round` of a mailing inside the caller's transaction; call wakeMailings() after the commit. */
export async function enqueueMailingRun(ctx: AppContext, tx: Queryable, payload: MailingJobPayload, round: number, runAfter?: Date): Promise<void> {
  await ctx.jobs.enqueue(mailingJob, payload, { id: mailingJobId(payload.mergeId, round), tx, runAfter });
}

export function wakeMailings(ctx: AppContext): void {
  ctx.jobs.wake();
}

/** Stops the mailing's run; resolves once it no longer runs in this process. */
export async function stopMailingRun(ctx: AppContext, mergeId: string, round: number): Promise<void> {
  await ctx.jobs.cancel(mailingJobId(mergeId, round));
}
