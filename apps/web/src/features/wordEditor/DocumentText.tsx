/**
 * The document's text, paragraph by paragraph (body, headers, footers, notes), as one multi-line
 * textbox: a click places the cursor (a drag or Shift selects), keys delete, start paragraphs, move
 * and select, Ctrl+Z / Ctrl+Y undo and redo; text comes as input (useTextInput.ts: keys, input
 * methods, dictation); paste takes plain text, copy and cut give it. The edits themselves are
 * commands for the parent to apply (editCommands.ts). Search hits are marked.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Caret, Paragraph, SearchHit } from './docxModel.ts';
import DocumentSearch from './DocumentSearch.tsx';
import { collapsed, cursorAt, type EditCommand, type TextSelection } from './editCommands.ts';
import ParagraphLine from './ParagraphLine.tsx';
import { outsideFields, stepOffset } from './textEdits.ts';
import { offsetIn, useTextInput } from './useTextInput.ts';

interface DocumentTextProps {
  paragraphs: Paragraph[];
  selection: TextSelection | null;
  onSelection: (selection: TextSelection) => void;
  /** Applies a command to `over`, or to the selection when not given. */
  onCommand: (command: EditCommand, over?: TextSelection) => void;
  /** The selected text, for Copy and Cut. */
  selectedText: (selection: TextSelection) => string;
  search: (query: string) => SearchHit[];
  /** Id of the heading that names the text. */
  labelledBy: string;
}

const partKind = (part: string) => /word\/(header|footer|footnotes|endnotes)/.exec(part)?.[1] ?? 'body';

/** Keys that move the browser's own caret when pressed with Ctrl, Cmd or Alt (word-wise, line-wise): the editor's follows it. */
const NATIVE_MOVES = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);

