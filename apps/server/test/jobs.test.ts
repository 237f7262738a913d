/** The durable job runner on a real database: claims, retries, cancel, stop and resume. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SheafError } from '@sheaf/shared';
import type { Db } from '../src/adapters/db/types.ts';
import { createJobQueue, isShutdown, JobCancelled, type JobQueueOptions } from '../src/jobs/runner.ts';
import type { JobHandler, JobQueue } from '../src/jobs/types.ts';
import { newId } from '../src/ids.ts';
import { forEachDatabase, startTestServer } from './harness.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface JobRecord {
  status: string;
  attempts: number;
  last_error: string | null;
}

forEachDatabase((database) => {
  describe('job runner', () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    let db: Db;
    const queues: JobQueue[] = [];

    beforeAll(async () => {
      server = await startTestServer({ database });
      db = server.ctx.db;
    });
    afterAll(async () => {
      for (const queue of queues) await queue.stop();
      await server.close();
    });

    /** A started runner; each test uses its own job kind, so runners of other tests leave its jobs alone. */
    async function runner(kind: string, handler: JobHandler<{ n?: number }>, options: JobQueueOptions = {}): Promise<JobQueue> {
      const queue = createJobQueue(db, silent, { pollMs: 25, backoffMs: 40, leaseMs: 3_000, ...options });
      queue.register(kind, handler);
      await queue.start();
      queues.push(queue);
      return queue;
    }

    async function job(id: string): Promise<JobRecord> {
      const [row] = await db.query<JobRecord>('SELECT status, attempts, last_error FROM jobs WHERE id = $1', [id]);
      return row!;
    }

    const waitForStatus = (id: string, status: string) =>
      vi.waitFor(async () => expect((await job(id)).status).toBe(status), { timeout: 15_000, interval: 20 });

    it('runs each job exactly once when two runners share the database', async () => {
      const kind = `count-${newId()}`;
      const runs: string[] = [];
      const handler: JobHandler<{ n?: number }> = async (payload) => {
        runs.push(String(payload.n));
      };
      const first = await runner(kind, handler, { concurrency: 3 });
      await runner(kind, handler, { concurrency: 3 });
      const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => first.enqueue(kind, { n })));
      for (const id of ids) await waitForStatus(id, 'done');
      expect(runs.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 30 }, (_, n) => String(n)));
    });

    it('ignores a second enqueue with the same id', async () => {
      const kind = `once-${newId()}`;
      let runs = 0;
      const queue = await runner(kind, async () => {
        runs++;
      });
      const id = newId();
      await queue.enqueue(kind, {}, { id });
      await waitForStatus(id, 'done');
      await queue.enqueue(kind, {}, { id });
      expect(await job(id)).toMatchObject({ status: 'done', attempts: 1 });
      expect(runs).toBe(1);
    });

    it('starts an enqueued job at once, without waiting for the next poll', async () => {
      const kind = `wake-${newId()}`;
      const queue = await runner(kind, async () => undefined, { pollMs: 600_000 });
      const id = await queue.enqueue(kind, {});
      await waitForStatus(id, 'done');
    });

    it('retries a failing job with growing delays, then marks it failed', async () => {
      const kind = `flaky-${newId()}`;
      const attempts: { attempt: number; at: number }[] = [];
      const queue = await runner(kind, async (_payload, context) => {
        attempts.push({ attempt: context.attempt, at: Date.now() });
        throw new Error('disk full');
      });
      const id = await queue.enqueue(kind, {}, { maxAttempts: 3 });
      await waitForStatus(id, 'failed');
      expect(await job(id)).toMatchObject({ attempts: 3, last_error: 'disk full' });
      expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
      // Backoff 40 ms, then 80 ms (the database clock and ours may differ by a few ms).
      expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(30);
      expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(70);
    });

    it('completes a job that succeeds on a retry', async () => {
      const kind = `second-${newId()}`;
      const queue = await runner(kind, async (_payload, context) => {
        if (context.attempt === 1) throw new Error('connection reset');
      });
      const id = await queue.enqueue(kind, {});
      await waitForStatus(id, 'done');
      expect((await job(id)).attempts).toBe(2);
    });

    it('fails a job at once when it throws a SheafError (a user error does not improve)', async () => {
      const kind = `user-error-${newId()}`;
      const queue = await runner(kind, async () => {
        throw new SheafError('merge/no-placeholders');
      });
      const id = await queue.enqueue(kind, {});
      await waitForStatus(id, 'failed');
      const record = await job(id);
      expect(record.attempts).toBe(1);
      expect(record.last_error).toContain('merge/no-placeholders');
    });

    it('cancel aborts the running job and marks a queued one cancelled before it runs', async () => {
      const kind = `cancel-${newId()}`;
      const started: number[] = [];
      let reason: unknown;
      const queue = await runner(kind, async (payload, context) => {
        started.push(payload.n!);
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        reason = context.signal.reason;
        context.signal.throwIfAborted();
      }, { concurrency: 1 });
      const running = await queue.enqueue(kind, { n: 1 });
      await waitForStatus(running, 'running');
      const waiting = await queue.enqueue(kind, { n: 2 });
      await queue.cancel(waiting);
      await queue.cancel(running);
      expect(reason).toBeInstanceOf(JobCancelled);
      expect((await job(running)).status).toBe('cancelled');
      expect((await job(waiting)).status).toBe('cancelled');
      // The runner is free again and takes new work; the cancelled job never started.
      const next = await queue.enqueue(kind, { n: 3 });
      await waitForStatus(next, 'running');
      await queue.cancel(next);
      expect(started).toEqual([1, 3]);
    });

    it('stop hands a running job back without failing it, and the next runner finishes it', async () => {
      const kind = `resume-${newId()}`;
      let sawShutdown = false;
      const first = await runner(kind, async (_payload, context) => {
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        sawShutdown = isShutdown(context.signal);
        context.signal.throwIfAborted();
      });
      const id = await first.enqueue(kind, {});
      await waitForStatus(id, 'running');
      await first.stop();
      expect(sawShutdown).toBe(true);
      expect(await job(id)).toMatchObject({ status: 'queued', attempts: 0 });

      const attempts: number[] = [];
      await runner(kind, async (_payload, context) => {
        attempts.push(context.attempt);
      });
      await waitForStatus(id, 'done');
      expect(attempts).toEqual([1]);
    });

    it('takes over a job whose worker died: its lease ran out', async () => {
      const kind = `orphan-${newId()}`;
      // What a crashed process leaves behind: 'running', lease expired, one attempt used.
      const orphan = newId();
      const alive = newId();
      await db.query(
        `INSERT INTO jobs (id, kind, payload, status, attempts, lease_until) VALUES
           ($1, $3, '{}', 'running', 1, now() - interval '1 second'),
           ($2, $3, '{}', 'running', 1, now() + interval '1 hour')`,
        [orphan, alive, kind],
      );
      const runs: number[] = [];
      await runner(kind, async (_payload, context) => {
        runs.push(context.attempt);
      });
      await waitForStatus(orphan, 'done');
      expect(runs).toEqual([2]);
      // A job whose lease is still held by a live worker elsewhere is left alone.
      expect((await job(alive)).status).toBe('running');

      // A lease that runs out while this runner is up is claimed too, on the next look.
      const later = newId();
      await db.query(
        `INSERT INTO jobs (id, kind, payload, status, attempts, lease_until) VALUES ($1, $2, '{}', 'running', 1, now() - interval '1 second')`,
        [later, kind],
      );
      await waitForStatus(later, 'done');
      await db.query('DELETE FROM jobs WHERE id = $1', [alive]);
    });

    it('on a database it alone holds, takes back at once what a killed process left running, lease or not', async () => {
      const kind = `killed-${newId()}`;
      // A process killed a moment ago: its lease still has most of its time to run.
      const left = newId();
      await db.query(
        `INSERT INTO jobs (id, kind, payload, status, attempts, lease_until, updated_at) VALUES ($1, $2, '{}', 'running', 1, now() + interval '1 hour', now() - interval '1 second')`,
        [left, kind],
      );
      const runs: number[] = [];
      await runner(kind, async (_payload, context) => {
        runs.push(context.attempt);
      }, { ownsDatabaseSince: new Date() });
      await waitForStatus(left, 'done');
      expect(runs).toEqual([2]);
    });
  });
});
