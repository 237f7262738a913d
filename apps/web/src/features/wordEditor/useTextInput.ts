/**
 * Text that reaches the document's textbox as input rather than as keys (docs/word-templates.md#editing-in-the-browser):
 * typed characters, an input method's composed text (Pinyin, Japanese), dictation, on-screen
 * keyboards (their keys come as "Unidentified", keyCode 229), spelling suggestions and drops. The
 * textbox is contenteditable so that the browser sends these as `beforeinput`; every one it lets us
 * cancel is cancelled and becomes an editor command, so the browser never changes the text React
 * draws. A composition cannot be cancelled: the browser shows its text in place while it lasts, the
 * document takes the committed string once, at `compositionend`, and the paragraphs the browser
 * wrote into are drawn afresh. The browser's own (hidden) caret is kept where the editor's is, so an
 * input method composes, and opens its window, there.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Caret } from './docxModel.ts';
import { collapsed, type EditCommand, type TextSelection } from './editCommands.ts';

interface TextInputOptions {
  /** The textbox (contenteditable). */
  box: RefObject<HTMLElement | null>;
  /** The paragraphs' elements by id. */
  elements: RefObject<Map<string, HTMLElement>>;
  selection: TextSelection | null;
  /** The editor's caret at a point of the DOM (null: not in a paragraph). */
  caretOf: (node: Node | null, offset: number) => Caret | null;
  /** Applies a command to `over`, or to the selection when not given. */
  onCommand: (command: EditCommand, over?: TextSelection) => void;
}

interface Composition {
  /** What the composition replaces, read from its first `beforeinput` (before the browser wrote into the text). */
  over: TextSelection | null;
  seen: boolean;
  /** The paragraphs the browser writes the composed text into. */
  touched: Set<string>;
  /** It began over a selection of the browser's, which the browser deleted: everything is drawn afresh. */
  wide: boolean;
}

/** Compositions' own input types: not cancelable (Safari's insertFromComposition is, and the text comes at compositionend anyway). */
const COMPOSING = new Set(['insertCompositionText', 'deleteCompositionText', 'insertFromComposition']);
/** Deletions by word or line (Ctrl+Backspace, on-screen keyboards): the range the browser names is deleted. */
const RANGE_DELETION = /^delete(Content$|Word|Soft|Hard|Entire)/;

