/**
 * What a key does to the Word document (docs/word-templates.md#editing-in-the-browser): the editor's
 * commands applied to the document through its undo history, with the selection they leave. Typing
 * (keys, input methods, dictation) or Enter over a selection replaces it; pasted text with line
 * breaks becomes paragraphs.
 */
import type { Caret, Paragraph, WordDocument } from './docxModel.ts';
import type { EditHistory } from './editHistory.ts';
import { deleteBackward, deleteForward, deleteRange, ordered, splitParagraph, typeText, type EditResult, type Refusal } from './textEdits.ts';

/** The selected text: from anchor (where it started) to focus (where the cursor is). Equal ends: just a cursor. */
export interface TextSelection {
  anchor: Caret;
  focus: Caret;
}

export type EditCommand =
  /** `composed`: an input method's committed text (docs/word-templates.md#editing-in-the-browser), one undo step of its own. */
  | { kind: 'type'; text: string; composed?: boolean }
  | { kind: 'backspace' }
  | { kind: 'delete' }
  | { kind: 'enter' }
  | { kind: 'undo' }
  | { kind: 'redo' };

export interface CommandResult {
  /** The selection after the command (a cursor), or the same one when nothing changed. */
  selection: TextSelection;
  changed: boolean;
  refused?: Refusal;
}

export const collapsed = (selection: TextSelection) =>
  selection.anchor.paragraphId === selection.focus.paragraphId && selection.anchor.offset === selection.focus.offset;

export const cursorAt = (caret: Caret): TextSelection => ({ anchor: caret, focus: caret });

/** The selected text, paragraphs joined by line breaks (what Copy puts on the clipboard). */
export function selectedText(document: WordDocument, paragraphs: Paragraph[], selection: TextSelection): string {
  const [from, to] = ordered(document, selection.anchor, selection.focus);
  const first = paragraphs.findIndex((paragraph) => paragraph.id === from.paragraphId);
  const last = paragraphs.findIndex((paragraph) => paragraph.id === to.paragraphId);
  if (first < 0 || last < 0) return '';
  return paragraphs.slice(first, last + 1).map((paragraph, index) => {
    const start = index === 0 ? from.offset : 0;
    const end = index === last - first ? to.offset : paragraph.text.length;
    return paragraph.text.slice(start, end);
  }).join('\n');
}

export function applyCommand(document: WordDocument, history: EditHistory, selection: TextSelection, command: EditCommand): CommandResult {
  const unchanged: CommandResult = { selection, changed: false };
  if (command.kind === 'undo' || command.kind === 'redo') {
    const caret = command.kind === 'undo' ? history.undo(document) : history.redo(document);
    return caret ? { selection: cursorAt(caret), changed: true } : unchanged;
  }
  let refused: Refusal | undefined;
  const settle = (result: EditResult | null): Caret | null => {
    if (result === null) return null;
    if ('refused' in result) {
      refused = result.refused;
      return null;
    }
    return result.caret;
  };
  /** The cursor once the selection is deleted (null: it could not be). */
  const cleared = (): Caret | null => (collapsed(selection) ? selection.focus : settle(deleteRange(document, selection.anchor, selection.focus)));
  const single = collapsed(selection);
  let caret: Caret | null;
  if (command.kind === 'type') {
    // A composition commits a phrase (Chinese has no spaces to end a word at): it is a step of its own.
    const typing = single && !command.composed && !/[\r\n]/.test(command.text);
    caret = history.apply(document, typing ? 'typing' : 'edit', selection.focus, () => {
      let at = cleared();
      if (!at) return null;
      // Pasted tabs become spaces (a typed w:t holds no tab); characters XML forbids are dropped.
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      const text = command.text.replace(/\t/g, ' ').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
      text.split(/\r\n|\r|\n/).forEach((line, index) => {
        if (index > 0) at = splitParagraph(document, at!);
        if (line !== '') at = typeText(document, at!, line);
      });
      return at;
    }, command.text);
  } else if (command.kind === 'enter') {
    caret = history.apply(document, 'edit', selection.focus, () => {
      const at = cleared();
      return at && splitParagraph(document, at);
    });
  } else {
    caret = history.apply(document, single ? 'deleting' : 'edit', selection.focus, () => {
      if (!single) return cleared();
      return settle(command.kind === 'backspace' ? deleteBackward(document, selection.focus) : deleteForward(document, selection.focus));
    });
  }
  if (!caret) return refused ? { ...unchanged, refused } : unchanged;
  return { selection: cursorAt(caret), changed: true };
}
