/**
 * ctx.jobs: the job kinds of the process (registry.ts) over one runner per queue, on the back end the
 * configuration picks (the table, or BullMQ on Redis). Every process registers every kind (so it can
 * queue them); only a process that runs jobs (`sheaf serve`, `sheaf worker`, not `serve --no-jobs`)
 * starts the runners.
 */
import { isSheafError } from '@sheaf/shared';
import type { Config } from '../config.ts';
import { isConnectionError } from '../adapters/db/connection-errors.ts';
import type { ErrorReporter } from '../adapters/reporting/index.ts';
import type { JobLog } from './execute.ts';
import { checkPayload, type JobDefinition } from './registry.ts';
import type { EnqueueOptions, JobHandler, JobQueue } from './types.ts';

/** Makes the runner of one queue (runner.ts or bullmq-runner.ts). */
export interface JobBackend {
  readonly name: 'database' | 'redis';
  createQueue(queue: string, concurrency: number): JobQueue;
  /** Throws when the back end cannot take jobs now (for /readyz). */
  ping(): Promise<void>;
  /** After every queue stopped: connections closed. */
  close(): Promise<void>;
}

export interface Jobs {
  readonly backend: JobBackend['name'];
  /** Adds a job kind and its handler. Every process registers every kind (to queue it, if not to run it). */
  register<Payload>(definition: JobDefinition<Payload>, handler: JobHandler<Payload>): void;
  /** Queues a job (payload checked against the kind's schema); `id` makes it idempotent. */
  enqueue<Payload>(definition: JobDefinition<Payload>, payload: Payload, options?: EnqueueOptions): Promise<string>;
  /** Marks a job cancelled and stops it where it runs; resolves when it no longer runs in this process. */
  cancel(id: string): Promise<void>;
  /** After a transaction that queued jobs committed: hands them to the runners now. */
  wake(): void;
  /** Starts running jobs in this process (not called by `serve --no-jobs`). */
  start(): Promise<void>;
  /** Stops taking work; jobs in flight finish or are handed back. Then the back end closes. */
  stop(): Promise<void>;
  ping(): Promise<void>;
}

interface QueueEntry {
  /** The queue's kinds by name. */
  definitions: Map<string, { concurrency: number; handler: JobHandler<unknown> }>;
  runner?: JobQueue;
}

/**
 * A crash worth reporting (docs/support.md#error-reports): not a user's error (a catalogue code), not a
 * stop (cancel, shutdown, lost lease: the signal says so), not the database going away for a while.
 */
function isCrash(error: unknown, signal: AbortSignal): boolean {
  return !signal.aborted && !isSheafError(error) && !isConnectionError(error);
}

export function createJobs(backend: JobBackend, config: Config, log: JobLog, reporter?: ErrorReporter): Jobs {
  const queues = new Map<string, QueueEntry>();
  const kinds = new Map<string, JobDefinition<unknown>>();
  let started = false;
  let stopped = false;

  /**
   * The queue's runner, made when first needed (start, or a first enqueue or cancel) with the largest
   * concurrency of the kinds registered by then: register every kind at boot before that.
   */
  function runnerOf(name: string): JobQueue {
    const entry = queues.get(name)!;
    if (!entry.runner) {
      const concurrency = Math.max(1, ...[...entry.definitions.values()].map((kind) => kind.concurrency));
      entry.runner = backend.createQueue(name, concurrency);
      for (const [kind, { handler }] of entry.definitions) entry.runner.register(kind, handler);
    }
    return entry.runner;
  }

  return {
    backend: backend.name,

    register<Payload>(definition: JobDefinition<Payload>, run: JobHandler<Payload>): void {
      const known = kinds.get(definition.name);
      if (known && known !== (definition as unknown)) throw new Error(`job kind ${definition.name} is defined twice`);
      kinds.set(definition.name, definition as JobDefinition<unknown>);
      const entry: QueueEntry = queues.get(definition.queue) ?? { definitions: new Map() };
      queues.set(definition.queue, entry);
      const concurrency = typeof definition.concurrency === 'function' ? definition.concurrency(config) : (definition.concurrency ?? 1);
      // Checked again when run: a row may have been written by an older version, or by hand.
      const handler: JobHandler<unknown> = async (payload, job) => {
        try {
          return await run(checkPayload(definition, payload), job);
        } catch (error) {
          if (reporter?.enabled && isCrash(error, job.signal)) {
            reporter.report(error, { requestId: job.requestId, jobId: job.id, jobKind: definition.name, attempt: job.attempt });
          }
          throw error;
        }
      };
      entry.definitions.set(definition.name, { concurrency, handler });
      if (entry.runner) entry.runner.register(definition.name, handler);
      else if (started) {
        // A kind registered after start (the mailings, started after the merges): its queue starts now.
        void runnerOf(definition.queue).start().catch((error: unknown) => log.error({ err: error, queue: definition.queue }, 'job queue failed to start'));
      }
    },

    async enqueue<Payload>(definition: JobDefinition<Payload>, payload: Payload, options: EnqueueOptions = {}): Promise<string> {
      if (kinds.get(definition.name) !== (definition as unknown)) throw new Error(`job kind ${definition.name} is not registered`);
      const checked = checkPayload(definition, payload);
      return runnerOf(definition.queue).enqueue(definition.name, checked, { maxAttempts: definition.maxAttempts ?? 3, ...options });
    },

    async cancel(id: string): Promise<void> {
      // The id does not say its queue: each runner marks the row (once) and stops the job if it runs there.
      await Promise.all([...queues.keys()].map((name) => runnerOf(name).cancel(id)));
    },

    wake(): void {
      for (const entry of queues.values()) entry.runner?.wake();
    },

    async start(): Promise<void> {
      if (started) return;
      started = true;
      for (const name of queues.keys()) await runnerOf(name).start();
    },

    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      started = false;
      await Promise.all([...queues.values()].map((entry) => entry.runner?.stop()));
      await backend.close();
    },

    ping: () => backend.ping(),
  };
}
