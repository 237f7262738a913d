/**
 * Placeholders resolved once per merge: their column index, their box in the page's visual space
 * and their text style. Per-row drawing then only reads cells.
 */
import { SheafError, columnIndex as headingIndex, type Placeholder } from '@sheaf/shared';
import type { SheetData } from '../sheet/types.ts';
import type { Box, TextStyle } from '../text/types.ts';
import type { TemplatePage } from '../pdf/template.ts';

export interface PlacedPlaceholder {
  placeholder: Placeholder;
  column: number;
  page: TemplatePage;
  /** Visual space, origin bottom-left. */
  box: Box;
  style: TextStyle;
}

/** Heading -> column index: the shared rule the editor and the server apply (packages/shared/src/rules/columns.ts). */
export function columnIndex(sheet: SheetData, column: string): number | undefined {
  return headingIndex(sheet.headers, column);
}

export function placePlaceholders(placeholders: readonly Placeholder[], sheet: SheetData, pages: readonly TemplatePage[]): PlacedPlaceholder[] {
  return placeholders.map((placeholder) => {
    const column = columnIndex(sheet, placeholder.column);
    if (column === undefined) throw new SheafError('merge/missing-column', { column: placeholder.column, name: placeholder.id });
    const page = pages[placeholder.pageNumber - 1];
    if (!page) throw new SheafError('template/page-out-of-range', { name: placeholder.id, page: placeholder.pageNumber, pages: pages.length });
    return { placeholder, column, page, ...placementOf(placeholder, page) };
  });
}

/** A placeholder's box in the visual space of a page of this size, and its text style (merges and the data check alike). */
export function placementOf(placeholder: Placeholder, page: { readonly width: number; readonly height: number }): { box: Box; style: TextStyle } {
  const { width, height } = page;
  const box: Box = {
    x: placeholder.relativeX * width,
    y: height - (placeholder.relativeY + placeholder.relativeHeight) * height,
    width: placeholder.relativeWidth * width,
    height: placeholder.relativeHeight * height,
  };
  const style: TextStyle = {
    fontFamily: placeholder.fontFamily,
    fontStyle: placeholder.fontStyle,
    fontSize: placeholder.relativeFontSize * height,
    align: placeholder.align,
    textDecoration: placeholder.textDecoration,
    fill: placeholder.fill,
    wrap: placeholder.typeSettings.wrap ?? true,
    shrinkToFit: placeholder.typeSettings.shrinkToFit ?? false,
  };
  return { box, style };
}
