/**
 * A BullMQ job worker in its own process, for jobs-bullmq.test.ts: the test kills it with SIGKILL
 * mid-job. It runs kind CHILD_KIND in queue CHILD_QUEUE, says "started <id> <attempt>" on stdout
 * when a job starts, and never finishes one.
 */
import { openPostgres } from '../src/adapters/db/postgres.ts';
import { redisBackend } from '../src/jobs/backends.ts';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const db = await openPostgres(env('CHILD_DATABASE_URL'), { max: 2 });
const backend = await redisBackend(env('CHILD_REDIS_URL'), db, silent, { leaseMs: 1_500, lockDurationMs: 1_000, stalledIntervalMs: 500, sweepMs: 60_000 });
const queue = backend.createQueue(env('CHILD_QUEUE'), 1);
queue.register(env('CHILD_KIND'), async (_payload, job) => {
  process.stdout.write(`started ${job.id} ${job.attempt}\n`);
  await new Promise(() => undefined); // busy until killed
});
await queue.start();
process.stdout.write('ready\n');
