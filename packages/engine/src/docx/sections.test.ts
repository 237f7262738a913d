/**
 * Conditional sections and repeated table rows (docs/word-templates.md#sections), and the template
 * errors a person can make with them.
 */
import { describe, expect, it } from 'vitest';
import { groupRows } from '../merge/selection.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { listDocxFields, prepareDocx } from './prepare.ts';
import { buildDocx, cell, p, r, readParts, row, table, visibleText } from './test-docx.ts';
import { expectSheafError } from './test-expect.ts';

const headers = ['Customer', 'VIP', 'Item', 'Price'];
const sheet = sheetFromTable(headers, [
  ['Ada', 'yes', 'Pen', 2],
  ['Grace', '', 'Ink', 5],
  ['Ada', 'yes', 'Paper', 3],
]);

function documentText(docx: Uint8Array, rows: number[]): string {
  return visibleText(readParts(prepareDocx(docx, headers).fill(sheet, rows))['word/document.xml']!);
}

describe('Word templates: conditional sections', () => {
  it('keeps or drops text inside one paragraph, across runs, with an else part', () => {
    const docx = buildDocx({ body: `<w:p>${r('Hello {{#if VIP}}dear ')}${r('valued{{#else}}new{{/if}} customer', '<w:b/>')}</w:p>` });
    expect(documentText(docx, [0])).toBe('Hello dear valued customer');
    expect(documentText(docx, [1])).toBe('Hello new customer');
  });

  it('keeps or drops whole paragraphs and tables between tags standing alone in their paragraphs', () => {
    const body = p('Start') + p('{{#if VIP}}') + p('VIP offer for {{Customer}}') + table(row(cell(p('gold')))) + p('{{#else}}') + p('Standard offer') + p('{{/if}}') + p('End');
    const docx = buildDocx({ body });
    expect(documentText(docx, [0])).toBe('Start\nVIP offer for Ada\ngold\nEnd');
    expect(documentText(docx, [1])).toBe('Start\nStandard offer\nEnd');
  });

  it('keeps a paragraph in a table cell or header whose only content was a dropped section (Word needs one)', () => {
    const docx = buildDocx({ body: table(row(cell(p('{{#if VIP}}'), p('VIP'), p('{{/if}}')))), header: p('{{#if VIP}}') + p('VIP header') + p('{{/if}}') });
    const parts = readParts(prepareDocx(docx, headers).fill(sheet, [1]));
    expect(parts['word/document.xml']).toMatch(/<w:tc><w:p>.*<\/w:p><\/w:tc>/);
    expect(parts['word/header1.xml']).toContain('<w:p>');
    expect(visibleText(parts['word/header1.xml']!)).toBe('');
    expect(visibleText(readParts(prepareDocx(docx, headers).fill(sheet, [0]))['word/header1.xml']!)).toBe('VIP header');
  });

  it('nests sections', () => {
    const body = p('{{#if Customer}}') + p('A {{#if VIP}}vip{{/if}}') + p('{{/if}}');
    expect(documentText(buildDocx({ body }), [1])).toBe('A ');
    expect(documentText(buildDocx({ body }), [0])).toBe('A vip');
  });

  it('refuses sections without their end, or an end without a start, at template check time', () => {
    expectSheafError(() => listDocxFields(buildDocx({ body: p('{{#if VIP}} never closed') })), 'template/word-section-unmatched', { tag: '{{#if VIP}}', expected: '{{/if}}' });
    expectSheafError(() => listDocxFields(buildDocx({ body: p('text {{/if}}') })), 'template/word-section-unmatched', { tag: '{{/if}}' });
  });

  it('refuses a section from one table cell into another (its paragraphs do not share a parent)', () => {
    const body = table(row(cell(p('{{#if VIP}}')), cell(p('{{/if}}'))));
    expectSheafError(() => listDocxFields(buildDocx({ body })), 'template/word-section-misplaced', { tag: '{{#if VIP}}' });
  });

  it('lists the columns sections test', () => {
    expect(listDocxFields(buildDocx({ body: p('{{#if VIP}}x{{/if}}') }))).toEqual([{ kind: 'if', column: 'VIP', text: '{{#if VIP}}' }]);
  });
});

describe('Word templates: repeated table rows ("multiple")', () => {
  const body =
    p('Invoice for {{Customer}}') +
    table(row(cell(p('Item')), cell(p('Price'))), row(cell(p('{{#each}}{{Item}}')), cell(p('{{Price}} {{#if VIP}}(vip){{/if}}'))), row(cell(p('Total')), cell(p('-'))));

  it('repeats the row holding {{#each}} once per row of the group; the rest is filled from the first row', () => {
    const groups = groupRows(sheet, [0, 1, 2], 0);
    expect(groups).toEqual([[0, 2], [1]]);
    const docx = buildDocx({ body });
    expect(documentText(docx, groups[0]!)).toBe('Invoice for Ada\nItem\nPrice\nPen\n2 (vip)\nPaper\n3 (vip)\nTotal\n-');
    expect(documentText(docx, groups[1]!)).toBe('Invoice for Grace\nItem\nPrice\nInk\n5 \nTotal\n-');
  });

  it('keeps the table XML sound: one w:tr per grouped row', () => {
    const xml = readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [0, 2]))['word/document.xml']!;
    expect(xml.match(/<w:tr>/g)).toHaveLength(4);
    expect(xml.match(/<w:tr>/g)!.length).toBe(xml.match(/<\/w:tr>/g)!.length);
  });

  it('drops bookmarks inside the repeated row, whose ids and names would repeat', () => {
    const bookmarked = table(row(cell(`<w:p><w:bookmarkStart w:id="7" w:name="line"/>${r('{{#each}}{{Item}}')}<w:bookmarkEnd w:id="7"/></w:p>`)));
    const xml = readParts(prepareDocx(buildDocx({ body: bookmarked }), headers).fill(sheet, [0, 2]))['word/document.xml']!;
    expect(visibleText(xml)).toBe('Pen\nPaper');
    expect(xml).not.toContain('bookmark');
  });

  it('refuses {{#each}} outside a table', () => {
    expectSheafError(() => listDocxFields(buildDocx({ body: p('{{#each}} {{Item}}') })), 'template/word-each-outside-table');
  });
});
