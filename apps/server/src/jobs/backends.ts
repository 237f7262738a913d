/** The job back end the configuration asks for: BullMQ on Redis when REDIS_URL is set, else the table. */
import type { Db } from '../adapters/db/types.ts';
import type { BullQueueOptions } from './bullmq-runner.ts';
import type { JobLog } from './execute.ts';
import { createJobQueue, type JobQueueOptions } from './runner.ts';
import type { JobBackend } from './system.ts';

export function databaseBackend(db: Db, log: JobLog, options: JobQueueOptions = {}): JobBackend {
  return {
    name: 'database',
    createQueue: (_queue, concurrency) => createJobQueue(db, log, { ...options, concurrency }),
    ping: async () => undefined, // the database itself is checked by /readyz
    close: async () => undefined,
  };
}

/** Connects and checks Redis (refuses one that would evict jobs); throws with a clear message. */
export async function redisBackend(url: string, db: Db, log: JobLog, options: BullQueueOptions = {}): Promise<JobBackend> {
  // BullMQ and ioredis load only when REDIS_URL asks for them (some 30 MB the embedded default never needs).
  const [{ openRedis }, { createBullQueue }] = await Promise.all([import('./redis.ts'), import('./bullmq-runner.ts')]);
  const redis = await openRedis(url, log);
  return {
    name: 'redis',
    createQueue: (queue, concurrency) => createBullQueue(redis, db, log, queue, { ...options, concurrency }),
    ping: () => redis.ping(),
    close: () => redis.close(),
  };
}

export async function openJobBackend(config: { REDIS_URL: string | undefined }, db: Db, log: JobLog, options: BullQueueOptions & JobQueueOptions = {}): Promise<JobBackend> {
  return config.REDIS_URL ? redisBackend(config.REDIS_URL, db, log, options) : databaseBackend(db, log, options);
}
