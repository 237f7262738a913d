import type { Placeholder } from '@sheaf/shared';
import type { Face } from './faces/face.ts';

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

/** Glyphs of one font on one line, ready to show: `show` is a string operand plus Tj/TJ (and Ts). */
export interface TextRun {
  face: Face;
  /** Left edge, points. */
  x: number;
  /** Points. */
  width: number;
  show: string;
}

export interface TextLine {
  /** Left edge of the line's ink box, points. */
  x: number;
  baseline: number;
  /** Points, trailing spaces excluded. */
  width: number;
  /** Visual order, left to right. */
  runs: TextRun[];
}

/** One value laid out in one box: what `FontRegistry.draw` turns into operators. */
export interface TextLayout {
  /** The size used, after shrinkToFit. */
  fontSize: number;
  lines: TextLine[];
  /** The style's main face: its metrics place underline and strike-through. */
  primary: Face;
  style: TextStyle;
}
