import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { listParagraphs, openDocx, type Caret, type WordDocument, type XmlDom } from './docxModel.ts';
import { EditHistory } from './editHistory.ts';
import { applyCommand, cursorAt, selectedText, type EditCommand, type TextSelection } from './editCommands.ts';

const dom = { DOMParser, XMLSerializer } as unknown as XmlDom;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const open = (body: string) => openDocx(zipSync({ 'word/document.xml': strToU8(`<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`) }), dom);
const texts = (doc: WordDocument) => listParagraphs(doc).map((paragraph) => paragraph.text);
const at = (doc: WordDocument, index: number, offset: number): Caret => ({ paragraphId: listParagraphs(doc)[index]!.id, offset });

/** Runs commands one after another, as keys pressed in the editor. */
function press(doc: WordDocument, history: EditHistory, start: TextSelection, ...commands: EditCommand[]) {
  let selection = start;
  for (const command of commands) selection = applyCommand(doc, history, selection, command).selection;
  return selection;
}

describe('the Word editor\'s keys', () => {
  it('types over a selection across paragraphs, and pastes lines as paragraphs', () => {
    const doc = open('<w:p><w:r><w:t>Dear all,</w:t></w:r></w:p><w:p><w:r><w:t>thanks again.</w:t></w:r></w:p>');
    const history = new EditHistory();
    const selection = { anchor: at(doc, 1, 6), focus: at(doc, 0, 5) };
    expect(selectedText(doc, listParagraphs(doc), selection)).toBe('all,\nthanks');
    const typed = applyCommand(doc, history, selection, { kind: 'type', text: 'friends, thank you' });
    expect(texts(doc)).toEqual(['Dear friends, thank you again.']);
    applyCommand(doc, history, typed.selection, { kind: 'type', text: '\r\nKind regards\r\n\tSheaf\u0007' });
    expect(texts(doc)).toEqual(['Dear friends, thank you', 'Kind regards', ' Sheaf again.']);
    // The paste was one step.
    applyCommand(doc, history, cursorAt(at(doc, 0, 0)), { kind: 'undo' });
    expect(texts(doc)).toEqual(['Dear friends, thank you again.']);
  });

  it('takes back Backspace pressed again and again as one step; a refused join changes nothing and says why', () => {
    const doc = open('<w:p><w:r><w:t>Hello</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>');
    const history = new EditHistory();
    const backspace: EditCommand = { kind: 'backspace' };
    press(doc, history, cursorAt(at(doc, 0, 5)), backspace, backspace, backspace);
    expect(texts(doc)).toEqual(['He', 'Cell']);
    const refused = applyCommand(doc, history, cursorAt(at(doc, 1, 0)), backspace);
    expect(refused).toMatchObject({ changed: false, refused: 'structure' });
    expect(texts(doc)).toEqual(['He', 'Cell']);
    expect(applyCommand(doc, history, cursorAt(at(doc, 0, 2)), { kind: 'undo' })).toMatchObject({ changed: true, selection: cursorAt(at(doc, 0, 5)) });
    expect(texts(doc)).toEqual(['Hello', 'Cell']);
    expect(history.canUndo).toBe(false);
    expect(applyCommand(doc, history, cursorAt(at(doc, 0, 5)), { kind: 'undo' }).changed).toBe(false);
  });

  it('takes an input method\'s committed text once, at the caret, in the run before it, as an undo step of its own', () => {
    const doc = open('<w:p><w:r><w:t xml:space="preserve">Dear </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>Ada</w:t></w:r><w:r><w:t>, thanks.</w:t></w:r></w:p>');
    const history = new EditHistory();
    // Keys type " L" after the bold name, then a Pinyin input method commits 你好 there.
    let selection = press(doc, history, cursorAt(at(doc, 0, 8)), { kind: 'type', text: ' ' }, { kind: 'type', text: 'L' });
    selection = applyCommand(doc, history, selection, { kind: 'type', text: '你好', composed: true }).selection;
    expect(texts(doc)).toEqual(['Dear Ada L你好, thanks.']);
    expect(selection).toEqual(cursorAt(at(doc, 0, 12)));
    expect(doc.parts[0]!.doc.getElementsByTagNameNS(W, 'r').item(1)!.textContent).toBe('Ada L你好');
    // A key typed next is a step of its own too; one undo each takes back the key, then the composition.
    selection = applyCommand(doc, history, selection, { kind: 'type', text: '!' }).selection;
    applyCommand(doc, history, selection, { kind: 'undo' });
    expect(texts(doc)).toEqual(['Dear Ada L你好, thanks.']);
    expect(applyCommand(doc, history, selection, { kind: 'undo' }).selection).toEqual(cursorAt(at(doc, 0, 10)));
    expect(texts(doc)).toEqual(['Dear Ada L, thanks.']);
    applyCommand(doc, history, selection, { kind: 'redo' });
    // Committed over a selection, it replaces the selected text.
    applyCommand(doc, history, { anchor: at(doc, 0, 14), focus: at(doc, 0, 20) }, { kind: 'type', text: '谢谢', composed: true });
    expect(texts(doc)).toEqual(['Dear Ada L你好, 谢谢.']);
  });
});
