/**
 * A real `sheaf serve` process killed with SIGKILL in the middle of a 500-recipient mailing, then
 * started again on the same data: the sink received every recipient's message, and the duplicates are
 * no more than the messages that were in flight at the kill (the concurrency).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/ids.ts';
import { createPostgresDatabase, forEachDatabase, type TestDatabase } from './harness.ts';
import { EMAIL_PLACEHOLDERS, SINK_USER, recipientsCsv, startMailSink, type MailSink } from './mail-support.ts';
import { TEMPLATE_PDF } from './merge-support.ts';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHEAF = path.join(ROOT, 'apps/server/bin/sheaf.mjs');
const ROWS = 500;
const CONCURRENCY = 4;
const run = promisify(execFile);


interface Serve {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

async function serve(env: Record<string, string>): Promise<Serve> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SHEAF, 'serve'], { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), PUBLIC_URL: url }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await vi.waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`sheaf serve exited: ${output}`);
    const response = await fetch(`${url}/v1/config`).catch(() => undefined);
    if (!response?.ok) throw new Error(`sheaf serve is not answering yet: ${output}`);
  }, { timeout: 150_000, interval: 100 });
  return { child, url, exited };
}

async function api(base: string, method: string, urlPath: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}/v1${urlPath}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

const upload = (name: string, bytes: Uint8Array, type: string) => {
  const form = new FormData();
  form.set('file', new Blob([bytes], { type }), name);
  return form;
};

forEachDatabase((database: TestDatabase) => {
  describe('a mailing across a crash', () => {
    let sink: MailSink;
    let dataDir: string;
    let env: Record<string, string>;
    let dropDatabase: (() => Promise<void>) | undefined;
    let databaseUrl: string | undefined;
    const running: Serve[] = [];

    beforeAll(async () => {
      sink = await startMailSink();
      dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-mail-crash-'));
      if (database === 'postgres') {
        const created = await createPostgresDatabase();
        databaseUrl = created.url;
        dropDatabase = created.drop;
      }
      env = {
        DATA_DIR: dataDir, HOST: '127.0.0.1', SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'error', MIN_RESPONSE_MS: '0',
        SMTP_ALLOW_PRIVATE_HOSTS: 'true', MAIL_CONCURRENCY: String(CONCURRENCY), INBOUND_SMTP_PORT: 'off', MAIL_RETRY_BASE_MS: '100',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      };
    });
    afterAll(async () => {
      for (const each of running) if (each.child.exitCode === null) each.child.kill('SIGKILL');
      sink?.release();
      await sink?.close();
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('resumes after SIGKILL: every recipient gets the message, duplicates at most the concurrency', { timeout: 480_000 }, async () => {
      const first = await serve(env);
      running.push(first);
      const email = `crash-${randomBytes(4).toString('hex')}@example.com`;
      const registered = await api(first.url, 'POST', '/users/register', undefined, { firstName: 'C', lastName: 'R', email, password: 'Sheaf-test-passw0rd!', confirmPassword: 'Sheaf-test-passw0rd!' });
      expect(registered.status).toBe(201);
      const token = registered.json.token as string;
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`UPDATE users SET billing_plan = 'Enterprise' WHERE email = $1`, [email]);
        await client.end();
      } else {
        // The embedded database is the server's: `sheaf users` reaches it through the running server.
        await run(process.execPath, [SHEAF, 'users', 'set-plan', email, 'Enterprise'], { cwd: ROOT, env: { ...process.env, ...env } });
      }
      const sender = await api(first.url, 'POST', '/senders', token, { method: 'smtp', email: 'sender@example.com', server: '127.0.0.1', port: sink.port, username: SINK_USER.user, password: SINK_USER.pass });
      expect(sender.json.sender?.isVerified, JSON.stringify(sender.json)).toBe(true);
      const template = await api(first.url, 'POST', '/templates', token, upload('Letter.pdf', TEMPLATE_PDF, 'application/pdf'));
      const templateId = template.json.id as string;
      expect((await api(first.url, 'PATCH', `/templates/${templateId}/placeholders`, token, { placeholders: EMAIL_PLACEHOLDERS })).status).toBe(200);
      expect((await api(first.url, 'POST', `/templates/${templateId}/excel`, token, upload('people.csv', Buffer.from(recipientsCsv(ROWS, (n) => `crash${n}@example.com`)), 'text/csv'))).status).toBe(201);
      expect((await api(first.url, 'PATCH', `/templates/${templateId}/email`, token, {
        isActive: true, senderId: sender.json.sender.id, subject: 'Letter {{First}}', content: '<p>Dear {{First}}</p>', recipientsColumn: 'Email',
      })).status).toBe(200);
      const mergeId = newId();
      const started = await api(first.url, 'POST', `/templates/${templateId}/merge`, token, {
        mergeId, isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true,
        rowsData: { startRow: 2, endRow: 1_000_000 }, email: { isActive: true },
      });
      expect(started.status, JSON.stringify(started.json)).toBe(202);

      const received = () => sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('crash'));
      // Mid-way: hold the messages in flight at the sink, and kill the server while they are held.
      await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(100), { timeout: 120_000, interval: 20 });
      sink.pause();
      const before = received().length;
      expect(before).toBeLessThan(ROWS);
      first.child.kill('SIGKILL');
      await first.exited;
      sink.release();

      const second = await serve(env);
      running.push(second);
      await vi.waitFor(async () => {
        const merge = await api(second.url, 'GET', `/templates/${templateId}/merges/${mergeId}`, token);
        if (merge.json?.mailingStatus !== 'completed') throw new Error(`mailing is ${merge.json?.mailingStatus}`);
      }, { timeout: 180_000, interval: 200 });

      const report = await api(second.url, 'GET', `/templates/${templateId}/email/${mergeId}`, token);
      expect(report.json.eventCounts).toMatchObject({ total: ROWS, accepted: ROWS, queued: 0, failed: 0 });
      const perRecipient = new Map<string, number>();
      for (const mail of received()) perRecipient.set(mail.rcptTo[0]!, (perRecipient.get(mail.rcptTo[0]!) ?? 0) + 1);
      expect(perRecipient.size).toBe(ROWS);
      const duplicates = received().length - ROWS;
      expect(duplicates).toBeGreaterThanOrEqual(0);
      expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    });
  });
});
