/**
 * Registers the 'merge' job handler (the kind is declared in job-kinds.ts) and settles merges a
 * previous process left behind: a merge that is queued or generating must have a job that can still
 * move it, else it ends in merge/interrupted (no merge stays "generating" forever).
 */
import { formatErrorMessage } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { findStrandedMerges, markEnded } from './repository.ts';
import { runMergeJob } from './run-merge.ts';
import { mergeJob } from './job-kinds.ts';
import { registerRangeJobs } from './run-range.ts';

export async function registerMergeJobs(ctx: AppContext): Promise<void> {
  ctx.jobs.register(mergeJob, (payload, job) => runMergeJob(ctx, payload, job));
  registerRangeJobs(ctx); // 'merge-range': the ranges of a large merge (run-range.ts)
  await reconcileMerges(ctx);
}

/** Ends every merge whose job row is missing, done, failed or cancelled. Returns how many. */
export async function reconcileMerges(ctx: AppContext): Promise<number> {
  const stranded = await findStrandedMerges(ctx.db);
  const error = { code: 'merge/interrupted', message: formatErrorMessage('merge/interrupted') };
  for (const merge of stranded) await markEnded(ctx.db, merge.owner_id, merge.id, 'error', error);
  if (stranded.length) ctx.log.warn({ merges: stranded.map((merge) => merge.id) }, 'merges interrupted by a restart');
  return stranded.length;
}
