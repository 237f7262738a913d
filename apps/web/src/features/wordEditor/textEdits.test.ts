import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { insertText, listParagraphs, openDocx, saveDocx, type Caret, type WordDocument, type XmlDom } from './docxModel.ts';
import { EditHistory } from './editHistory.ts';
import { deleteBackward, deleteForward, deleteRange, splitParagraph, typeText } from './textEdits.ts';

const dom = { DOMParser, XMLSerializer } as unknown as XmlDom;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const BOLD = '<w:rPr><w:b/></w:rPr>';
const NS = `xmlns:w="${W}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`;

function docx(body: string, extra: Record<string, string> = {}): Uint8Array {
  const parts = Object.fromEntries(Object.entries(extra).map(([name, xml]) => [name, strToU8(xml)]));
  return zipSync({ 'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ${NS}><w:body>${body}</w:body></w:document>`), ...parts });
}
const open = (body: string, extra: Record<string, string> = {}) => openDocx(docx(body, extra), dom);
const texts = (doc: WordDocument) => listParagraphs(doc).map((paragraph) => paragraph.text);
const at = (doc: WordDocument, index: number, offset: number): Caret => ({ paragraphId: listParagraphs(doc)[index]!.id, offset });
/** The saved document.xml's body, as the next reader of the DOCX sees it. */
const savedBody = (doc: WordDocument) => /<w:body>([\s\S]*)<\/w:body>/.exec(strFromU8(unzipSync(saveDocx(doc))['word/document.xml']!))![1]!;
const caretOf = (result: ReturnType<typeof deleteRange> | null): Caret => {
  if (!result || !('caret' in result)) throw new Error(`not deleted: ${JSON.stringify(result)}`);
  return result.caret;
};

describe('typing in the Word editor', () => {
  it('types into the text before the cursor, in its run\'s formatting', () => {
    const doc = open(`<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r>${BOLD}<w:t>frend</w:t></w:r></w:p>`);
    const caret = typeText(doc, at(doc, 0, 7), 'i');
    expect(caret.offset).toBe(8);
    typeText(doc, at(doc, 0, 11), ' and colleague');
    expect(texts(doc)).toEqual(['Dear friend and colleague']);
    expect(savedBody(doc)).toBe(`<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r>${BOLD}<w:t xml:space="preserve">friend and colleague</w:t></w:r></w:p>`);
  });

  it('types after a tab in the tab\'s run, and into an empty paragraph in the paragraph mark\'s formatting', () => {
    const doc = open(`<w:p><w:r>${BOLD}<w:t>Total</w:t><w:tab/></w:r></w:p><w:p><w:pPr><w:rPr><w:i/></w:rPr></w:pPr></w:p>`);
    typeText(doc, at(doc, 0, 6), '12');
    typeText(doc, at(doc, 1, 0), 'PS');
    expect(texts(doc)).toEqual(['Total\t12', 'PS']);
    const body = savedBody(doc);
    expect(body).toContain(`<w:r>${BOLD}<w:t>Total</w:t><w:tab/><w:t xml:space="preserve">12</w:t></w:r>`);
    expect(body).toContain('<w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">PS</w:t></w:r>');
  });
});

describe('deleting in the Word editor', () => {
  it('deletes a selection across runs: the runs keep their formatting, a run left empty goes', () => {
    const doc = open(`<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r>${BOLD}<w:t>dear</w:t></w:r><w:r><w:t xml:space="preserve"> friend</w:t></w:r></w:p>`);
    const caret = caretOf(deleteRange(doc, at(doc, 0, 10), at(doc, 0, 4)));
    expect(caret).toEqual(at(doc, 0, 4));
    expect(texts(doc)).toEqual(['Dearfriend']);
    expect(savedBody(doc)).toBe('<w:p><w:r><w:t xml:space="preserve">Dear</w:t></w:r><w:r><w:t xml:space="preserve">friend</w:t></w:r></w:p>');
  });

  it('deletes a selection across paragraphs: the first keeps its properties, the ones between go', () => {
    const doc = open('<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>Hello there</w:t></w:r></w:p>'
      + '<w:p><w:r><w:t>Middle</w:t></w:r></w:p>'
      + `<w:p><w:pPr><w:jc w:val="right"/></w:pPr><w:r>${BOLD}<w:t>all of you</w:t></w:r></w:p><w:p><w:r><w:t>Bye</w:t></w:r></w:p>`);
    const caret = caretOf(deleteRange(doc, at(doc, 0, 6), at(doc, 2, 7)));
    expect(caret).toEqual(at(doc, 0, 6));
    expect(texts(doc)).toEqual(['Hello you', 'Bye']);
    expect(savedBody(doc)).toBe(`<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">Hello </w:t></w:r><w:r>${BOLD}<w:t xml:space="preserve">you</w:t></w:r></w:p><w:p><w:r><w:t>Bye</w:t></w:r></w:p>`);
  });

  it('Backspace at a paragraph\'s start and Delete at its end join it with its neighbour', () => {
    const doc = open('<w:p><w:r><w:t>One</w:t></w:r></w:p><w:p><w:r><w:t>Two</w:t></w:r></w:p><w:p><w:r><w:t>Three</w:t></w:r></w:p>');
    expect(caretOf(deleteBackward(doc, at(doc, 1, 0)))).toEqual(at(doc, 0, 3));
    expect(texts(doc)).toEqual(['OneTwo', 'Three']);
    expect(caretOf(deleteForward(doc, at(doc, 0, 6)))).toEqual(at(doc, 0, 6));
    expect(texts(doc)).toEqual(['OneTwoThree']);
    expect(deleteBackward(doc, at(doc, 0, 0))).toBeNull();
    expect(deleteForward(doc, at(doc, 0, 11))).toBeNull();
    expect(caretOf(deleteBackward(doc, at(doc, 0, 3)))).toEqual(at(doc, 0, 2));
    expect(texts(doc)).toEqual(['OnTwoThree']);
  });

  it('refuses to join paragraphs across a table or a section\'s end, changing nothing', () => {
    const table = '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>';
    const doc = open(`<w:p><w:r><w:t>Before</w:t></w:r></w:p>${table}<w:p><w:pPr><w:sectPr/></w:pPr><w:r><w:t>End of section</w:t></w:r></w:p><w:p><w:r><w:t>Next</w:t></w:r></w:p>`);
    const before = savedBody(doc);
    expect(deleteRange(doc, at(doc, 0, 2), at(doc, 1, 2))).toEqual({ refused: 'structure' });
    expect(deleteForward(doc, at(doc, 1, 4))).toEqual({ refused: 'structure' });
    expect(deleteBackward(doc, at(doc, 3, 0))).toEqual({ refused: 'section' });
    expect(savedBody(doc)).toBe(before);
  });

  it('deletes a field as one unit: Backspace after it, Delete before it, a selection cutting into it', () => {
    const doc = open('<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r><w:t>{{First}}</w:t></w:r><w:r><w:t xml:space="preserve"> {{Last}}, hi {{City}}</w:t></w:r></w:p>');
    expect(caretOf(deleteBackward(doc, at(doc, 0, 14)))).toEqual(at(doc, 0, 5));
    expect(texts(doc)).toEqual(['Dear  {{Last}}, hi {{City}}']);
    deleteForward(doc, at(doc, 0, 6));
    expect(texts(doc)).toEqual(['Dear  , hi {{City}}']);
    deleteRange(doc, at(doc, 0, 9), at(doc, 0, 14));
    expect(texts(doc)).toEqual(['Dear  , h']);
    expect(savedBody(doc)).toBe('<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r><w:t xml:space="preserve"> , h</w:t></w:r></w:p>');
  });
});

describe('Enter in the Word editor', () => {
  it('splits the paragraph at the cursor: both keep its properties and the run\'s formatting', () => {
    const doc = open(`<w:p w14:paraId="1A2B3C4D" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"><w:pPr><w:pStyle w:val="Heading1"/><w:sectPr><w:pgSz w:w="11906"/></w:sectPr></w:pPr><w:r>${BOLD}<w:t>Hello world</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>`);
    const caret = splitParagraph(doc, at(doc, 0, 5));
    expect(caret).toEqual(at(doc, 1, 0));
    expect(texts(doc)).toEqual(['Hello', ' world']);
    const body = savedBody(doc);
    expect(body).toMatch(new RegExp(`^<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r>${BOLD}<w:t xml:space="preserve">Hello</w:t></w:r></w:p>`));
    // The section's end and the paragraph's own id stay with the second half.
    expect(body).toMatch(new RegExp(`<w:p w14:paraId="1A2B3C4D"[^>]*><w:pPr><w:pStyle w:val="Heading1"/><w:sectPr><w:pgSz w:w="11906"/></w:sectPr></w:pPr><w:r>${BOLD}<w:t xml:space="preserve"> world</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>$`));
  });

  it('at the end of a paragraph makes an empty one with the same properties, where typing takes the mark\'s formatting', () => {
    const doc = open('<w:p><w:pPr><w:jc w:val="both"/><w:rPr><w:i/></w:rPr></w:pPr><w:r><w:t>Line</w:t></w:r></w:p>');
    const caret = splitParagraph(doc, at(doc, 0, 4));
    typeText(doc, caret, 'Next');
    expect(texts(doc)).toEqual(['Line', 'Next']);
    expect(savedBody(doc)).toBe('<w:p><w:pPr><w:jc w:val="both"/><w:rPr><w:i/></w:rPr></w:pPr><w:r><w:t>Line</w:t></w:r></w:p>'
      + '<w:p><w:pPr><w:jc w:val="both"/><w:rPr><w:i/></w:rPr></w:pPr><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Next</w:t></w:r></w:p>');
  });
});

describe('undo and redo in the Word editor', () => {
  it('takes typing back a word at a time, and deleting, Enter and fields a step at a time; redo makes them again', () => {
    const doc = open('<w:p><w:r><w:t>Hello</w:t></w:r></w:p>');
    const original = savedBody(doc);
    const history = new EditHistory();
    let caret = at(doc, 0, 5);
    for (const key of [' ', 'w', 'o', 'r', 'l', 'd', ' ', 'a', 'g', 'a', 'i', 'n']) {
      caret = history.apply(doc, 'typing', caret, () => typeText(doc, caret, key), key)!;
    }
    caret = history.apply(doc, 'edit', caret, () => splitParagraph(doc, caret))!;
    caret = history.apply(doc, 'edit', caret, () => insertText(doc, caret, '{{First}}'))!;
    caret = history.apply(doc, 'edit', caret, () => caretOf(deleteBackward(doc, caret)))!;
    expect(texts(doc)).toEqual(['Hello world again', '']);
    expect(history.undo(doc)).toEqual(at(doc, 1, 9));
    expect(texts(doc)).toEqual(['Hello world again', '{{First}}']);
    history.undo(doc);
    history.undo(doc);
    expect(texts(doc)).toEqual(['Hello world again']);
    history.undo(doc);
    expect(texts(doc)).toEqual(['Hello world']);
    expect(history.undo(doc)).toEqual(at(doc, 0, 5));
    expect(savedBody(doc)).toBe(original);
    expect(history.canUndo).toBe(false);
    expect(history.redo(doc)).toEqual(at(doc, 0, 11));
    history.redo(doc);
    history.redo(doc);
    expect(texts(doc)).toEqual(['Hello world again', '']);
    // A new edit after undoing forgets what could have been redone.
    history.undo(doc);
    caret = history.apply(doc, 'typing', at(doc, 0, 0), () => typeText(doc, at(doc, 0, 0), 'Oh. '), 'O')!;
    expect(history.canRedo).toBe(false);
    expect(texts(doc)).toEqual(['Oh. Hello world again']);
  });
});

describe('notes and text boxes in the Word editor', () => {
  it('lists and edits footnotes and text boxes; skips separators and the VML copy of a text box', () => {
    const footnotes = `<?xml version="1.0"?><w:footnotes xmlns:w="${W}"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>`
      + '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> See the terms.</w:t></w:r></w:p></w:footnote></w:footnotes>';
    const box = (text: string) => `<w:txbxContent><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:txbxContent>`;
    const doc = open(`<w:p><w:r><w:t>Body</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>${box('Boxed')}</w:drawing></mc:Choice><mc:Fallback><w:pict>${box('Boxed')}</w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`, { 'word/footnotes.xml': footnotes });
    expect(listParagraphs(doc).map(({ text, part }) => ({ text, part }))).toEqual([
      { text: 'Body', part: 'word/document.xml' },
      { text: 'Boxed', part: 'word/document.xml' },
      { text: ' See the terms.', part: 'word/footnotes.xml' },
    ]);
    typeText(doc, at(doc, 1, 5), ' {{First}}');
    typeText(doc, at(doc, 2, 14), ' for {{Plan}}');
    deleteRange(doc, at(doc, 0, 0), at(doc, 0, 1));
    expect(texts(doc)).toEqual(['ody', 'Boxed {{First}}', ' See the terms for {{Plan}}.']);
    const saved = unzipSync(saveDocx(doc));
    expect(strFromU8(saved['word/footnotes.xml']!)).toContain('<w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> See the terms for {{Plan}}.</w:t></w:r>');
  });
});
