/**
 * Each document's own numbers in a PDF batch (batch-numbering.ts): page-count fields printed as the
 * document's count, footnote references numbered per document as custom marks. The LibreOffice
 * round trips are apps/server/src/merge-output/word-page-numbers.test.ts and batch-numbering-libreoffice.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { footnoteNumbering, hasPageCountField, withDocumentFootnoteNumbers, withPageCount } from './batch-numbering.ts';
import { numFmtText } from './number-format.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p, r, readParts, visibleText } from './test-docx.ts';

const complexField = (instruction: string, result = '<w:r><w:rPr><w:b/></w:rPr><w:t>9</w:t></w:r>') =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${result}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
/** A complex field whose instruction holds `parts` (strings are instruction text, the rest nested fields). */
const outerField = (parts: string[], result = '<w:r><w:t>?</w:t></w:r>') =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${parts.map((part) => (part.startsWith('<') ? part : `<w:r><w:instrText xml:space="preserve">${part}</w:instrText></w:r>`)).join('')}<w:r><w:fldChar w:fldCharType="separate"/></w:r>${result}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
/** The instruction text of a part, as Word reads it with nested fields' results left out. */
const instructions = (xml: string) => [...xml.matchAll(/<w:instrText[^>]*>([^<]*)<\/w:instrText>/g)].map((match) => match[1]).join('');
const reference = (id: number) => `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="${id}"/></w:r>`;

