/**
 * Many rows in one DOCX for one PDF conversion (docs/word-templates.md#pdf-output-in-batches): each
 * row's document follows the previous one on a new page section numbered from 1, with its bookmark,
 * its own header values, and ids that stay unique.
 */
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { rowBookmarkName } from './batch.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, cell, p, readParts, row, table, visibleText } from './test-docx.ts';
import { expectSheafError } from './test-expect.ts';

const sheet = sheetFromTable(['Name', 'Item'], [
  ['Ada', 'Pen'],
  ['Grace', 'Ink'],
  ['Linus', 'Paper'],
]);

const all = (xml: string, pattern: RegExp) => [...xml.matchAll(pattern)].map((match) => match[1]!);
const sections = (xml: string) => xml.match(/<w:sectPr\b[\s\S]*?<\/w:sectPr>/g) ?? [];

describe('Word templates: batch documents for PDF output', () => {
  it('puts each row after the previous one, each starting a new page section numbered from 1 with its bookmark', () => {
    const docx = buildDocx({ body: p('Dear {{Name}},') + p('your {{Item}}.') });
    const xml = readParts(prepareDocx(docx, sheet.headers).fillBatch(sheet, [[0], [1], [2]]))['word/document.xml']!;
    expect(visibleText(xml)).toBe('Dear Ada,\nyour Pen.\nDear Grace,\nyour Ink.\nDear Linus,\nyour Paper.');
    const found = sections(xml);
    expect(found).toHaveLength(3);
    for (const section of found) {
      expect(section).toContain('<w:type w:val="nextPage"/>');
      expect(section).toContain('<w:pgNumType w:start="1"/>');
      expect(section).toContain('<w:pgSz w:w="11906" w:h="16838"/>');
      // Schema order: type before pgSz, pgNumType after it.
      expect(section.indexOf('w:type')).toBeLessThan(section.indexOf('w:pgSz'));
      expect(section.indexOf('w:pgNumType')).toBeGreaterThan(section.indexOf('w:pgSz'));
    }
    // Rows 1 and 2 end in their last paragraph's properties (no extra empty paragraph), the last at the body's end.
    expect(xml).toContain('<w:p><w:pPr><w:sectPr>');
    expect(xml).not.toMatch(/<w:p><w:pPr><w:sectPr>[\s\S]*?<\/w:sectPr><\/w:pPr><\/w:p>/);
    expect(xml).toMatch(/<\/w:sectPr><\/w:body>/);
    const paragraphs = xml.match(/<w:p>[\s\S]*?<\/w:p>/g)!;
    expect(paragraphs.map((paragraph) => all(paragraph, /w:name="([^"]+)"/g)[0])).toEqual([rowBookmarkName(0), undefined, rowBookmarkName(1), undefined, rowBookmarkName(2), undefined]);
  });

  it('keeps a template of several sections (landscape page included) for every row, starting only its first on a new numbered page', () => {
    const landscape = '<w:p><w:pPr><w:sectPr><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgNumType w:fmt="lowerRoman"/></w:sectPr></w:pPr><w:r><w:t>Cover {{Name}}</w:t></w:r></w:p>';
    const docx = buildDocx({ body: landscape + p('Letter {{Item}}') });
    const xml = readParts(prepareDocx(docx, sheet.headers).fillBatch(sheet, [[0], [1]]))['word/document.xml']!;
    const found = sections(xml);
    expect(found).toHaveLength(4);
    expect(found.map((section) => /w:orient="landscape"/.test(section))).toEqual([true, false, true, false]);
    expect(found[0]).toContain('<w:type w:val="nextPage"/>');
    expect(found[0]).toContain('<w:pgNumType w:start="1" w:fmt="lowerRoman"/>');
    expect(found[1]).not.toContain('w:type');
    expect(found[1]).not.toContain('pgNumType');
    expect(found[2]).toContain('<w:pgNumType w:start="1" w:fmt="lowerRoman"/>');
  });

  it('gives each row its own copy of a header with fields; a footer without fields stays shared', () => {
    const docx = buildDocx({ body: p('Body {{Name}}'), header: p('Header for {{Name}}'), footer: p('Same footer') });
    const parts = readParts(prepareDocx(docx, sheet.headers).fillBatch(sheet, [[0], [1], [2]]));
    const headerIds = sections(parts['word/document.xml']!).map((section) => /headerReference w:type="default" r:id="([^"]+)"/.exec(section)![1]!);
    const footerIds = sections(parts['word/document.xml']!).map((section) => /footerReference w:type="default" r:id="([^"]+)"/.exec(section)![1]!);
    expect(new Set(headerIds).size).toBe(3);
    expect(new Set(footerIds).size).toBe(1);
    const rels = parts['word/_rels/document.xml.rels']!;
    const headers = headerIds.map((id) => {
      const target = new RegExp(`Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)![1]!;
      expect(parts['[Content_Types].xml']).toContain(`PartName="/word/${target}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"`);
      return visibleText(parts[`word/${target}`]!);
    });
    expect(headers).toEqual(['Header for Ada', 'Header for Grace', 'Header for Linus']);
    expect(Object.keys(parts).filter((name) => /footer/.test(name))).toEqual(['word/footer1.xml']);
  });

  it('keeps bookmark, drawing and footnote ids unique across the copies, each row with its own notes', () => {
    const drawing = '<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="7" name="Logo"/></wp:inline></w:drawing></w:r>';
    const body =
      `<w:p><w:bookmarkStart w:id="0" w:name="Greeting"/><w:r><w:t>Dear {{Name}}</w:t></w:r><w:bookmarkEnd w:id="0"/>${drawing}</w:p>` +
      '<w:p><w:hyperlink w:anchor="Greeting"><w:r><w:t>back</w:t></w:r></w:hyperlink><w:r><w:footnoteReference w:id="1"/></w:r></w:p>';
    const docx = buildDocx({ body, footnotes: [p('Note for {{Name}}')] });
    const parts = readParts(prepareDocx(docx, sheet.headers).fillBatch(sheet, [[0], [1], [2]]));
    const xml = parts['word/document.xml']!;
    const bookmarkIds = all(xml, /<w:bookmarkStart w:id="([^"]+)"/g);
    const bookmarkNames = all(xml, /<w:bookmarkStart [^>]*w:name="([^"]+)"/g);
    expect(bookmarkIds).toHaveLength(6);
    expect(new Set(bookmarkIds).size).toBe(6);
    expect(new Set(bookmarkNames).size).toBe(6);
    expect(all(xml, /<w:bookmarkEnd w:id="([^"]+)"/g).sort()).toEqual([...bookmarkIds].sort());
    // Each row's link goes to its own copy of the bookmark.
    expect(all(xml, /w:anchor="([^"]+)"/g)).toEqual(bookmarkNames.filter((name) => !name.startsWith('SheafRow')));
    expect(new Set(all(xml, /<wp:docPr id="([^"]+)"/g)).size).toBe(3);
    const references = all(xml, /<w:footnoteReference w:id="([^"]+)"/g);
    expect(new Set(references).size).toBe(3);
    const notes = parts['word/footnotes.xml']!;
    expect(references.map((id) => visibleText(new RegExp(`<w:footnote w:id="${id}">([\\s\\S]*?)</w:footnote>`).exec(notes)![1]!))).toEqual([
      'Note for Ada',
      'Note for Grace',
      'Note for Linus',
    ]);
    expect(notes.match(/w:type="separator"/g)).toHaveLength(1);
  });

  it('places the bookmark in the first paragraph when a row starts with a table, and fills groups with their repeated rows', () => {
    const docx = buildDocx({ body: table(row(cell(p('{{#each}}{{Item}}')))) + p('for {{Name}}') });
    const xml = readParts(prepareDocx(docx, sheet.headers).fillBatch(sheet, [[0, 2], [1]]))['word/document.xml']!;
    expect(visibleText(xml)).toBe('Pen\nPaper\nfor Ada\nInk\nfor Grace');
    expect(xml).toMatch(new RegExp(`<w:tc><w:p><w:bookmarkStart w:id="\\d+" w:name="${rowBookmarkName(0)}"/>`));
    expect(xml).toMatch(new RegExp(`<w:tc><w:p><w:bookmarkStart w:id="\\d+" w:name="${rowBookmarkName(1)}"/>`));
  });

  it('refuses an empty batch or an empty group', () => {
    const prepared = prepareDocx(buildDocx({ body: p('{{Name}}') }), sheet.headers);
    expectSheafError(() => prepared.fillBatch(sheet, []), 'merge/no-rows');
    expectSheafError(() => prepared.fillBatch(sheet, [[0], []]), 'merge/no-rows');
  });
});
