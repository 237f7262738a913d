/**
 * One template page: a box of the page's size that draws the PDF page only while it is near the
 * viewport and lets go of the pixels when it is far, so a 200-page template stays light. Its
 * placeholders are always there; the page receives drops from the headings list.
 */
import { memo, useEffect, useRef, useState, type DragEvent } from 'react';
import { Box, Skeleton } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { renderPageToCanvas, type PDFDocumentProxy } from '../../lib/pdf.ts';
import type { Placeholder } from '@sheaf/shared';
import { pagePixels, type Size } from './geometry.ts';
import { applyGesture, type Gesture } from './editorSlice.ts';
import { isMissingColumn } from './placeholders.ts';
import { fontCss } from './fonts.ts';
import PlaceholderBox from './PlaceholderBox.tsx';

export const HEADING_DRAG_TYPE = 'application/x-sheaf-heading';

interface PageCanvasProps {
  pdf: PDFDocumentProxy | null;
  pageNumber: number;
  /** Page size in points. */
  page: Size;
  zoom: number;
  /** The scroll container, for the visibility check. */
  scrollRoot: HTMLElement | null;
  items: Placeholder[];
  /** The selection when it touches this page, else empty. */
  selection: string[];
  /** The gesture when it touches this page, else null. */
  gesture: Gesture | null;
  headings: string[] | null;
  customFonts: string[];
  loadedFonts: ReadonlySet<string>;
  onDropHeading: (pageNumber: number, heading: string, clientX: number, clientY: number, pageRect: DOMRect) => void;
  onBackgroundPointerDown: () => void;
}

function PageCanvas({ pdf, pageNumber, page, zoom, scrollRoot, items, selection, gesture, headings, customFonts, loadedFonts, onDropHeading, onBackgroundPointerDown }: PageCanvasProps) {
  const { t } = useTranslation('editor');
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(false);
  const [drawn, setDrawn] = useState(false);
  const size = pagePixels(page, zoom);

  // Near = within about one screen above or below the visible area.
  useEffect(() => {
    const element = pageRef.current;
    if (!element || !scrollRoot) return;
    const observer = new IntersectionObserver((entries) => setNear(entries.some((entry) => entry.isIntersecting)), {
      root: scrollRoot,
      rootMargin: '100% 0px 100% 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [scrollRoot]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!near || !pdf || !canvas) return;
    const abort = new AbortController();
    setDrawn(false);
    renderPageToCanvas(pdf, pageNumber, canvas, zoom, abort.signal).then(
      () => !abort.signal.aborted && setDrawn(true),
      () => undefined, // cancelled (scrolled away or zoomed) or a page pdf.js cannot draw: the blank page stays
    );
    return () => abort.abort();
  }, [near, pdf, pageNumber, zoom]);

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes(HEADING_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    const heading = event.dataTransfer.getData(HEADING_DRAG_TYPE);
    if (!heading) return;
    event.preventDefault();
    onDropHeading(pageNumber, heading, event.clientX, event.clientY, event.currentTarget.getBoundingClientRect());
  };

  return (
    <Box
      ref={pageRef}
      role="region"
      aria-label={t('page.label', { page: pageNumber })}
      data-page-number={pageNumber}
      onDragOver={onDragOver}
      onDrop={onDrop}
      onPointerDown={(event) => {
        if (event.target === event.currentTarget || event.target === canvasRef.current) onBackgroundPointerDown();
      }}
      sx={{ position: 'relative', width: size.width, height: size.height, bgcolor: 'common.white', boxShadow: 2, mx: 'auto', flex: 'none', userSelect: 'none' }}
    >
      {near ? <canvas ref={canvasRef} style={{ display: 'block', position: 'absolute', inset: 0 }} /> : null}
      {!drawn || !near ? (
        <Skeleton variant="rectangular" animation={near ? 'pulse' : false} sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', bgcolor: 'grey.100', pointerEvents: 'none' }} />
      ) : null}
      {items.map((item) => (
        <PlaceholderBox
          key={item.id}
          placeholder={applyGesture(gesture, item, size)}
          pagePx={size}
          selected={selection.includes(item.id)}
          selection={selection}
          missing={isMissingColumn(item.column, headings)}
          fontFamilyCss={fontCss(item.fontFamily, customFonts, loadedFonts)}
        />
      ))}
    </Box>
  );
}

export default memo(PageCanvas);
