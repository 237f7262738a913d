import type { Placeholder } from '@sheaf/shared';

/**
 * Text drawing contract. Coordinates are PDF points in the page's *visual* space (what a person
 * sees: crop box after rotation), origin bottom-left, y up. The PDF layer maps that space onto the
 * page's user space with one `cm`, so text code never thinks about rotation or crop boxes.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextStyle {
  fontFamily: string;
  fontStyle: Placeholder['fontStyle'];
  /** Points. */
  fontSize: number;
  align: Placeholder['align'];
  textDecoration: Placeholder['textDecoration'];
  /** #rrggbb */
  fill: string;
  /** Wrap onto several lines inside the box (default true). */
  wrap: boolean;
  /** Shrink the font until the text fits the box. */
  shrinkToFit: boolean;
}
