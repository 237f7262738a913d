/**
 * PostgreSQL restarted under a running merge and a running mailing (issue #11): the server's database
 * goes away mid-way (every session ended, as `pg_ctl restart -m fast` does) and comes back. Each ends
 * completed, or cleanly failed, never stuck in generating or sending; nothing is lost (every row's
 * document, every recipient's message, duplicates no more than were in flight); nothing is left in
 * DATA_DIR/tmp; and the server answers /readyz again as soon as the database is back.
 *
 * The cluster is the test's own (private-postgres.ts), never the machine's shared one.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { emailingTemplate, enterprise, mailingReport, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink } from './mail-support.ts';
import { download, inTempDir, mergeRequest, peopleCsv, startMerge, templateWithSheet, waitForMerge } from './merge-support.ts';
import { postgresBin, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const bin = postgresBin();
const ROWS = 9_000; // within the Enterprise plan's 10,000 documents a month
const RECIPIENTS = 600;
const CONCURRENCY = 4;
const LEASE_MS = 10 * 60_000;

describe.skipIf(!bin)(`PostgreSQL restarted under work${bin ? '' : ' (skipped: no initdb under /usr/lib/postgresql/*/bin)'}`, () => {
  let postgres: PrivatePostgres;
  let sink: MailSink;
  let server: TestServer;

  beforeAll(async () => {
    postgres = await startPrivatePostgres(bin!);
    sink = await startMailSink();
    server = await startTestServer({
      database: 'postgres',
      config: { DATABASE_URL: postgres.url, SMTP_ALLOW_PRIVATE_HOSTS: true, MAIL_CONCURRENCY: CONCURRENCY, MAIL_RETRY_BASE_MS: 100 },
      // Leases longer than the test's waits: a job whose end could not be written while the database
      // was away must not be left to its lease (the default 30 s hid that as a stall).
      jobOptions: { leaseMs: LEASE_MS },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await sink?.close();
    await postgres?.destroy();
  });

  const readyz = async () => (await fetch(`${server.url}/readyz`)).status;
  const tmpFiles = async () => (await readdir(path.join(server.config.DATA_DIR, 'tmp'), { recursive: true }).catch(() => [] as string[]));

  /** Stops the database until the server notices (readyz 503), starts it again, and times until the server is ready. */
  async function restartPostgres(): Promise<number> {
    await postgres.stop();
    await vi.waitFor(async () => expect(await readyz()).toBe(503), { timeout: 15_000, interval: 50 });
    await postgres.start();
    const back = performance.now();
    await vi.waitFor(async () => expect(await readyz()).toBe(200), { timeout: 5_000, interval: 20 });
    return performance.now() - back;
  }

  it('a merge mid-way completes with every row\'s document once, and the server answers as soon as the database is back', async () => {
    const user = await server.signUp();
    await enterprise(server, user.uid);
    const templateId = await templateWithSheet(server, user.token, peopleCsv(ROWS));
    const request = mergeRequest();
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    await waitForMerge(server, user.token, templateId, request.mergeId, (merge) => merge.status === 'generating' && merge.done > 0, 120_000);

    expect(await restartPostgres()).toBeLessThan(5_000);
    expect((await server.inject('GET', '/users/me', { token: user.token })).status).toBe(200);

    const merge = await waitForMerge(server, user.token, templateId, request.mergeId, undefined, 120_000);
    expect(merge.status, JSON.stringify(merge)).toBe('completed');
    expect(merge.done).toBe(ROWS);
    const zip = await download(server, merge.downloadUrl!);
    expect(zip.status).toBe(200);
    const names = inTempDir((dir) => {
      const file = path.join(dir, 'out.zip');
      writeFileSync(file, zip.bytes);
      return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim().split('\n');
    });
    const entries = names.filter((name) => name.endsWith('.pdf'));
    expect(entries).toHaveLength(ROWS);
    expect(new Set(entries).size).toBe(ROWS);
    await vi.waitFor(async () => expect(await tmpFiles()).toEqual([]), { timeout: 10_000, interval: 50 });
  }, 400_000);

  it('a mailing mid-way sends every recipient\'s message, duplicates no more than were in flight', async () => {
    const user = await server.signUp();
    await enterprise(server, user.uid);
    const senderId = await smtpSender(server, user.token, sink);
    const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(RECIPIENTS, (n) => `restart${n}@example.com`));
    const received = () => sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('restart'));
    const { mergeId, response } = await startEmailMerge(server, user.token, templateId);
    expect(response.status, JSON.stringify(response.json)).toBe(202);
    await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(50), { timeout: 120_000, interval: 20 });
    expect(received().length).toBeLessThan(RECIPIENTS);

    expect(await restartPostgres()).toBeLessThan(5_000);

    const merge = await waitForMailing(server, user.token, templateId, mergeId, undefined, 120_000);
    expect(merge.mailingStatus, JSON.stringify(merge)).toBe('completed');
    const report = await mailingReport(server, user.token, templateId, mergeId);
    expect(report.eventCounts).toMatchObject({ total: RECIPIENTS, accepted: RECIPIENTS, queued: 0, failed: 0 });
    const perRecipient = new Map<string, number>();
    for (const mail of received()) perRecipient.set(mail.rcptTo[0]!, (perRecipient.get(mail.rcptTo[0]!) ?? 0) + 1);
    expect(perRecipient.size).toBe(RECIPIENTS);
    const duplicates = received().length - RECIPIENTS;
    expect(duplicates).toBeLessThanOrEqual(CONCURRENCY);
    await vi.waitFor(async () => expect(await tmpFiles()).toEqual([]), { timeout: 10_000, interval: 50 });
  }, 400_000);
});
