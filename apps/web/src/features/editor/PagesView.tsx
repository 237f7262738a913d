/**
 * The pages stacked vertically in one scroll area, with the placeholders over them. Tracks the page
 * at the top of the view (shown in the toolbar), keeps that page in place when the zoom changes, and
 * offers scrollToPage / fitWidth to the toolbar.
 */
import { useCallback, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Placeholder } from '@sheaf/shared';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import type { PDFDocumentProxy } from '../../lib/pdf.ts';
import { fitWidthZoom, pageAt, pageOffsets, pageSizeOf, pointToRelative, type Size } from './geometry.ts';
import { addPlaceholder, select, selectEditorDoc, setPageNumber, setZoom } from './editorSlice.ts';
import { byReadingOrder, createPlaceholder } from './placeholders.ts';
import PageCanvas from './PageCanvas.tsx';
import { PAGES_VIEW_ID } from './focus.ts';

const PAGE_GAP = 16;
const PADDING = 24;

export interface PagesViewHandle {
  scrollToPage(page: number, relativeY?: number): void;
  fitWidth(): void;
  /** The vertical middle of what is visible of a page, as a fraction of it (where "add" puts things). */
  visibleMiddleOf(page: number): number;
}

interface PagesViewProps {
  pdf: PDFDocumentProxy | null;
  pages: Size[];
  headings: string[] | null;
  customFonts: string[];
  loadedFonts: ReadonlySet<string>;
  ref?: Ref<PagesViewHandle>;
}

export default function PagesView({ pdf, pages, headings, customFonts, loadedFonts, ref }: PagesViewProps) {
  const { t } = useTranslation('editor');
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const zoom = doc?.zoom ?? 0;
  const { tops } = useMemo(() => pageOffsets(pages, zoom, PAGE_GAP), [pages, zoom]);
  const anchor = useRef<{ page: number; fraction: number }>({ page: 1, fraction: 0 });
  const frame = useRef(0);

  const fitWidth = useCallback(() => {
    if (scroller) dispatch(setZoom(fitWidthZoom(pages, Math.max(200, scroller.clientWidth - 2 * PADDING - 16))));
  }, [dispatch, pages, scroller]);

  // First open: fit the widest page to the view (never blown up past 150%).
  useLayoutEffect(() => {
    if (scroller && zoom === 0) dispatch(setZoom(Math.min(1.5, fitWidthZoom(pages, Math.max(200, scroller.clientWidth - 2 * PADDING - 16)))));
  }, [dispatch, pages, scroller, zoom]);

  // After a zoom change, the page that was at the top stays at the top. Only a new zoom moves the
  // view: scrolling moves the anchor, not the other way round.
  const placedAtZoom = useRef(0);
  useLayoutEffect(() => {
    if (!scroller || zoom === 0 || placedAtZoom.current === zoom) return;
    placedAtZoom.current = zoom;
    const { page, fraction } = anchor.current;
    const size = pageSizeOf(pages, page);
    scroller.scrollTo({ top: PADDING + (tops[page - 1] ?? 0) + fraction * size.height * zoom });
  }, [zoom, pages, scroller, tops]);

  const onScroll = () => {
    if (!scroller || frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const y = scroller.scrollTop - PADDING;
      const page = pageAt(tops, y + scroller.clientHeight / 3);
      const top = pageAt(tops, y);
      const height = pageSizeOf(pages, top).height * zoom;
      anchor.current = { page: top, fraction: Math.max(0, (y - (tops[top - 1] ?? 0)) / height) };
      if (page !== doc?.pageNumber) dispatch(setPageNumber(page));
    });
  };

  useImperativeHandle(ref, () => ({
    scrollToPage(page: number, relativeY = 0) {
      if (!scroller) return;
      const height = pageSizeOf(pages, page).height * zoom;
      scroller.scrollTo({ top: PADDING + (tops[page - 1] ?? 0) + relativeY * height - 16 });
      dispatch(setPageNumber(page));
    },
    fitWidth,
    visibleMiddleOf(page: number) {
      if (!scroller) return 0.5;
      const pageTop = PADDING + (tops[page - 1] ?? 0);
      const height = pageSizeOf(pages, page).height * zoom;
      const from = Math.max(scroller.scrollTop, pageTop);
      const to = Math.min(scroller.scrollTop + scroller.clientHeight, pageTop + height);
      return to > from ? ((from + to) / 2 - pageTop) / height : 0.5;
    },
  }), [dispatch, fitWidth, pages, scroller, tops, zoom]);

  const byPage = useMemo(() => {
    const groups = new Map<number, Placeholder[]>();
    for (const item of [...(doc?.history.present.value ?? [])].sort(byReadingOrder)) {
      const list = groups.get(item.pageNumber) ?? [];
      list.push(item);
      groups.set(item.pageNumber, list);
    }
    return groups;
  }, [doc?.history.present.value]);

  const onDropHeading = useCallback((pageNumber: number, heading: string, clientX: number, clientY: number, rect: DOMRect) => {
    const at = pointToRelative(clientX, clientY, rect);
    dispatch(addPlaceholder(createPlaceholder(heading, pageNumber, pageSizeOf(pages, pageNumber), at)));
  }, [dispatch, pages]);

  const clearSelection = useCallback(() => dispatch(select([])), [dispatch]);

  // Each page gets only what concerns it, so scrolling or a drag on one page re-renders that page alone.
  const selection = doc?.selection ?? NONE;
  const gesture = doc?.gesture ?? null;
  const selectedPages = useMemo(() => pagesOf(byPage, selection), [byPage, selection]);
  const gesturePages = useMemo(() => pagesOf(byPage, gesture?.ids ?? NONE), [byPage, gesture?.ids]);
  return (
    // A focusable region: keyboard users can scroll it, and focus lands here when a placeholder is deleted.
    <Box ref={setScroller} onScroll={onScroll} id={PAGES_VIEW_ID} data-testid="editor-pages" role="region" aria-label={t('pagesView.label')} tabIndex={0} sx={{ flex: 1, minWidth: 0, overflow: 'auto', bgcolor: 'grey.200', p: `${PADDING}px` }}>
      {doc && zoom > 0 ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: `${PAGE_GAP}px`, width: 'max-content', minWidth: '100%' }}>
          {pages.map((page, index) => (
            <PageCanvas
              key={index + 1}
              pdf={pdf}
              pageNumber={index + 1}
              page={page}
              zoom={zoom}
              scrollRoot={scroller}
              items={byPage.get(index + 1) ?? NO_ITEMS}
              selection={selectedPages.has(index + 1) ? selection : NONE}
              gesture={gesturePages.has(index + 1) ? gesture : null}
              headings={headings}
              customFonts={customFonts}
              loadedFonts={loadedFonts}
              onDropHeading={onDropHeading}
              onBackgroundPointerDown={clearSelection}
            />
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

const NONE: string[] = [];
const NO_ITEMS: Placeholder[] = [];

function pagesOf(byPage: Map<number, Placeholder[]>, ids: readonly string[]): Set<number> {
  const pages = new Set<number>();
  if (ids.length === 0) return pages;
  for (const [page, items] of byPage) if (items.some((item) => ids.includes(item.id))) pages.add(page);
  return pages;
}
