import type { EmbeddedFont } from './embedded-font.ts';
import type { StandardFont } from './standard-font.ts';

/** A font program that becomes one PDF font resource. */
export type PdfFont = StandardFont | EmbeddedFont;

/**
 * What a run of text is drawn with: a font plus the styles the font file lacks, synthesised
 * (bold: fill and stroke; italic: a skewed text matrix).
 */
export interface Face {
  readonly font: PdfFont;
  readonly synthBold: boolean;
  readonly synthItalic: boolean;
}

/** The faces one (family, style) pair draws with: its own, then DejaVu for what it lacks. */
export interface FaceSet {
  primary: Face;
  /** The fallback font in the same style. */
  fallback: Face;
}

/** Line width of synthesised bold, in em: thin enough to keep counters open. */
export const SYNTH_BOLD_STROKE = 0.03;
/** Horizontal skew of synthesised italic (tan 12 degrees). */
export const SYNTH_ITALIC_SKEW = 0.2126;
