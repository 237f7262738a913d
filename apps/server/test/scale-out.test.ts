/**
 * Sheaf spread over processes as docs/deployment.md describes: two `sheaf serve --no-jobs` (API) and
 * two `sheaf worker` processes sharing the machine's PostgreSQL, a Redis of the test's own (BullMQ)
 * and an S3-compatible server (s3rver). Several users start merges and a mailing through both API
 * processes; one worker is killed with SIGKILL in the middle. Every merge still completes with every
 * row's own document, every recipient gets their message, and duplicates stay within what was in flight.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../src/ids.ts';
import { createPostgresDatabase } from './harness.ts';
import { EMAIL_PLACEHOLDERS, SINK_USER, recipientsCsv, startMailSink, type MailSink } from './mail-support.ts';
import { NAME_PLACEHOLDERS, TEMPLATE_PDF, peopleCsv, pdfsInZip } from './merge-support.ts';
import { startRedis, type TestRedis } from './redis-server.ts';
import { startTestS3, type TestS3 } from './s3-server.ts';
import { freePort } from './free-port.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHEAF = path.join(ROOT, 'apps/server/bin/sheaf.mjs');
const MERGE_ROWS = 400;
const RECIPIENTS = 120;
const MAIL_CONCURRENCY = 4;
const PASSWORD = 'Sheaf-test-passw0rd!';


interface Proc {
  name: string;
  child: ChildProcess;
  /** Where /readyz answers. */
  url: string;
  exited: Promise<number | null>;
  output: () => string;
}

async function startProcess(name: string, args: string[], env: Record<string, string>, port: number): Promise<Proc> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SHEAF, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await vi.waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
    const response = await fetch(`${url}/readyz`).catch(() => undefined);
    if (response?.status !== 200) throw new Error(`${name} is not ready yet: ${output}`);
  }, { timeout: 150_000, interval: 100 });
  return { name, child, url, exited, output: () => output };
}

/** The fields of the API's answers this test reads. */
interface Answer {
  token?: string;
  id?: string;
  sender?: { id: string; isVerified: boolean };
  status?: string;
  done?: number;
  total?: number;
  error?: unknown;
  downloadUrl?: string;
  mailingStatus?: string;
}

async function api(base: string, method: string, urlPath: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}/v1${urlPath}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json: json as Answer | undefined };
}

const upload = (name: string, bytes: Uint8Array, type: string) => {
  const form = new FormData();
  form.set('file', new Blob([bytes], { type }), name);
  return form;
};

const mergeBody = (mergeId: string, extra: Record<string, unknown> = {}) => ({
  mergeId, isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true,
  rowsData: { startRow: 2, endRow: 1_000_000 }, ...extra,
});

