/**
 * The Redis connection of the BullMQ back end: checked at boot (a Redis that may evict keys would lose
 * jobs), shared by the queues of the process, plus a channel that tells every process which job was
 * cancelled (the process running it stops it at once instead of at its next lease renewal).
 */
import { Redis } from 'ioredis';
import type { JobLog } from './execute.ts';

const CANCEL_CHANNEL = 'sheaf:jobs:cancelled';

export interface RedisLink {
  /** For BullMQ queues and workers (maxRetriesPerRequest null, as BullMQ requires). */
  readonly client: Redis;
  /** Tells every process that this job was cancelled. */
  announceCancel(id: string): Promise<void>;
  onCancel(listener: (id: string) => void): void;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** host:port of a Redis URL, without its user or password (for messages). */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/** The eviction policy; from INFO when CONFIG is disabled (managed services often disable it). */
async function maxmemoryPolicy(client: Redis): Promise<string | undefined> {
  try {
    const reply = (await client.config('GET', 'maxmemory-policy')) as string[];
    if (reply[1]) return reply[1];
  } catch {
    // CONFIG not allowed: INFO below.
  }
  const info = await client.info('memory');
  return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
}

/** Refuses a Redis that would evict keys under memory pressure: BullMQ's jobs are keys. */
export async function checkEvictionPolicy(client: Redis, url: string): Promise<void> {
  const policy = await maxmemoryPolicy(client);
  if (policy && policy !== 'noeviction') {
    throw new Error(
      `Redis at ${redisAddress(url)} has maxmemory-policy ${policy}: it may evict queued jobs. ` +
        'Set maxmemory-policy to noeviction (CONFIG SET maxmemory-policy noeviction, and in redis.conf) or use another Redis.',
    );
  }
}

export async function openRedis(url: string, log: JobLog): Promise<RedisLink> {
  const options = { maxRetriesPerRequest: null, lazyConnect: true, connectTimeout: 5_000 };
  const client = new Redis(url, options);
  client.on('error', (error: Error) => log.warn({ err: error, redis: redisAddress(url) }, 'redis connection error'));
  try {
    await client.connect();
    await checkEvictionPolicy(client, url);
  } catch (error) {
    client.disconnect();
    if (error instanceof Error && error.message.includes('maxmemory-policy')) throw error;
    throw new Error(`Redis at ${redisAddress(url)} is not reachable (REDIS_URL): ${error instanceof Error ? error.message : String(error)}`);
  }
  let subscriber: Redis | undefined;
  const listeners: Array<(id: string) => void> = [];
  return {
    client,
    async announceCancel(id) {
      await client.publish(CANCEL_CHANNEL, id);
    },
    onCancel(listener) {
      listeners.push(listener);
      if (subscriber) return;
      subscriber = client.duplicate();
      subscriber.on('error', (error: Error) => log.warn({ err: error }, 'redis subscriber error'));
      subscriber.on('message', (_channel: string, id: string) => {
        for (const each of listeners) each(id);
      });
      void subscriber.subscribe(CANCEL_CHANNEL).catch((error: unknown) => log.warn({ err: error }, 'redis: cannot follow cancellations'));
    },
    async ping() {
      await client.ping();
    },
    async close() {
      subscriber?.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
