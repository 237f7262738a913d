/**
 * The document's text, paragraph by paragraph (body, then headers and footers): a click puts the
 * cursor where the field will go; a focused paragraph moves it with the arrow keys, Home and End, and
 * Up and Down go to the paragraph before or after. Search hits are marked; Next and Previous move the
 * cursor to the end of a hit.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Box, IconButton, InputAdornment, ListSubheader, Stack, TextField, Tooltip, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslation } from 'react-i18next';
import type { Caret, Paragraph, SearchHit } from './docxModel.ts';

interface DocumentTextProps {
  paragraphs: Paragraph[];
  caret: Caret | null;
  onCaret: (caret: Caret) => void;
  search: (query: string) => SearchHit[];
}

const partKind = (part: string) => (part.includes('header') ? 'header' : part.includes('footer') ? 'footer' : 'body');

/** The text with the hits marked and the cursor drawn (a zero-width bar that adds no characters). */
function pieces(text: string, hits: SearchHit[], caret: number | null): ReactNode[] {
  const stops = new Set<number>([0, text.length, ...hits.flatMap((hit) => [hit.offset, hit.offset + hit.length])]);
  if (caret !== null) stops.add(caret);
  const sorted = [...stops].sort((a, b) => a - b);
  const out: ReactNode[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const at = sorted[index]!;
    if (caret === at) out.push(<Box key={`caret-${at}`} component="span" data-testid="word-caret" aria-hidden sx={{ borderLeft: 2, borderColor: 'primary.main', mx: '-1px', animation: 'none' }} />);
    const next = sorted[index + 1];
    if (next === undefined || next === at) continue;
    const slice = text.slice(at, next);
    const marked = hits.some((hit) => at >= hit.offset && next <= hit.offset + hit.length);
    out.push(marked ? <Box key={at} component="mark" sx={{ bgcolor: 'warning.light', color: 'inherit' }}>{slice}</Box> : <span key={at}>{slice}</span>);
  }
  return out;
}

/** The character offset of a click: the text from the paragraph's start to where the browser put the selection. */
function clickOffset(element: HTMLElement): number | null {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0 || !element.contains(selection.anchorNode)) return null;
  const range = document.createRange();
  range.setStart(element, 0);
  range.setEnd(selection.anchorNode!, selection.anchorOffset);
  return range.toString().length;
}

