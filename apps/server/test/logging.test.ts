/**
 * Structured logs: every line of a request and of the jobs it queued carries the request's id (sent by
 * the client in x-request-id, or made by the server), and no line holds a secret: passwords, tokens,
 * credential headers, SECRET_KEY, S3 keys, the credentials in an SMTP or Redis URL, in fields at any
 * depth, in error texts or in the message itself.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/http/logger.ts';
import { startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';
import { mergeRequest, peopleCsv, templateWithSheet, waitForMerge } from './merge-support.ts';

function capture(): { stream: Writable; lines(): Array<Record<string, unknown>>; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  const lines = () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines, text: () => text };
}

describe('log lines', () => {
  it('never hold a secret, wherever it is', () => {
    const out = capture();
    const log = createLogger({ LOG_LEVEL: 'info' }, out.stream);
    const secrets = ['smtp-pa55word', 'S3-SECRET-abc123', 'AKIAEXAMPLEKEY', 'the-secret-key-of-at-least-32-chars!!', 'eyJhbGciOiJIUzI1NiJ9.payload.sig', 'redis-pa55'];
    log.info({
      config: {
        SMTP_URL: 'smtps://mailer:smtp-pa55word@smtp.example.com:465',
        SECRET_KEY: secrets[3],
        S3_ACCESS_KEY_ID: secrets[2],
        S3_SECRET_ACCESS_KEY: secrets[1],
        REDIS_URL: 'redis://:redis-pa55@redis.internal:6379/0',
      },
      s3: { credentials: { accessKeyId: secrets[2], secretAccessKey: secrets[1] } },
      headers: { authorization: `Bearer ${secrets[4]}`, cookie: `refresh=${secrets[4]}` },
      body: { email: 'a@example.com', password: 'hunter2-password', refreshToken: secrets[4] },
    }, 'settings loaded');
    log.error({ err: new Error('connect to smtps://mailer:smtp-pa55word@smtp.example.com:465 failed') }, 'mail failed');
    log.warn('retrying with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig and redis://:redis-pa55@redis.internal:6379');
    const text = out.text();
    for (const secret of [...secrets, 'hunter2-password']) expect(text).not.toContain(secret);
    // What is not secret stays readable.
    expect(text).toContain('smtp.example.com:465');
    expect(text).toContain('a@example.com');
    expect(out.lines().map((line) => line.msg)).toEqual(['settings loaded', 'mail failed', expect.stringContaining('retrying with')]);
  });

  describe('of a request and its jobs', () => {
    let server: TestServer;
    const out = capture();

    beforeAll(async () => {
      server = await startTestServer({ database: 'pglite', config: { LOG_LEVEL: 'info' }, log: createLogger({ LOG_LEVEL: 'info' }, out.stream) });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a login and a merge sent with x-request-id: the merge job logs under that id, and no line holds the password or a token', async () => {
      const account = await server.signUp();
      const login = await server.inject('POST', '/users/login', { body: { email: account.email, password: TEST_PASSWORD }, headers: { 'x-request-id': 'login-1' } });
      expect(login.status).toBe(200);
      expect(login.headers['x-request-id']).toBe('login-1');
      const token = (login.json as { token: string }).token;
      const templateId = await templateWithSheet(server, token, peopleCsv(2));
      const request = mergeRequest();
      const started = await server.inject('POST', `/templates/${templateId}/merge`, { token, body: request, headers: { 'x-request-id': 'merge-req-42' } });
      expect(started.headers['x-request-id']).toBe('merge-req-42');
      expect((await waitForMerge(server, token, templateId, request.mergeId)).status).toBe('completed');

      const jobLines = await vi.waitFor(() => {
        const lines = out.lines().filter((line) => line.jobId === request.mergeId);
        expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['job started', 'job done']));
        return lines;
      }, { timeout: 10_000, interval: 25 });
      for (const line of jobLines) expect(line).toMatchObject({ reqId: 'merge-req-42', jobKind: 'merge' });
      // The job row keeps the id too (a worker in another process reads it from there).
      const [row] = await server.ctx.db.query<{ request_id: string }>('SELECT request_id FROM jobs WHERE id = $1', [request.mergeId]);
      expect(row!.request_id).toBe('merge-req-42');
      // The request's own lines.
      expect(out.lines().some((line) => line.reqId === 'login-1')).toBe(true);

      const text = out.text();
      for (const secret of [TEST_PASSWORD, account.token, account.refreshToken, token, (login.json as { refreshToken: string }).refreshToken]) expect(text).not.toContain(secret);
    });
  });
});