describe('page counts per document', () => {
  it('prints NUMPAGES and SECTIONPAGES as the count, in the formatting of their result, and no field is left', () => {
    const xml = `<w:p>${r('Page ')}${complexField('PAGE')}${r(' of ')}${complexField('NUMPAGES \\* Arabic \\* MERGEFORMAT')}</w:p><w:p><w:fldSimple w:instr=" SECTIONPAGES "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>`;
    expect(hasPageCountField(xml)).toBe(true);
    const out = withPageCount(xml, 2);
    expect(visibleText(out)).toBe('Page 9 of 2\n2');
    expect(out).toContain('<w:rPr><w:b/></w:rPr><w:t xml:space="preserve">2</w:t>');
    expect(out).not.toMatch(/NUMPAGES|SECTIONPAGES/);
    expect(out).toContain(' PAGE ');
    expect(out.match(/<w:fldChar /g)).toHaveLength(3);
  });

  it('a field without a result gets one; PAGE alone stays a field', () => {
    const noResult = '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> NUMPAGES </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>';
    expect(visibleText(withPageCount(`<w:p>${noResult}</w:p>`, 3))).toBe('3');
    expect(hasPageCountField(`<w:p>${complexField('PAGE')}</w:p>`)).toBe(false);
    expect(withPageCount(`<w:p>${complexField('PAGE \\* roman')}</w:p>`, 3)).toBe(`<w:p>${complexField('PAGE \\* roman')}</w:p>`);
  });

  it('prints the count in the field\'s number format, in the result\'s formatting', () => {
    const formats: Array<[string, string]> = [['\\* roman', 'iii'], ['\\* ROMAN \\* MERGEFORMAT', 'III'], ['\\* alphabetic', 'c'], ['\\* ArabicDash', '- 3 -'], ['\\* CardText \\* FirstCap', 'Three'], ['\\# "00"', '03']];
    for (const [switches, printed] of formats) {
      const out = withPageCount(`<w:p>${r('of ')}${complexField(`NUMPAGES ${switches}`)}</w:p>`, 3);
      expect(visibleText(out)).toBe(`of ${printed}`);
      expect(out).toContain(`<w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${printed}</w:t>`);
    }
    expect(visibleText(withPageCount('<w:p><w:fldSimple w:instr=" SECTIONPAGES \\* ALPHABETIC "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>', 28))).toBe('BB');
  });

  it('finds an instruction split over several runs', () => {
    const split = outerField([' NUM', 'PAGES \\* ', 'roman '], '<w:r><w:t>9</w:t></w:r>');
    expect(hasPageCountField(`<w:p>${split}</w:p>`)).toBe(true);
    expect(visibleText(withPageCount(`<w:p>${split}</w:p>`, 2))).toBe('ii');
  });

  it('a page count inside another field\'s instruction becomes instruction text, leaving a valid outer field', () => {
    // { IF { PAGE } = { NUMPAGES \* roman } ... }: PAGE stays a field inside the IF, the count is written in its format.
    const last = `<w:p>${outerField([' IF ', complexField('PAGE'), ' = ', complexField('NUMPAGES \\* roman'), ' "Last page" "More follows" '])}</w:p>`;
    expect(hasPageCountField(last)).toBe(true);
    const printed = withPageCount(last, 2);
    expect(instructions(printed)).toBe(' IF  PAGE  = ii "Last page" "More follows" ');
    expect(printed.match(/<w:fldChar /g)).toHaveLength(6);
    expect(printed).toContain('<w:r><w:instrText xml:space="preserve">ii</w:instrText></w:r>');
    expect(printed).not.toContain('NUMPAGES');

    // One this does not compute stays a field too; a page count in another field's result is result text.
    const sum = withPageCount(`<w:p>${outerField([' = SUM(ABOVE) + ', complexField('NUMPAGES'), ' '])}</w:p>`, 3);
    expect(instructions(sum)).toBe(' = SUM(ABOVE) + 3 ');
    const inResult = withPageCount(`<w:p>${outerField([' IF 1 = 1 "x" '], complexField('SECTIONPAGES'))}</w:p>`, 5);
    expect(visibleText(inResult)).toBe('5');
    expect(instructions(inResult)).toBe(' IF 1 = 1 "x" ');
  });

  it('an = or IF field fed by page counts prints what Word computes, in its result\'s formatting', () => {
    const printed = (parts: string[], count: number) => {
      const out = withPageCount(`<w:p>${outerField(parts, '<w:r><w:rPr><w:i/></w:rPr><w:t>?</w:t></w:r>')}</w:p>`, count);
      expect(out).not.toContain('<w:fldChar');
      expect(out).toContain('<w:rPr><w:i/></w:rPr>');
      return visibleText(out);
    };
    expect(printed([' = ', complexField('NUMPAGES'), ' - 1 '], 3)).toBe('2');
    expect(printed([' = ', '<w:fldSimple w:instr=" NUMPAGES "/>', ' + 1 '], 4)).toBe('5');
    expect(printed([' = (', complexField('NUMPAGES'), ' + 1) * 2 ^ 2 / 4 \\# "0.00" '], 3)).toBe('4.00');
    expect(printed([' = ', complexField('NUMPAGES'), ' / 4 \\* MERGEFORMAT '], 3)).toBe('0.75');
    expect(printed([' IF ', complexField('NUMPAGES'), ' > 1 "Pages" "Page" '], 2)).toBe('Pages');
    expect(printed([' IF ', complexField('NUMPAGES'), ' > 1 "Pages" "Page" '], 1)).toBe('Page');
    expect(printed([' IF ', complexField('NUMPAGES'), ' = 1 "Alone" '], 2)).toBe('');
    // Nested in turn: the = field's result feeds the IF.
    expect(printed([' IF ', outerField([' = ', complexField('NUMPAGES'), ' - 1 ']), ' = 0 "alone" "more" '], 1)).toBe('alone');
  });

  it('a page count spanning paragraphs stays a field; an end mark with content leaves well-formed XML', () => {
    const spanning = `<w:p>${r('a')}<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> NUMPAGES </w:instrText></w:r></w:p><w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
    expect(withPageCount(spanning, 2)).toBe(spanning);
    const endWithContent = '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> NUMPAGES </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>9</w:t></w:r><w:r><w:fldChar w:fldCharType="end"></w:fldChar></w:r></w:p>';
    expect(withPageCount(endWithContent, 2)).toBe('<w:p><w:r></w:r><w:r><w:t xml:space="preserve">2</w:t></w:r><w:r></w:r></w:p>');
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
    expect([1, 4, 5, 9, 27].map((value) => numFmtText(value, 'upperLetter'))).toEqual(['A', 'D', 'E', 'I', 'AA']);
    expect([1, 5, 6].map((value) => numFmtText(value, 'chicago'))).toEqual(['*', '**', '††']);
    expect(numFmtText(1994, 'upperRoman')).toBe('MCMXCIV');
  });
});
