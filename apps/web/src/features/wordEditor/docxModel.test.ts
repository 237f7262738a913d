import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { insertText, listParagraphs, openDocx, saveDocx, searchText, type XmlDom } from './docxModel.ts';

const dom = { DOMParser, XMLSerializer } as unknown as XmlDom;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const BOLD = '<w:rPr><w:b/><w:color w:val="FF0000"/></w:rPr>';

function docx(body: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`),
    ...extra,
  });
}
const open = (bytes: Uint8Array) => openDocx(bytes, dom);
const documentXml = (bytes: Uint8Array) => strFromU8(unzipSync(bytes)['word/document.xml']!);

describe('the Word editor\'s document model', () => {
  it('lists paragraphs as text, table cells and headers included', () => {
    const header = strToU8(`<?xml version="1.0"?><w:hdr xmlns:w="${W}"><w:p><w:r><w:t>Top</w:t></w:r></w:p></w:hdr>`);
    const doc = open(docx(`<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r>${BOLD}<w:t>friend</w:t><w:tab/><w:t>!</w:t></w:r></w:p>`
      + '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>', { 'word/header1.xml': header }));
    expect(listParagraphs(doc).map(({ text, inTable, part }) => ({ text, inTable, part }))).toEqual([
      { text: 'Dear friend\t!', inTable: false, part: 'word/document.xml' },
      { text: 'Cell', inTable: true, part: 'word/document.xml' },
      { text: 'Top', inTable: false, part: 'word/header1.xml' },
    ]);
  });

  it('inserts a field mid-run by splitting the run, the field and both halves keeping its formatting', () => {
    const doc = open(docx(`<w:p><w:r>${BOLD}<w:t>Dear friend,</w:t></w:r></w:p>`));
    const [paragraph] = listParagraphs(doc);
    const caret = insertText(doc, { paragraphId: paragraph!.id, offset: 5 }, '{{First}}');
    expect(caret.offset).toBe(14);
    expect(listParagraphs(doc)[0]!.text).toBe('Dear {{First}}friend,');
    const xml = new DOMParser().parseFromString(documentXml(saveDocx(doc)), 'text/xml');
    const runs = Array.from(xml.getElementsByTagNameNS(W, 'r'));
    expect(runs.map((run) => run.getElementsByTagNameNS(W, 't')[0]!.textContent)).toEqual(['Dear ', '{{First}}', 'friend,']);
    for (const run of runs) {
      expect(run.getElementsByTagNameNS(W, 'b')).toHaveLength(1);
      expect(run.getElementsByTagNameNS(W, 'color')[0]!.getAttributeNS(W, 'val')).toBe('FF0000');
    }
    // Spaces at the cut are kept.
    expect(runs[0]!.getElementsByTagNameNS(W, 't')[0]!.getAttribute('xml:space')).toBe('preserve');
  });

  it('inserts at run edges and at the end in the formatting of the text before, and into an empty paragraph', () => {
    const doc = open(docx(`<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r>${BOLD}<w:t>friend</w:t></w:r></w:p><w:p><w:pPr><w:rPr><w:i/></w:rPr></w:pPr></w:p>`));
    const [first, empty] = listParagraphs(doc);
    let caret = insertText(doc, { paragraphId: first!.id, offset: 5 }, '{{First}}');
    caret = insertText(doc, { paragraphId: first!.id, offset: 20 }, '{{Last}}');
    insertText(doc, { paragraphId: empty!.id, offset: 0 }, '{{City}}');
    expect(listParagraphs(doc).map((paragraph) => paragraph.text)).toEqual(['Dear {{First}}friend{{Last}}', '{{City}}']);
    expect(caret.offset).toBe(28);
    const xml = documentXml(saveDocx(doc));
    // {{First}} follows "Dear " (plain); {{Last}} follows "friend" (bold); {{City}} takes the paragraph mark's italics.
    expect(xml).toMatch(/<w:r><w:t xml:space="preserve">\{\{First\}\}<\/w:t><\/w:r>/);
    expect(xml).toMatch(/<w:r><w:rPr><w:b\/><w:color w:val="FF0000"\/><\/w:rPr><w:t xml:space="preserve">\{\{Last\}\}<\/w:t><\/w:r>/);
    expect(xml).toMatch(/<w:r><w:rPr><w:i\/><\/w:rPr><w:t xml:space="preserve">\{\{City\}\}<\/w:t><\/w:r>/);
  });

  it('keeps every other part of the ZIP byte for byte, and the XML declaration of the edited one', () => {
    const image = new Uint8Array([137, 80, 78, 71, 0, 1, 2, 3, 255]);
    const styles = strToU8(`<?xml version="1.0"?><w:styles xmlns:w="${W}"><!-- kept as is --></w:styles>`);
    const header = strToU8(`<?xml version="1.0"?><w:hdr xmlns:w="${W}"><w:p><w:r><w:t>Top</w:t></w:r></w:p></w:hdr>`);
    const original = docx('<w:p><w:r><w:t>Hello</w:t></w:r></w:p>', { 'word/media/image1.png': image, 'word/styles.xml': styles, 'word/header1.xml': header });
    const doc = open(original);
    insertText(doc, { paragraphId: listParagraphs(doc)[0]!.id, offset: 5 }, ' {{Name}}');
    const saved = saveDocx(doc);
    const before = unzipSync(original);
    const after = unzipSync(saved);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) {
      if (name === 'word/document.xml') continue;
      expect(after[name], name).toEqual(before[name]);
    }
    expect(documentXml(saved).startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document')).toBe(true);
    expect(listParagraphs(open(saved))[0]!.text).toBe('Hello {{Name}}');
  });

  it('finds text across runs, whatever its case, in every part', () => {
    const doc = open(docx(`<w:p><w:r><w:t>Your or</w:t></w:r><w:r>${BOLD}<w:t>der ships</w:t></w:r></w:p><w:p><w:r><w:t>ORDER again, order</w:t></w:r></w:p>`));
    const [first, second] = listParagraphs(doc);
    expect(searchText(doc, 'order')).toEqual([
      { paragraphId: first!.id, offset: 5, length: 5 },
      { paragraphId: second!.id, offset: 0, length: 5 },
      { paragraphId: second!.id, offset: 13, length: 5 },
    ]);
    expect(searchText(doc, '')).toEqual([]);
    expect(searchText(doc, 'missing')).toEqual([]);
  });

  it('refuses what is not a DOCX', () => {
    expect(() => open(new Uint8Array([1, 2, 3]))).toThrow('not a ZIP');
    expect(() => open(zipSync({ 'a.txt': strToU8('x') }))).toThrow('no word/document.xml');
  });
});