describe('API and worker processes on PostgreSQL, Redis and S3', () => {
  let sink: MailSink;
  let redis: TestRedis;
  let s3: TestS3;
  let database: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  let env: Record<string, string>;
  const procs: Proc[] = [];

  beforeAll(async () => {
    [sink, redis, s3, database] = await Promise.all([startMailSink(), startRedis(), startTestS3({ partCopy: true }), createPostgresDatabase()]);
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-scale-out-'));
    env = {
      DATABASE_URL: database.url, REDIS_URL: redis.url,
      S3_ENDPOINT: s3.config.S3_ENDPOINT, S3_BUCKET: s3.config.S3_BUCKET, S3_ACCESS_KEY_ID: s3.config.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: s3.config.S3_SECRET_ACCESS_KEY, S3_REGION: s3.config.S3_REGION, S3_FORCE_PATH_STYLE: String(s3.config.S3_FORCE_PATH_STYLE),
      HOST: '127.0.0.1', SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'error', MIN_RESPONSE_MS: '0',
      SMTP_ALLOW_PRIVATE_HOSTS: 'true', MAIL_CONCURRENCY: String(MAIL_CONCURRENCY), INBOUND_SMTP_PORT: 'off', MAIL_RETRY_BASE_MS: '100',
      MERGE_CONCURRENCY: '1',
    };
  }, 60_000);

  afterAll(async () => {
    for (const proc of procs) if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    await Promise.all(procs.map((proc) => proc.exited));
    sink?.release();
    await sink?.close();
    await redis?.stop();
    await s3?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('completes every merge and mailing across two API processes while a worker is killed mid-merge', { timeout: 420_000 }, async () => {
    const apiEnv = async (n: number) => {
      const port = await freePort();
      return { port, env: { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: path.join(dataDir, `api-${n}`) } };
    };
    const first = await apiEnv(1);
    // The first process migrates the database; the others start on the migrated schema at once.
    const api1 = await startProcess('api 1', ['serve', '--no-jobs'], first.env, first.port);
    procs.push(api1);
    const second = await apiEnv(2);
    const workerPorts = [await freePort(), await freePort()];
    const started = await Promise.all([
      startProcess('api 2', ['serve', '--no-jobs'], second.env, second.port),
      ...workerPorts.map((port, i) => startProcess(`worker ${i + 1}`, ['worker', '--health-port', String(port)], { ...env, DATA_DIR: path.join(dataDir, `worker-${i + 1}`) }, port)),
    ]);
    procs.push(...started);
    const [api2, worker1, worker2] = started as [Proc, Proc, Proc];
    const apis = [api1.url, api2.url];

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Three users, each signing up through a different API process.
      const users = [];
      for (let u = 0; u < 3; u++) {
        const base = apis[u % 2]!;
        const email = `scale-${u}-${randomBytes(3).toString('hex')}@example.com`;
        const registered = await api(base, 'POST', '/users/register', undefined, { firstName: 'S', lastName: String(u), email, password: PASSWORD, confirmPassword: PASSWORD });
        expect(registered.status, JSON.stringify(registered.json)).toBe(201);
        await client.query(`UPDATE users SET billing_plan = 'Enterprise' WHERE email = $1`, [email]);
        users.push({ token: registered.json!.token as string, base });
      }

      // User 2: a mailing from an SMTP sender, started through the second API process.
      const mailer = users[2]!;
      const sender = await api(mailer.base, 'POST', '/senders', mailer.token, { method: 'smtp', email: 'sender@example.com', server: '127.0.0.1', port: sink.port, username: SINK_USER.user, password: SINK_USER.pass });
      expect(sender.json?.sender?.isVerified, JSON.stringify(sender.json)).toBe(true);
      const letter = await api(mailer.base, 'POST', '/templates', mailer.token, upload('Letter.pdf', TEMPLATE_PDF, 'application/pdf'));
      const mailTemplateId = letter.json!.id as string;
      expect((await api(mailer.base, 'PATCH', `/templates/${mailTemplateId}/placeholders`, mailer.token, { placeholders: EMAIL_PLACEHOLDERS })).status).toBe(200);
      expect((await api(mailer.base, 'POST', `/templates/${mailTemplateId}/excel`, mailer.token, upload('people.csv', Buffer.from(recipientsCsv(RECIPIENTS, (n) => `scaled${n}@example.com`)), 'text/csv'))).status).toBe(201);
      expect((await api(mailer.base, 'PATCH', `/templates/${mailTemplateId}/email`, mailer.token, {
        isActive: true, senderId: sender.json!.sender!.id, subject: 'Letter {{First}}', content: '<p>Dear {{First}}</p>', recipientsColumn: 'Email',
      })).status).toBe(200);
      // Users 0 and 1: two merges each (one per template: a template runs one merge at a time), each
      // template uploaded and merged through a different API process.
      const templates: Array<{ token: string; templateId: string; base: string }> = [];
      for (const user of users.slice(0, 2)) {
        for (const base of apis) {
          const template = await api(base, 'POST', '/templates', user.token, upload('Letter.pdf', TEMPLATE_PDF, 'application/pdf'));
          expect(template.status, JSON.stringify(template.json)).toBe(201);
          const templateId = template.json!.id as string;
          expect((await api(base, 'PATCH', `/templates/${templateId}/placeholders`, user.token, { placeholders: NAME_PLACEHOLDERS })).status).toBe(200);
          expect((await api(base, 'POST', `/templates/${templateId}/excel`, user.token, upload('people.csv', Buffer.from(peopleCsv(MERGE_ROWS)), 'text/csv'))).status).toBe(201);
          templates.push({ token: user.token, templateId, base });
        }
      }
      // All at once, as users would: more merges than the workers run at a time, so both are busy.
      const merges = await Promise.all(templates.map(async ({ token, templateId, base }) => {
        const mergeId = newId();
        // An owner password: every document costs a key derivation, so the merges are still running when a worker dies.
        const response = await api(base, 'POST', `/templates/${templateId}/merge`, token, mergeBody(mergeId, { passwordProtection: { readPassword: '', modifyPassword: 'Owner123' } }));
        expect(response.status, JSON.stringify(response.json)).toBe(202);
        return { token, templateId, mergeId };
      }));

      const mailingId = newId();
      expect((await api(api2.url, 'POST', `/templates/${mailTemplateId}/merge`, mailer.token, mergeBody(mailingId, { email: { isActive: true } }))).status).toBe(202);

      // Kill worker 1 with SIGKILL while it is making a document: a merge is part way through.
      await vi.waitFor(async () => {
        const states = await Promise.all(merges.map((merge) => api(api1.url, 'GET', `/templates/${merge.templateId}/merges/${merge.mergeId}`, merge.token)));
        const midway = states.some((state) => state.json?.status === 'generating' && (state.json.done as number) > 0 && (state.json.done as number) < (state.json.total as number));
        if (!midway) throw new Error(`no merge midway yet: ${states.map((state) => `${state.json?.status} ${state.json?.done}`).join(', ')}`);
      }, { timeout: 120_000, interval: 50 });
      worker1.child.kill('SIGKILL');
      await worker1.exited;

      // Every merge completes, made by the worker that is left, and each row's document is its own.
      for (const [index, merge] of merges.entries()) {
        const base = apis[index % 2]!;
        const done = await vi.waitFor(async () => {
          const state = await api(base, 'GET', `/templates/${merge.templateId}/merges/${merge.mergeId}`, merge.token);
          if (state.json?.status !== 'completed') throw new Error(`merge ${index} is ${state.json?.status} ${state.json?.done}/${state.json?.total}: ${JSON.stringify(state.json?.error)}`);
          return state.json;
        }, { timeout: 240_000, interval: 200 });
        const file = await fetch(new URL(done.downloadUrl as string, base));
        expect(file.status).toBe(200);
        const pdfs = pdfsInZip(Buffer.from(await file.arrayBuffer()));
        expect(pdfs).toHaveLength(MERGE_ROWS);
        const texts = pdfs.map((pdf) => pdf.text.replace(/\s+/g, ' '));
        for (let n = 1; n <= MERGE_ROWS; n++) {
          expect(texts.filter((text) => text.includes(`Given${n} `) && text.includes(`Family${n} `)), `row ${n} of merge ${index}`).toHaveLength(1);
        }
      }

      // The mailing completes: every recipient got their message; duplicates only for messages in flight.
      await vi.waitFor(async () => {
        const state = await api(api1.url, 'GET', `/templates/${mailTemplateId}/merges/${mailingId}`, mailer.token);
        if (state.json?.mailingStatus !== 'completed') throw new Error(`mailing is ${state.json?.mailingStatus}`);
      }, { timeout: 240_000, interval: 200 });
      const received = sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('scaled'));
      const perRecipient = new Map<string, number>();
      for (const mail of received) perRecipient.set(mail.rcptTo[0]!, (perRecipient.get(mail.rcptTo[0]!) ?? 0) + 1);
      expect(perRecipient.size).toBe(RECIPIENTS);
      expect(received.length - RECIPIENTS).toBeLessThanOrEqual(MAIL_CONCURRENCY);

      // The killed worker's merge was made again by the other one (its job was claimed a second time).
      const retried = await client.query<{ n: number }>(`SELECT max(attempts)::int AS n FROM jobs WHERE kind = 'merge'`);
      expect(retried.rows[0]!.n).toBeGreaterThanOrEqual(2);
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM merges WHERE status = 'completed'`);
      expect(Number(rows[0]!.n)).toBe(merges.length + 1);
      // Files live in the bucket: no process kept any in a local files folder.
      for (const folder of ['api-1', 'api-2', 'worker-1', 'worker-2']) {
        const local = await readdir(path.join(dataDir, folder, 'files'), { recursive: true }).catch(() => []);
        expect(local, folder).toEqual([]);
      }
    } finally {
      await client.end();
    }

    // SIGTERM: each remaining process finishes and exits cleanly.
    for (const proc of [api1, api2, worker2]) proc.child.kill('SIGTERM');
    expect(await Promise.all([api1.exited, api2.exited, worker2.exited])).toEqual([0, 0, 0]);
  });
});
