/**
 * Making and ordering placeholders (pure). New placeholders get a readable default size: 12 pt text
 * in a box a quarter of the page wide, placed where the user dropped or asked for it.
 */
import { FALLBACK_FONT, hasColumn, type Placeholder, type PlaceholderType } from '@sheaf/shared';
import { clampBox, fontSizeToRelative, type Size } from './geometry.ts';

export const DEFAULT_FONT_SIZE_PT = 12;
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random id (crypto.getRandomValues works on plain-http hosts too, unlike randomUUID). */
export function newPlaceholderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ph_${Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('')}`;
}

/** A text placeholder for `column` centred on (x, y), fractions of `page`. */
export function createPlaceholder(column: string, pageNumber: number, page: Size, at: { x: number; y: number }, type: PlaceholderType = 'text'): Placeholder {
  const relativeFontSize = fontSizeToRelative(DEFAULT_FONT_SIZE_PT, page.height);
  const relativeWidth = Math.min(1, 180 / page.width);
  const relativeHeight = Math.min(1, (DEFAULT_FONT_SIZE_PT * 1.8) / page.height);
  const box = clampBox({ relativeX: at.x - relativeWidth / 2, relativeY: at.y - relativeHeight / 2, relativeWidth, relativeHeight });
  return {
    id: newPlaceholderId(),
    type,
    column,
    typeSettings: {},
    pageNumber,
    ...box,
    relativeFontSize,
    fontFamily: FALLBACK_FONT,
    align: 'left',
    fontStyle: 'normal',
    textDecoration: 'none',
    fill: '#000000',
  };
}

/** Reading order: page, then top to bottom, then left to right (Tab order and the side list). */
export function byReadingOrder(a: Placeholder, b: Placeholder): number {
  return a.pageNumber - b.pageNumber || a.relativeY - b.relativeY || a.relativeX - b.relativeX;
}

/**
 * A column the spreadsheet does not have: only meaningful once a spreadsheet is attached. Matched by
 * the shared rule the merge fills by (a heading differing only in case or spaces is the column).
 */
export function isMissingColumn(column: string, headings: readonly string[] | null): boolean {
  return headings !== null && !hasColumn(headings, column);
}

/** Placeholders whose column contains the search text, case-insensitive. */
export function filterByColumn(list: readonly Placeholder[], search: string): Placeholder[] {
  const needle = search.trim().toLocaleLowerCase();
  const found = needle ? list.filter((item) => item.column.toLocaleLowerCase().includes(needle)) : [...list];
  return found.sort(byReadingOrder);
}

/** Points between placeholders stacked by "add": room for the type badge drawn above each box. */
export const STACK_GAP_PT = 14;

/**
 * Where to put a new placeholder (of the default size) near (x, y) so it does not land on another
 * one: steps down the page, then up, leaving STACK_GAP_PT between the boxes.
 */
export function freeSpot(list: readonly Placeholder[], pageNumber: number, page: Size, x: number, y: number): { x: number; y: number } {
  const onPage = list.filter((item) => item.pageNumber === pageNumber);
  const height = Math.min(1, (DEFAULT_FONT_SIZE_PT * 1.8) / page.height);
  const gap = STACK_GAP_PT / page.height;
  // The tolerance keeps a spot exactly one step away free despite rounding.
  const taken = (candidate: number) =>
    onPage.some((item) => Math.abs(item.relativeY + item.relativeHeight / 2 - candidate) < (item.relativeHeight + height) / 2 + gap - 1e-9 && Math.abs(item.relativeX + item.relativeWidth / 2 - x) < item.relativeWidth * 0.5);
  const step = height + gap;
  for (let candidate = y; candidate < 0.97; candidate += step) if (!taken(candidate)) return { x, y: candidate };
  for (let candidate = y - step; candidate > 0.03; candidate -= step) if (!taken(candidate)) return { x, y: candidate };
  return { x, y };
}
