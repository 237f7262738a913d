/**
 * Bad Word templates (docs/word-templates.md#what-is-refused): each refused with its catalogue code,
 * quickly, before anything large is unpacked.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { listDocxFields, prepareDocx } from './prepare.ts';
import { buildDocx, p, readParts } from './test-docx.ts';
import { expectSheafError } from './test-expect.ts';

const headers = ['Name'];

describe('Word templates: what is refused', () => {
  it('a DOCTYPE with entities in the document (no entity is ever expanded)', () => {
    const docx = buildDocx({ body: p('{{Name}}') });
    const parts = readParts(buildDocx({ body: p('&lol2;') }));
    parts['word/document.xml'] = parts['word/document.xml']!.replace('?>', '?><!DOCTYPE d [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>');
    expectSheafError(() => listDocxFields(rezip(parts)), 'template/word-entities');
    expect(listDocxFields(docx)).toHaveLength(1);
  });

  it('a DOCTYPE in a part that is never filled (styles), which whoever opens the output would read', () => {
    const docx = buildDocx({ body: p('x'), extraParts: { 'word/styles.xml': '<?xml version="1.0"?><!DOCTYPE s SYSTEM "http://example.invalid/x.dtd"><w:styles/>' } });
    expectSheafError(() => listDocxFields(docx), 'template/word-entities');
  });

  it('an encrypted Office file or a Word 97-2003 file (OLE compound file)', () => {
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expectSheafError(() => listDocxFields(ole), 'template/word-encrypted');
  });

  it('a ZIP with encrypted entries', () => {
    const docx = buildDocx({ body: p('x') }).slice();
    // Set the "encrypted" flag in every central directory header.
    for (let at = 0; at + 4 < docx.length; at++) {
      if (docx[at] === 0x50 && docx[at + 1] === 0x4b && docx[at + 2] === 1 && docx[at + 3] === 2) docx[at + 8]! |= 1;
    }
    expectSheafError(() => listDocxFields(docx), 'template/word-encrypted');
  });

  it('files that are no DOCX: a PDF, a ZIP of other things, a spreadsheet', () => {
    expectSheafError(() => listDocxFields(new TextEncoder().encode('%PDF-1.7\n')), 'template/word-not-docx', { detail: 'not a ZIP package' });
    expectSheafError(() => listDocxFields(zipSync({ 'a.txt': new Uint8Array([1]) })), 'template/word-not-docx', { detail: 'no [Content_Types].xml' });
    const workbook = buildDocx({
      body: p('x'),
      contentTypes:
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    });
    expectSheafError(() => listDocxFields(workbook), 'template/word-not-docx', { detail: 'no Word main document' });
    expectSheafError(() => listDocxFields(new Uint8Array(0)), 'template/empty');
  });

  it('a zip bomb: a part expanding far beyond its size is stopped early', () => {
    // 12 MB of zeros deflate to ~12 KB: a ratio of ~1000, stopped once 4 MB are out.
    const zeros = new Uint8Array(12 * 1024 * 1024);
    const parts = readParts(buildDocx({ body: p('x') }));
    const files: Record<string, Uint8Array> = {};
    for (const [name, text] of Object.entries(parts)) files[name] = new TextEncoder().encode(text);
    files['word/media/bomb.bin'] = zeros;
    const bomb = zipSync(files, { level: 1 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expectSheafError(() => listDocxFields(bomb), 'template/word-too-large-when-unpacked', { maxMb: 64 });
  });

  it('a file over the size limit', () => {
    expectSheafError(() => listDocxFields(buildDocx({ body: p('x') }), { maxBytes: 100 }), 'template/too-large');
  });

  it('an unclosed tag, at template check time, quoting it', () => {
    expectSheafError(() => listDocxFields(buildDocx({ body: p('Dear {{Name,') })), 'template/word-unclosed-tag', { text: '{{Name,' });
    expectSheafError(() => listDocxFields(buildDocx({ body: p('Dear {{Na', 'me } and more') })), 'template/word-unclosed-tag', { text: '{{Name } and more' });
  });

  it('a tag or MERGEFIELD naming no column stops the merge at prepare, naming the column', () => {
    expectSheafError(() => prepareDocx(buildDocx({ body: p('{{Nmae}}') }), headers), 'merge/word-field-unknown', { column: 'Nmae' });
    const field = '<w:p><w:fldSimple w:instr=" MERGEFIELD Surname "/></w:p>';
    expectSheafError(() => prepareDocx(buildDocx({ body: field }), headers), 'merge/word-field-unknown', { column: 'Surname' });
    const prepared = prepareDocx(buildDocx({ body: p('{{Name}}') }), headers);
    expect(prepared.fill(sheetFromTable(headers, [['x']]), [0]).length).toBeGreaterThan(0);
  });

  it('XML that does not hold together', () => {
    const parts = readParts(buildDocx({ body: p('x') }));
    parts['word/document.xml'] = parts['word/document.xml']!.replace('</w:body>', '');
    expectSheafError(() => listDocxFields(rezip(parts)), 'template/word-not-docx');
    expectSheafError(() => listDocxFields(buildDocx({ body: p('&#x110000;') })), 'template/word-not-docx');
    expectSheafError(() => listDocxFields(buildDocx({ body: p('a & b') })), 'template/word-not-docx');
    expectSheafError(() => listDocxFields(buildDocx({ body: '<w:p><w:r><w:t>x</w:t></w:r><!-- never closed' })), 'template/word-not-docx');
  });
});

function rezip(parts: Record<string, string>): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(parts)) files[name] = new TextEncoder().encode(text);
  return zipSync(files);
}
