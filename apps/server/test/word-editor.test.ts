/**
 * What the browser's Word editor asks of the server (docs/word-templates.md#editing-in-the-browser):
 * the template's document printed to PDF (GET /templates/{id}/printed, stored once per checksum and
 * printed afresh after a save), and the preview of a few rows filled into the document and printed
 * (POST /templates/{id}/preview on a Word template). Skipped where LibreOffice is not installed.
 */
import { existsSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemplateDetail } from '@sheaf/shared';
import { blobLayout } from '../src/adapters/blobs/layout.ts';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { pdfFacts } from './merge-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');
if (!hasOffice) console.warn('word-editor: skipped: LibreOffice is not installed (Debian libreoffice-writer-nogui)');

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
/** A minimal DOCX whose body has one paragraph per text. */
function docx(...paragraphs: string[]): Uint8Array {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`),
  });
}

const PEOPLE = 'First,Last\nAda,Lovelace\nGrace,Hopper\nBartholomew,Featherstonehaugh\n';

describe.skipIf(!hasOffice)('the Word editor\'s server side', () => {
  let server: TestServer;
  let owner: TestAccount;
  let template: TemplateDetail;

  const upload = async (name: string, bytes: Uint8Array) => {
    const answer = await server.inject('POST', '/templates', { token: owner.token, file: { name, bytes: Buffer.from(bytes), type: 'application/octet-stream' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(201);
    return answer.json as TemplateDetail;
  };
  const printed = (id: string, token = owner.token) => server.inject('GET', `/templates/${id}/printed`, { token });

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    owner = await server.signUp();
    template = await upload('Letter.docx', docx('Dear {{First}} {{Last}},', 'thank you.'));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('prints the document to PDF once per version, and again after a save', async () => {
    // The upload's own print is kept under the document's checksum.
    expect(await server.ctx.blobs.exists(blobLayout.template.printed(template.id, template.checksum))).toBe(true);
    const first = await printed(template.id);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(pdfFacts(Buffer.from(first.body)).text).toContain('Dear {{First}} {{Last}},');

    const saved = await server.inject('PATCH', `/templates/${template.id}/updateSfdt`, { token: owner.token, file: { name: 'Letter.docx', bytes: Buffer.from(docx('Hello {{First}},', 'see you.')), type: 'application/octet-stream' } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const after = saved.json as TemplateDetail;
    expect(after.checksum).not.toBe(template.checksum);
    const second = await printed(template.id);
    expect(pdfFacts(Buffer.from(second.body)).text).toContain('Hello {{First}},');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    // The old version's print went with its document.
    expect(await server.ctx.blobs.exists(blobLayout.template.printed(template.id, template.checksum))).toBe(false);

    // A print missing from the store is made on request, once, however many ask at the same time.
    const key = blobLayout.template.printed(template.id, after.checksum);
    await server.ctx.blobs.delete(key);
    const office = server.ctx.office;
    let conversions = 0;
    const toPdf = office.toPdf.bind(office);
    office.toPdf = async (bytes) => {
      conversions++;
      return toPdf(bytes);
    };
    try {
      const answers = await Promise.all([printed(template.id), printed(template.id), printed(template.id)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(conversions).toBe(1);
      expect(await server.ctx.blobs.exists(key)).toBe(true);
      await printed(template.id);
      expect(conversions).toBe(1);
    } finally {
      office.toPdf = toPdf;
    }
    template = after;
  }, 180_000);

  it('refuses the print of another account\'s template', async () => {
    const other = await server.signUp();
    const foreign = await printed(template.id, other.token);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ code: 'template/not-found' });
  });

  it('previews a Word template: field names without a sheet, the rows\' values, or each column\'s longest value', async () => {
    const body = { placeholders: [], startRow: 2, endRow: 3, showLongestOccurrence: false };
    const named = await server.inject('POST', `/templates/${template.id}/preview`, { token: owner.token, body });
    expect(named.status, JSON.stringify(named.json)).toBe(200);
    expect(pdfFacts(Buffer.from(named.body)).text).toContain('Hello First,');

    const sheet = await server.inject('POST', `/templates/${template.id}/excel`, { token: owner.token, file: { name: 'people.csv', bytes: Buffer.from(PEOPLE), type: 'text/csv' } });
    expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
    const rows = await server.inject('POST', `/templates/${template.id}/preview`, { token: owner.token, body });
    expect(rows.status, JSON.stringify(rows.json)).toBe(200);
    const facts = pdfFacts(Buffer.from(rows.body));
    expect(facts.pages).toBe(2);
    expect(facts.text).toMatch(/Hello Ada,[\s\S]*Hello Grace,/);
    expect(facts.text).not.toContain('Bartholomew');

    const longest = await server.inject('POST', `/templates/${template.id}/preview`, { token: owner.token, body: { ...body, endRow: 2, showLongestOccurrence: true } });
    expect(longest.status, JSON.stringify(longest.json)).toBe(200);
    expect(pdfFacts(Buffer.from(longest.body)).text).toContain('Hello Bartholomew,');
  }, 180_000);
});
