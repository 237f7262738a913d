/**
 * "Page X of N", footnote and endnote numbers in a Word merge's PDFs, through real LibreOffice
 * conversions (docs/word-templates.md#pdf-output-in-batches): every document, separate or in the
 * combined PDF, counts its own pages and numbers its own notes from 1, as if converted alone.
 * Skipped without LibreOffice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareWordMerge, sheetFromTable } from '@sheaf/engine';
import { buildDocx, p, r } from '../../../../packages/engine/src/docx/test-docx.ts';
import { libreOfficeInstalled, OfficeConverter } from '../adapters/office/index.ts';
import { wordCombined, wordDocuments } from './word-documents.ts';

const field = (instruction: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>9</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const noteReference = (kind: 'footnote' | 'endnote', id: number) => `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:${kind}Reference w:id="${id}"/></w:r>`;
const footnote = (text: string) => `<w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>${r(` ${text}`)}</w:p>`;

const names = ['Ada Lovelace', 'Grace Hopper', 'Linus Torvalds'];
/** 60 lines: with its notes, each document takes two pages. */
const lines = Array.from({ length: 60 }, (_, line) => `Line ${line + 1}`).join('\n');
const sheet = sheetFromTable(['Name', 'Notes'], names.map((name) => [name, lines]));

/** A letter with "Page {PAGE} of {NUMPAGES}" in its footer and three footnotes, the last at the very end of the body. */
const letter = () =>
  buildDocx({
    body: `<w:p>${r('Dear {{Name}}')}${noteReference('footnote', 1)}${r(', see also')}${noteReference('footnote', 2)}</w:p>${p('{{Notes}}')}<w:p>${r('Yours')}${noteReference('footnote', 3)}</w:p>`,
    footer: `<w:p>${r('Page ')}${field('PAGE')}${r(' of ')}${field('NUMPAGES')}</w:p>`,
    footnotes: [footnote('First note for {{Name}}'), footnote('Second note'), footnote('Third note')],
  });

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** A one-page letter with an endnote naming its row. */
const endnoteLetter = () =>
  buildDocx({
    body: `<w:p>${r('Dear {{Name}}')}${noteReference('endnote', 1)}</w:p>`,
    extraParts: {
      'word/endnotes.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:endnotes xmlns:w="${W}"><w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote><w:endnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:endnote><w:endnote w:id="1"><w:p><w:r><w:endnoteRef/></w:r>${r(' Endnote for {{Name}}')}</w:p></w:endnote></w:endnotes>`,
      'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdE" Type="${REL}/endnotes" Target="endnotes.xml"/></Relationships>`,
      '[Content_Types].xml': '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/endnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"/></Types>',
    },
  });

const work = mkdtempSync(path.join(tmpdir(), 'sheaf-word-numbers-'));
let files = 0;
/** The text of a PDF (one page of it), as pdftotext reads it. */
function pdfText(pdf: Uint8Array, page?: number): string {
  const file = path.join(work, `${files++}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [...(page ? ['-f', String(page), '-l', String(page)] : []), '-layout', file, '-'], { encoding: 'utf8' });
}
const pageCount = (pdf: Uint8Array) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', ['-'], { input: pdf, encoding: 'utf8' }))![1]);
/** A footnote as the page prints it: its number at the start of a line, then its text. */
const noteLine = (number: number, text: string) => new RegExp(`^\\s*${number}\\s+${text}`, 'm');

describe.skipIf(!libreOfficeInstalled())('page counts and note numbers of a Word merge\'s PDFs', () => {
  const office = new OfficeConverter({ size: 2 });
  const toPdf = (docx: Uint8Array) => office.toPdf(docx);
  afterAll(async () => {
    await office.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Document `index` of a PDF whose documents have two pages each, from its page `first`. */
  function expectOwnNumbers(pdf: Uint8Array, first: number, index: number) {
    const [one, two] = [pdfText(pdf, first), pdfText(pdf, first + 1)];
    expect(one).toContain(`Dear ${names[index]}`);
    expect(one).toMatch(/Page 1 of 2\b/);
    expect(two).toMatch(/Page 2 of 2\b/);
    expect(one).toMatch(noteLine(1, `First note for ${names[index]}`));
    expect(one).toMatch(noteLine(2, 'Second note'));
    expect(two).toMatch(noteLine(3, 'Third note'));
    expect(two).toMatch(/Yours3\b/);
  }

  it('separate PDFs: each document prints "Page 1 of 2", "Page 2 of 2" and numbers its footnotes from 1', async () => {
    const merge = prepareWordMerge({ template: letter(), sheet, output: 'pdf', isCombinedOutput: false });
    const documents = [];
    for await (const document of wordDocuments(merge, toPdf, 0, 2)) documents.push(Buffer.concat(document.chunks));
    expect(documents).toHaveLength(3);
    for (const [index, pdf] of documents.entries()) {
      expect(pageCount(pdf)).toBe(2);
      expectOwnNumbers(pdf, 1, index);
    }
  }, 300_000);

  it('separate PDFs of different lengths: each prints its own count, a page-long document "Page 1 of 1"', async () => {
    const mixed = sheetFromTable(['Name', 'Notes'], [[names[0], lines], [names[1], 'A short letter.'], [names[2], lines]]);
    const merge = prepareWordMerge({ template: letter(), sheet: mixed, output: 'pdf', isCombinedOutput: false });
    const documents = [];
    for await (const document of wordDocuments(merge, toPdf)) documents.push(Buffer.concat(document.chunks));
    expect(documents.map(pageCount)).toEqual([2, 1, 2]);
    expect(pdfText(documents[1]!)).toMatch(/Page 1 of 1\b/);
    expect(pdfText(documents[1]!)).toMatch(noteLine(3, 'Third note'));
    expectOwnNumbers(documents[2]!, 1, 2);
  }, 300_000);

  it('the combined PDF: each document counts its own pages and notes, as Word prints each letter alone', async () => {
    const merge = prepareWordMerge({ template: letter(), sheet, output: 'pdf', isCombinedOutput: true });
    const pdf = await wordCombined(merge, toPdf);
    expect(pageCount(pdf)).toBe(6);
    for (let index = 0; index < 3; index++) expectOwnNumbers(pdf, 1 + 2 * index, index);
    expect(pdfText(pdf)).not.toMatch(/ of 6\b/);
  }, 300_000);

  it('separate PDFs: each document prints its own endnote', async () => {
    const merge = prepareWordMerge({ template: endnoteLetter(), sheet, output: 'pdf', isCombinedOutput: false });
    const documents = [];
    for await (const document of wordDocuments(merge, toPdf, 0, 2)) documents.push(Buffer.concat(document.chunks));
    for (const [index, pdf] of documents.entries()) {
      const text = pdfText(pdf);
      expect(text).toMatch(new RegExp(`\\bi\\s+Endnote for ${names[index]}`));
      for (const other of names.filter((_, position) => position !== index)) expect(text).not.toContain(other);
    }
  }, 300_000);
});
