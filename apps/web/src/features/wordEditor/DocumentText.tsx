/**
 * The document's text, paragraph by paragraph (body, headers, footers, notes), as one multi-line
 * textbox: a click places the cursor (a drag or Shift selects), keys type, delete, start paragraphs,
 * move and select, Ctrl+Z / Ctrl+Y undo and redo; paste takes plain text, copy and cut give it. The
 * edits themselves are commands for the parent to apply (editCommands.ts). Search hits are marked.
 */
import { useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Caret, Paragraph, SearchHit } from './docxModel.ts';
import DocumentSearch from './DocumentSearch.tsx';
import { collapsed, cursorAt, type EditCommand, type TextSelection } from './editCommands.ts';
import ParagraphLine from './ParagraphLine.tsx';
import { outsideFields, stepOffset } from './textEdits.ts';

interface DocumentTextProps {
  paragraphs: Paragraph[];
  selection: TextSelection | null;
  onSelection: (selection: TextSelection) => void;
  onCommand: (command: EditCommand) => void;
  /** The selected text, for Copy and Cut. */
  selectedText: (selection: TextSelection) => string;
  search: (query: string) => SearchHit[];
  /** Id of the heading that names the text. */
  labelledBy: string;
}

const partKind = (part: string) => /word\/(header|footer|footnotes|endnotes)/.exec(part)?.[1] ?? 'body';

/** The character offset of a DOM point inside a paragraph's element. */
function offsetIn(element: HTMLElement, node: Node, offset: number): number {
  const range = document.createRange();
  range.setStart(element, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

export default function DocumentText({ paragraphs, selection, onSelection, onCommand, selectedText, search, labelledBy }: DocumentTextProps) {
  const { t } = useTranslation('editor');
  const hintId = useId();
  const [query, setQuery] = useState('');
  const hits = useMemo(() => (query.trim() ? search(query) : []), [query, search]);
  const refs = useRef(new Map<string, HTMLElement>());
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

  const caretIn = (index: number, offset: number): Caret => {
    const paragraph = paragraphs[index]!;
    return { paragraphId: paragraph.id, offset: outsideFields(paragraph.text, Math.max(0, Math.min(offset, paragraph.text.length))) };
  };

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
    if (paragraphs.length === 0) return;
    const current = selection ?? cursorAt(caretIn(0, 0));
    const command = (next: EditCommand) => {
      event.preventDefault();
      onCommand(next);
    };
    if ((event.ctrlKey || event.metaKey) && !event.altKey) {
      const key = event.key.toLowerCase();
      if (key === 'z') command({ kind: event.shiftKey ? 'redo' : 'undo' });
      else if (key === 'y') command({ kind: 'redo' });
      // Anything else (save, copy, paste) is the page's or the browser's.
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
    else if ([...event.key].length === 1) command({ kind: 'type', text: event.key });
  };

  /** The cursor (or the selection a drag made) where the mouse was let go. */
  const onMouseUp = (shift: boolean) => {
    const native = window.getSelection();
    if (!native || native.rangeCount === 0) return;
    const caretOf = (node: Node | null, offset: number): Caret | null => {
      const element = (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>('[data-paragraph-id]');
      const found = element ? byId.get(element.dataset.paragraphId!) : undefined;
      if (!element || !found) return null;
      return caretIn(found.index, found.paragraph.text === '' ? 0 : offsetIn(element, node!, offset));
    };
    const focus = caretOf(native.focusNode, native.focusOffset);
    if (!focus) return;
    const anchor = shift && selection ? selection.anchor : caretOf(native.anchorNode, native.anchorOffset) ?? focus;
    native.removeAllRanges();
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
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelledBy}
        aria-describedby={hintId}
        tabIndex={0}
        data-testid="word-text"
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (!selection && paragraphs.length > 0) onSelection(cursorAt(caretIn(0, 0)));
        }}
        onMouseUp={(event) => onMouseUp(event.shiftKey)}
        onPaste={(event) => {
          event.preventDefault();
          const text = event.clipboardData.getData('text/plain');
          if (text) onCommand({ kind: 'type', text });
        }}
        onCopy={(event) => onCopy(event, false)}
        onCut={(event) => onCopy(event, true)}
        sx={{
          border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'auto', maxHeight: '60vh', bgcolor: 'background.paper', cursor: 'text',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        {paragraphs.map((paragraph, index) => {
          const own = selection?.focus.paragraphId === paragraph.id ? selection.focus.offset : null;
          const selected = range && index >= range[0][0] && index <= range[1][0]
            ? [index === range[0][0] ? range[0][1] : 0, index === range[1][0] ? range[1][1] : paragraph.text.length] as const : null;
          return (
            <ParagraphLine
              key={paragraph.id}
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
    </Stack>
  );
}
