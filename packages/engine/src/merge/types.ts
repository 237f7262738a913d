import type { OutputOptionsInput, Placeholder, RowSelection } from '@sheaf/shared';
import type { SheetData } from '../sheet/types.ts';

/** Font files the engine falls back on for characters the chosen font cannot print. */
export interface FallbackFonts {
  regular: Uint8Array;
  bold?: Uint8Array;
  italic?: Uint8Array;
  boldItalic?: Uint8Array;
}

/** Everything one merge needs, as bytes and values: the engine does no I/O. */
export interface MergeInput {
  /** The template PDF (already unlocked if it was encrypted). */
  template: Uint8Array;
  placeholders: readonly Placeholder[];
  sheet: SheetData;
  rows?: RowSelection;
  options?: OutputOptionsInput;
  /** Custom fonts by family name (.ttf/.otf bytes). */
  fonts?: ReadonlyMap<string, Uint8Array>;
  /** Images supplied with the template, by name (PNG or JPEG bytes). */
  images?: ReadonlyMap<string, Uint8Array>;
  fallbackFonts: FallbackFonts;
}


/** A problem with one row that does not stop the others (e.g. a missing image). */
export interface RowIssue {
  rowNumber: number;
  code: string;
  message: string;
}