export default function DocumentText({ paragraphs, caret, onCaret, search }: DocumentTextProps) {
  const { t } = useTranslation('editor');
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const hits = useMemo(() => (query.trim() ? search(query) : []), [query, search]);
  const refs = useRef(new Map<string, HTMLElement>());
  const lastFocused = useRef<string | null>(null);

  // A moved cursor stays in view and keeps the keyboard in its paragraph.
  useEffect(() => {
    if (!caret) return;
    const element = refs.current.get(caret.paragraphId);
    element?.scrollIntoView?.({ block: 'nearest' });
    if (lastFocused.current === caret.paragraphId && document.activeElement !== element) element?.focus();
  }, [caret]);

  const goToHit = (index: number) => {
    if (hits.length === 0) return;
    const wrapped = (index + hits.length) % hits.length;
    setCurrent(wrapped);
    const hit = hits[wrapped]!;
    onCaret({ paragraphId: hit.paragraphId, offset: hit.offset + hit.length });
  };

  const onKeyDown = (event: KeyboardEvent, paragraph: Paragraph, index: number) => {
    const offset = caret?.paragraphId === paragraph.id ? caret.offset : paragraph.text.length;
    const move = (target: Paragraph | undefined, to: number) => {
      if (!target) return;
      event.preventDefault();
      lastFocused.current = target.id;
      onCaret({ paragraphId: target.id, offset: Math.max(0, Math.min(to, target.text.length)) });
    };
    if (event.key === 'ArrowLeft') move(paragraph, offset - 1);
    else if (event.key === 'ArrowRight') move(paragraph, offset + 1);
    else if (event.key === 'Home') move(paragraph, 0);
    else if (event.key === 'End') move(paragraph, paragraph.text.length);
    else if (event.key === 'ArrowUp') move(paragraphs[index - 1], offset);
    else if (event.key === 'ArrowDown') move(paragraphs[index + 1], offset);
  };

  const onClick = (event: MouseEvent<HTMLElement>, paragraph: Paragraph) => {
    lastFocused.current = paragraph.id;
    const offset = paragraph.text === '' ? 0 : clickOffset(event.currentTarget);
    onCaret({ paragraphId: paragraph.id, offset: offset ?? paragraph.text.length });
  };

  const hitsOf = (id: string) => hits.filter((hit) => hit.paragraphId === id);
  // A part's first paragraph carries the part's heading (Body, Header, Footer).
  const startsPart = paragraphs.map((paragraph, index) => index === 0 || partKind(paragraphs[index - 1]!.part) !== partKind(paragraph.part));
  return (
    <Stack spacing={1} sx={{ minHeight: 0 }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <TextField
          size="small"
          fullWidth
          label={t('word.searchLabel')}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setCurrent(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              goToHit(event.shiftKey ? current - 1 : current + (caret ? 1 : 0));
            }
          }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        />
        <Tooltip title={t('word.previous')}>
          <span><IconButton aria-label={t('word.previous')} disabled={hits.length === 0} onClick={() => goToHit(current - 1)}><KeyboardArrowUpIcon /></IconButton></span>
        </Tooltip>
        <Tooltip title={t('word.next')}>
          <span><IconButton aria-label={t('word.next')} disabled={hits.length === 0} onClick={() => goToHit(current + 1)}><KeyboardArrowDownIcon /></IconButton></span>
        </Tooltip>
      </Stack>
      {query.trim() && (
        <Typography variant="body2" color="text.secondary" role="status" data-testid="word-search-count">
          {hits.length === 0 ? t('word.searchNone') : t('word.searchCount', { count: hits.length })}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary">{t('word.caretHint')}</Typography>
      <Box component="section" aria-label={t('word.textTitle')} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'auto', maxHeight: '60vh', bgcolor: 'background.paper' }}>
        {paragraphs.map((paragraph, index) => {
          const kind = partKind(paragraph.part);
          const heading = startsPart[index] ? <ListSubheader component="h3" sx={{ lineHeight: 2.5 }}>{t(`word.parts.${kind}`)}</ListSubheader> : null;
          const own = caret?.paragraphId === paragraph.id ? caret.offset : null;
          return (
            <Box key={paragraph.id}>
              {heading}
              <Box
                ref={(element: HTMLElement | null) => {
                  if (element) refs.current.set(paragraph.id, element);
                  else refs.current.delete(paragraph.id);
                }}
                role="button"
                tabIndex={0}
                data-testid="word-paragraph"
                aria-label={t('word.paragraphLabel', { number: index + 1, text: paragraph.text || t('word.emptyParagraph') })}
                aria-current={own !== null ? 'true' : undefined}
                onClick={(event: MouseEvent<HTMLElement>) => onClick(event, paragraph)}
                onKeyDown={(event: KeyboardEvent) => onKeyDown(event, paragraph, index)}
                sx={{
                  px: 1.5, py: 0.75, whiteSpace: 'pre-wrap', cursor: 'text', minHeight: 32, borderLeft: 3,
                  borderColor: own !== null ? 'primary.main' : 'transparent', pl: paragraph.inTable ? 3 : 1.5,
                  '&:hover': { bgcolor: 'action.hover' }, '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
                }}
              >
                {paragraph.text === ''
                  ? <>{own !== null && pieces('', [], 0)}<Typography component="span" variant="body2" color="text.secondary" aria-hidden>{t('word.emptyParagraph')}</Typography></>
                  : pieces(paragraph.text, hitsOf(paragraph.id), own)}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Stack>
  );
}
