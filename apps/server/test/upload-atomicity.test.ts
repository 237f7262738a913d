/**
 * A stored file and its row are one unit (issue #11): a new template PDF (upload, replace, unlock), image,
 * font or static attachment goes under a key of its own, the row is switched to it in a transaction and
 * the old file is removed after the commit. The fault here is real: a deferred constraint trigger makes
 * the COMMIT itself fail, after the new file was written. The template must then still download and
 * preview its old file, and no file of the failed upload may stay in the blob folder. Files stored before
 * the file ids (under the old fixed keys, rows without a file id) keep working and are replaced the same way.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TemplateDetail } from '@sheaf/shared';
import { blobLayout } from '../src/adapters/blobs/layout.ts';
import { injectFault } from './db-faults.ts';
import { forEachDatabase, startTestServer, type TestDatabase } from './harness.ts';
import { fixture, makeEncryptedPdf, makePdf, pdfText, placeholder } from './library-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;
const FILE_TYPE = 'application/octet-stream';

/** Another version of a file that is read the same way (images and fonts ignore bytes past their end). */
const variant = (bytes: Uint8Array) => new Uint8Array(Buffer.concat([bytes, Buffer.alloc(16)]));

/** Every file under the blob folder but thumbnails (rendered in the background whenever they are ready). */
async function blobKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('thumbnail'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
}

