/**
 * Font metrics shared by both kinds of font program. Kept apart from face.ts, which names the
 * font classes, so the fonts can use these without importing the module that imports them.
 */

/** Vertical metrics in em (multiply by the font size for points); descent is negative. */
export interface FontMetrics {
  ascent: number;
  descent: number;
  /** Baseline-to-baseline distance. */
  lineHeight: number;
  /** Centre of the underline below the baseline (negative). */
  underlinePosition: number;
  underlineThickness: number;
  /** Centre of the strike-through line above the baseline. */
  strikeoutPosition: number;
}

/** Minimum baseline distance in em, for fonts whose ascent+descent is tighter (all base-14 fonts are). */
export const MIN_LINE_HEIGHT = 1.15;
