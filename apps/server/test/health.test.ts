/**
 * GET /healthz and /readyz: unauthenticated, not held back by MIN_RESPONSE_MS, and /readyz answers 503
 * naming what is missing: the queue's Redis not answering, a migration not applied, the database gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { startRedis, type TestRedis } from './redis-server.ts';

async function get(server: TestServer, path: string): Promise<{ status: number; json: unknown; ms: number; requestId: string | null }> {
  const start = performance.now();
  const response = await fetch(new URL(path, server.url));
  const json = await response.json();
  return { status: response.status, json, ms: performance.now() - start, requestId: response.headers.get('x-request-id') };
}

describe('health routes', () => {
  it('answer at once on the embedded defaults, while the API keeps its minimum response time', async () => {
    const server = await startTestServer({ database: 'pglite', config: { MIN_RESPONSE_MS: 1_500 } });
    try {
      const health = await get(server, '/healthz');
      expect(health).toMatchObject({ status: 200, json: { status: 'ok' } });
      const ready = await get(server, '/readyz');
      expect(ready).toMatchObject({ status: 200, json: { status: 'ready' } });
      expect(health.ms).toBeLessThan(1_000);
      expect(ready.ms).toBeLessThan(1_000);
      expect(health.requestId).toBeTruthy();
      const api = await get(server, '/v1/config');
      expect(api.ms).toBeGreaterThanOrEqual(1_400);
    } finally {
      await server.close();
    }
  });

  describe('on PostgreSQL and Redis', () => {
    let redis: TestRedis;
    let server: TestServer;

    beforeAll(async () => {
      redis = await startRedis();
      server = await startTestServer({ database: 'postgres', config: { REDIS_URL: redis.url } });
    });
    afterAll(async () => {
      await server?.close();
      await redis?.stop();
    });

    it('/readyz answers 503 naming the part that is not ready', async () => {
      expect(server.ctx.jobs.backend).toBe('redis');
      expect(await get(server, '/readyz')).toMatchObject({ status: 200, json: { status: 'ready' } });

      // Redis stops answering for a while.
      await redis.client.call('CLIENT', 'PAUSE', '3000', 'ALL');
      expect(await get(server, '/readyz')).toMatchObject({ status: 503, json: { status: 'unavailable', failures: { queue: 'no answer in time' } } });
      await redis.client.call('CLIENT', 'UNPAUSE');
      expect((await get(server, '/readyz')).status).toBe(200);

      // A process whose migrations are not all applied.
      const [last] = await server.ctx.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1');
      await server.ctx.db.query('DELETE FROM schema_migrations WHERE name = $1', [last!.name]);
      expect(await get(server, '/readyz')).toMatchObject({ status: 503, json: { failures: { migrations: '1 pending' } } });
      await server.ctx.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [last!.name]);
      expect((await get(server, '/readyz')).status).toBe(200);

      // The database goes away; the process itself is still alive.
      const url = new URL(server.config.DATABASE_URL!);
      const name = url.pathname.slice(1);
      url.pathname = '/postgres';
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
      expect(await get(server, '/readyz')).toMatchObject({ status: 503, json: { failures: { database: 'unreachable' } } });
      expect((await get(server, '/healthz')).status).toBe(200);
    });
  });
});
