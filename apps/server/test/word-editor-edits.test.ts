/**
 * Text edited in the browser's Word editor, on the server (docs/word-templates.md#editing-in-the-browser):
 * a document whose sentence was reworded, split by Enter and trimmed by Delete, saved with PATCH
 * updateSfdt, merges with the new text; an edit that breaks the document's XML is refused with its
 * catalogue code and the template stays as it was. Skipped where LibreOffice is not installed.
 */
import { existsSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateDetail } from '@sheaf/shared';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { download, mergeRequest, pdfsInZip, startMerge, waitForMerge } from './merge-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');
if (!hasOffice) console.warn('word-editor-edits: skipped: LibreOffice is not installed (Debian libreoffice-writer-nogui)');

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CENTRED = '<w:pPr><w:jc w:val="center"/></w:pPr>';
const BOLD = '<w:rPr><w:b/></w:rPr>';

function docx(body: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`),
  });
}

const GREETING = '<w:p><w:r><w:t xml:space="preserve">Dear {{First}},</w:t></w:r></w:p>';
const ORIGINAL = docx(`${GREETING}<w:p>${CENTRED}<w:r>${BOLD}<w:t>Your order ships on Monday. Thank you for waiting.</w:t></w:r></w:p>`);
/**
 * The same document as the editor writes it after the user reworded the sentence ("order" ->
 * "parcel", "on Monday" -> "today" typed into the run), pressed Enter before "Thank" (a second
 * paragraph with the same properties, the run's formatting on both halves) and deleted "for waiting".
 */
const EDITED = docx(`${GREETING}<w:p>${CENTRED}<w:r>${BOLD}<w:t xml:space="preserve">Your parcel ships today. </w:t></w:r></w:p>`
  + `<w:p>${CENTRED}<w:r>${BOLD}<w:t xml:space="preserve">Thank you.</w:t></w:r></w:p>`);
const PEOPLE = 'First\nAda\nGrace\n';

describe.skipIf(!hasOffice)('text edited in the Word editor, on the server', () => {
  let server: TestServer;
  let owner: TestAccount;
  let template: TemplateDetail;

  const save = (bytes: Uint8Array) => server.inject('PATCH', `/templates/${template.id}/updateSfdt`, { token: owner.token, file: { name: 'template.docx', bytes: Buffer.from(bytes), type: 'application/octet-stream' } });
  const storedXml = async () => {
    const file = await server.inject('GET', `/templates/${template.id}/download`, { token: owner.token });
    expect(file.status).toBe(200);
    return strFromU8(unzipSync(new Uint8Array(file.body))['word/document.xml']!);
  };

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    owner = await server.signUp();
    const upload = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Letter.docx', bytes: Buffer.from(ORIGINAL), type: 'application/octet-stream' } });
    expect(upload.status, JSON.stringify(upload.json)).toBe(201);
    template = upload.json as TemplateDetail;
    const sheet = await server.inject('POST', `/templates/${template.id}/excel`, { token: owner.token, file: { name: 'people.csv', bytes: Buffer.from(PEOPLE), type: 'text/csv' } });
    expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('saves the reworded document, and a merge prints each row with the new text', async () => {
    const saved = await save(EDITED);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    template = saved.json as TemplateDetail;
    expect(await storedXml()).toBe(strFromU8(unzipSync(EDITED)['word/document.xml']!));

    const request = mergeRequest();
    const started = await startMerge(server, owner.token, template.id, request);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const merge = await waitForMerge(server, owner.token, template.id, request.mergeId, undefined, 120_000);
    expect(merge.status, JSON.stringify(merge.error)).toBe('completed');
    const pdfs = pdfsInZip((await download(server, merge.downloadUrl!)).bytes);
    expect(pdfs).toHaveLength(2);
    for (const [index, first] of ['Ada', 'Grace'].entries()) {
      const text = pdfs[index]!.text.replace(/\s+/g, ' ');
      expect(text).toContain(`Dear ${first},`);
      expect(text).toContain('Your parcel ships today. Thank you.');
      expect(text).not.toContain('Monday');
      expect(text).not.toContain('waiting');
    }
  }, 180_000);

  it('refuses an edit that breaks the document\'s XML, keeping the saved version', async () => {
    const broken = {
      'an element closed out of order': `<w:p><w:r><w:t>Dear {{First}},</w:t></w:p></w:r>`,
      'text loose in a paragraph': '<w:p>Dear <w:r><w:t>{{First}},</w:t></w:r></w:p>',
      'text loose in a run': '<w:p><w:r>Dear<w:t>{{First}},</w:t></w:r></w:p>',
      'a control character': '<w:p><w:r><w:t>Dear&#x1; {{First}},</w:t></w:r></w:p>',
      'a paragraph never closed': '<w:p><w:r><w:t>Dear {{First}},</w:t></w:r>',
    };
    for (const [what, body] of Object.entries(broken)) {
      const refused = await save(docx(body));
      expect(refused.status, what).toBe(400);
      expect(refused.json, what).toMatchObject({ code: 'template/word-not-docx', message: expect.stringContaining('word/document.xml') });
    }
    const detail = (await server.inject('GET', `/templates/${template.id}`, { token: owner.token })).json as TemplateDetail;
    expect(detail.checksum).toBe(template.checksum);
    expect(await storedXml()).toContain('Your parcel ships today.');
  }, 180_000);
});
