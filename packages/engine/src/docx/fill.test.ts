/**
 * Filling Word templates (docs/word-templates.md): tags wherever a person writes text, split tags,
 * Word's MERGEFIELDs with their switches, line breaks, escaping, formatting of the first run.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { listDocxFields, prepareDocx, unknownDocxFields } from './prepare.ts';
import { buildDocx, cell, p, r, readParts, row, table, visibleText } from './test-docx.ts';

const headers = ['First name', 'Last', 'Date', 'Amount', 'Notes'];
const sheet = sheetFromTable(headers, [
  ['Ada', 'Lovelace', new Date(Date.UTC(1815, 11, 10)), 1234.5, 'line one\nline two'],
  ['Grace', 'Hopper & <Co>', new Date(Date.UTC(1906, 11, 9)), 7, ''],
]);

function fillText(docx: Uint8Array, index = 0, part = 'word/document.xml'): string {
  const prepared = prepareDocx(docx, headers);
  return visibleText(readParts(prepared.fill(sheet, [index]))[part]!);
}

describe('Word templates: {{Column}} tags', () => {
  it('fills a tag written in one run, keeping the text around it', () => {
    expect(fillText(buildDocx({ body: p('Dear {{First name}}, hello.') }))).toBe('Dear Ada, hello.');
  });

  it('fills a tag Word split over runs, with proofErr, bookmarks and rsid attributes between the pieces', () => {
    const body =
      '<w:p w:rsidR="00A1"><w:r w:rsidRPr="00B2"><w:t xml:space="preserve">Dear {</w:t></w:r><w:proofErr w:type="spellStart"/>' +
      '<w:r w:rsidR="00C3"><w:t>{First</w:t></w:r><w:bookmarkStart w:id="0" w:name="x"/><w:r><w:t xml:space="preserve"> name}</w:t></w:r>' +
      '<w:bookmarkEnd w:id="0"/><w:proofErr w:type="spellEnd"/><w:r><w:t>}!</w:t></w:r></w:p>';
    expect(fillText(buildDocx({ body }))).toBe('Dear Ada!');
  });

  it('keeps the first run\'s formatting for the whole value', () => {
    const body = `<w:p>${r('{{Fir', '<w:b/>')}${r('st name}}', '<w:i/>')}</w:p>`;
    const xml = readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [0]))['word/document.xml']!;
    expect(xml).toMatch(/<w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve">Ada<\/w:t>/);
    // The second run keeps its formatting but loses its part of the tag.
    expect(xml).toContain('<w:rPr><w:i/></w:rPr><w:t xml:space="preserve"></w:t>');
  });

  it('fills tags in tables, headers, footers, footnotes and text boxes', () => {
    const textBox =
      '<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent>' +
      p('Box: {{Last}}') +
      '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>';
    const docx = buildDocx({
      body: table(row(cell(p('Name')), cell(p('{{First name}}')))) + textBox,
      header: p('Header {{Last}}'),
      footer: p('Footer {{First name}}'),
      footnotes: [p('Note for {{First name}}')],
    });
    const parts = readParts(prepareDocx(docx, headers).fill(sheet, [1]));
    expect(visibleText(parts['word/document.xml']!)).toBe('Name\nGrace\nBox: Hopper & <Co>');
    expect(visibleText(parts['word/header1.xml']!)).toBe('Header Hopper & <Co>');
    expect(visibleText(parts['word/footer1.xml']!)).toBe('Footer Grace');
    expect(visibleText(parts['word/footnotes.xml']!)).toContain('Note for Grace');
  });

  it('escapes values and turns line breaks into w:br', () => {
    const docx = buildDocx({ body: p('{{Last}} / {{Notes}}') });
    expect(fillText(docx, 1)).toBe('Hopper & <Co> / ');
    const xml = readParts(prepareDocx(docx, headers).fill(sheet, [0]))['word/document.xml']!;
    expect(xml).toContain('line one</w:t><w:br/><w:t xml:space="preserve">line two');
    expect(fillText(docx, 0)).toBe('Lovelace / line one\nline two');
  });

  it('matches headings as the file-name tags do (case and spaces ignored) and lists the fields', () => {
    const docx = buildDocx({ body: p('{{ first NAME }} {{Last}} {{Last}}') });
    expect(fillText(docx)).toBe('Ada Lovelace Lovelace');
    expect(listDocxFields(docx)).toEqual([
      { kind: 'tag', column: 'first NAME', text: '{{ first NAME }}' },
      { kind: 'tag', column: 'Last', text: '{{Last}}' },
    ]);
  });

  it('gives the same bytes for the same row and a valid ZIP each time', () => {
    const prepared = prepareDocx(buildDocx({ body: p('{{Last}}') }), headers);
    expect(prepared.fill(sheet, [0])).toEqual(prepared.fill(sheet, [0]));
    expect(visibleText(readParts(prepared.fill(sheet, [1]))['word/document.xml']!)).toBe('Hopper & <Co>');
  });
});

describe('Word templates: MERGEFIELD fields', () => {
  it('fills a simple field, with its \\@ date switch, replacing the «Name» placeholder', () => {
    const body =
      '<w:p><w:fldSimple w:instr=" MERGEFIELD Date \\@ &quot;dd.MM.yyyy&quot; "><w:r><w:rPr><w:b/></w:rPr><w:t>«Date»</w:t></w:r></w:fldSimple></w:p>' +
      '<w:p><w:fldSimple w:instr=" MERGEFIELD First_name \\* Upper \\* MERGEFORMAT "><w:r><w:t>«First_name»</w:t></w:r></w:fldSimple></w:p>';
    const xml = readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [0]))['word/document.xml']!;
    expect(visibleText(xml)).toBe('10.12.1815\nADA');
    expect(xml).not.toContain('fldSimple');
    expect(xml).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">10.12.1815</w:t></w:r>');
  });

  it('fills a complex field whose instruction is split over runs, with a \\# number switch', () => {
    const body =
      '<w:p><w:r><w:t xml:space="preserve">Total: </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
      '<w:r><w:instrText xml:space="preserve"> MERGE</w:instrText></w:r><w:r><w:instrText xml:space="preserve">FIELD  Amount \\# "€#,##0.00" </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>«Amount»</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>' +
      '<w:r><w:t xml:space="preserve"> due</w:t></w:r></w:p>';
    const xml = readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [0]))['word/document.xml']!;
    expect(visibleText(xml)).toBe('Total: €1,234.50 due');
    expect(xml).not.toContain('fldChar');
    expect(xml).toContain('<w:rPr><w:i/></w:rPr><w:t xml:space="preserve">€1,234.50');
  });

  it('uses the locale of the merge for month names and separators', () => {
    const body =
      '<w:p><w:fldSimple w:instr=" MERGEFIELD Date \\@ &quot;d. MMMM yyyy&quot; "/></w:p>' +
      '<w:p><w:fldSimple w:instr=" MERGEFIELD Amount \\# &quot;#,##0.00&quot; "/></w:p>';
    const prepared = prepareDocx(buildDocx({ body }), headers, { locale: 'de-DE' });
    expect(visibleText(readParts(prepared.fill(sheet, [0]))['word/document.xml']!)).toBe('10. Dezember 1815\n1.234,50');
  });

  it('lists MERGEFIELDs with tags, in document order, and tells which name no heading', () => {
    const body = p('{{Last}} {{Nmae}}') + '<w:p><w:fldSimple w:instr=" MERGEFIELD &quot;First name&quot; "/><w:fldSimple w:instr=" MERGEFIELD First_name "/></w:p>';
    const fields = listDocxFields(buildDocx({ body }));
    expect(fields).toEqual([
      { kind: 'tag', column: 'Last', text: '{{Last}}' },
      { kind: 'tag', column: 'Nmae', text: '{{Nmae}}' },
      { kind: 'mergefield', column: 'First name', text: 'MERGEFIELD "First name"' },
      { kind: 'mergefield', column: 'First_name', text: 'MERGEFIELD First_name' },
    ]);
    expect(unknownDocxFields(fields, headers)).toEqual([{ kind: 'tag', column: 'Nmae', text: '{{Nmae}}' }]);
  });

  it('leaves other Word fields (PAGE) as they are', () => {
    const body = '<w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>';
    const xml = readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [0]))['word/document.xml']!;
    expect(xml).toContain('<w:fldSimple w:instr=" PAGE ">');
  });

  it('makes a .docx of a .docm: the VBA project and every reference to it are dropped', () => {
    const docm = buildDocx({
      body: p('{{Last}}'),
      mainType: 'application/vnd.ms-word.document.macroEnabled.main+xml',
      extraParts: { 'word/vbaProject.bin': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3]) },
    });
    const parts = readParts(docm);
    parts['[Content_Types].xml'] = parts['[Content_Types].xml']!.replace('</Types>', '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>');
    parts['word/_rels/document.xml.rels'] = parts['word/_rels/document.xml.rels']!.replace(
      '</Relationships>',
      '<Relationship Id="rIdV" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/></Relationships>',
    );
    const rebuilt: Record<string, Uint8Array> = {};
    for (const [name, text] of Object.entries(parts)) rebuilt[name] = new TextEncoder().encode(text);
    const filled = readParts(prepareDocx(zipSync(rebuilt), headers).fill(sheet, [0]));
    expect(Object.keys(filled)).not.toContain('word/vbaProject.bin');
    expect(filled['[Content_Types].xml']).not.toMatch(/vba|macroEnabled/);
    expect(filled['[Content_Types].xml']).toContain('wordprocessingml.document.main+xml');
    expect(filled['word/_rels/document.xml.rels']).not.toContain('vbaProject');
    expect(visibleText(filled['word/document.xml']!)).toBe('Lovelace');
  });
});
