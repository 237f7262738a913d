/**
 * Word templates through the HTTP API (docs/word-templates.md): an RTF and a plain-text file uploaded
 * and converted to DOCX by LibreOffice, the DOCX downloaded and saved back (updateSfdt), and merges
 * of it: DOCX files, PDFs (one conversion per batch, cut at the rows' bookmarks), one combined PDF,
 * per-row passwords, and the refusals a user meets. Skipped where LibreOffice is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Merge, TemplateDetail } from '@sheaf/shared';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { download, fileWithSheet, inTempDir, mergeRequest, pdfFacts, pdfsInZip, startMerge, waitForMerge } from './merge-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');
if (!hasOffice) console.warn('word-templates: skipped: LibreOffice is not installed (Debian libreoffice-writer-nogui)');

/** A letter as a word processor writes RTF (braces escaped): a header with a tag, and tags in the body. */
const rtfTag = (column: string) => String.raw`\{\{${column}\}\}`;
const LETTER_RTF = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Liberation Serif;}}
{\header\pard\plain City: ${rtfTag('City')}\par}
\pard\plain Dear ${rtfTag('First')} ${rtfTag('Last')},\par
\pard\plain your amount is ${rtfTag('Amount')}.\par
}`;
const PEOPLE = 'First,Last,City,Amount\nAda,Lovelace,London,12.50\nGrace,Hopper,Arlington,7\nAlan,Turing,Wilmslow,3.25\n';

const docxText = (docx: Uint8Array) => {
  const parts = unzipSync(docx);
  return Object.entries(parts).filter(([name]) => /^word\/(document|header\d*|footer\d*)\.xml$/.test(name))
    .map(([, bytes]) => strFromU8(bytes).replace(/<[^>]+>/g, '')).join('\n');
};

describe.skipIf(!hasOffice)('Word templates', () => {
  let server: TestServer;
  let owner: TestAccount;
  let templateId: string;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    owner = await server.signUp();
    templateId = await fileWithSheet(server, owner.token, { name: 'Letter.rtf', bytes: Buffer.from(LETTER_RTF), type: 'application/rtf' }, PEOPLE);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  async function merged(overrides: Parameters<typeof mergeRequest>[0]): Promise<{ merge: Merge; bytes: Buffer }> {
    const request = mergeRequest(overrides);
    const started = await startMerge(server, owner.token, templateId, request);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const merge = await waitForMerge(server, owner.token, templateId, request.mergeId, undefined, 120_000);
    expect(merge.status, JSON.stringify(merge.error)).toBe('completed');
    const file = await download(server, merge.downloadUrl!);
    expect(file.status).toBe(200);
    return { merge, bytes: file.bytes };
  }

  it('keeps an uploaded RTF as a Word template under its own name, stored and downloaded as DOCX', async () => {
    const detail = (await server.inject('GET', `/templates/${templateId}`, { token: owner.token })).json as TemplateDetail;
    expect(detail).toMatchObject({ name: 'Letter.rtf', templateType: 'sfdt', numPages: 1 });
    expect(detail.pages[0]!.width).toBeGreaterThan(500);
    const file = await server.inject('GET', `/templates/${templateId}/download`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('wordprocessingml.document');
    expect(String(file.headers['content-disposition'])).toContain('Letter.docx');
    const text = docxText(file.body);
    expect(text).toContain('Dear {{First}} {{Last}}');
    expect(text).toContain('City: {{City}}');
    // A copy is a Word template with the same document.
    const copy = await server.inject('POST', `/templates/${templateId}/copy`, { token: owner.token });
    expect(copy.status, JSON.stringify(copy.json)).toBe(201);
    expect(copy.json).toMatchObject({ templateType: 'sfdt', name: 'Letter.rtf', checksum: detail.checksum });
    const copied = await server.inject('GET', `/templates/${(copy.json as TemplateDetail).id}/download`, { token: owner.token });
    expect(docxText(copied.body)).toContain('Dear {{First}} {{Last}}');
    // Exported to a .sheaf.json file and imported: a Word template again, with the same document.
    const exported = await server.inject('GET', `/templates/${templateId}/export`, { token: owner.token });
    expect(exported.status).toBe(200);
    const imported = await server.inject('POST', '/templates/import', { token: owner.token, file: { name: 'Letter.sheaf.json', bytes: Buffer.from(exported.body), type: 'application/json' } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json).toMatchObject({ templateType: 'sfdt', name: 'Letter.rtf', checksum: detail.checksum });
  });

  it('makes one DOCX per row, each with its own values in the body and the header', async () => {
    const { merge, bytes } = await merged({ isSfdtPdfOutput: false, fileNamePattern: '{{Last}}' });
    expect(merge.fileName).toBe('Letter.zip');
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual(['Hopper.docx', 'Lovelace.docx', 'Turing.docx']);
    const ada = docxText(files['Lovelace.docx']!);
    expect(ada).toContain('Dear Ada Lovelace');
    expect(ada).toContain('City: London');
    expect(ada).not.toContain('Grace');
    // LibreOffice opens it and prints the row's values.
    const printed = inTempDir((dir) => {
      const file = path.join(dir, 'Hopper.docx');
      writeFileSync(file, files['Hopper.docx']!);
      execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'txt:Text', '--outdir', dir, file], { stdio: 'pipe', timeout: 120_000 });
      return execFileSync('cat', [path.join(dir, 'Hopper.txt')], { encoding: 'utf8' });
    });
    expect(printed).toContain('Dear Grace Hopper');
  }, 180_000);

  it('makes one PDF per row by default, each a sound PDF holding only its own row (by one job, even past the range size)', async () => {
    const config = server.ctx.config;
    server.ctx.config = Object.freeze({ ...config, MERGE_RANGE_ROWS: 1 }); // a PDF template's merge would be made in ranges
    const { bytes } = await merged({}).finally(() => {
      server.ctx.config = config;
    });
    const pdfs = pdfsInZip(bytes);
    expect(pdfs.map((pdf) => pdf.name).sort()).toEqual(['document-2.pdf', 'document-3.pdf', 'document-4.pdf']);
    const byName = new Map(pdfs.map((pdf) => [pdf.name, pdf.text]));
    expect(byName.get('document-2.pdf')).toMatch(/Dear Ada Lovelace/);
    expect(byName.get('document-2.pdf')).toMatch(/City: London/);
    expect(byName.get('document-2.pdf')).not.toMatch(/Grace|Alan/);
    expect(byName.get('document-4.pdf')).toMatch(/your amount is 3\.25/);
    expect(byName.get('document-4.pdf')).not.toMatch(/Ada|Grace/);
  }, 180_000);

  it('makes one combined PDF with every row, and protects PDFs with each row\'s password', async () => {
    const combined = await merged({ isCombinedOutput: true });
    expect(combined.merge.fileName).toBe('Letter.pdf');
    const facts = pdfFacts(combined.bytes);
    expect(facts.pages).toBe(3);
    expect(facts.text).toMatch(/Ada Lovelace[\s\S]*Grace Hopper[\s\S]*Alan Turing/);

    const locked = await merged({ passwordProtection: { readPassword: '{{Last}}', modifyPassword: 'owner' }, rowsData: { startRow: 2, endRow: 2 } });
    inTempDir((dir) => {
      writeFileSync(path.join(dir, 'out.zip'), locked.bytes);
      execFileSync('unzip', ['-q', path.join(dir, 'out.zip'), '-d', dir]);
      const file = path.join(dir, 'document-2.pdf');
      expect(() => execFileSync('pdftotext', [file, '-'], { stdio: 'pipe' })).toThrow();
      expect(execFileSync('pdftotext', ['-upw', 'Lovelace', file, '-'], { encoding: 'utf8' })).toContain('Dear Ada Lovelace');
    });
  }, 180_000);

  it('saves the document edited in the browser (updateSfdt) and merges the new text', async () => {
    const file = await server.inject('GET', `/templates/${templateId}/download`, { token: owner.token });
    const parts = unzipSync(file.body);
    parts['word/document.xml'] = strToU8(strFromU8(parts['word/document.xml']!).replace('Dear', 'Hello'));
    const before = (await server.inject('GET', `/templates/${templateId}`, { token: owner.token })).json as TemplateDetail;
    const saved = await server.inject('PATCH', `/templates/${templateId}/updateSfdt`, { token: owner.token, file: { name: 'Letter.docx', bytes: zipSync(parts), type: 'application/octet-stream' } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const after = saved.json as TemplateDetail;
    expect(after).toMatchObject({ name: 'Letter.rtf', templateType: 'sfdt' });
    expect(after.checksum).not.toBe(before.checksum);
    const { bytes } = await merged({ isSfdtPdfOutput: false, rowsData: { startRow: 3, endRow: 3 } });
    expect(docxText(unzipSync(bytes)['document-3.docx']!)).toContain('Hello Grace Hopper');
  }, 180_000);

  it('refuses a field naming no heading before anything is made, and files that are no document', async () => {
    const txt = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Note.txt', bytes: Buffer.from('Hi {{Nmae}}\n'), type: 'text/plain' } });
    expect(txt.status, JSON.stringify(txt.json)).toBe(201);
    const id = (txt.json as TemplateDetail).id;
    expect((txt.json as TemplateDetail).templateType).toBe('sfdt');
    await server.inject('POST', `/templates/${id}/excel`, { token: owner.token, file: { name: 'people.csv', bytes: Buffer.from(PEOPLE), type: 'text/csv' } });
    const refused = await startMerge(server, owner.token, id, mergeRequest());
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'merge/word-field-unknown', message: expect.stringContaining('"Nmae"') });

    const broken = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Broken.docx', bytes: Buffer.from('PK\u0003\u0004 not really a zip'), type: 'application/octet-stream' } });
    expect(broken.status).toBe(400);
    expect((broken.json as { code: string }).code).toMatch(/^template\/(word-not-docx|office-unreadable)$/);
    const unclosed = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Unclosed.txt', bytes: Buffer.from('Dear {{Name,\n'), type: 'text/plain' } });
    expect(unclosed.status).toBe(400);
    expect(unclosed.json).toMatchObject({ code: 'template/word-unclosed-tag' });
  }, 180_000);
});
