/**
 * Sheaf split over processes on the machine's PostgreSQL: `sheaf serve --no-jobs` answers the API and
 * runs no job, `sheaf worker` runs them. A merge started through the API process is made by the worker
 * process, on the table queue and on BullMQ (a redis-server of this file's own). The request id sent
 * with the merge is on the worker's log lines of the job; no line of either process holds a password,
 * a token, SECRET_KEY or the SMTP credentials. Both exit 0 on SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, TEST_PASSWORD } from './harness.ts';
import { SINK_USER, startMailSink, type MailSink } from './mail-support.ts';
import { download, mergeRequest, peopleCsv, pdfsInZip, templateWithSheet, waitForMerge } from './merge-support.ts';
import { httpServer, startSheaf, type SheafProcess } from './process-support.ts';
import { startRedis, type TestRedis } from './redis-server.ts';

describe.each(['database', 'redis'] as const)('sheaf serve --no-jobs and sheaf worker (%s queue)', (queue) => {
  let database: { url: string; drop: () => Promise<void> };
  let redis: TestRedis | undefined;
  let sink: MailSink;
  let dataDir: string;
  let api: SheafProcess;
  let worker: SheafProcess;
  let apiUrl: string;
  let healthUrl: string;
  const secretKey = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    database = await createPostgresDatabase();
    sink = await startMailSink();
    if (queue === 'redis') redis = await startRedis();
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-processes-'));
    const env = {
      DATABASE_URL: database.url,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      SECRET_KEY: secretKey,
      // The processes share the files folder (S3 in a real deployment).
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://${SINK_USER.user}:${SINK_USER.pass}@127.0.0.1:${sink.port}`,
      MIN_RESPONSE_MS: '0',
      LOG_LEVEL: 'info',
      INBOUND_SMTP_PORT: 'off',
    };
    // Migrations run once (the worker waits for the API's under the advisory lock either way).
    api = startSheaf(['serve', '--no-jobs', '--port', '0'], env);
    apiUrl = (await api.waitFor(/Sheaf is running at (http:\/\/\S+)/))[1]!;
    worker = startSheaf(['worker', '--health-port', '0'], env);
    healthUrl = (await worker.waitFor(/health at (http:\/\/\S+)\/readyz/))[1]!;
  });
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await sink?.close();
    await redis?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('the worker makes a merge started through the API process; the job logs carry the request id; no secret in any line', async () => {
    const http = httpServer(apiUrl);
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await http.inject('POST', '/users/register', {
      body: { firstName: 'Pat', lastName: 'Doe', email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
    });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    const login = await http.inject('POST', '/users/login', { body: { email, password: TEST_PASSWORD }, headers: { 'x-request-id': 'login-check-1' } });
    expect(login.status).toBe(200);
    expect(login.headers['x-request-id']).toBe('login-check-1');
    const { token, refreshToken } = login.json as { token: string; refreshToken: string };

    const templateId = await templateWithSheet(http, token, peopleCsv(3));
    const request = mergeRequest();
    const requestId = `merge-${randomBytes(6).toString('hex')}`;
    const started = await http.inject('POST', `/templates/${templateId}/merge`, { token, body: request, headers: { 'x-request-id': requestId } });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    expect(started.headers['x-request-id']).toBe(requestId);
    // A header that is not a well-formed id is replaced by one of the server's.
    const odd = await http.inject('GET', '/templates', { token, headers: { 'x-request-id': 'no spaces\tor tabs' } });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const merge = await waitForMerge(http, token, templateId, request.mergeId);
    expect(merge.status).toBe('completed');
    const texts = pdfsInZip((await download(http, merge.downloadUrl!)).bytes).map((pdf) => pdf.text);
    expect(texts).toHaveLength(3);
    for (let n = 1; n <= 3; n++) expect(texts.some((text) => text.includes(`Given${n}`) && text.includes(`Family${n}`))).toBe(true);

    // Made by the worker, not by the API process; every line of the job names the request.
    // ('job done' follows the merge's completion: the job's row is closed after the handler returns.)
    const jobLines = await vi.waitFor(() => {
      const lines = worker.logLines().filter((line) => line.jobId === request.mergeId);
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['job started', 'job done']));
      return lines;
    }, { timeout: 10_000, interval: 50 });
    for (const line of jobLines) expect(line.reqId).toBe(requestId);
    expect(api.logLines().some((line) => line.msg === 'job started')).toBe(false);
    // The API's own lines of the request carry it too.
    expect(api.logLines().some((line) => line.reqId === requestId)).toBe(true);

    const output = api.output() + worker.output();
    for (const secret of [TEST_PASSWORD, token, refreshToken, secretKey, SINK_USER.pass]) expect(output).not.toContain(secret);
  });

  it('answers /healthz and /readyz on the API port and on the worker health port, with no token', async () => {
    for (const base of [apiUrl, healthUrl]) {
      const health = await fetch(new URL('/healthz', base));
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(new URL('/readyz', base));
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    }
  });

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await worker.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  });
});

describe('the embedded database serves one process', () => {
  it('sheaf worker and sheaf serve --no-jobs refuse to start without DATABASE_URL, saying why', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-processes-'));
    try {
      const env = { DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'silent' };
      for (const args of [['worker'], ['serve', '--no-jobs', '--port', '0']]) {
        const process = startSheaf(args, env);
        expect(await process.exited, process.output()).toBe(1);
        expect(process.output()).toMatch(/needs a database every Sheaf process shares: set DATABASE_URL to a PostgreSQL server/);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
