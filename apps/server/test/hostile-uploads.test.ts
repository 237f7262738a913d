/**
 * Hostile uploads through the HTTP API (issue 11): names with NUL, control, bidi and zero-width
 * characters on every upload route answer 201 with a clean name or 400 with a catalogue message, never
 * 500; a file and its row are one unit (a failed switch keeps the old sheet and its facts, across a
 * restart too, and leaves no file behind); images are judged by the pixels their header claims; fonts
 * by their table directory and size; static attachments as a mail client would send them (a ZIP is
 * looked into: a program inside, a password or a damaged directory refuse it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FONT_BYTES, type ExcelSheetResponse, type TemplateDetail } from '@sheaf/shared';
import { loadConfig, type ConfigOverrides } from '../src/config.ts';
import { startServer } from '../src/boot.ts';
import { openPglite, type PgliteDb } from '../src/adapters/db/pglite.ts';
import { blobLayout } from '../src/adapters/blobs/layout.ts';
import { injectFault } from './db-faults.ts';
import { createPostgresDatabase, forEachDatabase, startTestServer, type TestDatabase } from './harness.ts';
import { csv, fixture, makePdf } from './library-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

const HOSTILE_NAME = 'Let\u0000ter\u0007 \u202eevil\u200b\u2066\u0001.pdf';
const FILE_TYPE = 'application/octet-stream';

/**
 * Every key under the blob folder (the local store keeps one file per key), but thumbnails: those of
 * the templates made before are rendered in the background whenever they are ready.
 */
async function blobKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('thumbnail'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))).sort();
}

/** A PNG whose header claims width x height pixels; its pixel data is a few bytes (a decoder would allocate it all). */
function pngClaiming(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]); // CRC unchecked by the header read
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return new Uint8Array(Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0)),
  ]));
}

/** A baseline JPEG header whose frame claims width x height (APP0, then SOF0). */
function jpegClaiming(width: number, height: number): Uint8Array {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]));
}

/**
 * A ZIP as zip tools write it (deflated entries, CRCs, central directory). `encrypted` sets the
 * general-purpose flag ZipCrypto archives carry (the check reads only the directory, never the data).
 */
function zipOf(files: Record<string, Uint8Array>, options: { encrypted?: boolean } = {}): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800 | (options.encrypted ? 1 : 0), 6);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    header.copy(entry, 8, 6, 30); // flags, method, time, date, CRC, sizes, name length
    entry.writeUInt16LE(0, 30); // extra length (the copy put the local one's there)
    entry.writeUInt32LE(offset, 42);
    locals.push(header, nameBytes, packed);
    central.push(entry, nameBytes);
    offset += header.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

