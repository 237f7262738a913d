/**
 * Where Word puts text besides plain paragraphs: DrawingML text boxes (with their VML fallback),
 * hyperlinks, nested fields, fields over paragraphs; and values that XML cannot hold as they are.
 */
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, p, r, readParts, visibleText } from './test-docx.ts';
import { expectSheafError } from './test-expect.ts';

const headers = ['Name', 'Code'];
const sheet = sheetFromTable(headers, [['Ada', 'A\u0001B\uFFFE'], ['', 'x']]);
const fill = (body: string, rowIndex = 0, part = 'word/document.xml') => readParts(prepareDocx(buildDocx({ body }), headers).fill(sheet, [rowIndex]))[part]!;

describe('Word templates: text in Word\'s other places', () => {
  it('fills a DrawingML text box and its VML fallback copy', () => {
    const box = (inner: string) =>
      `<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx><w:txbxContent>${inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox xmlns:v="urn:schemas-microsoft-com:vml"><w:txbxContent>${inner}</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    const xml = fill(box(p('Box {{Na', 'me}}')));
    expect(xml.match(/Box Ada/g)).toHaveLength(2);
    expect(xml).not.toContain('{{');
  });

  it('fills a tag split between a run and a hyperlink\'s run, in the first run', () => {
    const body = `<w:p>${r('Hi {{Na')}<w:hyperlink r:id="rId9">${r('me}}', '<w:rStyle w:val="Hyperlink"/>')}</w:hyperlink></w:p>`;
    const xml = fill(body);
    expect(visibleText(xml)).toBe('Hi Ada');
    expect(xml).toContain('<w:t xml:space="preserve">Hi Ada</w:t>');
  });

  it('refuses an inline section from a run into a hyperlink (its end lies deeper)', () => {
    const body = `<w:p>${r('{{#if Name}}x')}<w:hyperlink r:id="rId9">${r('y{{/if}}')}</w:hyperlink></w:p>`;
    expectSheafError(() => prepareDocx(buildDocx({ body }), headers), 'template/word-section-misplaced');
  });

  it('refuses a section testing a column that is not a heading', () => {
    expectSheafError(() => prepareDocx(buildDocx({ body: p('{{#if Nope}}x{{/if}}') }), headers), 'merge/word-field-unknown', { column: 'Nope' });
  });

  it('fills a MERGEFIELD nested in an IF field and leaves the IF to Word', () => {
    const run = (inner: string) => `<w:r>${inner}</w:r>`;
    const body =
      '<w:p>' +
      run('<w:fldChar w:fldCharType="begin"/>') +
      run('<w:instrText xml:space="preserve"> IF </w:instrText>') +
      run('<w:fldChar w:fldCharType="begin"/>') +
      run('<w:instrText xml:space="preserve"> MERGEFIELD Name </w:instrText>') +
      run('<w:fldChar w:fldCharType="separate"/>') +
      run('<w:t>«Name»</w:t>') +
      run('<w:fldChar w:fldCharType="end"/>') +
      run('<w:instrText xml:space="preserve"> = "" "none" "some" </w:instrText>') +
      run('<w:fldChar w:fldCharType="separate"/>') +
      run('<w:t>some</w:t>') +
      run('<w:fldChar w:fldCharType="end"/>') +
      '</w:p>';
    const xml = fill(body);
    expect(xml).toContain('<w:instrText xml:space="preserve"> IF </w:instrText></w:r><w:r><w:t xml:space="preserve">Ada</w:t></w:r>');
    expect(xml.match(/fldCharType="begin"/g)).toHaveLength(1);
  });

  it('leaves a MERGEFIELD whose result runs over paragraphs as Word wrote it', () => {
    const body =
      '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> MERGEFIELD Name </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>«Name»</w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>more</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>';
    const xml = fill(body);
    expect(xml).toContain('«Name»');
    expect(xml.match(/<w:p>/g)).toHaveLength(2);
  });

  it('drops characters XML cannot hold from values, and an empty value leaves no trace', () => {
    expect(visibleText(fill(p('[{{Code}}]')))).toBe('[AB]');
    expect(visibleText(fill(p('[{{Name}}]'), 1))).toBe('[]');
  });
});
