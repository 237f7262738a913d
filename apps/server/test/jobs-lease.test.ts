/**
 * A run whose lease renewals keep failing (its database out of reach from this process) stops itself,
 * as at a shutdown, before its lease runs out and another runner can claim the job; renewals failing
 * for less than the lease leave the run alone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/adapters/db/types.ts';
import { createJobQueue, isShutdown, JobLeaseLost, type JobLog, type JobQueueOptions } from '../src/jobs/runner.ts';
import type { JobHandler, JobQueue } from '../src/jobs/types.ts';
import { newId } from '../src/ids.ts';
import { jobWritesLost } from './db-faults.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';

const silent: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface AbortableRun {
  attempt: number;
  startedAt: number;
  abortedAt?: number;
  reason?: unknown;
  shutdown?: boolean;
}

/** A handler that runs until its signal is aborted, noting when and why. */
function untilAborted(runs: AbortableRun[]): JobHandler<unknown> {
  return async (_payload, context) => {
    const run: AbortableRun = { attempt: context.attempt, startedAt: Date.now() };
    runs.push(run);
    await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
    Object.assign(run, { abortedAt: Date.now(), reason: context.signal.reason, shutdown: isShutdown(context.signal) });
    context.signal.throwIfAborted();
  };
}

forEachDatabase((database) => {
  describe('job lease', () => {
    let server: TestServer;
    const queues: JobQueue[] = [];

    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(async () => {
      for (const queue of queues) await queue.stop();
      await server.close();
    });

    async function runner(db: Db, kind: string, handler: JobHandler<unknown>, options: JobQueueOptions, log: JobLog = silent): Promise<JobQueue> {
      const queue = createJobQueue(db, log, { pollMs: 25, backoffMs: 40, ...options });
      queue.register(kind, handler);
      await queue.start();
      queues.push(queue);
      return queue;
    }

    const status = async (id: string) =>
      (await server.ctx.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM jobs WHERE id = $1', [id]))[0];

    it('stops a run as handed back when its renewals fail until the lease runs out, before another runner claims the job', async () => {
      const kind = `lease-lost-${newId()}`;
      const leaseMs = 600;
      const db = jobWritesLost(server.ctx.db);
      const warnings: Array<{ fields: unknown; message: string }> = [];
      const log: JobLog = { ...silent, warn: (fields: unknown, message?: string) => void warnings.push({ fields, message: message ?? '' }) };
      const firstRuns: AbortableRun[] = [];
      const first = await runner(db, kind, untilAborted(firstRuns), { leaseMs }, log);
      const id = await first.enqueue(kind, {});
      await vi.waitFor(() => expect(firstRuns).toHaveLength(1), { timeout: 15_000, interval: 20 });

      // The database goes out of reach for this runner only; another runner still reaches it.
      db.failUpdates = true;
      const secondRuns: Array<{ attempt: number; startedAt: number }> = [];
      await runner(server.ctx.db, kind, async (_payload, context) => void secondRuns.push({ attempt: context.attempt, startedAt: Date.now() }), { leaseMs });
      await vi.waitFor(async () => expect(await status(id)).toEqual({ status: 'done', attempts: 2 }), { timeout: 15_000, interval: 20 });

      const [lost] = firstRuns;
      expect(lost!.reason).toBeInstanceOf(JobLeaseLost);
      expect(lost!.shutdown).toBe(true);
      expect(lost!.abortedAt).toBeLessThanOrEqual(secondRuns[0]!.startedAt);
      expect(secondRuns).toEqual([{ attempt: 2, startedAt: expect.any(Number) }]);
      expect(warnings).toContainEqual({ fields: expect.objectContaining({ jobId: id, leaseMs }), message: expect.stringContaining('job lease lost') });
      db.failUpdates = false;
    });

    it('keeps a run whose renewals failed for less than the lease', async () => {
      const kind = `lease-kept-${newId()}`;
      const leaseMs = 1_500;
      const db = jobWritesLost(server.ctx.db);
      const runs: AbortableRun[] = [];
      const queue = await runner(db, kind, untilAborted(runs), { leaseMs });
      const id = await queue.enqueue(kind, {});
      await vi.waitFor(() => expect(runs).toHaveLength(1), { timeout: 15_000, interval: 20 });

      // One renewal (a third of the lease) fails; the two after it succeed.
      const before = db.renewals;
      db.failNextRenewals = 1;
      await vi.waitFor(() => expect(db.renewals).toBeGreaterThanOrEqual(before + 3), { timeout: 15_000, interval: 20 });
      expect(db.failNextRenewals).toBe(0);
      expect(runs[0]!.abortedAt).toBeUndefined();
      expect(await status(id)).toEqual({ status: 'running', attempts: 1 });
      await queue.cancel(id);
    });
  });
});
