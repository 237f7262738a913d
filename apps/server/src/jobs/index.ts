/** Background jobs: declare a kind with defineJob, register it on ctx.jobs, queue it by its definition. */
export { defineJob, type JobDefinition } from './registry.ts';
export type { Jobs } from './system.ts';
export type { JobContext, EnqueueOptions } from './types.ts';
export { isShutdown, JobCancelled, JobShutdown } from './signals.ts';
