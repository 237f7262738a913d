/**
 * A Word merge's PDFs through real LibreOffice conversions: batches convert side by side (two at once
 * here), yet every document comes out in order, holding its own row. Skipped without LibreOffice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareWordMerge, sheetFromTable } from '@sheaf/engine';
import { libreOfficeInstalled, OfficeConverter } from '../adapters/office/index.ts';
import { PDF_BATCH_DOCUMENTS, pdfBatchSize, wordDocuments } from './word-documents.ts';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
/** A two-paragraph letter with one field, as the smallest DOCX Word and LibreOffice open. */
function letter(): Uint8Array {
  const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${paragraph('Dear {{Name}},')}${paragraph('thank you.')}<w:sectPr/></w:body></w:document>`),
  });
}

describe.skipIf(!libreOfficeInstalled())('a Word merge\'s PDF documents', () => {
  const office = new OfficeConverter({ size: 2 });
  afterAll(() => office.close());

  it('convert two batches at once and come out in order, each with its own row', async () => {
    const rows = PDF_BATCH_DOCUMENTS * 2 + 5; // four batches of 52 or 49: two rounds of two
    const sheet = sheetFromTable(['Name'], Array.from({ length: rows }, (_, n) => [`Person${n + 1}`]));
    const merge = prepareWordMerge({ template: letter(), sheet, output: 'pdf', isCombinedOutput: false });
    let inFlight = 0;
    let most = 0;
    const toPdf = async (docx: Uint8Array) => {
      most = Math.max(most, ++inFlight);
      try {
        return await office.toPdf(docx);
      } finally {
        inFlight--;
      }
    };
    const documents = [];
    for await (const document of wordDocuments(merge, toPdf, 0, 2)) documents.push(document);
    expect(most).toBe(2);
    expect(documents.map((document) => document.index)).toEqual(Array.from({ length: rows }, (_, n) => n));
    const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-word-docs-'));
    try {
      for (const index of [0, PDF_BATCH_DOCUMENTS, rows - 1]) {
        const file = path.join(dir, `${index}.pdf`);
        writeFileSync(file, Buffer.concat(documents[index]!.chunks));
        expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain(`Dear Person${index + 1},`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('keep both processes busy: 100 rows convert as two batches of 50 at once, not one of 100', async () => {
    const rows = 100;
    const sheet = sheetFromTable(['Name'], Array.from({ length: rows }, (_, n) => [`Person${n + 1}`]));
    const merge = prepareWordMerge({ template: letter(), sheet, output: 'pdf', isCombinedOutput: false });
    let inFlight = 0;
    let most = 0;
    const pages: number[] = [];
    const toPdf = async (docx: Uint8Array) => {
      most = Math.max(most, ++inFlight);
      try {
        const pdf = await office.toPdf(docx);
        pages.push(Number(/\/Type\s*\/Pages[^>]*?\/Count\s+(\d+)/.exec(Buffer.from(pdf).toString('latin1'))?.[1] ?? 0));
        return pdf;
      } finally {
        inFlight--;
      }
    };
    const documents = [];
    for await (const document of wordDocuments(merge, toPdf, 0, 2)) documents.push(document);
    expect(documents).toHaveLength(rows);
    expect(most).toBe(2);
    expect(pages).toHaveLength(2);
    // Large merges keep the full batch; a merge resumed near its end is balanced over what is left.
    expect([pdfBatchSize(3000, 2), pdfBatchSize(300, 2), pdfBatchSize(205, 2), pdfBatchSize(7, 2), pdfBatchSize(100, 1)]).toEqual([100, 75, 52, 4, 100]);
  }, 300_000);
});