const paragraphIdOf = (node: Node | null) => (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('[data-paragraph-id]')?.dataset.paragraphId;

/** The character offset of a DOM point inside a paragraph's element. */
export function offsetIn(element: HTMLElement, node: Node, offset: number): number {
  const range = document.createRange();
  range.setStart(element, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

/** The DOM point of a character offset of a paragraph: the end of the text before it (labels and the drawn caret are no text). */
export function pointAt(element: HTMLElement, offset: number): [Node, number] {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest('[contenteditable="false"]') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let passed = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.nodeValue?.length ?? 0;
    if (offset <= passed + length) return [node, offset - passed];
    passed += length;
  }
  return [element, 0];
}

/**
 * Puts the browser's caret where the editor's is: only while the textbox has focus (placing the
 * caret in it would take the focus) and no composition runs (it would end it).
 */
function placeCaret(
  box: RefObject<HTMLElement | null>,
  elements: RefObject<Map<string, HTMLElement>>,
  latest: RefObject<{ selection: TextSelection | null }>,
  composition: RefObject<Composition | null>,
): void {
  const root = box.current;
  const focus = latest.current.selection?.focus;
  const native = window.getSelection();
  if (!root || !focus || !native || document.activeElement !== root || composition.current) return;
  const element = elements.current.get(focus.paragraphId);
  if (!element) return;
  const [node, offset] = pointAt(element, focus.offset);
  if (native.isCollapsed && native.anchorNode === node && native.anchorOffset === offset) return;
  native.collapse(node, offset);
}

/**
 * Listens to the textbox's input and composition events; answers the key each paragraph is drawn
 * under (a paragraph the browser wrote into gets a new one) and a function that puts the browser's
 * caret back where the editor's is.
 */
export function useTextInput({ box, elements, selection, caretOf, onCommand }: TextInputOptions) {
  const latest = useRef({ selection, caretOf, onCommand });
  useLayoutEffect(() => {
    latest.current = { selection, caretOf, onCommand };
  });
  const composition = useRef<Composition | null>(null);
  const [fresh, setFresh] = useState<{ all: number; paragraphs: ReadonlyMap<string, number> }>({ all: 0, paragraphs: new Map() });

  const syncCaret = useCallback(() => placeCaret(box, elements, latest, composition), [box, elements]);
  useLayoutEffect(() => syncCaret(), [syncCaret, selection, fresh]);

  useEffect(() => {
    const root = box.current;
    if (!root) return;
    /** The editor's selection for a range the browser names (null: none, or outside the paragraphs). */
    const selectionOf = (range: StaticRange | undefined): TextSelection | null => {
      if (!range) return null;
      const anchor = latest.current.caretOf(range.startContainer, range.startOffset);
      const focus = latest.current.caretOf(range.endContainer, range.endOffset);
      return anchor && focus ? { anchor, focus } : null;
    };

    const onBeforeInput = (event: InputEvent) => {
      const current = composition.current;
      if (current || event.isComposing || COMPOSING.has(event.inputType)) {
        if (current && !current.seen) {
          current.seen = true;
          const [range] = event.getTargetRanges();
          current.over = selectionOf(range);
          if (range && !range.collapsed) current.wide = true;
        }
        if (event.inputType === 'insertFromComposition' && event.cancelable) event.preventDefault();
        return;
      }
      // Nothing the browser would do to the text happens: the command does it to the document.
      event.preventDefault();
      const { onCommand: command } = latest.current;
      const target = selectionOf(event.getTargetRanges()[0]);
      const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? '';
      switch (event.inputType) {
        case 'insertText':
          if (text) command({ kind: 'type', text });
          break;
        // A spelling suggestion replaces its word; a drop lands where it was let go.
        case 'insertReplacementText':
        case 'insertFromDrop':
          if (text) command({ kind: 'type', text }, target ?? undefined);
          break;
        case 'insertParagraph':
        case 'insertLineBreak':
          command({ kind: 'enter' });
          break;
        case 'deleteContentBackward':
          command({ kind: 'backspace' });
          break;
        case 'deleteContentForward':
          command({ kind: 'delete' });
          break;
        case 'historyUndo':
          command({ kind: 'undo' });
          break;
        case 'historyRedo':
          command({ kind: 'redo' });
          break;
        default:
          if (RANGE_DELETION.test(event.inputType) && target && !collapsed(target)) command({ kind: 'delete' }, target);
      }
    };

    const onCompositionStart = () => {
      const id = paragraphIdOf(window.getSelection()?.anchorNode ?? null);
      composition.current = { over: null, seen: false, touched: new Set(id ? [id] : []), wide: false };
    };

    const onCompositionEnd = (event: CompositionEvent) => {
      const current = composition.current ?? { over: null, seen: true, touched: new Set<string>(), wide: false };
      composition.current = null;
      const { selection: now, onCommand: command } = latest.current;
      const touched = new Set([...current.touched, ...(current.over ? [current.over.anchor.paragraphId, current.over.focus.paragraphId] : [])]);
      const here = paragraphIdOf(window.getSelection()?.anchorNode ?? null);
      if (here) touched.add(here);
      if (now) touched.add(now.focus.paragraphId);
      // A composition over text (an on-screen keyboard taking up the word before the caret again)
      // replaces that text; otherwise it goes where the editor's caret is, over its selection.
      const over = current.over && !collapsed(current.over) ? current.over : undefined;
      if (event.data) command({ kind: 'type', text: event.data, composed: true }, over);
      const wide = current.wide || current.touched.size === 0;
      setFresh((before) => {
        if (wide) return { all: before.all + 1, paragraphs: before.paragraphs };
        const paragraphs = new Map(before.paragraphs);
        for (const id of touched) paragraphs.set(id, (paragraphs.get(id) ?? 0) + 1);
        return { all: before.all, paragraphs };
      });
    };

    root.addEventListener('beforeinput', onBeforeInput);
    root.addEventListener('compositionstart', onCompositionStart);
    root.addEventListener('compositionend', onCompositionEnd);
    return () => {
      root.removeEventListener('beforeinput', onBeforeInput);
      root.removeEventListener('compositionstart', onCompositionStart);
      root.removeEventListener('compositionend', onCompositionEnd);
    };
  }, [box]);

  const keyOf = useCallback((id: string) => `${id}/${fresh.paragraphs.get(id) ?? 0}`, [fresh]);
  return { keyOf, generation: fresh.all, syncCaret };
}
