/** Custom fonts and template images through the HTTP API, and both used by the preview. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES, type TemplateDetail } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import { csv, fixture, makePdf, placeholder } from './library-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;
type FontList = { fonts: Array<{ name: string; fileName: string; size: number }> };

const run = promisify(execFile);

/** Output of a poppler tool (pdffonts, pdfimages -list) for a PDF. */
async function poppler(tool: string, args: string[], pdf: Uint8Array): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sheaf-poppler-'));
  try {
    await writeFile(path.join(folder, 'in.pdf'), pdf);
    return (await run(tool, [...args, path.join(folder, 'in.pdf')])).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function jpeg(): Uint8Array {
  const canvas = createCanvas(40, 20);
  const context = canvas.getContext('2d');
  context.fillStyle = '#c00';
  context.fillRect(0, 0, 40, 20);
  return new Uint8Array(canvas.toBuffer('image/jpeg'));
}

forEachDatabase((database) => {
  describe('fonts and images', () => {
    let server: TestServer;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      token = (await server.signUp()).token;
    });
    afterAll(async () => {
      await server.close();
    });

    const uploadFont = (name: string, bytes: Uint8Array, as = token) =>
      server.inject('POST', '/fonts', { token: as, file: { name, bytes, type: 'font/ttf' } });

    it('adds TrueType and OpenType fonts under their family names, serves them and deletes them', async () => {
      const user = await server.signUp();
      const serif = await fixture('cli/fonts/DejaVuSerif.ttf');
      const added = await uploadFont('DejaVuSerif.ttf', serif, user.token);
      expect(added.status, JSON.stringify(added.json)).toBe(201);
      expect(added.json).toEqual({ fonts: [{ name: 'DejaVu Serif', fileName: 'DejaVuSerif.ttf', size: serif.length }] });
      const otf = await uploadFont('inconsolata.otf', await fixture('fonts/cff-inconsolata.otf'), user.token);
      expect((otf.json as FontList).fonts.map((font) => font.name)).toEqual(['DejaVu Serif', 'Inconsolata']);

      // The same family again replaces the font.
      const again = await uploadFont('serif-copy.ttf', serif, user.token);
      expect((again.json as FontList).fonts).toEqual([
        { name: 'DejaVu Serif', fileName: 'serif-copy.ttf', size: serif.length }, expect.objectContaining({ name: 'Inconsolata' }),
      ]);

      const file = await server.inject('GET', `/fonts/${encodeURIComponent('DejaVu Serif')}/file`, { token: user.token });
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toContain('font/ttf');
      expect(Buffer.from(file.body).equals(Buffer.from(serif))).toBe(true);

      const deleted = await server.inject('DELETE', `/fonts/${encodeURIComponent('DejaVu Serif')}`, { token: user.token });
      expect((deleted.json as FontList).fonts.map((font) => font.name)).toEqual(['Inconsolata']);
      const gone = await server.inject('GET', `/fonts/${encodeURIComponent('DejaVu Serif')}/file`, { token: user.token });
      expect(gone.status).toBe(404);
      expect(gone.json).toMatchObject({ code: 'font/not-found' });
      expect((await server.inject('GET', '/fonts', { token: user.token })).json).toEqual({ fonts: [expect.objectContaining({ name: 'Inconsolata' })] });
    });

    it('refuses files that are not single TrueType/OpenType fonts, and damaged fonts', async () => {
      const text = await uploadFont('font.ttf', new TextEncoder().encode('this is not a font'));
      expect(text.json).toMatchObject({ code: 'font/wrong-type', message: 'Fonts must be .ttf or .otf files.' });
      const collection = new Uint8Array(64);
      collection.set(new TextEncoder().encode('ttcf'));
      expect((await uploadFont('fonts.ttc', collection)).json).toMatchObject({ code: 'font/wrong-type' });
      expect((await uploadFont('x.otf', await fixture('fonts/corrupt-not-a-font.otf'))).status).toBe(400);
      const truncated = await uploadFont('broken.ttf', await fixture('fonts/corrupt-truncated.ttf'));
      expect(truncated.json).toMatchObject({ code: 'font/corrupt', params: { name: 'broken.ttf' } });
      expect((await server.inject('GET', '/fonts', { token })).json).toEqual({ fonts: [] });
    });

    it('adds PNG and JPEG images under their plain file names, replaces same names and refuses other files', async () => {
      const created = await server.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: await makePdf(), type: 'application/pdf' } });
      const id = (created.json as TemplateDetail).id;
      const png = await fixture('image.png');
      const upload = (name: string, bytes: Uint8Array) => server.inject('POST', `/templates/${id}/images`, { token, file: { name, bytes, type: 'image/png' } });

      const first = await upload('../../etc/logo.png', png);
      expect(first.status, JSON.stringify(first.json)).toBe(201);
      expect(first.json).toEqual({ images: [{ name: 'logo.png', size: png.length }] });
      const photo = jpeg();
      await upload('photo.jpg', photo);
      const replaced = await upload('logo.png', photo);
      expect(replaced.json).toEqual({ images: [{ name: 'logo.png', size: photo.length }, { name: 'photo.jpg', size: photo.length }] });

      const gif = new TextEncoder().encode('GIF89a......');
      expect((await upload('anim.gif', gif)).json).toMatchObject({ code: 'image/wrong-type', message: 'Images must be PNG or JPEG files.' });
      const large = new Uint8Array(MAX_IMAGE_BYTES + 1);
      large.set(png.subarray(0, 8));
      const tooLarge = await upload('big.png', large);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json).toMatchObject({ code: 'image/too-large' });

      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail.images.map((image) => image.name)).toEqual(['logo.png', 'photo.jpg']);
      const afterDelete = await server.inject('DELETE', `/templates/${id}/images/photo.jpg`, { token });
      expect(afterDelete.json).toEqual({ images: [{ name: 'logo.png', size: photo.length }] });
      const missing = await server.inject('DELETE', `/templates/${id}/images/photo.jpg`, { token });
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ code: 'image/not-found', params: { name: 'photo.jpg' } });
    });

    it('previews with the user\'s font and the template\'s images', async () => {
      const user = await server.signUp();
      await uploadFont('DejaVuSerif.ttf', await fixture('cli/fonts/DejaVuSerif.ttf'), user.token);
      const created = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: 'application/pdf' } });
      const id = (created.json as TemplateDetail).id;
      await server.inject('POST', `/templates/${id}/images`, { token: user.token, file: { name: 'stamp.png', bytes: await fixture('cli/images/stamp.png'), type: 'image/png' } });
      await server.inject('POST', `/templates/${id}/excel`, { token: user.token, file: { name: 'rows.csv', bytes: csv([['Name', 'Logo'], ['Ann', 'stamp.png']]), type: 'text/csv' } });

      const placeholders = [
        placeholder('Name', { fontFamily: 'DejaVu Serif' }),
        placeholder('Logo', { type: 'image', relativeY: 0.5, relativeWidth: 0.2, relativeHeight: 0.1 }),
      ];
      const response = await server.inject('POST', `/templates/${id}/preview`, { token: user.token, body: { placeholders, startRow: 2, endRow: 2 } });
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      expect(await poppler('pdffonts', [], response.body)).toContain('DejaVuSerif');
      const images = (await poppler('pdfimages', ['-list'], response.body)).trim().split('\n').slice(2);
      expect(images.length).toBeGreaterThanOrEqual(1);
    });
  });
});
