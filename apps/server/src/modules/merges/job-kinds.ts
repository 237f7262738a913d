/** The merges module's job kinds (jobs/registry.ts); their handlers are registered in jobs.ts. */
import { z } from 'zod';
import { defineJob } from '../../jobs/registry.ts';
import { MERGE_MAX_ATTEMPTS, type MergeJobPayload } from './run-merge.ts';

/** Makes one merge's documents (run-merge.ts). The job id is the merge id. */
export const mergeJob = defineJob<MergeJobPayload>({
  name: 'merge',
  queue: 'merges',
  payload: z.object({ mergeId: z.string().min(1), ownerId: z.string().min(1) }),
  maxAttempts: MERGE_MAX_ATTEMPTS,
  concurrency: (config) => config.MERGE_CONCURRENCY,
});
