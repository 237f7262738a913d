/**
 * Stamp batches, DOCX side (docs/word-templates.md#stamped-batches): which templates are stamped, the
 * layout pdf/stamp needs (zones, margins), and the stamp DOCX LibreOffice prints (the first document
 * whole, then every document's variable blocks between sentinel paragraphs, on tall pages).
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx, type DocxOptions } from './prepare.ts';
import { buildDocx, cell, p, r, row, table, visibleText, type DocxFixture } from './test-docx.ts';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';

const sheet = sheetFromTable(
  ['Name', 'City', 'Item', 'Qty', 'Title', 'Photo'],
  [
    ['Ada', 'London', 'Pen', 1, 'Dr', 'ada.png'],
    ['Grace', 'Arlington', 'Ink', 2, '', 'ada.png'],
    ['Linus', 'Helsinki', 'Paper', 3, 'Mr', 'ada.png'],
  ],
);

/** A 1x1 PNG (for {{%image}} tags). */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='),
  (char) => char.charCodeAt(0),
);

/** The DOCX with its final w:sectPr edited (buildDocx writes only headers, footers and w:pgSz there). */
function withFinalSection(docx: Uint8Array, edit: (sectPr: string) => string): Uint8Array {
  const files = unzipSync(docx);
  const xml = strFromU8(files['word/document.xml']!);
  const at = xml.lastIndexOf('<w:sectPr');
  const end = xml.indexOf('</w:sectPr>', at) + '</w:sectPr>'.length;
  files['word/document.xml'] = strToU8(xml.slice(0, at) + edit(xml.slice(at, end)) + xml.slice(end));
  return zipSync(files);
}

/** Adds `xml` after w:pgSz (w:pgMar, w:cols, w:titlePg follow it in the schema). */
const sectionAfterPageSize = (xml: string) => (sectPr: string) => sectPr.replace(/(<w:pgSz\b[^>]*\/>)/, `$1${xml}`);

const stamp = (docx: Uint8Array, groups: number[][] = [[0], [1]], options: DocxOptions = {}) =>
  prepareDocx(docx, sheet.headers, options).stampBatch(sheet, groups);

const documentXml = (docx: Uint8Array) => strFromU8(unzipSync(docx)['word/document.xml']!);
/** A sentinel paragraph of the stamp DOCX: 1 pt text coloured #123456 (what pdf/stamp looks for). */
const SENTINEL = /<w:p><w:pPr>(?:<w:keepNext\/>)?<w:spacing w:before="0" w:after="0" w:line="20" w:lineRule="exact"\/>(?:(?!<\/w:p>)[\s\S])*<w:color w:val="123456"\/><w:sz w:val="2"\/>(?:(?!<\/w:p>)[\s\S])*<\/w:p>/g;

/** The letter: static and variable body paragraphs, a variable table, a variable header, a static footer. */
const letter: DocxFixture = {
  header: p('Ref. {{Name}}') + p('ACME Ltd'),
  footer: p('Registered in England'),
  body: [
    p('Dear {{Name}},'),
    p('Thank you for your order.'),
    table(row(cell(p('Item')), cell(p('Qty'))), row(cell(p('{{Item}}')), cell(p('{{Qty}}')))),
    p('We ship to ', '{{City}}', ' tomorrow.'),
    p('Yours sincerely'),
  ].join(''),
};

