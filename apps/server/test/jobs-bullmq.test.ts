/**
 * The BullMQ back end (REDIS_URL) against a redis-server of this file's own and the machine's
 * PostgreSQL: runs, idempotent enqueue, cancel reaching the process that runs the job, a worker killed
 * mid-job recovered by another, a run that lost its lease stopping for another worker to take over,
 * the sweep republishing what Redis lost, and a Redis that may evict keys refused at boot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPostgres } from '../src/adapters/db/postgres.ts';
import { migrate } from '../src/adapters/db/migrate.ts';
import type { Db } from '../src/adapters/db/types.ts';
import { redisBackend } from '../src/jobs/backends.ts';
import type { BullQueueOptions } from '../src/jobs/bullmq-runner.ts';
import { JobCancelled, JobLeaseLost, isShutdown } from '../src/jobs/signals.ts';
import type { JobBackend } from '../src/jobs/system.ts';
import type { JobHandler, JobQueue } from '../src/jobs/types.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/boot.ts';
import { newId } from '../src/ids.ts';
import { jobWritesLost } from './db-faults.ts';
import { createPostgresDatabase } from './harness.ts';
import { startRedis, type TestRedis } from './redis-server.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bullmq-child.ts');
const FAST: BullQueueOptions = { leaseMs: 1_500, lockDurationMs: 1_000, stalledIntervalMs: 500, sweepMs: 200, backoffMs: 40 };

interface JobRecord {
  status: string;
  attempts: number;
  last_error: string | null;
  request_id: string | null;
}

describe('BullMQ job back end', () => {
  let redis: TestRedis;
  let database: { url: string; drop: () => Promise<void> };
  let db: Db;
  const backends: JobBackend[] = [];
  const queues: JobQueue[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    database = await createPostgresDatabase();
    db = await openPostgres(database.url);
    await migrate(db);
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const queue of queues) await queue.stop();
    for (const backend of backends) await backend.close();
    await db?.close();
    await database?.drop();
    await redis?.stop();
  });

  /** A queue on its own Redis connection, as another process would have. */
  async function queueOf(name: string, options: BullQueueOptions = {}, database: Db = db): Promise<JobQueue> {
    const backend = await redisBackend(redis.url, database, silent, { ...FAST, ...options });
    backends.push(backend);
    const queue = backend.createQueue(name, options.concurrency ?? 2);
    queues.push(queue);
    return queue;
  }

  async function runner(name: string, kind: string, handler: JobHandler<{ n?: number }>, options: BullQueueOptions = {}, database: Db = db): Promise<JobQueue> {
    const queue = await queueOf(name, options, database);
    queue.register(kind, handler);
    await queue.start();
    return queue;
  }

  async function job(id: string): Promise<JobRecord> {
    const [row] = await db.query<JobRecord>('SELECT status, attempts, last_error, request_id FROM jobs WHERE id = $1', [id]);
    return row!;
  }
  const waitForStatus = (id: string, status: string, timeout = 15_000) =>
    vi.waitFor(async () => expect((await job(id)).status).toBe(status), { timeout, interval: 25 });

  it('runs queued jobs once each across two workers, with their payload and request id', async () => {
    const kind = `count-${newId()}`;
    const runs: number[] = [];
    const requestIds: (string | null)[] = [];
    const handler: JobHandler<{ n?: number }> = async (payload, context) => {
      runs.push(payload.n!);
      requestIds.push(context.requestId);
    };
    const first = await runner('count', kind, handler);
    await runner('count', kind, handler);
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => first.enqueue(kind, { n }, { requestId: `req-${n}` })));
    for (const id of ids) await waitForStatus(id, 'done');
    expect(runs.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(new Set(requestIds)).toEqual(new Set(Array.from({ length: 20 }, (_, n) => `req-${n}`)));
    expect((await job(ids[3]!)).request_id).toBe('req-3');
  });

  it('hands a job queued in a transaction to Redis only after the commit (wake), and drops a rolled-back one', async () => {
    const kind = `outbox-${newId()}`;
    const runs: number[] = [];
    const api = await queueOf('outbox'); // an API process: queues, runs nothing
    await runner('outbox', kind, async (payload) => {
      runs.push(payload.n!);
    }, { sweepMs: 600_000 });
    const committed = newId();
    await db.transaction(async (tx) => api.enqueue(kind, { n: 1 }, { id: committed, tx }));
    const rolledBack = newId();
    await db.transaction(async (tx) => {
      await api.enqueue(kind, { n: 2 }, { id: rolledBack, tx });
      throw new Error('the request failed');
    }).catch(() => undefined);
    api.wake();
    await waitForStatus(committed, 'done');
    expect(await job(rolledBack)).toBeUndefined();
    expect(runs).toEqual([1]);

    // Relayed before its transaction committed (another request's wake): it still runs once committed.
    const early = newId();
    await db.transaction(async (tx) => {
      await api.enqueue(kind, { n: 3 }, { id: early, tx });
      api.wake();
      await vi.waitFor(async () => expect(await redis.client.hget(`sheaf:outbox:${early}`, 'data')).toContain('misses'), { timeout: 5_000, interval: 25 });
    });
    await waitForStatus(early, 'done');
    expect(runs).toEqual([1, 3]);
  });

  it('ignores a second enqueue with the same id', async () => {
    const kind = `once-${newId()}`;
    let runs = 0;
    const queue = await runner('once', kind, async () => {
      runs++;
    });
    const id = newId();
    await queue.enqueue(kind, {}, { id });
    await queue.enqueue(kind, {}, { id });
    await waitForStatus(id, 'done');
    await queue.enqueue(kind, {}, { id });
    // Give a duplicate delivery the time it would need (the sweep runs every 200 ms).
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 1 });
    expect(runs).toBe(1);
  });

  it('retries a failing job with backoff on the same delivery, then fails it', async () => {
    const kind = `flaky-${newId()}`;
    const attempts: number[] = [];
    const queue = await runner('flaky', kind, async (_payload, context) => {
      attempts.push(context.attempt);
      throw new Error('disk full');
    });
    const id = await queue.enqueue(kind, {}, { maxAttempts: 3 });
    await waitForStatus(id, 'failed');
    expect(await job(id)).toMatchObject({ attempts: 3, last_error: 'disk full' });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('cancel from another process stops the running job at once (before any lease renewal)', async () => {
    const kind = `cancel-${newId()}`;
    let reason: unknown;
    let stoppedAt = 0;
    // A long lease: renewal (a third of it) cannot be what tells the worker.
    const worker = await runner('cancel', kind, async (_payload, context) => {
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      reason = context.signal.reason;
      stoppedAt = Date.now();
      context.signal.throwIfAborted();
    }, { leaseMs: 60_000 });
    const api = await queueOf('cancel', { leaseMs: 60_000 });
    const id = await worker.enqueue(kind, {});
    await waitForStatus(id, 'running');
    const cancelledAt = Date.now();
    await api.cancel(id);
    await vi.waitFor(() => expect(reason).toBeInstanceOf(JobCancelled), { timeout: 5_000, interval: 10 });
    expect(stoppedAt - cancelledAt).toBeLessThan(5_000);
    expect((await job(id)).status).toBe('cancelled');
    // A queued job cancelled before it ran never runs.
    const queued = newId();
    await db.query(`INSERT INTO jobs (id, kind, payload, run_after) VALUES ($1, $2, '{}', now() + interval '1 hour')`, [queued, kind]);
    await api.cancel(queued);
    expect((await job(queued)).status).toBe('cancelled');
  });

  it('a worker killed mid-job: its job is delivered again and another worker runs it', async () => {
    const kind = `stalled-${newId()}`;
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, CHILD_DATABASE_URL: database.url, CHILD_REDIS_URL: redis.url, CHILD_QUEUE: 'stalled', CHILD_KIND: kind },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await vi.waitFor(() => expect(output).toContain('ready'), { timeout: 30_000, interval: 50 });
    const api = await queueOf('stalled');
    api.register(kind, async () => undefined); // knows the kind, runs nothing (not started)
    const id = await api.enqueue(kind, {});
    await vi.waitFor(() => expect(output).toContain(`started ${id} 1`), { timeout: 15_000, interval: 25 });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect((await job(id)).status).toBe('running'); // what the dead process left

    const attempts: number[] = [];
    await runner('stalled', kind, async (_payload, context) => {
      attempts.push(context.attempt);
    }, { sweepMs: 600_000 }); // recovered by BullMQ's stalled check, not by the sweep
    await waitForStatus(id, 'done', 20_000);
    expect(attempts).toEqual([2]);
  });

  it('stop hands a running job back at once; another worker runs it without losing an attempt', async () => {
    const kind = `handback-${newId()}`;
    let sawShutdown = false;
    const first = await runner('handback', kind, async (_payload, context) => {
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
    await runner('handback', kind, async (_payload, context) => {
      attempts.push(context.attempt);
    }, { sweepMs: 600_000 });
    await waitForStatus(id, 'done');
    expect(attempts).toEqual([1]);
  });

  it('a run whose lease renewals fail stops as handed back before the lease runs out, and another worker runs the job', async () => {
    const kind = `lease-lost-${newId()}`;
    const cutOff = jobWritesLost(db);
    const lost: { reason?: unknown; at?: number } = {};
    const first = await runner('leaselost', kind, async (_payload, context) => {
      await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
      Object.assign(lost, { reason: context.signal.reason, at: Date.now() });
      context.signal.throwIfAborted();
    }, {}, cutOff);
    const id = await first.enqueue(kind, {});
    await waitForStatus(id, 'running');
    // This worker's database writes fail from now on; another worker's still succeed.
    cutOff.failUpdates = true;
    const taken: Array<{ attempt: number; at: number }> = [];
    await runner('leaselost', kind, async (_payload, context) => void taken.push({ attempt: context.attempt, at: Date.now() }));
    await vi.waitFor(() => expect(lost.reason).toBeInstanceOf(JobLeaseLost), { timeout: 15_000, interval: 25 });
    // The cut-off worker would keep taking deliveries it cannot claim (each retried after a growing
    // delay); without it, the other worker gets the next one at once.
    await first.stop();
    await waitForStatus(id, 'done');
    expect(lost.at).toBeLessThanOrEqual(taken[0]!.at);
    expect(taken.map((run) => run.attempt)).toEqual([2]);
    cutOff.failUpdates = false;
  });

  it('the sweep puts back queued jobs that Redis lost', async () => {
    const kind = `lost-${newId()}`;
    const api = await queueOf('lost');
    const id = await api.enqueue(kind, {});
    await vi.waitFor(async () => expect(await redis.client.exists(`sheaf:lost:${id}`)).toBe(1), { timeout: 5_000, interval: 25 });
    await redis.client.flushall(); // Redis restarted without its data
    let runs = 0;
    await runner('lost', kind, async () => {
      runs++;
    });
    await waitForStatus(id, 'done');
    expect(runs).toBe(1);
  });

  it('refuses at boot a Redis whose maxmemory-policy may evict jobs, naming the setting', async () => {
    const evicting = await startRedis(['--maxmemory-policy', 'allkeys-lru']);
    const untouched = await createPostgresDatabase();
    try {
      await expect(redisBackend(evicting.url, db, silent)).rejects.toThrow(/maxmemory-policy allkeys-lru.*noeviction/);
      const config = loadConfig({}, {
        DATABASE_URL: untouched.url,
        REDIS_URL: evicting.url,
        DATA_DIR: path.join(tmpdir(), `sheaf-evict-${randomBytes(4).toString('hex')}`),
        PORT: 0,
        SECRET_KEY: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'silent',
        INBOUND_SMTP_PORT: null,
      });
      await expect(startServer(config)).rejects.toThrow(/maxmemory-policy allkeys-lru/);
      // Refused before it touched the database: nothing migrated.
      const fresh = await openPostgres(untouched.url);
      try {
        expect(await fresh.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
      } finally {
        await fresh.close();
      }
      // noeviction is accepted.
      await evicting.client.config('SET', 'maxmemory-policy', 'noeviction');
      const backend = await redisBackend(evicting.url, db, silent);
      await backend.close();
    } finally {
      await evicting.stop();
      await untouched.drop();
    }
  });
});
