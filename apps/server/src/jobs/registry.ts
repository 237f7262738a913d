/**
 * The typed job registry: each job kind is declared once with defineJob (its name, payload schema,
 * queue, concurrency and attempts), its handler registered on ctx.jobs at boot (in every process:
 * one that does not run jobs still queues them), and queued by its definition. Payloads are checked
 * when queued and again when run. Declaration and handler are apart so that code the handler calls
 * can queue the kind (a mailing run queues the next run) without an import cycle.
 *
 *   export const mergeJob = defineJob({
 *     name: 'merge', queue: 'merges', payload: z.object({ mergeId: z.string(), ownerId: z.string() }),
 *     maxAttempts: 3, concurrency: (config) => config.MERGE_CONCURRENCY,
 *   });
 *   ctx.jobs.register(mergeJob, (payload, job) => runMergeJob(ctx, payload, job));   // at boot
 *   await ctx.jobs.enqueue(mergeJob, payload, { id: mergeId, tx });   // then ctx.jobs.wake() after commit
 *
 * A queue is a lane with its own concurrency: a kind that waits on other jobs must not share a queue
 * with them (it could hold every slot while they wait).
 */
import type { z } from 'zod';
import type { Config } from '../config.ts';

export interface JobDefinition<Payload = unknown> {
  readonly name: string;
  readonly queue: string;
  readonly payload: z.ZodType<Payload>;
  /** Jobs of this queue run at once per process (the queue takes the largest of its kinds). Default 1. */
  readonly concurrency?: number | ((config: Config) => number);
  /** Attempts before a job fails for good (a crash counts as one). Default 3. */
  readonly maxAttempts?: number;
}

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  if (!/^[a-z][a-z0-9-]*$/.test(definition.name) || !/^[a-z][a-z0-9-]*$/.test(definition.queue)) {
    throw new Error(`job ${definition.name}: name and queue are lowercase words with dashes`);
  }
  return Object.freeze({ ...definition });
}

/** A payload that does not match its kind's schema: a programming error, never retried. */
export class InvalidJobPayload extends Error {
  constructor(kind: string, issues: string) {
    super(`invalid payload for job ${kind}: ${issues}`);
    this.name = 'InvalidJobPayload';
  }
}

export function checkPayload<Payload>(definition: JobDefinition<Payload>, payload: unknown): Payload {
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'} ${issue.message}`).join('; ');
    throw new InvalidJobPayload(definition.name, issues);
  }
  return parsed.data;
}