forEachDatabase((database: TestDatabase) => {
  describe('upload atomicity', () => {
    let server: TestServer;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      token = (await server.signUp()).token;
    });
    afterAll(async () => {
      await server.close();
    });

    const upload = (method: 'POST' | 'PUT', url: string, name: string, bytes: Uint8Array) =>
      server.inject(method, url, { token, file: { name, bytes, type: FILE_TYPE } });
    const keys = () => blobKeys(server.config.BLOB_DIR);
    const templateKeys = async (id: string) => (await keys()).filter((key) => key.startsWith(`templates/${id}/`));

    async function newTemplate(title: string): Promise<{ id: string; bytes: Uint8Array }> {
      const bytes = await makePdf({ pages: 1, title });
      const response = await upload('POST', '/templates', 'Letter.pdf', bytes);
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return { id: (response.json as TemplateDetail).id, bytes };
    }

    async function download(id: string): Promise<Buffer> {
      const response = await server.inject('GET', `/templates/${id}/download`, { token });
      expect(response.status).toBe(200);
      return Buffer.from(response.body);
    }

    async function previewText(id: string): Promise<string> {
      const response = await server.inject('POST', `/templates/${id}/preview`, { token, body: { placeholders: [placeholder('Name')], startRow: 2, endRow: 2 } });
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      return pdfText(new Uint8Array(response.body));
    }

    it('keeps the old PDF (download and preview) when the commit of a replacement fails, leaving no file of it', async () => {
      const { id, bytes } = await newTemplate('ORIGINAL');
      const before = await keys();
      const restore = await injectFault(server, 'templates', 'UPDATE', 'commit');
      try {
        const replaced = await upload('PUT', `/templates/${id}/file`, 'New.pdf', await makePdf({ pages: 3, title: 'REPLACEMENT' }));
        expect(replaced.status).toBe(500);
      } finally {
        await restore();
      }
      expect((await download(id)).equals(Buffer.from(bytes))).toBe(true);
      expect(await previewText(id)).toContain('ORIGINAL');
      expect((await server.inject('GET', `/templates/${id}`, { token })).json).toMatchObject({ name: 'Letter.pdf', numPages: 1 });
      expect(await keys()).toEqual(before);
    });

    it('removes the old PDF once a replacement is committed', async () => {
      const { id } = await newTemplate('ORIGINAL');
      const [oldKey] = await templateKeys(id);
      const replacement = await makePdf({ pages: 2, title: 'REPLACEMENT' });
      expect((await upload('PUT', `/templates/${id}/file`, 'New.pdf', replacement)).status).toBe(200);
      const now = await templateKeys(id);
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(oldKey);
      expect((await download(id)).equals(Buffer.from(replacement))).toBe(true);
      expect(await previewText(id)).toContain('REPLACEMENT');
    });

    it('keeps an encrypted template locked and whole when the commit of its unlocked file fails', async () => {
      const locked = await makeEncryptedPdf('secret');
      const created = await upload('POST', '/templates', 'Locked.pdf', locked);
      const id = (created.json as TemplateDetail).id;
      const before = await keys();
      const restore = await injectFault(server, 'templates', 'UPDATE', 'commit');
      try {
        expect((await server.inject('POST', `/templates/${id}/decrypt`, { token, body: { password: 'secret' } })).status).toBe(500);
      } finally {
        await restore();
      }
      expect((await server.inject('GET', `/templates/${id}`, { token })).json).toMatchObject({ isEncrypted: true });
      expect((await download(id)).equals(Buffer.from(locked))).toBe(true);
      expect(await keys()).toEqual(before);
      // Unlocked for real: the locked file goes.
      expect((await server.inject('POST', `/templates/${id}/decrypt`, { token, body: { password: 'secret' } })).json).toMatchObject({ isEncrypted: false });
      expect(await templateKeys(id)).toHaveLength(1);
      expect(await previewText(id)).toContain('LOCKED TEMPLATE');
    });

    it('keeps an image, a font and an attachment of the same name when the commit of their replacement fails', async () => {
      const { id } = await newTemplate('IMAGES');
      const logo = await fixture('image.png');
      const serif = await fixture('cli/fonts/DejaVuSerif.ttf');
      const terms = await makePdf({ pages: 1, title: 'TERMS' });
      expect((await upload('POST', `/templates/${id}/images`, 'logo.png', logo)).status).toBe(201);
      const font = await upload('POST', '/fonts', 'Serif.ttf', serif);
      expect(font.status).toBe(201);
      const family = font.json.fonts[0].name as string;
      expect((await upload('POST', `/templates/${id}/attachments`, 'terms.pdf', terms)).status).toBe(201);
      const before = await keys();

      const restores = [
        await injectFault(server, 'template_images', 'UPDATE', 'commit'),
        await injectFault(server, 'fonts', 'UPDATE', 'commit'),
        await injectFault(server, 'templates', 'UPDATE', 'commit'),
      ];
      try {
        expect((await upload('POST', `/templates/${id}/images`, 'logo.png', variant(logo))).status).toBe(500);
        expect((await upload('POST', '/fonts', 'Serif.ttf', variant(serif))).status).toBe(500);
        expect((await upload('POST', `/templates/${id}/attachments`, 'terms.pdf', await makePdf({ pages: 2 }))).status).toBe(500);
      } finally {
        for (const restore of restores) await restore();
      }
      expect(await keys()).toEqual(before);
      const exported = (await server.inject('GET', `/templates/${id}/export`, { token })).json as { images: Array<{ name: string; data: string }> };
      expect(exported.images).toEqual([{ name: 'logo.png', data: Buffer.from(logo).toString('base64') }]);
      const fontFile = await server.inject('GET', `/fonts/${encodeURIComponent(family)}/file`, { token });
      expect(Buffer.from(fontFile.body).equals(Buffer.from(serif))).toBe(true);
      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail.email.staticAttachments).toEqual([{ name: 'terms.pdf', size: terms.length }]);
      const [row] = await server.ctx.db.query<{ attachment_files: Record<string, string> }>('SELECT attachment_files FROM templates WHERE id = $1', [id]);
      expect(Buffer.from(await server.ctx.blobs.get(blobLayout.template.attachment(id, 'terms.pdf', row?.attachment_files['terms.pdf']))).equals(Buffer.from(terms))).toBe(true);

      // Replaced for real: one file each, the new one.
      const newer = variant(logo);
      expect((await upload('POST', `/templates/${id}/images`, 'logo.png', newer)).status).toBe(201);
      expect((await upload('POST', '/fonts', 'Serif.ttf', variant(serif))).status).toBe(201);
      expect((await keys()).filter((key) => key.startsWith('fonts/'))).toHaveLength(1);
      expect((await upload('POST', `/templates/${id}/attachments`, 'terms.pdf', await makePdf({ pages: 2 }))).status).toBe(201);
      const files = await templateKeys(id);
      expect(files.filter((key) => key.includes('/images/'))).toHaveLength(1);
      expect(files.filter((key) => key.includes('/attachments/'))).toHaveLength(1);
      const again = (await server.inject('GET', `/templates/${id}/export`, { token })).json as { images: Array<{ name: string; data: string }> };
      expect(again.images).toEqual([{ name: 'logo.png', data: Buffer.from(newer).toString('base64') }]);
    });

    it('reads and replaces files stored under the old fixed keys (rows without a file id)', async () => {
      const { id, bytes } = await newTemplate('LEGACY');
      const logo = await fixture('image.png');
      const terms = await makePdf({ pages: 1, title: 'TERMS' });
      expect((await upload('POST', `/templates/${id}/images`, 'logo.png', logo)).status).toBe(201);
      expect((await upload('POST', `/templates/${id}/attachments`, 'terms.pdf', terms)).status).toBe(201);
      // As stored before migration 008: the old keys, no file ids.
      const [row] = await server.ctx.db.query<{ file_id: string; attachment_files: Record<string, string> }>('SELECT file_id, attachment_files FROM templates WHERE id = $1', [id]);
      const [image] = await server.ctx.db.query<{ file_id: string }>('SELECT file_id FROM template_images WHERE template_id = $1', [id]);
      const move = async (from: string, to: string) => {
        await server.ctx.blobs.copy(from, to);
        await server.ctx.blobs.delete(from);
      };
      const { checksum } = await vi.waitFor(async () => {
        const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
        expect(detail.thumbnailUrl).not.toBeNull();
        return detail;
      }, { timeout: 30_000, interval: 100 });
      const thumbnail = Buffer.from((await server.inject('GET', `/templates/${id}/thumbnail`, { token })).body);
      await move(blobLayout.template.thumbnail(id, checksum), blobLayout.template.thumbnail(id, null));
      await move(blobLayout.template.pdf(id, row!.file_id), blobLayout.template.pdf(id, null));
      await move(blobLayout.template.image(id, 'logo.png', image!.file_id), blobLayout.template.image(id, 'logo.png', null));
      await move(blobLayout.template.attachment(id, 'terms.pdf', row!.attachment_files['terms.pdf']), blobLayout.template.attachment(id, 'terms.pdf', null));
      await server.ctx.db.query("UPDATE templates SET file_id = NULL, attachment_files = '{}' WHERE id = $1", [id]);
      await server.ctx.db.query('UPDATE template_images SET file_id = NULL WHERE template_id = $1', [id]);
      expect(await templateKeys(id)).toEqual([`templates/${id}/attachments/terms%2Epdf`, `templates/${id}/images/logo%2Epng`, `templates/${id}/template.pdf`]);

      expect((await download(id)).equals(Buffer.from(bytes))).toBe(true);
      expect(Buffer.from((await server.inject('GET', `/templates/${id}/thumbnail`, { token })).body).equals(thumbnail)).toBe(true);
      expect(await previewText(id)).toContain('LEGACY');
      const exported = (await server.inject('GET', `/templates/${id}/export`, { token })).json as { images: Array<{ name: string; data: string }> };
      expect(exported.images).toEqual([{ name: 'logo.png', data: Buffer.from(logo).toString('base64') }]);
      const copy = await server.inject('POST', `/templates/${id}/copy`, { token });
      expect(copy.status, JSON.stringify(copy.json)).toBe(201);
      expect((await download(copy.json.id)).equals(Buffer.from(bytes))).toBe(true);

      // Replacing each: the old-key file goes, a file-id key takes its place.
      expect((await upload('PUT', `/templates/${id}/file`, 'New.pdf', await makePdf({ pages: 1, title: 'NEWER' }))).status).toBe(200);
      expect((await upload('POST', `/templates/${id}/images`, 'logo.png', variant(logo))).status).toBe(201);
      expect((await upload('POST', `/templates/${id}/attachments`, 'terms.pdf', await makePdf({ pages: 2 }))).status).toBe(201);
      const now = await templateKeys(id);
      expect(now).toHaveLength(3);
      expect(now).not.toContain(`templates/${id}/template.pdf`);
      expect(await server.ctx.blobs.exists(blobLayout.template.thumbnail(id, null))).toBe(false);
      expect(now).not.toContain(`templates/${id}/images/logo%2Epng`);
      expect(now).not.toContain(`templates/${id}/attachments/terms%2Epdf`);
      expect(await previewText(id)).toContain('NEWER');
    });
  });
});
