/**
 * Faults under a running mailing: the disk fills up to the last byte mid-way (DATA_DIR, the embedded
 * database included, on a small tmpfs). The mailing goes on: every recipient gets the message, the
 * duplicates are at most what was in flight, nothing stays "sending", the server answers throughout,
 * and once space is back the next mailing runs.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { emailingTemplate, enterprise, mailingReport, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink } from './mail-support.ts';

const ROWS = 150;
const CONCURRENCY = 4;

function mountTmpfs(mb: number): { dir: string; unmount: () => void } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-mail-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return { dir, unmount: () => { execFileSync('umount', [dir]); rmSync(dir, { recursive: true, force: true }); } };
}
const probe = mountTmpfs(1);
probe?.unmount();

async function fillUp(dir: string): Promise<string> {
  const filler = path.join(dir, 'filler.bin');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      const stats = await statfs(dir);
      if (stats.bavail === 0) break;
      appendFileSync(filler, block.subarray(0, Math.min(block.length, Math.max(4096, stats.bavail * stats.bsize))));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

describe.skipIf(!probe)('a mailing on a disk that fills up', () => {
  let mounted: { dir: string; unmount: () => void };
  let server: TestServer;
  let sink: MailSink;
  beforeAll(async () => {
    mounted = mountTmpfs(48)!;
    sink = await startMailSink();
    server = await startTestServer({ database: 'pglite', config: { DATA_DIR: mounted.dir, MIN_FREE_MB: 0, SMTP_ALLOW_PRIVATE_HOSTS: true, MAIL_CONCURRENCY: CONCURRENCY, MAIL_RETRY_BASE_MS: 100 } });
  });
  afterAll(async () => {
    sink?.release();
    await server?.close();
    await sink?.close();
    mounted?.unmount();
  });

  it('goes on while the disk is full: every recipient once, nothing stays sending, the server answers', { timeout: 240_000 }, async () => {
    const user = await server.signUp();
    await enterprise(server, user.uid);
    const senderId = await smtpSender(server, user.token, sink);
    const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(ROWS, (n) => `full${n}@example.com`));
    const { mergeId, response } = await startEmailMerge(server, user.token, templateId);
    expect(response.status).toBe(202);
    const received = () => sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('full'));
    await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(20), { timeout: 120_000, interval: 20 });
    // Mid-way: hold the messages in flight, fill the disk to the last byte, let them go.
    sink.pause();
    const filler = await fillUp(mounted.dir);
    expect((await statfs(mounted.dir)).bavail).toBe(0);
    const atFull = received().length;
    sink.release();
    expect(atFull).toBeLessThan(ROWS);

    // The mailing's records live in the embedded database on the same disk; the server keeps answering.
    expect((await server.inject('GET', '/users/me', { token: user.token })).status).toBe(200);
    const merge = await waitForMailing(server, user.token, templateId, mergeId, undefined, 180_000);
    expect(merge.mailingStatus).toBe('completed');
    const report = await mailingReport(server, user.token, templateId, mergeId);
    expect(report.eventCounts).toMatchObject({ total: ROWS, accepted: ROWS, queued: 0, failed: 0 });
    const perRecipient = new Map<string, number>();
    for (const mail of received()) perRecipient.set(mail.rcptTo[0]!, (perRecipient.get(mail.rcptTo[0]!) ?? 0) + 1);
    expect(perRecipient.size).toBe(ROWS);
    expect(received().length - ROWS).toBeLessThanOrEqual(CONCURRENCY);
    expect(await readdir(path.join(mounted.dir, 'tmp')).catch(() => [])).toEqual([]);

    // Space back: the same account starts and finishes another mailing.
    await rm(filler);
    const next = await startEmailMerge(server, user.token, templateId);
    expect(next.response.status).toBe(202);
    expect((await waitForMailing(server, user.token, templateId, next.mergeId, undefined, 120_000)).mailingStatus).toBe('completed');
  });
});