export default function DocumentText({ paragraphs, selection, onSelection, onCommand, selectedText, search, labelledBy }: DocumentTextProps) {
  const { t } = useTranslation('editor');
  const hintId = useId();
  const [query, setQuery] = useState('');
  const hits = useMemo(() => (query.trim() ? search(query) : []), [query, search]);
  const refs = useRef(new Map<string, HTMLElement>());
  const box = useRef<HTMLDivElement>(null);
  // What a screen reader hears when the keyboard takes the cursor to another paragraph: its text.
  const [reading, setReading] = useState('');
  const byId = useMemo(() => new Map(paragraphs.map((paragraph, index) => [paragraph.id, { paragraph, index }])), [paragraphs]);

  // The cursor stays in view.
  const focusId = selection?.focus.paragraphId;
  useEffect(() => {
    if (focusId) refs.current.get(focusId)?.scrollIntoView?.({ block: 'nearest' });
  }, [focusId, selection]);

  /** The selection's ends in reading order, as [paragraph index, offset]. */
  const range = useMemo(() => {
    if (!selection || collapsed(selection)) return null;
    const at = (caret: Caret) => [byId.get(caret.paragraphId)?.index ?? -1, caret.offset] as const;
    const [a, b] = [at(selection.anchor), at(selection.focus)];
    return a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? [a, b] : [b, a];
  }, [selection, byId]);

  const caretIn = useCallback((index: number, offset: number): Caret => {
    const paragraph = paragraphs[index]!;
    return { paragraphId: paragraph.id, offset: outsideFields(paragraph.text, Math.max(0, Math.min(offset, paragraph.text.length))) };
  }, [paragraphs]);

  /** The cursor at a point of the DOM (null: not in a paragraph). */
  const caretOf = useCallback((node: Node | null, offset: number): Caret | null => {
    const element = (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('[data-paragraph-id]');
    const found = element ? byId.get(element.dataset.paragraphId!) : undefined;
    if (!element || !found) return null;
    return caretIn(found.index, found.paragraph.text === '' ? 0 : offsetIn(element, node!, offset));
  }, [byId, caretIn]);

  const { keyOf, generation, syncCaret } = useTextInput({ box, elements: refs, selection, caretOf, onCommand });

  /** Where a movement key takes the cursor from `from`. */
  const moved = (key: string, from: Caret): Caret | null => {
    const found = byId.get(from.paragraphId);
    if (!found) return null;
    const { paragraph, index } = found;
    const previous = paragraphs[index - 1];
    const next = paragraphs[index + 1];
    if (key === 'ArrowLeft') return from.offset > 0 ? caretIn(index, stepOffset(paragraph.text, from.offset, -1)) : previous ? caretIn(index - 1, previous.text.length) : from;
    if (key === 'ArrowRight') return from.offset < paragraph.text.length ? caretIn(index, stepOffset(paragraph.text, from.offset, 1)) : next ? caretIn(index + 1, 0) : from;
    if (key === 'Home') return caretIn(index, 0);
    if (key === 'End') return caretIn(index, paragraph.text.length);
    if (key === 'ArrowUp') return previous ? caretIn(index - 1, from.offset) : from;
    if (key === 'ArrowDown') return next ? caretIn(index + 1, from.offset) : from;
    return null;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // A key pressed while an input method composes is the input method's (Enter picks a candidate).
    if (event.nativeEvent.isComposing || event.keyCode === 229 || paragraphs.length === 0) return;
    const current = selection ?? cursorAt(caretIn(0, 0));
    const command = (next: EditCommand) => {
      event.preventDefault();
      onCommand(next);
    };
    if ((event.ctrlKey || event.metaKey) && !event.altKey) {
      const key = event.key.toLowerCase();
      if (key === 'z') command({ kind: event.shiftKey ? 'redo' : 'undo' });
      else if (key === 'y') command({ kind: 'redo' });
      else if (key === 'a') {
        // Select all: the text of the part the cursor is in (the body, a header...), as Word does; the
        // browser's own select-all would select what the editor does not know of.
        event.preventDefault();
        const part = byId.get(current.focus.paragraphId)?.paragraph.part;
        const first = paragraphs.findIndex((paragraph) => paragraph.part === part);
        const last = paragraphs.findLastIndex((paragraph) => paragraph.part === part);
        if (first >= 0) onSelection({ anchor: caretIn(first, 0), focus: caretIn(last, paragraphs[last]!.text.length) });
      }
      // Anything else (save, copy, paste, moving a word) is the page's or the browser's.
      return;
    }
    if (event.altKey) return;
    const target = moved(event.key, current.focus);
    if (target) {
      event.preventDefault();
      if (target.paragraphId !== current.focus.paragraphId) setReading(byId.get(target.paragraphId)?.paragraph.text || t('word.emptyParagraph'));
      onSelection(event.shiftKey ? { anchor: current.anchor, focus: target } : cursorAt(target));
    } else if (event.key === 'Escape' && !collapsed(current)) {
      event.preventDefault();
      onSelection(cursorAt(current.focus));
    } else if (event.key === 'Backspace') command({ kind: 'backspace' });
    else if (event.key === 'Delete') command({ kind: 'delete' });
    else if (event.key === 'Enter') command({ kind: 'enter' });
    // Characters come as input (useTextInput.ts), whatever made them: a key, an input method, dictation.
  };

  /**
   * The cursor (or the selection) where the browser's caret went: where the mouse was let go (a drag
   * selects), or where a word-wise or line-wise key took it. The browser's caret then collapses to
   * the editor's, which draws the selection itself.
   */
  const followNative = (shift: boolean) => {
    const native = window.getSelection();
    if (!native || native.rangeCount === 0) return;
    const focus = caretOf(native.focusNode, native.focusOffset);
    if (!focus) {
      syncCaret();
      return;
    }
    const anchor = shift && selection ? selection.anchor : caretOf(native.anchorNode, native.anchorOffset) ?? focus;
    onSelection({ anchor, focus });
  };

  const onCopy = (event: ClipboardEvent<HTMLElement>, cut: boolean) => {
    if (!selection || collapsed(selection)) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', selectedText(selection));
    if (cut) onCommand({ kind: 'delete' });
  };

  const hitsOf = (id: string) => hits.filter((hit) => hit.paragraphId === id);
  // A part's first paragraph carries the part's heading (Body, Header, Footer, Footnotes, Endnotes).
  const startsPart = paragraphs.map((paragraph, index) => index === 0 || partKind(paragraphs[index - 1]!.part) !== partKind(paragraph.part));
  return (
    <Stack spacing={1} sx={{ minHeight: 0 }}>
      <DocumentSearch query={query} onQuery={setQuery} hits={hits} hasCaret={selection !== null} onGoTo={(hit) => onSelection(cursorAt(caretIn(byId.get(hit.paragraphId)!.index, hit.offset + hit.length)))} />
      <Typography variant="body2" color="text.secondary" id={hintId}>{t('word.caretHint')}</Typography>
      <Box aria-live="polite" data-testid="word-reading" sx={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{reading}</Box>
      <Box
        ref={box}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelledBy}
        aria-describedby={hintId}
        tabIndex={0}
        // Editable so that input methods, dictation and on-screen keyboards send their text; the
        // browser itself changes nothing (useTextInput.ts).
        contentEditable
        suppressContentEditableWarning
        data-testid="word-text"
        onKeyDown={onKeyDown}
        onKeyUp={(event) => {
          if ((event.ctrlKey || event.metaKey || event.altKey) && NATIVE_MOVES.has(event.key)) followNative(event.shiftKey);
        }}
        onFocus={() => {
          if (!selection && paragraphs.length > 0) onSelection(cursorAt(caretIn(0, 0)));
          else syncCaret();
        }}
        onMouseUp={(event) => followNative(event.shiftKey)}
        onPaste={(event) => {
          event.preventDefault();
          const text = event.clipboardData.getData('text/plain');
          if (text) onCommand({ kind: 'type', text });
        }}
        onCopy={(event) => onCopy(event, false)}
        onCut={(event) => onCopy(event, true)}
        sx={{
          border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'auto', maxHeight: '60vh', bgcolor: 'background.paper', cursor: 'text',
          // The editor draws its own cursor; the browser's stays with it, unseen.
          caretColor: 'transparent',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        {/* Drawn afresh (a new key) after a composition the browser wrote across paragraphs. */}
        <Box key={generation}>
          {paragraphs.map((paragraph, index) => {
            const own = selection?.focus.paragraphId === paragraph.id ? selection.focus.offset : null;
            const selected = range && index >= range[0][0] && index <= range[1][0]
              ? [index === range[0][0] ? range[0][1] : 0, index === range[1][0] ? range[1][1] : paragraph.text.length] as const : null;
            return (
              <ParagraphLine
                key={keyOf(paragraph.id)}
                paragraph={paragraph}
                heading={startsPart[index] ? t(`word.parts.${partKind(paragraph.part)}`) : null}
                caret={own}
                selectedFrom={selected?.[0] ?? null}
                selectedTo={selected?.[1] ?? null}
                hits={hitsOf(paragraph.id)}
                emptyLabel={t('word.emptyParagraph')}
                elementRef={(element) => {
                  if (element) refs.current.set(paragraph.id, element);
                  else refs.current.delete(paragraph.id);
                }}
              />
            );
          })}
        </Box>
      </Box>
    </Stack>
  );
}
