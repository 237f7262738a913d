/** Merges through the HTTP API: start, progress, download, credits, watermark, cancel, validation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_WATERMARK, type Merge } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import {
  NAME_PLACEHOLDERS, TEMPLATE_PDF, counterOf, download, ended, getMerge, mergeRequest, pdfFacts, pdfsInZip, peopleCsv, setPlan, startMerge,
  templatePages, templateWithSheet, textPlaceholder, waitForMerge, type TestServer,
} from './merge-support.ts';

forEachDatabase((database) => {
  describe('merges', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(async () => {
      await server.close();
    });

    it('makes one PDF per row into a ZIP that downloads without a token, and charges the documents', async () => {
      const user = await server.signUp();
      await setPlan(server, user.uid, 'Pro');
      const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
      const request = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}', customName: 'Invoices March' });
      const started = await startMerge(server, user.token, templateId, request);
      expect(started.status).toBe(202);
      // The answer shows the merge as it stands: the runner may already have taken the job.
      expect(started.json).toMatchObject({ mergeId: request.mergeId, templateId, status: expect.stringMatching(/^(queued|generating)$/), downloadUrl: null });

      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge).toMatchObject({ status: 'completed', total: 3, done: 3, fileName: 'Invoices March.zip', error: null, issues: [] });
      expect(merge.downloadUrl).toMatch(/^\/v1\/files\//);

      const file = await download(server, merge.downloadUrl!);
      expect(file.status, file.bytes.toString().slice(0, 300)).toBe(200);
      expect(file.headers.get('content-type')).toContain('application/zip');
      expect(file.headers.get('content-disposition')).toContain('attachment');
      expect(file.bytes.length).toBe(merge.fileSize);
      const pdfs = pdfsInZip(file.bytes);
      expect(pdfs.map((pdf) => pdf.name)).toEqual(['Family1-Given1.pdf', 'Family2-Given2.pdf', 'Family3-Given3.pdf']);
      pdfs.forEach((pdf, index) => {
        expect(pdf.text).toContain(`Given${index + 1}`);
        expect(pdf.text).toContain(`Family${index + 1}`);
        for (const other of [1, 2, 3].filter((n) => n !== index + 1)) expect(pdf.text).not.toContain(`Given${other}`);
      });
      expect(pdfs[0]!.text.replace(/\s+/g, '')).not.toContain(FREE_PLAN_WATERMARK.replace(/\s+/g, ''));
      expect(await counterOf(server, user.uid)).toBe(3);

      // The history lists it, newest first.
      const history = await server.inject('GET', `/templates/${templateId}/merges`, { token: user.token });
      expect((history.json as { merges: Merge[] }).merges.map((entry) => entry.mergeId)).toEqual([request.mergeId]);
    });

    it('makes one combined PDF of rows x template pages, only of the rows asked for', async () => {
      const user = await server.signUp();
      await setPlan(server, user.uid, 'Pro');
      const templateId = await templateWithSheet(server, user.token, peopleCsv(6));
      const request = mergeRequest({ isCombinedOutput: true, rowsData: { specificRowsNumbers: '2, 4-5, x, 7' } });
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge).toMatchObject({ status: 'completed', fileName: 'Letter.pdf', isCombinedOutput: true, total: 4 });
      const file = await download(server, merge.downloadUrl!);
      expect(file.headers.get('content-type')).toContain('application/pdf');
      const facts = pdfFacts(file.bytes);
      expect(facts.pages).toBe(4 * templatePages());
      for (const n of [1, 3, 4, 6]) expect(facts.text).toContain(`Given${n}`);
      for (const n of [2, 5]) expect(facts.text).not.toContain(`Given${n}`);
      expect(await counterOf(server, user.uid)).toBe(4);
    });

    it('stamps the Free plan watermark on every page', async () => {
      const user = await server.signUp();
      const templateId = await templateWithSheet(server, user.token, peopleCsv(2));
      const request = mergeRequest({ isCombinedOutput: true });
      await startMerge(server, user.token, templateId, request);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      const facts = pdfFacts((await download(server, merge.downloadUrl!)).bytes);
      expect(facts.rawPages).toHaveLength(2 * templatePages());
      const stamp = FREE_PLAN_WATERMARK.replace(/\s+/g, '');
      for (const page of facts.rawPages) expect(page.replace(/\s+/g, '')).toContain(stamp);
    });

    it('refuses a merge the credits do not cover, and with limitToCredits makes only the first N', async () => {
      const user = await server.signUp();
      await setPlan(server, user.uid, 'Free', 97); // 100 a month: 3 left
      const templateId = await templateWithSheet(server, user.token, peopleCsv(5));
      const refused = await startMerge(server, user.token, templateId, mergeRequest());
      expect(refused.status).toBe(402); // credits are bought: Payment Required (docs/errors.md)
      expect(refused.json).toMatchObject({ code: 'merge/insufficient-credits', params: { available: 3, needed: 5 } });

      const request = mergeRequest({ limitToCredits: true });
      await startMerge(server, user.token, templateId, request);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge).toMatchObject({ status: 'completed', total: 3, done: 3 });
      const names = pdfsInZip((await download(server, merge.downloadUrl!)).bytes).map((pdf) => pdf.text);
      expect(names).toHaveLength(3);
      expect(names.join('\n')).toContain('Given3');
      expect(names.join('\n')).not.toContain('Given4');
      expect(await counterOf(server, user.uid)).toBe(100);

      const none = await startMerge(server, user.token, templateId, mergeRequest({ limitToCredits: true }));
      expect(none.json).toMatchObject({ code: 'merge/insufficient-credits', params: { available: 0, needed: 5 } });
    });

    it('cancels a 2,000-row merge: status cancelled, no file, nothing charged', async () => {
      const user = await server.signUp();
      await setPlan(server, user.uid, 'Enterprise');
      const templateId = await templateWithSheet(server, user.token, peopleCsv(2_000));
      // Per-row passwords make every document cost a key derivation: the merge takes a while.
      const request = mergeRequest({ passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      await waitForMerge(server, user.token, templateId, request.mergeId, (merge) => merge.status === 'generating' && merge.done > 0);

      const cancelled = await server.inject('PATCH', `/templates/${templateId}/merges/${request.mergeId}/cancel`, { token: user.token });
      expect(cancelled.status).toBe(200);
      expect(cancelled.json).toMatchObject({ status: 'cancelled', downloadUrl: null, fileName: null });
      const merge = await getMerge(server, user.token, templateId, request.mergeId);
      expect(merge.status).toBe('cancelled');
      expect(merge.done).toBeLessThan(2_000);
      expect(await server.ctx.blobs.exists(`merges/${request.mergeId}/Letter.zip`)).toBe(false);
      expect(await counterOf(server, user.uid)).toBe(0);
      // Cancelling again answers with the merge as it is.
      const again = await server.inject('PATCH', `/templates/${templateId}/merges/${request.mergeId}/cancel`, { token: user.token });
      expect(again.json).toMatchObject({ status: 'cancelled' });
    });

    it('is idempotent on mergeId, and refuses a second merge of the template while one runs', async () => {
      const user = await server.signUp();
      await setPlan(server, user.uid, 'Enterprise');
      const templateId = await templateWithSheet(server, user.token, peopleCsv(400));
      const request = mergeRequest({ passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: '' } });
      const first = await startMerge(server, user.token, templateId, request);
      const second = await startMerge(server, user.token, templateId, request);
      expect(second.status).toBe(202);
      expect((second.json as Merge).mergeId).toBe(request.mergeId);
      // 400 encrypted documents take far longer than the next request: the first merge still runs.
      const other = await startMerge(server, user.token, templateId, mergeRequest());
      expect(other.status, JSON.stringify(other.json)).toBe(409);
      expect(other.json).toMatchObject({ code: 'merge/in-progress' });
      expect(first.status).toBe(202);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge.status).toBe('completed');
      const history = await server.inject('GET', `/templates/${templateId}/merges`, { token: user.token });
      expect((history.json as { merges: Merge[] }).merges.map((entry) => entry.mergeId)).toEqual([request.mergeId]);
      expect(await counterOf(server, user.uid)).toBe(400);
      // Once it has ended, the template can be merged again.
      const next = await startMerge(server, user.token, templateId, mergeRequest());
      expect(next.status).toBe(202);
      await server.inject('PATCH', `/templates/${templateId}/merges/${(next.json as Merge).mergeId}/cancel`, { token: user.token });
    });

    it('refuses requests it cannot make, with the catalogue code', async () => {
      const user = await server.signUp();
      const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
      const expectError = async (request: ReturnType<typeof mergeRequest>, code: string, status = 400, id = templateId) => {
        const response = await startMerge(server, user.token, id, request);
        expect(response.status, JSON.stringify(response.json)).toBe(status);
        expect((response.json as { code: string }).code).toBe(code);
      };
      await expectError(mergeRequest({ rowsData: { startRow: 50, endRow: 60 } }), 'merge/bad-row-range');
      await expectError(mergeRequest({ rowsData: { specificRowsNumbers: 'a, 3-, 1-2-3' } }), 'merge/bad-row-range');
      await expectError(mergeRequest({ email: { isActive: true } }), 'email/plan-required', 402);
      await expectError(mergeRequest({ passwordProtection: { readPassword: 'with space', modifyPassword: '' } }), 'merge/password-invalid');
      await expectError(mergeRequest({ isCombinedOutput: true, passwordProtection: { readPassword: '{{First}}', modifyPassword: '' } }), 'merge/password-tags-combined');
      await expectError(mergeRequest({ fileNamePattern: '{{Nope}}' }), 'merge/file-name-tag-unknown');
      await expectError(mergeRequest(), 'template/not-found', 404, 'A'.repeat(20));

      const noPlaceholders = await templateWithSheet(server, user.token, peopleCsv(1), [textPlaceholder('x', 'First', 0.1)]);
      await server.inject('PATCH', `/templates/${noPlaceholders}/placeholders`, { token: user.token, body: { placeholders: [], forceDeleteAllPlaceholders: true } });
      await expectError(mergeRequest(), 'merge/no-placeholders', 400, noPlaceholders);

      const unmatched = await templateWithSheet(server, user.token, peopleCsv(1), [textPlaceholder('x', 'Salary', 0.1)]);
      await expectError(mergeRequest(), 'merge/no-matching-placeholders', 400, unmatched);

      const upload = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Bare.pdf', bytes: TEMPLATE_PDF, type: 'application/pdf' } });
      const bare = (upload.json as { id: string }).id;
      await server.inject('PATCH', `/templates/${bare}/placeholders`, { token: user.token, body: { placeholders: NAME_PLACEHOLDERS } });
      await expectError(mergeRequest(), 'sheet/missing', 400, bare);

      // Nothing was started by any of these.
      const history = await server.inject('GET', `/templates/${templateId}/merges`, { token: user.token });
      expect((history.json as { merges: Merge[] }).merges).toEqual([]);
    });

    it('deletes a merge\'s files (the link then says so) and then the history entry', async () => {
      const user = await server.signUp();
      const templateId = await templateWithSheet(server, user.token, peopleCsv(2));
      const request = mergeRequest();
      await startMerge(server, user.token, templateId, request);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId, ended);
      const link = merge.downloadUrl!;
      const deletedFiles = await server.inject('DELETE', `/templates/${templateId}/merges/${request.mergeId}/files`, { token: user.token });
      expect(deletedFiles.json).toMatchObject({ filesDeleted: true, downloadUrl: null, status: 'completed' });
      const gone = await download(server, link);
      expect(gone.status).toBe(410);
      expect(JSON.parse(gone.bytes.toString())).toMatchObject({ code: 'merge/files-deleted' });

      const removed = await server.inject('DELETE', `/templates/${templateId}/merges/${request.mergeId}`, { token: user.token });
      expect(removed.json).toEqual({ ok: true });
      const missing = await server.inject('GET', `/templates/${templateId}/merges/${request.mergeId}`, { token: user.token });
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ code: 'merge/not-found' });
      const cancelMissing = await server.inject('PATCH', `/templates/${templateId}/merges/${request.mergeId}/cancel`, { token: user.token });
      expect(cancelMissing.status).toBe(404);
    });
  });
});
