/**
 * Pure geometry of the editor. Placeholders are stored as fractions of the page as a person sees it
 * (origin top-left); on screen a page is its size in points times the zoom, in CSS pixels. Every
 * move, resize and nudge is clamped so a box never leaves its page.
 */
import { DEFAULT_PAGE_SIZE } from '@sheaf/shared';

export interface Size {
  width: number;
  height: number;
}

/** A box in fractions of its page. */
export interface RelBox {
  relativeX: number;
  relativeY: number;
  relativeWidth: number;
  relativeHeight: number;
}

export type ResizeHandle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const RESIZE_HANDLES: readonly ResizeHandle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Smallest box side, in on-screen pixels, a resize can make. */
export const MIN_BOX_PX = 6;
export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 4;
const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** The page size of a (1-based) page, or the default of docs/editor.md#coordinates when the template does not say. */
export function pageSizeOf(pages: readonly Size[], pageNumber: number): Size {
  return pages[pageNumber - 1] ?? DEFAULT_PAGE_SIZE;
}

/** On-screen size of a page at a zoom. */
export function pagePixels(page: Size, zoom: number): Size {
  return { width: page.width * zoom, height: page.height * zoom };
}

export interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function toPixels(box: RelBox, pagePx: Size): PixelBox {
  return {
    left: box.relativeX * pagePx.width,
    top: box.relativeY * pagePx.height,
    width: box.relativeWidth * pagePx.width,
    height: box.relativeHeight * pagePx.height,
  };
}

export function toRelative(box: PixelBox, pagePx: Size): RelBox {
  return clampBox({
    relativeX: box.left / pagePx.width,
    relativeY: box.top / pagePx.height,
    relativeWidth: box.width / pagePx.width,
    relativeHeight: box.height / pagePx.height,
  });
}

/** Keeps a box inside its page: no side longer than the page, no edge past the page's edges. */
export function clampBox(box: RelBox): RelBox {
  const relativeWidth = clamp(box.relativeWidth, 1e-4, 1);
  const relativeHeight = clamp(box.relativeHeight, 1e-4, 1);
  return {
    relativeX: clamp(box.relativeX, 0, 1 - relativeWidth),
    relativeY: clamp(box.relativeY, 0, 1 - relativeHeight),
    relativeWidth,
    relativeHeight,
  };
}

/** Moves a box by a pixel offset, staying on its page. */
export function moveBox(box: RelBox, dxPx: number, dyPx: number, pagePx: Size): RelBox {
  return clampBox({ ...box, relativeX: box.relativeX + dxPx / pagePx.width, relativeY: box.relativeY + dyPx / pagePx.height });
}

/** Drags one handle of a box by a pixel offset; the opposite edge stays put; sides stay >= MIN_BOX_PX. */
export function resizeBox(box: RelBox, handle: ResizeHandle, dxPx: number, dyPx: number, pagePx: Size): RelBox {
  const px = toPixels(box, pagePx);
  let left = px.left;
  let top = px.top;
  let right = px.left + px.width;
  let bottom = px.top + px.height;
  if (handle.includes('w')) left = clamp(left + dxPx, 0, right - MIN_BOX_PX);
  if (handle.includes('e')) right = clamp(right + dxPx, left + MIN_BOX_PX, pagePx.width);
  if (handle.includes('n')) top = clamp(top + dyPx, 0, bottom - MIN_BOX_PX);
  if (handle.includes('s')) bottom = clamp(bottom + dyPx, top + MIN_BOX_PX, pagePx.height);
  return toRelative({ left, top, width: right - left, height: bottom - top }, pagePx);
}

export type ArrowKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

export function isArrowKey(key: string): key is ArrowKey {
  return key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight';
}

/** Arrow keys nudge by 1 pixel, with Shift by 10 (docs/editor.md#editing). */
export function nudgeBox(box: RelBox, key: ArrowKey, shift: boolean, pagePx: Size): RelBox {
  const step = shift ? 10 : 1;
  const dx = key === 'ArrowLeft' ? -step : key === 'ArrowRight' ? step : 0;
  const dy = key === 'ArrowUp' ? -step : key === 'ArrowDown' ? step : 0;
  return moveBox(box, dx, dy, pagePx);
}

/** relativeFontSize is the font size over the page height (both in points). */
export function fontSizeToRelative(points: number, pageHeightPt: number): number {
  return clamp(points / pageHeightPt, 1e-4, 1);
}

/** Font size in points, rounded to a tenth for display. */
export function relativeToFontSize(relativeFontSize: number, pageHeightPt: number): number {
  return Math.round(relativeFontSize * pageHeightPt * 10) / 10;
}

/** Where a pointer is on a page element, in fractions of the page (for drops). */
export function pointToRelative(clientX: number, clientY: number, rect: { left: number; top: number; width: number; height: number }): { x: number; y: number } {
  return { x: clamp((clientX - rect.left) / rect.width, 0, 1), y: clamp((clientY - rect.top) / rect.height, 0, 1) };
}

export function clampZoom(zoom: number): number {
  return clamp(Math.round(zoom * 100) / 100, MIN_ZOOM, MAX_ZOOM);
}

/** The next zoom step up or down from the current zoom (Ctrl/Cmd + and -). */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  const next = direction > 0 ? ZOOM_STEPS.find((step) => step > zoom + 1e-3) : [...ZOOM_STEPS].reverse().find((step) => step < zoom - 1e-3);
  return next ?? (direction > 0 ? MAX_ZOOM : MIN_ZOOM);
}

/** Zoom at which the widest page fills the available width. */
export function fitWidthZoom(pages: readonly Size[], availableWidth: number): number {
  const widest = pages.reduce((max, page) => Math.max(max, page.width), 0) || DEFAULT_PAGE_SIZE.width;
  return clampZoom(availableWidth / widest);
}

/** Page numbers users type: 1..max; out of range is ignored (null), NaN or below 1 blanks the field (''). */
export function parsePageInput(raw: string, maxPage: number): { field: string; page: number | null } | null {
  const value = Number.parseInt(raw, 10);
  if (Number.isNaN(value) || value < 1) return { field: '', page: null };
  if (value > maxPage) return null;
  return { field: String(value), page: value };
}

/** Top offsets of pages stacked vertically with a gap, plus the total height (for scrolling and the current page). */
export function pageOffsets(pages: readonly Size[], zoom: number, gap: number): { tops: number[]; total: number } {
  const tops: number[] = [];
  let y = 0;
  for (const page of pages) {
    tops.push(y);
    y += page.height * zoom + gap;
  }
  return { tops, total: y };
}

/** The 1-based page under a vertical scroll position (the page holding the line `y`). */
export function pageAt(tops: readonly number[], y: number): number {
  let low = 0;
  let high = tops.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (tops[mid] <= y) low = mid;
    else high = mid - 1;
  }
  return Math.max(1, low + 1);
}
