/**
 * A large separate-documents merge made in row ranges by several workers (MERGE_RANGE_ROWS low,
 * MERGE_CONCURRENCY 2) and assembled into one ZIP: every row's own document, charged once; a cancel
 * stops every range; an emailed merge made in ranges sends each recipient their own document.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forEachDatabase, startTestServer, type TestAccount } from './harness.ts';
import {
  counterOf, download, getMerge, mergeRequest, pdfsInZip, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, type TestServer,
} from './merge-support.ts';
import {
  emailingTemplate, parseMail, pdfText, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink,
} from './mail-support.ts';

const RANGE_ROWS = 3;

forEachDatabase((database) => {
  describe('merges made in ranges', () => {
    let server: TestServer;
    let user: TestAccount;

    beforeAll(async () => {
      server = await startTestServer({ database, config: { MERGE_RANGE_ROWS: RANGE_ROWS, MERGE_CONCURRENCY: 2, SMTP_ALLOW_PRIVATE_HOSTS: true } });
      user = await server.signUp();
      await setPlan(server, user.uid, 'Enterprise');
    });
    afterAll(async () => {
      await server?.close();
    });

    const rangesOf = (mergeId: string) =>
      server.ctx.db.query<{ range_index: number; first_position: number; last_position: number; documents: number; finished: boolean }>(
        'SELECT range_index, first_position, last_position, documents, finished FROM merge_ranges WHERE merge_id = $1 ORDER BY range_index',
        [mergeId],
      );
    const rangeJobs = (mergeId: string) =>
      server.ctx.db.query<{ id: string; status: string }>(`SELECT id, status FROM jobs WHERE kind = 'merge-range' AND payload->>'mergeId' = $1 ORDER BY id`, [mergeId]);

    it('makes a 9-row merge as ranges assembled into one ZIP with every row its own document, charged once', async () => {
      const templateId = await templateWithSheet(server, user.token, peopleCsv(9));
      const before = await counterOf(server, user.uid);
      const request = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}' });
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge).toMatchObject({ status: 'completed', total: 9, done: 9, error: null, issues: [] });

      // Three ranges of three documents, each its own job.
      expect(await rangesOf(request.mergeId)).toEqual([
        { range_index: 0, first_position: 0, last_position: 2, documents: 3, finished: true },
        { range_index: 1, first_position: 3, last_position: 5, documents: 3, finished: true },
        { range_index: 2, first_position: 6, last_position: 8, documents: 3, finished: true },
      ]);
      // The last range's job closes once it has cleared the parts, just after the merge shows completed.
      await vi.waitFor(async () => expect((await rangeJobs(request.mergeId)).map((job) => job.status)).toEqual(['done', 'done', 'done']), { timeout: 5_000, interval: 20 });

      const file = await download(server, merge.downloadUrl!);
      expect(file.status).toBe(200);
      expect(file.bytes.length).toBe(merge.fileSize);
      const pdfs = pdfsInZip(file.bytes);
      expect(pdfs.map((pdf) => pdf.name)).toEqual(Array.from({ length: 9 }, (_, i) => `Family${i + 1}-Given${i + 1}.pdf`));
      for (const [i, pdf] of pdfs.entries()) {
        const row = i + 1;
        expect(pdf.text).toContain(`Given${row}`);
        expect(pdf.text).toContain(`Family${row}`);
        for (let other = 1; other <= 9; other++) if (other !== row) expect(pdf.text).not.toMatch(new RegExp(`Given${other}\\b`));
      }
      // Charged once, for nine documents; the parts are gone, the ZIP stays.
      expect((await counterOf(server, user.uid)) - before).toBe(9);
      await vi.waitFor(async () => expect(await server.ctx.blobs.exists(`merges/${request.mergeId}/parts/0.zip-part`)).toBe(false), { timeout: 5_000, interval: 20 });
      expect(await server.ctx.blobs.exists(`merges/${request.mergeId}/${merge.fileName}`)).toBe(true);
    });

    it('leaves a merge at or under one range as one job', async () => {
      const templateId = await templateWithSheet(server, user.token, peopleCsv(RANGE_ROWS));
      const request = mergeRequest();
      await startMerge(server, user.token, templateId, request);
      expect(await waitForMerge(server, user.token, templateId, request.mergeId)).toMatchObject({ status: 'completed', done: RANGE_ROWS });
      expect(await rangesOf(request.mergeId)).toEqual([]);
    });

    it('cancels every range of a merge cancelled mid-way: no file, no part, nothing charged', async () => {
      const rows = 60;
      const templateId = await templateWithSheet(server, user.token, peopleCsv(rows));
      const before = await counterOf(server, user.uid);
      // Per-row passwords make each document cost a key derivation: the ranges take a while.
      const request = mergeRequest({ passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
      await startMerge(server, user.token, templateId, request);
      await waitForMerge(server, user.token, templateId, request.mergeId, (merge) => merge.status === 'generating' && merge.done > 0);
      expect((await rangesOf(request.mergeId)).length).toBe(rows / RANGE_ROWS);

      const cancelled = await server.inject('PATCH', `/templates/${templateId}/merges/${request.mergeId}/cancel`, { token: user.token });
      expect(cancelled.json).toMatchObject({ status: 'cancelled', downloadUrl: null });
      // No range runs or waits any more; none finished after the cancel.
      const jobs = await vi.waitFor(async () => {
        const now = await rangeJobs(request.mergeId);
        if (now.some((job) => job.status === 'queued' || job.status === 'running')) throw new Error(JSON.stringify(now));
        return now;
      }, { timeout: 20_000, interval: 50 });
      expect(jobs.filter((job) => job.status === 'cancelled').length).toBeGreaterThan(0);
      const merge = await getMerge(server, user.token, templateId, request.mergeId);
      expect(merge.status).toBe('cancelled');
      expect(merge.done).toBeLessThan(rows);
      expect(await server.ctx.blobs.exists(`merges/${request.mergeId}/Letter.zip`)).toBe(false);
      const leftover = await Promise.all(Array.from({ length: rows / RANGE_ROWS }, (_, i) => server.ctx.blobs.exists(`merges/${request.mergeId}/parts/${i}.zip-part`)));
      expect(leftover.filter(Boolean)).toEqual([]);
      expect((await counterOf(server, user.uid)) - before).toBe(0);
    });

    describe('emailed', () => {
      let sink: MailSink;
      beforeAll(async () => {
        sink = await startMailSink();
      });
      afterAll(async () => {
        await sink?.close();
      });

      it('sends each recipient their own document from a merge made in ranges', async () => {
        const rows = 8;
        const senderId = await smtpSender(server, user.token, sink);
        const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(rows), { ccColumn: null, bccColumn: null });
        const { mergeId, response } = await startEmailMerge(server, user.token, templateId);
        expect(response.status, JSON.stringify(response.json)).toBe(202);
        const merge = await waitForMailing(server, user.token, templateId, mergeId);
        expect(merge).toMatchObject({ status: 'completed', mailingStatus: 'completed' });
        expect((await rangesOf(mergeId)).length).toBe(3);

        const mine = sink.accepted.filter((mail) => /^person\d+@example\.com$/.test(mail.rcptTo[0] ?? ''));
        expect(mine.map((mail) => mail.rcptTo[0]).sort()).toEqual(Array.from({ length: rows }, (_, i) => `person${i + 1}@example.com`).sort());
        for (const mail of mine) {
          const row = Number(/^person(\d+)@/.exec(mail.rcptTo[0]!)![1]);
          const parsed = await parseMail(mail.raw);
          const pdfs = parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf');
          expect(pdfs).toHaveLength(1);
          // Read from the assembled ZIP at the offset the index gives: the wrong offset is the wrong row or no PDF.
          const text = pdfText(pdfs[0]!.content);
          expect(text).toContain(`Given${row}`);
          expect(text).toContain(`Family${row}`);
          for (let other = 1; other <= rows; other++) if (other !== row) expect(text).not.toMatch(new RegExp(`Given${other}\\b`));
        }
      });
    });
  });
});