describe('Word templates: stamp batches (DOCX side)', () => {
  it('plans a letter with fields in body paragraphs, a table and the header: body blocks in order, then header blocks', () => {
    const stamped = stamp(buildDocx(letter));
    expect(stamped).toBeDefined();
    // Static paragraphs (the thanks, the sign-off, ACME Ltd, the footer) are not blocks.
    expect(stamped!.layout.zones).toEqual(['body', 'body', 'body', 'header']);
  });

  it('writes the first document whole, then each document\'s blocks filled with its values between sentinels, on tall pages', () => {
    const template = `<w:p><w:bookmarkStart w:id="7" w:name="Greeting"/><w:r><w:t>Dear {{Name}},</w:t></w:r><w:bookmarkEnd w:id="7"/></w:p>`;
    const docx = buildDocx({ ...letter, body: letter.body.replace(p('Dear {{Name}},'), template) });
    const groups = [[0], [1], [2]];
    const stamped = stamp(docx, groups)!;
    expect(stamped.layout.zones).toEqual(['body', 'body', 'body', 'header']);
    const xml = documentXml(stamped.docx);
    const blocks = stamped.layout.zones.length;
    // Each document's blocks lie between blocks + 1 sentinels of their own (one opens the group, one follows each block).
    expect(xml.match(SENTINEL) ?? []).toHaveLength(groups.length * (blocks + 1));

    const first = xml.search(SENTINEL);
    const whole = xml.slice(0, first);
    // The first document, whole (its static paragraphs included), ends its own section right before the first sentinel.
    expect(visibleText(whole)).toBe('Dear Ada,\nThank you for your order.\nItem\nQty\nPen\n1\nWe ship to London tomorrow.\nYours sincerely');
    expect(whole).toMatch(/<w:sectPr>(?:(?!<\/w:sectPr>)[\s\S])*<w:pgSz w:w="11906" w:h="16838"\/>(?:(?!<\/w:sectPr>)[\s\S])*<\/w:sectPr><\/w:pPr>(?:(?!<w:p\b)[\s\S])*<\/w:p>$/);

    // After it, each group: a sentinel, then its blocks, each followed by a sentinel.
    const pieces = xml.slice(first).split(SENTINEL);
    expect(pieces[0]).toBe('');
    const perGroup = pieces.slice(1, -1);
    expect(perGroup).toHaveLength(groups.length * (blocks + 1) - 1);
    const expected = [
      ['Dear Ada,', 'Item\nQty\nPen\n1', 'We ship to London tomorrow.', 'Ref. Ada'],
      ['Dear Grace,', 'Item\nQty\nInk\n2', 'We ship to Arlington tomorrow.', 'Ref. Grace'],
      ['Dear Linus,', 'Item\nQty\nPaper\n3', 'We ship to Helsinki tomorrow.', 'Ref. Linus'],
    ];
    // Between two groups, nothing but the closing sentinel of one and the opening sentinel of the next.
    expect(perGroup.map((piece) => visibleText(piece))).toEqual(expected.flatMap((texts, index) => (index === 0 ? texts : ['', ...texts])));
    const tail = pieces.slice(1).join('');
    // No static paragraph is repeated among the blocks.
    expect(tail).not.toContain('Thank you');
    expect(tail).not.toContain('ACME');
    // Bookmarks are not copied into the blocks (their names would repeat); the first document keeps its own.
    expect(tail).not.toContain('w:bookmarkStart');
    expect(whole).toContain('w:name="Greeting"');
    // The pages of blocks end the body with the template's section on tall pages (at least Word's largest, 22 in), its header kept.
    const last = pieces.at(-1)!;
    expect(last).toMatch(/^<w:sectPr>[\s\S]*<\/w:sectPr><\/w:body>/);
    const height = Number(/<w:pgSz w:w="11906" w:h="(\d+)"\/>/.exec(last)?.[1]);
    expect(height).toBeGreaterThanOrEqual(31680);
    expect(last).toContain('<w:headerReference w:type="default"');
  });

  it('orders footer blocks after header blocks', () => {
    const stamped = stamp(buildDocx({ ...letter, footer: p('Printed for {{Name}}') }));
    expect(stamped!.layout.zones).toEqual(['body', 'body', 'body', 'header', 'footer']);
  });

  // A block's paragraph with properties of its own keeps one w:pPr, its style first (the schema's order).
  it('keeps each block paragraph\'s own properties in its one w:pPr, adding the keeps that hold a group together', () => {
    // keepNext off in the template is overridden: the group must not break between pages.
    const styled = '<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:keepNext w:val="0"/><w:jc w:val="center"/></w:pPr><w:r><w:t>Dear {{Name}},</w:t></w:r></w:p>';
    const stamped = stamp(buildDocx({ body: styled + p('Static') }))!;
    const xml = documentXml(stamped.docx);
    const blocks = xml.slice(xml.search(SENTINEL)).split(SENTINEL).filter((piece) => piece.includes('Dear'));
    expect(blocks).toHaveLength(2);
    for (const block of blocks) {
      expect(block.match(/<w:pPr>/g)).toHaveLength(1);
      expect(block).toContain('<w:pPr><w:pStyle w:val="Heading1"/><w:keepNext/><w:keepLines/><w:jc w:val="center"/></w:pPr>');
    }
  });

  it('gives undefined for no groups and for a template without any field', () => {
    expect(prepareDocx(buildDocx(letter), sheet.headers).stampBatch(sheet, [])).toBeUndefined();
    expect(stamp(buildDocx({ body: p('Nothing to fill'), header: p('Static') }))).toBeUndefined();
  });

  describe('is not stamped when a field could move anything else (and is without the construct)', () => {
    /** Each case: the template with the construct, and the same template without it. */
    const cases: Array<{ name: string; with: () => Uint8Array; without: () => Uint8Array; options?: DocxOptions }> = [
      {
        name: 'a NUMPAGES field (in the footer)',
        with: () => buildDocx({ ...letter, footer: p('Page ') + '<w:p><w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>' }),
        without: () => buildDocx({ ...letter, footer: p('Page ') + '<w:p><w:r><w:t>1</w:t></w:r></w:p>' }),
      },
      {
        name: 'a NUMPAGES field (in a static body paragraph)',
        with: () => buildDocx({ ...letter, body: letter.body + '<w:p><w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>1</w:t></w:r></w:fldSimple></w:p>' }),
        without: () => buildDocx({ ...letter, body: letter.body + p('1') }),
      },
      {
        name: 'an {{#if}} section',
        with: () => buildDocx({ ...letter, body: letter.body + p('Hello {{#if Title}}{{Title}} {{/if}}{{Name}}') }),
        without: () => buildDocx({ ...letter, body: letter.body + p('Hello {{Title}} {{Name}}') }),
      },
      {
        name: 'an {{#each}} table row',
        with: () => buildDocx({ ...letter, body: letter.body + table(row(cell(p('{{#each}}{{Item}}')), cell(p('{{Qty}}')))) }),
        without: () => buildDocx({ ...letter, body: letter.body + table(row(cell(p('{{Item}}')), cell(p('{{Qty}}')))) }),
      },
      {
        name: 'a picture tag',
        with: () => buildDocx({ ...letter, body: letter.body + p('{{%image Photo}}') }),
        without: () => buildDocx({ ...letter, body: letter.body + p('{{Photo}}') }),
        options: { images: new Map([['ada.png', PNG]]) },
      },
      {
        name: 'a field in a footnote',
        with: () => buildDocx({ ...letter, body: letter.body + '<w:p><w:r><w:t>Note</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>', footnotes: [p('Sent to {{Name}}')] }),
        without: () => buildDocx({ ...letter, body: letter.body + '<w:p><w:r><w:t>Note</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>', footnotes: [p('Sent to you')] }),
      },
      {
        name: 'a field in a list paragraph',
        with: () => buildDocx({ ...letter, body: letter.body + `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${r('Item: {{Item}}')}</w:p>` }),
        without: () => buildDocx({ ...letter, body: letter.body + `<w:p><w:pPr><w:ind w:left="720"/></w:pPr>${r('Item: {{Item}}')}</w:p>` }),
      },
      {
        name: 'a field in a paragraph with a hyperlink',
        with: () => buildDocx({ ...letter, body: letter.body + `<w:p>${r('{{Name}}, see ')}<w:hyperlink w:anchor="Greeting">${r('above')}</w:hyperlink></w:p>` }),
        // The hyperlink kept, in a paragraph of its own without a field.
        without: () => buildDocx({ ...letter, body: letter.body + p('{{Name}}, see ') + `<w:p><w:hyperlink w:anchor="Greeting">${r('above')}</w:hyperlink></w:p>` }),
      },
      {
        name: 'two sections',
        with: () => buildDocx({ ...letter, body: `<w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr>${r('Cover')}</w:p>` + letter.body }),
        without: () => buildDocx({ ...letter, body: p('Cover') + letter.body }),
      },
      {
        name: 'a different first-page header (w:titlePg)',
        with: () => withFinalSection(buildDocx(letter), sectionAfterPageSize('<w:titlePg/>')),
        without: () => withFinalSection(buildDocx(letter), sectionAfterPageSize('')),
      },
      {
        name: 'two columns',
        with: () => withFinalSection(buildDocx(letter), sectionAfterPageSize('<w:cols w:num="2" w:space="720"/>')),
        without: () => withFinalSection(buildDocx(letter), sectionAfterPageSize('<w:cols w:space="720"/>')),
      },
      {
        name: 'vertical text (w:textDirection tbRl); LibreOffice writes lrTb, the ordinary direction, into every section',
        with: () => withFinalSection(buildDocx(letter), (sectPr) => sectPr.replace('</w:sectPr>', '<w:textDirection w:val="tbRl"/></w:sectPr>')),
        without: () => withFinalSection(buildDocx(letter), (sectPr) => sectPr.replace('</w:sectPr>', '<w:textDirection w:val="lrTb"/></w:sectPr>')),
      },
      {
        name: 'a floating image with square wrap (in a static paragraph)',
        with: () => buildDocx({ ...letter, body: floatingImage('<wp:wrapSquare wrapText="bothSides"/>') + letter.body }),
        // The same image in front of the text (no wrap): text does not flow around it.
        without: () => buildDocx({ ...letter, body: floatingImage('<wp:wrapNone/>') + letter.body }),
      },
      {
        name: 'a framed paragraph (static)',
        with: () => buildDocx({ ...letter, body: `<w:p><w:pPr><w:framePr w:w="2000" w:h="600" w:hSpace="180" w:wrap="around" w:vAnchor="text" w:hAnchor="page" w:x="1000" w:y="1"/></w:pPr>${r('Framed')}</w:p>` + letter.body }),
        without: () => buildDocx({ ...letter, body: `<w:p><w:pPr><w:ind w:left="1000"/></w:pPr>${r('Framed')}</w:p>` + letter.body }),
      },
      {
        name: 'a field in a text box',
        with: () => buildDocx({ ...letter, body: letter.body + textBox('To {{Name}}') }),
        // The same text box with static text, the field in a paragraph of its own.
        without: () => buildDocx({ ...letter, body: letter.body + textBox('To you') + p('To {{Name}}') }),
      },
      {
        name: 'even and odd headers (settings.xml)',
        with: () => buildDocx({ ...letter, extraParts: { 'word/settings.xml': settings('<w:evenAndOddHeaders/>') } }),
        without: () => buildDocx({ ...letter, extraParts: { 'word/settings.xml': settings('<w:defaultTabStop w:val="720"/>') } }),
      },
    ];

    for (const entry of cases) {
      it(entry.name, () => {
        const without = stamp(entry.without(), [[0], [1]], entry.options);
        expect(without, 'stampable without the construct').toBeDefined();
        expect(stamp(entry.with(), [[0], [1]], entry.options), 'not stampable with it').toBeUndefined();
      });
    }
  });
});

function floatingImage(wrap: string): string {
  return (
    `<w:p><w:r><w:drawing><wp:anchor xmlns:wp="${WP}" distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
    '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>' +
    `<wp:extent cx="914400" cy="914400"/><wp:effectExtent l="0" t="0" r="0" b="0"/>${wrap}<wp:docPr id="1" name="Logo"/>` +
    '</wp:anchor></w:drawing></w:r></w:p>'
  );
}

function textBox(text: string): string {
  return `<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:200pt;height:40pt"><v:textbox><w:txbxContent>${p(text)}</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>`;
}

function settings(content: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:settings xmlns:w="${W}">${content}</w:settings>`;
}
