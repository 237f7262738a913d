/**
 * Old sign-in attempts do not pile up (issue #11): a key's attempts used to be deleted only when that
 * key was tried again, so an attacker trying many keys once each grew auth_attempts for good. A daily
 * job (modules/auth/attempts-sweep.ts) deletes what no limit counts any more; attempts inside a
 * window stay and still hold their limit.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attemptsSweepJob } from '../src/modules/auth/index.ts';
import { forEachDatabase, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';

const DAY_S = 24 * 3600;
const today = () => new Date().toISOString().slice(0, 10);

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, config: { TRUST_PROXY: true } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const jobStatus = async (id: string) =>
    (await server.ctx.db.query<{ status: string; run_after: Date }>('SELECT status, run_after FROM jobs WHERE id = $1', [id]))[0];
  const attemptsAt = (key: string, secondsAgo: number, count = 1) =>
    server.ctx.db.query(
      `INSERT INTO auth_attempts (key, attempted_at) SELECT $1 || n, now() - make_interval(secs => $2) FROM generate_series(1, $3) AS n`,
      [key, secondsAgo, count],
    );
  const keysLike = async (prefix: string) =>
    (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM auth_attempts WHERE left(key, length($1)) = $1', [prefix]))[0]!.n;
  const login = (email: string, password: string, ip: string) =>
    server.inject('POST', '/users/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

  describe('the auth_attempts sweep', () => {
    it('runs at start and queues itself for the next day', async () => {
      await vi.waitFor(async () => expect((await jobStatus(`auth-attempts-sweep.${today()}`))?.status).toBe('done'), { timeout: 10_000, interval: 50 });
      const tomorrow = new Date(Date.now() + DAY_S * 1000).toISOString().slice(0, 10);
      const next = await jobStatus(`auth-attempts-sweep.${tomorrow}`);
      expect(next?.status).toBe('queued');
      expect(next?.run_after.toISOString()).toBe(`${tomorrow}T00:00:00.000Z`);
    });

    it('deletes attempts older than every window and keeps those a limit still counts', async () => {
      const { email } = await server.signUp();
      const client = '203.0.113.7';
      // An attacker's many keys, each tried once 31 days ago: nothing will ever try them again.
      await attemptsAt('login:victim@example.com from 198.51.100.', 31 * DAY_S, 2_000);
      await attemptsAt('login-ok:old@example.com from 198.51.100.', 31 * DAY_S);
      // Still inside their windows: a sender address's 30-day count, and 4 wrong passwords 10 minutes ago.
      await attemptsAt('sender-code-to-30d:someone@example.com#', 29 * DAY_S);
      for (let i = 0; i < 4; i++) await server.ctx.db.query(`INSERT INTO auth_attempts (key, attempted_at) VALUES ($1, now() - interval '10 minutes')`, [`login:${email} from ${client}`]);

      const id = await server.ctx.jobs.enqueue(attemptsSweepJob, { day: today() }, { id: `auth-attempts-sweep.test-${database}` });
      await vi.waitFor(async () => expect((await jobStatus(id))?.status).toBe('done'), { timeout: 10_000, interval: 50 });

      expect(await keysLike('login:victim@example.com')).toBe(0);
      expect(await keysLike('login-ok:old@example.com')).toBe(0);
      expect(await keysLike('sender-code-to-30d:someone@example.com')).toBe(1);
      expect(await keysLike(`login:${email} from ${client}`)).toBe(4);
      // The 4 recent failures still count: the fifth try is checked, the sixth refused.
      expect((await login(email, 'wrong password', client)).json.code).toBe('auth/invalid-credentials');
      expect((await login(email, TEST_PASSWORD, client)).status).toBe(429);
    });
  });
});
