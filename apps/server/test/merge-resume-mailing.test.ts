/**
 * An emailed merge stopped mid-way and resumed by the next server (embedded database): the document
 * index the mailing reads (each document's place in the ZIP) holds the documents of both runs, so every
 * row is sent its own document, once, byte-valid and opening with its row's password.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PgliteDb } from '../src/adapters/db/pglite.ts';
import { startTestServer } from './harness.ts';
import { emailingTemplate, enterprise, parseMail, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink } from './mail-support.ts';
import { getMerge, waitForMerge } from './merge-support.ts';
import { restart } from './restart-support.ts';

const ROWS = 150;

/** The text of an encrypted PDF, opened with its password. */
function textOf(pdf: Buffer, password: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-resume-mail-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-upw', password, file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('an emailed merge across a restart', () => {
  let sink: MailSink | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await sink?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes from the documents written; every row is sent its own document once', async () => {
    sink = await startMailSink();
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-resume-mail-'));
    const shared = { DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64url'), SMTP_ALLOW_PRIVATE_HOSTS: true, MAIL_RETRY_BASE_MS: 100 };
    const first = await startTestServer({ database: 'pglite', config: shared });
    const user = await first.signUp();
    await enterprise(first, user.uid);
    const senderId = await smtpSender(first, user.token, sink);
    const templateId = await emailingTemplate(first, user.token, senderId, recipientsCsv(ROWS), { ccColumn: null, bccColumn: null });
    // Per-row passwords: every document costs a key derivation, so the merge is still running when stopped.
    const { mergeId, response } = await startEmailMerge(first, user.token, templateId, { passwordProtection: { readPassword: 'open{{First}}', modifyPassword: 'Owner123' } });
    expect(response.status, JSON.stringify(response.json)).toBe(202);
    await waitForMerge(first, user.token, templateId, mergeId, (merge) => merge.status === 'generating' && merge.done >= ROWS / 5);
    await first.ctx.jobs.stop();
    const reached = (await getMerge(first, user.token, templateId, mergeId)).done;
    expect(reached).toBeLessThan(ROWS);
    const snapshot = await (first.ctx.db as PgliteDb).dumpDataDir();
    await first.close();

    const logged: Array<Record<string, unknown>> = [];
    const second = await restart(shared, snapshot, logged);
    try {
      const merge = await waitForMailing(second, user.token, templateId, mergeId, undefined, 180_000);
      expect(merge).toMatchObject({ status: 'completed', mailingStatus: 'completed', done: ROWS });
      const resumed = logged.find((line) => line.msg === 'merge resumed' && line.mergeId === mergeId);
      expect(resumed?.documents).toBeGreaterThanOrEqual(reached);

      expect(sink.accepted).toHaveLength(ROWS);
      const rows = new Set<number>();
      for (const mail of sink.accepted) {
        const parsed = await parseMail(mail.raw);
        const row = Number(/Given(\d+)/.exec(parsed.subject ?? '')![1]);
        rows.add(row);
        expect(mail.rcptTo).toEqual([`person${row}@example.com`]);
        const pdfs = parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf');
        expect(pdfs).toHaveLength(1);
        const text = textOf(pdfs[0]!.content, `openGiven${row}`);
        expect(text).toContain(`Given${row}`);
        expect(text).toContain(`Family${row}`);
      }
      expect(rows.size).toBe(ROWS);
    } finally {
      await second.close();
    }
  }, 300_000);
});
