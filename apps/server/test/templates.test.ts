/** The template library through the HTTP API: upload, download, thumbnails, unlock, settings, copies, delete. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TemplateDetail, TemplateExport, TemplateSummary } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import { PNG_SIGNATURE, fixture, inspectPng, makeEncryptedPdf, makePdf, placeholder } from './library-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;
type Response = Awaited<ReturnType<TestServer['inject']>>;

const pdfFile = (bytes: Uint8Array, name = 'Letter.pdf') => ({ name, bytes, type: 'application/pdf' });
const detailOf = (response: Response) => response.json as TemplateDetail;

forEachDatabase((database) => {
  describe('templates', () => {
    let server: TestServer;
    let owner: Awaited<ReturnType<TestServer['signUp']>>;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      owner = await server.signUp();
      token = owner.token;
    });
    afterAll(async () => {
      await server.close();
    });

    async function upload(bytes: Uint8Array, name = 'Letter.pdf', as = token): Promise<TemplateDetail> {
      const response = await server.inject('POST', '/templates', { token: as, file: pdfFile(bytes, name) });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return detailOf(response);
    }

    /** The thumbnail is made after the upload answered: wait until the detail names it. */
    async function thumbnailReady(id: string): Promise<TemplateDetail> {
      return vi.waitFor(async () => {
        const detail = detailOf(await server.inject('GET', `/templates/${id}`, { token }));
        expect(detail.thumbnailUrl).not.toBeNull();
        return detail;
      }, { timeout: 30_000, interval: 100 });
    }

    it('stores an uploaded PDF with its pages, downloads it by ETag and renders a thumbnail of page 1', async () => {
      const bytes = await makePdf({ pages: 2 });
      const detail = await upload(bytes);
      expect(detail).toMatchObject({
        name: 'Letter.pdf', customName: null, templateType: 'pdf', numPages: 2, isEncrypted: false, placeholders: [], images: [],
        pages: [{ width: 612, height: 792 }, { width: 612, height: 792 }], headersRowNo: 1, excel: null, excelName: null,
        output: { isCombinedOutput: false, isKeepFormOutput: true, isTryRepair: false, isCompressedOutput: true, passwordProtection: null },
      });
      expect(detail.id).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(detail.checksum).toMatch(/^[0-9a-f]{64}$/);

      const download = await server.inject('GET', `/templates/${detail.id}/download`, { token });
      expect(download.status).toBe(200);
      expect(Buffer.from(download.body).equals(Buffer.from(bytes))).toBe(true);
      const etag = download.headers['etag'];
      expect(etag).toContain(detail.checksum);
      const again = await server.inject('GET', `/templates/${detail.id}/download`, { token, headers: { 'if-none-match': String(etag) } });
      expect(again.status).toBe(304);

      const ready = await thumbnailReady(detail.id);
      expect(ready.thumbnailUrl).toBe(`/v1/templates/${detail.id}/thumbnail?v=${detail.checksum}`);
      const thumbnail = await server.inject('GET', `/templates/${detail.id}/thumbnail`, { token });
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers['content-type']).toContain('image/png');
      expect(thumbnail.headers['etag']).toBeTruthy();
      expect([...thumbnail.body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      const look = await inspectPng(thumbnail.body);
      expect(look.width).toBeGreaterThanOrEqual(290);
      expect(look.width).toBeLessThanOrEqual(310);
      // The title is printed at the top of page 1; the lower half is blank paper.
      expect(look.darkTop).toBeGreaterThan(0.002);
      expect(look.darkBottom).toBe(0);

      const list = (await server.inject('GET', '/templates', { token })).json as { templates: TemplateSummary[] };
      expect(list.templates.find((entry) => entry.id === detail.id)).toMatchObject({ numPages: 2, placeholderCount: 0, merges: [], thumbnailUrl: ready.thumbnailUrl });
    });

    it('refuses empty files, files that are not PDFs and PDFs beyond repair with the catalogue errors', async () => {
      const empty = await server.inject('POST', '/templates', { token, file: pdfFile(new Uint8Array(0)) });
      expect(empty.status).toBe(400);
      expect(empty.json).toMatchObject({ code: 'template/empty' });
      const text = await server.inject('POST', '/templates', { token, file: pdfFile(new TextEncoder().encode('hello, not a pdf'), 'notes.pdf') });
      expect(text.json).toMatchObject({ code: 'template/wrong-type', message: 'Incorrect file type. Please upload a PDF or a word-processor document (.docx, .doc, .odt, .rtf or .txt).' });
      const png = await server.inject('POST', '/templates', { token, file: pdfFile(await fixture('image.png'), 'image.pdf') });
      expect(png.json).toMatchObject({ code: 'template/wrong-type' });
      const broken = await server.inject('POST', '/templates', { token, file: pdfFile(await fixture('corpus/refused-header-only.pdf')) });
      expect(broken.status).toBe(400);
      expect((broken.json as { code: string }).code).toMatch(/^template\//);
      const list = (await server.inject('GET', '/templates', { token })).json as { templates: TemplateSummary[] };
      expect(list.templates.map((entry) => entry.name)).not.toContain('notes.pdf');
    });

    it('accepts a damaged PDF the engine can repair and keeps repair off until the user turns it on', async () => {
      const detail = await upload(await fixture('corpus/damaged-wrong-offsets.pdf'), 'damaged.pdf');
      expect(detail).toMatchObject({ numPages: 2, isEncrypted: false, output: { isTryRepair: false } });
    });

    it('keeps an encrypted PDF locked until the right password unlocks it for good', async () => {
      const locked = await upload(await makeEncryptedPdf('Read2024'), 'locked.pdf');
      expect(locked).toMatchObject({ isEncrypted: true, numPages: 0, pages: [], thumbnailUrl: null });

      const wrong = await server.inject('POST', `/templates/${locked.id}/decrypt`, { token, body: { password: 'nope', templateId: locked.id } });
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({ code: 'template/wrong-password', message: 'Wrong password' });
      expect(detailOf(await server.inject('GET', `/templates/${locked.id}`, { token })).isEncrypted).toBe(true);

      const right = await server.inject('POST', `/templates/${locked.id}/decrypt`, { token, body: { password: 'Read2024' } });
      expect(right.status).toBe(200);
      const answer = right.json as { isEncrypted: boolean; thumbnailImage: string };
      expect(answer.isEncrypted).toBe(false);
      expect(answer.thumbnailImage).toMatch(/^data:image\/png;base64,/);
      const look = await inspectPng(new Uint8Array(Buffer.from(answer.thumbnailImage.split(',')[1]!, 'base64')));
      expect(look.darkTop).toBeGreaterThan(0.002);

      const unlocked = detailOf(await server.inject('GET', `/templates/${locked.id}`, { token }));
      expect(unlocked).toMatchObject({ isEncrypted: false, numPages: 2, pages: [{ width: 612, height: 792 }, { width: 612, height: 792 }] });
      expect(unlocked.thumbnailUrl).not.toBeNull();
      const stored = await server.inject('GET', `/templates/${locked.id}/download`, { token });
      expect(Buffer.from(stored.body).toString('latin1')).not.toContain('/Encrypt');
    });

    it('opens a PDF protected only by an owner password at once', async () => {
      const detail = await upload(await fixture('encrypted-owner-only-aes-256.pdf'), 'owner-only.pdf');
      expect(detail.isEncrypted).toBe(false);
      expect(detail.numPages).toBeGreaterThan(0);
    });

    it('replaces the file but keeps placeholders, even those on pages the new file lacks', async () => {
      const detail = await upload(await makePdf({ pages: 2 }));
      const placeholders = [placeholder('First'), placeholder('Last', { id: 'on-page-2', pageNumber: 2 })];
      expect((await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders } })).status).toBe(200);

      const replacement = await makePdf({ pages: 1, title: 'NEW VERSION' });
      const replaced = await server.inject('PUT', `/templates/${detail.id}/file`, { token, file: pdfFile(replacement, 'Letter v2.pdf') });
      expect(replaced.status, JSON.stringify(replaced.json)).toBe(200);
      const after = detailOf(replaced);
      expect(after).toMatchObject({ name: 'Letter v2.pdf', numPages: 1 });
      expect(after.checksum).not.toBe(detail.checksum);
      expect(after.placeholders.map((entry) => entry.id)).toEqual(['p-First', 'on-page-2']);
      const download = await server.inject('GET', `/templates/${detail.id}/download`, { token });
      expect(Buffer.from(download.body).equals(Buffer.from(replacement))).toBe(true);
      expect((await thumbnailReady(detail.id)).thumbnailUrl).toContain(after.checksum);
    });

    it('saves placeholders, and an empty list only when forced', async () => {
      const detail = await upload(await makePdf());
      const saved = await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [placeholder('Name')] } });
      expect(detailOf(saved).placeholders).toEqual([expect.objectContaining({ column: 'Name', fontFamily: 'Helvetica', fill: '#000000' })]);

      const unforced = await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [] } });
      expect(unforced.status).toBe(400);
      expect(detailOf(await server.inject('GET', `/templates/${detail.id}`, { token })).placeholderCount).toBe(1);

      const invalid = await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [{ ...placeholder('X'), relativeX: 3 }] } });
      expect(invalid.status).toBe(400);

      const forced = await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [], forceDeleteAllPlaceholders: true } });
      expect(detailOf(forced).placeholders).toEqual([]);
    });

    it('renames, remembers output settings with their passwords, and drops the protection when both passwords are empty', async () => {
      const detail = await upload(await makePdf());
      const renamed = await server.inject('PATCH', `/templates/${detail.id}`, { token, body: { customName: '  Invoices  ' } });
      expect(detailOf(renamed).customName).toBe('Invoices');

      const protectedOutput = { isCombinedOutput: true, passwordProtection: { readPassword: 'Open123', modifyPassword: 'Edit!456' } };
      const saved = detailOf(await server.inject('PATCH', `/templates/${detail.id}`, { token, body: { output: protectedOutput } }));
      expect(saved.output).toMatchObject({ isCombinedOutput: true, isKeepFormOutput: true, passwordProtection: { readPassword: 'Open123', modifyPassword: 'Edit!456' } });
      // At rest the passwords are encrypted.
      const [row] = await server.ctx.db.query<{ output: unknown }>('SELECT output FROM templates WHERE id = $1', [detail.id]);
      expect(JSON.stringify(row!.output)).not.toContain('Open123');

      const cleared = detailOf(await server.inject('PATCH', `/templates/${detail.id}`, { token, body: { output: { passwordProtection: { readPassword: '', modifyPassword: '' } } } }));
      expect(cleared.output).toMatchObject({ isCombinedOutput: true, passwordProtection: null });

      const split = await server.inject('PATCH', `/templates/${detail.id}/splitButtonSelection`, { token, body: { splitButtonSelection: 'zip' } });
      expect(split.json).toEqual({ ok: true });
      expect(detailOf(await server.inject('GET', `/templates/${detail.id}`, { token })).splitButtonSelection).toBe('zip');
    });

    it('copies a template with its placeholders, settings and images, and shares one with another user', async () => {
      const detail = await upload(await makePdf(), 'Original.pdf');
      await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [placeholder('City')] } });
      await server.inject('PATCH', `/templates/${detail.id}`, { token, body: { output: { isCombinedOutput: true, passwordProtection: { readPassword: 'Secret1', modifyPassword: '' } } } });
      await server.inject('POST', `/templates/${detail.id}/images`, { token, file: { name: 'logo.png', bytes: await fixture('image.png'), type: 'image/png' } });

      const copied = await server.inject('POST', `/templates/${detail.id}/copy`, { token });
      expect(copied.status).toBe(201);
      const copy = detailOf(copied);
      expect(copy.id).not.toBe(detail.id);
      expect(copy).toMatchObject({ name: 'Original.pdf', customName: 'Original.pdf (copy)', placeholderCount: 1, images: [{ name: 'logo.png' }] });
      expect(copy.output).toMatchObject({ isCombinedOutput: true, passwordProtection: { readPassword: 'Secret1' } });
      const copyBytes = await server.inject('GET', `/templates/${copy.id}/download`, { token });
      expect(copyBytes.headers['etag']).toContain(detail.checksum);

      const friend = await server.signUp();
      const shared = await server.inject('POST', `/templates/${detail.id}/share`, { token, body: { email: friend.email } });
      expect(shared.status).toBe(200);
      expect(shared.json).toEqual({ message: `A copy of the template was sent to ${friend.email}.` });
      const theirs = (await server.inject('GET', '/templates', { token: friend.token })).json as { templates: TemplateSummary[] };
      expect(theirs.templates).toHaveLength(1);
      const theirCopy = detailOf(await server.inject('GET', `/templates/${theirs.templates[0]!.id}`, { token: friend.token }));
      expect(theirCopy).toMatchObject({ name: 'Original.pdf', placeholderCount: 1, images: [{ name: 'logo.png' }] });
      // Document passwords stay with their owner.
      expect(theirCopy.output.passwordProtection).toBeNull();

      const nobody = await server.inject('POST', `/templates/${detail.id}/share`, { token, body: { email: 'nobody-here@example.com' } });
      expect(nobody.status).toBe(404);
      expect(nobody.json).toMatchObject({ code: 'share/user-not-found', params: { email: 'nobody-here@example.com' } });
      const self = await server.inject('POST', `/templates/${detail.id}/share`, { token, body: { email: owner.email.toUpperCase() } });
      expect(self.json).toMatchObject({ code: 'share/self' });
    });

    it('exports a template to a .sheaf.json file that imports as a new template, and refuses other files', async () => {
      const bytes = await makePdf();
      const detail = await upload(bytes, 'Export me.pdf');
      await server.inject('PATCH', `/templates/${detail.id}/placeholders`, { token, body: { placeholders: [placeholder('Amount', { type: 'number' })] } });
      await server.inject('PATCH', `/templates/${detail.id}`, { token, body: { headersRowNo: 3, output: { passwordProtection: { readPassword: 'Hidden9', modifyPassword: '' } } } });
      await server.inject('POST', `/templates/${detail.id}/images`, { token, file: { name: 'logo.png', bytes: await fixture('image.png'), type: 'image/png' } });

      const exported = await server.inject('GET', `/templates/${detail.id}/export`, { token });
      expect(exported.status).toBe(200);
      expect(String(exported.headers['content-disposition'])).toContain('.sheaf.json');
      const file = JSON.parse(Buffer.from(exported.body).toString('utf8')) as TemplateExport;
      expect(file).toMatchObject({ format: 'sheaf-template', version: 1, name: 'Export me.pdf', headersRowNo: 3, output: { passwordProtection: null } });
      expect(JSON.stringify(file)).not.toContain('Hidden9');
      expect(Buffer.from(file.pdf, 'base64').equals(Buffer.from(bytes))).toBe(true);

      const imported = await server.inject('POST', '/templates/import', { token, file: { name: 'Export me.sheaf.json', bytes: exported.body, type: 'application/json' } });
      expect(imported.status, JSON.stringify(imported.json)).toBe(201);
      const copy = detailOf(imported);
      expect(copy.id).not.toBe(detail.id);
      expect(copy).toMatchObject({ name: 'Export me.pdf', headersRowNo: 3, numPages: 2, images: [{ name: 'logo.png' }], checksum: detail.checksum });
      expect(copy.placeholders).toEqual([expect.objectContaining({ column: 'Amount', type: 'number' })]);

      for (const junk of [new TextEncoder().encode('{"format":"other"}'), new TextEncoder().encode('not json'), bytes]) {
        const refused = await server.inject('POST', '/templates/import', { token, file: { name: 'x.sheaf.json', bytes: junk, type: 'application/json' } });
        expect(refused.json).toMatchObject({ code: 'template/import-invalid' });
      }
      const badPdf = { ...file, pdf: Buffer.from('plain text').toString('base64') };
      const refusedPdf = await server.inject('POST', '/templates/import', { token, file: { name: 'x.sheaf.json', bytes: new TextEncoder().encode(JSON.stringify(badPdf)), type: 'application/json' } });
      expect(refusedPdf.json).toMatchObject({ code: 'template/wrong-type' });
    });

    it('deletes a template with its files, but not while a merge of it runs', async () => {
      const detail = await upload(await makePdf());
      await thumbnailReady(detail.id);
      const mergeId = 'M'.repeat(19) + '1';
      await server.ctx.db.query(
        `INSERT INTO merges (id, template_id, owner_id, status, request) VALUES ($1, $2, $3, 'generating', '{}'::jsonb)`,
        [mergeId, detail.id, owner.uid],
      );
      await server.ctx.blobs.put(`merges/${mergeId}/result.zip`, new Uint8Array([1, 2, 3]));
      const refused = await server.inject('DELETE', `/templates/${detail.id}`, { token });
      expect(refused.status).toBe(409);
      expect(refused.json).toMatchObject({ code: 'template/merge-in-progress', message: 'The template cannot be deleted because there is a mail merge in progress' });
      expect((await server.inject('GET', `/templates/${detail.id}`, { token })).status).toBe(200);

      await server.ctx.db.query(`UPDATE merges SET status = 'completed' WHERE id = $1`, [mergeId]);
      const deleted = await server.inject('DELETE', `/templates/${detail.id}`, { token });
      expect(deleted.json).toEqual({ ok: true });
      expect((await server.inject('GET', `/templates/${detail.id}`, { token })).json).toMatchObject({ code: 'template/not-found' });
      expect((await server.inject('GET', `/templates/${detail.id}/download`, { token })).status).toBe(404);
      // Nothing of the template's folder is left (its PDF and thumbnail are under keys of their own).
      expect(await readdir(path.join(server.config.BLOB_DIR, 'templates', detail.id)).catch(() => [])).toEqual([]);
      expect(await server.ctx.blobs.exists(`merges/${mergeId}/result.zip`)).toBe(false);
    });
  });
});