forEachDatabase((database: TestDatabase) => {
  describe('hostile uploads', () => {
    let server: TestServer;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      token = (await server.signUp()).token;
    });
    afterAll(async () => {
      await server.close();
    });

    const upload = (url: string, name: string, bytes: Uint8Array, as = token, query?: Record<string, string>) =>
      server.inject('POST', url, { token: as, query, file: { name, bytes, type: FILE_TYPE } });

    async function newTemplate(as = token): Promise<string> {
      const response = await upload('/templates', 'Letter.pdf', await makePdf({ pages: 1 }), as);
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return (response.json as TemplateDetail).id;
    }

    it('stores hostile names on every upload cleaned (NUL, controls, bidi, zero-width), never answering 500', async () => {
      const template = await upload('/templates', HOSTILE_NAME, await makePdf({ pages: 1 }));
      expect(template.status, JSON.stringify(template.json)).toBe(201);
      expect((template.json as TemplateDetail).name).toBe('Letter evil.pdf');
      const id = (template.json as TemplateDetail).id;

      const replaced = await server.inject('PUT', `/templates/${id}/file`, { token, file: { name: 'New\u0000\u200f.pdf', bytes: await makePdf({ pages: 2 }), type: FILE_TYPE } });
      expect(replaced.status, JSON.stringify(replaced.json)).toBe(200);
      expect((replaced.json as TemplateDetail).name).toBe('New.pdf');

      const sheet = await upload(`/templates/${id}/excel`, 'people\u0000\u202e.csv', csv([['Name'], ['Ann']]));
      expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
      expect(sheet.json.excelName).toBe('people.csv');

      const image = await upload(`/templates/${id}/images`, 'lo\u0000go\u2066.png', await fixture('image.png'));
      expect(image.status, JSON.stringify(image.json)).toBe(201);
      expect(image.json.images.map((item: { name: string }) => item.name)).toEqual(['logo.png']);

      const font = await upload('/fonts', 'Serif\u0000\u0085.ttf', await fixture('cli/fonts/DejaVuSerif.ttf'));
      expect(font.status, JSON.stringify(font.json)).toBe(201);
      expect(font.json.fonts[0].fileName).toBe('Serif.ttf');

      const attachment = await upload(`/templates/${id}/attachments`, 'Terms\u0000\u200b (2024).pdf', await makePdf({ pages: 1 }));
      expect(attachment.status, JSON.stringify(attachment.json)).toBe(201);
      expect(JSON.stringify(attachment.json)).toContain('"Terms (2024).pdf"');

      // A custom name sent as JSON is cleaned the same way.
      const renamed = await server.inject('PATCH', `/templates/${id}`, { token, body: { customName: 'Q1\u0000 \u202eletter' } });
      expect(renamed.status, JSON.stringify(renamed.json)).toBe(200);
      expect((renamed.json as TemplateDetail).customName).toBe('Q1 letter');
    });

    it('leaves no template folder behind when the template row cannot be stored', async () => {
      const before = await blobKeys(server.config.BLOB_DIR);
      const restore = await injectFault(server, 'templates', 'INSERT');
      try {
        for (let attempt = 0; attempt < 3; attempt++) {
          const response = await upload('/templates', 'Letter.pdf', await makePdf({ pages: 1 }));
          expect(response.status).toBe(500);
        }
      } finally {
        await restore();
      }
      expect(await blobKeys(server.config.BLOB_DIR)).toEqual(before);
    });

    it('keeps the old sheet and its facts when replacing it fails, and leaves the new file nowhere', async () => {
      const id = await newTemplate();
      expect((await upload(`/templates/${id}/excel`, 'old.csv', csv([['Old'], ['kept']]))).status).toBe(201);
      const before = await blobKeys(server.config.BLOB_DIR);
      const restore = await injectFault(server, 'spreadsheets', 'UPDATE');
      try {
        expect((await upload(`/templates/${id}/excel`, 'new.csv', csv([['New', 'Other'], ['lost', 'x']]))).status).toBe(500);
      } finally {
        await restore();
      }
      expect(await blobKeys(server.config.BLOB_DIR)).toEqual(before);
      const sheet = (await server.inject('GET', `/templates/${id}/excel`, { token })).json as ExcelSheetResponse;
      expect(sheet).toMatchObject({ excelName: 'old.csv', headers: ['Old'], excelSheet: [['kept']] });
    });

    it('keeps the template\'s PDF when its row cannot take the replacement', async () => {
      const original = await makePdf({ pages: 1, title: 'ORIGINAL' });
      const created = await upload('/templates', 'Letter.pdf', original);
      const id = (created.json as TemplateDetail).id;
      const restore = await injectFault(server, 'templates', 'UPDATE');
      try {
        const replaced = await server.inject('PUT', `/templates/${id}/file`, { token, file: { name: 'New.pdf', bytes: await makePdf({ pages: 3 }), type: FILE_TYPE } });
        expect(replaced.status).toBe(500);
      } finally {
        await restore();
      }
      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail).toMatchObject({ name: 'Letter.pdf', numPages: 1 });
      const download = await server.inject('GET', `/templates/${id}/download`, { token });
      expect(Buffer.from(download.body).equals(Buffer.from(original))).toBe(true);
    });

    it('keeps an image and an attachment of the same name when recording their replacement fails', async () => {
      const id = await newTemplate();
      const logo = await fixture('image.png');
      const terms = await makePdf({ pages: 1, title: 'TERMS' });
      expect((await upload(`/templates/${id}/images`, 'logo.png', logo)).status).toBe(201);
      expect((await upload(`/templates/${id}/attachments`, 'terms.pdf', terms)).status).toBe(201);
      const before = await blobKeys(server.config.BLOB_DIR);
      const restoreImages = await injectFault(server, 'template_images', 'INSERT');
      const restoreTemplates = await injectFault(server, 'templates', 'UPDATE');
      try {
        expect((await upload(`/templates/${id}/images`, 'logo.png', pngClaiming(10, 10))).status).toBe(500);
        expect((await upload(`/templates/${id}/attachments`, 'terms.pdf', await makePdf({ pages: 2 }))).status).toBe(500);
        expect((await upload(`/templates/${id}/attachments`, 'other.pdf', terms)).status).toBe(500);
      } finally {
        await restoreImages();
        await restoreTemplates();
      }
      // The files the rows name are the old ones, and the refused uploads left none of theirs behind.
      const [image] = await server.ctx.db.query<{ file_id: string | null }>('SELECT file_id FROM template_images WHERE template_id = $1', [id]);
      const [template] = await server.ctx.db.query<{ attachment_files: Record<string, string> }>('SELECT attachment_files FROM templates WHERE id = $1', [id]);
      expect(Buffer.from(await server.ctx.blobs.get(blobLayout.template.image(id, 'logo.png', image?.file_id))).equals(Buffer.from(logo))).toBe(true);
      expect(Buffer.from(await server.ctx.blobs.get(blobLayout.template.attachment(id, 'terms.pdf', template?.attachment_files['terms.pdf']))).equals(Buffer.from(terms))).toBe(true);
      expect(await blobKeys(server.config.BLOB_DIR)).toEqual(before);
      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail.images).toEqual([{ name: 'logo.png', size: logo.length }]);
      expect(detail.email.staticAttachments).toEqual([{ name: 'terms.pdf', size: terms.length }]);
    });

    it('refuses an image whose header claims more pixels than the budget, quickly and before decoding it', async () => {
      const id = await newTemplate();
      const started = performance.now();
      const png = await upload(`/templates/${id}/images`, 'huge.png', pngClaiming(100_000, 100_000));
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(png.status).toBe(400);
      expect(png.json).toMatchObject({ code: 'image/too-many-pixels', message: 'The image is 100,000 x 100,000 pixels; images may have at most 50 megapixels.' });
      const jpeg = await upload(`/templates/${id}/images`, 'huge.jpg', jpegClaiming(65_000, 65_000));
      expect(jpeg.json).toMatchObject({ code: 'image/too-many-pixels' });
      // A header with no dimensions at all is not an image.
      const headless = await upload(`/templates/${id}/images`, 'cut.png', pngClaiming(1, 1).subarray(0, 12));
      expect(headless.json).toMatchObject({ code: 'image/corrupt', message: 'The image "cut.png" could not be read.' });
      // A sensible image passes.
      expect((await upload(`/templates/${id}/images`, 'small.png', pngClaiming(4_000, 3_000))).status).toBe(201);
      expect((await server.inject('GET', `/templates/${id}`, { token })).json.images).toEqual([{ name: 'small.png', size: expect.any(Number) }]);
    });

    it('refuses a font whose table directory points outside the file, and one over the font size limit', async () => {
      const serif = Buffer.from(await fixture('cli/fonts/DejaVuSerif.ttf'));
      // The MATH table's length is set far past the end of the file (no merge reads it, so nothing else notices).
      const count = serif.readUInt16BE(4);
      for (let index = 0; index < count; index++) {
        const record = 12 + index * 16;
        if (serif.toString('latin1', record, record + 4) === 'MATH') serif.writeUInt32BE(0x7fffffff, record + 12);
      }
      const broken = await upload('/fonts', 'broken.ttf', new Uint8Array(serif));
      expect(broken.status).toBe(400);
      expect(broken.json).toMatchObject({ code: 'font/corrupt', message: 'The font "broken.ttf" could not be read.' });
      const tooLarge = await upload('/fonts', 'big.ttf', new Uint8Array(MAX_FONT_BYTES + 1));
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json).toMatchObject({ code: 'font/too-large', message: 'The font file is too large. The maximum size is 25 MB.' });
    });

    it('refuses empty and executable attachments with their reason, and accepts what a mail client sends', async () => {
      const id = await newTemplate();
      const attach = (name: string, bytes: Uint8Array) => upload(`/templates/${id}/attachments`, name, bytes);
      const empty = await attach('notes.txt', new Uint8Array(0));
      expect(empty.status).toBe(400);
      expect(empty.json).toMatchObject({ code: 'email/attachment-empty', message: 'The file "notes.txt" is empty.' });
      const exe = await attach('setup.exe', new TextEncoder().encode('hello'));
      expect(exe.status).toBe(400);
      expect(exe.json).toMatchObject({ code: 'email/attachment-blocked-type', message: 'Files of type .exe cannot be attached: mail servers refuse them.' });
      const disguised = await attach('invoice.pdf', new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]));
      expect(disguised.status).toBe(400);
      expect(disguised.json).toMatchObject({ code: 'email/attachment-executable' });
      const elf = await attach('report.doc', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]));
      expect(elf.json).toMatchObject({ code: 'email/attachment-executable' });
      for (const [name, bytes] of [['terms.pdf', await makePdf({ pages: 1 })], ['data.csv', csv([['a'], ['1']])], ['photo.png', await fixture('image.png')]] as const) {
        const accepted = await attach(name, bytes);
        expect(accepted.status, `${name}: ${JSON.stringify(accepted.json)}`).toBe(201);
      }
      const listed = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(listed.email.staticAttachments.map((item) => item.name)).toEqual(['terms.pdf', 'data.csv', 'photo.png']);
    });
  });

  describe('attached archives', () => {
    let server: TestServer;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      token = (await server.signUp()).token;
    });
    afterAll(async () => {
      await server.close();
    });

    it('refuses a ZIP carrying a program, a password-protected or unreadable one, with their reason, and sends a ZIP of PDFs', async () => {
      const created = await server.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: FILE_TYPE } });
      const id = (created.json as TemplateDetail).id;
      const attach = (name: string, bytes: Uint8Array) => server.inject('POST', `/templates/${id}/attachments`, { token, file: { name, bytes, type: FILE_TYPE } });
      const pdf = await makePdf({ pages: 1 });

      const tools = await attach('tools.zip', zipOf({ 'readme.txt': new TextEncoder().encode('read me'), 'bin/setup.exe': new TextEncoder().encode('MZ program') }));
      expect(tools.status).toBe(400);
      expect(tools.json).toMatchObject({
        code: 'email/attachment-archive-blocked', message: 'The archive "tools.zip" contains "setup.exe", a type of file mail servers refuse.',
      });
      // Called anything else, a ZIP is still looked into.
      const renamed = await attach('scripts.dat', zipOf({ 'run.vbs': new TextEncoder().encode('WScript.Echo 1') }));
      expect(renamed.json).toMatchObject({ code: 'email/attachment-archive-blocked', params: { name: 'scripts.dat', entry: 'run.vbs' } });
      const locked = await attach('secret.zip', zipOf({ 'terms.pdf': pdf }, { encrypted: true }));
      expect(locked.status).toBe(400);
      expect(locked.json).toMatchObject({
        code: 'email/attachment-archive-encrypted', message: 'The archive "secret.zip" is password-protected: mail servers refuse archives they cannot scan.',
      });
      const whole = zipOf({ 'terms.pdf': pdf });
      const cut = await attach('cut.zip', whole.subarray(0, whole.length - 40));
      expect(cut.json).toMatchObject({
        code: 'email/attachment-archive-unreadable', message: 'The archive "cut.zip" could not be read: mail servers refuse archives they cannot scan.',
      });

      const letters = zipOf({ 'letters/terms.pdf': pdf, 'letters/prices.pdf': await makePdf({ pages: 2 }) });
      const accepted = await attach('letters.zip', letters);
      expect(accepted.status, JSON.stringify(accepted.json)).toBe(201);
      expect(accepted.json.staticAttachments).toEqual([{ name: 'letters.zip', size: letters.length }]);
    });
  });

  describe('a failed sheet replace across a restart', () => {
    let dataDir: string;
    let shared: ConfigOverrides;
    let dropDatabase: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-hostile-'));
      let databaseUrl: string | undefined;
      if (database === 'postgres') ({ url: databaseUrl, drop: dropDatabase } = await createPostgresDatabase());
      shared = { DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64url'), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    });
    afterAll(async () => {
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('reads the old sheet with its own headers after the restart', async () => {
      const first = await startTestServer({ database, config: shared });
      let snapshot: Blob | undefined;
      let id: string;
      let token: string;
      try {
        token = (await first.signUp()).token;
        const created = await first.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: FILE_TYPE } });
        id = (created.json as TemplateDetail).id;
        const old = await first.inject('POST', `/templates/${id}/excel`, { token, file: { name: 'old.csv', bytes: csv([['Old'], ['kept']]), type: FILE_TYPE } });
        expect(old.status).toBe(201);
        const restore = await injectFault(first, 'spreadsheets', 'UPDATE');
        const failed = await first.inject('POST', `/templates/${id}/excel`, { token, file: { name: 'new.csv', bytes: csv([['New', 'Other'], ['lost', 'x']]), type: FILE_TYPE } });
        expect(failed.status).toBe(500);
        await restore();
        // PGlite runs in memory in tests: carry its data over as a disk would.
        snapshot = database === 'pglite' ? await (first.ctx.db as PgliteDb).dumpDataDir() : undefined;
      } finally {
        await first.close();
      }

      const config = loadConfig({}, { PORT: 0, HOST: '127.0.0.1', MIN_RESPONSE_MS: 0, LOG_LEVEL: 'error', DATABASE_URL: 'memory://', INBOUND_SMTP_PORT: null, ...shared });
      const second = await startServer(config, { db: snapshot ? await openPglite('memory://', { loadDataDir: snapshot }) : undefined });
      try {
        const response = await second.app.inject({ method: 'GET', url: `/v1/templates/${id!}/excel`, headers: { authorization: `Bearer ${token!}` } });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ excelName: 'old.csv', headers: ['Old'], totalRowCount: 1, excelSheet: [['kept']] });
      } finally {
        await second.close();
      }
    });
  });
});
