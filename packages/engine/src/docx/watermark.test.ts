/**
 * The Free plan's watermark in Word output (docs/word-templates.md#watermark): Word's WordArt shape
 * in every header a section prints, a header of its own where a section had none, and a package
 * that stays a sound DOCX. The LibreOffice round trip is in watermark-libreoffice.test.ts.
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { listDocxFields, prepareDocx } from './prepare.ts';
import { buildDocx, p } from './test-docx.ts';
import { tokenize } from './xml.ts';

const TEXT = 'Made with Sheaf - free plan';
const sheet = sheetFromTable(['Name'], [['Ada'], ['Grace']]);
const HEADER_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml';

const parts = (docx: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(docx)).map(([name, data]) => [name, strFromU8(data)]));
/** A section break inside the body: the paragraph ends section 1, with a title page of its own. */
const sectionBreak = (extra = '') => `<w:p><w:pPr><w:sectPr>${extra}<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p>`;

/** Every XML part is well-formed: tags balance (the tokenizer refuses anything malformed). */
function expectWellFormed(files: Record<string, string>): void {
  for (const [name, xml] of Object.entries(files)) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const open: string[] = [];
    for (const token of tokenize(xml, name)) {
      if (token.kind === 'open') open.push(token.name);
      if (token.kind === 'close') expect(open.pop(), name).toBe(token.name);
    }
    expect(open, name).toEqual([]);
  }
}

/** The header kinds and relationship ids each w:sectPr of the main document refers to. */
function sectionReferences(documentXml: string): Record<string, string>[] {
  return [...documentXml.matchAll(/<w:sectPr\b[^>]*>([\s\S]*?)<\/w:sectPr>/g)].map((section) =>
    Object.fromEntries([...section[1]!.matchAll(/<w:headerReference w:type="(\w+)" r:id="([^"]+)"/g)].map((match) => [match[1]!, match[2]!])));
}

describe('the watermark of Word output', () => {
  it('gives a document without headers a watermark header, declared and referenced by every section', () => {
    const template = buildDocx({ body: p('Dear {{Name}}') + sectionBreak('<w:titlePg/>') + p('Section two') });
    const files = parts(prepareDocx(template, sheet.headers, { watermark: TEXT }).fill(sheet, [0]));

    const header = files['word/sheaf-watermark.xml']!;
    expect(header).toContain('<v:shape id="PowerPlusWaterMarkObject1"');
    expect(header).toContain(`string="${TEXT}"`);
    expect(header).toMatch(/style="[^"]*rotation:315;z-index:-\d+/);
    expect(header).toContain('fillcolor="silver"');
    expect(files['[Content_Types].xml']).toContain(`<Override PartName="/word/sheaf-watermark.xml" ContentType="${HEADER_TYPE}"/>`);
    expect(files['word/_rels/document.xml.rels']).toMatch(/<Relationship Id="rIdSheafWatermark" Type="[^"]+\/header" Target="sheaf-watermark.xml"\/>/);
    // Section 1 has a title page: its first page prints the "first" header, so that one gets it too.
    expect(sectionReferences(files['word/document.xml']!)).toEqual([
      { default: 'rIdSheafWatermark', first: 'rIdSheafWatermark' },
      { default: 'rIdSheafWatermark' },
    ]);
    expect(files['word/document.xml']).toContain('Dear Ada');
    expectWellFormed(files);
  });

  it('adds the shape to the headers the template has, first in them, and keeps their fields filled', () => {
    const template = buildDocx({ body: p('Dear {{Name}}') + sectionBreak() + p('Section two'), header: p('{{#if Name}}Head {{Name}}{{/if}}') });
    const files = parts(prepareDocx(template, sheet.headers, { watermark: TEXT }).fill(sheet, [1]));

    const header = files['word/header1.xml']!;
    expect(header).toMatch(/^<\?xml[^>]*>\s*<w:hdr [^>]*xmlns:v="urn:schemas-microsoft-com:vml"[^>]*><w:p><w:pPr><w:spacing [^>]*\/><\/w:pPr><w:r><w:rPr><w:noProof\/><\/w:rPr><w:pict><v:shapetype/);
    expect(header).toContain('Head Grace');
    // Section 1 has no header and none to inherit (Word inherits from earlier sections only): it gets
    // the watermark's own header; the last section keeps its own, now watermarked.
    expect(sectionReferences(files['word/document.xml']!)).toEqual([{ default: 'rIdSheafWatermark' }, { default: 'rIdH' }]);
    expectWellFormed(files);
  });

  it('names an inherited header explicitly and watermarks even-page headers when the settings use them', () => {
    const settings = '<?xml version="1.0" encoding="UTF-8"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:evenAndOddHeaders/></w:settings>';
    const relationships = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>' +
      '<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings" Target="settings.xml"/></Relationships>';
    const template = buildDocx({
      body: sectionBreak('<w:headerReference w:type="default" r:id="rIdH"/>') + p('Dear {{Name}}'),
      header: p('Plain header'),
      extraParts: { 'word/settings.xml': settings, 'word/_rels/document.xml.rels': relationships },
    });
    const files = parts(prepareDocx(template, sheet.headers, { watermark: TEXT }).fill(sheet, [0]));
    // buildDocx's body section refers to rIdH itself; the even header of both is the watermark's own.
    expect(sectionReferences(files['word/document.xml']!)).toEqual([
      { even: 'rIdSheafWatermark', default: 'rIdH' },
      { even: 'rIdSheafWatermark', default: 'rIdH' },
    ]);
    expect(files['word/header1.xml']).toContain('PowerPlusWaterMarkObject');
    expect(files['word/sheaf-watermark.xml']).toContain('PowerPlusWaterMarkObject');
    expectWellFormed(files);
  });

  it('stays a DOCX the engine reads again, with the same fields, and changes nothing without a watermark', () => {
    const template = buildDocx({ body: p('Dear {{Name}}'), header: p('Head') });
    const marked = prepareDocx(template, sheet.headers, { watermark: 'A <b> & "c"' }).fill(sheet, [0]);
    expect(listDocxFields(marked)).toEqual([]);
    expect(parts(marked)['word/header1.xml']).toContain('string="A &lt;b&gt; &amp; &quot;c&quot;"');
    const plain = parts(prepareDocx(template, sheet.headers).fill(sheet, [0]));
    expect(Object.values(plain).join('')).not.toContain('PowerPlusWaterMarkObject');
    // Batches (PDF output) carry it in every row's copy of a header with fields.
    const withField = buildDocx({ body: p('Dear {{Name}}'), header: p('Head {{Name}}') });
    const batch = parts(prepareDocx(withField, sheet.headers, { watermark: TEXT }).fillBatch(sheet, [[0], [1]]));
    const headers = Object.entries(batch).filter(([name]) => /header1\.xml$/.test(name));
    expect(headers).toHaveLength(2);
    for (const [, xml] of headers) expect(xml).toContain(`string="${TEXT}"`);
  });
});
