/**
 * Undo and redo for the Word editor: before an edit, the text of the part it changes is kept (every
 * edit changes one part); undo puts it back and keeps the edited text for redo. Typing is taken back a
 * word at a time (keystrokes that continue where the last one ended join its step until a space), and
 * Backspace or Delete pressed again and again as one step.
 */
import type { Caret, WordDocument } from './docxModel.ts';

export type EditKind = 'typing' | 'deleting' | 'edit';

interface Step {
  kind: EditKind;
  part: string;
  /** The part's XML on the other side of the step (before it on the undo list, after it on the redo list). */
  xml: string;
  before: Caret;
  after: Caret;
}

const sameCaret = (a: Caret, b: Caret) => a.paragraphId === b.paragraphId && a.offset === b.offset;
const partOf = (caret: Caret) => caret.paragraphId.slice(0, caret.paragraphId.lastIndexOf('#'));

/** How many steps are kept. */
const LIMIT = 200;

export class EditHistory {
  private undone: Step[] = [];
  private redone: Step[] = [];

  get canUndo(): boolean {
    return this.undone.length > 0;
  }

  get canRedo(): boolean {
    return this.redone.length > 0;
  }

  /**
   * Makes `edit` (which changes the part of `caret` and answers the caret after it, or null when it
   * changed nothing) one step to undo.
   */
  apply(document: WordDocument, kind: EditKind, caret: Caret, edit: () => Caret | null, typed = ''): Caret | null {
    const part = partOf(caret);
    const last = this.undone.at(-1);
    const joins = kind !== 'edit' && last?.kind === kind && last.part === part && sameCaret(last.after, caret) && !(kind === 'typing' && /^\s/.test(typed));
    const xml = joins ? '' : serialize(document, part);
    const after = edit();
    if (after === null) return null;
    if (joins) last!.after = after;
    else {
      this.undone.push({ kind, part, xml, before: caret, after });
      if (this.undone.length > LIMIT) this.undone.shift();
    }
    this.redone = [];
    return after;
  }

  /** Takes the last step back; answers the caret before it, or null when there is nothing to undo. */
  undo(document: WordDocument): Caret | null {
    const step = this.undone.pop();
    if (!step) return null;
    this.redone.push({ ...step, xml: swap(document, step.part, step.xml) });
    return step.before;
  }

  redo(document: WordDocument): Caret | null {
    const step = this.redone.pop();
    if (!step) return null;
    this.undone.push({ ...step, xml: swap(document, step.part, step.xml) });
    return step.after;
  }
}

function serialize(document: WordDocument, name: string): string {
  const part = document.parts.find((candidate) => candidate.name === name);
  if (!part) throw new Error(`no part ${name}`);
  return new document.dom.XMLSerializer().serializeToString(part.doc);
}

/** Puts `xml` in as the part's text; answers the text it had. */
function swap(document: WordDocument, name: string, xml: string): string {
  const current = serialize(document, name);
  const part = document.parts.find((candidate) => candidate.name === name)!;
  part.doc = new document.dom.DOMParser().parseFromString(xml, 'application/xml');
  document.changed.add(name);
  return current;
}
