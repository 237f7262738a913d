/**
 * Compressed output through the API (docs/merging.md#compression): a template that embeds a whole font
 * gives documents that carry only the glyphs it shows, as the server's merge job makes them;
 * with compression off each document carries the whole font again.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './harness.ts';
import { NAME_PLACEHOLDERS, download, fileWithSheet, mergeRequest, pdfsInZip, peopleCsv, setPlan, startMerge, waitForMerge, type TestServer } from './merge-support.ts';

const HEADING = 'Statement for the quarter';

/** A letter with DejaVu Serif embedded whole (~210 KB of its bytes), as pdf-lib writes it without subsetting. */
async function wholeFontLetter(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf')), { subset: false });
  doc.addPage([595, 842]).drawText(HEADING, { x: 50, y: 780, size: 16, font });
  return doc.save();
}

describe('compressed output through the API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a template with a whole font gives small documents; with compression off they carry the font again', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const template = await wholeFontLetter();
    const templateId = await fileWithSheet(server, user.token, { name: 'Letter.pdf', bytes: template, type: 'application/pdf' }, peopleCsv(3));
    const saved = await server.inject('PATCH', `/templates/${templateId}/placeholders`, { token: user.token, body: { placeholders: NAME_PLACEHOLDERS } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);

    const sizes = async (isCompressedOutput: boolean) => {
      const request = mergeRequest({ isCompressedOutput });
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge).toMatchObject({ status: 'completed', done: 3 });
      const zip = (await download(server, merge.downloadUrl!)).bytes;
      const pdfs = pdfsInZip(zip);
      pdfs.forEach((pdf, index) => {
        expect(pdf.text).toContain(HEADING);
        expect(pdf.text).toContain(`Given${index + 1}`);
      });
      return pdfs.map((pdf) => pdf.size);
    };
    for (const size of await sizes(true)) expect(size).toBeLessThan(template.length * 0.15);
    for (const size of await sizes(false)) expect(size).toBeGreaterThan(template.length);
  }, 60_000);
});
