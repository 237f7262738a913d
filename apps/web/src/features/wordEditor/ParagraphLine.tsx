/**
 * One paragraph of the editor's text: its fields, search hits and selected part marked, the cursor
 * drawn. Drawn again only when what it shows changed (a keystroke redraws one paragraph, not all).
 */
import { memo, type ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import type { Paragraph, SearchHit } from './docxModel.ts';
import { fieldsOf } from './textEdits.ts';

interface ParagraphLineProps {
  paragraph: Paragraph;
  /** The part's name (Body, Header...) above its first paragraph. */
  heading: string | null;
  caret: number | null;
  selectedFrom: number | null;
  selectedTo: number | null;
  hits: SearchHit[];
  emptyLabel: string;
  elementRef: (element: HTMLElement | null) => void;
}

/**
 * The text with its fields, the hits and the selection marked and the cursor drawn (a zero-width bar
 * that adds no characters). What is no text (the bar, labels) is not editable: the browser's caret,
 * and an input method's text, never go into it.
 */
function pieces(text: string, hits: SearchHit[], caret: number | null, selected: [number, number] | null): ReactNode[] {
  const fields = fieldsOf(text);
  const stops = new Set<number>([0, text.length, ...hits.flatMap((hit) => [hit.offset, hit.offset + hit.length]), ...fields.flatMap(({ start, end }) => [start, end]), ...(selected ?? [])]);
  if (caret !== null) stops.add(caret);
  const sorted = [...stops].sort((a, b) => a - b);
  const out: ReactNode[] = [];
  for (let index = 0; index < sorted.length; index++) {
    const at = sorted[index]!;
    if (caret === at) out.push(<Box key={`caret-${at}`} component="span" data-testid="word-caret" aria-hidden contentEditable={false} sx={{ borderLeft: 2, borderColor: 'primary.main', mx: '-1px' }} />);
    const next = sorted[index + 1];
    if (next === undefined || next === at) continue;
    const slice = text.slice(at, next);
    const marked = hits.some((hit) => at >= hit.offset && next <= hit.offset + hit.length);
    const inSelection = selected !== null && at >= selected[0] && next <= selected[1];
    const inField = fields.some(({ start, end }) => at >= start && next <= end);
    out.push(
      <Box key={at} component={marked ? 'mark' : 'span'} data-selected={inSelection || undefined}
        sx={{
          ...(inField && { bgcolor: 'action.selected', borderRadius: 0.5, color: 'primary.dark' }),
          ...(marked && { bgcolor: 'warning.light', color: 'inherit' }),
          ...(inSelection && { bgcolor: 'primary.main', color: 'primary.contrastText' }),
        }}>
        {slice}
      </Box>,
    );
  }
  return out;
}

function ParagraphLine({ paragraph, heading, caret, selectedFrom, selectedTo, hits, emptyLabel, elementRef }: ParagraphLineProps) {
  const selected: [number, number] | null = selectedFrom !== null && selectedTo !== null ? [selectedFrom, selectedTo] : null;
  return (
    <Box>
      {heading && <Typography variant="overline" color="text.secondary" contentEditable={false} sx={{ display: 'block', px: 1.5, pt: 1, userSelect: 'none' }}>{heading}</Typography>}
      <Box
        ref={elementRef}
        data-testid="word-paragraph"
        data-paragraph-id={paragraph.id}
        aria-current={caret !== null ? 'true' : undefined}
        sx={{
          px: 1.5, py: 0.75, whiteSpace: 'pre-wrap', minHeight: 32, borderLeft: 3,
          borderColor: caret !== null ? 'primary.main' : 'transparent', pl: paragraph.inTable ? 3 : 1.5,
          '&:hover': { bgcolor: 'action.hover' },
        }}
      >
        {paragraph.text === ''
          ? <>{caret !== null && pieces('', [], 0, null)}<Typography component="span" variant="body2" color="text.secondary" aria-hidden contentEditable={false} sx={{ userSelect: 'none' }}>{emptyLabel}</Typography></>
          : pieces(paragraph.text, hits, caret, selected)}
      </Box>
    </Box>
  );
}

const sameHits = (a: SearchHit[], b: SearchHit[]) => a.length === b.length && a.every((hit, index) => hit.offset === b[index]!.offset && hit.length === b[index]!.length);

export default memo(ParagraphLine, (before, after) =>
  before.paragraph.id === after.paragraph.id && before.paragraph.text === after.paragraph.text && before.paragraph.inTable === after.paragraph.inTable
  && before.heading === after.heading && before.caret === after.caret && before.selectedFrom === after.selectedFrom && before.selectedTo === after.selectedTo
  && before.emptyLabel === after.emptyLabel && sameHits(before.hits, after.hits));
