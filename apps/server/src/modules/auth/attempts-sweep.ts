/**
 * The auth_attempts sweep: a key's old attempts are forgotten only when that key is tried again
 * (recordAttempt), so an attacker trying many keys (addresses, accounts) once each would grow the
 * table for good. A daily job deletes every attempt older than the longest window any limit counts.
 *
 * One job per UTC day, id "auth-attempts-sweep.<date>": the enqueue is idempotent, so however many
 * processes start, a day's sweep runs once; each run queues the next day's, and every start queues
 * today's (a no-op when it exists), so the chain resumes after any outage.
 */
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/registry.ts';
import { LONGEST_WINDOW_SECONDS } from './rate-limits.ts';
import { deleteAttemptsOlderThan } from './repository.ts';
import { deleteExpiredFlows } from './oauth-repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: a large backlog goes in short transactions, not one long lock. */
const BATCH = 5_000;

export const attemptsSweepJob = defineJob<{ day: string }>({
  name: 'auth-attempts-sweep',
  // Its own lane: a long merge or mailing never holds it up, nor it them.
  queue: 'maintenance',
  payload: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  maxAttempts: 3,
});

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

async function enqueueSweep(ctx: AppContext, day: string): Promise<void> {
  const runAfter = new Date(`${day}T00:00:00Z`);
  await ctx.jobs.enqueue(attemptsSweepJob, { day }, { id: `${attemptsSweepJob.name}.${day}`, runAfter, requestId: null });
}

/** Deletes attempts older than the longest window; returns how many went. */
export async function sweepAttempts(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  let deleted = 0;
  for (;;) {
    signal?.throwIfAborted();
    const gone = await deleteAttemptsOlderThan(ctx.db, LONGEST_WINDOW_SECONDS, BATCH);
    deleted += gone;
    if (gone < BATCH) return deleted;
  }
}

/** Registers the sweep's kind and queues today's run (at boot, in every process). */
export async function registerAuthJobs(ctx: AppContext): Promise<void> {
  ctx.jobs.register(attemptsSweepJob, async ({ day }, job) => {
    const deleted = await sweepAttempts(ctx, job.signal);
    if (deleted) ctx.log.info({ deleted }, 'old sign-in and code attempts deleted');
    // Sign-ins with a provider never finished (docs/accounts.md#social-sign-in): gone with the day, whoever signs in next.
    const flows = await deleteExpiredFlows(ctx.db);
    if (flows) ctx.log.info({ deleted: flows }, 'expired provider sign-ins deleted');
    // The day after this one, or after today for a run that comes late (no chain of catch-up runs).
    await enqueueSweep(ctx, dayOf(Math.max(new Date(`${day}T00:00:00Z`).getTime(), Date.now()) + DAY_MS));
  });
  await enqueueSweep(ctx, dayOf(Date.now()));
}
