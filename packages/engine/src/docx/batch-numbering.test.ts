/**
 * Each document's own numbers in a PDF batch (batch-numbering.ts): page-count fields printed as the
 * document's count, footnote references numbered per document as custom marks. The LibreOffice
 * round trip is apps/server/src/merge-output/word-page-numbers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { footnoteNumbering, formatNumber, hasPageCountField, withDocumentFootnoteNumbers, withPageCount } from './batch-numbering.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p, r, readParts, visibleText } from './test-docx.ts';

const complexField = (instruction: string, result = '<w:r><w:rPr><w:b/></w:rPr><w:t>9</w:t></w:r>') =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${result}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
const reference = (id: number) => `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;

describe('page counts per document', () => {
  it('prints NUMPAGES and SECTIONPAGES as the count, in the formatting of their result, and no field is left', () => {
    const xml = `<w:p>${r('Page ')}${complexField('PAGE')}${r(' of ')}${complexField('NUMPAGES \\* Arabic \\* MERGEFORMAT')}</w:p><w:p><w:fldSimple w:instr=" SECTIONPAGES "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>`;
    expect(hasPageCountField(xml)).toBe(true);
    const out = withPageCount(xml, 2);
    expect(visibleText(out)).toBe('Page 9 of 2\n2');
    expect(out).toContain('<w:rPr><w:b/></w:rPr><w:t>2</w:t>');
    expect(out).not.toMatch(/NUMPAGES|SECTIONPAGES/);
    expect(out).toContain(' PAGE ');
    expect(out.match(/<w:fldChar /g)).toHaveLength(3);
  });

  it('a field without a result gets one; PAGE alone and a page count inside another field stay fields', () => {
    const noResult = '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> NUMPAGES </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
    expect(visibleText(withPageCount(`<w:p>${noResult}</w:p>`, 3))).toBe('3');
    expect(hasPageCountField(`<w:p>${complexField('PAGE')}</w:p>`)).toBe(false);
    const nested = `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> = </w:instrText></w:r>${complexField('NUMPAGES')}<w:r><w:instrText> - 1 </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
    expect(withPageCount(nested, 3)).toBe(nested);
  });

  it('a footer printing the page count gets a copy per row in a batch, each with its row\'s count', () => {
    const template = buildDocx({ body: p('Dear {{Name}}'), footer: `<w:p>${r('of ')}${complexField('NUMPAGES')}</w:p>` });
    const sheet = sheetFromTable(['Name'], [['Ada'], ['Grace']]);
    const prepared = prepareDocx(template, sheet.headers);
    expect(prepared.batchTraits()).toEqual({ countsPages: true, hasEndnotes: false });
    const parts = readParts(prepared.fillBatch(sheet, [[0], [1]], { pageCounts: [1, 3] }));
    expect(visibleText(parts['word/footer1.xml']!)).toBe('of 1');
    expect(visibleText(parts['word/sheaf-row1-footer1.xml']!)).toBe('of 3');
    // Without counts (a combined DOCX, a first conversion) the fields stay.
    expect(readParts(prepared.fillBatch(sheet, [[0], [1]]))['word/sheaf-row1-footer1.xml']).toContain('NUMPAGES');
  });
});

describe('footnote numbers per document', () => {
  it('numbers each reference from the start as a custom mark followed by an empty run, custom marks kept', () => {
    const body = `<w:p>${r('a')}${reference(4)}${r('b')}${reference(5)}<w:r><w:footnoteReference w:customMarkFollows="1" w:id="6"/><w:t>*</w:t></w:r>${reference(7)}</w:p>`;
    const out = withDocumentFootnoteNumbers(body, footnoteNumbering());
    expect(visibleText(out)).toBe('a1b2*3');
    expect(out).toContain('<w:footnoteReference w:customMarkFollows="1" w:id="4"/><w:t>1</w:t></w:r><w:r><w:t></w:t></w:r>');
  });

  it('follows the template\'s format and start, and leaves per-page numbering to LibreOffice', () => {
    const settings = '<w:settings><w:footnotePr><w:numFmt w:val="lowerRoman"/><w:numStart w:val="3"/></w:footnotePr></w:settings>';
    expect(footnoteNumbering(settings)).toEqual({ format: 'lowerRoman', start: 3, perPage: false });
    expect(visibleText(withDocumentFootnoteNumbers(`<w:p>${reference(1)}${reference(2)}</w:p>`, footnoteNumbering(settings)))).toBe('iiiiv');
    const perPage = footnoteNumbering('<w:sectPr><w:footnotePr><w:numRestart w:val="eachPage"/></w:footnotePr></w:sectPr>');
    expect(withDocumentFootnoteNumbers(`<w:p>${reference(1)}</w:p>`, perPage)).toBe(`<w:p>${reference(1)}</w:p>`);
    expect([1, 4, 5, 9, 27].map((value) => formatNumber(value, 'upperLetter'))).toEqual(['A', 'D', 'E', 'I', 'AA']);
    expect([1, 5, 6].map((value) => formatNumber(value, 'chicago'))).toEqual(['*', '**', '††']);
    expect(formatNumber(1994, 'upperRoman')).toBe('MCMXCIV');
  });
});
