/**
 * The check the tokenizer leaves out, for the parts a person writes text in (docs/word-templates.md#what-is-refused):
 * every element closes in the order it opened, and text stands only inside elements that hold
 * text (w:t, w:instrText...), never loose in a paragraph, a run or the body, and holds no character
 * XML forbids. A document saved from the browser's editor is checked again on the server this way:
 * a broken edit is refused instead of being printed as something else.
 */
import type { Token } from './xml.ts';
import { notDocx } from './xml.ts';

/** Elements of the document's structure, which hold elements but never text of their own. */
const STRUCTURE = new Set([
  'w:document', 'w:body', 'w:hdr', 'w:ftr', 'w:footnotes', 'w:endnotes', 'w:footnote', 'w:endnote', 'w:p', 'w:r', 'w:pPr', 'w:rPr',
  'w:tbl', 'w:tr', 'w:tc', 'w:hyperlink', 'w:sdt', 'w:sdtContent', 'w:txbxContent', 'w:ins', 'w:smartTag', 'w:fldSimple',
]);
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|&#(x0*([0-8bcef]|1[0-9a-f])|0*([0-8]|1[124-9]|2[0-9]|3[01]));/i;

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text).trim();

export function checkWellFormed(tokens: readonly Token[], partName: string): void {
  const open: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'open') open.push(token.name);
    else if (token.kind === 'close') {
      const expected = open.pop();
      if (expected !== token.name) throw notDocx(`${partName}: </${token.name}> where </${expected ?? '(none)'}> belongs`);
    } else if (token.kind === 'text') {
      const parent = open.at(-1);
      if (/\S/.test(token.raw) && (parent === undefined || STRUCTURE.has(parent))) throw notDocx(`${partName}: text "${shown(token.raw)}" outside a text element, in <${parent ?? '(none)'}>`);
      if (NOT_XML.test(token.raw)) throw notDocx(`${partName}: a character XML does not allow`);
    }
  }
  if (open.length > 0) throw notDocx(`${partName}: <${open.at(-1)}> is never closed`);
}
